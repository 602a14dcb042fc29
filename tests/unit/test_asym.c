// SPDX-License-Identifier: GPL-2.0-only
/* CPUs of different capacity or priority (sched/asym.h, fair_capacity.h,
 * placement_itmt.c) against the fake engine (fake_sched.h): which
 * asymmetry the kernel sees, whether a task fits a CPU (with uclamp), the
 * capacity-aware wakeup, misfit migration, overutilization and ITMT's
 * asym packing, each checked against the Linux v6.6 rule that decides it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "fake_sched.h"
#include "sched/asym.h"
#include "sched/fair_capacity.h"
#include "sched/fair_select.h"
#include "sched/uclamp.h"

/* One package: `big` cores of capacity 1024 (SMT `smt`), then `little`
 * cores of capacity `cap`, all under one LLC (an Arm DSU, a hybrid ring). */
static struct machine hybrid(int big, int smt, int little, uint32_t cap,
			     enum cpufreq_driver_kind driver)
{
	struct machine m = { .packages = 1, .cores_per_package = big + little,
			     .threads_per_core = smt, .llc_cores = big + little, .ntypes = 2,
			     .cpufreq_driver = driver };
	m.types[0] = (struct cpu_type){ .name = "big", .cores = big, .threads_per_core = smt,
					.capacity = 1024 };
	m.types[1] = (struct cpu_type){ .name = "little", .cores = little, .threads_per_core = 1,
					.capacity = cap };
	return m;
}

/* A big.LITTLE phone: CPUs 0-3 big (1024), 4-7 little (`cap`). */
static struct sim *phone(uint32_t cap)
{
	struct machine m = hybrid(4, 1, 4, cap, CPUFREQ_DRIVER_NONE);
	return machine_from(&m, SCHED_ASYM_CPUCAPACITY);
}

static enum sched_asym mode_of(struct machine m, int kernel, bool itmt)
{
	m.online_cpus = machine_possible_cpus(&m);
	struct sched_topology t;
	struct pm_diag d = { { 0 } };
	assert_int_equal(sched_topology_build(&t, &m, &d), 0);
	enum sched_asym mode = sched_asym_mode(&m, &t, kernel, itmt, true);
	sched_topology_free(&t);
	return mode;
}

/* Arm takes the capacities as they are; intel_pstate scales capacities on
 * a hybrid part from v6.12 with SMT off, else turns ITMT on (unless the
 * sysctl is 0); acpi-cpufreq sets neither; equal capacities are
 * symmetric whatever the driver. */
static void test_asym_mode(void **state)
{
	assert_int_equal(mode_of(hybrid(4, 1, 4, 400, CPUFREQ_DRIVER_NONE), 0, true),
			 SCHED_ASYM_CPUCAPACITY);
	assert_int_equal(mode_of(hybrid(2, 1, 8, 600, CPUFREQ_DRIVER_INTEL_PSTATE), 0, true),
			 SCHED_ASYM_CPUCAPACITY);
	assert_int_equal(mode_of(hybrid(2, 1, 8, 600, CPUFREQ_DRIVER_INTEL_PSTATE), 6011, true),
			 SCHED_ASYM_PACKING);
	assert_int_equal(mode_of(hybrid(2, 2, 8, 600, CPUFREQ_DRIVER_INTEL_CPUFREQ), 0, true),
			 SCHED_ASYM_PACKING);
	assert_int_equal(mode_of(hybrid(2, 2, 8, 600, CPUFREQ_DRIVER_INTEL_PSTATE), 0, false),
			 SCHED_ASYM_NONE);
	assert_int_equal(mode_of(hybrid(2, 2, 8, 600, CPUFREQ_DRIVER_ACPI), 0, true),
			 SCHED_ASYM_NONE);
	assert_int_equal(mode_of(hybrid(2, 1, 8, 1024, CPUFREQ_DRIVER_NONE), 0, true),
			 SCHED_ASYM_NONE);
}

