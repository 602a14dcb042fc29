// SPDX-License-Identifier: GPL-2.0-only
/* kernbench: `make -j jobs` of a Linux kernel, timed as kernbench 0.42
 * times it (docs/sources.md 3).
 *
 * Reproduces: make's job server with `jobs` slots (0: four per online CPU,
 * kernbench's "optimal" load) running `files` compile jobs, each a
 * short-lived task created when a slot frees (sim_task_new, so fork
 * placement decides where it starts). A job is the process chain make ->
 * sh -> gcc -> cc1 -> as -> fixdep: `procs` fork+exec pairs charged from
 * the machine's [costs] (half before the compile, half after), run by the
 * job's task (sh and the gcc driver); the cc1 compile runs in a second
 * task that the job forks and waits for, placed by fork balancing while
 * the job still runs and by exec balancing as it execs, whose exit wakes
 * the job (the wakeup the scheduler places), and the assembler in a third, forked the same way once cc1 is
 * done (as_pct percent of the compile's time). The compile has a lognormal length (median cc1_ms, sigma
 * cc1_sigma_pct / 100, of which stall_pct percent is memory stall), kernel
 * work for page faults and file reads (sys_pct percent of the compile),
 * and with probability io_pct percent one read of a file not in the page
 * cache (an iowait block of io_us, ended by the disk's interrupt). Every job of the build is in one sharing group: they
 * read the same headers, so packing them under one last-level cache cuts
 * their stall (the machine's share_stall_cut; the effect
 * the sched_mc seed experiment relies on, docs/sources.md 1.2). When the last
 * compile job ends, a serial link (link_ms of work, one process: ld,
 * kallsyms, the vmlinux relinks) finishes the build and ends the run.
 *
 * Reports what kernbench prints: elapsed seconds (extra `seconds`), user
 * and system time, percent CPU, context switches; throughput is builds
 * per hour. A run that --duration cuts short reports the share of the
 * build done (work_done) per hour and `seconds` = 0.
 *
 * Leaves out: the make recursion and its own CPU time, the warm-up build
 * and `make clean`, kbuild's serial start, modules, parallelism inside
 * the link, the writeback of object files (async: kernbench's time does
 * not wait for it), and the page cache warm-up: io_pct stands for what is
 * still missed.
 *
 * Defaults (A.3): files = 2700 (x86_64 defconfig compiles ~2.5-3k C
 * files, ESTIMATE), cc1_ms = 250 median with sigma 1.0 (A.3's model of
 * cc1, ~0.41 s mean, "0.3-0.5 s CPU per file" on 3-4 GHz cores),
 * procs = 10 (~29,140 processes per build / ~2.7k objects), sys_pct = 8
 * (system/user time 4.5-18 % in A.3's published runs), stall_pct = 20,
 * io_pct = 10, io_us = 300, link_ms = 8000 and as_pct = 5 (GNU as on
 * cc1's output of a kernel C file) are ESTIMATES. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../engine/sim.h"
#include "wlutil.h"

/* A compile is run in slices so that the sharing group's gain follows the
 * cache each part actually runs under. */
#define SLICE_US 10000.0

/* A compile job is three tasks, as the real chain is: the job (make's
 * child: sh and the gcc driver, which fork, exec and wait), the cc1 it
 * forks and then the as it forks, each a new task placed by fork balancing
 * inside the job's fork() and by exec balancing at its execve(), whose exit
 * wakes the job. */
enum kb_step { STEP_SPAWN, STEP_FORK, STEP_AS, STEP_COMPILE, STEP_KERNEL, STEP_IO, STEP_REAP,
	       STEP_DONE };

/* task->wl_state: what a task of the build is. */
enum kb_role { ROLE_JOB, ROLE_CC1, ROLE_AS, ROLE_AS_RAN };

struct kb_job {
	double compile_us;
	double as_us;        /* the assembler's run after the compile */
	double slice_us;
	int slices_left;
	bool reads_disk; /* one of its files is not in the page cache */
	enum kb_step step;   /* the job's: SPAWN, FORK, REAP, DONE */
	enum kb_step cc1;    /* the cc1 task's: COMPILE, KERNEL, IO, DONE */
};

