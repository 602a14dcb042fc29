// SPDX-License-Identifier: GPL-2.0-only
/* The rules of a machine's optional [uncore], [memory], [platform] and
 * [energy_bias] sections (the models that use them: engine/uncore.c,
 * engine/memory.c, engine/platform_power.c, engine/epb.c). Each section is
 * off when absent, and then the machine behaves as before it existed. */
#include "machine_lines.h"

#include <math.h>
#include <stdbool.h>

#define LN(field) (ln ? ln->field : 0)
#define FAIL(line, ...) pm_fail_at(d, where, (line), __VA_ARGS__)

static bool within(double x, double lo, double hi)
{
	return isfinite(x) && x >= lo && x <= hi;
}

static int check_uncore(const struct machine *m, const struct machine_lines *ln,
			const char *where, struct pm_diag *d)
{
	const struct machine_uncore *u = &m->unc;
	if (!u->max_khz)
		return 0;
	if (u->min_khz == 0 || u->min_khz > u->max_khz)
		return FAIL(LN(unc_min_khz), "[uncore] min_khz = %u is out of range (expected "
			    "1..max_khz = %u kHz)", u->min_khz, u->max_khz);
	if (u->max_khz > 100000000u)
		return FAIL(LN(unc_max_khz), "[uncore] max_khz = %u is out of range (expected "
			    "at most 100000000 kHz)", u->max_khz);
	if (u->min_mv <= 0 || u->max_mv > 5000 || u->min_mv > u->max_mv)
		return FAIL(LN(unc_min_mv), "[uncore] min_mv = %d, max_mv = %d are out of range "
			    "(expected 0 < min_mv <= max_mv <= 5000 mV)", u->min_mv, u->max_mv);
	if (!within(u->static_w, 0, m->uncore_w))
		return FAIL(LN(unc_static), "[uncore] static_w = %g is out of range (expected "
			    "0..uncore_w = %g W)", u->static_w, m->uncore_w);
	if (u->epb_max_clock < -1 || u->epb_max_clock > 15)
		return FAIL(LN(unc_epb), "[uncore] epb_max_clock = %d is out of range (expected "
			    "-1..15; -1: never at the top clock for the bias alone)", u->epb_max_clock);
	return 0;
}

static int check_memory(const struct machine *m, const struct machine_lines *ln,
			const char *where, struct pm_diag *d)
{
	const struct machine_memory *mm = &m->mem;
	if (!ln || !ln->memory) {
		if (mm->core_cycles + mm->uncore_cycles + mm->dram_ns == 0)
			return 0;
	}
	if (!within(mm->core_cycles, 0, 1e6) || !within(mm->uncore_cycles, 0, 1e6) ||
	    !within(mm->dram_ns, 0, 1e6) || mm->core_cycles + mm->uncore_cycles + mm->dram_ns <= 0)
		return FAIL(LN(memory), "[memory] core_cycles = %g, uncore_cycles = %g, dram_ns = %g "
			    "(expected values >= 0, not all 0)", mm->core_cycles, mm->uncore_cycles,
			    mm->dram_ns);
	if (!within(mm->mlp, 1, 64))
		return FAIL(LN(mem_mlp), "[memory] mlp = %g is out of range (expected 1..64 misses "
			    "in flight)", mm->mlp);
	if (!within(mm->line_nj, 0, 1e6))
		return FAIL(LN(mem_line), "[memory] line_nj = %g is out of range (expected nJ >= 0)",
			    mm->line_nj);
	if (!within(mm->snoop_share, 0, 1))
		return FAIL(LN(mem_snoop_share), "[memory] snoop_pct = %g is out of range (expected "
			    "0..100)", mm->snoop_share * 100);
	if (!within(mm->size_mb, 0, 1e9))
		return FAIL(LN(mem_size), "[memory] size_mb = %g is out of range (expected MiB >= 0)",
			    mm->size_mb);
	if (!within(mm->peak_gbps, 0, 1e6))
		return FAIL(LN(mem_peak), "[memory] peak_gbps = %g is out of range (expected GB/s "
			    ">= 0; 0: no limit)", mm->peak_gbps);
	if (!within(mm->snoop_x, 1, 100))
		return FAIL(LN(mem_snoop_x), "[memory] snoop_x = %g is out of range (expected "
			    "1..100 times a local miss)", mm->snoop_x);
	return 0;
}

static int check_platform(const struct machine *m, const struct machine_lines *ln,
			  const char *where, struct pm_diag *d)
{
	const struct machine_platform *p = &m->plat;
	static const char *const eff[] = { "psu_eff_10_pct", "psu_eff_20_pct", "psu_eff_50_pct",
					   "psu_eff_100_pct" };
	if (!within(p->psu_w, 0, 1e6))
		return FAIL(LN(psu_w), "[platform] psu_w = %g is out of range (expected W >= 0)",
			    p->psu_w);
	for (int i = 0; p->psu_w > 0 && i < 4; i++)
		if (!within(p->psu_eff[i], 0.3, 1))
			return FAIL(LN(psu_eff[i]) ? LN(psu_eff[i]) : LN(psu_w), "[platform] %s = %g "
				    "is out of range (expected 30..100 with psu_w given)", eff[i],
				    p->psu_eff[i] * 100);
	if (!within(p->disk_active_w, 0, 1e6))
		return FAIL(LN(disk_active), "[platform] disk_active_w = %g is out of range "
			    "(expected W >= 0)", p->disk_active_w);
	if (!within(p->nic_packet_uj, 0, 1e6))
		return FAIL(LN(nic_packet), "[platform] nic_packet_uj = %g is out of range "
			    "(expected uJ >= 0)", p->nic_packet_uj);
	if (!within(p->disk_mbps, 0, 1e7))
		return FAIL(LN(disk_mbps), "[platform] disk_mbps = %g is out of range "
			    "(expected MB/s >= 0)", p->disk_mbps);
	if (!within(p->fan_min_w, 0, 1e6) || !within(p->fan_max_w, p->fan_min_w, 1e6))
		return FAIL(LN(fan_max) ? LN(fan_max) : LN(fan_min), "[platform] fan_min_w = %g, "
			    "fan_max_w = %g (expected 0 <= fan_min_w <= fan_max_w)", p->fan_min_w,
			    p->fan_max_w);
	return 0;
}

static int check_energy_bias(const struct machine *m, const struct machine_lines *ln,
			     const char *where, struct pm_diag *d)
{
	const struct machine_energy_bias *e = &m->epb;
	if (e->demotion_x != 0 && !within(e->demotion_x, 1, 100))
		return FAIL(LN(epb_demotion), "[energy_bias] demotion_x = %g is out of range "
			    "(expected 0 (no effect) or 1..100 target residencies)", e->demotion_x);
	if (e->turbo_delay_ns < 0 || e->turbo_delay_ns > NS_PER_SEC)
		return FAIL(LN(epb_turbo_delay), "[energy_bias] turbo_delay_us is out of range "
			    "(expected 0..1000000 us)");
	return 0;
}

int machine_check_platform(const struct machine *m, const struct machine_lines *ln,
			   const char *where, struct pm_diag *d)
{
	if (check_uncore(m, ln, where, d) || check_memory(m, ln, where, d) ||
	    check_platform(m, ln, where, d) || check_energy_bias(m, ln, where, d))
		return -1;
	return 0;
}
