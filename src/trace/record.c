// SPDX-License-Identifier: GPL-2.0-only
/* A recording session. The ring buffer is drained into one temporary file
 * per CPU while the command runs (full pages only, as trace-cmd record
 * does, so nothing is lost to a small buffer), then flushed, then written
 * out as a trace.dat (tracedat_write.c). Everything changed in tracefs is
 * saved first and put back last, whatever happened in between. */
#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libtrace.h"
#include "tracedat_write.h"

static const struct {
	const char *name;
	bool required;
} events[] = {
	{ "sched/sched_switch", true },
	{ "sched/sched_wakeup", true },
	{ "sched/sched_wakeup_new", true },
	{ "sched/sched_process_fork", true },
	{ "sched/sched_process_exit", true },
	{ "sched/sched_migrate_task", true },
	{ "power/cpu_frequency", true },
	{ "power/cpu_idle", true },
	/* The waker's own record of a wakeup (sched_wakeup may be logged on
	 * the wakee's CPU by the idle task), and the timer callbacks that say
	 * which wakeups a timer caused. */
	{ "sched/sched_waking", false },
	{ "timer/hrtimer_expire_entry", false },
	{ "timer/hrtimer_expire_exit", false },
	{ "timer/timer_expire_entry", false },
	{ "timer/timer_expire_exit", false },
};
#define NEVENTS ((int)(sizeof(events) / sizeof(events[0])))

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define NSTOP ((int)(sizeof(stop_signals) / sizeof(stop_signals[0])))
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

/* SIGCHLD only has to interrupt the wait between drains. */
static void on_child(int sig)
{
	(void)sig;
}

/* What tracefs looked like before. */
struct saved {
	char *set_event;
	char *current_tracer;
	char *buffer_kb;      /* top level, or NULL when the CPUs differ */
	char **cpu_buffer_kb; /* per CPU then */
	char *event_pid;      /* set_event_pid; NULL when not touched */
	int event_fork;       /* options/event-fork: 0, 1; -1 not touched */
	int tracing_on;
	struct sigaction old[NSTOP], old_chld;
	bool handlers;
};

struct session {
	const struct record_config *cfg;
	struct record_result *res;
	struct pm_diag *d;
	struct saved saved;
	int ncpus;
	struct tracefs_cpu **tcpu;
	int *fd;
	const char **names; /* the events enabled */
	int nnames;
	pid_t child;
};

/* A tracefs file's text without its final line end; "" for an empty one
 * (libtracefs's reader returns NULL for those). */
static char *read_file(const char *file)
{
	int fd = tracefs_instance_file_open(NULL, file, O_RDONLY);
	if (fd < 0)
		return NULL;
	size_t cap = 4096, n = 0;
	char *s = malloc(cap);
	ssize_t r = 0;
	while (s && (r = read(fd, s + n, cap - n - 1)) > 0) {
		n += (size_t)r;
		if (n + 1 == cap) {
			char *grown = realloc(s, cap * 2);
			if (!grown) {
				free(s);
				s = NULL;
				break;
			}
			s = grown;
			cap *= 2;
		}
	}
	close(fd);
	if (!s || r < 0) {
		free(s);
		return NULL;
	}
	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		n--;
	s[n] = '\0';
	return s;
}

/* "7 (expanded: 1408)" is what an unused buffer says: 1408 is the size it
 * gets on first use, and so what it would have had after ours. */
static char *buffer_size(const char *file)
{
	char *s = read_file(file);
	if (!s)
		return NULL;
	char *exp = strstr(s, "(expanded: ");
	if (exp) {
		char *num = exp + strlen("(expanded: ");
		memmove(s, num, strcspn(num, ")"));
		s[strcspn(num, ")")] = '\0';
	}
	s[strcspn(s, " \n")] = '\0';
	return s;
}

