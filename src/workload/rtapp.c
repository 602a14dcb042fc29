// SPDX-License-Identifier: GPL-2.0-only
/* rtapp: runs an rt-app JSON description, `--workload rtapp:FILE.json`
 * (scheduler-tools/rt-app doc/tutorial.txt; loader in rtapp_load.c).
 *
 * Reproduces, per task instance, rt-app's thread body: its phases in
 * order, each `loop` times, the whole `loop` times (or for ever), after
 * `delay`; at each phase the phase's policy/priority (CFS weight),
 * util_min/util_max (uclamp) and cpus (affinity; a phase without cpus
 * takes the task's) take effect. Events:
 *   run      work measured at the calibration CPU's base frequency: cycles,
 *            so it stretches when the clock drops;
 *   runtime  busy for a fixed time whatever the clock (non-scaling stall);
 *   sleep    relative sleep;
 *   timer    rt-app's timer: the next expiry is the previous one plus the
 *            period (the first one the task's start plus the period), so
 *            preemption and DVFS do not drift it; on an overrun a relative
 *            timer restarts from now, an absolute one keeps its grid.
 *            Slack is expiry minus now when the timer is reached; the
 *            wake-up latency is running again minus the expiry. A timer
 *            named "unique..." is per task instance, others are shared by
 *            every task using the name, as in rt-app;
 *   lock, unlock   a mutex, handed to its first waiter at unlock (FIFO);
 *   wait, signal, broad   a condition variable with its mutex (wait
 *            releases the mutex and takes it back when woken); sync is
 *            lock, signal, wait, unlock;
 *   barrier  all task instances that use it meet;
 *   fork     starts one more instance of the named task (fork_ns of
 *            system time for the forking task);
 *   yield    a system call, then sched_yield() (behind the tasks waiting
 *            on its CPU);
 *   iorun    a write to the I/O device: a system call, then an iowait
 *            block of io_latency_us + bytes / io_mbps.
 * Each loop of a phase is an activation, as one line of rt-app's log:
 * per task the result lists activations, the mean run time, period and
 * slack, the smallest slack, deadline misses (activations whose slack was
 * negative) and the timer wake-up latency's percentiles (JSON "per_task",
 * table "Per task"). The run's throughput is activations per second, its
 * latency the timer wake-up latency. The run ends at global.duration, or
 * when every task has exited when it is -1.
 *
 * Leaves out: real-time and deadline policies, taskgroups, NUMA, the mem,
 * suspend and resume events (all refused by the loader), priority
 * inheritance, mutex barging and spinning, rt-app's
 * own per-event overhead (a loop of phases that takes no time at all is
 * charged LOOP_GUARD_CYCLES so the simulation moves on), and the
 * per-event ftrace and log output. The default io_device is /dev/null,
 * which would not block; iorun here models a storage device. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/sim.h"
#include "rtapp.h"
#include "wlutil.h"

#define LOOP_GUARD_CYCLES 1000.0

enum timer_arg { ARG_IO_DONE = 0, ARG_STOP = 1 };
#define ARG_KIND_SHIFT 28
#define ARG_INDEX_MASK ((1u << ARG_KIND_SHIFT) - 1)

struct timer_state {
	bool started;
	sim_ns next;
};

struct mutex_state {
	int owner; /* instance, -1 free */
	struct wl_fifo waiters;
};

/* Per resource: whichever part its kind uses. */
struct res_state {
	struct mutex_state mutex;
	struct wl_fifo waiters; /* condition and barrier */
	int arrived;            /* barrier */
	struct timer_state timer;
};

struct inst {
	struct task *t;
	int thread;
	char name[RESULT_NAME_MAX];
	int phase, ev, step;
	int64_t phase_loop, thread_loop;
	bool started, waiting, guarded;
	const int *cpus; /* the affinity in force (NULL: all CPUs) */
	sim_ns t_first;  /* when it started: the timers' first reference */
	sim_ns act_start, act_run, act_slack, ev_start, timer_target;
	bool act_timed;
	struct timer_state *timers; /* its own "unique" timers, by resource */
	struct task_result res;
};

struct rtapp {
	int64_t io_latency_us;
	int64_t io_mbps;
	struct rtapp_spec spec;
	bool loaded;
	struct res_state *res;
	struct inst **inst;
	int ninst, cap_inst;
	int *forks;   /* per thread: instances started so far */
	int *all_cpus;
	int live;
	double calib_khz;
};

