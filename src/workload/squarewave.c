// SPDX-License-Identifier: GPL-2.0-only
/* squarewave: cpufreq-bench (tools/power/cpupower/bench in the kernel,
 * benchmark.c, as of v6.18): one task, pinned to a CPU, alternating
 * sleep and load in `rounds` rounds of `cycles` cycles. Each cycle sleeps
 * sleep_us (a timer) and then runs load_us of work; every round
 * lengthens both by sleep_step_us and load_step_us, so the rounds sweep
 * the square wave from short, fast pulses a governor cannot follow to
 * long ones it can.
 *
 * As in cpufreq-bench, the load is calibrated under the performance
 * governor: load_us of work at the frequency performance gives one busy
 * core (the highest P-state the turbo bins allow one active core), and
 * what is measured per cycle is the cycle's time minus the nominal sleep
 * -- the load's time plus whatever the wakeup added. cpufreq-bench runs
 * every round under performance and then under the tested governor and
 * prints "performance is at X%" (performance time x 100 / governor time);
 * here the lab runs the same simulation under performance
 * (reference_cpufreq) and against_reference() adds, per round and in
 * all, that percentage and the performance loss, the extra time over
 * performance in percent. The run ends after the last round.
 *
 * Throughput: cycles per second. Latency: load time per cycle. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../engine/sim.h"
#include "wlutil.h"

#define SQUAREWAVE_MAX_ROUNDS 12

struct squarewave {
	int64_t load_us;
	int64_t sleep_us;
	int64_t load_step_us;
	int64_t sleep_step_us;
	int64_t cycles;
	int64_t rounds;
	int64_t cpu;
	int64_t stall_pct;
	double khz;                   /* the performance governor's frequency, one busy core */
	int64_t round, cycle;         /* where the task is */
	sim_ns start;                 /* the current cycle's start */
	sim_ns load_ns[SQUAREWAVE_MAX_ROUNDS]; /* per round: the cycles' measured load time */
};

static const struct tunable squarewave_params[] = {
	{ "load_us", "load of the first round, us under the performance governor",
	  TUNABLE_FIELD(struct squarewave, load_us), 10000, 1, 100000000, NULL },
	{ "sleep_us", "sleep of the first round, us", TUNABLE_FIELD(struct squarewave, sleep_us),
	  10000, 0, 100000000, NULL },
	{ "load_step_us", "load added each round, us", TUNABLE_FIELD(struct squarewave, load_step_us),
	  10000, 0, 100000000, NULL },
	{ "sleep_step_us", "sleep added each round, us",
	  TUNABLE_FIELD(struct squarewave, sleep_step_us), 10000, 0, 100000000, NULL },
	{ "cycles", "sleep/load cycles per round", TUNABLE_FIELD(struct squarewave, cycles), 5, 1, 100000, NULL },
	{ "rounds", "rounds, each with longer load and sleep",
	  TUNABLE_FIELD(struct squarewave, rounds), 5, 1, SQUAREWAVE_MAX_ROUNDS, NULL },
	{ "cpu", "the CPU the task is pinned to (-1: not pinned)", TUNABLE_FIELD(struct squarewave, cpu),
	  0, -1, 8191, NULL },
	{ "stall_pct", "share of the load that is memory stall, %",
	  TUNABLE_FIELD(struct squarewave, stall_pct), 0, 0, 100, NULL },
};

static int squarewave_init(struct sim *s, void *data, struct pm_diag *d)
{
	struct squarewave *q = data;
	const struct machine *m = sim_machine(s);
	uint32_t top = m->npstates ? m->pstates[m->npstates - 1].khz : m->base_khz;
	uint32_t turbo = machine_turbo_limit_khz(m, 1);
	q->khz = (double)(turbo < top ? turbo : top);
	if (q->cpu >= sim_ncpus(s))
		return pm_fail(d, "--set cpu=%lld: the machine has %d CPUs (0..%d)", (long long)q->cpu,
			       sim_ncpus(s), sim_ncpus(s) - 1);
	struct task *t = sim_task_new(s, "squarewave", 0);
	if (!t)
		return pm_fail(d, "out of memory");
	if (q->cpu >= 0) {
		int cpu = (int)q->cpu;
		if (sim_task_set_affinity(s, t, &cpu, 1, d) < 0)
			return -1;
	}
	return 0;
}

static sim_ns sleep_ns(const struct squarewave *q)
{
	return (q->sleep_us + q->round * q->sleep_step_us) * NS_PER_US;
}

/* wl_state: 0 a cycle starts (sleep), 1 the sleep is over (load), 2 the
 * load is done. */
