// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target for the idle-trace CSV reader (src/cpuidle/idletrace_csv.c):
 * any input must give rows within the documented ranges or one message
 * naming the input, and the rows must drive every idle governor under
 * every tick policy without a crash or an impossible result. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuidle/idletrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_NS (INT64_C(1000000000000) * NS_PER_US)
#define MAX_DRIVEN_ROWS 256

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "broken: %s\n", what);
		abort();
	}
}

static void add_state(struct machine *m, const char *name, sim_ns exit, sim_ns residency, int poll)
{
	struct cstate *c = &m->cstates[m->ncstates++];
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->exit_ns = exit;
	c->residency_ns = residency;
	c->poll = poll;
}

static void drive(const struct idletrace *t)
{
	static struct machine m; /* large: keep it off the stack */
	/* menu twice: today's rules and v3.10's; ladder twice: mainline and signed */
	static const char *const govs[] = { "deepest", "menu", "menu", "teo", "ladder", "haltpoll",
					    "ladder" };
	static const char *const v3_10[] = { "menu_variant=3.10" };
	static const char *const signed_ladder[] = { "ladder_variant=signed" };
	static const enum tick_policy pol[] = { TICK_LEGACY, TICK_GOVERNOR, TICK_PERIODIC };

	if (!m.ncstates) {
		add_state(&m, "POLL", 0, 0, 1);
		add_state(&m, "C1", 2 * NS_PER_US, 2 * NS_PER_US, 0);
		add_state(&m, "C1E", 10 * NS_PER_US, 20 * NS_PER_US, 0);
		add_state(&m, "C6", 133 * NS_PER_US, 400 * NS_PER_US, 0);
	}
	int n = t->nrows < MAX_DRIVEN_ROWS ? t->nrows : MAX_DRIVEN_ROWS;
	for (size_t g = 0; g < sizeof(govs) / sizeof(govs[0]); g++) {
		for (size_t p = 0; p < sizeof(pol) / sizeof(pol[0]); p++) {
			struct idletrace_sim s;
			struct idletrace_config cfg = { .governor = govs[g], .tick_policy = pol[p],
							.hz = 1000 };
			if (g == 2) {
				cfg.sets = v3_10;
				cfg.nsets = 1;
			} else if (g == 6) {
				cfg.sets = signed_ladder;
				cfg.nsets = 1;
			}
			struct pm_diag d = { "" };
			check(idletrace_sim_init(&s, &m, &cfg, &d) == 0, "init");
			for (int i = 0; i < n; i++) {
				const struct idletrace_row *r = &t->rows[i];
				struct idletrace_step st;
				idletrace_sim_step(&s, r, &st);
				check(st.state >= 0 && st.state < m.ncstates, "state in range");
				check(st.residency_ns >= 0 && st.residency_ns <= r->idle_ns &&
				      st.residency_ns <= r->next_timer_ns, "residency within the row");
				check(r->latency_limit_ns != 0 || st.state == 0, "latency 0 polls");
				check(pol[p] != TICK_LEGACY || st.tick_stopped, "legacy stops the tick");
				check(pol[p] != TICK_PERIODIC || !st.tick_stopped, "periodic keeps it");
			}
			idletrace_sim_destroy(&s);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct idletrace t;
	struct pm_diag d = { "" };

	if (idletrace_parse(&t, (const char *)data, size, "fuzz", &d) == 0) {
		int last = 0;
		for (int i = 0; i < t.nrows; i++) {
			const struct idletrace_row *r = &t.rows[i];
			check(r->next_timer_ns >= 0 && r->next_timer_ns <= MAX_NS, "timer range");
			check(r->idle_ns >= 0 && r->idle_ns <= MAX_NS, "idle range");
			check(r->latency_limit_ns == SIM_NS_MAX ||
			      (r->latency_limit_ns >= 0 && r->latency_limit_ns <= MAX_NS),
			      "latency range");
			check(r->line > last, "lines ascend");
			last = r->line;
		}
		drive(&t);
		idletrace_free(&t);
	} else {
		check(strncmp(d.msg, "fuzz:", 5) == 0 && !strchr(d.msg, '\n'),
		      "one-line message naming the input");
	}
	return 0;
}