static const struct tunable rtapp_params[] = {
	{ "io_latency_us", "iorun: device latency per write, us",
	  TUNABLE_FIELD(struct rtapp, io_latency_us), 100, 0, 100000000, NULL },
	{ "io_mbps", "iorun: device write bandwidth, MB/s", TUNABLE_FIELD(struct rtapp, io_mbps), 500,
	  1, 1000000, NULL },
};

static const struct rtapp_thread *thread_of(const struct rtapp *r, const struct inst *in)
{
	return &r->spec.threads[in->thread];
}

static const struct rtapp_phase *phase_of(const struct rtapp *r, const struct inst *in)
{
	return &thread_of(r, in)->phases[in->phase];
}

/* A new instance of thread `th`, starting after its delay; forked by the
 * running `parent` (fork balancing places it at once) unless NULL or
 * delayed. */
static struct inst *spawn(struct sim *s, struct rtapp *r, int th, struct task *parent,
			  struct pm_diag *d)
{
	const struct rtapp_thread *spec = &r->spec.threads[th];
	if (r->ninst >= RTAPP_MAX_TASKS) {
		pm_fail(d, "more than %d rt-app task instances", RTAPP_MAX_TASKS);
		return NULL;
	}
	if (r->ninst == r->cap_inst) {
		int cap = r->cap_inst ? 2 * r->cap_inst : 16;
		struct inst **grown = realloc(r->inst, (size_t)cap * sizeof(*grown));
		if (!grown)
			goto oom;
		r->inst = grown;
		r->cap_inst = cap;
	}
	struct inst *in = calloc(1, sizeof(*in));
	if (!in)
		goto oom;
	int idx = r->ninst++;
	r->inst[idx] = in;
	in->thread = th;
	snprintf(in->name, sizeof(in->name), "%s-%d", spec->name, r->forks[th]++);
	snprintf(in->res.name, sizeof(in->res.name), "%s", in->name);
	hist_init(&in->res.wakeup_latency);
	in->timers = calloc((size_t)r->spec.nres + 1, sizeof(*in->timers));
	if (!in->timers)
		goto oom;
	bool forked = parent && spec->delay_us == 0;
	in->t = forked ? sim_fork(s, parent, in->name)
		       : sim_task_new(s, in->name, sim_now(s) + spec->delay_us * NS_PER_US);
	if (!in->t)
		goto oom;
	in->t->wl_role = idx;
	r->live++;
	/* Scheduling settings before it first runs: the task's, then the
	 * first phase's. */
	const struct rtapp_sched *ts = &spec->sched, *ps = &spec->phases[0].sched;
	if (ts->weight > 0)
		in->t->weight = (uint32_t)ts->weight;
	if (ps->weight > 0)
		in->t->weight = (uint32_t)ps->weight;
	for (int k = 0; k < 2; k++) {
		const struct rtapp_sched *sc = k ? ps : ts;
		sim_task_set_uclamp(s, in->t, sc->util_min, sc->util_max);
	}
	const struct rtapp_sched *aff = ps->cpus ? ps : ts;
	if (aff->cpus && sim_task_set_affinity(s, in->t, aff->cpus, aff->ncpus, d) < 0)
		return NULL;
	in->cpus = aff->cpus;
	if (forked)
		sim_wake_up_new_task(s, in->t);
	return in;
oom:
	pm_fail(d, "out of memory");
	return NULL;
}

static int rtapp_init(struct sim *s, void *data, struct pm_diag *d)
{
	struct rtapp *r = data;
	const char *path = sim_workload_arg(s);
	if (!path || !*path)
		return pm_fail(d, "rtapp: name the description: --workload rtapp:FILE.json");
	if (rtapp_load_file(&r->spec, path, sim_ncpus(s), d) < 0)
		return -1;
	r->loaded = true;
	r->calib_khz = sim_machine(s)->base_khz;
	r->res = calloc((size_t)r->spec.nres + 1, sizeof(*r->res));
	r->forks = calloc((size_t)r->spec.nthreads, sizeof(*r->forks));
	r->all_cpus = calloc((size_t)sim_ncpus(s), sizeof(*r->all_cpus));
	if (!r->res || !r->forks || !r->all_cpus)
		return pm_fail(d, "out of memory");
	for (int i = 0; i < r->spec.nres; i++)
		r->res[i].mutex.owner = -1;
	for (int c = 0; c < sim_ncpus(s); c++)
		r->all_cpus[c] = c;
	for (int th = 0; th < r->spec.nthreads; th++)
		for (int64_t i = 0; i < r->spec.threads[th].instances; i++)
			if (!spawn(s, r, th, NULL, d))
				return -1;
	if (r->spec.duration_s > 0 &&
	    sim_post_workload_timer(s, r->spec.duration_s * NS_PER_SEC,
				    (uint32_t)ARG_STOP << ARG_KIND_SHIFT) < 0)
		return pm_fail(d, "out of memory");
	return 0;
}

