// SPDX-License-Identifier: GPL-2.0-only
/* Building a replay model from trace events, in one pass, in time order.
 *
 * Per CPU the builder knows which task runs and since when; per task,
 * whether it runs, waits for a CPU, waits for a wakeup or is gone, and the
 * burst it is accumulating. A switch-out as runnable (preemption, yield)
 * does not end a burst: the simulated scheduler decides preemption for
 * itself. A switch-out in S/D ends the burst with a wait; the first wakeup
 * after it classifies the wait:
 *   - inside a timer callback on that CPU (hrtimer_expire_entry..exit,
 *     timer_expire_entry..exit): a timer sleep of the recorded length;
 *   - in the context of a task, not in a hard interrupt (nor in a softirq
 *     waking an I/O waiter, which is a device completion): a dependency on
 *     that task, placed in its sequence where it was in its burst;
 *   - anything else (the idle task, a hard interrupt): external, at the
 *     recorded time.
 * sched_waking (logged by the waker itself) beats the sched_wakeup that may
 * follow on the wakee's CPU from the idle task's interrupt.
 *
 * Traces lose events. Any event tells who runs on its CPU (common_pid), so
 * a task seen running without its switch-in is switched in at the CPU's
 * previous event; a task switched in while waiting was woken at that time
 * (external); the idle task seen on a CPU ends what was running there. */
#include "replay_model.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftrace_text.h"
#include "trace_read.h"

#define MAX_TRACE_CPUS 8192
/* Clocks of different CPUs drift by microseconds and text traces print
 * them merged, so time may step back a little between events: up to this
 * much it is clamped; more is a corrupt or spliced trace. */
#define CLOCK_SLACK_NS 1000000
/* include/linux/threads.h (Linux 6.12): PID_MAX_LIMIT on 64-bit. */
#define PID_MAX_LIMIT (4 * 1024 * 1024)

enum bstate { B_UNSEEN, B_RUNNING, B_RUNNABLE, B_BLOCKED, B_DEAD };

struct btask {
	enum bstate st;
	int cpu;
	int64_t acc_from;          /* running: accounted up to here */
	double acc_cycles;         /* the burst so far */
	int64_t acc_ns, acc_unknown_ns;
	int64_t open_seg;          /* blocked: its SEG_BLOCK, -1 none */
	int64_t block_ts;
	bool named;                /* comm from a sched field, not a truncated column */
};

struct bcpu {
	int64_t cur;     /* task index running here, -1 idle or unknown */
	int64_t last_ts; /* its previous event */
	uint32_t khz;    /* 0: not recorded */
	bool timer;      /* inside a timer callback */
	bool seen;
};

struct builder {
	struct replay_model *m;
	struct btask *bt;
	uint32_t cap_tasks;
	struct bcpu *cpu;
	int ncpu_cap;
	int64_t *hash_key; /* pid -> latest task index, open addressing */
	uint32_t *hash_val;
	size_t hash_cap, hash_n;
	uint32_t cap_blocks, cap_external;
	int64_t now;
	bool started;
	bool oom;
	int max_buffer_cpu;        /* highest CPU whose buffer logged an event */
	int max_named_cpu;         /* highest cpu_id of cpu_idle / cpu_frequency */
	struct trace_event named_at; /* where it appeared */
};

/* --- pids --- */

static size_t slot(const struct builder *b, int pid)
{
	size_t h = (size_t)(uint32_t)pid * 2654435761u;
	return h & (b->hash_cap - 1);
}

static int64_t lookup(const struct builder *b, int pid)
{
	if (!b->hash_cap)
		return -1;
	for (size_t i = slot(b, pid);; i = (i + 1) & (b->hash_cap - 1)) {
		if (b->hash_key[i] == -1)
			return -1;
		if (b->hash_key[i] == pid)
			return b->hash_val[i];
	}
}

