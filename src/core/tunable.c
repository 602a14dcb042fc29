#include "tunable.h"

#include <errno.h>
#include <inttypes.h>
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

static void list_words(const char *const *w, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; w[i] && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "|" : "", w[i]);
}

int tunables_write(const struct tunable *t, int n, void *obj, const char *name,
		   const char *value, struct pm_diag *d)
{
	for (int i = 0; i < n; i++) {
		if (strcmp(t[i].name, name) != 0)
			continue;
		int64_t v;
		if (t[i].words) {
			for (v = 0; t[i].words[v]; v++)
				if (strcmp(t[i].words[v], value) == 0)
					break;
			if (!t[i].words[v]) {
				char choices[256];
				list_words(t[i].words, choices, sizeof(choices));
				return pm_fail(d, "%s=%s: not a valid choice (expected %s)", name, value,
					       choices);
			}
		} else if (parse_int64(value, &v) < 0) {
			return pm_fail(d, "%s=%s: not an integer (expected %" PRId64 "..%" PRId64 ")",
				       name, value, t[i].min, t[i].max);
		} else if (v < t[i].min || v > t[i].max) {
			return pm_fail(d, "%s=%s: out of range (expected %" PRId64 "..%" PRId64 ")",
				       name, value, t[i].min, t[i].max);
		}
		*slot(&t[i], obj) = v;
		return 1;
	}
	return 0;
}

int64_t tunable_get(const struct tunable *t, const void *obj)
{
	return *(const int64_t *)((const char *)obj + t->offset);
}

void tunable_format(const struct tunable *t, const void *obj, char *buf, size_t len)
{
	int64_t v = tunable_get(t, obj);
	if (t->words)
		snprintf(buf, len, "%s", t->words[v]);
	else
		snprintf(buf, len, "%" PRId64, v);
}
