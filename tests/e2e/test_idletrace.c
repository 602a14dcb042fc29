// SPDX-License-Identifier: GPL-2.0-only
/* End-to-end: pmlab idletrace on the traces of tests/fixtures/idletrace/.
 * hsw.ini there is POLL, C1 2/2 us, C1E 10/20 us, C6 133/400 us (exit
 * latency / target residency); the expected rows are worked out by hand
 * in the comments, from the rules the unit tests check one by one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "pmlab_run.h"

#define FIX PMLAB_SOURCE_ROOT "/tests/fixtures/idletrace/"
#define HSW "-m " FIX "hsw.ini"

/* Output of n identical rows "i,STATE,STOP,ABOVE,BELOW" and the summary. */
static char *same_rows(int n, const char *rest, const char *summary)
{
	size_t cap = 64 + (size_t)n * 32 + strlen(summary);
	char *s = malloc(cap);
	size_t len = (size_t)snprintf(s, cap, "idx,state,stop_tick,above,below\n");
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(s + len, cap - len, "%d,%s\n", i, rest);
	snprintf(s + len, cap - len, "%s\n", summary);
	return s;
}

static void test_long_idle(void **state)
{
	/* 50 ms idles, timer 100 ms: menu predicts 100 ms at first, then the
	 * learnt ~50 ms: C6 (fits: no above, nothing deeper: no below), far
	 * beyond a tick: stop it. */
	char *want = same_rows(12, "C6,1,0,0",
			       "# states: POLL=0 C1=0 C1E=0 C6=12; above=0 below=0 tick_stopped=12");
	expect_output("idletrace -g menu " HSW " -i " FIX "long.csv", want);
	expect_output("idletrace --governor teo --machine " FIX "hsw.ini --input " FIX "long.csv",
		      want);
	free(want);
	/* Periodic tick at 250 Hz: the governor sees the tick as the next
	 * event (4 ms), still picks C6, but the tick ends every period at
	 * 4 ms and never stops. */
	want = same_rows(12, "C6,0,0,0",
			 "# states: POLL=0 C1=0 C1E=0 C6=12; above=0 below=0 tick_stopped=0");
	expect_output("idletrace -g menu " HSW " --tick-policy periodic --hz 250 -i " FIX "long.csv",
		      want);
	free(want);
}

static void test_short_idle_tick_policies(void **state)
{
	/* teo, 250 us idles: the first selection learns only the kernel's
	 * fictitious zero-length wakeup (a hit in bin 0) and goes to C6, too
	 * deep (above). That wakeup is an intercept in C1E's bin within a
	 * tick: C1E, but with the first hit in the total (1920) its 1024
	 * are not more than 5/8 of it, so the tick may stop; from the third
	 * selection on they are (1920 of 2704): keep the tick. 250 us in C1E:
	 * 240 us after its exit latency is short of C6's 400: no below. */
	char body[2048];
	size_t len = (size_t)snprintf(body, sizeof(body),
				      "idx,state,stop_tick,above,below\n0,C6,1,1,0\n1,C1E,1,0,0\n");
	for (int i = 2; i < 20; i++)
		len += (size_t)snprintf(body + len, sizeof(body) - len, "%d,C1E,0,0,0\n", i);
	snprintf(body + len, sizeof(body) - len,
		 "# states: POLL=0 C1=0 C1E=19 C6=1; above=1 below=0 tick_stopped=2\n");
	expect_output("idletrace -g teo " HSW " -i " FIX "short.csv", body);
	/* legacy: the tick is stopped first, and with it stopped teo will not
	 * risk a state shorter than a tick: C6 throughout, always above. */
	char *want = same_rows(20, "C6,1,1,0",
			 "# states: POLL=0 C1=0 C1E=0 C6=20; above=20 below=0 tick_stopped=20");
	expect_output("idletrace -g teo " HSW " --tick-policy legacy -i " FIX "short.csv", want);
	free(want);
}

static void test_ladder(void **state)
{
	/* Four 10 us periods in C1 (10 - 2 > 2 us) promote to C1E; mainline's
	 * unsigned comparison counts the first select's 0 - 2 us (nothing
	 * measured yet) as a vote too, so the 4th row; one in C1E
	 * (10 - 10 = 0 < 10 us) demotes. 10 us in C1E is above its 20 us. */
	expect_output("idletrace -g ladder " HSW " -i " FIX "ladder.csv",
		      "idx,state,stop_tick,above,below\n"
		      "0,C1,1,0,0\n1,C1,1,0,0\n2,C1,1,0,0\n3,C1E,1,1,0\n4,C1,1,0,0\n"
		      "5,C1,1,0,0\n6,C1,1,0,0\n7,C1,1,0,0\n8,C1E,1,1,0\n9,C1,1,0,0\n"
		      "# states: POLL=0 C1=8 C1E=2 C6=0; above=2 below=0 tick_stopped=10\n");
	/* The signed comparison (the unmerged RFC): the first select does not
	 * vote, so the 5th row. */
	expect_output("idletrace -g ladder " HSW " --set ladder_variant=signed -i " FIX
		      "ladder.csv",
		      "idx,state,stop_tick,above,below\n"
		      "0,C1,1,0,0\n1,C1,1,0,0\n2,C1,1,0,0\n3,C1,1,0,0\n4,C1E,1,1,0\n"
		      "5,C1,1,0,0\n6,C1,1,0,0\n7,C1,1,0,0\n8,C1,1,0,0\n9,C1E,1,1,0\n"
		      "# states: POLL=0 C1=8 C1E=2 C6=0; above=2 below=0 tick_stopped=10\n");
	/* Promotion after two votes instead of four. */
	expect_output("idletrace -g ladder " HSW " --set ladder_promotion_count=2 -i " FIX
		      "ladder.csv",
		      "idx,state,stop_tick,above,below\n"
		      "0,C1,1,0,0\n1,C1E,1,1,0\n2,C1,1,0,0\n3,C1,1,0,0\n4,C1E,1,1,0\n"
		      "5,C1,1,0,0\n6,C1,1,0,0\n7,C1E,1,1,0\n8,C1,1,0,0\n9,C1,1,0,0\n"
		      "# states: POLL=0 C1=7 C1E=3 C6=0; above=3 below=0 tick_stopped=10\n");
}