static bool remember(struct builder *b, int pid, uint32_t task)
{
	if ((b->hash_n + 1) * 2 > b->hash_cap) {
		size_t cap = b->hash_cap ? b->hash_cap * 2 : 1024;
		int64_t *k = malloc(cap * sizeof(*k));
		uint32_t *v = malloc(cap * sizeof(*v));
		if (!k || !v) {
			free(k);
			free(v);
			return false;
		}
		for (size_t i = 0; i < cap; i++)
			k[i] = -1;
		int64_t *ok = b->hash_key;
		uint32_t *ov = b->hash_val;
		size_t ocap = b->hash_cap;
		b->hash_key = k;
		b->hash_val = v;
		b->hash_cap = cap;
		b->hash_n = 0;
		for (size_t i = 0; i < ocap; i++)
			if (ok[i] != -1)
				remember(b, (int)ok[i], ov[i]);
		free(ok);
		free(ov);
	}
	size_t i = slot(b, pid);
	while (b->hash_key[i] != -1 && b->hash_key[i] != pid)
		i = (i + 1) & (b->hash_cap - 1);
	if (b->hash_key[i] == -1)
		b->hash_n++;
	b->hash_key[i] = pid;
	b->hash_val[i] = task;
	return true;
}

static void set_name(struct replay_task *t, const char *comm)
{
	snprintf(t->name, sizeof(t->name), "%.15s-%d", comm && *comm ? comm : "task", t->pid);
}

/* A new task (a new incarnation when the pid was used before). */
static int64_t new_task(struct builder *b, int pid, const char *comm)
{
	struct replay_model *m = b->m;
	if (m->ntasks == b->cap_tasks) {
		uint32_t cap = b->cap_tasks ? b->cap_tasks * 2 : 256;
		struct replay_task *t = realloc(m->tasks, cap * sizeof(*t));
		if (!t)
			goto oom;
		m->tasks = t;
		struct btask *bt = realloc(b->bt, cap * sizeof(*bt));
		if (!bt)
			goto oom;
		b->bt = bt;
		b->cap_tasks = cap;
	}
	uint32_t i = m->ntasks;
	if (!remember(b, pid, i))
		goto oom;
	m->ntasks++;
	m->tasks[i] = (struct replay_task){ .pid = pid, .prio = -1, .start_kind = RS_AT };
	set_name(&m->tasks[i], comm);
	b->bt[i] = (struct btask){ .st = B_UNSEEN, .cpu = -1, .open_seg = -1 };
	return i;
oom:
	b->oom = true;
	return -1;
}

/* The current incarnation of pid, created if need be; a dead one is
 * replaced (the pid was reused). */
static int64_t task_of(struct builder *b, int pid, const char *comm)
{
	int64_t i = lookup(b, pid);
	if (i < 0 || b->bt[i].st == B_DEAD)
		return new_task(b, pid, comm);
	return i;
}

/* A comm from a sched field wins over the context column's (trace-cmd -l
 * truncates it to 8 characters). */
static void name_from(struct builder *b, int64_t i, const char *comm, bool field)
{
	if (i < 0 || !comm || !*comm || strcmp(comm, "<idle>") == 0)
		return;
	if (b->bt[i].named && !field)
		return;
	b->bt[i].named |= field;
	set_name(&b->m->tasks[i], comm);
}

/* --- segments --- */

static struct replay_seg *push_seg(struct builder *b, int64_t i, enum replay_seg_kind kind)
{
	struct replay_task *t = &b->m->tasks[i];
	if (t->nsegs == t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 8;
		struct replay_seg *s = realloc(t->segs, cap * sizeof(*s));
		if (!s) {
			b->oom = true;
			return NULL;
		}
		t->segs = s;
		t->cap = cap;
	}
	struct replay_seg *s = &t->segs[t->nsegs++];
	*s = (struct replay_seg){ .kind = (uint8_t)kind };
	return s;
}

static struct bcpu *cpu_at(struct builder *b, int c)
{
	if (c < 0 || c >= MAX_TRACE_CPUS)
		return NULL;
	if (c >= b->ncpu_cap) {
		int cap = b->ncpu_cap ? b->ncpu_cap : 8;
		while (cap <= c)
			cap *= 2;
		struct bcpu *grown = realloc(b->cpu, (size_t)cap * sizeof(*grown));
		if (!grown) {
			b->oom = true;
			return NULL;
		}
		for (int k = b->ncpu_cap; k < cap; k++)
			grown[k] = (struct bcpu){ .cur = -1 };
		b->cpu = grown;
		b->ncpu_cap = cap;
	}
	return &b->cpu[c];
}