static int save(struct session *ss)
{
	struct saved *sv = &ss->saved;
	sv->tracing_on = tracefs_trace_is_on(NULL);
	sv->event_fork = -1;
	if (ss->cfg->pids) {
		sv->event_pid = read_file("set_event_pid");
		sv->event_fork = tracefs_option_is_enabled(NULL, TRACEFS_OPTION_EVENT_FORK);
		if (!sv->event_pid)
			return pm_fail(ss->d, "cannot read %s/set_event_pid: %s (a kernel without "
				       "event PID filtering?)", tracefs_tracing_dir(),
				       strerror(errno ? errno : EIO));
	}
	sv->set_event = read_file("set_event");
	sv->current_tracer = read_file("current_tracer");
	sv->buffer_kb = buffer_size("buffer_size_kb");
	if (!sv->set_event || !sv->current_tracer || !sv->buffer_kb || sv->tracing_on < 0)
		return pm_fail(ss->d, "cannot read the tracing state in %s: %s", tracefs_tracing_dir(),
			       strerror(errno ? errno : EIO));
	if (strcmp(sv->buffer_kb, "X") == 0) { /* CPUs differ: keep each */
		free(sv->buffer_kb);
		sv->buffer_kb = NULL;
		sv->cpu_buffer_kb = calloc((size_t)ss->ncpus, sizeof(*sv->cpu_buffer_kb));
		if (!sv->cpu_buffer_kb)
			return pm_fail(ss->d, "out of memory");
		for (int c = 0; c < ss->ncpus; c++) {
			char file[64];
			snprintf(file, sizeof(file), "per_cpu/cpu%d/buffer_size_kb", c);
			sv->cpu_buffer_kb[c] = buffer_size(file);
		}
	}
	return 0;
}

