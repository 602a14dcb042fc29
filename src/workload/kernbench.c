// SPDX-License-Identifier: GPL-2.0-only
/* kernbench: `make -j jobs` of a Linux kernel, timed as kernbench 0.42
 * times it (docs/sources.md 3).
 *
 * Reproduces: make's job server with `jobs` slots (0: four per online CPU,
 * kernbench's "optimal" load) running `files` compile jobs. A job is the
 * process chain kbuild runs for an object (rule_cc_o_c, Linux 2.6.28's
 * scripts/Makefile.build): make forks and execs `sh -c`, the shell forks
 * and execs the gcc driver, which forks and execs cc1 and as at once
 * (arch/x86/Makefile builds with -pipe: as reads cc1's assembler output
 * from a pipe) and waits for both; after gcc the shell runs fixdep, rm and
 * mv. cc1 writes its output through the later half of its compile, one
 * pipe write per slice, each a WF_SYNC wakeup of as (pipe_write()), which
 * assembles that share and reads again; the end of file comes with cc1's
 * exit. Every process of the chain is a task: each fork goes through fork
 * balancing (sched_fork()/wake_up_new_task()) on its parent's CPU, each
 * exec through exec balancing (sched_exec()), and each parent (make, sh,
 * gcc) sleeps in wait4() until its child's exit wakes it
 * (do_notify_parent(): a WF_SYNC wakeup from the child's CPU) where the
 * scheduler's wakeup rules put it. make is one task, as the jobserver's
 * slots are one pool; it forks the next job when a job's shell exits.
 * Each fork costs its parent the machine's fork time and each exec the
 * new image's CPU its exec time ([costs]); the job's `procs` fork+exec
 * pairs beyond the chain's four (fixdep, rm, mv, ...) are the shell's
 * kernel work after gcc, not tasks of their own. The compile has a
 * lognormal length (median cc1_ms, sigma cc1_sigma_pct / 100, of which
 * stall_pct percent is memory stall), kernel work for page faults and
 * file reads (sys_pct percent of the compile), and with probability
 * io_pct percent one read of a file not in the page cache (an iowait
 * block of io_us, ended by the disk's interrupt). The assembler runs
 * as_pct percent of the compile's time in all. Every process of the build
 * is in one sharing group: they read the same headers, so packing them
 * under one last-level cache cuts their stall (the machine's
 * share_stall_cut; the effect the sched_mc seed experiment relies on,
 * docs/sources.md 1.2). When the last compile job ends, make forks the
 * serial link (link_ms of work, one process: ld, kallsyms, the vmlinux
 * relinks), which finishes the build and ends the run.
 *
 * Reports what kernbench prints: elapsed seconds (extra `seconds`), user
 * and system time, percent CPU, context switches; throughput is builds
 * per hour. A run that --duration cuts short reports the share of the
 * build done (work_done) per hour and `seconds` = 0.
 *
 * Leaves out: the make recursion (sub-makes per directory), the user
 * CPU time of make, sh and the gcc driver (only their forks and execs are
 * charged: no cited figure), the warm-up build and `make clean`, kbuild's
 * serial start, modules, parallelism inside the link, the writeback of object files (async: kernbench's time does
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

/* A compile job is the chain of tasks the real one is: its shell (make's
 * child), the gcc driver the shell forks, and the cc1 and as the driver
 * forks in turn. STEP_* are the shell's and the driver's steps. */
enum kb_step { STEP_SPAWN, STEP_FORK, STEP_AS, STEP_COMPILE, STEP_KERNEL, STEP_IO, STEP_REAP,
	       STEP_DONE };

/* task->wl_state: what a task of the build is. */
enum kb_role { ROLE_JOB, ROLE_CC1, ROLE_AS, ROLE_GCC, ROLE_MAKE };