static void account(struct builder *b, int64_t i, int64_t now)
{
	struct btask *t = &b->bt[i];
	if (t->st != B_RUNNING || now <= t->acc_from)
		return;
	int64_t dt = now - t->acc_from;
	uint32_t khz = b->cpu[t->cpu].khz;
	t->acc_ns += dt;
	if (khz)
		t->acc_cycles += (double)dt * khz / 1e6;
	else
		t->acc_unknown_ns += dt;
	b->m->tasks[i].busy_ns += dt;
	t->acc_from = now;
}

/* Ends the burst so far (the task goes on running, or not). */
static void flush(struct builder *b, int64_t i)
{
	struct btask *t = &b->bt[i];
	if (t->acc_ns <= 0)
		return;
	struct replay_seg *s = push_seg(b, i, SEG_RUN);
	if (!s)
		return;
	s->cycles = t->acc_cycles;
	s->ns = t->acc_ns;
	s->ns_unknown = t->acc_unknown_ns;
	b->m->tasks[i].nbursts++;
	t->acc_cycles = 0;
	t->acc_ns = t->acc_unknown_ns = 0;
}

static void stop_running(struct builder *b, int64_t i, int64_t at)
{
	struct btask *t = &b->bt[i];
	account(b, i, at);
	if (t->cpu >= 0 && b->cpu[t->cpu].cur == i)
		b->cpu[t->cpu].cur = -1;
	t->st = B_RUNNABLE;
}

static uint32_t new_block(struct builder *b, int64_t i, uint32_t seg)
{
	struct replay_model *m = b->m;
	if (m->nblocks == b->cap_blocks) {
		uint32_t cap = b->cap_blocks ? b->cap_blocks * 2 : 1024;
		struct replay_block *g = realloc(m->blocks, cap * sizeof(*g));
		if (!g) {
			b->oom = true;
			return 0;
		}
		m->blocks = g;
		b->cap_blocks = cap;
	}
	m->blocks[m->nblocks] = (struct replay_block){ .task = (uint32_t)i, .seg = seg };
	return m->nblocks++;
}

static void block(struct builder *b, int64_t i, bool iowait, int64_t since)
{
	struct replay_seg *s = push_seg(b, i, SEG_BLOCK);
	if (!s)
		return;
	uint32_t seg = b->m->tasks[i].nsegs - 1;
	s->iowait = iowait;
	s->ref = new_block(b, i, seg);
	b->bt[i].st = B_BLOCKED;
	b->bt[i].open_seg = seg;
	b->bt[i].block_ts = since;
}

static void release_external(struct builder *b, int64_t i, int64_t at)
{
	struct replay_model *m = b->m;
	struct btask *t = &b->bt[i];
	t->st = B_RUNNABLE;
	if (m->nexternal == b->cap_external) {
		uint32_t cap = b->cap_external ? b->cap_external * 2 : 256;
		struct replay_external *g = realloc(m->external, cap * sizeof(*g));
		if (!g) {
			b->oom = true;
			return;
		}
		m->external = g;
		b->cap_external = cap;
	}
	uint32_t blk = m->tasks[i].segs[t->open_seg].ref;
	m->external[m->nexternal++] = (struct replay_external){ .at = at - m->t0, .block = blk };
	m->external_wakes++;
	t->open_seg = -1;
}

/* Task i runs on CPU c from `since` on. */
static void begin_running(struct builder *b, int64_t i, int c, int64_t since)
{
	struct btask *t = &b->bt[i];
	struct bcpu *cpu = &b->cpu[c];
	switch (t->st) {
	case B_UNSEEN:
		/* It existed before the trace: it starts at the beginning, and
		 * when the trace first shows it later, it was woken then (not
		 * forked: the scheduler places a new task behind the others). */
		if (since > b->m->t0) {
			block(b, i, false, b->m->t0);
			release_external(b, i, since);
		}
		break;
	case B_BLOCKED: /* its wakeup was not recorded */
		release_external(b, i, since);
		break;
	case B_RUNNING: /* its switch-out elsewhere was not recorded */
		if (t->cpu != c) {
			int64_t last = b->cpu[t->cpu].last_ts;
			stop_running(b, i, last < since ? last : since);
		} else {
			account(b, i, since);
		}
		break;
	default:
		break;
	}
	if (cpu->cur >= 0 && cpu->cur != i)
		stop_running(b, cpu->cur, since);
	t->st = B_RUNNING;
	t->cpu = c;
	t->acc_from = since;
	cpu->cur = i;
}

