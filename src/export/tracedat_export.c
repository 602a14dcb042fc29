// SPDX-License-Identifier: GPL-2.0-only
#include "tracedat_export.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../trace/event_formats.h"
#include "../trace/ringbuf_write.h"
#include "../trace/tracedat_write.h"

struct named {
	char comm[16];
};

struct simtrace {
	char *path;
	const struct machine *m;
	struct export_filter filter;
	int ncpus;
	struct ringbuf *cpu;        /* per CPU */
	const struct task **curr;   /* per CPU: the task it runs, NULL idle */
	int *core_cpu, *pkg_cpu;    /* the CPU whose buffer logs a core's, a package's power */
	struct named *tasks;        /* every task by id, for saved_cmdlines (tasks are
				     * freed when they finish: nothing points to them) */
	uint32_t ntasks, cap;
	uint32_t *khz;              /* per CPU: its frequency, for the closing records */
	sim_ns last;                /* the latest record's time */
	sim_ns max_shift;           /* the most a record was moved */
	uint64_t bytes;
	int err;
	struct sim_observer obs;
};

/* sched_prio_to_weight[] (kernel/sched/core.c), nice -20..19: the prio
 * (100 + nice + 20) whose weight is nearest. */
static int prio_of(uint32_t weight)
{
	static const uint32_t w[40] = {
		88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
		9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277,
		1024, 820, 655, 526, 423, 335, 272, 215, 172, 137,
		110, 87, 70, 56, 45, 36, 29, 23, 18, 15,
	};
	int best = 20;
	for (int i = 0; i < 40; i++)
		if (llabs((long long)w[i] - weight) < llabs((long long)w[best] - weight))
			best = i;
	return 100 + best;
}

static int pid_of(const struct task *t)
{
	return t ? (int)t->id + 1 : 0;
}

static void comm_of(char out[16], const struct task *t, int cpu)
{
	memset(out, 0, 16);
	if (t)
		snprintf(out, 16, "%.15s", t->name); /* TASK_COMM_LEN */
	else
		snprintf(out, 16, "swapper/%d", cpu);
}

/* A record of event e on CPU cpu's buffer at now, in the context of the
 * task running there (ctx) with flags; body: the fields after the common
 * ones. */
static void emit(struct simtrace *st, int cpu, sim_ns now, enum trace_event_id e,
		 const struct task *ctx, uint8_t flags, const void *body)
{
	const struct event_format *f = event_format(e);
	unsigned char rec[128];
	if (st->err || !export_keeps_cpu(&st->filter, cpu) || !export_keeps_time(&st->filter, now))
		return;
	struct event_common c = { .type = f->id, .flags = flags, .pid = pid_of(ctx) };
	memcpy(rec, &c, sizeof(c));
	memcpy(rec + sizeof(c), body, f->size - sizeof(c));
	/* Readers merge the CPUs' records by time alone: records of one
	 * simulated instant go 1 ns apart, in the order they happened. */
	sim_ns ts = now > st->last ? now : st->last + 1;
	if (ts - now > st->max_shift)
		st->max_shift = ts - now;
	st->last = ts;
	if (ringbuf_add(&st->cpu[cpu], (uint64_t)ts, rec, f->size) < 0)
		st->err = st->cpu[cpu].err;
	st->bytes += f->size + 4;
}

struct wakeup_body {
	char comm[16];
	int32_t pid, prio, target_cpu;
};

static void wakeup(struct simtrace *st, int log_cpu, sim_ns now, enum trace_event_id e,
		   const struct task *ctx, uint8_t flags, const struct task *t, int target)
{
	struct wakeup_body b = { .pid = pid_of(t), .prio = prio_of(t->weight), .target_cpu = target };
	comm_of(b.comm, t, 0);
	emit(st, log_cpu, now, e, ctx, flags, &b);
}

static int64_t prev_state(const struct task *t)
{
	switch (t->state) {
	case TASK_SLEEPING: return EVF_STATE_SLEEPING;
	case TASK_BLOCKED: return t->iowait ? EVF_STATE_DISK : EVF_STATE_SLEEPING;
	case TASK_DEAD: return EVF_STATE_DEAD;
	default: return EVF_STATE_RUNNING; /* preempted, or moved to another CPU */
	}
}

