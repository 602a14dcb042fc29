// SPDX-License-Identifier: GPL-2.0-only
/* Placement policies against a fake engine (fake_sched.h): each CPU's
 * state is set by hand and the policy's choice checked against the rule of
 * Linux 6.1's select_task_rq_fair() that decides it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "fake_sched.h"
#include "sched/fair_select.h"

/* The previous CPU is idle and shares the waker's cache: the wakee goes
 * back there ("don't be stupid"), not to the waker's busy CPU. */
static void test_idle_prev_keeps_task(void **state)
{
	struct sim *s = machine(1, 4, 2, 4);
	run_on(s, 0, 300);
	struct task *p = sleeper(2, 300);
	assert_int_equal(wake(s, p, 0, true), 2);
	assert_int_equal(wake(s, p, 0, false), 2);
}

/* A sync wakeup from a CPU running only the waker, the previous CPU busy
 * in another package, no idle CPU in the waker's LLC: the wakee joins the
 * waker (wake_affine_idle(), then select_idle_sibling() returns the
 * target), although the other package has idle CPUs. The wakeup never
 * looks beyond the target's LLC. */
static void test_sync_wakeup_stacks_on_waker(void **state)
{
	struct sim *s = machine(2, 4, 1, 4);
	for (int c = 0; c < 4; c++)
		run_on(s, c, 900);
	run_on(s, 4, 900); /* prev, on package 1; CPUs 5-7 idle */
	struct task *p = sleeper(4, 200);
	assert_int_equal(wake(s, p, 1, true), 1);
}

/* The same wakeup with the previous CPU idle in the other package: the
 * "don't be stupid" shortcut of select_idle_sibling() needs the previous
 * CPU to share the target's cache, so the wakee still joins the waker,
 * its LLC having no idle CPU. */
static void test_idle_prev_in_other_llc_not_taken(void **state)
{
	struct sim *s = machine(2, 4, 1, 4);
	for (int c = 0; c < 4; c++)
		run_on(s, c, 900);
	struct task *p = sleeper(4, 200); /* CPUs 4-7 idle */
	assert_int_equal(wake(s, p, 1, true), 1);
}

/* A wakeup that is not sync, the previous CPU idle in the other package:
 * wake_affine_idle() picks it, and it takes the wakee, although its
 * blocked load is so much heavier than the waker's CPU's that the loads
 * (wake_affine_weight()) would pull the wakee to the waker's side. */
static void test_idle_prev_in_other_llc_beats_loads(void **state)
{
	struct sim *s = machine(2, 4, 1, 4);
	for (int c = 0; c < 4; c++)
		run_on(s, c, 300);
	s->cpu[4].load = 900; /* idle, its load blocked */
	struct task *p = sleeper(4, 200);
	assert_int_equal(wake(s, p, 1, false), 4);
}

/* A wakeup on the previous CPU itself (its timer, a device's interrupt:
 * no waking CPU) has no wake_affine(): the previous CPU if idle, else the
 * first idle CPU of its LLC after it. */
static void test_wakeup_on_prev_cpu(void **state)
{
	struct sim *s = machine(1, 4, 1, 4);
	run_on(s, 0, 300);
	run_on(s, 1, 300);
	struct task *p = sleeper(2, 200);
	assert_int_equal(wake(s, p, 2, false), 2);
	assert_int_equal(wake(s, p, -1, false), 2);
	run_on(s, 2, 300);
	assert_int_equal(wake(s, p, 2, false), 3);
	assert_int_equal(wake(s, p, -1, false), 3);
}

/* The waker's LLC has an idle CPU: the scan finds the first one after the
 * target in CPU order (select_idle_cpu() wraps from target + 1). */
static void test_scan_finds_idle_cpu_after_target(void **state)
{
	struct sim *s = machine(2, 4, 1, 4);
	for (int c = 0; c < 4; c++)
		run_on(s, c, 300);
	s->cpu[3] = (struct fake_cpu){ .mode = SV_IDLE, .exit_ns = 2000 };
	s->cpu[0] = s->cpu[3];
	run_on(s, 4, 900);
	struct task *p = sleeper(4, 200);
	/* From CPU 1: 2 is busy, 3 idle. From CPU 2: 3 idle, before 0. */
	assert_int_equal(wake(s, p, 1, true), 3);
	assert_int_equal(wake(s, p, 2, true), 3);
}

