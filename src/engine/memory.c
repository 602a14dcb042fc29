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

static bool has_model(const struct machine *m)
{
	return m->mem.core_cycles + m->mem.uncore_cycles + m->mem.dram_ns > 0;
}

double memory_latency_ns(const struct machine *m, double core_ghz, double uncore_ghz)
{
	const struct machine_memory *mm = &m->mem;
	return mm->core_cycles / core_ghz + mm->uncore_cycles / uncore_ghz + mm->dram_ns;
}

double memory_latency_scale(const struct machine *m, double core_ghz, double uncore_ghz)
{
	if (!has_model(m))
		return 1.0;
	return memory_latency_ns(m, core_ghz, uncore_ghz) / memory_latency_ns(m, REF_GHZ, REF_GHZ);
}

/* The clocks c runs at (GHz), the miss latency there and its scale to the
 * reference: computed again only when the clocks differ from the last
 * asked (the same figures either way). */
static void clocks(struct sim *s, const struct sim_cpu *c)
{
	uint32_t khz = cpu_khz(s, c), unc_khz = s->pkgs[c->pkg].unc_khz;
	if (s->mem_at.valid && s->mem_at.khz == khz && s->mem_at.unc_khz == unc_khz)
		return;
	double fc = khz / 1e6, fu = unc_khz ? unc_khz / 1e6 : REF_GHZ;
	s->mem_at.valid = true;
	s->mem_at.khz = khz;
	s->mem_at.unc_khz = unc_khz;
	s->mem_at.core_ghz = fc;
	s->mem_at.uncore_ghz = fu;
	s->mem_at.latency_ns = memory_latency_ns(s->m, fc, fu);
	s->mem_at.scale = memory_latency_scale(s->m, fc, fu);
}

double memory_stall_factor(struct sim *s, const struct sim_cpu *c, const struct task *t)
{
	const struct machine_memory *mm = &s->m->mem;
	if (!has_model(s->m))
		return 1.0;
	clocks(s, c);
	double f = s->mem_at.scale;
	if (mm->snoop_share > 0 && t->share_group)
		f *= 1.0 + mm->snoop_share * (mm->snoop_x - 1.0) * share_remote_share(s, t, c->pkg);
	return f;
}

static double task_mlp(const struct sim *s, const struct task *t)
{
	return t->mlp > 0 ? t->mlp : s->m->mem.mlp;
}

void memory_account(struct sim *s, const struct sim_cpu *c, const struct task *t, double stall_ns)
{
	if (!has_model(s->m) || !(stall_ns > 0))
		return;
	clocks(s, c);
	s->dram_lines += stall_ns * task_mlp(s, t) / s->mem_at.latency_ns;
}

double memory_saturation(double demand_gbps, double peak_gbps)
{
	if (!(peak_gbps > 0) || demand_gbps <= peak_gbps)
		return 1.0;
	return demand_gbps / peak_gbps;
}

double memory_bandwidth_factor(struct sim *s, const struct sim_cpu *c, struct task *t,
			       double cycles, double stall_ns)
{
	t->mem_gbps = 0;
	double peak = s->m->mem.peak_gbps;
	if (!has_model(s->m) || !(peak > 0) || !(stall_ns > 0))
		return 1.0;
	clocks(s, c);
	double fc = s->mem_at.core_ghz;
	double busy = (cycles > 0 ? cycles / fc : 0) + stall_ns; /* fc: cycles per ns */
	/* 64-byte lines per latency while it stalls, bytes per ns = GB/s */
	t->mem_gbps = stall_ns / busy * task_mlp(s, t) * 64.0 / s->mem_at.latency_ns;
	double demand = t->mem_gbps;
	const struct cpu_group *g = &s->topo.pkg[c->pkg];
	for (int i = 0; i < g->n; i++) {
		const struct sim_cpu *o = &s->cpus[g->cpu[i]];
		if (o != c && o->mode == CPU_RUNNING && o->curr && o->curr->in_burst)
			demand += o->curr->mem_gbps;
	}
	return memory_saturation(demand, peak);
}