struct kb_job {
	double compile_us;
	double as_us;        /* the assembler's run after the compile */
	double slice_us;
	int slices_left;
	int slices, writes; /* the compile's slices; cc1's pipe writes to as */
	double as_left;     /* assembler work cc1 has not written yet, us */
	double as_queued;   /* written, not yet assembled, us */
	bool eof;           /* cc1 has exited: as reads the end of its input */
	int children;       /* the gcc driver's live children */
	struct task *as;    /* the as task, woken by cc1's writes */
	bool reads_disk; /* one of its files is not in the page cache */
	enum kb_step step;   /* the shell's: SPAWN, FORK, REAP, DONE */
	enum kb_step gcc;    /* the gcc driver's: SPAWN, FORK, AS, REAP, DONE */
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
	struct task **task;  /* per job: its shell, woken when its gcc exits */
	struct task **gcc;   /* per job: its gcc driver, woken when its cc1 or as exits */
	struct task **cc1;   /* per job: its cc1 task, for the I/O completion timer */
	struct task *make;   /* forks the jobs; woken when a shell exits */
	uint32_t group;
	int64_t next_file, running, done;
	int64_t free_slots; /* job server slots make has yet to fill */
	int64_t forking;    /* the job make's fork is creating, or -1 */
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

/* make's fork of job `idx` (the link at idx == files): the shell, or ld. */
static int start_job(struct sim *s, struct kernbench *k, int64_t idx)
{
	char name[64];
	snprintf(name, sizeof(name), idx < k->files ? "sh/%lld" : "ld", (long long)idx);
	struct task *t = sim_fork(s, k->make, name);
	if (!t)
		return -1;
	t->wl_role = (int)idx;
	t->wl_state = ROLE_JOB;
	t->share_group = k->group;
	k->task[idx] = t;
	k->running++;
	sim_wake_up_new_task(s, t);
	return 0;
}

static int kernbench_init(struct sim *s, void *data, struct pm_diag *d)
{
	struct kernbench *k = data;
	if (k->jobs == 0)
		k->jobs = 4 * (int64_t)sim_ncpus(s);
	k->job = calloc((size_t)k->files + 1, sizeof(*k->job));
	k->task = calloc((size_t)k->files + 1, sizeof(*k->task));
	k->gcc = calloc((size_t)k->files + 1, sizeof(*k->gcc));
	k->cc1 = calloc((size_t)k->files + 1, sizeof(*k->cc1));
	if (!k->job || !k->task || !k->gcc || !k->cc1)
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
		j->slices = j->slices_left;
		j->writes = j->slices - j->slices / 2;
		j->as_left = j->as_us;
		j->cc1 = STEP_COMPILE;
	}
	k->group = sim_share_group_new(s);
	if (!k->group)
		return pm_fail(d, "out of memory");
	k->free_slots = k->jobs;
	k->forking = -1;
	k->make = sim_task_new(s, "make", sim_now(s));
	if (!k->make)
		return pm_fail(d, "out of memory");
	k->make->wl_role = -1;
	k->make->wl_state = ROLE_MAKE;
	k->make->share_group = k->group;
	return 0;
}

/* The kernel work of `forks` forks and `execs` execs ([costs]). */
static struct action proc_cost(struct sim *s, double forks, double execs)
{
	const struct machine *m = sim_machine(s);
	return wl_kernel(s, forks * (double)m->fork_ns + execs * (double)m->exec_ns);
}

/* The fork+exec pairs of a job beyond its chain's (sh, gcc, cc1, as). */
static double extra_procs(const struct kernbench *k, const struct kb_job *j)
{
	double chain = j->as_us > 0 ? 4 : 3;
	return (double)k->procs > chain ? (double)k->procs - chain : 0;
}

/* A job's shell has exited (or the link): free its slot, wake make. */
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
	k->free_slots++;
	sim_wake_sync(s, k->make); /* make's wait4() returns */
}

/* make: fills free job server slots, one fork at a time (the fork's cost,
 * then the child), then waits for a child. */
static void make_next(struct sim *s, struct kernbench *k, struct action *a)
{
	if (k->forking >= 0) {
		int64_t idx = k->forking;
		k->forking = -1;
		if (start_job(s, k, idx) < 0) {
			sim_stop(s); /* out of memory: end the run rather than hang */
			*a = (struct action){ .kind = ACT_EXIT };
			return;
		}
	}
	int64_t idx = -1;
	if (k->free_slots > 0 && k->next_file < k->files)
		idx = k->next_file++;
	else if (k->next_file == k->files && k->running == 0)
		idx = k->files; /* every object built: link */
	if (idx < 0) {
		*a = (struct action){ .kind = ACT_BLOCK };
		return;
	}
	if (idx == k->files)
		k->next_file++; /* the link is started once */
	k->free_slots--;
	k->forking = idx;
	*a = proc_cost(s, 1, 0);
}

