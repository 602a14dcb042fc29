// SPDX-License-Identifier: GPL-2.0-only
/* Workers are fed one job at a time: the parent writes a job index to a
 * worker's command pipe, the worker answers on its result pipe with a
 * header (job, status, length) and the bytes, and gets the next index;
 * closing the command pipe tells it to exit. Handing out jobs as workers
 * free up keeps them all busy when runs differ in length (a sweep over
 * durations or machines), and the parent files each answer under its job
 * index, so completion order never shows in the output.
 *
 * Workers are forked, not exec'd: they inherit the parsed command line,
 * the loaded machines and profiles, and leave with _exit() so nothing the
 * parent buffered or registered runs twice. */
#include "runner.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Results waiting for the ones before them: jobs are handed out at most
 * this far ahead of the oldest result not yet delivered. */
#define WINDOW_SLOTS(r) ((r)->workers * 4 + 16)

struct runner_result {
	char *data; /* what the job wrote; malloc'd */
	size_t len;
};

struct msg {
	int32_t job;
	int32_t rc;
	uint64_t len;
};

struct worker {
	pid_t pid;
	int cmd; /* parent writes job indices; -1 once closed */
	int res; /* parent reads answers; -1 once closed */
	int job; /* job in progress, -1 when idle */
};

static int write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n > 0) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* 0: read n bytes; 1: end of file before the first byte; -1: error or a
 * short message. */
