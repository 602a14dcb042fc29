// SPDX-License-Identifier: GPL-2.0-only
/* tuned's [vm] plugin and the vm.* sysctls the simulator models (memory
 * and writeback, engine/writeback.c, and the workloads' use of huge
 * pages):
 *   [vm] transparent_hugepages=always|never (plugin_vm.py; tuned 2.3
 *     accepts those two, later versions madvise too; its spelling with
 *     an 's' is tuned's, the sysfs file and the engine key have none)
 *     -> transparent_hugepage;
 *   [sysctl] vm.dirty_ratio, vm.dirty_background_ratio,
 *     vm.dirty_writeback_centisecs, vm.dirty_expire_centisecs -> the
 *     engine keys of the same names (vm. dropped).
 * Other [vm] options (dirty_bytes and friends of later tunes) are listed
 * as not modelled. */
#include <stdio.h>
#include <string.h>

#include "profile_map.h"

static const struct {
	const char *sysctl, *engine;
} vm_sysctls[] = {
	{ "vm.dirty_ratio", "dirty_ratio" },
	{ "vm.dirty_background_ratio", "dirty_background_ratio" },
	{ "vm.dirty_writeback_centisecs", "dirty_writeback_centisecs" },
	{ "vm.dirty_expire_centisecs", "dirty_expire_centisecs" },
};

/* 1 when the sysctl is one of ours (mapped, or failed with -1 returned
 * through *rc), 0 when it is not. */
int pfm_vm_sysctl(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
		  const char *name, int *rc)
{
	for (size_t i = 0; i < sizeof(vm_sysctls) / sizeof(vm_sysctls[0]); i++) {
		if (strcmp(vm_sysctls[i].sysctl, name) != 0)
			continue;
		char value[VALUE_MAX];
		*rc = pf_expand(m->L, o, value, sizeof(value)) ? -1
			: pfm_set_knob(m, in, o, pfm_engine_tunable(vm_sysctls[i].engine), value, NULL);
		return 1;
	}
	return 0;
}

static int vm_option(struct map *m, const struct pf_inst *in, const struct pf_opt *o)
{
	if (strcmp(o->key, "transparent_hugepages") != 0 && strcmp(o->key, "transparent_hugepage") != 0)
		return pfm_skip(m, in, o, "not modelled");
	char value[VALUE_MAX];
	if (pf_expand(m->L, o, value, sizeof(value)))
		return -1;
	if (strcmp(value, "madvise") == 0 && m->L->tuned_version < 220)
		return pfm_skip(m, in, o, "tuned %d.%d takes always or never only (it logs "
				"\"Incorrect 'transparent_hugepages' value\")",
				m->L->tuned_version / 100, m->L->tuned_version % 100);
	if (strcmp(value, "always") && strcmp(value, "never") && strcmp(value, "madvise"))
		return pfm_bad(m, in, o, "not a transparent hugepage mode (expected always, madvise "
			       "or never)");
	return pfm_set_knob(m, in, o, pfm_engine_tunable("transparent_hugepage"), value, NULL);
}

int pfm_vm_instance(struct map *m, const struct pf_inst *in)
{
	return pfm_each_option(m, in, vm_option);
}
