// SPDX-License-Identifier: GPL-2.0-only
/* The rest of the server at the wall, for machines with a [platform] or
 * [memory] section: what follows the work on top of platform_w, the idle
 * floor (memory at rest, disks and NIC idle, BMC, fans at their lowest):
 *   - DRAM: energy per 64-byte line moved ([memory] line_nj), the lines
 *     counted from the memory stall (engine/memory.c);
 *   - disk: disk_active_w while it serves I/O (the workload's I/O and the
 *     flusher's write-back);
 *   - NIC: nic_packet_uj per packet sent or received;
 *   - fans: from fan_min_w to fan_max_w with the cube of their speed, the
 *     speed rising linearly with the packages' mean power from idle to
 *     TDP (ESTIMATE of a server's fan curve; thermal time constants of
 *     tens of seconds make the run's mean power the fans' input);
 *   - the power supply: the wall draws DC / efficiency, the efficiency
 *     interpolated linearly in the load share between the 10, 20, 50 and
 *     100 % points (80 PLUS test points), at the run's mean DC power
 *     (flat below 10 %).
 * Without [platform] (psu_w 0) platform_w is wall power and nothing is
 * added for the PSU. */
#include <math.h>

#include "hwmodel.h"
#include "sim_internal.h"

static double psu_efficiency(const struct machine_platform *p, double dc_w)
{
	static const double at[4] = { 0.10, 0.20, 0.50, 1.00 };
	double x = dc_w / p->psu_w;
	if (x <= at[0])
		return p->psu_eff[0];
	for (int i = 1; i < 4; i++)
		if (x <= at[i])
			return p->psu_eff[i - 1] +
			       (p->psu_eff[i] - p->psu_eff[i - 1]) * (x - at[i - 1]) / (at[i] - at[i - 1]);
	return p->psu_eff[3];
}

double platform_fan_w(const struct machine *m, double pkg_w, int packages)
{
	const struct machine_platform *p = &m->plat;
	if (p->fan_max_w <= p->fan_min_w || m->tdp_w <= 0)
		return p->fan_min_w;
	double x = pkg_w / (m->tdp_w * packages);
	x = x < 0 ? 0 : x > 1 ? 1 : x;
	return p->fan_min_w + (p->fan_max_w - p->fan_min_w) * x * x * x;
}

double platform_wall_w(const struct machine *m, double dc_w)
{
	if (m->plat.psu_w <= 0)
		return dc_w;
	return dc_w / psu_efficiency(&m->plat, dc_w);
}

void platform_power_collect(const struct sim *s, struct run_result *r)
{
	const struct machine *m = s->m;
	double secs = (double)s->now * 1e-9;
	struct platform_energy *pe = &r->platform;
	pe->floor_j = m->platform_w * secs;
	pe->dram_j = s->dram_lines * m->mem.line_nj * 1e-9;
	pe->disk_j = m->plat.disk_active_w * (double)s->disk_busy_ns * 1e-9;
	pe->nic_j = s->nic_packets * m->plat.nic_packet_uj * 1e-6;
	double pkg_j = r->energy_core_dynamic_j + r->energy_core_static_j + r->energy_uncore_j;
	pe->fans_j = secs > 0 ? platform_fan_w(m, pkg_j / secs, s->npkgs) * secs : 0;
	double dc_j = pkg_j + pe->floor_j + pe->dram_j + pe->disk_j + pe->nic_j + pe->fans_j;
	pe->psu_loss_j = secs > 0 ? (platform_wall_w(m, dc_j / secs) - dc_j / secs) * secs : 0;
	r->energy_platform_j = pe->floor_j + pe->dram_j + pe->disk_j + pe->nic_j + pe->fans_j +
			       pe->psu_loss_j;
}
