// SPDX-License-Identifier: GPL-2.0-only
/* Energy Aware Scheduling (sched/fair_energy.h, placement_eas.c) against
 * the fake engine (fake_sched.h) and an energy model small enough to
 * compute by hand:
 *
 *   little cluster, CPUs 4-7, capacity 512:  perf 256 cost 100, perf 512 cost 200
 *   big cluster,    CPUs 0-3, capacity 1024: perf 512 cost 150, perf 1024 cost 600
 *
 * em_cpu_energy() charges a domain the cost of the lowest state whose
 * performance reaches its busiest CPU's need (utilization + 25 %) for the
 * sum of its CPUs' utilization; find_energy_efficient_cpu() compares the
 * growth of each domain's energy with the task on its emptiest CPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "fake_sched.h"
#include "sched/asym.h"
#include "sched/fair_energy.h"

static struct em_table little_em, big_em;
static const int little_cpus[] = { 4, 5, 6, 7 }, big_cpus[] = { 0, 1, 2, 3 };
/* The kernel's list order: the domain of the highest first CPU first. */
static const struct sv_perf_domain pds[] = {
	{ .ncpus = 4, .cpus = little_cpus, .em = &little_em },
	{ .ncpus = 4, .cpus = big_cpus, .em = &big_em },
};

static void table(struct em_table *em, unsigned long p0, unsigned long c0, unsigned long p1,
		  unsigned long c1)
{
	memset(em, 0, sizeof(*em));
	em->nr_perf_states = 2;
	em->state[0] = (struct em_perf_state){ .performance = p0, .cost = c0 };
	em->state[1] = (struct em_perf_state){ .performance = p1, .cost = c1 };
}

/* The phone with EAS on: not overutilized, the model above. */
static struct sim *phone(void)
{
	struct machine m = { .packages = 1, .cores_per_package = 8, .threads_per_core = 1,
			     .llc_cores = 8, .ntypes = 2,
			     .cpufreq_driver = CPUFREQ_DRIVER_CPUFREQ_DT };
	m.types[0] = (struct cpu_type){ .name = "big", .cores = 4, .threads_per_core = 1,
					.capacity = 1024 };
	m.types[1] = (struct cpu_type){ .name = "little", .cores = 4, .threads_per_core = 1,
					.capacity = 512 };
	struct sim *s = machine_from(&m, SCHED_ASYM_CPUCAPACITY);
	table(&little_em, 256, 100, 512, 200);
	table(&big_em, 512, 150, 1024, 600);
	s->npds = 2;
	s->pds = pds;
	s->knobs.energy_enabled = true;
	return s;
}

/* A task of utilization `util` that last ran on `prev` (its utilization
 * still counted there, as blocked utilization). */
static struct task *blocked_on(struct sim *s, int prev, unsigned util)
{
	struct task *p = sleeper(prev, util);
	s->cpu[prev].util += util;
	return p;
}

static int eas_wake(struct sim *s, struct task *p, int this_cpu)
{
	const struct placement_ops *eas = placement_find("eas");
	assert_non_null(eas);
	struct select_ctx w = { .kind = SELECT_WAKE, .this_cpu = this_cpu,
				.waker = s->cpu[this_cpu].curr };
	return eas->select_cpu(s, p, &w);
}

/* em_cpu_energy(): the state is the lowest whose performance reaches the
 * busiest CPU's need, capped at the allowed capacity; an inefficient
 * state is skipped for the next one. */
static void test_em_cpu_energy(void **state)
{
	struct em_table em;
	table(&em, 256, 100, 512, 200);
	assert_int_equal(em_cpu_energy(&em, 200, 300, 512), 100 * 300);
	assert_int_equal(em_cpu_energy(&em, 300, 300, 512), 200 * 300);
	assert_int_equal(em_cpu_energy(&em, 900, 300, 512), 200 * 300);
	assert_int_equal(em_cpu_energy(&em, 300, 0, 512), 0);
	assert_int_equal(em_cpu_energy(&em, 300, 300, 256), 100 * 300); /* capped */
	em.state[0].inefficient = true;
	assert_int_equal(em_cpu_energy(&em, 200, 300, 512), 200 * 300);
}

