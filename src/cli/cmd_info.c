// SPDX-License-Identifier: GPL-2.0-only
/* pmlab info: this machine's power management as pmlab sees it, like
 * cpupower frequency-info and idle-info together -- drivers, governors,
 * limits, C-states, PM QoS, RAPL -- the kind of machine, and what pmlab
 * can and cannot change here. Reads only (hostfs, --root). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../host/inventory.h"
#include "../host/machine_kind.h"
#include "../metrics/texttable.h"
#include "cli.h"

void usage_info(void)
{
	printf("usage: pmlab info [--root DIR]\n\n"
	       "Summarise this machine's CPU power management, as cpupower frequency-info and\n"
	       "idle-info do: the kind of machine (virtual machine, laptop, server) and the\n"
	       "tuned profile tuned-adm recommend would pick; per cpufreq policy its CPUs,\n"
	       "driver, governor and the available ones, hardware and policy limits, base\n"
	       "frequency, boost and energy_performance_preference; intel_pstate/amd_pstate;\n"
	       "the cpuidle driver, governor and states (latency, target residency); PM QoS,\n"
	       "EPB and RAPL; then what pmlab profile apply and govd can change here and what\n"
	       "not, with the reason. Reads only.\n\n"
	       "options:\n"
	       "      --root DIR   the system root (default $PMLAB_ROOT, else /)\n");
}

static void mhz(char *buf, size_t len, uint32_t khz)
{
	if (!khz)
		snprintf(buf, len, "-");
	else if (khz >= 1000000)
		snprintf(buf, len, "%.2f GHz", khz / 1e6);
	else
		snprintf(buf, len, "%u MHz", khz / 1000);
}

/* "0-3,6" from a sorted list. */
static void cpulist(char *buf, size_t len, const int *cpus, int n)
{
	size_t at = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && at < len; i++) {
		int j = i;
		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		at += (size_t)snprintf(buf + at, len - at, "%s%d", i ? "," : "", cpus[i]);
		if (j > i && at < len)
			at += (size_t)snprintf(buf + at, len - at, "-%d", cpus[j]);
		i = j;
	}
}

static void frequency(const struct host_info *hi)
{
	char a[32], b[32], c[32], list[HOST_LIST_MAX];
	printf("\nfrequency (cpufreq)\n");
	if (!hi->npolicies) {
		printf("  no cpufreq driver: the clock is where the firmware keeps it; no governor, "
		       "limits, boost or EPP\n");
		return;
	}
	for (int i = 0; i < hi->npolicies; i++) {
		const struct host_policy *p = &hi->pol[i];
		cpulist(list, sizeof(list), p->cpus, p->ncpus);
		printf("  policy%d  CPUs %s  driver %s  governor %s\n", p->id, list, p->driver,
		       p->governor);
		printf("    available governors: %s\n", p->governors[0] ? p->governors : "-");
		mhz(a, sizeof(a), p->cpuinfo_min);
		mhz(b, sizeof(b), p->cpuinfo_max);
		mhz(c, sizeof(c), p->base_khz);
		printf("    hardware limits: %s - %s, base %s", a, b, c);
		mhz(a, sizeof(a), p->scaling_min);
		mhz(b, sizeof(b), p->scaling_max);
		printf("; policy limits: %s - %s\n", a, b);
		if (p->nfreqs) {
			printf("    frequencies (MHz):");
			for (int k = 0; k < p->nfreqs; k++)
				printf("%s %u", k ? "," : "", p->freqs[k] / 1000);
			printf("\n");
		}
		if (p->transition_latency_ns)
			printf("    transition latency: %.0f us\n", (double)p->transition_latency_ns / 1e3);
		if (p->has_epp)
			printf("    energy_performance_preference: available %s\n", p->epps);
	}
	if (hi->intel_pstate || hi->amd_pstate)
		printf("  %s: status %s\n", hi->intel_pstate ? "intel_pstate" : "amd_pstate",
		       hi->pstate_status[0] ? hi->pstate_status : "-");
}

static void idle(const struct hostfs *fs, const struct host_info *hi)
{
	printf("\nidle (cpuidle)\n");
	if (!hi->ncstates) {
		printf("  no cpuidle states (driver %s): the idle loop halts the CPU%s\n",
		       hi->idle_driver[0] ? hi->idle_driver : "none",
		       hi->idle_governor[0] ? "" : "; no idle governor runs");
		return;
	}
	printf("  driver %s  governor %s  (available: %s)\n", hi->idle_driver,
	       hi->idle_governor[0] ? hi->idle_governor : "-",
	       hi->idle_governors[0] ? hi->idle_governors : "-");
	printf("  %-5s %-10s %12s %14s  %s\n", "state", "name", "latency_us", "residency_us",
	       "description");
	for (int s = 0; s < hi->ncstates; s++)
		printf("  %-5d %-10s %12llu %14llu  %s\n", s, hi->cstates[s].name,
		       (unsigned long long)hi->cstates[s].latency_us,
		       (unsigned long long)hi->cstates[s].residency_us, hi->cstates[s].desc);
	(void)fs;
}

