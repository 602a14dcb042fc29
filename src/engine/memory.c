// SPDX-License-Identifier: GPL-2.0-only
/* Memory stall at the present clocks, for machines with a [memory]
 * section. A workload gives a burst's stall as the time a 3 GHz core with a
 * 3 GHz uncore waits on memory. The wait is latency-bound: a miss's
 * latency splits into the core's clock (L1/L2 miss handling), the uncore's
 * (ring, LLC lookup, home agent; fixed on machines without [uncore], as a
 * front-side bus is) and DRAM's fixed part, and the misses in flight (mlp)
 * are the same at any clock, so the stall scales as the latency:
 *   stall = stall_ref * (core_cycles / f_core + uncore_cycles / f_uncore + dram_ns)
 *                     / (core_cycles / 3 GHz + uncore_cycles / 3 GHz + dram_ns).
 * Bandwidth-bound stall: a task stalled on memory asks for mlp lines per
 * miss latency (its own mlp, a streaming loop's line-fill buffers, or the
 * machine's); while the package's running tasks together ask for more than
 * its memory gives ([memory] peak_gbps, the data sheet's bandwidth), a
 * burst that starts has its stall stretched by demand / peak, so the
 * package moves at most peak_gbps. Each burst's demand is its stall share
 * times its stall's rate; the factor is taken at the burst's start (as the
 * clocks are), which is exact for fully memory-bound bursts and an upper
 * bound for partly bound ones. The seeds' workloads move a few percent of
 * their machines' bandwidth, so this is for streaming work.
 *
 * Coherence: while a task's sharing group (the jobs of one build) also
 * runs on another package, snoop_pct of its misses find their line there
 * or must snoop it (front-side bus snoops through the chipset on
 * Harpertown, QPI later) and cost snoop_x local misses, in proportion to
 * the group's recent activity on other packages (engine/share.c's record).
 *
 * DRAM traffic for the platform power model: each stalled ns moves mlp
 * lines per miss latency. */
#include "hwmodel.h"
#include "sim_internal.h"

#define REF_GHZ 3.0

static bool machine_has_model(const struct machine *m)
{
	return m->mem.core_cycles + m->mem.uncore_cycles + m->mem.dram_ns > 0;
}

/* The same, asked at every burst: kept once known (the machine is
 * fixed for the run). */
static bool has_model(struct sim *s)
{
	if (!s->mem_model)
		s->mem_model = machine_has_model(s->m) ? 1 : -1;
	return s->mem_model > 0;
}

double memory_latency_ns(const struct machine *m, double core_ghz, double uncore_ghz)
{
	const struct machine_memory *mm = &m->mem;
	return mm->core_cycles / core_ghz + mm->uncore_cycles / uncore_ghz + mm->dram_ns;
}

double memory_latency_scale(const struct machine *m, double core_ghz, double uncore_ghz)
{
	if (!machine_has_model(m))
		return 1.0;
	return memory_latency_ns(m, core_ghz, uncore_ghz) / memory_latency_ns(m, REF_GHZ, REF_GHZ);
}

/* The clocks c runs at (GHz), the miss latency there and its scale to the
 * reference: computed again only when the clocks differ from those last
 * asked in the same slot (the same figures either way). The slot is picked
 * by the clocks in 100 MHz steps, so that CPUs at different P-states do not
 * evict each other. */
static const struct mem_clocks *clocks(struct sim *s, const struct sim_cpu *c)
{
	uint32_t khz = cpu_khz(s, c), unc_khz = s->pkgs[c->pkg].unc_khz;
	struct mem_clocks *at = &s->mem_at[(khz + unc_khz) / 100000 % 4];
	if (at->valid && at->khz == khz && at->unc_khz == unc_khz)
		return at;
	double fc = khz / 1e6, fu = unc_khz ? unc_khz / 1e6 : REF_GHZ;
	at->valid = true;
	at->khz = khz;
	at->unc_khz = unc_khz;
	at->core_ghz = fc;
	at->uncore_ghz = fu;
	at->latency_ns = memory_latency_ns(s->m, fc, fu);
	at->scale = memory_latency_scale(s->m, fc, fu);
	return at;
}

/* The latency scale, and the coherence traffic of a group spread over
 * packages, at the clocks `at`. */
static double stall_factor_at(struct sim *s, const struct sim_cpu *c, const struct task *t,
			      const struct mem_clocks *at)
{
	const struct machine_memory *mm = &s->m->mem;
	double f = at->scale;
	if (mm->snoop_share > 0 && t->share_group)
		f *= 1.0 + mm->snoop_share * (mm->snoop_x - 1.0) * share_remote_share(s, t, c->pkg);
	return f;
}

