// SPDX-License-Identifier: GPL-2.0-only
/* unixbench: the process tests of byte-unixbench 5.1 (docs/sources.md 3),
 * `--set test=execl|context1|spawn|shell1|shell8`, each run by
 * `copies` independent copies as ./Run -c N does.
 *
 * Reproduces:
 *   execl     one process execl()s itself again and again: each loop is an
 *             exec (exec balancing, then the machine's exec_ns, system time)
 *             and the new image's start-up (dynamic loading, libc init:
 *             startup_us of user work).
 *   context1  two processes ping-pong a counter through two pipes: each
 *             side reads (blocking while the pipe is empty) and writes, a
 *             burst of two syscall entries plus pipe_ns of kernel work,
 *             then wakes the other. One loop is one round trip.
 *   spawn     fork(), the child exits at once, the parent wait()s: the
 *             parent pays the fork (two thirds of the machine's fork_ns,
 *             which covers fork+exit), the child, placed by fork balancing
 *             inside the parent's fork() while the parent still runs, pays
 *             the exit (the other third) and wakes the parent.
 *   shell1/8  `looper` runs multi.sh with 1 or 8 concurrent copies of
 *             tst.sh: each loop forks and execs the shell (fork_ns +
 *             exec_ns, cmd_us of start-up), which starts the scripts and
 *             waits for all of them; a script runs its ten commands (sh,
 *             printf, sort, od, sort, grep, tee, wc, rm, ...) one after the
 *             other, each a child process: fork in the script (the child
 *             placed while the script runs), exec (exec balancing first)
 *             and cmd_us of user work plus cmd_sys_us of kernel work
 *             (temporary files in the page cache) in the child, wait in
 *             the script.
 * Reports loops per second (lps) for execl, context1 and spawn, loops per
 * minute (lpm) for the shell tests, summed over copies as UnixBench does.
 *
 * Leaves out: the index against the George baseline, the dropped worst
 * third of runs, the pipes between the commands of a script (they run one
 * after the other here), real file I/O, and the dhrystone, whetstone,
 * syscall, pipe and fstime tests.
 *
 * Defaults: copies = 1 (./Run's single-copy pass). startup_us = 100,
 * pipe_ns = 800, cmd_us = 500, cmd_sys_us = 100 are ESTIMATES chosen so
 * that with the machines' [costs] a loop costs what A.5's figures imply
 * (execl 0.2-1 ms CPU per loop; context1 bursts of 1-5 us; shell1 and
 * shell8 loops of ~8-15 ms per script). */
#include <stdio.h>
#include <stdlib.h>

#include "../engine/sim.h"
#include "wlutil.h"

enum ub_test { TEST_EXECL, TEST_CONTEXT1, TEST_SPAWN, TEST_SHELL1, TEST_SHELL8 };

static const char *const test_words[] = { "execl", "context1", "spawn", "shell1", "shell8", NULL };

enum { SHELL_COMMANDS = 10 };

/* What a task is in the test; children point at their parent (wl_ptr). */
enum ub_role {
	ROLE_EXECL,
	ROLE_CTX_PARENT, /* starts holding the counter */
	ROLE_CTX_CHILD,
	ROLE_SPAWN_PARENT,
	ROLE_SPAWN_CHILD,
	ROLE_LOOPER,
	ROLE_SCRIPT,
	ROLE_COMMAND,
};

/* wl_state steps. A task waiting for children has `wl_peer` of them
 * left; a child that exits wakes its parent when it is the last one and
 * the parent is in STEP_WAIT (so blocked). */
enum ub_step {
	STEP_EXEC,  /* a new task: a script execs its shell first */
	STEP_START, /* a round starts: the parent's own burst */
	STEP_WORK,  /* the burst is done: fork the children, or (context1) write */
	STEP_WAIT,  /* waiting for the children, or (context1) for the counter */
};

struct unixbench {
	int64_t test;
	int64_t copies;
	int64_t startup_us;
	int64_t pipe_ns;
	int64_t cmd_us;
	int64_t cmd_sys_us;
};

static const struct tunable unixbench_params[] = {
	{ "test", "UnixBench test: execl|context1|spawn|shell1|shell8",
	  TUNABLE_FIELD(struct unixbench, test), TEST_EXECL, 0, TEST_SHELL8, test_words },
	{ "copies", "parallel copies of the test (./Run -c)", TUNABLE_FIELD(struct unixbench, copies),
	  1, 1, 10000, NULL },
	{ "startup_us", "execl: user work of the new image's start-up, us on a 3 GHz core",
	  TUNABLE_FIELD(struct unixbench, startup_us), 100, 0, 100000000, NULL },
	{ "pipe_ns", "context1: kernel pipe work of one read+write, ns on a 3 GHz core",
	  TUNABLE_FIELD(struct unixbench, pipe_ns), 800, 0, 100000000, NULL },
	{ "cmd_us", "shell: user work of one command (or the shell's start), us on a 3 GHz core",
	  TUNABLE_FIELD(struct unixbench, cmd_us), 500, 0, 100000000, NULL },
	{ "cmd_sys_us", "shell: kernel work of one command's file I/O, us on a 3 GHz core",
	  TUNABLE_FIELD(struct unixbench, cmd_sys_us), 100, 0, 100000000, NULL },
};

