// SPDX-License-Identifier: GPL-2.0-only
/* Placement policies: the registry and the knobs that select a policy. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "sched/placement.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_knobs_select_policy),
		cmocka_unit_test(test_registry_complete),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