/* In an LLC other than the first, the scan starts after the target's own
 * place in that LLC's list: on package 1 (CPUs 4-7), from CPU 6 it looks
 * at 7, then wraps round to 4 and 5. */
static void test_scan_order_in_second_llc(void **state)
{
	struct sim *s = machine(2, 4, 1, 4);
	for (int c = 4; c < 8; c++)
		run_on(s, c, 300);
	s->cpu[5] = (struct fake_cpu){ .mode = SV_IDLE, .exit_ns = 2000 };
	struct task *p = sleeper(4, 200);
	assert_int_equal(wake(s, p, 6, true), 5);
	s->cpu[7] = s->cpu[5];
	assert_int_equal(wake(s, p, 6, true), 7);
}

/* SIS_UTIL: an LLC averaging 768 of 1024 allows 1024 - 768^2 * 117^2 /
 * (10000 * 1024) = 236/1024 of its 4 CPUs, none: the scan is skipped and
 * the wakee stays with the waker although CPU 3 is idle. A lighter LLC
 * (average 150) is scanned and CPU 3 found. */
static void test_sis_util_limits_scan(void **state)
{
	struct sim *s = machine(2, 4, 1, 4);
	for (int c = 0; c < 3; c++)
		run_on(s, c, 1024);
	run_on(s, 4, 900);
	struct task *p = sleeper(4, 200);
	assert_int_equal(wake(s, p, 1, true), 1);
	assert_int_equal(s->topo.shared[0].nr_idle_scan, 0);

	s = machine(2, 4, 1, 4);
	for (int c = 0; c < 3; c++)
		run_on(s, c, 200);
	run_on(s, 4, 900);
	p = sleeper(4, 200);
	assert_int_equal(wake(s, p, 1, true), 3);
	assert_int_equal(s->topo.shared[0].nr_idle_scan, 3);
}

/* SIS_UTIL's limit counts the CPUs the scan looks at, wrapping round the
 * LLC's list: three CPUs at 900 average 675 over the LLC's 4, which allows
 * (1024 - 675^2 * 117^2 / (10000 * 1024)) * 4 / 1024 = 1 CPU. From CPU 1
 * the scan looks at CPU 2 only: an idle CPU 3 is not found, an idle CPU 2
 * is. From CPU 3 it looks at CPU 0 (the list's first); from CPU 2 at CPU 3
 * only, not at CPU 0 after the wrap. */
static void test_sis_util_limit_counts_cpus_scanned(void **state)
{
	struct sim *s = machine(2, 4, 1, 4);
	for (int c = 0; c < 3; c++)
		run_on(s, c, 900);
	run_on(s, 4, 900);
	struct task *p = sleeper(4, 200);
	assert_int_equal(wake(s, p, 1, true), 1);
	assert_int_equal(s->topo.shared[0].nr_idle_scan, 1);

	int busy[][3] = { { 0, 1, 3 }, { 1, 2, 3 }, { 1, 2, 3 } };
	int waker[] = { 1, 3, 2 }, want[] = { 2, 0, 2 };
	for (int k = 0; k < 3; k++) {
		s = machine(2, 4, 1, 4);
		for (int i = 0; i < 3; i++)
			run_on(s, busy[k][i], 900);
		run_on(s, 4, 900);
		p = sleeper(4, 200);
		assert_int_equal(wake(s, p, waker[k], true), want[k]);
		assert_int_equal(s->topo.shared[0].nr_idle_scan, 1);
	}
}

/* A waker of many (wake_wide(): it switched wakees at least llc_size times
 * as often as the wakee, which switched llc_size times) does not pull the
 * wakee: it goes back to its previous CPU's side. */
static void test_wake_wide_skips_affine(void **state)
{
	struct sim *s = machine(2, 4, 1, 4);
	struct task *waker = run_on(s, 0, 300);
	run_on(s, 4, 300); /* prev busy; 5-7 idle */
	struct task *p = sleeper(4, 200);
	assert_int_equal(wake(s, p, 0, true), 1); /* not wide: the waker's LLC */
	waker->wakee_flips = 64;
	waker->wakee_flip_decay_ts = s->now;
	p->wakee_flips = 4;
	p->recent_used_cpu = -1;
	assert_int_equal(wake(s, p, 0, true), 5);
}

/* With SMT, while the LLC is known to have an idle core, a whole idle core
 * is preferred to an idle thread of a busy core; once a scan finds none,
 * the hint is cleared and the idle thread taken. */
