// SPDX-License-Identifier: GPL-2.0-only
/* Daemon and holder processes. See peer.h. */
#include "peer.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

void host_proc_stop(long pid, unsigned long long start)
{
	if (pid != (long)getpid() && host_proc_alive(pid, start))
		kill((pid_t)pid, SIGTERM);
}

/* "PID START\n" of run/pmlab/daemon, if that process is alive. */
static long daemon_read(const struct hostfs *fs, unsigned long long *start)
{
	char *text;
	size_t len;
	struct pm_diag d;
	long pid = 0;
	if (hostfs_state_load(fs, "daemon", &text, &len, &d) < 0 || !text)
		return 0;
	if (sscanf(text, "%ld %llu", &pid, start) != 2 || !host_proc_alive(pid, *start))
		pid = 0;
	free(text);
	return pid;
}

long host_daemon_pid(const struct hostfs *fs)
{
	unsigned long long start;
	return daemon_read(fs, &start);
}

int host_daemon_register(struct hostfs *fs, struct pm_diag *d)
{
	long other = host_daemon_pid(fs);
	if (other && other != (long)getpid())
		return pm_fail(d, "a pmlab daemon already runs (pid %ld)", other);
	char text[64];
	int n = snprintf(text, sizeof(text), "%ld %llu\n", (long)getpid(),
			 host_proc_start((long)getpid()));
	return hostfs_state_save(fs, "daemon", text, (size_t)n, d);
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
	long pid = daemon_read(fs, &start);
	if (!pid || pid == (long)getpid())
		return false;
	return kill((pid_t)pid, SIGHUP) == 0;
}
