// SPDX-License-Identifier: GPL-2.0-only
/* /proc/stat's cpu lines: cumulative USER_HZ ticks per CPU and in all.
 * guest and guest_nice are already counted in user and nice (the kernel's
 * account_guest_time adds to both), so they are kept apart and never
 * summed into a total; older kernels print fewer columns (the missing
 * ones are 0). iowait can go backwards (a documented kernel caveat):
 * deltas clamp at 0. */
#ifndef PMLAB_PROCSTAT_H
#define PMLAB_PROCSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "../core/diag.h"

enum { PS_USER, PS_NICE, PS_SYSTEM, PS_IDLE, PS_IOWAIT, PS_IRQ, PS_SOFTIRQ, PS_STEAL,
       PS_GUEST, PS_GUEST_NICE, PS_NFIELDS };

struct procstat_cpu {
	int cpu;                       /* -1 for the "cpu" sum line */
	uint64_t t[PS_NFIELDS];
};

struct procstat {
	struct procstat_cpu all;
	int ncpus;                     /* cpuN lines (online CPUs only) */
	struct procstat_cpu *cpus;     /* in file order */
	int cap;
};

/* Parses the text of /proc/stat (NUL-terminated not required); `name`
 * prefixes messages. Keeps st->cpus' allocation across calls. */
int procstat_parse(struct procstat *st, const char *text, size_t len, const char *name,
		   struct pm_diag *d);
void procstat_free(struct procstat *st);
/* The line of CPU `cpu`, or NULL. */
const struct procstat_cpu *procstat_find(const struct procstat *st, int cpu);

/* Ticks between two samples of one CPU, each field clamped at 0. */
struct procstat_delta {
	uint64_t user, system, iowait, idle, steal, busy, total;
};
void procstat_delta(const struct procstat_cpu *a, const struct procstat_cpu *b,
		    struct procstat_delta *out);

#endif
