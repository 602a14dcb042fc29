// SPDX-License-Identifier: GPL-2.0-only
/* Daemon and holder processes. See peer.h. */
#include "peer.h"

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