static void test_idle_core_before_idle_thread(void **state)
{
	/* 4 cores x 2 threads: core k is CPUs k and k + 4. */
	struct sim *s = machine(1, 4, 2, 4);
	run_on(s, 0, 300); /* the waker */
	run_on(s, 1, 300); /* core 1 half busy: CPU 5 idle */
	run_on(s, 2, 300);
	run_on(s, 6, 300); /* core 2 busy */
	run_on(s, 4, 300); /* core 0 busy; core 3 (CPUs 3, 7) idle */
	struct task *p = sleeper(2, 200);
	assert_true(s->topo.shared[0].has_idle_cores);
	assert_int_equal(wake(s, p, 0, true), 3);

	run_on(s, 3, 300); /* core 3 half busy: no idle core left */
	p = sleeper(2, 200);
	assert_int_equal(wake(s, p, 0, true), 5);
	assert_false(s->topo.shared[0].has_idle_cores);
	/* update_idle_core(): CPU 3 goes idle, its sibling 7 is: again. */
	s->cpu[3] = (struct fake_cpu){ .mode = SV_RUNNING };
	fair_update_idle_core(s, 3);
	assert_true(s->topo.shared[0].has_idle_cores);
}

/* The cost of a wakeup: with the waker's LLC full, the per-CPU reads do
 * not depend on how many CPUs the machine has (least_loaded() used to
 * read every one). */
static void test_wakeup_cost_flat_in_cpu_count(void **state)
{
	long reads[2];
	int pkgs[2] = { 2, 16 };
	for (int k = 0; k < 2; k++) {
		struct sim *s = machine(pkgs[k], 8, 1, 4); /* LLCs of 4 CPUs */
		for (int c = 0; c < 4; c++)
			run_on(s, c, 600);
		run_on(s, 4, 600);
		struct task *p = sleeper(4, 200);
		s->reads = 0;
		assert_int_equal(wake(s, p, 1, true), 1);
		reads[k] = s->reads;
	}
	assert_true(reads[0] > 0);
	assert_int_equal(reads[1], reads[0]);
}

/* A task being forked: new, on no CPU yet. */
static struct task *new_child(void)
{
	struct task *child = &tasks[ntasks++];
	memset(child, 0, sizeof(*child));
	child->state = TASK_NEW;
	child->cpu = -1;
	return child;
}

/* Fork balancing from a busy CPU: the child goes to a whole idle core (the
 * local core has one idle thread, the others two), the one with the least
 * utilization (CPU 2's core; the others carry blocked utilization), and
 * within it to the idle CPU in the shallowest C-state. */
static void test_fork_to_idlest_core(void **state)
{
	struct sim *s = machine(1, 4, 2, 4);
	run_on(s, 0, 500);
	s->cpu[1].util = 300; /* blocked utilization on cores 1 and 3 */
	s->cpu[3].util = 100;
	s->cpu[2].exit_ns = 100000;
	s->cpu[6].exit_ns = 1000;
	struct task *child = new_child();
	struct select_ctx w = { .kind = SELECT_FORK, .this_cpu = 0, .waker = s->cpu[0].curr };
	assert_int_equal(fair_select_task_rq(s, child, &w), 6);
}

/* At a NUMA level a child stays on its parent's node while that node runs
 * few tasks (an imbalance of up to two idle CPUs, imb_numa_nr = 4 LLCs per
 * node here); with four tasks there, it goes to the idle node. */
static void test_fork_numa_imbalance(void **state)
{
	struct sim *s = machine(2, 4, 1, 1);
	run_on(s, 0, 500);
	struct task *child = new_child();
	struct select_ctx w = { .kind = SELECT_FORK, .this_cpu = 0, .waker = s->cpu[0].curr };
	assert_int_equal(s->topo.dom[SDL_NUMA]->imb_numa_nr, 4);
	assert_int_equal(s->topo.cpu[fair_select_task_rq(s, child, &w)].pkg, 0);
	for (int c = 1; c < 4; c++)
		run_on(s, c, 500);
	assert_int_equal(s->topo.cpu[fair_select_task_rq(s, child, &w)].pkg, 1);
}

/* Exec balancing discounts the task itself: alone on its CPU it stays;
 * with another task queued there it moves to an idle CPU. */