static void test_latency_column(void **state)
{
	/* Row 0: no limit, C6 for 50 ms. Row 1: limit 0: POLL with the tick
	 * kept; the tick (50 ms into the 4 ms grid: 2 ms away) would end it,
	 * but the poll limit (C1E's 20 us) comes first; 20 us would have fit
	 * C1: below. Row 2: limit 50 us rules out C6 (133 us): C1E, the
	 * prediction (~94.5 ms) lets the tick stop; 50 ms in C1E would have
	 * fit C6: below. */
	const char *want = "idx,state,stop_tick,above,below\n"
			   "0,C6,1,0,0\n1,POLL,0,0,1\n2,C1E,1,0,1\n"
			   "# states: POLL=1 C1=0 C1E=1 C6=1; above=0 below=2 tick_stopped=2\n";
	expect_output("idletrace -g menu " HSW " -i " FIX "latency.csv", want);
	/* The same from standard input. */
	expect_output("idletrace -g menu " HSW " < " FIX "latency.csv", want);
	expect_output("idletrace -g menu " HSW " --input - < " FIX "latency.csv", want);
}

static void test_preset_machine(void **state)
{
	/* A built-in preset: i7-4790 (POLL first, as intel_idle has it); deepest is C7s. */
	char *want = same_rows(12, "C7s,1,0,0",
			       "# states: POLL=0 C1=0 C1E=0 C3=0 C6=0 C7s=12; above=0 below=0 "
			       "tick_stopped=12");
	expect_output("idletrace -g deepest -m i7-4790 -i " FIX "long.csv", want);
	free(want);
}

static void test_help(void **state)
{
	struct out o = run("idletrace --help");
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.text, "usage: pmlab idletrace"));
	assert_non_null(strstr(o.text, "next_timer_us,idle_us[,latency_limit_us]"));
	out_free(&o);
	o = run("help idletrace");
	assert_int_equal(o.status, 0);
	out_free(&o);
}

static void test_bad_input(void **state)
{
	static const struct {
		const char *args, *needle;
	} cases[] = {
		{ "idletrace -g menu " HSW " -i " FIX "bad-row.csv",
		  "pmlab: " FIX "bad-row.csv:3: idle_us 'abc': not a number (expected "
		  "microseconds >= 0, at most 3 decimals)\n" },
		{ "idletrace -g menu " HSW " < " FIX "bad-row.csv",
		  "pmlab: <stdin>:3: idle_us 'abc': not a number" },
		{ "idletrace -g menu " HSW " -i " FIX "negative.csv",
		  "pmlab: " FIX "negative.csv:3: idle_us '-5': negative (expected microseconds >= 0)" },
		{ "idletrace -g menu " HSW " -i " FIX "bad-header.csv",
		  "pmlab: " FIX "bad-header.csv:1: header 'timer,idle' (expected "
		  "next_timer_us,idle_us[,latency_limit_us])" },
		{ "idletrace -g nosuch " HSW " -i " FIX "long.csv",
		  "pmlab: idletrace: unknown cpuidle governor 'nosuch'" },
		{ "idletrace -g menu " HSW " --set menu_iowait_mult=5000 -i " FIX "long.csv",
		  "pmlab: idletrace: --set menu_iowait_mult=5000: out of range (expected 0..1000)" },
		{ "idletrace -g teo " HSW " --set x=1 -i " FIX "long.csv", "teo has no tunables" },
		{ "idletrace -g menu " HSW " --hz 200 -i " FIX "long.csv", "--hz 200" },
		{ "idletrace -g menu " HSW " --tick-policy sometimes -i " FIX "long.csv",
		  "--tick-policy sometimes" },
		{ "idletrace -g menu -i " FIX "long.csv", "--governor and --machine are required" },
		{ "idletrace -g menu " HSW " -i " FIX "missing.csv", "cannot read " FIX "missing.csv" },
		{ "idletrace -g menu -m nosuch-machine -i " FIX "long.csv", "nosuch-machine" },
		{ "idletrace -g menu " HSW " --bogus", "unknown option '--bogus'" },
		{ "idletrace -g menu " HSW " extra", "unexpected argument 'extra'" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct out o = run(cases[i].args);
		assert_usage_error(&o, cases[i].needle);
		out_free(&o);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_long_idle),
		cmocka_unit_test(test_short_idle_tick_policies),
		cmocka_unit_test(test_ladder),
		cmocka_unit_test(test_latency_column),
		cmocka_unit_test(test_preset_machine),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
