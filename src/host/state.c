// SPDX-License-Identifier: GPL-2.0-only
/* The state file: format and parse. See state.h. */
#include "state.h"

#include "hostfs.h"
#include "plan_paths.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 8

void host_state_init(struct host_state *st)
{
	*st = (struct host_state){ .latency_us = -1, .dyn_low_us = -1 };
}

void host_state_free(struct host_state *st)
{
	for (int i = 0; i < st->n; i++)
		free(st->e[i].old);
	free(st->e);
	host_state_init(st);
}

static struct state_entry *new_entry(struct host_state *st, struct pm_diag *d)
{
	if (st->n >= STATE_MAX_ENTRIES) {
		pm_fail(d, "more than %d entries", STATE_MAX_ENTRIES);
		return NULL;
	}
	if (st->n == st->cap) {
		int cap = st->cap ? 2 * st->cap : 32;
		struct state_entry *grown = realloc(st->e, (size_t)cap * sizeof(*grown));
		if (!grown) {
			pm_fail(d, "out of memory");
			return NULL;
		}
		st->e = grown;
		st->cap = cap;
	}
	struct state_entry *e = &st->e[st->n++];
	*e = (struct state_entry){ 0 };
	return e;
}

int host_state_add(struct host_state *st, const struct plan_entry *pe, struct pm_diag *d)
{
	struct state_entry *e = new_entry(st, d);
	if (!e)
		return -1;
	snprintf(e->path, sizeof(e->path), "%s", pe->path);
	snprintf(e->value, sizeof(e->value), "%s", pe->value);
	snprintf(e->key, sizeof(e->key), "%s", pe->key);
	e->check = pe->check;
	e->watch = pe->watch;
	e->appears = pe->appears;
	return 0;
}

int host_state_set_old(struct host_state *st, int i, const char *old, size_t len,
		       struct pm_diag *d)
{
	struct state_entry *e = &st->e[i];
	free(e->old);
	e->old = malloc(len + 1);
	if (!e->old)
		return pm_fail(d, "out of memory");
	memcpy(e->old, old, len);
	e->old[len] = '\0';
	e->old_len = len;
	e->had_old = true;
	return 0;
}

/* ---- formatting ---- */

struct sbuf {
	char *s;
	size_t len, cap;
	bool oom;
};