static void test_exec_discounts_itself(void **state)
{
	struct sim *s = machine(1, 4, 1, 4);
	struct task *p = run_on(s, 0, 500);
	struct select_ctx w = { .kind = SELECT_EXEC, .this_cpu = 0, .waker = p };
	assert_int_equal(fair_select_task_rq(s, p, &w), 0);
	s->cpu[0].nr_running = 2;
	s->cpu[0].util = 1000;
	assert_int_not_equal(fair_select_task_rq(s, p, &w), 0);
}

/* sched_mc_power_savings 1 and 2 turn packing on; 0 leaves the default. */
static void test_knobs_select_policy(void **state)
{
	struct sched_knobs k = { .migration_cost_ns = 500000, .balance_interval_ns = 4000000 };
	assert_string_equal(placement_for(&k)->name, "spread");
	for (int level = 1; level <= 2; level++) {
		k.mc_power_savings = level;
		assert_string_equal(placement_for(&k)->name, "pack");
	}
}

/* sched_mc_power_savings 2 (Linux 2.6.29's load_balance_newidle()): a
 * newly idle CPU of the busier package (the group leader) takes the task
 * running alone in the other package only once its package-level
 * newly-idle balance has failed twice in a row before ("if
 * (sd->nr_balance_failed++ < 2) return -1;"): the third attempt moves it.
 * A balance with nothing to drain (out_balanced) starts the count again. */
static void test_pack_newidle_active_after_two_failures(void **state)
{
	struct sim *s = machine(2, 4, 1, 2);
	s->knobs.mc_power_savings = 2;
	const struct placement_ops *pack = placement_find("pack");
	for (int c = 0; c < 3; c++)
		run_on(s, c, 900);
	struct task *lone = run_on(s, 4, 900);
	assert_false(pack->newidle_balance(s, 3));
	assert_false(pack->newidle_balance(s, 3));
	assert_int_equal(s->nmoves, 0);
	/* Package 1 empties for a while: balanced, the count restarts. */
	s->cpu[4] = (struct fake_cpu){ .mode = SV_IDLE, .exit_ns = 2000 };
	assert_false(pack->newidle_balance(s, 3));
	s->cpu[4] = (struct fake_cpu){ .mode = SV_RUNNING, .nr_running = 1, .curr = lone,
				       .util = 900, .load = 900 };
	assert_false(pack->newidle_balance(s, 3));
	assert_false(pack->newidle_balance(s, 3));
	assert_int_equal(s->nmoves, 0);
	assert_true(pack->newidle_balance(s, 3));
	assert_int_equal(s->nmoves, 1);
	assert_true(s->last_move.running);
	assert_int_equal(s->last_move.from, 4);
	assert_int_equal(s->last_move.to, 3);
}

/* sched_mc_power_savings 2 (Linux 2.6.29's wake_idle()): a balance from
 * the group leader nominates the leader's first CPU, and a task woken
 * from an idle CPU (an interrupt) whose previous CPU is idle goes there,
 * busy or not -- not to one of the leader's idle CPUs. Level 1 keeps it
 * on its idle previous CPU. */
static void test_pack_wakeup_to_nominated_cpu(void **state)
{
	struct sim *s = machine(2, 4, 1, 2);
	s->knobs.mc_power_savings = 2;
	const struct placement_ops *pack = placement_find("pack");
	run_on(s, 4, 900); /* package 1's lone task: group min */
	run_on(s, 5, 900);
	run_on(s, 6, 900); /* package 1 the busier: its CPU 7 leads */
	struct task *p = sleeper(1, 200);
	struct select_ctx w = { .kind = SELECT_WAKE, .this_cpu = -1 };
	/* Nothing nominated yet: CPU 0, as the zeroed root domain says. */
	assert_int_equal(pack->select_cpu(s, p, &w), 0);
	run_on(s, 0, 900);
	/* CPU 7 goes newly idle as the leader and nominates CPU 4, which is
	 * busy; the wakee still goes there. */
	assert_false(pack->newidle_balance(s, 7));
	assert_int_equal(pack->select_cpu(s, p, &w), 4);
	s->knobs.mc_power_savings = 1;
	assert_int_equal(pack->select_cpu(s, p, &w), 1);
}

/* sched_mc_power_savings >= 1 (Linux 2.6.29's sched_balance_self()): the
 * fork and exec balancing walk stops below the package-spanning domain,
 * which has SD_POWERSAVINGS_BALANCE. A child forked on a package with an
 * idle core starts on that core, not on the idle package (where spread
 * sends it); forked on a full package it stays on its parent's CPU (no
 * core is 12 % less loaded); an exec'ing task counts on its own CPU, so
 * alone it moves to the next idle core of its package. */