/* An event logged in pid's context on CPU c at ts: pid runs there. */
static int64_t running_here(struct builder *b, int c, int pid, const char *comm, int64_t ts)
{
	struct bcpu *cpu = &b->cpu[c];
	if (pid == 0) {
		/* The idle task: whatever we thought ran here stopped. */
		if (cpu->cur >= 0)
			stop_running(b, cpu->cur, cpu->seen ? cpu->last_ts : ts);
		return -1;
	}
	int64_t i = task_of(b, pid, comm);
	if (i < 0)
		return -1;
	name_from(b, i, comm, false);
	if (cpu->cur == i && b->bt[i].st == B_RUNNING)
		return i;
	b->m->inferred_switches++;
	begin_running(b, i, c, cpu->seen ? cpu->last_ts : b->m->t0);
	return i;
}

/* --- events --- */

static void on_switch(struct builder *b, const struct trace_event *ev, int64_t ts)
{
	struct bcpu *cpu = &b->cpu[ev->cpu];
	b->m->switches++;
	if (ev->pid != 0) {
		int64_t i = running_here(b, ev->cpu, ev->pid, ev->comm, ts);
		if (i < 0)
			return;
		name_from(b, i, ev->comm, true);
		if (ev->prio >= 0)
			b->m->tasks[i].prio = ev->prio;
		account(b, i, ts);
		cpu->cur = -1;
		switch (ev->state) {
		case TPS_RUNNABLE:
			b->bt[i].st = B_RUNNABLE;
			break;
		case TPS_SLEEP:
		case TPS_DISK:
			flush(b, i);
			block(b, i, ev->state == TPS_DISK, ts);
			break;
		case TPS_DEAD:
			flush(b, i);
			b->bt[i].st = B_DEAD;
			b->m->tasks[i].exited = true;
			break;
		}
	} else if (cpu->cur >= 0) {
		stop_running(b, cpu->cur, cpu->seen ? cpu->last_ts : ts);
	}
	cpu->timer = false; /* no switch happens inside a timer callback */
	if (ev->pid2 != 0) {
		int64_t j = task_of(b, ev->pid2, ev->comm2);
		if (j < 0)
			return;
		name_from(b, j, ev->comm2, true);
		if (ev->prio2 >= 0)
			b->m->tasks[j].prio = ev->prio2;
		begin_running(b, j, ev->cpu, ts);
	}
}

static void on_wake(struct builder *b, const struct trace_event *ev, int64_t ts)
{
	if (ev->pid == 0)
		return;
	int64_t i = task_of(b, ev->pid, ev->comm);
	if (i < 0)
		return;
	name_from(b, i, ev->comm, true);
	struct btask *t = &b->bt[i];
	if (ev->kind == TEV_WAKEUP_NEW) {
		if (t->st == B_UNSEEN) { /* its fork was not recorded */
			b->m->tasks[i].start = ts - b->m->t0;
			t->st = B_RUNNABLE;
		}
		return;
	}
	if (t->st == B_UNSEEN)
		block(b, i, false, b->m->t0); /* waiting since before the trace */
	if (t->st != B_BLOCKED)
		return; /* already runnable: the kernel's wakeup was a no-op */
	struct replay_seg *s = &b->m->tasks[i].segs[t->open_seg];
	int waker = ev->ctx_pid;
	bool irq = ev->ctx & TEV_CTX_HARDIRQ;
	bool device = (ev->ctx & TEV_CTX_SOFTIRQ) && s->iowait;
	if (b->cpu[ev->cpu].timer) {
		b->m->timer_sleeps++;
		t->st = B_RUNNABLE;
		s->kind = SEG_SLEEP;
		s->ns = ts - t->block_ts;
		t->open_seg = -1;
		return;
	}
	if (waker != 0 && waker != ev->pid && !irq && !device) {
		int64_t k = lookup(b, waker);
		if (k >= 0 && b->bt[k].st == B_RUNNING && b->bt[k].cpu == ev->cpu) {
			account(b, k, ts);
			flush(b, k);
			struct replay_seg *w = push_seg(b, k, SEG_WAKE);
			if (!w)
				return;
			w->ref = b->m->tasks[i].segs[t->open_seg].ref;
			b->m->dependencies++;
			t->st = B_RUNNABLE;
			t->open_seg = -1;
			return;
		}
	}
	release_external(b, i, ts);
}

