// SPDX-License-Identifier: GPL-2.0-only
/* fork, exec, wait. See runcmd.h. */
#include "runcmd.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hostsig.h"

int host_run_command(char *const *argv, int *status, struct pm_diag *d)
{
	fflush(NULL); /* the child must not write our buffered output again */
	pid_t pid = fork();
	if (pid < 0)
		return pm_fail(d, "cannot start '%s': %s", argv[0], strerror(errno));
	if (pid == 0) {
		host_signals_restore();
		execvp(argv[0], argv);
		fprintf(stderr, "pmlab: cannot run '%s': %s\n", argv[0], strerror(errno));
		_exit(127);
	}
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
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1;
	return 0;
}