static int read_all(int fd, void *buf, size_t n)
{
	char *p = buf;
	size_t got = 0;

	while (got < n) {
		ssize_t k = read(fd, p + got, n - got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (k == 0)
			return got == 0 ? 1 : -1;
		got += (size_t)k;
	}
	return 0;
}

/* Runs job i into a freshly allocated buffer; on failure the buffer holds
 * the message instead. */
static int run_one(const struct runner *r, int i, char **buf, size_t *len)
{
	struct pm_diag d = { { 0 } };
	FILE *f;
	int rc;

	*buf = NULL;
	*len = 0;
	f = open_memstream(buf, len);
	if (!f) {
		rc = pm_fail(&d, "out of memory");
	} else {
		rc = r->job(r->ctx, i, f, &d);
		if (fclose(f) != 0 && rc == 0)
			rc = pm_fail(&d, "out of memory");
	}
	if (rc < 0) {
		free(*buf);
		*buf = strdup(d.msg[0] ? d.msg : "failed");
		*len = *buf ? strlen(*buf) : 0;
		return -1;
	}
	return 0;
}

static void worker_main(const struct runner *r, int cmd, int res)
{
	int32_t job;

	while (read_all(cmd, &job, sizeof(job)) == 0) {
		struct msg h = { job, 0, 0 };
		char *buf;
		size_t len;

		h.rc = run_one(r, job, &buf, &len);
		h.len = len;
		if (write_all(res, &h, sizeof(h)) < 0 || write_all(res, buf, len) < 0)
			_exit(1);
		free(buf);
	}
	_exit(0);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int run_here(const struct runner *r, struct pm_diag *d)
{
	for (int i = 0; i < r->njobs; i++) {
		char *buf;
		size_t len;
		int rc = run_one(r, i, &buf, &len);
		if (rc < 0)
			pm_fail(d, "%s", buf ? buf : "out of memory");
		else
			rc = r->deliver(r->ctx, i, buf, len, d);
		free(buf);
		if (rc < 0)
			return -1;
		if (r->done)
			r->done(r->ctx, i + 1, r->njobs);
	}
	return 0;
}

/* A signal the caller ignores (nohup, a background job of a script: SIGINT
 * ignored) is ignored by the workers too, and never caught: catching it
 * would kill the workers of a sweep that was meant to go on. */
static bool ignored(int sig)
{
	struct sigaction cur;
	return sigaction(sig, NULL, &cur) == 0 && cur.sa_handler == SIG_IGN;
}

static void default_unless_ignored(int sig)
{
	if (!ignored(sig))
		signal(sig, SIG_DFL);
}

static void catch_unless_ignored(int sig, const struct sigaction *sa, struct sigaction *prev)
{
	if (ignored(sig))
		sigaction(sig, NULL, prev);
	else
		sigaction(sig, sa, prev);
}

/* Forks up to n workers; returns how many started. Running out of file
 * descriptors or processes after the first worker is not an error: the
 * jobs are shared among fewer workers. -1 with d when none started. */
static int start_workers(struct worker *w, int n, const struct runner *r, struct pm_diag *d)
{
	pid_t parent = getpid();
	int i;

	for (i = 0; i < n; i++) {
		int cmd[2] = { -1, -1 }, res[2] = { -1, -1 }, e;

		if (pipe(cmd) < 0 || pipe(res) < 0 || (w[i].pid = fork()) < 0) {
			e = errno;
			close_fd(&cmd[0]);
			close_fd(&cmd[1]);
			close_fd(&res[0]);
			close_fd(&res[1]);
			w[i].pid = -1;
			if (i > 0)
				return i;
			return pm_fail(d, "cannot start a worker process: %s", strerror(e));
		}
		if (w[i].pid == 0) {
			/* Killed with the parent, however it ends; and if it
			 * already has, there is nobody to answer. */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != parent)
				_exit(1);
			/* The parent's handler, if it has one, is not ours;
			 * what the caller ignored stays ignored. */
			default_unless_ignored(SIGINT);
			default_unless_ignored(SIGTERM);
			/* Another worker's command pipe left open here would keep
			 * that worker from ever seeing its end of file. */
			for (int k = 0; k < i; k++) {
				close_fd(&w[k].cmd);
				close_fd(&w[k].res);
			}
			close(cmd[1]);
			close(res[0]);
			worker_main(r, cmd[0], res[1]);
		}
		close(cmd[0]);
		close(res[1]);
		w[i].cmd = cmd[1];
		w[i].res = res[0];
		w[i].job = -1;
	}
	return i;
}

/* Gives idle worker w the next job if it is within the window, tells it to
 * exit when none is left, or leaves it idle until older results are
 * handed over. */
static int feed(struct worker *w, int *next, int njobs, int window_end)
{
	int32_t job;

	if (*next >= njobs) {
		close_fd(&w->cmd);
		w->job = -1;
		return 0;
	}
	w->job = -1;
	if (*next >= window_end)
		return 0;
	job = (int32_t)(*next)++;
	w->job = job;
	return write_all(w->cmd, &job, sizeof(job));
}

/* "job 3", or what the caller calls it ("sweep: point 7"). */
static const char *job_name(const struct runner *r, int job, char *buf, size_t size)
{
	if (r->name)
		r->name(r->ctx, job, buf, size);
	else
		snprintf(buf, size, "job %d", job);
	return buf;
}

/* Reads one answer from w into its slot of res (job modulo the window). */
static int collect(const struct runner *r, struct worker *w, struct runner_result *res,
		   int window, struct pm_diag *d)
{
	char name[256];

	struct msg h;
	char *buf;
	int rc = read_all(w->res, &h, sizeof(h)), status;

	if (rc != 0 || h.job != w->job || h.len > SIZE_MAX - 1) {
		/* The worker is gone: say how, if the kernel can tell. */
		close_fd(&w->res);
		if (waitpid(w->pid, &status, 0) == w->pid) {
			w->pid = -1;
			if (WIFSIGNALED(status))
				return pm_fail(d, "%s: worker process killed by signal %d",
					       job_name(r, w->job, name, sizeof(name)), WTERMSIG(status));
		}
		return pm_fail(d, "%s: worker process ended without an answer",
			       job_name(r, w->job, name, sizeof(name)));
	}
	buf = malloc((size_t)h.len + 1);
	if (!buf)
		return pm_fail(d, "%s: out of memory", job_name(r, w->job, name, sizeof(name)));
	if (read_all(w->res, buf, (size_t)h.len) != 0) {
		free(buf);
		close_fd(&w->res);
		return pm_fail(d, "%s: worker process ended mid-answer",
			       job_name(r, w->job, name, sizeof(name)));
	}
	buf[h.len] = '\0';
	if (h.rc < 0) {
		pm_fail(d, "%s", buf);
		free(buf);
		return -1;
	}
	res[w->job % window].data = buf;
	res[w->job % window].len = (size_t)h.len;
	return 0;
}

/* The workers of the run in progress, for the signal handler. */
static struct worker *live;
static int nlive;
static struct sigaction prev_int, prev_term;

/* SIGINT or SIGTERM to the parent: the workers first (a worker killed by
 * its parent's end would only get SIGKILL), then the parent's own end. */
static void forward(int sig)
{
	for (int i = 0; i < nlive; i++)
		if (live[i].pid > 0)
			kill(live[i].pid, sig);
	sigaction(SIGINT, &prev_int, NULL);
	sigaction(SIGTERM, &prev_term, NULL);
	raise(sig);
}

/* Hands over, in order, every result that is ready. */
static int deliver_ready(const struct runner *r, struct runner_result *res, int *first,
			 struct pm_diag *d)
{
	while (*first < r->njobs && res[*first % WINDOW_SLOTS(r)].data) {
		struct runner_result *x = &res[*first % WINDOW_SLOTS(r)];
		int rc = r->deliver(r->ctx, *first, x->data, x->len, d);
		free(x->data);
		x->data = NULL;
		if (rc < 0)
			return -1;
		(*first)++;
	}
	return 0;
}

/* Gives every idle worker that has not been told to exit a job below
 * `limit` (the window), or its end of work. */
static int feed_idle(const struct runner *r, struct worker *w, int n, int *next, int limit,
		     struct pm_diag *d)
{
	char name[256];

	for (int i = 0; i < n; i++)
		if (w[i].pid > 0 && w[i].job < 0 && w[i].cmd >= 0 &&
		    feed(&w[i], next, r->njobs, limit) < 0)
			return pm_fail(d, "%s: cannot reach its worker process",
				       job_name(r, w[i].job, name, sizeof(name)));
	return 0;
}

/* Closes the pipes and waits for every worker; after a failure (rc < 0)
 * the runs still going are of no use and are killed. Returns rc, or -1 if
 * a worker failed after its last job. */
static int reap(struct worker *w, int n, int rc, struct pm_diag *d)
{
	for (int i = 0; i < n; i++) {
		if (rc < 0 && w[i].pid > 0 && w[i].job >= 0)
			kill(w[i].pid, SIGKILL);
		close_fd(&w[i].cmd);
		close_fd(&w[i].res);
	}
	for (int i = 0; i < n; i++) {
		int status = 0;
		pid_t got;

		if (w[i].pid <= 0)
			continue;
		while ((got = waitpid(w[i].pid, &status, 0)) < 0 && errno == EINTR)
			;
		if (got == w[i].pid && rc == 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
			rc = pm_fail(d, "a worker process failed after its last job");
	}
	return rc;
}

static int run_forked(const struct runner *r, int n, struct pm_diag *d)
{
	struct worker *w = calloc((size_t)n, sizeof(*w));
	struct pollfd *pfd = calloc((size_t)n, sizeof(*pfd));
	int window = WINDOW_SLOTS(r);
	struct runner_result *res = calloc((size_t)window, sizeof(*res));
	int next = 0, ndone = 0, first = 0, rc = 0, i;

	if (!w || !pfd || !res) {
		free(w);
		free(pfd);
		free(res);
		return pm_fail(d, "out of memory");
	}
	for (i = 0; i < n; i++)
		w[i] = (struct worker){ -1, -1, -1, -1 };
	/* What the parent buffered must not be written again by each child. */
	fflush(stdout);
	fflush(stderr);
	n = start_workers(w, n, r, d);
	rc = n < 0 ? -1 : 0;
	if (rc == 0) {
		struct sigaction sa = { .sa_handler = forward };
		sigemptyset(&sa.sa_mask);
		live = w;
		nlive = n;
		catch_unless_ignored(SIGINT, &sa, &prev_int);
		catch_unless_ignored(SIGTERM, &sa, &prev_term);
	}
	if (rc == 0)
		rc = feed_idle(r, w, n, &next, first + window, d);
	while (rc == 0 && ndone < r->njobs) {
		int np = 0;

		for (i = 0; i < n; i++)
			if (w[i].job >= 0)
				pfd[np++] = (struct pollfd){ .fd = w[i].res, .events = POLLIN };
		if (poll(pfd, (nfds_t)np, -1) < 0) {
			if (errno == EINTR)
				continue;
			rc = pm_fail(d, "poll: %s", strerror(errno));
			break;
		}
		for (i = 0, np = 0; i < n && rc == 0; i++) {
			if (w[i].job < 0)
				continue;
			if (!(pfd[np++].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			rc = collect(r, &w[i], res, window, d);
			if (rc < 0)
				break;
			ndone++;
			if (r->done)
				r->done(r->ctx, ndone, r->njobs);
			w[i].job = -1;
		}
		if (rc == 0)
			rc = deliver_ready(r, res, &first, d);
		/* Idle workers get the jobs the window now allows. */
		if (rc == 0)
			rc = feed_idle(r, w, n, &next, first + window, d);
	}
	rc = reap(w, n, rc, d);
	if (n > 0) {
		sigaction(SIGINT, &prev_int, NULL);
		sigaction(SIGTERM, &prev_term, NULL);
		nlive = 0;
		live = NULL;
	}
	for (i = 0; i < window; i++)
		free(res[i].data);
	free(res);
	free(w);
	free(pfd);
	return rc;
}

int runner_run(const struct runner *r, struct pm_diag *d)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	int n = r->workers < r->njobs ? r->workers : r->njobs, rc;

	if (n <= 1)
		return run_here(r, d);
	/* A worker that dies turns a write to its pipe into EPIPE, not a
	 * SIGPIPE that would kill the parent. */
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &old);
	rc = run_forked(r, n, d);
	sigaction(SIGPIPE, &old, NULL);
	return rc;
}

int runner_default_workers(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}