/* A small task (util 100) that last ran on big CPU 0, woken from little
 * CPU 7. With both clusters idle, the little one costs 100 x 100 = 10000
 * more (its need 125 fits state 0), the big one 150 x 100 = 15000: it
 * goes to the little cluster, to its first emptiest CPU (4). With little
 * CPU 4 busy at 250 (need 312: state 1 for the whole cluster), a task on
 * a little CPU costs 200 x 100 = 20000 more and the big CPU wins. */
static void test_lowest_energy_cpu(void **state)
{
	struct sim *s = phone();
	run_on(s, 7, 50); /* the waker */
	struct task *p = blocked_on(s, 0, 100);
	assert_int_equal(find_energy_efficient_cpu(s, p, 0, 7), 4);
	assert_int_equal(eas_wake(s, p, 7), 4);

	s = phone();
	run_on(s, 7, 50);
	run_on(s, 4, 250);
	p = blocked_on(s, 0, 100);
	/* CPUs 5 and 6 are the emptiest little ones; 7 has the waker. */
	assert_int_equal(find_energy_efficient_cpu(s, p, 0, 7), 0);
}

/* The same wakeup once the root domain is overutilized: EAS gives way to
 * the capacity-aware CFS path, which keeps the task on its idle previous
 * CPU. A task too big for a little CPU (util 450: 450 x 1.25 > 512) is
 * not offered to the little cluster at all. */
static void test_overutilized_falls_back(void **state)
{
	struct sim *s = phone();
	run_on(s, 7, 50);
	struct task *p = blocked_on(s, 0, 100);
	s->topo.rd->overutilized = true;
	assert_true(is_rd_overutilized(s));
	assert_int_equal(eas_wake(s, p, 7), 0);

	s = phone();
	run_on(s, 7, 50);
	p = blocked_on(s, 0, 450);
	assert_int_equal(find_energy_efficient_cpu(s, p, 0, 7), 0);
}

/* A task with no utilization and no boost stays where it was; a boosted
 * one (uclamp_min 600, which no little CPU gives) does not leave the big
 * CPU it fits fully, however cheap the little cluster is. */
static void test_no_util_and_boost_stay(void **state)
{
	struct sim *s = phone();
	run_on(s, 7, 50);
	struct task *p = blocked_on(s, 0, 0);
	assert_int_equal(find_energy_efficient_cpu(s, p, 0, 7), 0);
	p = blocked_on(s, 0, 100);
	s->knobs.uclamp_used = true;
	p->uclamp_min = 600;
	assert_int_equal(find_energy_efficient_cpu(s, p, 0, 7), 0);
	p->uclamp_min = 0;
	assert_int_equal(find_energy_efficient_cpu(s, p, 0, 7), 4);
}

/* The overutilized switch: an enqueue that leaves a CPU's utilization
 * above what fits (little CPU 4 at 450 of 512) sets it; a new task's
 * first enqueue does not; the next top-level balance (due at once here)
 * recomputes it from every CPU and clears it when they all fit. */
static void test_overutilized_switch(void **state)
{
	const struct placement_ops *eas = placement_find("eas");
	struct sim *s = phone();
	struct task *t = run_on(s, 4, 450);
	eas->enqueued(s, 4, t, true);
	assert_false(s->topo.rd->overutilized);
	eas->enqueued(s, 4, t, false);
	assert_true(s->topo.rd->overutilized);
	s->cpu[4].util = 200;
	t->pelt.util_avg = 200;
	run_on(s, 0, 100);
	eas->tick_balance(s, 0);
	assert_false(s->topo.rd->overutilized);
	/* Not due again for 8 CPUs x 16 ms while nothing is overloaded. */
	assert_int_equal(s->topo.rd->next_balance, s->now + 8 * 16 * NS_PER_MS);
	s->topo.rd->overutilized = true;
	eas->tick_balance(s, 0);
	assert_true(s->topo.rd->overutilized);
}

/* The knobs select EAS when sched_energy_enabled(). */
static void test_knobs_select_eas(void **state)
{
	struct sched_knobs k = { .energy_enabled = true };
	assert_string_equal(placement_for(&k)->name, "eas");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_em_cpu_energy),
		cmocka_unit_test(test_lowest_energy_cpu),
		cmocka_unit_test(test_overutilized_falls_back),
		cmocka_unit_test(test_no_util_and_boost_stay),
		cmocka_unit_test(test_overutilized_switch),
		cmocka_unit_test(test_knobs_select_eas),
	};
	return cmocka_run_group_tests(tests, NULL, free_topology);
}