static void test_pack_fork_exec_stay_in_package(void **state)
{
	struct sim *s = machine(2, 4, 1, 2);
	s->knobs.mc_power_savings = 1;
	const struct placement_ops *pack = placement_find("pack");
	const struct placement_ops *spread = placement_find("spread");
	struct task *parent = run_on(s, 0, 900);
	run_on(s, 1, 900);
	run_on(s, 2, 900);
	struct task *child = new_child();
	struct select_ctx w = { .kind = SELECT_FORK, .this_cpu = 0, .waker = parent };
	assert_int_equal(pack->select_cpu(s, child, &w), 3);
	assert_int_equal(s->topo.cpu[spread->select_cpu(s, child, &w)].pkg, 1);
	run_on(s, 3, 900);
	assert_int_equal(pack->select_cpu(s, child, &w), 0);
	struct task *lone = run_on(s, 6, 900);
	struct select_ctx e = { .kind = SELECT_EXEC, .this_cpu = 6, .waker = lone };
	assert_int_equal(pack->select_cpu(s, lone, &e), 7);
	run_on(s, 4, 900);
	run_on(s, 5, 900);
	run_on(s, 7, 900);
	assert_int_equal(pack->select_cpu(s, lone, &e), 6);
}

/* A 2.6 kernel (--set kernel=2.6.N) wakes tasks by 2.6.29's
 * select_task_rq_fair(): a sync wakeup from a CPU running only the waker
 * goes there (wake_affine(): the waker's weight comes off); the same
 * wakeup without WF_SYNC finds the CPUs unbalanced and keeps the busy
 * previous CPU, as no 2.6.29 domain has SD_WAKE_IDLE, although idle CPUs
 * abound (Linux 6.1's rules take one); a task whose previous CPU is idle
 * goes back there. */
static void test_wake_2629(void **state)
{
	struct sim *s = machine(2, 4, 1, 2);
	const struct placement_ops *spread = placement_find("spread");
	run_on(s, 0, 900);
	run_on(s, 5, 900);
	struct task *p = sleeper(5, 200);
	s->knobs.kernel_version = 2006;
	struct select_ctx w = {
		.kind = SELECT_WAKE, .this_cpu = 0, .waker = s->cpu[0].curr, .sync = true
	};
	assert_int_equal(spread->select_cpu(s, p, &w), 0);
	w.sync = false;
	assert_int_equal(spread->select_cpu(s, p, &w), 5);
	s->knobs.kernel_version = 0;
	int cpu = spread->select_cpu(s, p, &w);
	assert_true(cpu != 5 && cpu != 0);
	s->knobs.kernel_version = 2006;
	struct task *q = sleeper(7, 200);
	assert_int_equal(spread->select_cpu(s, q, &w), 7);
}

/* 2.6.29's fork balancing at sched_mc_power_savings 0: the CPU domain's
 * groups are the last-level caches; the child of a task running on CPU 0
 * goes to the first idler LLC after its own (CPUs 2-3), not to the idle
 * package, and then, the two cores being equally idle, to the other core
 * of that LLC (find_idlest_group() keeps the local group only when it is
 * 12 % less loaded). */
static void test_fork_2629_llc_groups(void **state)
{
	struct sim *s = machine(2, 4, 1, 2);
	s->knobs.kernel_version = 2006;
	const struct placement_ops *spread = placement_find("spread");
	struct task *parent = run_on(s, 0, 900);
	struct task *child = new_child();
	struct select_ctx w = { .kind = SELECT_FORK, .this_cpu = 0, .waker = parent };
	assert_int_equal(spread->select_cpu(s, child, &w), 3);
	run_on(s, 2, 900);
	run_on(s, 3, 900);
	assert_int_equal(spread->select_cpu(s, child, &w), 5);
}

/* Every registered policy is complete and found by its own name; exactly
 * one is the default (no selected()), and it comes last so that a
 * selected policy is always tried first. */
static void test_registry_complete(void **state)
{
	int defaults = 0;
	assert_true(placement_count() >= 2);
	for (int i = 0; i < placement_count(); i++) {
		const struct placement_ops *p = placement_at(i);
		assert_non_null(p->name);
		assert_non_null(p->summary);
		assert_non_null(p->select_cpu);
		assert_non_null(p->newidle_balance);
		assert_non_null(p->tick_balance);
		assert_ptr_equal(placement_find(p->name), p);
		if (!p->selected) {
			defaults++;
			assert_int_equal(i, placement_count() - 1);
		}
	}
	assert_int_equal(defaults, 1);
	assert_null(placement_find("no-such-policy"));
}

