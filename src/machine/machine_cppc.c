// SPDX-License-Identifier: GPL-2.0-only
/* [highest_perf]: each core's CPPC highest performance, the figure ACPI
 * _CPC and AMD's MSR_AMD_CPPC_CAP1 report per CPU. On parts with
 * preferred cores the firmware gives the cores different values: the
 * best cores reach the part's top boost frequency, the others less, and
 * amd-pstate passes the values to the scheduler as ITMT priorities
 * (amd_pstate_init_prefcore(), drivers/cpufreq/amd-pstate.c v6.9+; sysfs
 * amd_pstate_prefcore_ranking). Lines name a core or a range of cores
 * (global index, package-major):
 *
 *     [highest_perf]
 *     0 = 196
 *     1-7 = 181
 */
#include "machine_lines.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define CPPC_MAX_PERF 255 /* CPPC_MAX_PERF (U8_MAX): "preferred core unsupported" */

static int parse_core(const char *s, const char *end, long *out)
{
	if (s == end || end - s > 6)
		return -1;
	long v = 0;
	for (const char *q = s; q < end; q++) {
		if (*q < '0' || *q > '9')
			return -1;
		v = v * 10 + (*q - '0');
	}
	*out = v;
	return 0;
}

int machine_cppc_line(struct machine *m, struct machine_lines *ln, int line, const char *name,
		      const char *value, char *msg, size_t size)
{
	const char *dash = strchr(name, '-');
	const char *end = name + strlen(name);
	long first, last;
	int bad = parse_core(name, dash ? dash : end, &first);
	if (!bad && dash)
		bad = parse_core(dash + 1, end, &last);
	else
		last = first;
	if (bad) {
		snprintf(msg, size, "[highest_perf] '%.40s': not a core or a range of cores "
			 "(expected CORE = PERF or FIRST-LAST = PERF)", name);
		return -1;
	}
	if (last < first || last >= MACHINE_MAX_CPUS) {
		snprintf(msg, size, "[highest_perf] cores %ld-%ld: not a range of cores (expected "
			 "FIRST <= LAST < %d)", first, last, MACHINE_MAX_CPUS);
		return -1;
	}
	char *e;
	errno = 0;
	long perf = strtol(value, &e, 10);
	if (!*value || *e || errno || perf < 1 || perf >= CPPC_MAX_PERF) {
		snprintf(msg, size, "[highest_perf] %s = '%.40s': not a highest performance "
			 "(expected 1..254; 255 means the part ranks no cores)", name, value);
		return -1;
	}
	for (long c = first; c <= last; c++) {
		if (ln->highest_perf_core[c]) {
			snprintf(msg, size, "[highest_perf] core %ld given twice, first on line %d "
				 "(expected each core once)", c, ln->highest_perf_core[c]);
			return -1;
		}
		ln->highest_perf_core[c] = line;
		m->highest_perf[c] = (uint8_t)perf;
	}
	return 0;
}

int machine_check_cppc(const struct machine *m, const struct machine_lines *ln,
		       const char *where, struct pm_diag *d)
{
	if (!machine_has_highest_perf(m))
		return 0;
	int cores = machine_cores(m);
	for (int c = 0; c < MACHINE_MAX_CPUS; c++) {
		int line = ln ? ln->highest_perf_core[c] : 0;
		if (c >= cores && m->highest_perf[c])
			return pm_fail_at(d, where, line, "[highest_perf] core %d: the machine has "
					  "%d cores (expected cores 0-%d)", c, cores, cores - 1);
		if (c < cores && !m->highest_perf[c])
			return pm_fail_at(d, where, ln ? ln->highest_perf : 0,
					  "[highest_perf] gives no value for core %d (expected "
					  "every core 0-%d once)", c, cores - 1);
	}
	return 0;
}

void machine_cppc_write(FILE *f, const struct machine *m)
{
	if (!machine_has_highest_perf(m))
		return;
	fprintf(f, "\n[highest_perf]\n");
	int cores = machine_cores(m);
	for (int c = 0; c < cores;) {
		int e = c;
		while (e + 1 < cores && m->highest_perf[e + 1] == m->highest_perf[c])
			e++;
		if (e > c)
			fprintf(f, "%d-%d = %u\n", c, e, m->highest_perf[c]);
		else
			fprintf(f, "%d = %u\n", c, m->highest_perf[c]);
		c = e + 1;
	}
}

bool machine_has_highest_perf(const struct machine *m)
{
	for (int c = 0; c < MACHINE_MAX_CPUS; c++)
		if (m->highest_perf[c])
			return true;
	return false;
}

bool machine_highest_perf_differs(const struct machine *m)
{
	int cores = machine_cores(m);
	for (int c = 1; c < cores && c < MACHINE_MAX_CPUS; c++)
		if (m->highest_perf[c] != m->highest_perf[0])
			return true;
	return false;
}

uint32_t machine_core_max_khz(const struct machine *m, int core)
{
	struct cpu_type ty;
	int t = machine_core_type(m, core);
	machine_type_get(m, t < 0 ? 0 : t, &ty);
	uint32_t top = ty.pstates[ty.npstates - 1].khz;
	if (core < 0 || core >= MACHINE_MAX_CPUS || !m->highest_perf[core])
		return top;
	unsigned best = 0;
	for (int c = 0; c < machine_cores(m) && c < MACHINE_MAX_CPUS; c++)
		if (machine_core_type(m, c) == t && m->highest_perf[c] > best)
			best = m->highest_perf[c];
	return (uint32_t)((uint64_t)top * m->highest_perf[core] / best);
}