struct kernbench {
	int64_t jobs;
	int64_t files;
	int64_t cc1_ms;
	int64_t cc1_sigma_pct;
	int64_t stall_pct;
	int64_t sys_pct;
	int64_t procs;
	int64_t io_pct;
	int64_t io_us;
	int64_t link_ms;
	int64_t as_pct;
	struct kb_job *job;  /* per file, then the link */
	struct task **task;  /* per job: the job's task, woken when its cc1 exits */
	struct task **cc1;   /* per job: its cc1 task, for the I/O completion timer */
	uint32_t group;
	int64_t next_file, running, done;
	sim_ns finished_at;
};

static const struct tunable kernbench_params[] = {
	{ "jobs", "make -j slots (0: four per online CPU, kernbench's optimal load)",
	  TUNABLE_FIELD(struct kernbench, jobs), 0, 0, 100000, NULL },
	{ "files", "compile jobs in the build", TUNABLE_FIELD(struct kernbench, files), 2700, 1,
	  10000000, NULL },
	{ "cc1_ms", "median cc1 compile time, ms on a 3 GHz core",
	  TUNABLE_FIELD(struct kernbench, cc1_ms), 250, 1, 10000000, NULL },
	{ "cc1_sigma_pct", "spread of compile times: sigma of their logarithm, in hundredths",
	  TUNABLE_FIELD(struct kernbench, cc1_sigma_pct), 100, 0, 300, NULL },
	{ "stall_pct", "share of the compile that is memory stall, %",
	  TUNABLE_FIELD(struct kernbench, stall_pct), 20, 0, 100, NULL },
	{ "sys_pct", "kernel work (page faults, file reads) per job, % of its compile",
	  TUNABLE_FIELD(struct kernbench, sys_pct), 8, 0, 1000, NULL },
	{ "procs", "processes forked and executed per job (sh, gcc, cc1, as, fixdep, ...)",
	  TUNABLE_FIELD(struct kernbench, procs), 10, 0, 1000, NULL },
	{ "io_pct", "share of jobs that wait once for a file read, %",
	  TUNABLE_FIELD(struct kernbench, io_pct), 10, 0, 100, NULL },
	{ "io_us", "that read's latency, us", TUNABLE_FIELD(struct kernbench, io_us), 300, 0,
	  100000000, NULL },
	{ "link_ms", "serial link at the end, ms on a 3 GHz core",
	  TUNABLE_FIELD(struct kernbench, link_ms), 8000, 0, 100000000, NULL },
	{ "as_pct", "the assembler's run per job, % of its compile (0: no as process)",
	  TUNABLE_FIELD(struct kernbench, as_pct), 5, 0, 1000, NULL },
};

static int start_job(struct sim *s, struct kernbench *k, int64_t idx)
{
	char name[64];
	snprintf(name, sizeof(name), idx < k->files ? "gcc/%lld" : "ld", (long long)idx);
	struct task *t = sim_task_new(s, name, sim_now(s));
	if (!t)
		return -1;
	t->wl_role = (int)idx;
	t->share_group = k->group;
	k->task[idx] = t;
	k->running++;
	return 0;
}

static int kernbench_init(struct sim *s, void *data, struct pm_diag *d)
{
	struct kernbench *k = data;
	if (k->jobs == 0)
		k->jobs = 4 * (int64_t)sim_ncpus(s);
	k->job = calloc((size_t)k->files + 1, sizeof(*k->job));
	k->task = calloc((size_t)k->files + 1, sizeof(*k->task));
	k->cc1 = calloc((size_t)k->files + 1, sizeof(*k->cc1));
	if (!k->job || !k->task || !k->cc1)
		return pm_fail(d, "out of memory");
	/* The build's file list is fixed by the seed, whatever the schedule. */
	struct rng files;
	rng_init(&files, sim_seed(s), UINT64_C(0x6b62000000000001));
	for (int64_t i = 0; i <= k->files; i++) {
		struct kb_job *j = &k->job[i];
		bool link = i == k->files;
		j->compile_us = link ? (double)k->link_ms * 1000.0
				     : wl_lognormal(&files, (double)k->cc1_ms * 1000.0,
						    (double)k->cc1_sigma_pct / 100.0);
		j->reads_disk = !link && rng_below(&files, 100) < (uint64_t)k->io_pct;
		j->as_us = link ? 0 : j->compile_us * (double)k->as_pct / 100.0;
		j->slices_left = (int)ceil(j->compile_us / SLICE_US);
		if (j->slices_left < 1)
			j->slices_left = 1;
		j->slice_us = j->compile_us / j->slices_left;
		j->cc1 = STEP_COMPILE;
	}
	k->group = sim_share_group_new(s);
	if (!k->group)
		return pm_fail(d, "out of memory");
	while (k->next_file < k->files && k->running < k->jobs)
		if (start_job(s, k, k->next_file++) < 0)
			return pm_fail(d, "out of memory");
	return 0;
}

