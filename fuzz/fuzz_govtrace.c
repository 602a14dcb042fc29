// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target for the govtrace CSV reader: any input gives rows or a
 * message naming the input; the rows it accepts are in time order and add
 * up, and they drive every frequency governor through the trace harness
 * without a rejected step, each frequency picked being a table entry. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpufreq/govtrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Enough rows to reach every governor state; more only slows the fuzzer. */
#define MAX_ROWS 4000

static const uint32_t table[] = { 800000, 1200000, 1600000, 2000000, 2400000, 2800000, 3200000 };

struct gov_case {
	const char *governor;
	const char *sets[4];
	int nsets;
	int needs_util;
};

static const struct gov_case cases[] = {
	{ "ondemand", { "sampling_rate=2000" }, 1, 0 },
	{ "ondemand", { "variant=3.10", "powersave_bias=250", "sampling_down_factor=4" }, 3, 0 },
	{ "ondemand", { "variant=3.11", "io_is_busy=0" }, 2, 0 },
	{ "conservative", { "sampling_rate=2000", "sampling_down_factor=3", "freq_step=7" }, 3, 0 },
	{ "conservative", { "variant=3.10" }, 1, 0 },
	{ "schedutil", { "rate_limit_us=0" }, 1, 1 },
	{ "schedutil", { "freq_invariant=0", "rate_limit_us=3000" }, 2, 1 },
	{ "intel_pstate", { "min_perf_pct=40" }, 1, 0 },
	{ "intel_pstate", { "hwp=1", "hwp_dynamic_boost=1", "energy_performance_preference=200" },
	  3, 0 },
	{ "performance", { 0 }, 0, 0 },
	{ "userspace", { "scaling_setspeed=1700000" }, 1, 0 },
};

static void check_rows(const struct govtrace_input *in)
{
	int64_t prev = 0;
	for (size_t i = 0; i < in->nrows; i++) {
		const struct govtrace_row *r = &in->rows[i];
		if (r->t_us < prev || r->busy_us < 0 || r->iowait_us < 0 || r->idle_us < 0 ||
		    r->busy_us + r->iowait_us + r->idle_us != r->t_us - prev ||
		    r->util > 1024 || (r->util < 0) != !in->has_util) {
			fprintf(stderr, "accepted a bad row at line %d\n", r->line);
			abort();
		}
		prev = r->t_us;
	}
}

static void drive(const struct gov_case *c, const struct govtrace_input *in)
{
	struct govtrace_config cfg = {
		.governor = c->governor, .sets = c->sets, .nsets = c->nsets, .freqs = table,
		.nfreqs = (int)(sizeof(table) / sizeof(table[0])), .base_khz = 2400000, .hz = 1000,
		.transition_latency_us = 10, .ncpus = 1, .no_util = !in->has_util,
	};
	struct pm_diag d = { "" };
	struct govtrace *g;
	if (govtrace_create(&g, &cfg, &d) < 0) {
		fprintf(stderr, "%s: %s\n", c->governor, d.msg);
		abort();
	}
	size_t n = in->nrows < MAX_ROWS ? in->nrows : MAX_ROWS;
	for (size_t i = 0; i < n; i++) {
		if (govtrace_step(g, 0, &in->rows[i], &d) < 0) {
			fprintf(stderr, "%s rejected line %d: %s\n", c->governor,
				in->rows[i].line, d.msg);
			abort();
		}
	}
	size_t nchanges;
	const struct govtrace_change *ch = govtrace_changes(g, &nchanges);
	for (size_t i = 0; i < nchanges; i++) {
		bool in_table = false;
		for (size_t k = 0; k < sizeof(table) / sizeof(table[0]); k++)
			in_table |= ch[i].khz == table[k];
		if (!in_table || (i && ch[i].t_us < ch[i - 1].t_us)) {
			fprintf(stderr, "%s: change %zu to %u kHz at %lld us\n", c->governor, i,
				ch[i].khz, (long long)ch[i].t_us);
			abort();
		}
	}
	govtrace_destroy(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct govtrace_input in;
	struct pm_diag d = { "" };
	if (govtrace_parse((const char *)data, size, "fuzz", &in, &d) < 0) {
		if (strncmp(d.msg, "fuzz:", 5) != 0 && strcmp(d.msg, "out of memory") != 0) {
			fprintf(stderr, "failed without naming the input: %s\n", d.msg);
			abort();
		}
		return 0;
	}
	check_rows(&in);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (in.has_util || !cases[i].needs_util)
			drive(&cases[i], &in);
	govtrace_input_free(&in);
	return 0;
}
