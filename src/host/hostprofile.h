// SPDX-License-Identifier: GPL-2.0-only
/* A tuned profile resolved for this machine rather than a simulated one.
 *
 * The profile loader (src/profile) evaluates conditions and alternatives
 * against a struct machine and maps [cpu] options according to the
 * cpufreq driver it models. For the host: the machine is built from the
 * inventory (its C-states, so cstate.id:N means this machine's stateN;
 * its model name for cpuinfo_regex), and the driver modelled is the one
 * that runs here -- intel_pstate's two policies for intel_pstate and
 * amd-pstate-epp, the generic governors otherwise, where a second load as
 * intel_pstate supplies the EPB/EPP/perf_pct/no_turbo hints the first
 * one would skip. The plan then checks every value against this
 * machine's files and `a|b` alternatives against its lists. */
#ifndef PMLAB_HOSTPROFILE_H
#define PMLAB_HOSTPROFILE_H

#include <stdbool.h>

#include "../machine/machine.h"
#include "../profile/profile.h"
#include "inventory.h"

/* A machine model with this machine's CPUs and C-states. */
void host_machine(struct machine *m, const struct hostfs *fs, const struct host_info *hi);
/* intel_pstate or amd-pstate-epp in active mode: performance|powersave
 * are the driver's own algorithms. */
bool host_driver_owns_policies(const struct host_info *hi);
int host_profile_load(struct profile *p, const char *spec, const struct hostfs *fs,
		      const struct host_info *hi, const char *const *dirs, int ndirs,
		      struct pm_diag *d);

#endif