/* A process of the test: a child of `parent` is forked by it (placed by
 * fork balancing while the parent still runs); with no parent, one of the
 * copies ./Run starts. */
static struct task *spawn(struct sim *s, struct task *parent, enum ub_role role, const char *name)
{
	struct task *t = parent ? sim_fork(s, parent, name) : sim_task_new(s, name, sim_now(s));
	if (!t)
		return NULL;
	t->wl_role = (int)role;
	t->wl_ptr = parent;
	if (parent) {
		parent->wl_peer++;
		sim_wake_up_new_task(s, t);
	}
	return t;
}

/* A loop that costs no time has no rate: each test needs the kernel work
 * it measures (a machine's [costs], or context1's pipe work). */
static int check_costs(const struct sim *s, const struct unixbench *u, struct pm_diag *d)
{
	const struct machine *m = sim_machine(s);
	const char *test = test_words[u->test];
	switch (u->test) {
	case TEST_EXECL:
		if (m->exec_ns <= 0 && u->startup_us <= 0)
			return pm_fail(d, "unixbench test=%s: machine %s has no exec_us and startup_us "
				       "is 0: a loop would take no time", test, m->name);
		return 0;
	case TEST_CONTEXT1:
		if (m->syscall_ns <= 0 && u->pipe_ns <= 0)
			return pm_fail(d, "unixbench test=%s: machine %s has no syscall_us and pipe_ns "
				       "is 0: a loop would take no time", test, m->name);
		return 0;
	default:
		if (m->fork_ns <= 0)
			return pm_fail(d, "unixbench test=%s: machine %s has no fork_us ([costs]): a "
				       "loop would take no time", test, m->name);
		return 0;
	}
}

static int unixbench_init(struct sim *s, void *data, struct pm_diag *d)
{
	struct unixbench *u = data;
	if (check_costs(s, u, d) < 0)
		return -1;
	for (int64_t i = 0; i < u->copies; i++) {
		struct task *a = NULL, *b = NULL;
		switch (u->test) {
		case TEST_EXECL:
			a = spawn(s, NULL, ROLE_EXECL, "execl");
			break;
		case TEST_CONTEXT1:
			a = spawn(s, NULL, ROLE_CTX_PARENT, "context1");
			b = spawn(s, NULL, ROLE_CTX_CHILD, "context1");
			if (a && b) {
				a->wl_ptr = b;
				b->wl_ptr = a;
				a->wl_t0 = 1; /* the parent writes first */
			}
			break;
		case TEST_SPAWN:
			a = spawn(s, NULL, ROLE_SPAWN_PARENT, "spawn");
			break;
		default:
			a = spawn(s, NULL, ROLE_LOOPER, "looper");
			break;
		}
		if (!a || (u->test == TEST_CONTEXT1 && !b))
			return pm_fail(d, "out of memory");
	}
	return 0;
}

/* A child's exit: the parent's last outstanding child wakes it. */
static void child_exit(struct sim *s, struct task *t, struct action *a)
{
	struct task *parent = t->wl_ptr;
	if (parent && --parent->wl_peer == 0 && parent->wl_state == STEP_WAIT)
		sim_wake(s, parent);
	*a = (struct action){ .kind = ACT_EXIT };
}

/* Blocks the task until its children have exited; false if they already
 * have. */
static bool wait_children(struct task *t, struct action *a)
{
	t->wl_state = STEP_WAIT;
	if (t->wl_peer == 0)
		return false;
	*a = (struct action){ .kind = ACT_BLOCK };
	return true;
}

static void give_up(struct sim *s, struct action *a)
{
	/* Out of memory for a new task: end the run rather than hang. */
	sim_stop(s);
	*a = (struct action){ .kind = ACT_EXIT };
}

static void context1_next(struct sim *s, struct unixbench *u, struct task *t, struct action *a)
{
	struct task *peer = t->wl_ptr;
	/* wl_t0: 1 while it holds the counter (the peer's write arrived). */
	if (t->wl_state == STEP_WORK) {
		/* The write finished: the counter is the peer's. */
		t->wl_t0 = 0;
		peer->wl_t0 = 1;
		if (t->wl_role == ROLE_CTX_CHILD)
			sim_add_work(s, 1); /* the child's write closes a round trip */
		if (peer->wl_state == STEP_WAIT)
			sim_wake_sync(s, peer); /* pipe_write() wakes synchronously */
	}
	if (!t->wl_t0) {
		t->wl_state = STEP_WAIT;
		*a = (struct action){ .kind = ACT_BLOCK };
		return;
	}
	t->wl_state = STEP_WORK;
	*a = wl_kernel(s, 2.0 * (double)sim_machine(s)->syscall_ns);
	struct action pipe = wl_work((double)u->pipe_ns / 1000.0, 0, true);
	wl_add(a, &pipe);
}

