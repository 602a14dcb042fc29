// SPDX-License-Identifier: GPL-2.0-only
/* Results as the text of each output format, and numbers read from the
 * JSON form by path: the figures the command line prints, from the same
 * writers. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "lib.h"

struct pmlab_result *lib_result_new(void)
{
	return calloc(1, sizeof(struct pmlab_result));
}

int lib_result_capture(struct pmlab_result *res, pmlab_format f,
		       int (*write)(void *ctx, FILE *out, struct pm_diag *d), void *ctx,
		       struct pm_diag *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	int rc;

	if (!out)
		return pm_fail(d, "out of memory");
	rc = write(ctx, out, d);
	if (fclose(out) != 0 && rc == 0)
		rc = pm_fail(d, "out of memory");
	if (rc < 0) {
		free(buf);
		return -1;
	}
	free(res->text[f]);
	res->text[f] = buf;
	return 0;
}

const char *pmlab_result_text(const pmlab_result *res, pmlab_format f)
{
	return (unsigned)f <= PMLAB_HTML ? res->text[f] : NULL;
}

/* The element of v that one path component names. */
static json_t *step(json_t *v, const char *name, size_t len)
{
	char key[256];
	char *end;

	if (len >= sizeof(key))
		return NULL;
	memcpy(key, name, len);
	key[len] = '\0';
	if (json_is_object(v))
		return json_object_get(v, key);
	if (json_is_array(v) && len > 0 && key[0] >= '0' && key[0] <= '9') {
		errno = 0;
		unsigned long i = strtoul(key, &end, 10);
		return *end || errno ? NULL : json_array_get(v, i);
	}
	return NULL;
}

pmlab_status pmlab_result_number(const pmlab_result *res, const char *path, double *out,
				 pmlab_error *err)
{
	pmlab_result *r = (pmlab_result *)res; /* the parse is a cache */
	json_t *v;
	json_error_t je;

	if (!res->text[PMLAB_JSON])
		return lib_fail(err, PMLAB_ERR_STATE, "this result has no JSON form");
	if (!r->json && !(r->json = json_loads(res->text[PMLAB_JSON], 0, &je)))
		return lib_fail(err, PMLAB_ERR_RUN, "result JSON: %s", je.text);
	v = r->json;
	for (const char *p = path; v && *p;) {
		size_t len = strcspn(p, ".");
		v = step(v, p, len);
		p += len;
		if (*p == '.' && *++p == '\0')
			v = NULL;
	}
	if (!v || !json_is_number(v))
		return lib_fail(err, PMLAB_ERR_INPUT, "result: '%s': %s", path,
				v ? "not a number" : "no such value");
	*out = json_number_value(v);
	return lib_ok(err);
}

void pmlab_result_free(pmlab_result *res)
{
	if (!res)
		return;
	for (int f = 0; f <= PMLAB_HTML; f++)
		free(res->text[f]);
	json_decref(res->json);
	free(res);
}
