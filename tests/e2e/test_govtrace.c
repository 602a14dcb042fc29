// SPDX-License-Identifier: GPL-2.0-only
/* End-to-end: pmlab govtrace on the traces of tests/fixtures/govtrace/.
 * The expected rows are worked out by hand in the comments, from the rules
 * tests/unit/test_cpufreq_governors.c checks one by one. */
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

#define FIX PMLAB_SOURCE_ROOT "/tests/fixtures/govtrace/"
#define T5 "--freqs 3000000,1000000,2000000,1500000,2500000" /* unsorted on purpose */
#define S6 "--freqs 500000,1000000,1500000,2000000,2500000,3000000"

static void test_ondemand_trace(void **state)
{
	/* Starts at 3 GHz. 10 ms: 37 % -> 1.74 GHz -> closest 1.5 GHz; 15 ms:
	 * within sampling_rate, no sample; 20 ms: 100 % -> 3 GHz; 30 ms: 96 %
	 * stays; 40 ms: 80 % -> 2.6 GHz -> closest 2.5 GHz. */
	const char *want = "t_us,freq_khz\n0,3000000\n10000,1500000\n20000,3000000\n40000,2500000\n";
	expect_output("govtrace --governor ondemand --set sampling_rate=10000 " T5
		      " --hz 1000 --input " FIX "ondemand.csv", want);
	/* The same trace on standard input, with -i - and by default. */
	expect_output("govtrace -g ondemand --set sampling_rate=10000 " T5 " --hz 1000 -i - < " FIX
		      "ondemand.csv", want);
	expect_output("govtrace -g ondemand --set sampling_rate=10000 " T5 " --hz 1000 < " FIX
		      "ondemand.csv", want);
	/* The default sampling rate at HZ=1000 is 2 ms, so 15 ms samples too:
	 * 100 % since 10 ms -> 3 GHz there, and 20 ms (5 ms of 100 %) stays. */
	expect_output("govtrace -g ondemand " T5 " --hz 1000 -i " FIX "ondemand.csv",
		      "t_us,freq_khz\n0,3000000\n10000,1500000\n15000,3000000\n40000,2500000\n");
}

static void test_schedutil_trace(void **state)
{
	/* util 0: the boost alone, b + b/4 of 3 GHz / 1024, lowest entry at or
	 * above: 128 -> 0.5, 256 -> 1.0, 512 -> 2.0, 1024 -> 3.0 GHz; halving
	 * back without wakeups; again from 10 ms; 17 ms is more than a 4 ms
	 * tick after 12 ms: restarts at 128. */
	expect_output("govtrace -g schedutil --set rate_limit_us=0 " S6 " -i " FIX
		      "schedutil-iowait.csv",
		      "t_us,freq_khz\n0,3000000\n1000,500000\n2000,1000000\n3000,2000000\n"
		      "4000,3000000\n6000,2000000\n7000,1000000\n8000,500000\n11000,1000000\n"
		      "12000,2000000\n17000,500000\n");
}

static void test_intel_pstate_trace(void **state)
{
	/* Ratios 12 .. 24 (base) .. 36; starts at 12. 10 ms primes the
	 * counters; 20 ms: 50 % busy -> (36 + 9) x 128 >> 8 = 22 -> 2.2 GHz. */
	char freqs[512] = "--freqs ";
	for (int r = 12; r <= 36; r++)
		snprintf(freqs + strlen(freqs), sizeof(freqs) - strlen(freqs), "%s%d00000",
			 r > 12 ? "," : "", r);
	char args[1024];
	snprintf(args, sizeof(args), "govtrace -g intel_pstate %s --base-khz 2400000 --hz 1000 -i "
		 FIX "intel-pstate.csv", freqs);
	expect_output(args, "t_us,freq_khz\n0,1200000\n20000,2200000\n");
	/* performance under intel_pstate, capped at 75 % of the top ratio: 27. */
	snprintf(args, sizeof(args), "govtrace -g intel_pstate --set scaling_governor=performance "
		 "--set max_perf_pct=75 %s --base-khz 2400000 -i " FIX "intel-pstate.csv", freqs);
	expect_output(args, "t_us,freq_khz\n0,2700000\n");
}

