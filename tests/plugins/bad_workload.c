// SPDX-License-Identifier: GPL-2.0-only
/* Broken workload plugins for tests/plugins/plugin_cli.sh, one per -D...:
 *   BAD_WL_NONEXT  a workload without next()
 *   BAD_WL_ACTION  a workload whose next() returns an action kind that does not exist */
#include <pmlab/plugin.h>

static int wl_init(struct pmlab_run_ctx *c, char *err, size_t errlen)
{
	return c->task_new(c, "bad", 0) < 0 ? -1 : 0;
}

__attribute__((unused)) static void wl_next(struct pmlab_run_ctx *c, int task,
					    struct pmlab_action *a)
{
	a->kind = (enum pmlab_action_kind)9;
}

static const struct pmlab_workload wl = {
	.name = "badwl",
	.summary = "a broken workload",
	.init = wl_init,
#ifndef BAD_WL_NONEXT
	.next = wl_next,
#endif
};

PMLAB_PLUGIN_EXPORT const struct pmlab_plugin pmlab_plugin = {
	.abi = PMLAB_PLUGIN_ABI,
	.workload = &wl,
};