/* One round of a process that forks `n` children and waits for them: its
 * own burst `cost` (the fork, or fork and exec of a shell), then the
 * children, then the wait. True when a round ended (the children were
 * reaped): the caller counts it and calls again for the next. */
static bool fork_and_wait(struct sim *s, struct task *t, struct action *a, struct action cost,
			  enum ub_role child, int n, const char *name)
{
	switch ((enum ub_step)t->wl_state) {
	case STEP_EXEC:
	case STEP_START:
		t->wl_state = STEP_WORK;
		*a = cost;
		return false;
	case STEP_WORK:
		for (int i = 0; i < n; i++) {
			if (!spawn(s, t, child, name)) {
				give_up(s, a);
				return false;
			}
		}
		if (wait_children(t, a))
			return false;
		/* fall through: they are gone already */
	case STEP_WAIT:
		break;
	}
	t->wl_state = STEP_START;
	return true;
}

static void unixbench_next(struct sim *s, void *data, struct task *t, struct action *a)
{
	struct unixbench *u = data;
	const struct machine *m = sim_machine(s);
	double fork_ns = (double)m->fork_ns, exec_ns = (double)m->exec_ns;
	/* fork() copies the mm in the parent; the child's exit tears it down. */
	struct action fork_cost = wl_kernel(s, fork_ns * 2.0 / 3.0);
	struct action shell = wl_kernel(s, fork_ns + exec_ns), startup;
	switch ((enum ub_role)t->wl_role) {
	case ROLE_EXECL:
		/* wl_state counts bursts: even ones exec, odd ones start up. */
		if (t->wl_state++ % 2) {
			*a = wl_work((double)u->startup_us, 0, false);
			return;
		}
		if (t->wl_state > 1)
			sim_add_work(s, 1);
		sim_exec(s, t);
		*a = wl_kernel(s, exec_ns);
		return;
	case ROLE_CTX_PARENT:
	case ROLE_CTX_CHILD:
		context1_next(s, u, t, a);
		return;
	case ROLE_SPAWN_PARENT:
		while (fork_and_wait(s, t, a, fork_cost, ROLE_SPAWN_CHILD, 1, "spawn-child"))
			sim_add_work(s, 1);
		return;
	case ROLE_SPAWN_CHILD:
		if (t->wl_state++ == 0) {
			*a = wl_kernel(s, fork_ns / 3.0);
			return;
		}
		child_exit(s, t, a);
		return;
	case ROLE_LOOPER:
		/* fork and exec multi.sh, whose shell starts up. */
		startup = wl_work((double)u->cmd_us, 0, false);
		wl_add(&shell, &startup);
		while (fork_and_wait(s, t, a, shell, ROLE_SCRIPT, u->test == TEST_SHELL8 ? 8 : 1,
				     "tst.sh"))
			sim_add_work(s, 1);
		return;
	case ROLE_SCRIPT:
		/* wl_t0 counts the commands it has run. */
		if (t->wl_state == STEP_EXEC) {
			t->wl_state = STEP_START;
			sim_exec(s, t);
			*a = wl_kernel(s, exec_ns);
			return;
		}
		while (fork_and_wait(s, t, a, fork_cost, ROLE_COMMAND, 1, "cmd")) {
			if (++t->wl_t0 == SHELL_COMMANDS) {
				child_exit(s, t, a);
				return;
			}
		}
		return;
	case ROLE_COMMAND:
		switch (t->wl_state++) {
		case 0:
			sim_exec(s, t);
			*a = wl_kernel(s, exec_ns + fork_ns / 3.0);
			return;
		case 1:
			*a = wl_work((double)u->cmd_us, 0, false);
			return;
		case 2:
			*a = wl_work((double)u->cmd_sys_us, 0, true);
			return;
		default:
			child_exit(s, t, a);
			return;
		}
	}
	*a = (struct action){ .kind = ACT_EXIT };
}

static void unixbench_report(struct sim *s, void *data, struct run_result *r)
{
	struct unixbench *u = data;
	if (u->test == TEST_SHELL1 || u->test == TEST_SHELL8) {
		r->throughput *= 60.0;
		snprintf(r->throughput_unit, sizeof(r->throughput_unit), "lpm");
	}
	wl_extra(r, "loops", "loops", r->work_done);
}

const struct workload_ops workload_unixbench = {
	.name = "unixbench",
	.summary = "UnixBench execl, context1, spawn, shell1, shell8",
	.throughput_unit = "lps",
	.latency_what = "none",
	.params = unixbench_params,
	.nparams = WL_NPARAMS(unixbench_params),
	.data_size = sizeof(struct unixbench),
	.init = unixbench_init,
	.next = unixbench_next,
	.report = unixbench_report,
};
