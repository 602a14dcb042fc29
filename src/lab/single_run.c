// SPDX-License-Identifier: GPL-2.0-only
#include "single_run.h"

#include <stdio.h>

#include "../export/perfetto.h"

struct wrap {
	struct perfetto *tl;
	int (*use)(void *ctx, struct sim *s, const struct run_result *r);
	void *ctx;
	struct pm_diag *d;
};

static int finish(void *ctx, struct sim *s, const struct run_result *r)
{
	struct wrap *w = ctx;
	struct pm_diag closing = { { 0 } };
	int rc = 0;

	if (w->tl) {
		rc = perfetto_close(w->tl, r->duration_ns, &closing);
		w->tl = NULL;
	}
	if (w->use(w->ctx, s, r) < 0)
		return -1;
	if (rc < 0)
		return pm_fail(w->d, "%s", closing.msg);
	return 0;
}

int single_run(const struct runspec *rs, const char *timeline, const char *title,
	       int (*use)(void *ctx, struct sim *s, const struct run_result *r), void *ctx,
	       struct pm_diag *d)
{
	struct runspec run = *rs;
	struct wrap w = { NULL, use, ctx, d };
	int rc;

	if (timeline) {
		w.tl = perfetto_open(timeline, rs->m, title, d);
		if (!w.tl)
			return -1;
		run.observer = perfetto_observer(w.tl);
	}
	rc = runspec_run(&run, finish, &w, d);
	if (w.tl)
		perfetto_discard(w.tl);
	return rc;
}