static void other(const struct host_info *hi)
{
	printf("\nPM QoS: /dev/cpu_dma_latency %s; per-CPU resume latency %s\n",
	       hi->has_dma_latency ? "present" : "absent",
	       hi->has_resume_latency ? "present" : "absent");
	printf("EPB (energy_perf_bias): %s\n", hi->has_epb ? "present" : "absent");
	printf("RAPL:");
	if (!hi->nzones)
		printf(" none (no power readings: PkgWatt, CorWatt show -)");
	for (int z = 0; z < hi->nzones; z++)
		printf("%s %s", z ? "," : "", hi->zones[z].name);
	printf("\n");
}

static void can(bool yes, const char *what, const char *why)
{
	char first[16], text[512];

	snprintf(first, sizeof(first), "  %-4s ", yes ? "yes" : "no");
	snprintf(text, sizeof(text), "%s%s%s", what, why[0] ? ": " : "", why);
	text_wrap(stdout, first, text, (int)strlen(first));
}

static void changes(const struct hostfs *fs, const struct host_info *hi)
{
	char rel[HOSTFS_PATH_MAX];
	bool pol = hi->npolicies > 0;
	bool generic = false, setspeed = false, boost = hi->global_boost || hi->has_no_turbo;
	for (int i = 0; i < hi->npolicies; i++) {
		generic |= host_list_has(hi->pol[i].governors, "userspace");
		setspeed |= hi->pol[i].has_setspeed;
		boost |= hi->pol[i].has_boost;
	}
	bool epp = pol && hi->pol[0].has_epp;
	bool disable = hi->ncpus && hi->ncstates &&
		       host_cstate_path(rel, sizeof(rel), hi->cpus[0], 0, "disable") == 0 &&
		       hostfs_exists(fs, rel);
	printf("\nwhat pmlab can change here (pmlab profile apply, govd)\n");
	can(pol, "frequency governor", pol ? "scaling_governor" : "no cpufreq driver");
	can(pol, "frequency limits", pol ? "scaling_min_freq, scaling_max_freq"
					 : "no cpufreq driver");
	can(generic && setspeed, "pmlab govd (its own governors through userspace)",
	    generic && setspeed ? "the userspace governor and scaling_setspeed"
				: pol ? "no userspace governor (intel_pstate active? boot with "
					"intel_pstate=passive)" : "no cpufreq driver");
	can(boost, "turbo/boost", boost ? (hi->has_no_turbo ? "intel_pstate/no_turbo" : "boost")
					: "no boost control");
	can(epp, "energy_performance_preference", epp ? "per policy" : "no EPP (no HWP/CPPC)");
	can(hi->has_epb, "energy_perf_bias", hi->has_epb ? "per CPU" : "no cpuN/power/energy_perf_bias");
	can(hi->has_idle_governor, "idle governor", hi->has_idle_governor
		    ? "cpuidle/current_governor" : "no cpuidle/current_governor (no cpuidle driver, "
		      "or cpuidle.governor= only at boot)");
	can(disable, "C-states on/off", disable ? "stateN/disable"
					       : "no cpuidle states to disable");
	can(hi->has_dma_latency, "PM QoS latency limit (force_latency)",
	    hi->has_dma_latency ? "/dev/cpu_dma_latency, held while pmlab daemon runs"
				: "no /dev/cpu_dma_latency");
	can(hi->has_resume_latency, "per-CPU resume latency",
	    hi->has_resume_latency ? "power/pm_qos_resume_latency_us" : "absent");
}

int cmd_info(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "root", required_argument, 0, 'r' },
		{ 0, 0, 0, 0 },
	};
	const char *root = NULL;
	int opt;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		if (opt != 'r')
			return cli_bad_option("info", opt, argv[optind - 1]);
		root = optarg;
	}
	if (optind < argc)
		return cli_bad("info: takes no argument, got '%s'", argv[optind]);
	struct hostfs fs;
	struct host_info hi;
	struct host_kind_info k;
	struct pm_diag d = { { 0 } };
	char why[512], list[HOST_LIST_MAX];
	if (hostfs_open(&fs, root, &d) < 0)
		return cli_bad("info: %s", d.msg);
	if (host_info_load(&hi, &fs, &d) < 0) {
		fprintf(stderr, "pmlab: info: %s\n", d.msg);
		hostfs_close(&fs);
		return EXIT_RUNTIME;
	}
	host_kind_detect(&fs, &k);
	const char *profile = host_recommend(&k, why, sizeof(why));
	cpulist(list, sizeof(list), hi.cpus, hi.ncpus);
	printf("pmlab info: %s, %d CPUs online (%s)\n", fs.real ? "this machine" : fs.root, hi.ncpus,
	       list);
	printf("kind: %s%s%s%s\n", host_kind_name(k.kind), k.virt[0] ? " (" : "",
	       k.virt[0] ? k.virt_why : "", k.virt[0] ? ")" : "");
	if (k.chassis)
		printf("chassis: %d, %s%s\n", k.chassis, host_chassis_name(k.chassis),
		       k.battery ? "; a battery" : "");
	char rec[1100];

	snprintf(rec, sizeof(rec), "%s (%s)", profile, why);
	text_wrap(stdout, "recommended profile: ", rec, 4);
	frequency(&hi);
	idle(&fs, &hi);
	other(&hi);
	changes(&fs, &hi);
	host_info_free(&hi);
	hostfs_close(&fs);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_RUNTIME;
}
