// SPDX-License-Identifier: GPL-2.0-only
/* Broken plugins for tests/plugins/plugin_cli.sh, one per -DBAD_...:
 *   BAD_ABI      built for another plugin ABI
 *   BAD_NOSELECT an idle governor without select()
 *   BAD_CRASH    an idle governor whose select() dereferences NULL
 *   BAD_STATE    an idle governor whose select() returns a state out of range
 *   BAD_BUILTIN  an idle governor named like a built-in one (menu)
 *   BAD_NONE     provides nothing
 *   NOT_PLUGIN   no pmlab_plugin object at all */
#include <pmlab/plugin.h>

__attribute__((unused)) static int select_crash(struct pmlab_idle_device *dev, int64_t limit, bool *stop_tick)
{
	volatile int *nowhere = (volatile int *)dev->data;
	return *nowhere; /* data_size is 0: dev->data is NULL */
}

__attribute__((unused)) static int select_state(struct pmlab_idle_device *dev, int64_t limit, bool *stop_tick)
{
	return dev->nstates + 3;
}

__attribute__((unused)) static const struct pmlab_idle_governor gov = {
#if defined(BAD_BUILTIN)
	.name = "menu",
#elif defined(BAD_CRASH)
	.name = "crashy",
#else
	.name = "broken",
#endif
	.summary = "a broken governor",
#if defined(BAD_CRASH)
	.select = select_crash,
#elif !defined(BAD_NOSELECT)
	.select = select_state,
#endif
};

#ifndef NOT_PLUGIN
PMLAB_PLUGIN_EXPORT const struct pmlab_plugin pmlab_plugin = {
#ifdef BAD_ABI
	.abi = PMLAB_PLUGIN_ABI + 1,
#else
	.abi = PMLAB_PLUGIN_ABI,
#endif
#ifndef BAD_NONE
	.idle = &gov,
#endif
};
#else
PMLAB_PLUGIN_EXPORT const struct pmlab_idle_governor *something_else = &gov;
#endif
