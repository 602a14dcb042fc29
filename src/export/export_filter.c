// SPDX-License-Identifier: GPL-2.0-only
#include "export_filter.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void export_filter_all(struct export_filter *f)
{
	memset(f, 0, sizeof(*f));
	f->from = 0;
	f->to = SIM_NS_MAX;
	f->all_cpus = true;
}

/* Seconds, or -1 when not a number >= 0. */
static sim_ns seconds(const char *s, size_t n)
{
	char buf[64], *end;
	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	double v = strtod(buf, &end);
	if (errno || *end || !isfinite(v) || v < 0 || v > 1e9)
		return -1;
	return (sim_ns)llround(v * 1e9);
}

int export_filter_window(struct export_filter *f, const char *arg, struct pm_diag *d)
{
	const char *colon = strchr(arg, ':');
	if (!colon)
		return pm_fail(d, "--window %s: expected FROM:TO in seconds (e.g. 2:2.5, 5:)", arg);
	size_t a = (size_t)(colon - arg), b = strlen(colon + 1);
	sim_ns from = a ? seconds(arg, a) : 0, to = b ? seconds(colon + 1, b) : SIM_NS_MAX;
	if (from < 0 || to < 0)
		return pm_fail(d, "--window %s: expected FROM:TO in seconds (e.g. 2:2.5, 5:)", arg);
	if (to <= from)
		return pm_fail(d, "--window %s: the window is empty (TO must be after FROM)", arg);
	f->from = from;
	f->to = to;
	return 0;
}

int export_filter_cpus(struct export_filter *f, const char *arg, int ncpus, struct pm_diag *d)
{
	const char *p = arg;
	bool any = false;
	memset(f->cpu, 0, sizeof(f->cpu));
	while (*p) {
		char *end;
		/* Digits only: strtol would skip blanks and take a sign. */
		if (!isdigit((unsigned char)*p))
			goto bad;
		errno = 0;
		long lo = strtol(p, &end, 10), hi = lo;
		if (errno)
			goto bad;
		if (*end == '-') {
			p = end + 1;
			if (!isdigit((unsigned char)*p))
				goto bad;
			hi = strtol(p, &end, 10);
			if (errno || hi < lo)
				goto bad;
		}
		if (hi >= ncpus)
			return pm_fail(d, "--trace-cpus %s: CPU %ld, but the machine has %d CPUs (0..%d)",
				       arg, hi, ncpus, ncpus - 1);
		for (long c = lo; c <= hi; c++)
			f->cpu[c] = true;
		any = true;
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			goto bad;
		p = end;
	}
	if (!any)
		goto bad;
	f->all_cpus = false;
	return 0;
bad:
	return pm_fail(d, "--trace-cpus %s: expected a CPU list such as 0-3,6", arg);
}
