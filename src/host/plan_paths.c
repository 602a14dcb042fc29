// SPDX-License-Identifier: GPL-2.0-only
/* The files a plan may write. See plan_paths.h. */
#include "plan_paths.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>

#define CPU "sys/devices/system/cpu/"

const char *const host_plan_paths[] = {
	/* cpufreq: the policy's governor, limits, boost, EPP; govd's setspeed */
	CPU "cpufreq/policy#/scaling_governor",
	CPU "cpufreq/policy#/scaling_min_freq",
	CPU "cpufreq/policy#/scaling_max_freq",
	CPU "cpufreq/policy#/scaling_setspeed",
	CPU "cpufreq/policy#/boost",
	CPU "cpufreq/policy#/energy_performance_preference",
	/* governor tunables, per policy or global */
	CPU "cpufreq/policy#/*/*",
	CPU "cpufreq/*/*",
	CPU "cpufreq/boost",
	CPU "intel_pstate/no_turbo",
	CPU "intel_pstate/min_perf_pct",
	CPU "intel_pstate/max_perf_pct",
	CPU "cpu#/power/energy_perf_bias",
	CPU "cpu#/power/pm_qos_resume_latency_us",
	CPU "cpu#/cpuidle/state#/disable",
	CPU "cpuidle/current_governor",
	/* the ACPI platform profile (tuned's [acpi], power-profiles-daemon) */
	"sys/firmware/acpi/platform_profile",
	/* scheduler: the sysctls of older kernels, debugfs from 5.13 */
	CPU "sched_mc_power_savings",
	"proc/sys/kernel/sched_migration_cost_ns",
	"proc/sys/kernel/sched_min_granularity_ns",
	"proc/sys/kernel/sched_wakeup_granularity_ns",
	"proc/sys/kernel/sched_latency_ns",
	"sys/kernel/debug/sched/migration_cost_ns",
	"sys/kernel/debug/sched/min_granularity_ns",
	"sys/kernel/debug/sched/base_slice_ns",
	"sys/kernel/debug/sched/wakeup_granularity_ns",
	"sys/kernel/debug/sched/latency_ns",
};
const int host_plan_npaths = (int)(sizeof(host_plan_paths) / sizeof(host_plan_paths[0]));

static bool is_name_char(char c)
{
	return islower((unsigned char)c) || isdigit((unsigned char)c) || c == '_';
}

static bool match(const char *pat, const char *s)
{
	for (; *pat; pat++) {
		if (*pat == '#' || *pat == '*') {
			size_t n = 0;
			while (*pat == '#' ? isdigit((unsigned char)s[n]) : is_name_char(s[n]))
				n++;
			if (n == 0 || (*pat == '#' && n > 9))
				return false;
			s += n;
		} else if (*s++ != *pat) {
			return false;
		}
	}
	return *s == '\0';
}

bool host_plan_path_ok(const char *rel)
{
	/* Most patterns start with the CPU directory: compare it once. */
	static const size_t cpu_len = sizeof(CPU) - 1;
	bool under_cpu = strncmp(rel, CPU, cpu_len) == 0;
	for (int i = 0; i < host_plan_npaths; i++) {
		const char *pat = host_plan_paths[i];
		bool pat_cpu = strncmp(pat, CPU, cpu_len) == 0;
		if (pat_cpu != under_cpu)
			continue;
		if (pat_cpu ? match(pat + cpu_len, rel + cpu_len) : match(pat, rel))
			return true;
	}
	return false;
}
