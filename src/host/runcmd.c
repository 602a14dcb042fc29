// SPDX-License-Identifier: GPL-2.0-only
/* fork, exec, wait. See runcmd.h. */
#include "runcmd.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hostsig.h"

int host_command_runnable(const char *name, struct pm_diag *d)
{
	/* execvp's search: a name with a slash as it is, else each entry of
	 * PATH (empty: the current directory), the first executable file. */
	if (!*name)
		return pm_fail(d, "cannot run '': an empty command name");
	if (strchr(name, '/'))
		return access(name, X_OK) == 0 ? 0 :
		       pm_fail(d, "cannot run '%s': %s", name, strerror(errno));
	const char *path = getenv("PATH");
	if (!path)
		path = "/bin:/usr/bin";
	int err = ENOENT;
	for (const char *p = path;; p++) {
		size_t n = strcspn(p, ":");
		char full[4096];
		if (snprintf(full, sizeof(full), "%.*s%s%s", (int)n, n ? p : ".", "/", name) <
		    (int)sizeof(full)) {
			struct stat st;
			if (access(full, X_OK) == 0 && stat(full, &st) == 0 && S_ISREG(st.st_mode))
				return 0;
			if (errno == EACCES)
				err = EACCES;
		}
		p += n;
		if (!*p)
			break;
	}
	return pm_fail(d, "cannot run '%s': %s", name, strerror(err));
}

int host_run_command(char *const *argv, int *status, struct pm_diag *d)
{
	/* The child tells exec's errno through a close-on-exec pipe: a
	 * command that cannot be run is the caller's error to report, not an
	 * exit status 127 the command might have given itself. */
	int p[2];
	if (pipe(p) < 0)
		return pm_fail(d, "cannot start '%s': %s", argv[0], strerror(errno));
	if (fcntl(p[0], F_SETFD, FD_CLOEXEC) < 0 || fcntl(p[1], F_SETFD, FD_CLOEXEC) < 0) {
		int e = errno;
		close(p[0]);
		close(p[1]);
		return pm_fail(d, "cannot start '%s': %s", argv[0], strerror(e));
	}
	fflush(NULL); /* the child must not write our buffered output again */
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(p[0]);
		close(p[1]);
		return pm_fail(d, "cannot start '%s': %s", argv[0], strerror(e));
	}
	if (pid == 0) {
		host_signals_restore();
		close(p[0]);
		execvp(argv[0], argv);
		int e = errno;
		if (write(p[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(p[1]);
	int e;
	ssize_t n;
	do
		n = read(p[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(p[0]);
	bool passed_on = false;
	int st;
	for (;;) {
		pid_t r = waitpid(pid, &st, 0);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return pm_fail(d, "waiting for '%s': %s", argv[0], strerror(errno));
		if (host_stop_requested() && !passed_on) {
			kill(pid, SIGTERM);
			passed_on = true;
		}
	}
	if (n == (ssize_t)sizeof(e)) {
		pm_fail(d, "cannot run '%s': %s", argv[0], strerror(e));
		return HOST_RUN_CANNOT_EXEC;
	}
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1;
	return 0;
}