/* The scheduler's capacities and flags: the domain over both clusters
 * has SD_ASYM_CPUCAPACITY(_FULL); with ITMT every CPU has 1024, the
 * priorities follow the types, and SMT siblings share theirs. */
static void test_asym_topology(void **state)
{
	struct sim *s = phone(400);
	assert_int_equal(s->topo.capacity[0], 1024);
	assert_int_equal(s->topo.capacity[7], 400);
	assert_int_equal(s->topo.rd->max_cpu_capacity, 1024);
	const struct sched_domain *sd = sd_asym_cpucapacity(&s->topo, 5);
	assert_non_null(sd);
	assert_int_equal(sd->span->n, 8);
	assert_true(sched_asym_cpucap_active(&s->topo));

	struct machine m = hybrid(2, 2, 4, 600, CPUFREQ_DRIVER_INTEL_PSTATE);
	s = machine_from(&m, SCHED_ASYM_PACKING);
	assert_false(sched_asym_cpucap_active(&s->topo));
	for (int c = 0; c < 8; c++)
		assert_int_equal(s->topo.capacity[c], 1024);
	/* CPUs 0, 1 and their siblings 6, 7 are P-cores; 2-5 E-cores. */
	assert_true(sched_asym_prefer(&s->topo, 0, 2));
	assert_true(sched_asym_prefer(&s->topo, 6, 5));
	assert_false(sched_asym_prefer(&s->topo, 0, 6));
	assert_false(sched_asym_prefer(&s->topo, 2, 3));
	assert_true(cpu_domain(&s->topo, 0, 1)->asym_packing);
	assert_false(cpu_domain(&s->topo, 0, 0)->asym_packing); /* not at SMT */
}

/* util_fits_cpu(): a 20 % margin (400 fits 512, 410 does not); with
 * uclamp in use, a cap at or below the capacity forces a fit, and a
 * boost above it fits only partly (-1). Before any clamp is used the
 * clamps are ignored. */
static void test_util_fits_cpu(void **state)
{
	struct sim *s = phone(512);
	assert_int_equal(util_fits_cpu(s, 400, 0, 1024, 4), 1);
	assert_int_equal(util_fits_cpu(s, 410, 0, 1024, 4), 0);
	assert_int_equal(util_fits_cpu(s, 800, 0, 300, 4), 0); /* uclamp not used yet */
	s->knobs.uclamp_used = true;
	assert_int_equal(util_fits_cpu(s, 800, 0, 300, 4), 1);
	assert_int_equal(util_fits_cpu(s, 800, 0, 600, 4), 0);
	assert_int_equal(util_fits_cpu(s, 100, 600, 1024, 4), -1);
	assert_int_equal(util_fits_cpu(s, 100, 600, 1024, 0), 1);
	/* 1024 on a CPU of 1024 does not force a fit: overutilization shows. */
	assert_int_equal(util_fits_cpu(s, 900, 0, 1024, 0), 0);
	/* The sysctl bounds every task's clamp: uclamp.max 1024 becomes 300. */
	struct task *p = sleeper(4, 800);
	assert_false(task_fits_cpu(s, p, 4));
	s->knobs.uclamp_util_max = 300;
	assert_int_equal(uclamp_eff_max(p, &s->knobs), 300);
	assert_true(task_fits_cpu(s, p, 4));
}

/* The capacity-aware wakeup: a small task goes back to its idle little
 * CPU; a big one does not fit there and select_idle_capacity() finds the
 * first idle big CPU from the target on; uclamp_max keeps a big one on a
 * little CPU, and uclamp_min sends a small one to a big CPU. */