#pragma pack(push, 4)
struct switch_body {
	char prev_comm[16];
	int32_t prev_pid, prev_prio;
	int64_t prev_state;
	char next_comm[16];
	int32_t next_pid, next_prio;
};
#pragma pack(pop)

/* CPU cpu stops running what it ran and runs next (NULL: its idle task). */
static void switch_to(struct simtrace *st, int cpu, sim_ns now, const struct task *next)
{
	const struct task *prev = st->curr[cpu];
	if (prev == next)
		return;
	if (prev && prev->state == TASK_DEAD) {
		struct {
			char comm[16];
			int32_t pid, prio;
			uint8_t group_dead;
		} x = { .pid = pid_of(prev), .prio = prio_of(prev->weight), .group_dead = 1 };
		comm_of(x.comm, prev, cpu);
		emit(st, cpu, now, EVF_SCHED_PROCESS_EXIT, prev, 0, &x);
	}
	struct switch_body b = {
		.prev_pid = pid_of(prev), .prev_prio = prev ? prio_of(prev->weight) : 120,
		.prev_state = prev ? prev_state(prev) : EVF_STATE_RUNNING,
		.next_pid = pid_of(next), .next_prio = next ? prio_of(next->weight) : 120,
	};
	comm_of(b.prev_comm, prev, cpu);
	comm_of(b.next_comm, next, cpu);
	emit(st, cpu, now, EVF_SCHED_SWITCH, prev, EVF_FLAG_IRQS_OFF, &b);
	st->curr[cpu] = next;
}

static void on_run(void *ctx, int cpu, sim_ns now, const struct task *t)
{
	struct simtrace *st = ctx;
	/* A running task moved here: it leaves the CPU it ran on first. */
	for (int c = 0; c < st->ncpus; c++)
		if (c != cpu && st->curr[c] == t)
			switch_to(st, c, now, NULL);
	switch_to(st, cpu, now, t);
}

struct idle_body {
	uint32_t state, cpu_id;
};

static void on_idle(void *ctx, int cpu, sim_ns now, int state)
{
	struct simtrace *st = ctx;
	switch_to(st, cpu, now, NULL);
	struct idle_body b = { (uint32_t)state, (uint32_t)cpu };
	emit(st, cpu, now, EVF_CPU_IDLE, NULL, 0, &b);
}

static void on_waking(void *ctx, int cpu, sim_ns now)
{
	struct idle_body b = { EVF_IDLE_EXIT, (uint32_t)cpu };
	emit(ctx, cpu, now, EVF_CPU_IDLE, NULL, 0, &b);
}

static void on_freq(void *ctx, int cpu, sim_ns now, uint32_t khz)
{
	struct simtrace *st = ctx;
	struct idle_body b = { khz, (uint32_t)cpu };
	st->khz[cpu] = khz;
	emit(st, cpu, now, EVF_CPU_FREQUENCY, st->curr[cpu], 0, &b);
}

static uint32_t milliwatts(double w)
{
	return w > 0 && w < 4e6 ? (uint32_t)llround(w * 1000) : 0;
}

static void on_core_power(void *ctx, int core, sim_ns now, double w)
{
	struct simtrace *st = ctx;
	int cpu = st->core_cpu[core];
	struct idle_body b = { (uint32_t)core, milliwatts(w) };
	if (cpu >= 0)
		emit(st, cpu, now, EVF_CORE_POWER, st->curr[cpu], 0, &b);
}

static void on_uncore_power(void *ctx, int pkg, sim_ns now, double w)
{
	struct simtrace *st = ctx;
	int cpu = st->pkg_cpu[pkg];
	struct idle_body b = { (uint32_t)pkg, milliwatts(w) };
	if (cpu >= 0)
		emit(st, cpu, now, EVF_PACKAGE_POWER, st->curr[cpu], 0, &b);
}