/* Half of the job's process creations: fork+exec pairs. */
static struct action spawn_cost(struct sim *s, const struct kernbench *k, bool link)
{
	const struct machine *m = sim_machine(s);
	double procs = link ? 1 : (double)k->procs / 2.0;
	return wl_kernel(s, procs * (double)(m->fork_ns + m->exec_ns));
}

static void job_exit(struct sim *s, struct kernbench *k, struct task *t)
{
	k->running--;
	k->done++;
	sim_add_work(s, 1);
	if (t->wl_role == k->files) {
		k->finished_at = sim_now(s);
		sim_stop(s);
		return;
	}
	int64_t idx = -1;
	if (k->next_file < k->files)
		idx = k->next_file++;
	else if (k->running == 0)
		idx = k->files; /* every object built: link */
	if (idx >= 0 && start_job(s, k, idx) < 0)
		sim_stop(s); /* out of memory: end the run rather than hang */
}

/* The compile itself, run by the cc1 task (by the link's own task for the
 * link): slices of compile, the kernel work, perhaps one disk read; then
 * ACT_EXIT. */
static void compile_next(struct sim *s, struct kernbench *k, int64_t idx, struct action *a)
{
	struct kb_job *j = &k->job[idx];
	switch (j->cc1) {
	case STEP_COMPILE:
		if (--j->slices_left == 0)
			j->cc1 = STEP_KERNEL;
		*a = wl_work(j->slice_us, k->stall_pct, false);
		return;
	case STEP_KERNEL:
		j->cc1 = STEP_IO;
		*a = wl_work(j->compile_us * (double)k->sys_pct / 100.0, 0, true);
		return;
	case STEP_IO:
		j->cc1 = STEP_DONE;
		if (j->reads_disk &&
		    sim_post_workload_timer(s, sim_now(s) + k->io_us * NS_PER_US, (uint32_t)idx) == 0) {
			*a = (struct action){ .kind = ACT_BLOCK, .iowait = true };
			return;
		}
		/* fall through */
	default:
		j->cc1 = STEP_DONE;
		*a = (struct action){ .kind = ACT_EXIT };
		return;
	}
}

/* The job forks its cc1 or its as (placed by fork balancing while the job
 * still runs) and waits. */
static int fork_child(struct sim *s, struct kernbench *k, struct task *job, int64_t idx,
		      enum kb_role role)
{
	char name[64];
	snprintf(name, sizeof(name), "%s/%lld", role == ROLE_CC1 ? "cc1" : "as", (long long)idx);
	struct task *t = sim_fork(s, job, name);
	if (!t)
		return -1;
	t->wl_role = (int)idx;
	t->wl_state = role;
	t->share_group = k->group;
	if (role == ROLE_CC1)
		k->cc1[idx] = t;
	sim_wake_up_new_task(s, t);
	return 0;
}