static void squarewave_next(struct sim *s, void *data, struct task *t, struct action *a)
{
	struct squarewave *q = data;
	if (t->wl_state == 2) {
		sim_ns load = sim_now(s) - q->start - sleep_ns(q);
		q->load_ns[q->round] += load;
		sim_record_latency(s, load);
		sim_add_work(s, 1);
		if (++q->cycle == q->cycles) {
			q->cycle = 0;
			if (++q->round == q->rounds) {
				sim_stop(s);
				*a = (struct action){ .kind = ACT_EXIT };
				return;
			}
		}
		t->wl_state = 0;
	}
	if (t->wl_state == 0) {
		q->start = sim_now(s);
		t->wl_state = 1;
		*a = (struct action){ .kind = ACT_SLEEP, .until = q->start + sleep_ns(q) };
		return;
	}
	double us = (double)(q->load_us + q->round * q->load_step_us);
	t->wl_state = 2;
	*a = (struct action){
		.kind = ACT_RUN,
		.cycles = workload_cycles(us * (double)(100 - q->stall_pct) / 100.0, q->khz),
		.stall_ns = us * 1000.0 * (double)q->stall_pct / 100.0,
	};
}

/* Per completed round N: round_N_load_us, the mean load time of its
 * cycles (cpufreq-bench's governor column); then load_ms, all of them. */
static void squarewave_report(struct sim *s, void *data, struct run_result *r)
{
	struct squarewave *q = data;
	double total = 0;
	for (int64_t i = 0; i < q->round; i++) {
		char name[RESULT_NAME_MAX];
		snprintf(name, sizeof(name), "round_%lld_load_us", (long long)i + 1);
		wl_extra(r, name, "us", (double)q->load_ns[i] / (double)q->cycles / 1000.0);
		total += (double)q->load_ns[i];
	}
	wl_extra(r, "load_ms", "ms", total / 1e6);
}

static const struct result_extra *find_extra(const struct run_result *r, const char *name)
{
	for (int i = 0; i < r->nextra && i < RESULT_MAX_EXTRA; i++)
		if (strcmp(r->extra[i].name, name) == 0)
			return &r->extra[i];
	return NULL;
}

/* cpufreq-bench's percentage: performance time x 100 / governor time. */
static double perf_at(double perf, double gov)
{
	return gov > 0 ? perf * 100.0 / gov : NAN;
}

static double loss(double perf, double gov)
{
	return perf > 0 ? (gov - perf) * 100.0 / perf : NAN;
}

/* Rebuilds r's figures as round_N_load_us, round_N_perf_at_pct per round
 * both runs completed, then load_ms, and perf_at_pct and
 * performance_loss_pct over those rounds. ref may be a copy of r. */
static void squarewave_against(struct run_result *r, const struct run_result *ref)
{
	struct result_extra mine[RESULT_MAX_EXTRA];
	int n = r->nextra < RESULT_MAX_EXTRA ? r->nextra : RESULT_MAX_EXTRA;
	double gov_total = 0, perf_total = 0;
	memcpy(mine, r->extra, sizeof(mine));
	r->nextra = 0;
	for (int i = 0; i < n; i++) {
		const struct result_extra *e = &mine[i], *p = find_extra(ref, e->name);
		if (strncmp(e->name, "round_", 6) != 0 || !p)
			continue;
		char name[RESULT_NAME_MAX];
		snprintf(name, sizeof(name), "%.*s_perf_at_pct", (int)(strlen(e->name) - 8), e->name);
		wl_extra(r, e->name, e->unit, e->value);
		wl_extra(r, name, "%", perf_at(p->value, e->value));
		gov_total += e->value;
		perf_total += p->value;
	}
	for (int i = 0; i < n; i++)
		if (strcmp(mine[i].name, "load_ms") == 0)
			wl_extra(r, "load_ms", "ms", mine[i].value);
	wl_extra(r, "perf_at_pct", "%", perf_at(perf_total, gov_total));
	wl_extra(r, "performance_loss_pct", "%", loss(perf_total, gov_total));
}

const struct workload_ops workload_squarewave = {
	.name = "squarewave",
	.summary = "cpufreq-bench: load/sleep cycles in rounds of growing steps, vs performance",
	.throughput_unit = "cycles/s",
	.latency_what = "load time per cycle",
	.params = squarewave_params,
	.nparams = WL_NPARAMS(squarewave_params),
	.data_size = sizeof(struct squarewave),
	.init = squarewave_init,
	.next = squarewave_next,
	.report = squarewave_report,
	.reference_cpufreq = "performance",
	.against_reference = squarewave_against,
	.ends_run = true,
};