static void on_fork(struct builder *b, const struct trace_event *ev, int64_t ts)
{
	int64_t p = ev->pid ? task_of(b, ev->pid, ev->comm) : -1;
	int64_t c = lookup(b, ev->pid2);
	/* A child seen before its fork event (same timestamp) is kept. */
	if (c < 0 || b->bt[c].st != B_UNSEEN)
		c = new_task(b, ev->pid2, ev->comm2);
	if (c < 0)
		return;
	name_from(b, c, ev->comm2, true);
	b->bt[c].st = B_RUNNABLE;
	b->m->tasks[c].start = ts - b->m->t0;
	if (p >= 0 && b->bt[p].st == B_RUNNING && b->bt[p].cpu == ev->cpu) {
		account(b, p, ts);
		flush(b, p);
		struct replay_seg *s = push_seg(b, p, SEG_FORK);
		if (!s)
			return;
		s->ref = (uint32_t)c;
		b->m->tasks[c].start_kind = RS_FORK;
	}
}

static void on_freq(struct builder *b, const struct trace_event *ev, int64_t ts)
{
	struct bcpu *cpu = cpu_at(b, ev->arg);
	if (!cpu)
		return;
	if (cpu->cur >= 0)
		account(b, cpu->cur, ts);
	cpu->khz = ev->value > UINT32_MAX ? UINT32_MAX : (uint32_t)ev->value;
	b->m->freq_events = true;
}

static void note_cpu(struct builder *b, int c, long where)
{
	if (c + 1 > b->m->ncpus) {
		b->m->ncpus = c + 1;
		b->m->cpu_where = where;
	}
}

static bool is_dat(const struct replay_model *m)
{
	return m->info.format && strcmp(m->info.format, "trace.dat") == 0;
}