static void job_next(struct sim *s, struct kernbench *k, struct task *t, struct action *a)
{
	int64_t idx = t->wl_role;
	struct kb_job *j = &k->job[idx];
	switch (j->step) {
	case STEP_SPAWN:
		j->step = STEP_FORK;
		*a = spawn_cost(s, k, false);
		return;
	case STEP_FORK:
	case STEP_AS: {
		bool as = j->step == STEP_AS;
		j->step = as ? STEP_REAP : STEP_AS;
		if (as && j->as_us <= 0) {
			job_next(s, k, t, a); /* no as process: reap */
			return;
		}
		if (fork_child(s, k, t, idx, as ? ROLE_AS : ROLE_CC1) < 0) {
			sim_stop(s); /* out of memory: end the run rather than hang */
			*a = (struct action){ .kind = ACT_EXIT };
			return;
		}
		*a = (struct action){ .kind = ACT_BLOCK };
		return;
	}
	case STEP_REAP:
		j->step = STEP_DONE;
		*a = spawn_cost(s, k, false);
		if (a->cycles > 0)
			return;
		/* fall through */
	default:
		job_exit(s, k, t);
		*a = (struct action){ .kind = ACT_EXIT };
		return;
	}
}

/* The link: one process (ld and the relinks), no cc1. */
static void link_next(struct sim *s, struct kernbench *k, struct task *t, struct action *a)
{
	struct kb_job *j = &k->job[k->files];
	if (j->step == STEP_SPAWN) {
		j->step = STEP_DONE;
		*a = spawn_cost(s, k, true);
		return;
	}
	compile_next(s, k, k->files, a);
	if (a->kind == ACT_EXIT)
		job_exit(s, k, t);
}

static void kernbench_next(struct sim *s, void *data, struct task *t, struct action *a)
{
	struct kernbench *k = data;
	if (t->wl_role == k->files) {
		link_next(s, k, t, a);
	} else if (t->wl_state == ROLE_CC1) {
		if (!t->wl_t0) {
			t->wl_t0 = 1;
			sim_exec(s, t); /* execve() of cc1: exec balancing */
		}
		compile_next(s, k, t->wl_role, a);
		if (a->kind == ACT_EXIT)
			sim_wake(s, k->task[t->wl_role]); /* the job's wait() returns */
	} else if (t->wl_state == ROLE_AS) {
		t->wl_state = ROLE_AS_RAN;
		sim_exec(s, t);
		*a = wl_work(k->job[t->wl_role].as_us, k->stall_pct, false);
	} else if (t->wl_state == ROLE_AS_RAN) {
		*a = (struct action){ .kind = ACT_EXIT };
		sim_wake(s, k->task[t->wl_role]);
	} else {
		job_next(s, k, t, a);
	}
}

/* The read a cc1 (or the link) waits for completed. */
static void kernbench_timer(struct sim *s, void *data, uint32_t arg)
{
	struct kernbench *k = data;
	sim_wake(s, k->cc1[arg] ? k->cc1[arg] : k->task[arg]);
}

static void kernbench_report(struct sim *s, void *data, struct run_result *r)
{
	struct kernbench *k = data;
	double elapsed = wl_seconds(r);
	double user = wl_user_s(r), sys = wl_sys_s(r);
	r->work_done = (double)k->done / (double)(k->files + 1);
	r->throughput = elapsed > 0 ? r->work_done * 3600.0 / elapsed : 0;
	wl_extra(r, "seconds", "s", k->finished_at ? (double)k->finished_at * 1e-9 : 0);
	wl_extra(r, "user_time", "s", user);
	wl_extra(r, "system_time", "s", sys);
	wl_extra(r, "percent_cpu", "%", elapsed > 0 ? 100.0 * (user + sys) / elapsed : 0);
	wl_extra(r, "context_switches", "count", (double)r->ctx_switches);
	wl_extra(r, "jobs_done", "jobs", (double)(k->finished_at ? k->done - 1 : k->done));
}

static void kernbench_fini(void *data)
{
	struct kernbench *k = data;
	free(k->job);
	free(k->task);
	free(k->cc1);
}

const struct workload_ops workload_kernbench = {
	.name = "kernbench",
	.summary = "kernbench: make -j N of a kernel, compile jobs then a serial link",
	.throughput_unit = "runs/h",
	.latency_what = "none",
	.params = kernbench_params,
	.nparams = WL_NPARAMS(kernbench_params),
	.data_size = sizeof(struct kernbench),
	.init = kernbench_init,
	.next = kernbench_next,
	.timer = kernbench_timer,
	.report = kernbench_report,
	.fini = kernbench_fini,
	.ends_run = true,
};