/* cc1 writes `us` of assembler work to the pipe (all that is left if
 * more), waking as. */
static void pipe_write(struct sim *s, struct kb_job *j, double us)
{
	if (!j->as)
		return;
	if (us > j->as_left)
		us = j->as_left;
	j->as_left -= us;
	j->as_queued += us;
	sim_wake_sync(s, j->as);
}

/* The compile itself, run by the cc1 task (by the link's own task for the
 * link): slices of compile, the kernel work, perhaps one disk read; then
 * ACT_EXIT. */
static void compile_next(struct sim *s, struct kernbench *k, int64_t idx, struct action *a)
{
	struct kb_job *j = &k->job[idx];
	switch (j->cc1) {
	case STEP_COMPILE:
		if (j->slices - j->slices_left > j->slices / 2)
			pipe_write(s, j, j->as_us / j->writes); /* the slice just done */
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

/* A parent of the chain forks its child: the shell its gcc, the driver
 * its cc1 or its as. */
static int fork_child(struct sim *s, struct kernbench *k, struct task *parent, int64_t idx,
		      enum kb_role role)
{
	static const char *const names[] = { [ROLE_CC1] = "cc1", [ROLE_AS] = "as", [ROLE_GCC] = "gcc" };
	char name[64];
	snprintf(name, sizeof(name), "%s/%lld", names[role], (long long)idx);
	struct task *t = sim_fork(s, parent, name);
	if (!t)
		return -1;
	t->wl_role = (int)idx;
	t->wl_state = role;
	t->share_group = k->group;
	if (role == ROLE_CC1)
		k->cc1[idx] = t;
	else if (role == ROLE_GCC)
		k->gcc[idx] = t;
	else if (role == ROLE_AS)
		k->job[idx].as = t;
	sim_wake_up_new_task(s, t);
	return 0;
}

/* Fork `role` and wait for it; *a is the wait. */
static void fork_and_wait(struct sim *s, struct kernbench *k, struct task *parent, int64_t idx,
			  enum kb_role role, struct action *a)
{
	if (fork_child(s, k, parent, idx, role) < 0) {
		sim_stop(s); /* out of memory: end the run rather than hang */
		*a = (struct action){ .kind = ACT_EXIT };
		return;
	}
	*a = (struct action){ .kind = ACT_BLOCK };
}

/* The shell (sh -c): its exec, the fork of gcc, the wait; then fixdep,
 * rm and mv, and exit. */
static void job_next(struct sim *s, struct kernbench *k, struct task *t, struct action *a)
{
	int64_t idx = t->wl_role;
	struct kb_job *j = &k->job[idx];
	switch (j->step) {
	case STEP_SPAWN:
		j->step = STEP_FORK;
		sim_exec(s, t); /* execve() of /bin/sh: exec balancing */
		*a = proc_cost(s, 0, 1);
		return;
	case STEP_FORK:
		j->step = STEP_AS;
		*a = proc_cost(s, 1, 0);
		return;
	case STEP_AS: /* the fork's cost paid: gcc now */
		j->step = STEP_REAP;
		fork_and_wait(s, k, t, idx, ROLE_GCC, a);
		return;
	case STEP_REAP:
		j->step = STEP_DONE;
		*a = proc_cost(s, extra_procs(k, j), extra_procs(k, j));
		if (a->cycles > 0)
			return;
		/* fall through */
	default:
		job_exit(s, k, t);
		*a = (struct action){ .kind = ACT_EXIT };
		return;
	}
}

/* The gcc driver: its exec, then forks cc1 and as (-pipe), and waits
 * until both have exited (each exit wakes it); exits, waking the shell. */
static void gcc_next(struct sim *s, struct kernbench *k, struct task *t, struct action *a)
{
	int64_t idx = t->wl_role;
	struct kb_job *j = &k->job[idx];
	switch (j->gcc) {
	case STEP_SPAWN:
		j->gcc = STEP_FORK;
		sim_exec(s, t);          /* execve() of gcc: exec balancing */
		*a = proc_cost(s, 1, 1); /* its exec, then its fork of cc1 */
		return;
	case STEP_FORK:
		j->gcc = j->as_us > 0 ? STEP_AS : STEP_REAP;
		if (fork_child(s, k, t, idx, ROLE_CC1) < 0)
			break;
		j->children++;
		*a = j->as_us > 0 ? proc_cost(s, 1, 0) /* the fork of as */
				  : (struct action){ .kind = ACT_BLOCK };
		return;
	case STEP_AS:
		j->gcc = STEP_REAP;
		if (fork_child(s, k, t, idx, ROLE_AS) < 0)
			break;
		j->children++;
		*a = (struct action){ .kind = ACT_BLOCK };
		return;
	case STEP_REAP:
		if (j->children > 0) {
			*a = (struct action){ .kind = ACT_BLOCK };
			return;
		}
		break;
	default:
		break;
	}
	if (j->children > 0) {
		sim_stop(s); /* out of memory: end the run rather than hang */
		*a = (struct action){ .kind = ACT_EXIT };
		return;
	}
	j->gcc = STEP_DONE;
	*a = (struct action){ .kind = ACT_EXIT };
	sim_wake_sync(s, k->task[idx]); /* the shell's wait4() returns */
}

/* A child of the gcc driver exits: the driver's wait4() returns. */
static void gcc_child_exit(struct sim *s, struct kernbench *k, int64_t idx)
{
	k->job[idx].children--;
	sim_wake_sync(s, k->gcc[idx]);
}

/* as: its exec, then it assembles what cc1 has written and reads the
 * pipe again (blocks) until the end of its input, then exits. */
static void as_next(struct sim *s, struct kernbench *k, struct task *t, struct action *a)
{
	int64_t idx = t->wl_role;
	struct kb_job *j = &k->job[idx];
	if (!t->wl_t0) {
		t->wl_t0 = 1;
		sim_exec(s, t); /* execve() of as: exec balancing */
		*a = proc_cost(s, 0, 1);
		return;
	}
	if (j->as_queued > 0) {
		*a = wl_work(j->as_queued, k->stall_pct, false);
		j->as_queued = 0;
		return;
	}
	if (!j->eof) {
		*a = (struct action){ .kind = ACT_BLOCK }; /* read() of the pipe */
		return;
	}
	j->as = NULL;
	*a = (struct action){ .kind = ACT_EXIT };
	gcc_child_exit(s, k, idx);
}

/* The link: one process (ld and the relinks), no cc1. */
static void link_next(struct sim *s, struct kernbench *k, struct task *t, struct action *a)
{
	struct kb_job *j = &k->job[k->files];
	if (j->step == STEP_SPAWN) {
		j->step = STEP_DONE;
		sim_exec(s, t);
		*a = proc_cost(s, 0, 1);
		return;
	}
	compile_next(s, k, k->files, a);
	if (a->kind == ACT_EXIT)
		job_exit(s, k, t);
}

static void kernbench_next(struct sim *s, void *data, struct task *t, struct action *a)
{
	struct kernbench *k = data;
	switch (t->wl_state) {
	case ROLE_MAKE:
		make_next(s, k, a);
		return;
	case ROLE_GCC:
		gcc_next(s, k, t, a);
		return;
	case ROLE_CC1:
		if (!t->wl_t0) {
			t->wl_t0 = 1;
			sim_exec(s, t); /* execve() of cc1: exec balancing */
			*a = proc_cost(s, 0, 1);
			return;
		}
		compile_next(s, k, t->wl_role, a);
		if (a->kind == ACT_EXIT) {
			struct kb_job *j = &k->job[t->wl_role];
			j->eof = true;
			pipe_write(s, j, j->as_left); /* the rest, and the end of file */
			gcc_child_exit(s, k, t->wl_role);
		}
		return;
	case ROLE_AS:
		as_next(s, k, t, a);
		return;
	default:
		if (t->wl_role == k->files)
			link_next(s, k, t, a);
		else
			job_next(s, k, t, a);
		return;
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
	free(k->gcc);
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