static void wake(struct sim *s, struct rtapp *r, int idx)
{
	struct inst *in = r->inst[idx];
	if (in->waiting) {
		in->waiting = false;
		sim_wake(s, in->t);
	}
}

static void block(struct inst *in, bool iowait, struct action *a)
{
	in->waiting = true;
	*a = (struct action){ .kind = ACT_BLOCK, .iowait = iowait };
}

/* Takes mutex m, or queues for it; true when taken. */
static bool mutex_take(struct rtapp *r, int m, int me)
{
	struct mutex_state *mx = &r->res[m].mutex;
	if (mx->owner < 0 || mx->owner == me) {
		mx->owner = me;
		return true;
	}
	if (wl_fifo_push(&mx->waiters, me) < 0)
		return true; /* out of memory: go on without it rather than hang */
	return false;
}

/* Releases mutex m if `me` holds it: the first waiter gets it. */
static void mutex_give(struct sim *s, struct rtapp *r, int m, int me)
{
	struct mutex_state *mx = &r->res[m].mutex;
	if (mx->owner != me)
		return;
	mx->owner = wl_fifo_pop(&mx->waiters);
	if (mx->owner >= 0)
		wake(s, r, mx->owner);
}

static struct timer_state *timer_of(struct rtapp *r, struct inst *in, int res)
{
	return r->spec.res[res].unique ? &in->timers[res] : &r->res[res].timer;
}

/* The end of one loop of a phase: rt-app's log line. */
static void end_activation(struct sim *s, struct inst *in)
{
	sim_ns now = sim_now(s);
	struct task_result *tr = &in->res;
	tr->activations++;
	tr->run_ns += in->act_run;
	tr->period_ns += now - in->act_start;
	if (in->act_timed) {
		if (tr->timed == 0 || in->act_slack < tr->slack_min_ns)
			tr->slack_min_ns = in->act_slack;
		tr->timed++;
		tr->slack_ns += in->act_slack;
		if (in->act_slack < 0)
			tr->deadline_misses++;
	}
	sim_add_work(s, 1);
	in->act_start = now;
	in->act_run = 0;
	in->act_slack = 0;
	in->act_timed = false;
}

/* Applies the settings of the phase being entered (the engine moves the
 * task if its new affinity excludes its CPU). */
static void enter_phase(struct sim *s, struct rtapp *r, struct inst *in)
{
	const struct rtapp_thread *th = thread_of(r, in);
	const struct rtapp_sched *ps = &phase_of(r, in)->sched;
	struct task *t = in->t;
	if (ps->weight > 0)
		t->weight = (uint32_t)ps->weight;
	sim_task_set_uclamp(s, t, ps->util_min, ps->util_max);
	const struct rtapp_sched *aff = ps->cpus ? ps : th->sched.cpus ? &th->sched : NULL;
	const int *cpus = aff ? aff->cpus : NULL;
	if (cpus == in->cpus)
		return;
	struct pm_diag d;
	const int *list = cpus ? cpus : r->all_cpus;
	int n = cpus ? aff->ncpus : sim_ncpus(s);
	if (sim_task_set_affinity(s, t, list, n, &d) < 0)
		return; /* out of memory: keep the old mask */
	in->cpus = cpus;
}

/* Moves past the last event of a phase loop; false when the task is done. */
static bool next_loop(struct sim *s, struct rtapp *r, struct inst *in)
{
	const struct rtapp_thread *th = thread_of(r, in);
	const struct rtapp_phase *ph = phase_of(r, in);
	in->ev = 0;
	if (ph->loop < 0 || ++in->phase_loop < ph->loop)
		return true;
	in->phase_loop = 0;
	if (++in->phase == th->nphases) {
		in->phase = 0;
		if (th->loop >= 0 && ++in->thread_loop >= th->loop)
			return false;
	}
	enter_phase(s, r, in);
	return true;
}

static void task_exit(struct sim *s, struct rtapp *r, struct action *a)
{
	if (--r->live == 0 && r->spec.duration_s <= 0)
		sim_stop(s);
	*a = (struct action){ .kind = ACT_EXIT };
}

/* run and runtime: cycles that scale with the clock, or time that does
 * not; the activation's run time counted when it ends. */
