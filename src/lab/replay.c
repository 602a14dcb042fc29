// SPDX-License-Identifier: GPL-2.0-only
#include "replay.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engine/sim.h"
#include "runspec.h"

/* The capture-like machine's constants. The trace gives only its CPUs
 * and, perhaps, their frequencies; everything else is an invented round
 * figure (docs/ARCHITECTURE.md): kernel costs and the tick are 0 because
 * they are inside the recorded bursts already, one shallow C-state lets
 * the idle governors run, and the power figures only make the power
 * columns defined -- on this machine a replay reproduces CPU time, not
 * watts. */
#define CAPTURE_MV 1000
#define CAPTURE_C1_EXIT_NS 1000
#define CAPTURE_C1_RESIDENCY_NS 2000
#define CAPTURE_C1_W 1.0
#define CAPTURE_CEFF_NF 2.0
#define CAPTURE_LEAK_W 1.0
#define CAPTURE_UNCORE_W 5.0

int replay_capture_machine(struct machine *m, const struct replay_model *rm, uint64_t khz,
			   struct pm_diag *d)
{
	int n = rm->ncpus > rm->info.ncpus ? rm->ncpus : rm->info.ncpus;
	struct cstate *c1 = &m->cstates[0];

	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "trace");
	snprintf(m->description, sizeof(m->description),
		 "like the machine that recorded the trace: %d CPUs at %llu kHz", n,
		 (unsigned long long)khz);
	/* A trace names no drivers: pmlab's defaults (performance, and deepest
	 * with one state: HLT with the tick stopped) replay it as recorded. */
	m->cpufreq_driver = CPUFREQ_DRIVER_NONE;
	m->cpuidle_driver = CPUIDLE_DRIVER_NONE;
	m->packages = 1;
	m->cores_per_package = n;
	m->threads_per_core = 1;
	m->llc_cores = n;
	m->freq_domain = FREQ_DOMAIN_CORE;
	m->online_cpus = n > 0 && n <= MACHINE_MAX_CPUS ? n : 0;
	m->base_khz = (uint32_t)khz;
	m->npstates = 1;
	m->pstates[0] = (struct pstate){ (uint32_t)khz, CAPTURE_MV };
	m->ncstates = 1;
	snprintf(c1->name, sizeof(c1->name), "C1");
	c1->exit_ns = CAPTURE_C1_EXIT_NS;
	c1->residency_ns = CAPTURE_C1_RESIDENCY_NS;
	c1->power_w = CAPTURE_C1_W;
	m->ceff_nf = CAPTURE_CEFF_NF;
	m->leak_w = CAPTURE_LEAK_W;
	m->uncore_w = CAPTURE_UNCORE_W;
	m->smt_activity = 1.0;
	m->smt_throughput = 1.0;
	return machine_validate(m, "trace machine", d);
}

/* The machine pmlab record wrote beside the trace (pmlab machines
 * detect), without the kernel costs: they are in the recorded bursts. 0:
 * none there. */
static int recorded_machine(struct replay *r, struct pm_diag *d)
{
	snprintf(r->recorded, sizeof(r->recorded), "%s" MACHINE_RECORDED_SUFFIX, r->file);
	if (strlen(r->file) + strlen(MACHINE_RECORDED_SUFFIX) >= sizeof(r->recorded) ||
	    access(r->recorded, F_OK) != 0) {
		r->recorded[0] = '\0';
		return 0;
	}
	if (runspec_load_machine(&r->m, r->recorded, r->cpus, d) < 0)
		return -1;
	r->m.syscall_ns = r->m.context_switch_ns = r->m.wakeup_ipi_ns = 0;
	r->m.fork_ns = r->m.exec_ns = 0;
	return 1;
}

static int load_machine(struct replay *r, struct pm_diag *d)
{
	if (r->machine)
		return runspec_load_machine(&r->m, r->machine, r->cpus, d);
	int rc = recorded_machine(r, d);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	if (replay_capture_machine(&r->m, &r->rm,
				   r->capture_khz ? r->capture_khz : REPLAY_DEFAULT_CAPTURE_KHZ, d) < 0)
		return -1;
	return r->cpus ? runspec_load_machine_cpus(&r->m, r->cpus, d) : 0;
}

int replay_setup(struct replay *r, struct pm_diag *d)
{
	size_t len = strlen(r->file) + 8;

	bool some = r->keep.npids || r->keep.ncomms;
	if ((some ? replay_model_load_keep(&r->rm, r->file, &r->keep, d)
		  : replay_model_load(&r->rm, r->file, d)) < 0 ||
	    load_machine(r, d) < 0)
		return -1;
	if (r->rm.ncpus > r->m.online_cpus) {
		char where[512];

		replay_model_cpu_where(&r->rm, where, sizeof(where));
		return pm_fail(d, "%s: CPU %d, but machine %s has %d CPUs (expected a machine with "
			       "at least %d)", where, r->rm.ncpus - 1, r->m.name, r->m.online_cpus,
			       r->rm.ncpus);
	}
	/* The capture-like machine replays with no tick costs; --capture-khz
	 * is the replay workload's. */
	if (!r->machine) {
		r->pre[r->npre++] = "tick_cost_ns=0";
		r->pre[r->npre++] = "tick_stop_cost_ns=0";
	}
	if (r->capture_khz) {
		snprintf(r->capture_set, sizeof(r->capture_set), "capture_khz=%llu",
			 (unsigned long long)r->capture_khz);
		r->pre[r->npre++] = r->capture_set;
	}
	r->duration = (r->rm.t_end - r->rm.t0) * 100 + NS_PER_SEC;
	r->workload = malloc(len);
	if (!r->workload)
		return pm_fail(d, "out of memory");
	snprintf(r->workload, len, "replay:%s", r->file);
	return 0;
}

void replay_free(struct replay *r)
{
	replay_model_free(&r->rm);
	free(r->workload);
	r->workload = NULL;
}

void replay_write_summary(FILE *out, const struct replay_model *rm, const struct run_result *r)
{
	fprintf(out, "\nReplayed work: %llu of %u tasks in %.6f s simulated (traced: %.6f s), "
		"%.3f J\n", (unsigned long long)r->tasks_finished, rm->ntasks,
		(double)r->duration_ns / NS_PER_SEC, (double)(rm->t_end - rm->t0) / NS_PER_SEC,
		result_energy_j(r));
}

void replay_write_per_task(FILE *out, const struct replay_model *rm, struct sim *s,
			   const struct run_result *r)
{
	double tt = 0, tr = 0;

	fprintf(out, "\nPer task: CPU time traced and replayed\n  %-24s %12s %12s %8s\n", "task",
		"traced_ms", "replayed_ms", "diff_%");
	for (uint32_t id = 0; id < r->tasks_created; id++) {
		const struct task *t = sim_task(s, id);
		const struct replay_task *mt = &rm->tasks[t->wl_role];
		double a = (double)mt->busy_ns / 1e6, b = (double)t->sum_exec / 1e6;

		tt += a;
		tr += b;
		fprintf(out, "  %-24s %12.3f %12.3f %8.2f\n", t->name, a, b,
			a > 0 ? (b - a) / a * 100 : 0);
	}
	fprintf(out, "  %-24s %12.3f %12.3f %8.2f\n", "total", tt, tr,
		tt > 0 ? (tr - tt) / tt * 100 : 0);
}
