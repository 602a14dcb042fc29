// SPDX-License-Identifier: GPL-2.0-only
/* The rules of the hardware models around the cores, as pure functions of
 * the machine (the engine applies them; tests check them one by one):
 * the uncore's power at a clock (uncore.c), a memory miss's latency at
 * given clocks (memory.c), what the energy/performance bias does to
 * C-state demotion and turbo (epb.c), and the platform's fans and power
 * supply (platform_power.c). */
#ifndef PMLAB_HWMODEL_H
#define PMLAB_HWMODEL_H

#include <stdint.h>

#include "../machine/machine.h"

/* Uncore power at clock khz ([uncore]); uncore_w without the section. */
double uncore_power_w(const struct machine *m, uint32_t khz);
/* A miss's latency at these clocks over its latency at 3 GHz core and
 * uncore ([memory]); 1 without the section. */
double memory_latency_scale(const struct machine *m, double core_ghz, double uncore_ghz);
/* A miss's latency, ns, at these clocks. */
double memory_latency_ns(const struct machine *m, double core_ghz, double uncore_ghz);
/* How much a stall stretches when a package's tasks ask demand_gbps of a
 * memory that gives peak_gbps (0: no limit): 1, or demand / peak. */
double memory_saturation(double demand_gbps, double peak_gbps);
/* How many target residencies of previous idle a deep C-state request
 * needs before the hardware grants it, at bias epb (0..15). */
double epb_demotion_x(const struct machine *m, int epb);
/* How long a request into the turbo range waits at bias epb. */
sim_ns epb_turbo_delay(const struct machine *m, int epb);
/* How long a core runs at its lowest P-state after a lowest_pstate
 * C-state (C1E) while its voltage ramps from from_mv to to_mv. */
sim_ns exit_ramp_ns(const struct machine *m, uint32_t from_mv, uint32_t to_mv);
/* Fans at the packages' mean power pkg_w; wall power for a DC load. */
double platform_fan_w(const struct machine *m, double pkg_w, int packages);
double platform_wall_w(const struct machine *m, double dc_w);
/* The flusher's period for pages dirtied at rate_bps under the vm.dirty_*
 * settings given: dirty_writeback while rate x expire stays under the
 * background ratio of memory, continuous (100 ms) above; 0: none. */
sim_ns writeback_period(const struct machine *m, int64_t background_ratio, int64_t writeback_cs,
			int64_t expire_cs, double rate_bps);

#endif
