// SPDX-License-Identifier: GPL-2.0-only
/* Building JSON with jansson in straight-line code: the first failed
 * allocation or insertion is remembered in the context, so builders need no
 * error check per key. Shared by the run and the comparison writers. */
#ifndef PMLAB_JSON_BUILD_H
#define PMLAB_JSON_BUILD_H

#include <jansson.h>
#include <math.h>

struct jctx {
	int err;
};

static inline void put(struct jctx *c, json_t *o, const char *key, json_t *v)
{
	if (!v || json_object_set_new(o, key, v) != 0)
		c->err = 1;
}

static inline void append(struct jctx *c, json_t *a, json_t *v)
{
	if (!v || json_array_append_new(a, v) != 0)
		c->err = 1;
}

/* jansson refuses NaN and inf; -0 would print as "-0.0". */
static inline json_t *jnum(double v)
{
	if (!isfinite(v) || v == 0)
		v = 0;
	return json_real(v);
}

#endif
