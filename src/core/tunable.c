// SPDX-License-Identifier: GPL-2.0-only
#include "tunable.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t *slot(const struct tunable *t, void *obj)
{
	return (int64_t *)((char *)obj + t->offset);
}

void tunables_set_defaults(const struct tunable *t, int n, void *obj)
{
	for (int i = 0; i < n; i++)
		*slot(&t[i], obj) = t[i].def;
}

int parse_int64(const char *s, int64_t *out)
{
	char *end;
	if (!s || !*s)
		return -1;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || *end != '\0')
		return -1;
	*out = v;
	return 0;
}

/* A --set value: plain decimal, an optional '-' and digits (parse_int64
 * alone would take " 5", "+5" and "\t5"). */
static int plain_int64(const char *s, int64_t *out)
{
	const char *p = *s == '-' ? s + 1 : s;
	if (!*p || strspn(p, "0123456789") != strlen(p))
		return -1;
	return parse_int64(s, out);
}

/* Named values spell their words "name=value". */
static bool named_values(const struct tunable *t)
{
	return t->words && strchr(t->words[0], '=');
}

/* The length of word w's name: all of it, or up to its '='. */
static int name_len(const char *w)
{
	const char *eq = strchr(w, '=');
	return eq ? (int)(eq - w) : (int)strlen(w);
}

static void list_words(const char *const *w, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; w[i] && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%.*s", i ? "|" : "",
					 name_len(w[i]), w[i]);
}

/* The value `value` names in t's words; -1 if it names none. */
static int word_value(const struct tunable *t, const char *value, int64_t *v)
{
	for (int64_t i = 0; t->words[i]; i++) {
		const char *w = t->words[i];
		int n = name_len(w);
		if (strncmp(w, value, (size_t)n) != 0 || value[n] != '\0')
			continue;
		if (w[n] == '=')
			return parse_int64(w + n + 1, v);
		*v = i;
		return 0;
	}
	return -1;
}

int tunables_write(const struct tunable *t, int n, void *obj, const char *name,
		   const char *value, struct pm_diag *d)
{
	for (int i = 0; i < n; i++) {
		if (strcmp(t[i].name, name) != 0)
			continue;
		int64_t v;
		if (t[i].words && word_value(&t[i], value, &v) == 0) {
			*slot(&t[i], obj) = v;
			return 1;
		}
		char words[256] = "";
		if (t[i].words)
			list_words(t[i].words, words, sizeof(words));
		if (t[i].words && !named_values(&t[i]))
			return pm_fail(d, "%s=%s: not a valid choice (expected %s)", name, value,
				       words);
		bool number = plain_int64(value, &v) == 0;
		if (!number || v < t[i].min || v > t[i].max) {
			if (t[i].words) /* named values: a name or a number in range */
				return pm_fail(d, "%s=%s: not a valid choice (expected %s or %" PRId64
					       "..%" PRId64 ")", name, value, words, t[i].min, t[i].max);
			return pm_fail(d, "%s=%s: %s (expected %" PRId64 "..%" PRId64 ")", name, value,
				       number ? "out of range" : "not an integer", t[i].min, t[i].max);
		}
		*slot(&t[i], obj) = v;
		return 1;
	}
	return 0;
}

int kv_split(const char *kv, char *key, size_t len, const char **value, struct pm_diag *d)
{
	const char *eq = strchr(kv, '=');
	if (!eq || eq == kv)
		return pm_fail(d, "--set %s: expected KEY=VALUE", kv);
	if ((size_t)(eq - kv) >= len)
		return pm_fail(d, "--set %s: key too long", kv);
	memcpy(key, kv, (size_t)(eq - kv));
	key[eq - kv] = '\0';
	*value = eq + 1;
	return 0;
}

int tunables_write_kv(const struct tunable *t, int n, void *obj, const char *kv,
		      struct pm_diag *d)
{
	char key[128];
	const char *value;
	if (kv_split(kv, key, sizeof(key), &value, d) < 0)
		return -1;
	int r = tunables_write(t, n, obj, key, value, d);
	if (r < 0) {
		char why[PM_DIAG_MAX];
		snprintf(why, sizeof(why), "%s", d->msg);
		return pm_fail(d, "--set %s", why);
	}
	return r;
}

void tunables_names(const struct tunable *t, int n, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", t[i].name);
}

int64_t tunable_get(const struct tunable *t, const void *obj)
{
	return *(const int64_t *)((const char *)obj + t->offset);
}

void tunable_format_value(const struct tunable *t, int64_t v, char *buf, size_t len)
{
	if (t->words && !named_values(t)) {
		snprintf(buf, len, "%s", t->words[v]);
		return;
	}
	for (int i = 0; t->words && t->words[i]; i++) {
		int64_t named;
		int n = name_len(t->words[i]);
		if (parse_int64(t->words[i] + n + 1, &named) == 0 && named == v) {
			snprintf(buf, len, "%.*s", n, t->words[i]);
			return;
		}
	}
	snprintf(buf, len, "%" PRId64, v);
}

void tunable_format(const struct tunable *t, const void *obj, char *buf, size_t len)
{
	tunable_format_value(t, tunable_get(t, obj), buf, len);
}
