// SPDX-License-Identifier: GPL-2.0-only
/* Self-pipe signal handling. See hostsig.h. */
#include "hostsig.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static int pipefd[2] = { -1, -1 };
static volatile sig_atomic_t last_signal;
static volatile sig_atomic_t stop_signal;
static const int handled[] = { SIGINT, SIGTERM, SIGHUP };

static void on_signal(int sig)
{
	int saved = errno;
	last_signal = sig;
	if (sig != SIGHUP)
		stop_signal = sig;
	if (pipefd[1] >= 0) {
		char c = (char)sig;
		ssize_t ignored = write(pipefd[1], &c, 1);
		(void)ignored; /* a full pipe already wakes the reader */
	}
	errno = saved;
}

int host_signals_install(void)
{
	if (pipefd[0] < 0) {
		if (pipe(pipefd) < 0)
			return -1;
		for (int i = 0; i < 2; i++) {
			fcntl(pipefd[i], F_SETFL, fcntl(pipefd[i], F_GETFL) | O_NONBLOCK);
			fcntl(pipefd[i], F_SETFD, FD_CLOEXEC);
		}
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(handled) / sizeof(handled[0]); i++)
		if (sigaction(handled[i], &sa, NULL) < 0)
			return -1;
	return 0;
}

void host_signals_restore(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(handled) / sizeof(handled[0]); i++)
		sigaction(handled[i], &sa, NULL);
}

int host_signal_take(void)
{
	int sig = last_signal;
	last_signal = 0;
	return sig;
}

bool host_stop_requested(void)
{
	return stop_signal != 0;
}

int host_signal_wait(int ms)
{
	char buf[64];
	if (last_signal)
		return host_signal_take();
	struct pollfd p = { .fd = pipefd[0], .events = POLLIN };
	int r = poll(&p, pipefd[0] >= 0 ? 1 : 0, ms);
	if (r > 0)
		while (read(pipefd[0], buf, sizeof(buf)) > 0)
			;
	return host_signal_take();
}
