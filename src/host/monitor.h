// SPDX-License-Identifier: GPL-2.0-only
/* A turbostat-like sampler of the host, through hostfs:
 *   Busy%, Avg_MHz, Bzy_MHz  from APERF/MPERF/TSC (/dev/cpu/N/msr) when
 *                            readable, else Busy% from /proc/stat and the
 *                            MHz from scaling_cur_freq;
 *   per C-state              residency % (time), entries (usage), too shallow
 *                            (below, "+") and too deep (above, "-"), from
 *                            the cpuidle sysfs deltas;
 *   user/sys/iowait/steal/idle %  from /proc/stat (steal: time a hypervisor
 *                            ran something else while this vCPU could run);
 *   PkgWatt/CorWatt/RAMWatt  from powercap RAPL energy_uj deltas, with the
 *                            wraparound at max_energy_range_uj.
 * (A fake tree's dev/cpu/N/msr is a plain file holding register R at byte
 * 8 x R, since registers 0xe7 and 0xe8 would overlap at their numbers.)
 * A source the machine lacks gives NAN (printed "-") and is named once in
 * monitor->absent[], never an error. Files stay open between samples
 * (pread at 0 re-reads a sysfs or procfs file) to keep the cost low. */
#ifndef PMLAB_MONITOR_H
#define PMLAB_MONITOR_H

#include <stdbool.h>
#include <stdint.h>

#include "inventory.h"
#include "procstat.h"

#define MON_MAX_ABSENT 8
#define MON_ABSENT_MAX 200

struct mon_file {
	char path[HOSTFS_PATH_MAX];
	int fd;                  /* -1: opened for each read */
};

struct mon_cpu {
	int cpu;
	struct mon_file msr;     /* dev/cpu/N/msr */
	struct mon_file cur;     /* the policy's scaling_cur_freq */
	struct mon_file *st;     /* per C-state: time, usage, above, below */
};

struct monitor {
	struct hostfs *fs;
	struct host_info hi;
	int ncpus;
	struct mon_cpu *cpu;
	struct mon_file stat;    /* proc/stat */
	struct mon_file *zone;   /* energy_uj per zone */
	bool have_msr, have_cur, have_rapl, have_stat;
	bool msr_plain;          /* a fake tree's msr: a plain file, register R at 8 x R */
	int nabsent;
	char absent[MON_MAX_ABSENT][MON_ABSENT_MAX];
	char *buf;               /* for /proc/stat */
	size_t bufcap;
};

struct mon_cpu_sample {
	bool msr_ok;
	uint64_t aperf, mperf, tsc;
	uint32_t cur_khz;        /* 0: none */
	uint64_t cs[HOST_MAX_CSTATES][4]; /* time us, usage, above, below */
	bool cs_ok;
};

struct mon_sample {
	int64_t t_ns;            /* CLOCK_MONOTONIC; tests may set it */
	struct procstat stat;
	bool stat_ok;
	struct mon_cpu_sample *cpu;
	uint64_t *energy_uj;
	bool *energy_ok;
};

enum { CS_TIME, CS_USAGE, CS_ABOVE, CS_BELOW };

struct mon_row {
	int cpu;                 /* -1: the summary */
	double busy_pct, avg_mhz, bzy_mhz;
	double cs_pct[HOST_MAX_CSTATES];
	double cs_usage[HOST_MAX_CSTATES], cs_above[HOST_MAX_CSTATES], cs_below[HOST_MAX_CSTATES];
	double user_pct, sys_pct, iowait_pct, steal_pct, idle_pct;
	double pkg_w, cor_w, ram_w;
};

struct mon_result {
	double interval_s;
	int nrows;               /* 1 + CPUs: the summary first */
	struct mon_row *rows;
};

/* Reads the inventory, opens every source; a missing one is noted. */
int monitor_open(struct monitor *m, struct hostfs *fs, struct pm_diag *d);
void monitor_close(struct monitor *m);
int monitor_sample_init(const struct monitor *m, struct mon_sample *s, struct pm_diag *d);
void monitor_sample_free(struct mon_sample *s);
/* Reads every source now. */
int monitor_sample(struct monitor *m, struct mon_sample *s, struct pm_diag *d);
/* The figures between two samples (b after a). */
int monitor_compute(const struct monitor *m, const struct mon_sample *a,
		    const struct mon_sample *b, struct mon_result *r, struct pm_diag *d);
void monitor_result_free(struct mon_result *r);

/* Energy from e0 to e1 of a counter that wraps at range (0: unknown). */
uint64_t monitor_energy_delta(uint64_t e0, uint64_t e1, uint64_t range);

#endif