static void sb_put(struct sbuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 1024;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *grown = realloc(b->s, cap);
		if (!grown) {
			b->oom = true;
			return;
		}
		b->s = grown;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void sb_str(struct sbuf *b, const char *s)
{
	sb_put(b, s, strlen(s));
}

static void sb_esc(struct sbuf *b, const void *data, size_t n)
{
	const unsigned char *s = data;
	for (size_t i = 0; i < n; i++) {
		if (s[i] > 0x20 && s[i] < 0x7f && s[i] != '\\') {
			sb_put(b, (const char *)&s[i], 1);
		} else {
			char hex[5];
			snprintf(hex, sizeof(hex), "\\x%02x", s[i]);
			sb_put(b, hex, 4);
		}
	}
}

/* " =ESCAPED" or " -". */
static void sb_value(struct sbuf *b, const void *data, size_t n, bool present)
{
	sb_str(b, present ? " =" : " -");
	if (present)
		sb_esc(b, data, n);
}

char *host_state_format(const struct host_state *st, size_t *len)
{
	struct sbuf b = { 0 };
	char num[64];
	snprintf(num, sizeof(num), "pmlab-state %d\nprofile ", STATE_VERSION);
	sb_str(&b, num);
	sb_esc(&b, st->profile, strlen(st->profile));
	sb_str(&b, st->applied ? "\nstatus applied\n" : "\nstatus applying\n");
	if (st->holder_pid > 0) {
		snprintf(num, sizeof(num), "holder %ld %llu\n", st->holder_pid, st->holder_start);
		sb_str(&b, num);
	}
	if (st->owner_pid > 0) {
		snprintf(num, sizeof(num), "owner %ld %llu\n", st->owner_pid, st->owner_start);
		sb_str(&b, num);
	}
	if (st->latency_us >= 0) {
		snprintf(num, sizeof(num), "latency %lld", (long long)st->latency_us);
		sb_str(&b, num);
		sb_value(&b, st->latency_old, sizeof(st->latency_old), st->latency_old_valid);
		sb_str(&b, "\n");
	}
	if (st->dyn_low_us >= 0) {
		snprintf(num, sizeof(num), "dynamic %lld %lld %lld\n", (long long)st->dyn_low_us,
			 (long long)st->dyn_high_us, (long long)st->dyn_threshold_milli);
		sb_str(&b, num);
	}
	for (int i = 0; i < st->n; i++) {
		const struct state_entry *e = &st->e[i];
		sb_str(&b, "entry ");
		sb_esc(&b, e->path, strlen(e->path));
		sb_value(&b, e->old, e->old_len, e->had_old);
		sb_value(&b, e->value, strlen(e->value), true);
		sb_value(&b, e->seen, strlen(e->seen), true);
		char flags[8] = "", *f = flags;
		if (e->check)
			*f++ = 'c';
		if (e->watch)
			*f++ = 'w';
		if (e->appears)
			*f++ = 'a';
		*f = '\0';
		sb_str(&b, " ");
		sb_str(&b, flags[0] ? flags : "-");
		sb_str(&b, " ");
		sb_esc(&b, e->key, strlen(e->key));
		sb_str(&b, "\n");
	}
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	*len = b.len;
	return b.s;
}

/* ---- parsing ---- */

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Unescapes s into out (at most cap bytes); -1 if malformed or too long. */
static long unescape(const char *s, char *out, size_t cap)
{
	size_t n = 0;
	for (; *s; s++) {
		int c = (unsigned char)*s;
		if (c == '\\') {
			int hi, lo;
			if (s[1] != 'x' || (hi = hexval(s[2])) < 0 || (lo = hexval(s[3])) < 0)
				return -1;
			c = hi * 16 + lo;
			s += 3;
		} else if (c <= 0x20 || c >= 0x7f) {
			return -1;
		}
		if (n == cap)
			return -1;
		out[n++] = (char)c;
	}
	return (long)n;
}

/* An escaped text field into a NUL-terminated buffer (no NUL inside). */
static int text_field(const char *s, char *out, size_t size)
{
	long n = unescape(s, out, size - 1);
	if (n < 0)
		return -1;
	out[n] = '\0';
	return strlen(out) == (size_t)n ? 0 : -1;
}

/* "=ESCAPED" or "-". *present false for "-". */
static long value_field(const char *s, char *out, size_t cap, bool *present)
{
	*present = s[0] == '=';
	if (s[0] == '-' && s[1] == '\0')
		return 0;
	if (!*present)
		return -1;
	return unescape(s + 1, out, cap);
}

/* Only what a plan may write: a forged entry must not make root's restore
 * write any other file (kernel.core_pattern, say). */
static bool path_ok(const char *p)
{
	return hostfs_plain_relative(p) && host_plan_path_ok(p);
}

static bool whole_number(const char *s, unsigned long long max, unsigned long long *v)
{
	char *end;
	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end && *v <= max;
}

static int parse_entry(struct host_state *st, char **f, int nf, const char *name, int line,
		       struct pm_diag *d)
{
	if (nf != 7)
		return pm_fail_at(d, name, line, "entry with %d fields (expected entry PATH OLD NEW "
				  "SEEN FLAGS KEY)", nf - 1);
	struct pm_diag sub;
	struct state_entry *e = new_entry(st, &sub);
	if (!e)
		return pm_fail_at(d, name, line, "%s", sub.msg);
	if (text_field(f[1], e->path, sizeof(e->path)) < 0 || !path_ok(e->path))
		return pm_fail_at(d, name, line, "path '%.100s' is not a file pmlab writes: refusing "
				  "to restore it (expected a cpufreq, cpuidle, intel_pstate, EPB, "
				  "PM QoS or scheduler file of src/host/plan_paths.c)", f[1]);
	char *buf = malloc(STATE_VALUE_MAX + 1);
	if (!buf)
		return pm_fail(d, "out of memory");
	bool present;
	long n = value_field(f[2], buf, STATE_VALUE_MAX, &present);
	if (n < 0) {
		free(buf);
		return pm_fail_at(d, name, line, "old value (expected =ESCAPED or -)");
	}
	if (present) {
		buf[n] = '\0';
		e->old = buf;
		e->old_len = (size_t)n;
		e->had_old = true;
	} else {
		free(buf);
	}
	char *outs[2] = { e->value, e->seen };
	for (int k = 0; k < 2; k++) {
		n = value_field(f[3 + k], outs[k], PLAN_VALUE_MAX - 1, &present);
		if (n < 0 || !present)
			return pm_fail_at(d, name, line, "%s value (expected =ESCAPED)",
					  k ? "seen" : "new");
		outs[k][n] = '\0';
		if (strlen(outs[k]) != (size_t)n)
			return pm_fail_at(d, name, line, "a NUL byte in a value");
	}
	if (strcmp(f[5], "-") != 0) {
		for (const char *c = f[5]; *c; c++) {
			if (*c == 'c')
				e->check = true;
			else if (*c == 'w')
				e->watch = true;
			else if (*c == 'a')
				e->appears = true;
			else
				return pm_fail_at(d, name, line, "flags '%.20s' (expected - or c, w, a)",
						  f[5]);
		}
	}
	if (e->appears == e->had_old && e->appears)
		return pm_fail_at(d, name, line, "an appearing file with an old value");
	if (!e->appears && !e->had_old)
		return pm_fail_at(d, name, line, "no old value (expected one unless flag a)");
	if (text_field(f[6], e->key, sizeof(e->key)) < 0)
		return pm_fail_at(d, name, line, "key (expected an escaped word)");
	return 0;
}

static int parse_line(struct host_state *st, char *text, const char *name, int line,
		      bool *seen_status, struct pm_diag *d)
{
	char *f[MAX_FIELDS + 1];
	int nf = 0;
	for (char *save = NULL, *t = strtok_r(text, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		if (nf == MAX_FIELDS)
			return pm_fail_at(d, name, line, "too many fields");
		f[nf++] = t;
	}
	if (!nf)
		return pm_fail_at(d, name, line, "an empty line");
	unsigned long long v;
	if (strcmp(f[0], "profile") == 0 && nf == 2) {
		if (text_field(f[1], st->profile, sizeof(st->profile)) < 0)
			return pm_fail_at(d, name, line, "profile name (expected an escaped word)");
	} else if (strcmp(f[0], "status") == 0 && nf == 2) {
		if (strcmp(f[1], "applied") != 0 && strcmp(f[1], "applying") != 0)
			return pm_fail_at(d, name, line, "status '%.20s' (expected applied or applying)",
					  f[1]);
		st->applied = strcmp(f[1], "applied") == 0;
		*seen_status = true;
	} else if ((strcmp(f[0], "holder") == 0 || strcmp(f[0], "owner") == 0) && nf == 3) {
		unsigned long long start;
		bool holder = f[0][0] == 'h';
		if (!whole_number(f[1], 1u << 30, &v) || v == 0 || !whole_number(f[2], ~0ull, &start))
			return pm_fail_at(d, name, line, "%s (expected PID START)", f[0]);
		*(holder ? &st->holder_pid : &st->owner_pid) = (long)v;
		*(holder ? &st->holder_start : &st->owner_start) = start;
	} else if (strcmp(f[0], "latency") == 0 && nf == 3) {
		if (!whole_number(f[1], 2000000000, &v))
			return pm_fail_at(d, name, line, "latency (expected microseconds 0..2000000000)");
		st->latency_us = (int64_t)v;
		char old[5];
		bool present;
		long n = value_field(f[2], old, sizeof(old), &present);
		if (n < 0 || (present && n != 4))
			return pm_fail_at(d, name, line, "latency's old value (expected - or 4 bytes)");
		st->latency_old_valid = present;
		if (present)
			memcpy(st->latency_old, old, 4);
	} else if (strcmp(f[0], "dynamic") == 0 && nf == 4) {
		unsigned long long hi, th;
		if (!whole_number(f[1], 2000000000, &v) || !whole_number(f[2], 2000000000, &hi) ||
		    !whole_number(f[3], 1000000000, &th))
			return pm_fail_at(d, name, line, "dynamic (expected LOW HIGH THRESHOLD)");
		st->dyn_low_us = (int64_t)v;
		st->dyn_high_us = (int64_t)hi;
		st->dyn_threshold_milli = (int64_t)th;
	} else if (strcmp(f[0], "entry") == 0) {
		return parse_entry(st, f, nf, name, line, d);
	} else {
		return pm_fail_at(d, name, line, "'%.40s' (expected profile, status, holder, owner, "
				  "latency, dynamic or entry and its fields)", f[0]);
	}
	return 0;
}

int host_state_parse(struct host_state *st, const char *text, size_t len, const char *name,
		     struct pm_diag *d)
{
	host_state_init(st);
	char *line = malloc(len + 1);
	if (!line)
		return pm_fail(d, "out of memory");
	int lineno = 0, rc = -1;
	bool seen_status = false;
	for (size_t pos = 0; pos < len;) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		memcpy(line, text + pos, n);
		line[n] = '\0';
		pos += n + 1;
		lineno++;
		if (!nl) {
			pm_fail_at(d, name, lineno, "no newline at the end (a torn write?)");
			goto out;
		}
		if (strlen(line) != n) {
			pm_fail_at(d, name, lineno, "a NUL byte");
			goto out;
		}
		if (lineno == 1) {
			char want[32];
			snprintf(want, sizeof(want), "pmlab-state %d", STATE_VERSION);
			if (strcmp(line, want) != 0) {
				pm_fail_at(d, name, lineno, "not a pmlab state file (expected '%s')",
					   want);
				goto out;
			}
			continue;
		}
		if (parse_line(st, line, name, lineno, &seen_status, d) < 0)
			goto out;
	}
	if (!seen_status || !st->profile[0]) {
		pm_fail_at(d, name, lineno + 1, "no %s line", seen_status ? "profile" : "status");
		goto out;
	}
	rc = 0;
out:
	free(line);
	if (rc < 0)
		host_state_free(st);
	return rc;
}
