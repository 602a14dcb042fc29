// SPDX-License-Identifier: GPL-2.0-only
/* /proc/stat parsing. See procstat.h. */
#include "procstat.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CPUS 65536

static int parse_cpu_line(const char *s, const char *end, struct procstat_cpu *c)
{
	/* "cpu" or "cpuN" then up to ten numbers */
	s += 3;
	c->cpu = -1;
	if (s < end && isdigit((unsigned char)*s)) {
		long n = 0;
		while (s < end && isdigit((unsigned char)*s)) {
			n = n * 10 + (*s++ - '0');
			if (n >= MAX_CPUS)
				return -1;
		}
		c->cpu = (int)n;
	}
	if (s == end || (*s != ' ' && *s != '\t'))
		return -1;
	memset(c->t, 0, sizeof(c->t));
	int k = 0;
	while (s < end) {
		while (s < end && (*s == ' ' || *s == '\t'))
			s++;
		if (s == end)
			break;
		if (k == PS_NFIELDS || !isdigit((unsigned char)*s))
			return -1;
		uint64_t v = 0;
		while (s < end && isdigit((unsigned char)*s)) {
			uint64_t digit = (uint64_t)(*s++ - '0');
			if (v > (UINT64_MAX - digit) / 10)
				return -1;
			v = v * 10 + digit;
		}
		if (s < end && *s != ' ' && *s != '\t')
			return -1;
		c->t[k++] = v;
	}
	return k >= 4 ? 0 : -1; /* user nice system idle, at the least */
}

int procstat_parse(struct procstat *st, const char *text, size_t len, const char *name,
		   struct pm_diag *d)
{
	int line = 0;
	bool seen_all = false;
	st->ncpus = 0;
	for (size_t pos = 0; pos < len;) {
		const char *s = text + pos;
		const char *nl = memchr(s, '\n', len - pos);
		const char *end = nl ? nl : text + len;
		pos = (size_t)(end - text) + 1;
		line++;
		if (end - s < 3 || memcmp(s, "cpu", 3) != 0)
			continue; /* intr, ctxt, btime, ...: not needed */
		struct procstat_cpu c;
		if (parse_cpu_line(s, end, &c) < 0)
			return pm_fail_at(d, name, line, "not a cpu line (expected cpu[N] and 4 to 10 "
					  "tick counts)");
		if (c.cpu < 0) {
			if (seen_all)
				return pm_fail_at(d, name, line, "a second 'cpu' line");
			st->all = c;
			seen_all = true;
			continue;
		}
		for (int i = 0; i < st->ncpus; i++)
			if (st->cpus[i].cpu == c.cpu)
				return pm_fail_at(d, name, line, "cpu%d twice", c.cpu);
		if (st->ncpus == st->cap) {
			int cap = st->cap ? 2 * st->cap : 16;
			struct procstat_cpu *grown = realloc(st->cpus, (size_t)cap * sizeof(*grown));
			if (!grown)
				return pm_fail(d, "out of memory");
			st->cpus = grown;
			st->cap = cap;
		}
		st->cpus[st->ncpus++] = c;
	}
	if (!seen_all)
		return pm_fail_at(d, name, line + 1, "no 'cpu' line (expected /proc/stat)");
	return 0;
}

void procstat_free(struct procstat *st)
{
	free(st->cpus);
	*st = (struct procstat){ 0 };
}

const struct procstat_cpu *procstat_find(const struct procstat *st, int cpu)
{
	if (cpu < 0)
		return &st->all;
	/* Lines come in CPU order: try the obvious slot first. */
	if (cpu < st->ncpus && st->cpus[cpu].cpu == cpu)
		return &st->cpus[cpu];
	for (int i = 0; i < st->ncpus; i++)
		if (st->cpus[i].cpu == cpu)
			return &st->cpus[i];
	return NULL;
}

static uint64_t sub(uint64_t b, uint64_t a)
{
	return b > a ? b - a : 0;
}

/* Saturating: counters near 2^64 (corrupt input) must not wrap. */
static uint64_t add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

void procstat_delta(const struct procstat_cpu *a, const struct procstat_cpu *b,
		    struct procstat_delta *out)
{
	uint64_t f[PS_NFIELDS];
	for (int i = 0; i < PS_NFIELDS; i++)
		f[i] = sub(b->t[i], a->t[i]);
	/* guest time is inside user/nice already */
	out->user = add(f[PS_USER], f[PS_NICE]);
	out->system = add(add(f[PS_SYSTEM], f[PS_IRQ]), f[PS_SOFTIRQ]);
	out->iowait = f[PS_IOWAIT];
	out->idle = f[PS_IDLE];
	out->steal = f[PS_STEAL];
	out->busy = add(add(out->user, out->system), f[PS_STEAL]);
	out->total = add(add(out->busy, out->idle), out->iowait);
}
