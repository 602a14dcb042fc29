// SPDX-License-Identifier: GPL-2.0-only
/* Daemon and holder processes. See peer.h. */
#include "peer.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

unsigned long long host_proc_start(long pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* comm may hold spaces and parentheses: count from the last ')'. */
	char *s = strrchr(buf, ')');
	if (!s)
		return 0;
	s++;
	for (int field = 3; field < 22 && s; field++)
		s = strchr(s + 1, ' ');
	return s ? strtoull(s + 1, NULL, 10) : 0;
}

bool host_proc_alive(long pid, unsigned long long start)
{
	return pid > 0 && start && host_proc_start(pid) == start;
}

/* The process pid, if it started at `start`, runs under this user and
 * runs this very program: a pid from run/pmlab may have been forged to
 * name any process. Through a pidfd opened before the checks, so that a
 * pid recycled after them is not the one signalled (kill() where the
 * kernel predates pidfds, 5.3). */
bool host_proc_signal(long pid, unsigned long long start, int sig)
{
	char path[64];
	struct stat self, exe, dir;
	if (pid <= 0 || pid == (long)getpid() || pid > INT_MAX)
		return false;
	int pfd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
	if (pfd < 0 && errno != ENOSYS)
		return false;
	snprintf(path, sizeof(path), "/proc/%ld", pid);
	bool ok = stat(path, &dir) == 0 && dir.st_uid == geteuid();
	snprintf(path, sizeof(path), "/proc/%ld/exe", pid);
	ok = ok && stat("/proc/self/exe", &self) == 0 && stat(path, &exe) == 0 &&
	     self.st_dev == exe.st_dev && self.st_ino == exe.st_ino;
	ok = ok && host_proc_alive(pid, start);
	if (ok)
		ok = pfd >= 0 ? syscall(SYS_pidfd_send_signal, pfd, sig, NULL, 0) == 0
			      : kill((pid_t)pid, sig) == 0;
	if (pfd >= 0)
		close(pfd);
	return ok;
}

void host_proc_stop(long pid, unsigned long long start)
{
	host_proc_signal(pid, start, SIGTERM);
}

/* "PID START US\n" of run/pmlab/daemon, if that process is alive; US is
 * the PM QoS request it holds (-1 none; absent from older daemons). */
static long daemon_read(const struct hostfs *fs, unsigned long long *start, int64_t *us)
{
	char *text;
	size_t len;
	struct pm_diag d;
	long pid = 0;
	long long held = -1;
	if (hostfs_state_load(fs, "daemon", &text, &len, &d) < 0 || !text)
		return 0;
	if (sscanf(text, "%ld %llu %lld", &pid, start, &held) < 2 || !host_proc_alive(pid, *start))
		pid = 0;
	free(text);
	*us = held;
	return pid;
}

static int daemon_write(struct hostfs *fs, int64_t us, struct pm_diag *d)
{
	char text[96];
	int n = snprintf(text, sizeof(text), "%ld %llu %lld\n", (long)getpid(),
			 host_proc_start((long)getpid()), (long long)us);
	return hostfs_state_save(fs, "daemon", text, (size_t)n, d);
}

long host_daemon_pid(const struct hostfs *fs)
{
	unsigned long long start;
	int64_t us;
	return daemon_read(fs, &start, &us);
}

long host_daemon_holding(const struct hostfs *fs, int64_t *us)
{
	unsigned long long start;
	return daemon_read(fs, &start, us);
}

int host_daemon_record(struct hostfs *fs, int64_t us, struct pm_diag *d)
{
	return daemon_write(fs, us, d);
}

int host_daemon_register(struct hostfs *fs, struct pm_diag *d)
{
	long other = host_daemon_pid(fs);
	if (other && other != (long)getpid())
		return pm_fail(d, "a pmlab daemon already runs (pid %ld)", other);
	return daemon_write(fs, -1, d);
}

void host_daemon_unregister(struct hostfs *fs)
{
	struct pm_diag d;
	if (host_daemon_pid(fs) == (long)getpid())
		hostfs_state_remove(fs, "daemon", &d);
}

bool host_daemon_notify(const struct hostfs *fs)
{
	unsigned long long start;
	int64_t us;
	long pid = daemon_read(fs, &start, &us);
	return pid && host_proc_signal(pid, start, SIGHUP);
}

