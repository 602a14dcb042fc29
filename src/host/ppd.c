// SPDX-License-Identifier: GPL-2.0-only
/* power-profiles-daemon's profiles. See ppd.h. */
#include "ppd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cpufreq/energy_hints.h"

enum ppd_profile { PPD_POWER_SAVER, PPD_BALANCED, PPD_PERFORMANCE };

static const char *const summaries[] = {
	"power-profiles-daemon's power-saver, as ppd 0.12 (0.13 for amd-pstate) writes it",
	"power-profiles-daemon's balanced, as ppd 0.12 (0.13 for amd-pstate) writes it",
	"power-profiles-daemon's performance, as ppd 0.12 (0.13 for amd-pstate) writes it",
};
/* The hints per profile: energy_hints.h (ppd_epp(), ppd_epb()). */

static int setting(struct profile *p, const char *key, const char *value, const char *origin,
		   bool host_only, struct pm_diag *d)
{
	struct profile_setting *grown = realloc(p->settings,
						((size_t)p->nsettings + 1) * sizeof(*grown));
	if (!grown)
		return pm_fail(d, "out of memory");
	p->settings = grown;
	struct profile_setting *s = &p->settings[p->nsettings++];
	*s = (struct profile_setting){ .host_only = host_only };
	snprintf(s->key, sizeof(s->key), "%s", key);
	snprintf(s->value, sizeof(s->value), "%s", value);
	snprintf(s->origin, sizeof(s->origin), "%s", origin);
	snprintf(s->kv, sizeof(s->kv), "%s=%s", key, value);
	return 0;
}

/* verify_acpi_platform_profile_choices() */
static bool platform_probes(const struct host_info *hi)
{
	const char *c = hi->platform_profile_choices;
	return hi->has_platform_profile &&
	       (host_list_has(c, "low-power") || host_list_has(c, "cool") ||
		host_list_has(c, "quiet")) &&
	       host_list_has(c, "balanced") && host_list_has(c, "performance");
}

/* profile_to_acpi_platform_profile_value() */
static const char *platform_value(const struct host_info *hi, enum ppd_profile which)
{
	if (which == PPD_BALANCED)
		return "balanced";
	if (which == PPD_PERFORMANCE)
		return "performance";
	if (host_list_has(hi->platform_profile_choices, "low-power"))
		return "low-power";
	return host_list_has(hi->platform_profile_choices, "cool") ? "cool" : "quiet";
}

static bool any_epp(const struct host_info *hi)
{
	for (int i = 0; i < hi->npolicies; i++)
		if (hi->pol[i].has_epp)
			return true;
	return false;
}

int host_ppd_profile(struct profile *p, const char *spec, const struct hostfs *fs,
		     const struct host_info *hi, struct pm_diag *d)
{
	(void)fs;
	int which = -1;
	memset(p, 0, sizeof(*p));
	which = ppd_profile_index(spec + 4);
	if (which < 0)
		return pm_fail(d, "profile '%s': not one of power-profiles-daemon's (expected "
			       "ppd/power-saver, ppd/balanced or ppd/performance)", spec);
	snprintf(p->name, sizeof(p->name), "%s", spec);
	snprintf(p->path, sizeof(p->path), "built-in");
	snprintf(p->summary, sizeof(p->summary), "%s", summaries[which]);
	snprintf(p->driver, sizeof(p->driver), "%.31s",
		 hi->npolicies && hi->pol[0].driver[0] ? hi->pol[0].driver : "none");
	char origin[PROFILE_TEXT_MAX];
	int rc = 0;
	bool active = strcmp(hi->pstate_status, "active") == 0;

	if (platform_probes(hi)) {
		snprintf(origin, sizeof(origin), "%s: power-profiles-daemon 0.12 "
			 "ppd-driver-platform-profile.c (%s)", spec, ppd_profile_name(which));
		return setting(p, "platform_profile", platform_value(hi, which), origin, true, d);
	}
	/* The intel_pstate driver probes EPP (active mode) and EPB (any Intel
	 * CPU with energy_perf_bias, acpi-cpufreq too); amd-pstate only if it
	 * did not. */
	bool intel_epp = hi->intel_pstate && active && any_epp(hi);
	bool intel = intel_epp || hi->has_epb;
	bool amd = !intel && hi->amd_pstate && active && any_epp(hi);
	if (intel_epp || amd) {
		const char *file = intel ? "0.12 ppd-driver-intel-pstate.c" : "0.13 ppd-driver-amd-pstate.c";
		snprintf(origin, sizeof(origin), "%s: power-profiles-daemon %s probe_epp(): "
			 "\"Force a scaling_governor where the preference can be written\"", spec, file);
		snprintf(p->cpufreq, sizeof(p->cpufreq), "powersave");
		snprintf(p->cpufreq_origin, sizeof(p->cpufreq_origin), "%s", origin);
		snprintf(origin, sizeof(origin), "%s: power-profiles-daemon %s profile_to_epp_pref(%s)",
			 spec, file, ppd_profile_name(which));
		rc = setting(p, "energy_performance_preference", ppd_epp(which), origin, false, d);
	}
	if (rc == 0 && intel && hi->has_epb) {
		snprintf(origin, sizeof(origin), "%s: power-profiles-daemon 0.12 "
			 "ppd-driver-intel-pstate.c profile_to_epb_pref(%s)", spec, ppd_profile_name(which));
		rc = setting(p, "energy_perf_bias", ppd_epb(which), origin, false, d);
	}
	if (rc == 0 && !p->nsettings) {
		/* ppd's placeholder driver: it offers the profiles, changes nothing */
		struct profile_skip *s = calloc(1, sizeof(*s));
		if (!s)
			return pm_fail(d, "out of memory");
		snprintf(s->what, sizeof(s->what), "%s", spec);
		snprintf(s->origin, sizeof(s->origin), "power-profiles-daemon ppd-driver-placeholder.c");
		snprintf(s->why, sizeof(s->why), "no platform_profile with ppd's three choices, no "
			 "intel_pstate or amd-pstate in active mode with EPP, no EPB: ppd writes nothing");
		p->skipped = s;
		p->nskipped = 1;
	}
	if (rc < 0)
		profile_free(p);
	return rc;
}