/* "PATH:LINE: ..." for text, "PATH: byte N (record R): ..." for trace.dat. */
static int bad_event(const struct builder *b, const struct trace_event *ev, struct pm_diag *d,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int bad_event(const struct builder *b, const struct trace_event *ev, struct pm_diag *d,
		     const char *fmt, ...)
{
	char what[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	const char *path = b->m->path ? b->m->path : "trace";
	if (is_dat(b->m))
		return pm_fail(d, "%.400s: byte %llu (record %ld): %s", path,
			       (unsigned long long)ev->offset, ev->where, what);
	return pm_fail(d, "%.400s:%ld: %s", path, ev->where, what);
}

static bool has_pid(enum trace_kind k)
{
	return k != TEV_FREQ && k != TEV_IDLE && k != TEV_TIMER_ENTRY && k != TEV_TIMER_EXIT &&
	       k != TEV_LOST && k != TEV_OTHER;
}

static bool has_pid2(enum trace_kind k)
{
	return k == TEV_SWITCH || k == TEV_FORK;
}

/* What no kernel logs: a PID outside 0..PID_MAX_LIMIT, a CPU beyond the
 * trace's (its header's count, when it gives one). */
static int check_event(struct builder *b, const struct trace_event *ev, struct pm_diag *d)
{
	int pids[3] = { ev->ctx_pid, has_pid(ev->kind) ? ev->pid : 0,
			has_pid2(ev->kind) ? ev->pid2 : 0 };
	for (int i = 0; i < 3; i++)
		if (pids[i] < 0 || pids[i] > PID_MAX_LIMIT)
			return bad_event(b, ev, d, "PID %d (expected 0..%d: corrupt trace?)", pids[i],
					 PID_MAX_LIMIT);
	int ncpus = b->m->info.ncpus;
	bool named = ev->kind == TEV_FREQ || ev->kind == TEV_IDLE;
	int cpu = named ? ev->arg : ev->kind == TEV_MIGRATE ? ev->arg : -1;
	if (ncpus > 0 && cpu >= ncpus)
		return bad_event(b, ev, d, "CPU %d, but the trace has %d CPUs (0..%d)", cpu, ncpus,
				 ncpus - 1);
	if (ev->cpu > b->max_buffer_cpu)
		b->max_buffer_cpu = ev->cpu;
	if (named && ev->arg > b->max_named_cpu) {
		b->max_named_cpu = ev->arg;
		b->named_at = *ev;
	}
	return 0;
}

static int on_event(void *ctx, const struct trace_event *ev, struct pm_diag *d)
{
	struct builder *b = ctx;
	struct replay_model *m = b->m;
	struct bcpu *cpu = cpu_at(b, ev->cpu);
	if (!cpu)
		goto range;
	if ((ev->kind == TEV_FREQ || ev->kind == TEV_IDLE) && !cpu_at(b, ev->arg))
		goto range;
	if (b->oom)
		return pm_fail(d, "out of memory");
	if (check_event(b, ev, d) < 0)
		return -1;
	if (ev->kind == TEV_LOST && !b->started)
		return 0; /* nothing known yet that the loss could affect */
	int64_t ts = ev->ts < 0 ? b->now : ev->ts;
	if (!b->started) {
		m->t0 = ts;
		b->started = true;
	}
	if (ts < b->now - CLOCK_SLACK_NS)
		return bad_event(b, ev, d, "time goes back %.6f s, from %.6f to %.6f (expected events "
				 "in time order, CPUs' clocks apart by at most %.3f ms)",
				 (double)(b->now - ts) / 1e9, (double)b->now / 1e9, (double)ts / 1e9,
				 CLOCK_SLACK_NS / 1e6);
	if (ts < b->now)
		ts = b->now; /* drift between CPUs */
	b->now = ts;
	note_cpu(b, ev->cpu, ev->where);
	if (ev->kind == TEV_FREQ || ev->kind == TEV_IDLE)
		note_cpu(b, ev->arg, ev->where);
	if (ev->kind == TEV_LOST) {
		if (cpu->cur >= 0)
			stop_running(b, cpu->cur, cpu->seen ? cpu->last_ts : ts);
		cpu->timer = false;
		return 0;
	}
	if (ev->kind != TEV_SWITCH)
		running_here(b, ev->cpu, ev->ctx_pid, ev->ctx_comm, ts);
	/* A timer callback logs its wakeups and nothing else: anything else
	 * means its exit event is missing (lost, or not recorded). */
	if (ev->kind != TEV_WAKING && ev->kind != TEV_WAKEUP && ev->kind != TEV_TIMER_ENTRY)
		b->cpu[ev->cpu].timer = false;
	switch (ev->kind) {
	case TEV_SWITCH: on_switch(b, ev, ts); break;
	case TEV_WAKING:
	case TEV_WAKEUP:
	case TEV_WAKEUP_NEW: on_wake(b, ev, ts); break;
	case TEV_FORK: on_fork(b, ev, ts); break;
	case TEV_EXIT: {
		int64_t i = ev->pid ? lookup(b, ev->pid) : -1;
		if (i >= 0)
			m->tasks[i].exited = true;
		break;
	}
	case TEV_FREQ: on_freq(b, ev, ts); break;
	case TEV_TIMER_ENTRY: cpu->timer = true; break;
	case TEV_TIMER_EXIT: cpu->timer = false; break;
	default: break;
	}
	cpu = &b->cpu[ev->cpu]; /* cpu_at() may have moved the array */
	cpu->last_ts = ts;
	cpu->seen = true;
	m->t_end = ts;
	return b->oom ? pm_fail(d, "out of memory") : 0;
range:
	return pm_fail(d, "%.400s:%ld: CPU number out of range (expected 0..%d)",
		       m->path ? m->path : "trace", ev->where, MAX_TRACE_CPUS - 1);
}

/* The end of the trace: bursts in progress end there; a wait nobody ended
 * is not replayed (the task simply ends). */
static void finish(struct builder *b)
{
	struct replay_model *m = b->m;
	for (uint32_t i = 0; i < m->ntasks; i++) {
		struct btask *t = &b->bt[i];
		if (t->st == B_RUNNING)
			account(b, i, m->t_end);
		if (t->st == B_RUNNING || t->st == B_RUNNABLE)
			flush(b, i);
		if (t->st == B_BLOCKED && t->open_seg == (int64_t)m->tasks[i].nsegs - 1)
			m->tasks[i].nsegs--;
	}
}

static void builder_free(struct builder *b)
{
	free(b->bt);
	free(b->cpu);
	free(b->hash_key);
	free(b->hash_val);
}

static int done(struct builder *b, int rc, struct pm_diag *d)
{
	struct replay_model *m = b->m;
	if (rc == 0 && b->oom)
		rc = pm_fail(d, "out of memory");
	if (rc == 0) {
		finish(b);
		if (b->oom)
			rc = pm_fail(d, "out of memory");
	}
	builder_free(b);
	/* Without a CPU count in the header, the trace's CPUs are those whose
	 * buffers logged events: a cpu_id beyond them names no CPU traced. */
	if (rc == 0 && m->info.ncpus <= 0 && b->max_named_cpu > b->max_buffer_cpu)
		rc = bad_event(b, &b->named_at, d, "cpu_id %d, but no event was logged on a CPU "
			       "above %d (expected a CPU of the trace)", b->max_named_cpu,
			       b->max_buffer_cpu);
	if (rc == 0 && m->switches == 0)
		rc = pm_fail_at(d, m->path, 0, "no sched_switch events: nothing to replay (expected a "
				"trace of sched:sched_switch and sched:sched_wakeup, e.g. from pmlab "
				"record)");
	if (rc < 0)
		replay_model_free(m);
	return rc;
}

static int start(struct replay_model *m, struct builder *b, const char *name, struct pm_diag *d)
{
	*m = (struct replay_model){ 0 };
	*b = (struct builder){ .m = m, .max_buffer_cpu = -1, .max_named_cpu = -1 };
	m->path = strdup(name);
	return m->path ? 0 : pm_fail(d, "out of memory");
}

int replay_model_load(struct replay_model *m, const char *path, struct pm_diag *d)
{
	struct builder b;
	if (start(m, &b, path, d) < 0)
		return -1;
	return done(&b, trace_read(path, on_event, &b, &m->info, d), d);
}

struct filtered {
	struct builder *b;
	int (*filter)(void *ctx, struct trace_event *ev);
	void *ctx;
};

static int on_filtered(void *ctx, const struct trace_event *ev, struct pm_diag *d)
{
	struct filtered *f = ctx;
	struct trace_event e = *ev;
	return f->filter(f->ctx, &e) ? 0 : on_event(f->b, &e, d);
}

int replay_model_load_filtered(struct replay_model *m, const char *path,
			       int (*filter)(void *ctx, struct trace_event *ev), void *ctx,
			       struct pm_diag *d)
{
	struct builder b;
	struct filtered f = { &b, filter, ctx };
	if (start(m, &b, path, d) < 0)
		return -1;
	return done(&b, trace_read(path, on_filtered, &f, &m->info, d), d);
}

int replay_model_load_text(struct replay_model *m, const char *text, size_t len,
			   const char *name, struct pm_diag *d)
{
	struct builder b;
	if (start(m, &b, name, d) < 0)
		return -1;
	return done(&b, ftrace_text_read_buf(text, len, name, on_event, &b, &m->info, d), d);
}

void replay_model_free(struct replay_model *m)
{
	for (uint32_t i = 0; m->tasks && i < m->ntasks; i++)
		free(m->tasks[i].segs);
	free(m->tasks);
	free(m->blocks);
	free(m->external);
	free(m->path);
	*m = (struct replay_model){ 0 };
}

void replay_model_cpu_where(const struct replay_model *m, char *buf, size_t size)
{
	if (m->info.format && strcmp(m->info.format, "trace.dat") == 0)
		snprintf(buf, size, "%.400s: record %ld", m->path, m->cpu_where);
	else
		snprintf(buf, size, "%.400s:%ld", m->path, m->cpu_where);
}
