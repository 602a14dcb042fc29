// SPDX-License-Identifier: GPL-2.0-only
/* power-profiles-daemon's three profiles on a machine model (pmlab sim
 * --profile ppd/NAME): what the daemon would write on that machine, as
 * host/ppd.c builds it for the real one.
 *
 * ppd 0.12's ppd-driver-intel-pstate.c probes EPP (intel_pstate in active
 * mode with HWP: energy_performance_preference exists only then) and EPB
 * (Intel processors), forcing scaling_governor=powersave where it writes
 * EPP; ppd 0.13's ppd-driver-amd-pstate.c probes EPP under amd-pstate-epp
 * and forces powersave likewise; profile_to_epp_pref() and
 * profile_to_epb_pref() give power/balance_performance/performance and
 * 15/6/0. A machine model has no ACPI platform_profile, which ppd would
 * prefer where the firmware offers one (ppd-driver-platform-profile.c).
 * Without EPP or EPB ppd runs its placeholder driver and changes nothing. */
#include <stdio.h>
#include <string.h>

#include "../cpufreq/energy_hints.h"
#include "profile_internal.h"

static bool is(const char *a, const char *b)
{
	return a && strcmp(a, b) == 0;
}

int pf_ppd_profile(struct profile *p, const char *spec, const struct machine *m,
		   const struct profile_env *env, struct pm_diag *d)
{
	int which = ppd_profile_index(spec + 4);
	if (which < 0)
		return pm_fail(d, "profile '%s': not one of power-profiles-daemon's (expected "
			       "ppd/power-saver, ppd/balanced or ppd/performance)", spec);
	const char *gov = env && env->cpufreq ? env->cpufreq : "performance";
	enum cpufreq_driver_kind k = m->cpufreq_driver;
	bool intel_epp = is(gov, "intel_pstate") && m->hwp;
	bool amd_epp = is(gov, "amd_pstate");
	/* Intel processors have EPB whatever the cpufreq driver; the model
	 * knows the vendor from its Intel drivers. */
	bool epb = is(gov, "intel_pstate") || k == CPUFREQ_DRIVER_INTEL_PSTATE ||
		   k == CPUFREQ_DRIVER_INTEL_CPUFREQ;
	const char *file = amd_epp ? "0.13 ppd-driver-amd-pstate.c" : "0.12 ppd-driver-intel-pstate.c";
	char origin[PROFILE_TEXT_MAX];
	int rc = 0;

	snprintf(p->name, sizeof(p->name), "%s", spec);
	snprintf(p->path, sizeof(p->path), "built-in");
	snprintf(p->summary, sizeof(p->summary), "power-profiles-daemon's %s, as ppd 0.12 (0.13 for "
		 "amd-pstate) writes it on this machine", ppd_profile_name(which));
	snprintf(p->daemon, sizeof(p->daemon), "power-profiles-daemon %s",
		 intel_epp || amd_epp || epb ? file : "ppd-driver-placeholder.c");
	snprintf(p->driver, sizeof(p->driver), "%s", amd_epp ? "amd-pstate-epp" :
		 is(gov, "intel_pstate") ? "intel_pstate" : machine_cpufreq_driver_name(k));
	if (intel_epp || amd_epp) {
		snprintf(origin, sizeof(origin), "%s: power-profiles-daemon %s probe_epp(): \"Force "
			 "a scaling_governor where the preference can be written\"", spec, file);
		rc = pf_add_setting(p, "scaling_governor", "powersave", origin, d);
		snprintf(origin, sizeof(origin), "%s: power-profiles-daemon %s "
			 "profile_to_epp_pref(%s)", spec, file, ppd_profile_name(which));
		if (rc == 0)
			rc = pf_add_setting(p, "energy_performance_preference", ppd_epp(which), origin,
					    d);
	}
	if (rc == 0 && epb) {
		snprintf(origin, sizeof(origin), "%s: power-profiles-daemon 0.12 "
			 "ppd-driver-intel-pstate.c profile_to_epb_pref(%s)", spec,
			 ppd_profile_name(which));
		rc = pf_add_setting(p, "energy_perf_bias", ppd_epb(which), origin, d);
	}
	if (rc == 0 && !p->nsettings)
		rc = pf_add_skip(p, spec, "power-profiles-daemon ppd-driver-placeholder.c",
				 "no EPP (intel_pstate with HWP, amd-pstate-epp) nor EPB here, no "
				 "platform_profile in a model: ppd writes nothing", d);
	return rc;
}