/* --- Other power managers --- */

static bool numeric(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* proc/PID/comm under the root, "" if none. */
static void comm_of(const struct hostfs *fs, long pid, char *buf, size_t len)
{
	char rel[64];
	struct pm_diag ignore;
	snprintf(rel, sizeof(rel), "proc/%ld/comm", pid);
	if (hostfs_read_str(fs, rel, buf, len, &ignore) < 0)
		buf[0] = '\0';
}

/* Whether proc/PID/cmdline (NUL-separated) mentions `word`. */
static bool cmdline_has(const struct hostfs *fs, long pid, const char *word)
{
	char rel[64], buf[4096];
	struct pm_diag ignore;
	snprintf(rel, sizeof(rel), "proc/%ld/cmdline", pid);
	ssize_t n = hostfs_read(fs, rel, buf, sizeof(buf), &ignore);
	if (n <= 0)
		return false;
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	buf[n] = '\0';
	return strstr(buf, word) != NULL;
}

/* The first process under the root whose comm is `comm` (and whose
 * cmdline has `word`, if given); 0 if none. */
static long find_process(const struct hostfs *fs, const char *comm, const char *word)
{
	char **names, c[64];
	int n;
	struct pm_diag ignore;
	long found = 0;
	if (hostfs_list(fs, "proc", &names, &n, &ignore) < 0)
		return 0;
	for (int i = 0; i < n && !found; i++) {
		if (!numeric(names[i]) || strlen(names[i]) > 9)
			continue;
		long pid = strtol(names[i], NULL, 10);
		comm_of(fs, pid, c, sizeof(c));
		if (strcmp(c, comm) == 0 && (!word || cmdline_has(fs, pid, word)))
			found = pid;
	}
	hostfs_free_list(names, n);
	return found;
}

static struct host_peer *add(struct host_peer *out, int *n, int max, const char *name)
{
	if (*n == max)
		return NULL;
	struct host_peer *p = &out[(*n)++];
	*p = (struct host_peer){ 0 };
	snprintf(p->name, sizeof(p->name), "%s", name);
	return p;
}

static void find_tuned(const struct hostfs *fs, struct host_peer *out, int *n, int max)
{
	char text[64], c[64], profile[128], shown[HOSTFS_ROOT_MAX + 64];
	struct pm_diag ignore;
	long pid = 0;
	const char *how = "its process";
	if (hostfs_read_str(fs, "run/tuned/tuned.pid", text, sizeof(text), &ignore) == 0 &&
	    numeric(text) && strlen(text) <= 9) {
		pid = strtol(text, NULL, 10);
		comm_of(fs, pid, c, sizeof(c));
		if (strcmp(c, "tuned") == 0)
			how = "run/tuned/tuned.pid";
		else
			pid = 0; /* stale: tuned did not stop cleanly */
	}
	if (!pid)
		pid = find_process(fs, "tuned", NULL);
	if (!pid)
		return;
	struct host_peer *p = add(out, n, max, "tuned");
	if (!p)
		return;
	p->pid = pid;
	if (hostfs_read_str(fs, "etc/tuned/active_profile", profile, sizeof(profile), &ignore) < 0)
		profile[0] = '\0';
	hostfs_show(fs, strcmp(how, "its process") == 0 ? "proc" : "run/tuned/tuned.pid", shown,
		    sizeof(shown));
	/* tuned-adm off leaves the daemon up with no profile: it writes nothing */
	p->conflict = profile[0] != '\0' || !hostfs_exists(fs, "etc/tuned/active_profile");
	snprintf(p->evidence, sizeof(p->evidence), "pid %ld (%.300s), profile %.100s", pid, shown,
		 profile[0] ? profile : "none (tuned-adm off)");
	snprintf(p->stop, sizeof(p->stop), "systemctl stop tuned (and systemctl disable tuned to "
		 "keep it off at boot), or tuned-adm off to keep it running without a profile");
}

static void find_ppd(const struct hostfs *fs, struct host_peer *out, int *n, int max)
{
	static const char *const services[] = {
		"usr/share/dbus-1/system-services/net.hadess.PowerProfiles.service",
		"usr/share/dbus-1/system-services/org.freedesktop.UPower.PowerProfiles.service",
	};
	char shown[HOSTFS_ROOT_MAX + 128];
	long pid = find_process(fs, "power-profiles-", "power-profiles-daemon");
	const char *activation = NULL;
	for (size_t i = 0; i < sizeof(services) / sizeof(services[0]) && !activation; i++)
		if (hostfs_exists(fs, services[i]))
			activation = services[i];
	if (!pid && !activation)
		return;
	struct host_peer *p = add(out, n, max, "power-profiles-daemon");
	if (!p)
		return;
	p->pid = pid;
	p->conflict = pid != 0;
	if (pid) {
		hostfs_show(fs, "proc", shown, sizeof(shown));
		snprintf(p->evidence, sizeof(p->evidence), "pid %ld (%.300s/%ld/comm)", pid, shown, pid);
	} else {
		hostfs_show(fs, activation, shown, sizeof(shown));
		snprintf(p->evidence, sizeof(p->evidence), "not running, but D-Bus starts it on "
			 "demand (%.300s)", shown);
	}
	snprintf(p->stop, sizeof(p->stop), "systemctl stop power-profiles-daemon, and systemctl "
		 "mask power-profiles-daemon so that no D-Bus client starts it again");
}

/* argv of a process of this kernel (the real /proc), NUL-separated. */
static ssize_t real_cmdline(long pid, char *buf, size_t len)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return (ssize_t)n;
}

