// SPDX-License-Identifier: GPL-2.0-only
/* What a lab offers -- governors, workloads, engine tunables, machines --
 * as one JSON document, what pmlab governors, workloads and machines list. */
#include <stdlib.h>

#include <jansson.h>

#include "../cpufreq/cpufreq.h"
#include "../cpuidle/cpuidle.h"
#include "../engine/sim.h"
#include "../workload/workload.h"
#include "lib.h"

static json_t *tunables(const struct tunable *t, int n)
{
	json_t *a = json_array();

	for (int i = 0; a && i < n; i++) {
		char def[64];
		json_t *o, *words = NULL;

		tunable_format_value(&t[i], t[i].def, def, sizeof(def));
		if (t[i].words) {
			words = json_array();
			for (int k = 0; words && t[i].words[k]; k++)
				json_array_append_new(words, json_string(t[i].words[k]));
		}
		o = json_pack("{s:s, s:s, s:s, s:I, s:I, s:o*}", "name", t[i].name, "help",
			      t[i].help ? t[i].help : "", "default", def, "min", (json_int_t)t[i].min,
			      "max", (json_int_t)t[i].max, "choices", words);
		if (!o || json_array_append_new(a, o) < 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static int add(json_t *list, json_t *item)
{
	return item ? json_array_append_new(list, item) : -1;
}

char *pmlab_lab_catalog(const pmlab_lab *lab)
{
	json_t *cf = json_array(), *ci = json_array(), *wl = json_array(), *eng = json_array(),
	       *ms = json_array(), *pl = json_array(), *doc;
	int rc = cf && ci && wl && eng && ms && pl ? 0 : -1;
	const struct gov_registry *reg = &lab->plugins.reg;
	char *text;

	for (int i = 0; rc == 0 && i < registry_cpufreq_count(reg); i++) {
		const struct cpufreq_governor *g = registry_cpufreq_at(reg, i);
		rc = add(cf, json_pack("{s:s, s:s, s:b, s:s*, s:o*}", "name", g->name, "summary",
				       g->summary, "plugin", g->plugin != NULL, "origin",
				       g->plugin ? plugin_set_origin_of(&lab->plugins, g->name) : NULL,
				       "tunables",
				       tunables(g->tunables, g->ntunables)));
	}
	for (int i = 0; rc == 0 && i < registry_cpuidle_count(reg); i++) {
		const struct cpuidle_governor *g = registry_cpuidle_at(reg, i);
		rc = add(ci, json_pack("{s:s, s:s, s:b, s:s*, s:o*}", "name", g->name, "summary",
				       g->summary, "plugin", g->plugin != NULL, "origin",
				       g->plugin ? plugin_set_origin_of(&lab->plugins, g->name) : NULL,
				       "tunables", tunables(g->tunables, g->ntunables)));
	}
	for (int i = 0; rc == 0 && i < registry_placement_count(reg); i++) {
		const struct placement_ops *p = registry_placement_at(reg, i);
		rc = add(pl, json_pack("{s:s, s:s, s:b, s:s*, s:o*}", "name", p->name, "summary",
				       p->summary, "plugin", p->plugin != NULL, "origin",
				       p->plugin ? plugin_set_origin_of(&lab->plugins, p->name) : NULL,
				       "tunables", tunables(p->tunables, p->ntunables)));
	}
	for (int i = 0; rc == 0 && i < registry_workload_count(reg); i++) {
		const struct workload_ops *w = registry_workload_at(reg, i);
		rc = add(wl, json_pack("{s:s, s:s, s:s, s:s, s:b, s:s*, s:o*}", "name", w->name,
				       "summary", w->summary, "throughput_unit", w->throughput_unit,
				       "latency", w->latency_what, "plugin", w->plugin != NULL, "origin",
				       w->plugin ? plugin_set_origin_of(&lab->plugins, w->name) : NULL,
				       "parameters", tunables(w->params, w->nparams)));
	}
	for (int i = 0; rc == 0 && i < sim_engine_tunable_count(); i++) {
		json_t *one = tunables(sim_engine_tunable_at(i), 1);
		rc = one ? json_array_extend(eng, one) : -1;
		json_decref(one);
	}
	for (int i = 0; rc == 0 && i < machine_preset_count(); i++)
		rc = json_array_append_new(ms, json_string(machine_preset_name(i)));
	if (rc < 0) {
		json_decref(cf);
		json_decref(ci);
		json_decref(wl);
		json_decref(eng);
		json_decref(ms);
		json_decref(pl);
		return NULL;
	}
	doc = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "cpufreq", cf, "cpuidle", ci, "placement",
			pl, "workloads", wl, "engine", eng, "machines", ms);
	text = doc ? json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER) : NULL;
	json_decref(doc);
	return text;
}