static double task_mlp(const struct sim *s, const struct task *t)
{
	return t->mlp > 0 ? t->mlp : s->m->mem.mlp;
}

/* DRAM traffic for the platform power model: mlp lines per miss latency. */
static void account_at(struct sim *s, const struct task *t, double stall_ns,
		       const struct mem_clocks *at)
{
	if (stall_ns > 0)
		s->dram_lines += stall_ns * task_mlp(s, t) / at->latency_ns;
}

double memory_saturation(double demand_gbps, double peak_gbps)
{
	if (!(peak_gbps > 0) || demand_gbps <= peak_gbps)
		return 1.0;
	return demand_gbps / peak_gbps;
}

/* Whether the package's demand is sure to stay at or below its peak
 * whatever runs: every burst's demand so far, stall_ns / busy * mlp * 64 /
 * latency, is at most B = mlp_max * 64 / latency_min (its stall share is at
 * most 1, and each rounding step is monotonic), so the running sum below,
 * over at most ncpus bursts, is at most B added to itself ncpus times. The
 * bound moves only when a burst brings a larger mlp or a shorter latency. */
static bool demand_below_peak(struct sim *s, double mlp, double latency_ns, double peak)
{
	if (mlp <= s->mem_bw_mlp_max &&
	    (s->mem_bw_latency_min > 0 && latency_ns >= s->mem_bw_latency_min))
		return s->mem_bw_below_peak;
	if (mlp > s->mem_bw_mlp_max)
		s->mem_bw_mlp_max = mlp;
	if (!(s->mem_bw_latency_min > 0) || latency_ns < s->mem_bw_latency_min)
		s->mem_bw_latency_min = latency_ns;
	double bound = s->mem_bw_mlp_max * 64.0 / s->mem_bw_latency_min, sum = 0;
	for (int i = 0; i < s->ncpus; i++)
		sum += bound;
	s->mem_bw_below_peak = sum <= peak;
	return s->mem_bw_below_peak;
}

/* memory_bandwidth_factor() at the clocks `at` (the model's machine). */
static double bandwidth_factor_at(struct sim *s, const struct sim_cpu *c, struct task *t,
				  double cycles, double stall_ns, const struct mem_clocks *at)
{
	t->mem_gbps = 0;
	double peak = s->m->mem.peak_gbps;
	if (!(peak > 0) || !(stall_ns > 0))
		return 1.0;
	double fc = at->core_ghz;
	double busy = (cycles > 0 ? cycles / fc : 0) + stall_ns; /* fc: cycles per ns */
	/* 64-byte lines per latency while it stalls, bytes per ns = GB/s */
	double mlp = task_mlp(s, t);
	t->mem_gbps = stall_ns / busy * mlp * 64.0 / at->latency_ns;
	if (demand_below_peak(s, mlp, at->latency_ns, peak))
		return 1.0; /* the sum below could not exceed the peak */
	double demand = t->mem_gbps;
	const struct cpu_group *g = &s->topo.pkg[c->pkg];
	for (int i = 0; i < g->n; i++) {
		const struct sim_cpu *o = &s->cpus[g->cpu[i]];
		if (o != c && o->mode == CPU_RUNNING && o->curr && o->curr->in_burst)
			demand += o->curr->mem_gbps;
	}
	return memory_saturation(demand, peak);
}

double memory_bandwidth_factor(struct sim *s, const struct sim_cpu *c, struct task *t,
			       double cycles, double stall_ns)
{
	if (!has_model(s)) {
		t->mem_gbps = 0;
		return 1.0;
	}
	return bandwidth_factor_at(s, c, t, cycles, stall_ns, clocks(s, c));
}

/* The steps of a burst's stall in their order, the clocks looked up once
 * (the same for all: nothing between them moves a clock, and the slot
 * `at` points into is rewritten only by clocks()): */
double memory_burst_stall_model(struct sim *s, const struct sim_cpu *c, struct task *t,
				double cycles, double stall_ns)
{
	if (!has_model(s)) {
		/* every factor 1: only the cache's warmth */
		t->mem_gbps = 0;
		return t->share_group ? stall_ns * share_stall_factor(s, t, c->llc) : stall_ns;
	}
	const struct mem_clocks *at = clocks(s, c);
	stall_ns *= stall_factor_at(s, c, t, at);
	if (t->share_group)
		stall_ns *= share_stall_factor(s, t, c->llc);
	account_at(s, t, stall_ns, at);
	return stall_ns * bandwidth_factor_at(s, c, t, cycles, stall_ns, at);
}
