// SPDX-License-Identifier: GPL-2.0-only
/* Allocation failures in the engine: the run fails with "out of memory",
 * never goes on without what it could not allocate. This program is linked
 * with -Wl,--wrap=realloc (tests/meson.build), so that a test can make the
 * library's next realloc() fail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "engine/sim.h"
#include "engine/sim_internal.h"
#include "simtest.h"

void *__real_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n);

static bool fail_realloc;

void *__wrap_realloc(void *p, size_t n)
{
	if (fail_realloc)
		return NULL;
	return __real_realloc(p, n);
}

/* A periodic run whose event queue is full: its next push must grow the
 * heap. The timers posted, past the run's end, never fire. */
static struct sim *sim_with_full_queue(struct machine *m, struct pm_diag *d)
{
	static const char *sets[] = { "tasks=1", "period_us=1000", "run_us=100" };
	assert_int_equal(machine_parse(m, SIMTEST_TWO_CORE_INI, "test", d), 0);
	struct sim_config cfg = { .machine = m, .workload = "periodic", .cpufreq = "performance",
				  .cpuidle = "menu", .duration = 10 * NS_PER_MS, .seed = 1,
				  .nsets = 3, .sets = sets };
	struct sim *s;
	assert_int_equal(sim_create(&s, &cfg, d), 0);
	while (s->q.len < s->q.cap)
		assert_int_equal(sim_post_workload_timer(s, NS_PER_SEC, 0), 0);
	assert_false(s->oom);
	return s;
}

/* A workload timer the event queue has no room for (its heap full, the
 * realloc that would grow it failing) fails the run, whether or not the
 * workload looked at the return: periodic's device waits, oltp's
 * transmit completions do not. */
static void test_workload_timer_without_memory_fails_the_run(void **state)
{
	struct pm_diag d = { { 0 } };
	struct machine m;
	(void)state;
	struct sim *s = sim_with_full_queue(&m, &d);
	fail_realloc = true;
	int rc = sim_post_workload_timer(s, NS_PER_SEC, 0);
	fail_realloc = false;
	assert_int_equal(rc, -1);
	struct run_result r;
	memset(&r, 0, sizeof(r));
	assert_int_equal(sim_run(s, &r, &d), -1);
	assert_string_equal(d.msg, "out of memory");
	sim_destroy(s);
}

/* The same timer with memory: the run goes on (the test above fails for
 * the missing memory, not for the full heap). */
static void test_workload_timer_with_memory_runs(void **state)
{
	struct pm_diag d = { { 0 } };
	struct machine m;
	(void)state;
	struct sim *s = sim_with_full_queue(&m, &d);
	assert_int_equal(sim_post_workload_timer(s, NS_PER_SEC, 0), 0);
	struct run_result r;
	assert_int_equal(sim_run(s, &r, &d), 0);
	assert_true(r.latency.count >= 9);
	result_free(&r);
	sim_destroy(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_workload_timer_without_memory_fails_the_run),
		cmocka_unit_test(test_workload_timer_with_memory_runs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
