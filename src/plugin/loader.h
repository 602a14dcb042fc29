// SPDX-License-Identifier: GPL-2.0-only
/* Loading plugins (include/pmlab/plugin.h): dlopen, the ABI version and
 * every operation checked before anything is used, then the governors
 * registered in a set that a lab owns (no global registry). */
#ifndef PMLAB_PLUGIN_LOADER_H
#define PMLAB_PLUGIN_LOADER_H

#include "../../include/pmlab/plugin.h"
#include "../core/diag.h"
#include "registry.h"

struct plugin_lib;

struct plugin_set {
	struct gov_registry reg; /* what runs look names up in */
	int n;
	struct plugin_lib **lib;
};

/* Loads the plugin file at path. -1 with "plugin PATH: why" in d (the set
 * unchanged). */
int plugin_set_load(struct plugin_set *s, const char *path, struct pm_diag *d);
/* Every entry of a ':'-separated list (PMLAB_PLUGIN_PATH): a file is
 * loaded, a directory's *.so files are, in name order; empty entries are
 * skipped. -1 with the first failure in d. */
int plugin_set_load_list(struct plugin_set *s, const char *list, struct pm_diag *d);
/* Registers governors that live in this process already (a Python
 * callable, through libpmlab): origin names them in messages. Either may
 * be NULL. Checked as a plugin's are. */
int plugin_set_add(struct plugin_set *s, const struct pmlab_plugin *p, const char *origin,
		   struct pm_diag *d);
/* The file of the i-th plugin loaded (0 <= i < s->n), as given. */
const char *plugin_set_file(const struct plugin_set *s, int i);
/* The files loaded, for messages and listings. */
const char *plugin_set_origin_of(const struct plugin_set *s, const char *governor);
void plugin_set_free(struct plugin_set *s);

#endif