/* Domains as sd_degenerate() leaves them: an LLC that is the package has
 * no DIE level; a NUMA level spans both packages with the packages as
 * groups. */
static void test_domains(void **state)
{
	struct sim *s = machine(2, 4, 2, 4);
	assert_int_equal(s->topo.cpu_ndom[0], 3);
	assert_int_equal(cpu_domain(&s->topo, 0, 0)->level, SDL_SMT);
	assert_int_equal(cpu_domain(&s->topo, 0, 0)->imbalance_pct, 110);
	assert_int_equal(cpu_domain(&s->topo, 0, 1)->level, SDL_MC);
	assert_int_equal(cpu_domain(&s->topo, 0, 1)->ngroups, 4);
	const struct sched_domain *top = cpu_domain(&s->topo, 0, 2);
	assert_int_equal(top->level, SDL_NUMA);
	assert_int_equal(top->span->n, 16);
	assert_int_equal(top->ngroups, 2);
	assert_true(top->numa);
	assert_int_equal(top->imb_numa_nr, 1); /* one LLC per node: 8 >> 3 */
}

/* cpu_domain_spanning() against for_each_domain()'s walk with
 * cpu_group_has(), for every pair of CPUs of machines whose levels are
 * each kept or left out (no SMT, an LLC that is the package, one or two
 * packages), and each CPU's sd_llc_size. */
static void test_domain_spanning_is_the_walk(void **state)
{
	(void)state;
	const int shapes[][4] = { { 1, 4, 2, 4 }, { 2, 4, 2, 4 }, { 2, 8, 1, 4 }, { 1, 4, 1, 2 },
				  { 2, 6, 2, 3 }, { 1, 1, 1, 1 }, { 2, 4, 4, 1 } };
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		struct sim *s = machine(shapes[i][0], shapes[i][1], shapes[i][2], shapes[i][3]);
		const struct sched_topology *t = &s->topo;
		for (int a = 0; a < t->ncpus; a++) {
			assert_int_equal(t->cpu[a].llc_size, t->llc[t->cpu[a].llc].n);
			for (int b = 0; b < t->ncpus; b++) {
				const struct sched_domain *walk = NULL;
				for (int k = 0; k < t->cpu_ndom[a] && !walk; k++)
					if (cpu_group_has(t, cpu_domain(t, a, k)->span, b))
						walk = cpu_domain(t, a, k);
				assert_ptr_equal(cpu_domain_spanning(t, a, b), walk);
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idle_prev_keeps_task),
		cmocka_unit_test(test_domain_spanning_is_the_walk),
		cmocka_unit_test(test_sync_wakeup_stacks_on_waker),
		cmocka_unit_test(test_idle_prev_in_other_llc_beats_loads),
		cmocka_unit_test(test_wakeup_on_prev_cpu),
		cmocka_unit_test(test_idle_prev_in_other_llc_not_taken),
		cmocka_unit_test(test_scan_finds_idle_cpu_after_target),
		cmocka_unit_test(test_scan_order_in_second_llc),
		cmocka_unit_test(test_sis_util_limits_scan),
		cmocka_unit_test(test_sis_util_limit_counts_cpus_scanned),
		cmocka_unit_test(test_wake_wide_skips_affine),
		cmocka_unit_test(test_idle_core_before_idle_thread),
		cmocka_unit_test(test_wakeup_cost_flat_in_cpu_count),
		cmocka_unit_test(test_fork_to_idlest_core),
		cmocka_unit_test(test_fork_numa_imbalance),
		cmocka_unit_test(test_exec_discounts_itself),
		cmocka_unit_test(test_knobs_select_policy),
		cmocka_unit_test(test_pack_newidle_active_after_two_failures),
		cmocka_unit_test(test_pack_wakeup_to_nominated_cpu),
		cmocka_unit_test(test_pack_fork_exec_stay_in_package),
		cmocka_unit_test(test_wake_2629),
		cmocka_unit_test(test_fork_2629_llc_groups),
		cmocka_unit_test(test_registry_complete),
		cmocka_unit_test(test_domains),
	};
	return cmocka_run_group_tests(tests, NULL, free_topology);
}