static void test_bad_input(void **state)
{
	/* Line numbers count comments and blank lines. */
	expect_usage_error("govtrace -g ondemand " T5 " -i " FIX "bad-field.csv",
			   "pmlab: " FIX "bad-field.csv:3: busy_us 'abc': not an integer");
	expect_usage_error("govtrace -g ondemand " T5 " -i " FIX "bad-gap.csv",
			   "pmlab: " FIX "bad-gap.csv:4: busy_us+iowait_us+idle_us = 1500, "
			   "but 2000 us");
	expect_usage_error("govtrace -g ondemand " T5 " -i " FIX "bad-count.csv",
			   "pmlab: " FIX "bad-count.csv:3: 3 fields (expected 4");
	expect_usage_error("govtrace -g ondemand " T5 " -i " FIX "bad-header.csv",
			   "pmlab: " FIX "bad-header.csv:1: not a govtrace header (expected t_us,");
	expect_usage_error("govtrace -g ondemand " T5 " -i " FIX "bad-order.csv",
			   "pmlab: " FIX "bad-order.csv:3: t_us 1000 before the previous row's 2000");
	expect_usage_error("govtrace -g schedutil " T5 " -i " FIX "bad-util.csv",
			   "pmlab: " FIX "bad-util.csv:3: util 2000: out of range (expected "
			   "utilization 0..1024)");
	expect_usage_error("govtrace -g ondemand " T5 " < /dev/null",
			   "pmlab: <stdin>:1: no header");
	/* schedutil needs the util column. */
	expect_usage_error("govtrace -g schedutil " T5 " -i " FIX "ondemand.csv", "no util column");
	expect_usage_error("govtrace -g ondemand " T5 " -i " FIX "no-such-file.csv",
			   "cannot read " FIX "no-such-file.csv");
}

static void test_bad_options(void **state)
{
	expect_usage_error("govtrace -g nosuch " T5 " -i " FIX "ondemand.csv",
			   "--governor nosuch: unknown governor (expected one of performance,");
	expect_usage_error("govtrace -g ondemand --freqs 1000000,abc -i " FIX "ondemand.csv",
			   "--freqs: 'abc'");
	expect_usage_error("govtrace -g ondemand --freqs 1000000,2000000,1000000 -i " FIX
			   "ondemand.csv", "1000000 kHz given twice");
	expect_usage_error("govtrace -g ondemand --freqs , -i " FIX "ondemand.csv", "no frequency");
	expect_usage_error("govtrace -g ondemand -i " FIX "ondemand.csv",
			   "--governor and --freqs are required");
	expect_usage_error("govtrace -g ondemand " T5 " --hz 200 -i " FIX "ondemand.csv",
			   "--hz 200: not a kernel HZ");
	expect_usage_error("govtrace -g ondemand " T5 " --base-khz 1700000 -i " FIX "ondemand.csv",
			   "--base-khz 1700000: not one of --freqs");
	expect_usage_error("govtrace -g ondemand " T5 " --set up_threshold=101 -i " FIX
			   "ondemand.csv", "up_threshold=101: out of range (expected 1..100)");
	expect_usage_error("govtrace -g ondemand " T5 " --set rate_limit_us=10 -i " FIX
			   "ondemand.csv", "'rate_limit_us' is not a tunable of ondemand");
	/* The two-tick floor needs HZ, so it is checked when the governor starts. */
	expect_usage_error("govtrace -g ondemand " T5 " --set sampling_rate=1000 -i " FIX
			   "ondemand.csv", "sampling_rate=1000: below two scheduler ticks");
	expect_usage_error("govtrace -g ondemand " T5 " --bogus", "unknown option '--bogus'");
}

static void test_help(void **state)
{
	struct out o = run("govtrace --help");
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.text, "usage: pmlab govtrace"));
	assert_non_null(strstr(o.text, "iowait_wakeup"));
	out_free(&o);
	o = run("governors");
	assert_int_equal(o.status, 0);
	const char *names[] = { "ondemand", "conservative", "schedutil", "intel_pstate",
				"powersave_bias", "freq_step", "rate_limit_us",
				"energy_performance_preference" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_non_null(strstr(o.text, names[i]));
	out_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ondemand_trace),
		cmocka_unit_test(test_schedutil_trace),
		cmocka_unit_test(test_intel_pstate_trace),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_bad_options),
		cmocka_unit_test(test_help),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
