// SPDX-License-Identifier: GPL-2.0-only
/* Broken placement policies for tests/plugins/plugin_cli.sh, one per -D:
 *   BAD_PL_NOSELECT no select_cpu()
 *   BAD_PL_CPU      select_cpu() returns a CPU the machine does not have
 *   BAD_PL_CRASH    select_cpu() dereferences NULL
 *   BAD_PL_WORDS    a word tunable whose min..max do not index its words
 *   BAD_PL_ABI1     a placement policy in a plugin that says ABI 1 */
#include <pmlab/plugin.h>

__attribute__((unused)) static int select_bad(struct pmlab_sched *s, const struct pmlab_select *w)
{
#ifdef BAD_PL_CRASH
	volatile int *nowhere = (volatile int *)s->data;
	return *nowhere; /* data_size is 0: s->data is NULL */
#else
	return s->ncpus + 5;
#endif
}

static const char *const words[] = { "low", "high", NULL };
__attribute__((unused)) static const struct pmlab_tunable tunables[] = {
	{ "badpl_mode", "low or high", 0, 0, 2, words },
};

static const struct pmlab_placement pl = {
	.name = "badpl",
	.summary = "a broken placement policy",
#ifdef BAD_PL_WORDS
	.tunables = tunables,
	.ntunables = 1,
#endif
#ifndef BAD_PL_NOSELECT
	.select_cpu = select_bad,
#endif
};

PMLAB_PLUGIN_EXPORT const struct pmlab_plugin pmlab_plugin = {
#ifdef BAD_PL_ABI1
	.abi = 1,
#else
	.abi = PMLAB_PLUGIN_ABI,
#endif
	.placement = &pl,
};
