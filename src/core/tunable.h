// SPDX-License-Identifier: GPL-2.0-only
/* Named integer tunables, the way sysfs exposes governor knobs: each has a
 * name, a default and a valid range, and lives at an offset inside its
 * owner's struct (an int64_t field). Enumerated tunables (e.g. a policy
 * name) store the index of the chosen word. A number with named values
 * spells each word as "name=value" (e.g. energy_performance_preference:
 * "power=255"): it accepts the names and plain numbers in [min, max], and
 * stores the number. Writes outside the range are rejected with a message,
 * as the kernel rejects them with -EINVAL. */
#ifndef PMLAB_TUNABLE_H
#define PMLAB_TUNABLE_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"

struct tunable {
	const char *name;
	const char *help;  /* one line, with the unit */
	size_t offset;     /* of an int64_t in the owner struct */
	int64_t def, min, max;
	const char *const *words; /* NULL-terminated choices, or NULL for a number */
};

#define TUNABLE_FIELD(type, field) offsetof(type, field)

void tunables_set_defaults(const struct tunable *t, int n, void *obj);
/* Returns 1 if `name` is one of t[0..n) and the value was stored, 0 if the
 * name is not known here, -1 (with a message) if the value is invalid. */
int tunables_write(const struct tunable *t, int n, void *obj, const char *name,
		   const char *value, struct pm_diag *d);
int64_t tunable_get(const struct tunable *t, const void *obj);
/* Formats the current value (number or word) into buf. */
void tunable_format(const struct tunable *t, const void *obj, char *buf, size_t len);
/* Formats value v of t (e.g. its default) the same way. */
void tunable_format_value(const struct tunable *t, int64_t v, char *buf, size_t len);

/* "KEY=VALUE" as given to --set: writes KEY to the tunable table like
 * tunables_write() (1 written, 0 not a key of this table, -1 bad value or
 * malformed text, the message starting "--set KEY=VALUE: ..."). */
int tunables_write_kv(const struct tunable *t, int n, void *obj, const char *kv,
		      struct pm_diag *d);
/* Splits "KEY=VALUE": the key into key[len], *value to the text after '='.
 * -1 with a message if there is no key or it is too long. */
int kv_split(const char *kv, char *key, size_t len, const char **value, struct pm_diag *d);
/* The table's names, comma-separated, for "expected ..." messages. */
void tunables_names(const struct tunable *t, int n, char *buf, size_t len);

/* Parses a whole decimal integer; returns -1 if `s` is not one. */
int parse_int64(const char *s, int64_t *out);

#endif