static void on_task_new(void *ctx, sim_ns now, const struct task *t, const struct task *parent)
{
	struct simtrace *st = ctx;
	if (t->id >= st->cap) {
		uint32_t cap = st->cap ? st->cap * 2 : 64;
		while (cap <= t->id)
			cap *= 2;
		struct named *grown = realloc(st->tasks, cap * sizeof(*grown));
		if (!grown) {
			st->err = ENOMEM;
			return;
		}
		memset(grown + st->cap, 0, (cap - st->cap) * sizeof(*grown));
		st->tasks = grown;
		st->cap = cap;
	}
	comm_of(st->tasks[t->id].comm, t, 0);
	if (t->id >= st->ntasks)
		st->ntasks = t->id + 1;
	if (!parent || parent->cpu < 0)
		return;
	struct {
		char parent_comm[16];
		int32_t parent_pid;
		char child_comm[16];
		int32_t child_pid;
	} b = { .parent_pid = pid_of(parent), .child_pid = pid_of(t) };
	comm_of(b.parent_comm, parent, 0);
	comm_of(b.child_comm, t, 0);
	emit(st, parent->cpu, now, EVF_SCHED_PROCESS_FORK, parent, 0, &b);
}

static void on_task_wakeup(void *ctx, int cpu, int waker_cpu, sim_ns now, const struct task *t,
			   const struct task *waker, enum sim_wake_cause why)
{
	struct simtrace *st = ctx;
	switch (why) {
	case SIM_WAKE_NEW:
		wakeup(st, cpu, now, EVF_SCHED_WAKEUP_NEW, st->curr[cpu], 0, t, cpu);
		return;
	case SIM_WAKE_TASK:
		if (waker) {
			wakeup(st, waker_cpu, now, EVF_SCHED_WAKEUP, waker, 0, t, cpu);
			return;
		}
		break;
	case SIM_WAKE_TIMER:
		if (waker_cpu >= 0) {
			const struct task *here = st->curr[waker_cpu];
			uint8_t irq = EVF_FLAG_HARDIRQ | EVF_FLAG_IRQS_OFF;
			struct { uint64_t timer; int64_t now; uint64_t fn; } in = {
				.timer = t->id + 1, .now = now };
			uint64_t out = t->id + 1;
			emit(st, waker_cpu, now, EVF_HRTIMER_EXPIRE_ENTRY, here, irq, &in);
			wakeup(st, waker_cpu, now, EVF_SCHED_WAKEUP, here, irq, t, cpu);
			emit(st, waker_cpu, now, EVF_HRTIMER_EXPIRE_EXIT, here, irq, &out);
			return;
		}
		break;
	default:
		break;
	}
	/* A device's interrupt, on the CPU the task goes to. */
	uint8_t irq = EVF_FLAG_HARDIRQ | EVF_FLAG_IRQS_OFF;
	wakeup(st, cpu, now, EVF_SCHED_WAKEUP, st->curr[cpu], irq, t, cpu);
}

static void release(struct simtrace *st)
{
	for (int c = 0; st->cpu && c < st->ncpus; c++)
		ringbuf_close(&st->cpu[c]);
	free(st->cpu);
	free(st->curr);
	free(st->khz);
	free(st->core_cpu);
	free(st->pkg_cpu);
	free(st->tasks);
	free(st->path);
	free(st);
}

