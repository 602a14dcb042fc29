// SPDX-License-Identifier: GPL-2.0-only
/* The idle-trace CSV reader (format in idletrace.h). Times are decimal
 * microseconds with at most three decimals, read exactly into ns without
 * floating point. Blank lines and lines starting with '#' are skipped; a
 * trailing CR is ignored. An empty latency_limit_us means no limit. */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "idletrace.h"

#define MAX_FIELDS 3
#define MAX_US INT64_C(1000000000000) /* 1e12 us, 11.6 days: far from overflow */
#define MAX_ROWS 100000000
#define HEADER "next_timer_us,idle_us[,latency_limit_us]"

static const char *const column[MAX_FIELDS] = { "next_timer_us", "idle_us", "latency_limit_us" };

struct field {
	const char *s;
	size_t len;
};

/* Copies a field for a message: at most 32 bytes, non-printable as '?'. */
static void show(char *buf, size_t size, struct field f)
{
	size_t n = f.len < 32 ? f.len : 32;
	if (n >= size)
		n = size - 1;
	for (size_t i = 0; i < n; i++)
		buf[i] = isprint((unsigned char)f.s[i]) ? f.s[i] : '?';
	buf[n] = '\0';
	if (f.len > n && n >= 3)
		memcpy(buf + n - 3, "...", 3);
}

static struct field trim(const char *s, size_t len)
{
	while (len && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	return (struct field){ s, len };
}

static int split(const char *line, size_t len, struct field *f, int max)
{
	int n = 0;
	size_t start = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && line[i] != ',')
			continue;
		if (n == max)
			return max + 1; /* too many */
		f[n++] = trim(line + start, i - start);
		start = i + 1;
	}
	return n;
}

static int parse_us(struct field f, int col, const char *where, int line, sim_ns *out,
		    struct pm_diag *d)
{
	char shown[40];
	int64_t us = 0, frac = 0;
	size_t i = 0;
	int fdigits = 0;

	show(shown, sizeof(shown), f);
	if (f.len && f.s[0] == '-')
		return pm_fail_at(d, where, line, "%s '%s': negative (expected microseconds >= 0)",
				  column[col], shown);
	if (!f.len || !isdigit((unsigned char)f.s[0]))
		goto bad;
	for (; i < f.len && isdigit((unsigned char)f.s[i]); i++) {
		us = us * 10 + (f.s[i] - '0');
		if (us > MAX_US)
			goto too_large;
	}
	if (i < f.len && f.s[i] == '.') {
		for (i++; i < f.len && isdigit((unsigned char)f.s[i]) && fdigits < 3; i++, fdigits++)
			frac = frac * 10 + (f.s[i] - '0');
		if (fdigits == 0)
			goto bad;
		for (int k = fdigits; k < 3; k++)
			frac *= 10;
	}
	if (i != f.len)
		goto bad;
	if (us == MAX_US && frac)
		goto too_large;
	*out = us * NS_PER_US + frac;
	return 0;
too_large:
	return pm_fail_at(d, where, line, "%s '%s': too large (expected at most %lld us)",
			  column[col], shown, (long long)MAX_US);
bad:
	return pm_fail_at(d, where, line,
			  "%s '%s': not a number (expected microseconds >= 0, at most 3 decimals)",
			  column[col], shown);
}

/* The header names the columns in order: two or three of them. */
static int parse_header(const char *s, size_t len, const char *where, int line, int *ncols,
			struct pm_diag *d)
{
	struct field f[MAX_FIELDS];
	int n = split(s, len, f, MAX_FIELDS);
	bool ok = n >= 2 && n <= MAX_FIELDS;
	for (int i = 0; ok && i < n; i++)
		ok = f[i].len == strlen(column[i]) && memcmp(f[i].s, column[i], f[i].len) == 0;
	if (!ok) {
		char shown[40];
		show(shown, sizeof(shown), (struct field){ s, len });
		return pm_fail_at(d, where, line, "header '%s' (expected %s)", shown, HEADER);
	}
	*ncols = n;
	return 0;
}

static int parse_row(const char *s, size_t len, int ncols, const char *where, int line,
		     struct idletrace_row *r, struct pm_diag *d)
{
	struct field f[MAX_FIELDS];
	int n = split(s, len, f, MAX_FIELDS);
	if (n != ncols)
		return pm_fail_at(d, where, line, "%s%d fields (expected %d, as in the header)",
				  n > MAX_FIELDS ? "more than " : "", n > MAX_FIELDS ? MAX_FIELDS : n,
				  ncols);
	r->line = line;
	r->latency_limit_ns = SIM_NS_MAX;
	if (parse_us(f[0], 0, where, line, &r->next_timer_ns, d) < 0 ||
	    parse_us(f[1], 1, where, line, &r->idle_ns, d) < 0)
		return -1;
	if (ncols == 3 && f[2].len && parse_us(f[2], 2, where, line, &r->latency_limit_ns, d) < 0)
		return -1;
	return 0;
}

static int push(struct idletrace *t, int *cap, const struct idletrace_row *r, const char *where,
		int line, struct pm_diag *d)
{
	if (t->nrows == *cap) {
		if (*cap >= MAX_ROWS)
			return pm_fail_at(d, where, line, "too many rows (expected at most %d)",
					  MAX_ROWS);
		int ncap = *cap ? *cap * 2 : 256;
		struct idletrace_row *grown = realloc(t->rows, (size_t)ncap * sizeof(*grown));
		if (!grown)
			return pm_fail_at(d, where, line, "out of memory");
		t->rows = grown;
		*cap = ncap;
	}
	t->rows[t->nrows++] = *r;
	return 0;
}

int idletrace_parse(struct idletrace *t, const char *text, size_t len, const char *where,
		    struct pm_diag *d)
{
	int ncols = 0, cap = 0, line = 0;
	size_t pos = 0;

	*t = (struct idletrace){ 0 };
	while (pos < len) {
		const char *s = text + pos;
		const char *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		pos += n + (nl ? 1 : 0);
		line++;
		if (n && s[n - 1] == '\r')
			n--;
		if (memchr(s, '\0', n))
			goto fail_nul;
		struct field body = trim(s, n);
		if (!body.len || body.s[0] == '#')
			continue;
		int rc;
		if (!ncols) {
			rc = parse_header(body.s, body.len, where, line, &ncols, d);
		} else {
			struct idletrace_row r;
			rc = parse_row(body.s, body.len, ncols, where, line, &r, d);
			if (rc == 0)
				rc = push(t, &cap, &r, where, line, d);
		}
		if (rc < 0) {
			idletrace_free(t);
			return -1;
		}
	}
	if (!ncols)
		return pm_fail_at(d, where, line ? line : 1, "no header (expected %s)", HEADER);
	return 0;
fail_nul:
	idletrace_free(t);
	return pm_fail_at(d, where, line, "NUL byte in the text (expected CSV)");
}

void idletrace_free(struct idletrace *t)
{
	free(t->rows);
	*t = (struct idletrace){ 0 };
}
