// SPDX-License-Identifier: GPL-2.0-only
/* pmlab machines detect: a machine model (an INI file machine_parse()
 * reads) of the machine under a hostfs root, from sysfs and /proc/cpuinfo:
 * packages, cores, SMT, last-level cache groups, CPU types and their
 * capacities (cpu_capacity; Intel's cpu_atom/cpu_core PMUs), the cpufreq
 * driver, its frequency tables, clock domains and base frequency, the
 * cpuidle driver and states (latency, target residency), frequency
 * invariance, and RAPL's power limits. What sysfs cannot tell -- voltages,
 * power coefficients, C-state power, kernel costs -- is guessed by stated
 * rules, and every guessed figure is marked by a "# guessed:" comment in
 * front of it. Settings of the moment (EPP, EPB, governors) are listed in
 * comments, not in the model. It works in a virtual machine (no cpufreq,
 * no cpuidle states) and on fake trees (--root). */
#ifndef PMLAB_MACHINE_DETECT_H
#define PMLAB_MACHINE_DETECT_H

#include "../core/diag.h"
#include "hostfs.h"

/* The INI text (malloc'd), checked by machine_parse(); NULL with the
 * reason in d when the tree cannot be modelled (no online CPUs, packages
 * that differ, more kinds of core than a machine file holds). */
char *machine_detect_ini(const struct hostfs *fs, struct pm_diag *d);

/* Writes this machine's file (root NULL: $PMLAB_ROOT, else /) to path,
 * as pmlab record does beside its trace; -1 with the reason in d. */
int machine_detect_write(const char *root, const char *path, struct pm_diag *d);

#endif