struct simtrace *simtrace_open(const char *path, const struct machine *m,
			       const struct export_filter *filter, struct pm_diag *d)
{
	struct simtrace *st = calloc(1, sizeof(*st));
	int ncpus = m->online_cpus, ncores = machine_cores(m);
	if (!st)
		goto oom;
	st->m = m;
	st->ncpus = ncpus;
	if (filter)
		st->filter = *filter;
	else
		export_filter_all(&st->filter);
	st->path = strdup(path);
	st->cpu = calloc((size_t)ncpus, sizeof(*st->cpu));
	st->curr = calloc((size_t)ncpus, sizeof(*st->curr));
	st->khz = calloc((size_t)ncpus, sizeof(*st->khz));
	st->core_cpu = malloc((size_t)ncores * sizeof(*st->core_cpu));
	st->pkg_cpu = malloc((size_t)m->packages * sizeof(*st->pkg_cpu));
	st->last = -1;
	if (!st->path || !st->cpu || !st->curr || !st->khz || !st->core_cpu || !st->pkg_cpu)
		goto oom;
	for (int c = 0; c < ncpus; c++)
		st->cpu[c].fd = -1;
	for (int c = 0; c < ncpus; c++)
		if (ringbuf_init(&st->cpu[c]) < 0) {
			pm_fail(d, "cannot create a temporary file for the trace: %s", strerror(errno));
			release(st);
			return NULL;
		}
	for (int k = 0; k < ncores; k++)
		st->core_cpu[k] = -1;
	for (int p = 0; p < m->packages; p++)
		st->pkg_cpu[p] = -1;
	for (int c = ncpus - 1; c >= 0; c--) {
		st->core_cpu[machine_cpu_core(m, c)] = c;
		st->pkg_cpu[machine_cpu_package(m, c)] = c;
	}
	st->obs = (struct sim_observer){
		.ctx = st, .cpu_run = on_run, .cpu_idle = on_idle, .cpu_waking = on_waking,
		.cpu_freq = on_freq, .core_power = on_core_power, .uncore_power = on_uncore_power,
		.task_new = on_task_new, .task_wakeup = on_task_wakeup,
	};
	return st;
oom:
	if (st)
		release(st);
	pm_fail(d, "out of memory");
	return NULL;
}

const struct sim_observer *simtrace_observer(struct simtrace *t)
{
	return &t->obs;
}

uint64_t simtrace_bytes(const struct simtrace *t)
{
	return t->bytes;
}

sim_ns simtrace_max_shift(const struct simtrace *t)
{
	return t->max_shift;
}

/* saved_cmdlines: "PID COMM" per task. */
static char *cmdlines(const struct simtrace *st)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	for (uint32_t i = 0; i < st->ntasks; i++)
		if (st->tasks[i].comm[0])
			fprintf(f, "%u %.16s\n", i + 1, st->tasks[i].comm);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

int simtrace_close(struct simtrace *st, sim_ns end, struct pm_diag *d)
{
	const char *names[EVF_COUNT], *formats[EVF_COUNT];
	int *fds = malloc((size_t)st->ncpus * sizeof(*fds));
	char *cmds = cmdlines(st);
	int rc = -1;
	/* The end of the run: each CPU's frequency once more, in the context
	 * of the task running there, so a reader counts its time to the end. */
	for (int c = 0; c < st->ncpus; c++)
		if (st->curr[c] && st->khz[c]) {
			struct idle_body b = { st->khz[c], (uint32_t)c };
			emit(st, c, end, EVF_CPU_FREQUENCY, st->curr[c], 0, &b);
		}
	if (!fds || !cmds) {
		pm_fail(d, "out of memory");
		goto out;
	}
	for (int c = 0; c < st->ncpus && !st->err; c++)
		if (ringbuf_flush(&st->cpu[c]) < 0)
			st->err = st->cpu[c].err;
	if (st->err) {
		pm_fail_at(d, st->path, 0, "cannot write the trace: %s", strerror(st->err));
		goto out;
	}
	for (int e = 0; e < EVF_COUNT; e++) {
		names[e] = event_format((enum trace_event_id)e)->name;
		formats[e] = event_format((enum trace_event_id)e)->format;
	}
	for (int c = 0; c < st->ncpus; c++)
		fds[c] = st->cpu[c].fd;
	struct tracedat_source src = {
		.events = names, .nevents = EVF_COUNT, .ncpus = st->ncpus, .cpu_fd = fds,
		.page_size = RINGBUF_PAGE_SIZE, .header_page = event_header_page,
		.header_event = event_header_event, .formats = formats, .cmdlines = cmds,
	};
	rc = tracedat_write(st->path, &src, d);
out:
	free(fds);
	free(cmds);
	release(st);
	return rc;
}

void simtrace_discard(struct simtrace *st)
{
	release(st);
}