/* Whether a pmlab with this argv works on fs's root: --root DIR (or
 * --root=DIR) naming it, or none and the root is "/". */
static bool same_root(const struct hostfs *fs, const char *argv, size_t n)
{
	const char *root = NULL;
	for (const char *a = argv; a < argv + n; a += strlen(a) + 1) {
		if (strcmp(a, "--root") == 0 && a + strlen(a) + 1 < argv + n)
			root = a + strlen(a) + 1;
		else if (strncmp(a, "--root=", 7) == 0)
			root = a + 7;
	}
	if (!root)
		return fs->real;
	char *real = realpath(root, NULL);
	bool same = real && strcmp(real, fs->root) == 0;
	free(real);
	return same;
}

static void find_pmlab(const struct hostfs *fs, struct host_peer *out, int *n, int max)
{
	static const char *const writers[] = { "govd", "bench" };
	DIR *dir = opendir("/proc");
	if (!dir)
		return;
	for (struct dirent *e; (e = readdir(dir)) != NULL;) {
		if (!numeric(e->d_name) || strlen(e->d_name) > 9)
			continue;
		long pid = strtol(e->d_name, NULL, 10);
		char path[64], comm[32] = "", argv[4096];
		if (pid == (long)getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = '\0';
		fclose(f);
		comm[strcspn(comm, "\n")] = '\0';
		ssize_t len;
		if (strcmp(comm, "pmlab") != 0 || (len = real_cmdline(pid, argv, sizeof(argv))) <= 0)
			continue;
		const char *sub = argv + strlen(argv) + 1; /* argv[1] */
		if (sub >= argv + len)
			continue;
		for (size_t w = 0; w < sizeof(writers) / sizeof(writers[0]); w++) {
			if (strcmp(sub, writers[w]) != 0 || !same_root(fs, argv, (size_t)len))
				continue;
			char name[32];
			snprintf(name, sizeof(name), "pmlab %s", writers[w]);
			struct host_peer *p = add(out, n, max, name);
			if (!p)
				break;
			p->pid = pid;
			p->conflict = true;
			snprintf(p->evidence, sizeof(p->evidence), "pid %ld", pid);
			snprintf(p->stop, sizeof(p->stop), "kill -TERM %ld (it restores what it changed "
				 "as it stops)", pid);
		}
	}
	closedir(dir);
}

int host_find_peers(const struct hostfs *fs, struct host_peer *out, int max)
{
	int n = 0;
	find_tuned(fs, out, &n, max);
	find_ppd(fs, out, &n, max);
	find_pmlab(fs, out, &n, max);
	return n;
}

void host_peers_running(const struct host_peer *p, int n, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && used < len; i++)
		if (p[i].pid)
			used += (size_t)snprintf(buf + used, len - used, "%s%s (pid %ld)",
						 used ? ", " : "", p[i].name, p[i].pid);
}