static bool ev_run(struct sim *s, struct rtapp *r, struct inst *in,
		   const struct rtapp_event *ev, struct action *a)
{
	sim_ns now = sim_now(s);

	if (in->step == 1) {
		in->act_run += now - in->ev_start;
		return false;
	}
	if (ev->value == 0)
		return false;
	in->step = 1;
	in->ev_start = now;
	if (ev->kind == RTAPP_RUN)
		*a = (struct action){ .kind = ACT_RUN,
				      .cycles = workload_cycles((double)ev->value, r->calib_khz) };
	else
		*a = (struct action){ .kind = ACT_RUN, .stall_ns = (double)ev->value * 1000.0 };
	return true;
}

/* timer: sleep to the next expiry of a periodic timer (the slack it
 * leaves), then the wakeup latency. */
static bool ev_timer(struct sim *s, struct rtapp *r, struct inst *in,
		     const struct rtapp_event *ev, struct action *a)
{
	sim_ns now = sim_now(s);

	if (in->step == 1) {
		sim_ns lat = now - in->timer_target;
		hist_add(&in->res.wakeup_latency, lat);
		sim_record_latency(s, lat);
		return false;
	}
	struct timer_state *ts = timer_of(r, in, ev->res);
	if (!ts->started) {
		ts->started = true;
		ts->next = in->t_first;
	}
	ts->next += ev->value * NS_PER_US;
	sim_ns slack = ts->next - now;
	in->act_slack = r->spec.cumulative_slack ? in->act_slack + slack : slack;
	in->act_timed = true;
	if (now < ts->next) {
		in->step = 1;
		in->timer_target = ts->next;
		*a = (struct action){ .kind = ACT_SLEEP, .until = ts->next };
		return true;
	}
	if (!r->spec.res[ev->res].absolute)
		ts->next = now;
	return false;
}

/* wait: give the mutex, wait for a signal, take the mutex back. */
static bool ev_wait(struct sim *s, struct rtapp *r, struct inst *in, int me,
		    const struct rtapp_event *ev, struct action *a)
{
	switch (in->step) {
	case 0:
		mutex_give(s, r, ev->mutex, me);
		if (wl_fifo_push(&r->res[ev->res].waiters, me) < 0)
			return false;
		in->step = 1;
		block(in, false, a);
		return true;
	case 1: /* signalled: take the mutex back */
		if (mutex_take(r, ev->mutex, me))
			return false;
		in->step = 2;
		block(in, false, a);
		return true;
	default: /* the mutex was handed over */
		return false;
	}
}

/* barrier: the last to arrive wakes the others. */
static bool ev_barrier(struct sim *s, struct rtapp *r, struct inst *in, int me,
		       const struct rtapp_event *ev, struct action *a)
{
	if (in->step == 1)
		return false;
	struct res_state *b = &r->res[ev->res];
	if (++b->arrived >= r->spec.res[ev->res].users) {
		int w;
		b->arrived = 0;
		while ((w = wl_fifo_pop(&b->waiters)) >= 0)
			wake(s, r, w);
		return false;
	}
	if (wl_fifo_push(&b->waiters, me) < 0)
		return false;
	in->step = 1;
	block(in, false, a);
	return true;
}

/* yield and iorun: a system call, then the yield or the I/O's wait. */
static bool ev_syscall(struct sim *s, struct rtapp *r, struct inst *in, int me,
		       const struct rtapp_event *ev, struct action *a)
{
	switch (in->step) {
	case 0:
		in->step = 1;
		*a = wl_kernel(s, (double)sim_machine(s)->syscall_ns);
		return true;
	case 1:
		in->step = 2;
		if (ev->kind == RTAPP_YIELD) {
			*a = (struct action){ .kind = ACT_YIELD };
			return true;
		}
		/* MB/s = bytes/us */
		sim_ns io = r->io_latency_us * NS_PER_US + ev->value * NS_PER_US / r->io_mbps;
		if (sim_post_workload_timer(s, sim_now(s) + io, (uint32_t)me) < 0)
			return false;
		block(in, true, a);
		return true;
	default:
		return false;
	}
}

/* Runs the current event from its current step. Returns true with *a set
 * when the task has something to do; false when the event is over. */
