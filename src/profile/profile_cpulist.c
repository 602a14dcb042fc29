// SPDX-License-Identifier: GPL-2.0-only
/* tuned's CPU list syntax. See profile_cpulist.h. */
#include "profile_cpulist.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Python's int(s): blanks around an optional sign and decimal digits. */
static bool int_of(const char *s, size_t n, long *v)
{
	char buf[32];
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (!n || n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	char *end;
	errno = 0;
	*v = strtol(buf, &end, 10);
	return !errno && *end == '\0' && isdigit((unsigned char)buf[n - 1]);
}

/* "N" or "N-M" into [*lo, *hi]. */
static bool range_of(const char *s, size_t n, long *lo, long *hi)
{
	const char *dash = memchr(s, '-', n);
	if (dash == s) /* "-3": int("") fails in tuned's split */
		return false;
	if (!dash)
		return int_of(s, n, lo) && (*hi = *lo, true);
	return int_of(s, (size_t)(dash - s), lo) &&
	       int_of(dash + 1, n - (size_t)(dash - s) - 1, hi);
}

static bool add_range(bool *set, long lo, long hi, bool on)
{
	if (lo < 0 || hi >= PF_CPUS_MAX)
		return false;
	for (long c = lo; c <= hi; c++)
		set[c] = on;
	return true;
}

bool pf_cpulist_from_hex(const char *hex, bool *set)
{
	char digits[PF_CPUS_MAX / 4 + 1];
	size_t n = 0;
	memset(set, 0, PF_CPUS_MAX * sizeof(*set));
	if (hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X'))
		hex += 2;
	for (; *hex; hex++) {
		if (*hex == ',')
			continue;
		if (!isxdigit((unsigned char)*hex) || n + 1 >= sizeof(digits))
			return false;
		digits[n++] = *hex;
	}
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = digits[n - 1 - i];
		int v = isdigit((unsigned char)c) ? c - '0' : tolower((unsigned char)c) - 'a' + 10;
		for (int b = 0; b < 4; b++)
			if (v & (1 << b))
				set[i * 4 + (size_t)b] = true;
	}
	return true;
}

bool pf_cpulist_unpack(const char *s, bool *set)
{
	bool neg[PF_CPUS_MAX], mask[PF_CPUS_MAX];
	char hex[PF_CPUS_MAX / 2];
	size_t n = strlen(s);
	bool in_hex = false, ok = true;

	memset(set, 0, PF_CPUS_MAX * sizeof(*set));
	memset(neg, 0, sizeof(neg));
	while (n && (*s == '\'' || *s == '"'))
		s++, n--;
	while (n && (s[n - 1] == '\'' || s[n - 1] == '"'))
		n--;
	hex[0] = '\0';
	for (size_t at = 0; at <= n && ok;) {
		const char *item = s + at, *comma = memchr(item, ',', n - at);
		size_t len = comma ? (size_t)(comma - item) : n - at;
		at += len + 1;
		long lo, hi;
		if (in_hex) {
			if (len == 0 || strlen(hex) + len + 1 >= sizeof(hex)) {
				in_hex = false;
				ok = pf_cpulist_from_hex(hex, mask);
				for (int c = 0; ok && c < PF_CPUS_MAX; c++)
					set[c] |= mask[c];
				hex[0] = '\0';
			} else {
				strncat(hex, item, len);
			}
		} else if (len >= 2 && item[0] == '0' && (item[1] == 'x' || item[1] == 'X')) {
			in_hex = true;
			snprintf(hex, sizeof(hex), "%.*s", (int)len, item);
		} else if (len && (item[0] == '^' || item[0] == '!')) {
			ok = range_of(item + 1, len - 1, &lo, &hi) && add_range(neg, lo, hi, true);
		} else if (len) {
			ok = range_of(item, len, &lo, &hi) && (lo > hi || add_range(set, lo, hi, true));
		}
	}
	if (ok && hex[0]) {
		ok = pf_cpulist_from_hex(hex, mask);
		for (int c = 0; ok && c < PF_CPUS_MAX; c++)
			set[c] |= mask[c];
	}
	if (!ok) {
		memset(set, 0, PF_CPUS_MAX * sizeof(*set));
		return false;
	}
	for (int c = 0; c < PF_CPUS_MAX; c++)
		set[c] &= !neg[c];
	return true;
}

/* ",A" or ",A-B" (no comma first); a == b is one CPU. */
static void append(char *out, size_t len, size_t *used, long a, long b)
{
	if (*used >= len)
		return;
	const char *sep = *used ? "," : "";
	if (a == b)
		*used += (size_t)snprintf(out + *used, len - *used, "%s%ld", sep, a);
	else
		*used += (size_t)snprintf(out + *used, len - *used, "%s%ld-%ld", sep, a, b);
}

void pf_cpulist_format(const bool *set, char *out, size_t len)
{
	size_t used = 0;
	out[0] = '\0';
	for (long c = 0; c < PF_CPUS_MAX; c++)
		if (set[c])
			append(out, len, &used, c, c);
}

void pf_cpulist_pack(const bool *set, char *out, size_t len)
{
	size_t used = 0;
	out[0] = '\0';
	for (long c = 0; c < PF_CPUS_MAX; c++) {
		if (!set[c])
			continue;
		long e = c;
		while (e + 1 < PF_CPUS_MAX && set[e + 1])
			e++;
		append(out, len, &used, c, e);
		c = e;
	}
}

void pf_cpulist_hex(const bool *set, char *out, size_t len)
{
	int top = 0; /* hex digits needed, at least one, rounded up to groups of 8 */
	for (int c = 0; c < PF_CPUS_MAX; c++)
		if (set[c])
			top = c / 4 + 1;
	int digits = top ? top : 1;
	digits = (digits + 7) / 8 * 8;
	size_t used = 0;
	out[0] = '\0';
	for (int d = digits - 1; d >= 0 && used + 2 < len; d--) {
		int v = 0;
		for (int b = 0; b < 4; b++)
			v |= (d * 4 + b < PF_CPUS_MAX && set[d * 4 + b]) << b;
		out[used++] = "0123456789abcdef"[v];
		if (d && d % 8 == 0)
			out[used++] = ',';
		out[used] = '\0';
	}
}
