// SPDX-License-Identifier: GPL-2.0-only
#include "worker.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../lab/runner.h"
#include "../plugin/guard.h"
#include "../plugin/registry.h"

struct isolated {
	lib_compute_fn compute;
	const void *ctx;
	unsigned forms;
	const char *name; /* names a crash */
	struct pmlab_result *res;
	pmlab_status code; /* the worker's failure */
	char msg[PM_DIAG_MAX];
};

static int send_text(FILE *out, const char *s)
{
	uint64_t len = strlen(s);
	return fwrite(&len, sizeof(len), 1, out) == 1 && fwrite(s, 1, len, out) == len ? 0 : -1;
}

/* The worker's answer: the status, then the texts or the message. */
static int isolated_job(void *ctx, int i, FILE *out, struct pm_diag *d)
{
	struct isolated *k = ctx;
	struct pmlab_result *res = lib_result_new();
	pmlab_status code = PMLAB_OK;
	int32_t c;
	int rc = 0;

	(void)i;
	if (!res)
		return pm_fail(d, "out of memory");
	if (k->compute(k->ctx, res, k->forms, &code, d) < 0)
		rc = -1;
	c = rc < 0 ? (int32_t)code : PMLAB_OK;
	if (fwrite(&c, sizeof(c), 1, out) != 1)
		rc = -2;
	for (int f = PMLAB_TABLE; rc == 0 && f <= PMLAB_HTML; f++)
		if ((k->forms & LIB_FORM(f)) && send_text(out, res->text[f] ? res->text[f] : "") < 0)
			rc = -2;
	if (rc == -1 && send_text(out, d->msg) < 0)
		rc = -2;
	pmlab_result_free(res);
	return rc == -2 ? pm_fail(d, "cannot send the result") : 0;
}

/* The next text of data[*at..len) into *s (malloc'd). */
static int take_text(const char *data, size_t len, size_t *at, char **s, struct pm_diag *d)
{
	uint64_t n;

	if (len - *at < sizeof(n))
		return pm_fail(d, "the worker's result is cut short");
	memcpy(&n, data + *at, sizeof(n));
	*at += sizeof(n);
	if (n > len - *at)
		return pm_fail(d, "the worker's result is cut short");
	if (!(*s = strndup(data + *at, (size_t)n)))
		return pm_fail(d, "out of memory");
	*at += (size_t)n;
	return 0;
}

static int isolated_deliver(void *ctx, int i, const char *data, size_t len, struct pm_diag *d)
{
	struct isolated *k = ctx;
	size_t at = sizeof(int32_t);
	int32_t c;
	char *msg;

	(void)i;
	if (len < sizeof(c))
		return pm_fail(d, "the worker's result is cut short");
	memcpy(&c, data, sizeof(c));
	k->code = (pmlab_status)c;
	if (c != PMLAB_OK) {
		if (take_text(data, len, &at, &msg, d) < 0)
			return -1;
		snprintf(k->msg, sizeof(k->msg), "%s", msg);
		free(msg);
		return 0;
	}
	for (int f = PMLAB_TABLE; f <= PMLAB_HTML; f++)
		if ((k->forms & LIB_FORM(f)) && take_text(data, len, &at, &k->res->text[f], d) < 0)
			return -1;
	return 0;
}

static void isolated_name(void *ctx, int i, char *buf, size_t size)
{
	const struct isolated *k = ctx;

	(void)i;
	snprintf(buf, size, "%s", k->name);
}

/* compute in a worker: its failure as it says, a crash as the plugin's. */
static pmlab_status in_worker(const pmlab_lab *lab, const char *name, lib_compute_fn compute,
			      const void *ctx, unsigned forms, struct pmlab_result *res,
			      pmlab_error *err)
{
	struct isolated k = { compute, ctx, forms, name, res, PMLAB_OK, "" };
	struct plugin_guard *g = plugin_guard_new();
	struct runner r = {
		.njobs = 1, .workers = 1, .job = isolated_job, .ctx = &k, .name = isolated_name,
		.deliver = isolated_deliver, .isolate = true, .worker_init = plugin_guard_arm,
		.death_note = plugin_guard_note, .init_ctx = g, .keep_signals = !lab->signals,
	};
	struct pm_diag d = { { 0 } };
	pmlab_status code = PMLAB_OK;

	if (!g)
		return lib_fail(err, PMLAB_ERR_RUN, "cannot map a page for the worker's report");
	if (runner_run(&r, &d) < 0)
		code = lib_fail_diag(err, plugin_guard_report(g)[0] ? PMLAB_ERR_PLUGIN : PMLAB_ERR_RUN,
				     &d);
	else if (k.code != PMLAB_OK)
		code = lib_fail(err, k.code, "%s", k.msg);
	plugin_guard_free(g);
	return code;
}

pmlab_status lib_compute(const pmlab_lab *lab, const char *name, lib_compute_fn compute,
			 const void *ctx, unsigned forms, pmlab_result **out, pmlab_error *err)
{
	struct pmlab_result *res = lib_result_new();
	pmlab_status code = PMLAB_OK;

	*out = NULL;
	if (!res)
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	if (lab->isolate && registry_has_plugins(&lab->plugins.reg)) {
		code = in_worker(lab, name, compute, ctx, forms, res, err);
	} else {
		struct pm_diag d = { { 0 } };
		pmlab_status why = PMLAB_OK;
		if (compute(ctx, res, forms, &why, &d) < 0)
			code = lib_fail_diag(err, why, &d);
	}
	if (code != PMLAB_OK) {
		pmlab_result_free(res);
		return code;
	}
	*out = res;
	return lib_ok(err);
}