static void test_wakeup_fits_capacity(void **state)
{
	struct sim *s = phone(400);
	run_on(s, 5, 100); /* the waker, on a little CPU */
	run_on(s, 0, 900);
	assert_int_equal(wake(s, sleeper(4, 100), 5, false), 4);
	struct task *big = sleeper(4, 500);
	assert_int_equal(wake(s, big, 5, false), 1);
	s->knobs.uclamp_used = true;
	big->uclamp_max = 350;
	assert_int_equal(wake(s, big, 5, false), 4);
	struct task *boosted = sleeper(4, 100);
	boosted->uclamp_min = 700;
	assert_int_equal(wake(s, boosted, 5, false), 1);
	/* No big CPU idle: of the idle CPUs none fits; the biggest, in scan
	 * order from the target, takes it. */
	for (int c = 1; c < 4; c++)
		run_on(s, c, 900);
	assert_int_equal(wake(s, sleeper(4, 500), 5, false), 4);
}

/* A sync wakeup from a big CPU running only the waker, of a big task
 * whose previous CPU is an idle little one in the same cache: with equal
 * capacities the idle previous CPU would take it at once, but here it
 * does not fit, and the search starts from the target wake_affine_idle()
 * picked, the waker's CPU (2): the first idle big CPU after it is 3, not
 * the 1 a search from the previous CPU finds. */
static void test_sync_wakeup_searches_from_waker(void **state)
{
	struct sim *s = phone(400);
	run_on(s, 0, 900);
	run_on(s, 2, 100); /* the waker */
	assert_int_equal(wake(s, sleeper(4, 500), 2, true), 3);
	/* A small task fits its idle previous CPU: it goes back there. */
	assert_int_equal(wake(s, sleeper(4, 100), 2, true), 4);
}

/* Misfit migration: a little CPU running a task too big for it gives it
 * to an idle big CPU at its periodic balance (active balancing); not when
 * the task fits, nor to a CPU of equal capacity, nor outside its
 * affinity. A big CPU going idle pulls it too. */
static void test_misfit_migration(void **state)
{
	const struct placement_ops *spread = placement_find("spread");
	struct sim *s = phone(400);
	run_on(s, 0, 900);
	run_on(s, 1, 900);
	struct task *t = run_on(s, 5, 600);
	spread->tick_balance(s, 5);
	assert_int_equal(s->nmoves, 1);
	assert_int_equal(s->last_move.from, 5);
	/* The idle balancer is CPU 2, the first idle one; it balances the
	 * idle CPUs after it first (_nohz_idle_balance()): CPU 3 pulls. */
	assert_int_equal(s->last_move.to, 3);
	assert_true(s->last_move.running);
	assert_ptr_equal(s->last_move.t, t);

	s = phone(400);
	run_on(s, 5, 300); /* fits 400 */
	spread->tick_balance(s, 5);
	assert_int_equal(s->nmoves, 0);

	s = phone(400);
	for (int c = 0; c < 4; c++)
		run_on(s, c, 900);
	run_on(s, 5, 600); /* no big CPU idle: stays */
	spread->tick_balance(s, 5);
	assert_int_equal(s->nmoves, 0);

	s = phone(400);
	t = run_on(s, 5, 600);
	uint64_t littles = 0xf0;
	t->affinity = &littles;
	spread->tick_balance(s, 5);
	assert_int_equal(s->nmoves, 0);
	t->affinity = NULL;

	/* newidle_balance() of a big CPU takes the biggest misfit. */
	s = phone(400);
	run_on(s, 4, 500);
	run_on(s, 6, 700);
	assert_true(spread->newidle_balance(s, 3));
	assert_int_equal(s->last_move.from, 6);
	assert_int_equal(s->last_move.to, 3);
}

/* cpu_overutilized(): the CPU's utilization does not fit its capacity;
 * a run queue capped by uclamp_max below the capacity is not. */
static void test_overutilized(void **state)
{
	struct sim *s = phone(512);
	struct task *t = run_on(s, 4, 450);
	assert_true(cpu_overutilized(s, 4));
	assert_false(cpu_overutilized(s, 0));
	s->knobs.uclamp_used = true;
	t->uclamp_max = 400;
	assert_false(cpu_overutilized(s, 4));
}

