// SPDX-License-Identifier: GPL-2.0-only
/* What this machine offers, read once through hostfs: online CPUs,
 * cpufreq policies and their driver, intel_pstate / amd_pstate globals,
 * EPB, cpuidle, PM QoS files and powercap RAPL zones. Everything a plan,
 * the monitor or govd needs to know before touching anything, and the
 * only place that turns numbers read from the machine back into paths
 * (path builders below take fixed attribute names). */
#ifndef PMLAB_INVENTORY_H
#define PMLAB_INVENTORY_H

#include <stdbool.h>
#include <stdint.h>

#include "hostfs.h"

#define HOST_CPU_DIR "sys/devices/system/cpu"
#define HOST_CPUFREQ_DIR HOST_CPU_DIR "/cpufreq"
#define HOST_CPUIDLE_DIR HOST_CPU_DIR "/cpuidle"
#define HOST_PSTATE_DIR HOST_CPU_DIR "/intel_pstate"
#define HOST_AMD_PSTATE_DIR HOST_CPU_DIR "/amd_pstate"
#define HOST_POWERCAP_DIR "sys/class/powercap"
#define HOST_DMA_LATENCY "dev/cpu_dma_latency"
#define HOST_PLATFORM_PROFILE "sys/firmware/acpi/platform_profile"
#define HOST_LOADAVG "proc/loadavg"
#define HOST_PROC_STAT "proc/stat"

#define HOST_NAME_MAX 64
#define HOST_LIST_MAX 512
#define HOST_MAX_CSTATES 16
#define HOST_MAX_CPUS 8192
#define HOST_MAX_FREQS 256

struct host_policy {
	int id;                        /* policyN */
	int ncpus;
	int *cpus;                     /* affected_cpus: the online CPUs it drives */
	char driver[HOST_NAME_MAX];    /* scaling_driver */
	char governor[HOST_NAME_MAX];  /* scaling_governor */
	char governors[HOST_LIST_MAX]; /* scaling_available_governors */
	uint32_t cpuinfo_min, cpuinfo_max, scaling_min, scaling_max;
	uint32_t base_khz;             /* base_frequency, else cpuinfo_max */
	int64_t transition_latency_ns; /* cpuinfo_transition_latency; 0 unknown */
	bool has_boost, has_setspeed, has_epp, has_cur;
	char epps[HOST_LIST_MAX];      /* energy_performance_available_preferences */
	int nfreqs;
	uint32_t *freqs;               /* scaling_available_frequencies, ascending */
};

struct host_cstate {
	char name[32];
	char desc[64];
	uint64_t latency_us, residency_us;
};

enum host_zone_kind { ZONE_PACKAGE, ZONE_CORE, ZONE_DRAM, ZONE_UNCORE, ZONE_PSYS, ZONE_OTHER };

struct host_zone {
	char dir[128];             /* sys/class/powercap/intel-rapl:0[:1] */
	char name[32];             /* package-0, core, dram, ... */
	enum host_zone_kind kind;
	uint64_t max_range_uj;     /* energy_uj wraps here */
};

struct host_info {
	int ncpus;
	int *cpus;                 /* online, ascending */
	int npolicies;
	struct host_policy *pol;
	bool intel_pstate, amd_pstate;
	char pstate_status[HOST_NAME_MAX]; /* of whichever is present */
	bool has_no_turbo, has_min_perf_pct, has_max_perf_pct;
	bool global_boost;         /* cpufreq/boost */
	bool has_epb;              /* every online CPU has power/energy_perf_bias */
	bool has_resume_latency;   /* every online CPU has power/pm_qos_resume_latency_us */
	char idle_driver[HOST_NAME_MAX];
	char idle_governor[HOST_NAME_MAX];
	char idle_governors[HOST_LIST_MAX];
	bool has_idle_governor;    /* cpuidle/current_governor (writable) exists */
	int ncstates;              /* of every online CPU (the first CPU's, when they agree) */
	struct host_cstate cstates[HOST_MAX_CSTATES];
	bool has_dma_latency;
	int nzones;
	struct host_zone *zones;
	bool has_msr;              /* dev/cpu/N/msr of the first online CPU opens */
	int *packages;             /* each online CPU's physical_package_id, -1 unknown */
	char present[HOST_LIST_MAX]; /* cpu/present, "" if absent */
	/* ACPI platform profile (drivers/acpi/platform_profile.c) */
	bool has_platform_profile;
	char platform_profile[HOST_NAME_MAX];
	char platform_profile_choices[HOST_LIST_MAX];
	char osrelease[HOST_NAME_MAX]; /* proc/sys/kernel/osrelease: lib/modules/RELEASE */
};

int host_info_load(struct host_info *hi, const struct hostfs *fs, struct pm_diag *d);
void host_info_free(struct host_info *hi);

/* Kernel modules (tuned's [modules]): loaded when sys/module/NAME exists;
 * 1 if lib/modules/RELEASE/modules.dep (or modules.builtin) of the root
 * lists NAME (with '-' and '_' the same, as modprobe has them), 0 if not,
 * -1 if there is no such list to ask. */
bool host_module_loaded(const struct hostfs *fs, const char *name);
int host_module_known(const struct hostfs *fs, const struct host_info *hi, const char *name);
/* The 1-minute load average of proc/loadavg; -1 (and *v untouched) if unreadable. */
int host_loadavg(const struct hostfs *fs, double *v);

/* "0-3,6,8-9" (sysfs cpulist) into ascending CPU numbers below max. */
int host_parse_cpulist(const char *s, int max, int **cpus, int *n);
/* Whether `word` is one of the space-separated `list`. */
bool host_list_has(const char *list, const char *word);
/* The policy that drives `cpu`, or NULL. */
const struct host_policy *host_cpu_policy(const struct host_info *hi, int cpu);

/* Path builders: `attr` is always a fixed name from pmlab's own code. */
int host_policy_path(char *buf, size_t len, int policy, const char *attr);
int host_cpu_path(char *buf, size_t len, int cpu, const char *attr);
int host_cstate_path(char *buf, size_t len, int cpu, int state, const char *attr);

#endif
