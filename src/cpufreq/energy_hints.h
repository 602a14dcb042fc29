// SPDX-License-Identifier: GPL-2.0-only
/* The names of the two energy/performance hints, in one place for the
 * simulator's intel_pstate, the profile mapper and the host planner.
 *
 * energy_perf_bias (EPB, 0..15): the kernel's names (4.13+,
 * arch/x86/kernel/cpu/intel_epb.c energy_perf_strings), plus spellings
 * profiles use: x86_energy_perf_policy's "powersave" (15) and "default"
 * (6), and '_' for '-'.
 *
 * energy_performance_preference (EPP, 0..255): the presets of
 * intel_pstate (drivers/cpufreq/intel_pstate.c epp_values: 0, 0x80,
 * 0xC0, 0xFF) and amd-pstate (drivers/cpufreq/amd-pstate.c
 * AMD_CPPC_EPP_*: 0, 0x80, 0xBF, 0xFF), v6.6. */
#ifndef PMLAB_ENERGY_HINTS_H
#define PMLAB_ENERGY_HINTS_H

#include <stdbool.h>

/* The kernel's names as tunable words, "name=value", NULL-terminated. */
extern const char *const epb_words[];
/* intel_pstate's presets and "default" (the boot value); balance_performance
 * and default are -1: the model's balance_performance EPP (cpufreq_policy's
 * epp_balance_perf). */
extern const char *const epp_words[];
/* amd-pstate's presets and "default" (epp_default off a server: 0x80). */
extern const char *const amd_epp_words[];

/* An EPB name (the kernel's or another spelling) -> 0..15; -1 if none. */
int epb_value(const char *name);
/* The kernel's name for an EPB name's value ("powersave" -> "power");
 * `name` itself when it is the kernel's or no name at all. */
const char *epb_kernel_name(const char *name);

/* The EPP presets performance, balance_performance, balance_power and
 * power, in that order, with their value under each driver. */
int epp_preset_count(void);
const char *epp_preset_name(int i);
int epp_preset_value(int i, bool amd);

/* power-profiles-daemon's three profiles, in order power-saver, balanced,
 * performance (-1: not one of them), and the hints its drivers write for
 * each: profile_to_epp_pref() of ppd-driver-intel-pstate.c (0.12) and
 * ppd-driver-amd-pstate.c (0.13), profile_to_epb_pref() of the former. */
#define PPD_PROFILES 3
int ppd_profile_index(const char *name);
const char *ppd_profile_name(int i);
const char *ppd_epp(int i);
const char *ppd_epb(int i);

#endif