/* Best effort, every step tried: -1 with d filled if any failed. */
static int restore(struct session *ss)
{
	struct saved *sv = &ss->saved;
	int bad = 0;
	if (sv->set_event) {
		/* Writing set_event empty turns every event off; then each line
		 * of the saved list turns one back on. */
		bad |= tracefs_instance_file_clear(NULL, "set_event") < 0;
		char *save = NULL;
		for (char *line = strtok_r(sv->set_event, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			bad |= tracefs_instance_file_append(NULL, "set_event", line) < 0;
	}
	if (sv->current_tracer && strcmp(sv->current_tracer, "nop") != 0)
		bad |= tracefs_instance_file_write(NULL, "current_tracer", sv->current_tracer) < 0;
	if (sv->buffer_kb)
		bad |= tracefs_instance_file_write(NULL, "buffer_size_kb", sv->buffer_kb) < 0;
	for (int c = 0; sv->cpu_buffer_kb && c < ss->ncpus; c++) {
		char file[64];
		snprintf(file, sizeof(file), "per_cpu/cpu%d/buffer_size_kb", c);
		if (sv->cpu_buffer_kb[c])
			bad |= tracefs_instance_file_write(NULL, file, sv->cpu_buffer_kb[c]) < 0;
	}
	if (sv->event_pid) {
		/* Truncating set_event_pid empties it; then the old PIDs go back. */
		bad |= tracefs_instance_file_clear(NULL, "set_event_pid") < 0;
		if (sv->event_pid[0])
			bad |= tracefs_instance_file_write(NULL, "set_event_pid", sv->event_pid) < 0;
	}
	if (sv->event_fork == 0)
		bad |= tracefs_option_disable(NULL, TRACEFS_OPTION_EVENT_FORK) < 0;
	if (sv->tracing_on == 1)
		bad |= tracefs_trace_on(NULL) < 0;
	else if (sv->tracing_on == 0)
		bad |= tracefs_trace_off(NULL) < 0;
	return bad ? pm_fail(ss->d, "could not restore the tracing state in %s (events, "
			     "buffer_size_kb, tracing_on)", tracefs_tracing_dir()) : 0;
}

static void saved_free(struct session *ss)
{
	struct saved *sv = &ss->saved;
	free(sv->set_event);
	free(sv->current_tracer);
	free(sv->buffer_kb);
	free(sv->event_pid);
	for (int c = 0; sv->cpu_buffer_kb && c < ss->ncpus; c++)
		free(sv->cpu_buffer_kb[c]);
	free(sv->cpu_buffer_kb);
}

static void handlers_on(struct saved *sv)
{
	struct sigaction sa = { .sa_handler = on_stop };
	sigemptyset(&sa.sa_mask);
	stop_signal = 0;
	for (int i = 0; i < NSTOP; i++)
		sigaction(stop_signals[i], &sa, &sv->old[i]);
	sa.sa_handler = on_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, &sv->old_chld);
	sv->handlers = true;
}

static void handlers_off(struct saved *sv)
{
	if (!sv->handlers)
		return;
	for (int i = 0; i < NSTOP; i++)
		sigaction(stop_signals[i], &sv->old[i], NULL);
	sigaction(SIGCHLD, &sv->old_chld, NULL);
	sv->handlers = false;
}

/* set_event_pid := the kept PIDs, the idle task (0) and `also` (0: none),
 * with event-fork so that what they fork is kept too. */
static int keep_pids(struct session *ss, pid_t also)
{
	size_t cap = (size_t)ss->cfg->npids * 12 + 32, at = 0;
	char *list = malloc(cap);
	if (!list)
		return pm_fail(ss->d, "out of memory");
	at += (size_t)snprintf(list + at, cap - at, "0");
	if (also)
		at += (size_t)snprintf(list + at, cap - at, " %d", (int)also);
	for (int i = 0; i < ss->cfg->npids; i++)
		at += (size_t)snprintf(list + at, cap - at, " %d", ss->cfg->pids[i]);
	int rc = 0;
	if (tracefs_instance_file_clear(NULL, "set_event_pid") < 0 ||
	    tracefs_instance_file_write(NULL, "set_event_pid", list) < 0 ||
	    tracefs_option_enable(NULL, TRACEFS_OPTION_EVENT_FORK) < 0)
		rc = pm_fail(ss->d, "cannot keep only the chosen processes (set_event_pid, "
			     "options/event-fork in %s): %s", tracefs_tracing_dir(),
			     strerror(errno ? errno : EIO));
	free(list);
	return rc;
}

static int setup(struct session *ss)
{
	struct pm_diag *d = ss->d;
	char kb[32];
	if (tracefs_trace_off(NULL) < 0 || tracefs_instance_file_clear(NULL, "set_event") < 0)
		return pm_fail(d, "cannot stop tracing in %s: %s", tracefs_tracing_dir(),
			       strerror(errno ? errno : EIO));
	if (strcmp(ss->saved.current_tracer, "nop") != 0 &&
	    tracefs_instance_file_write(NULL, "current_tracer", "nop") < 0)
		return pm_fail(d, "cannot set current_tracer to nop: %s", strerror(errno ? errno : EIO));
	snprintf(kb, sizeof(kb), "%d", ss->cfg->buffer_kb > 0 ? ss->cfg->buffer_kb : 4096);
	if (tracefs_instance_file_write(NULL, "buffer_size_kb", kb) < 0)
		return pm_fail(d, "cannot set buffer_size_kb to %s: %s", kb,
			       strerror(errno ? errno : EIO));
	ss->names = calloc(NEVENTS, sizeof(*ss->names));
	if (!ss->names)
		return pm_fail(d, "out of memory");
	for (int i = 0; i < NEVENTS; i++) {
		char sys[32];
		const char *name = events[i].name, *ev = strchr(name, '/') + 1;
		snprintf(sys, sizeof(sys), "%.*s", (int)(ev - name - 1), name);
		if (tracefs_event_enable(NULL, sys, ev) < 0) {
			if (events[i].required)
				return pm_fail(d, "cannot enable event %s (expected a kernel with "
					       "CONFIG_FTRACE and the sched and power trace events)",
					       name);
			continue;
		}
		ss->names[ss->nnames++] = name;
	}
	/* A command is pmlab's child: keeping pmlab keeps it from its fork on. */
	if (ss->cfg->pids && keep_pids(ss, ss->cfg->argv ? getpid() : 0) < 0)
		return -1;
	/* Truncating "trace" empties the ring buffer. */
	if (tracefs_instance_file_clear(NULL, "trace") < 0)
		return pm_fail(d, "cannot clear the ring buffer: %s", strerror(errno ? errno : EIO));
	ss->tcpu = calloc((size_t)ss->ncpus, sizeof(*ss->tcpu));
	ss->fd = malloc((size_t)ss->ncpus * sizeof(*ss->fd));
	if (!ss->tcpu || !ss->fd)
		return pm_fail(d, "out of memory");
	for (int c = 0; c < ss->ncpus; c++)
		ss->fd[c] = -1;
	for (int c = 0; c < ss->ncpus; c++) {
		ss->tcpu[c] = tracefs_cpu_open(NULL, c, true);
		if (!ss->tcpu[c])
			continue; /* an offline CPU has no buffer */
		FILE *tmp = tmpfile();
		if (!tmp)
			return pm_fail(d, "cannot create a temporary file: %s", strerror(errno));
		ss->fd[c] = dup(fileno(tmp));
		fclose(tmp);
		if (ss->fd[c] < 0)
			return pm_fail(d, "cannot create a temporary file: %s", strerror(errno));
	}
	return 0;
}

/* Full pages while tracing; with `all`, the partial ones too. */
static int drain(struct session *ss, bool all)
{
	for (int c = 0; c < ss->ncpus; c++) {
		if (!ss->tcpu[c])
			continue;
		int n;
		while ((n = all ? tracefs_cpu_flush_write(ss->tcpu[c], ss->fd[c])
				: tracefs_cpu_write(ss->tcpu[c], ss->fd[c], true)) > 0)
			;
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return pm_fail(ss->d, "cannot read the ring buffer of CPU %d: %s", c,
				       strerror(errno));
	}
	return 0;
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Starts the command; an exec failure comes back through a pipe. */
static int spawn(struct session *ss)
{
	int p[2];
	if (pipe(p) < 0 || fcntl(p[1], F_SETFD, FD_CLOEXEC) < 0)
		return pm_fail(ss->d, "cannot start the command: %s", strerror(errno));
	ss->child = fork();
	if (ss->child < 0) {
		close(p[0]);
		close(p[1]);
		return pm_fail(ss->d, "cannot start the command: %s", strerror(errno));
	}
	if (ss->child == 0) {
		for (int i = 0; i < NSTOP; i++)
			sigaction(stop_signals[i], &ss->saved.old[i], NULL);
		sigaction(SIGCHLD, &ss->saved.old_chld, NULL);
		close(p[0]);
		execvp(ss->cfg->argv[0], ss->cfg->argv);
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
	if (n == (ssize_t)sizeof(e)) {
		waitpid(ss->child, NULL, 0);
		ss->child = 0;
		ss->res->exec_failed = true;
		ss->res->exec_errno = e;
		return pm_fail(ss->d, "cannot run '%s': %s", ss->cfg->argv[0], strerror(e));
	}
	return 0;
}

static void reap(struct session *ss, int status)
{
	ss->res->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	ss->child = 0;
}

static bool wait_child(struct session *ss, int tenths)
{
	for (int i = 0; i < tenths * 10; i++) {
		int st;
		if (waitpid(ss->child, &st, WNOHANG) == ss->child) {
			reap(ss, st);
			return true;
		}
		struct timespec ten_ms = { 0, 10000000 };
		nanosleep(&ten_ms, NULL);
	}
	return false;
}

/* A command still running when the recording stops gets the signal that
 * stopped it (or SIGTERM), then SIGTERM, then SIGKILL, a second apart: a
 * background job ignores SIGINT. */
static void end_child(struct session *ss)
{
	if (ss->child <= 0)
		return;
	kill(ss->child, stop_signal ? stop_signal : SIGTERM);
	if (wait_child(ss, 10))
		return;
	kill(ss->child, SIGTERM);
	if (wait_child(ss, 10))
		return;
	kill(ss->child, SIGKILL);
	int st;
	if (waitpid(ss->child, &st, 0) == ss->child)
		reap(ss, st);
}

static int record_loop(struct session *ss)
{
	double start = now_s(), limit = (double)ss->cfg->duration * 1e-9;
	if (tracefs_trace_on(NULL) < 0)
		return pm_fail(ss->d, "cannot turn tracing on: %s", strerror(errno ? errno : EIO));
	if (ss->cfg->argv && spawn(ss) < 0)
		return -1;
	for (;;) {
		if (drain(ss, false) < 0)
			return -1;
		if (ss->child > 0) {
			int st;
			if (waitpid(ss->child, &st, WNOHANG) == ss->child) {
				reap(ss, st);
				break;
			}
		}
		if (stop_signal)
			break;
		double left = limit > 0 ? limit - (now_s() - start) : 0.05;
		if (limit > 0 && left <= 0)
			break;
		double nap = left < 0.05 ? left : 0.05;
		struct timespec t = { 0, (long)(nap * 1e9) };
		nanosleep(&t, NULL); /* SIGCHLD and the stop signals cut it short */
	}
	tracefs_trace_off(NULL);
	ss->res->seconds = now_s() - start;
	ss->res->signal = stop_signal;
	end_child(ss);
	return drain(ss, true);
}

static uint64_t lost_events(int ncpus)
{
	uint64_t lost = 0;
	for (int c = 0; c < ncpus; c++) {
		char file[64];
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", c);
		char *s = tracefs_instance_file_read(NULL, file, NULL);
		const char *o = s ? strstr(s, "overrun: ") : NULL;
		if (o)
			lost += strtoull(o + strlen("overrun: "), NULL, 10);
		free(s);
	}
	return lost;
}

int record_run(const struct record_config *cfg, struct record_result *res, struct pm_diag *d)
{
	*res = (struct record_result){ .status = -1 };
	/* libtracefs mounts tracefs when it finds it unmounted (and it may). */
	const char *dir = tracefs_tracing_dir();
	if (!dir)
		return pm_fail(d, "tracefs is not mounted and could not be mounted (as root: "
			       "mount -t tracefs nodev /sys/kernel/tracing)");
	res->tracing_dir = dir;
	char probe[4200];
	snprintf(probe, sizeof(probe), "%s/tracing_on", dir);
	if (access(probe, W_OK) < 0)
		return pm_fail(d, "cannot write %s: %s (recording needs root or CAP_SYS_ADMIN with "
			       "write access to tracefs)", probe, strerror(errno));
	/* Two recordings at once would undo each other's settings: the second
	 * waits for the first (an advisory lock on the tracing directory). */
	int lock = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lock >= 0)
		flock(lock, LOCK_EX);
	struct session ss = { .cfg = cfg, .res = res, .d = d };
	long n = sysconf(_SC_NPROCESSORS_CONF);
	ss.ncpus = n > 0 ? (int)n : 1;
	res->ncpus = ss.ncpus;
	int rc = save(&ss);
	if (rc == 0) {
		handlers_on(&ss.saved);
		rc = setup(&ss);
		if (rc == 0)
			rc = record_loop(&ss);
	}
	if (rc == 0) {
		res->lost = lost_events(ss.ncpus);
		struct tracedat_source src = { .events = ss.names, .nevents = ss.nnames,
					       .ncpus = ss.ncpus, .cpu_fd = ss.fd,
					       .page_size = ss.tcpu ? 0 : 4096 };
		for (int c = 0; c < ss.ncpus && !src.page_size; c++)
			if (ss.tcpu[c])
				src.page_size = tracefs_cpu_read_size(ss.tcpu[c]);
		if (src.page_size <= 0)
			src.page_size = (int)sysconf(_SC_PAGESIZE);
		rc = tracedat_write(cfg->output, &src, d);
		struct stat st;
		if (rc == 0 && stat(cfg->output, &st) == 0)
			res->bytes = (uint64_t)st.st_size;
	}
	/* An error already reported wins over one while restoring. */
	struct pm_diag rd = { { 0 } };
	ss.d = &rd;
	if (ss.saved.set_event && restore(&ss) < 0 && rc == 0)
		rc = pm_fail(d, "%s", rd.msg);
	handlers_off(&ss.saved);
	for (int c = 0; ss.tcpu && ss.fd && c < ss.ncpus; c++) {
		if (ss.tcpu[c])
			tracefs_cpu_close(ss.tcpu[c]);
		if (ss.fd[c] >= 0)
			close(ss.fd[c]);
	}
	free(ss.tcpu);
	free(ss.fd);
	free(ss.names);
	saved_free(&ss);
	if (lock >= 0)
		close(lock); /* releases the lock */
	return rc;
}