static bool run_event(struct sim *s, struct rtapp *r, struct inst *in, int me, struct action *a)
{
	const struct rtapp_event *ev = &phase_of(r, in)->events[in->ev];
	sim_ns now = sim_now(s);
	switch (ev->kind) {
	case RTAPP_RUN:
	case RTAPP_RUNTIME:
		return ev_run(s, r, in, ev, a);
	case RTAPP_SLEEP:
		if (in->step == 1 || ev->value == 0)
			return false;
		in->step = 1;
		*a = (struct action){ .kind = ACT_SLEEP, .until = now + ev->value * NS_PER_US };
		return true;
	case RTAPP_TIMER:
		return ev_timer(s, r, in, ev, a);
	case RTAPP_LOCK:
		if (in->step == 1 || mutex_take(r, ev->res, me))
			return false;
		in->step = 1;
		block(in, false, a);
		return true;
	case RTAPP_UNLOCK:
		mutex_give(s, r, ev->res, me);
		return false;
	case RTAPP_WAIT:
		return ev_wait(s, r, in, me, ev, a);
	case RTAPP_SIGNAL:
	case RTAPP_BROAD: {
		struct wl_fifo *q = &r->res[ev->res].waiters;
		int w;
		while ((w = wl_fifo_pop(q)) >= 0) {
			wake(s, r, w);
			if (ev->kind == RTAPP_SIGNAL)
				break;
		}
		return false;
	}
	case RTAPP_BARRIER:
		return ev_barrier(s, r, in, me, ev, a);
	case RTAPP_FORK:
		if (in->step == 1) {
			struct pm_diag d;
			/* Past the instance limit a fork does nothing, rather than
			 * let a looping fork grow without bound. */
			spawn(s, r, ev->res, in->t, &d);
			return false;
		}
		in->step = 1;
		*a = wl_kernel(s, (double)sim_machine(s)->fork_ns);
		return true;
	case RTAPP_YIELD:
	case RTAPP_IORUN:
		return ev_syscall(s, r, in, me, ev, a);
	}
	return false;
}

static void rtapp_next(struct sim *s, void *data, struct task *t, struct action *a)
{
	struct rtapp *r = data;
	int me = t->wl_role;
	struct inst *in = r->inst[me];
	sim_ns now = sim_now(s);
	if (!in->started) {
		in->started = true;
		in->t_first = now;
		in->act_start = now;
		if (thread_of(r, in)->loop == 0) {
			task_exit(s, r, a);
			return;
		}
	}
	for (;;) {
		if (in->ev < phase_of(r, in)->nevents) {
			if (run_event(s, r, in, me, a))
				return;
			in->ev++;
			in->step = 0;
			continue;
		}
		/* A loop of the phase ends. One that took no time at all is
		 * charged a little, so that an endless loop still moves time. */
		if (now == in->act_start && !in->guarded) {
			in->guarded = true;
			*a = (struct action){ .kind = ACT_RUN, .cycles = LOOP_GUARD_CYCLES };
			return;
		}
		in->guarded = false;
		end_activation(s, in);
		if (!next_loop(s, r, in)) {
			task_exit(s, r, a);
			return;
		}
	}
}

static void rtapp_timer(struct sim *s, void *data, uint32_t arg)
{
	struct rtapp *r = data;
	if (arg >> ARG_KIND_SHIFT == ARG_STOP) {
		sim_stop(s);
		return;
	}
	int idx = (int)(arg & ARG_INDEX_MASK);
	if (idx < r->ninst)
		wake(s, r, idx);
}

static void rtapp_report(struct sim *s, void *data, struct run_result *res)
{
	struct rtapp *r = data;
	uint64_t misses = 0;
	res->tasks = calloc((size_t)r->ninst, sizeof(*res->tasks));
	if (res->tasks) {
		res->ntasks = r->ninst;
		for (int i = 0; i < r->ninst; i++)
			res->tasks[i] = r->inst[i]->res;
	}
	for (int i = 0; i < r->ninst; i++)
		misses += r->inst[i]->res.deadline_misses;
	wl_extra(res, "deadline_misses", "activations", (double)misses);
	wl_extra(res, "tasks", "instances", (double)r->ninst);
}

static void rtapp_fini(void *data)
{
	struct rtapp *r = data;
	for (int i = 0; r->res && i < r->spec.nres; i++) {
		wl_fifo_free(&r->res[i].mutex.waiters);
		wl_fifo_free(&r->res[i].waiters);
	}
	for (int i = 0; i < r->ninst; i++) {
		free(r->inst[i]->timers);
		free(r->inst[i]);
	}
	free(r->inst);
	free(r->res);
	free(r->forks);
	free(r->all_cpus);
	if (r->loaded)
		rtapp_spec_free(&r->spec);
}

const struct workload_ops workload_rtapp = {
	.name = "rtapp",
	.summary = "an rt-app JSON description: --workload rtapp:FILE.json",
	.throughput_unit = "activations/s",
	.latency_what = "timer wake-up latency",
	.params = rtapp_params,
	.nparams = WL_NPARAMS(rtapp_params),
	.data_size = sizeof(struct rtapp),
	.init = rtapp_init,
	.next = rtapp_next,
	.timer = rtapp_timer,
	.report = rtapp_report,
	.fini = rtapp_fini,
};