/* Exec balancing with asymmetric capacities: a task that fits no little
 * CPU leaves the little cluster for the big one (group_misfit_task: the
 * group of greatest capacity). One package and one LLC: the MC level's
 * groups are cores, so the task goes to an idle big core. */
static void test_exec_misfit_goes_big(void **state)
{
	struct sim *s = phone(400);
	struct task *p = run_on(s, 5, 600);
	struct select_ctx w = { .kind = SELECT_EXEC, .this_cpu = 5, .waker = p };
	assert_true(s->topo.capacity[fair_select_task_rq(s, p, &w)] == 1024);
	p = run_on(s, 6, 100);
	w = (struct select_ctx){ .kind = SELECT_EXEC, .this_cpu = 6, .waker = p };
	assert_int_equal(fair_select_task_rq(s, p, &w), 6); /* fits: stays */
}

/* ITMT: an E-core running a lone task gives it to an idle P-core whose
 * sibling is idle too; a P-core with a busy sibling does not take it
 * (sched_use_asym_prio()); a P-core going idle pulls the lone task of the
 * E-core; E-cores among themselves do not. */
static void test_itmt_packs_onto_p_cores(void **state)
{
	const struct placement_ops *itmt = placement_find("itmt");
	assert_non_null(itmt);
	/* P-cores: CPUs 0+6 and 1+7; E-cores: CPUs 2-5. */
	struct machine m = hybrid(2, 2, 4, 600, CPUFREQ_DRIVER_INTEL_PSTATE);
	struct sim *s = machine_from(&m, SCHED_ASYM_PACKING);
	run_on(s, 0, 500);
	struct task *t = run_on(s, 3, 500);
	itmt->tick_balance(s, 3);
	assert_int_equal(s->nmoves, 1);
	/* The idle balancer (CPU 1) visits 2, 4, 5 (E-cores: no higher),
	 * 6 (its sibling 0 is busy), then 7, whose core is idle. */
	assert_int_equal(s->last_move.to, 7);
	assert_ptr_equal(s->last_move.t, t);

	s = machine_from(&m, SCHED_ASYM_PACKING);
	run_on(s, 0, 500);
	run_on(s, 7, 500); /* both P-cores half busy */
	run_on(s, 3, 500);
	itmt->tick_balance(s, 3);
	assert_int_equal(s->nmoves, 0);
	itmt->tick_balance(s, 0); /* a P-core never moves to an E-core */
	assert_int_equal(s->nmoves, 0);

	s = machine_from(&m, SCHED_ASYM_PACKING);
	run_on(s, 2, 500);
	assert_false(itmt->newidle_balance(s, 4)); /* E to E: equal priority */
	assert_true(itmt->newidle_balance(s, 6));
	assert_int_equal(s->last_move.from, 2);
	assert_int_equal(s->last_move.to, 6);
}

/* The knobs select ITMT when asym packing is on; pack still wins with
 * sched_mc_power_savings (it comes first in the registry). */
static void test_knobs_select_itmt(void **state)
{
	struct sched_knobs k = { .asym_packing = true };
	assert_string_equal(placement_for(&k)->name, "itmt");
	k.mc_power_savings = 1;
	assert_string_equal(placement_for(&k)->name, "pack");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_asym_mode),
		cmocka_unit_test(test_asym_topology),
		cmocka_unit_test(test_util_fits_cpu),
		cmocka_unit_test(test_wakeup_fits_capacity),
		cmocka_unit_test(test_sync_wakeup_searches_from_waker),
		cmocka_unit_test(test_misfit_migration),
		cmocka_unit_test(test_overutilized),
		cmocka_unit_test(test_exec_misfit_goes_big),
		cmocka_unit_test(test_itmt_packs_onto_p_cores),
		cmocka_unit_test(test_knobs_select_itmt),
	};
	return cmocka_run_group_tests(tests, NULL, free_topology);
}
