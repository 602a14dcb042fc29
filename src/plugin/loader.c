// SPDX-License-Identifier: GPL-2.0-only
#include "loader.h"

#include <dirent.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../engine/sim.h"
#include "adapter.h"

/* The layout of struct pmlab_tunable in plugin ABI 1 (no words). */
struct pmlab_tunable_abi1 {
	const char *name;
	const char *help;
	int64_t def, min, max;
};

/* A plugin as this pmlab's ABI has it: the plugin's own structures for
 * ABI 2; for ABI 1, copies of them whose tunable tables are converted. */
struct plugin_norm {
	struct pmlab_plugin p;
	struct pmlab_idle_governor idle;
	struct pmlab_freq_governor freq;
	struct pmlab_workload wl;
	struct pmlab_tunable *tables[3];
};

struct plugin_lib {
	char *origin;   /* the file, as given */
	void *handle;   /* dlopen's; NULL for governors of this process */
	struct plugin_norm *norm;
	struct idle_plugin *idle;
	struct freq_plugin *freq;
	struct workload_plugin *wl;
	struct placement_plugin *pl;
};

/* Keys that --set, --vary and profiles read as pmlab's own, not as tunables. */
static const char *const reserved[] = { "kernel", "cstate_disable", "pm_qos_dynamic",
					"placement", "machine", "workload", "cpus", "cpufreq",
					"cpuidle", "profile", "duration", "seed" };

/* A governor's name: what --cpuidle and --set accept, and a file name. */
static bool good_name(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (n == 0 || n >= 64)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_' || *s == '-'))
			return false;
	return true;
}

/* A word of a tunable's: [a-z0-9_.+-], a letter first (so that it is not
 * read as a number), under 32 characters; "NAME=NUMBER" for named numbers. */
static bool good_word(const char *w, bool named, int64_t *number)
{
	size_t n = strcspn(w, "=");

	if (n == 0 || n >= 32 || !(*w >= 'a' && *w <= 'z'))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((w[i] >= 'a' && w[i] <= 'z') || (w[i] >= '0' && w[i] <= '9') ||
		      strchr("_.+-", w[i])))
			return false;
	if (named != (w[n] == '='))
		return false;
	return !named || parse_int64(w + n + 1, number) == 0;
}

/* A tunable's words (plugin.h): plain words whose indexes are min..max,
 * or names of numbers in min..max; each name once. */
static int check_words(const char *origin, const char *kind, const char *name,
		       const struct pmlab_tunable *t, struct pm_diag *d)
{
	bool named = t->words[0] && strchr(t->words[0], '=');
	int n = 0;

	for (; t->words[n]; n++) {
		const char *w = t->words[n];
		int64_t v = 0;
		if (n == 32)
			return pm_fail(d, "plugin %s: %s '%s': tunable %s has more than 32 words", origin,
				       kind, name, t->name);
		if (!good_word(w, named, &v))
			return pm_fail(d, "plugin %s: %s '%s': tunable %s: word '%s' (expected %s)",
				       origin, kind, name, t->name, w,
				       named ? "NAME=NUMBER like the first word, the name [a-z][a-z0-9_.+-]*"
					     : "[a-z][a-z0-9_.+-]*, under 32 characters, like the first word");
		if (named && (v < t->min || v > t->max))
			return pm_fail(d, "plugin %s: %s '%s': tunable %s: word '%s' outside %lld..%lld",
				       origin, kind, name, t->name, w, (long long)t->min,
				       (long long)t->max);
		for (int k = 0; k < n; k++)
			if (strcspn(t->words[k], "=") == strcspn(w, "=") &&
			    strncmp(t->words[k], w, strcspn(w, "=")) == 0)
				return pm_fail(d, "plugin %s: %s '%s': tunable %s: word '%.*s' is listed "
					       "twice", origin, kind, name, t->name, (int)strcspn(w, "="), w);
	}
	if (n == 0)
		return pm_fail(d, "plugin %s: %s '%s': tunable %s: an empty word list (NULL words "
			       "for a number)", origin, kind, name, t->name);
	if (!named && (t->min != 0 || t->max != n - 1))
		return pm_fail(d, "plugin %s: %s '%s': tunable %s: %d words, so min 0 and max %d "
			       "(not %lld..%lld)", origin, kind, name, t->name, n, n - 1,
			       (long long)t->min, (long long)t->max);
	return 0;
}

static int check_tunables(const char *origin, const char *kind, const char *name,
			  const struct pmlab_tunable *t, int n, struct pm_diag *d)
{
	if (n < 0 || n > 64 || (n > 0 && !t))
		return pm_fail(d, "plugin %s: %s '%s': %d tunables (expected 0..64, with a table)",
			       origin, kind, name, n);
	for (int i = 0; i < n; i++) {
		if (!good_name(t[i].name) || strchr(t[i].name, '-'))
			return pm_fail(d, "plugin %s: %s '%s': tunable %d: name '%s' (expected "
				       "[a-z0-9_], under 64 characters)", origin, kind, name, i,
				       t[i].name ? t[i].name : "(null)");
		if (t[i].min > t[i].max || t[i].def < t[i].min || t[i].def > t[i].max)
			return pm_fail(d, "plugin %s: %s '%s': tunable %s: default %lld outside "
				       "%lld..%lld", origin, kind, name, t[i].name, (long long)t[i].def,
				       (long long)t[i].min, (long long)t[i].max);
		if (t[i].words && check_words(origin, kind, name, &t[i], d) < 0)
			return -1;
		for (int k = 0; k < i; k++)
			if (strcmp(t[k].name, t[i].name) == 0)
				return pm_fail(d, "plugin %s: %s '%s': tunable %s is listed twice", origin,
					       kind, name, t[i].name);
		for (int k = 0; k < sim_engine_tunable_count(); k++)
			if (strcmp(sim_engine_tunable_at(k)->name, t[i].name) == 0)
				return pm_fail(d, "plugin %s: %s '%s': tunable %s is the engine's (pick "
					       "another name)", origin, kind, name, t[i].name);
		for (size_t k = 0; k < sizeof(reserved) / sizeof(reserved[0]); k++)
			if (strcmp(reserved[k], t[i].name) == 0)
				return pm_fail(d, "plugin %s: %s '%s': tunable %s is a key of pmlab's own "
					       "(pick another name)", origin, kind, name, t[i].name);
	}
	return 0;
}

/* Where a workload of that name already comes from, or NULL. */
static const char *workload_taken(const struct plugin_set *s, const char *name)
{
	if (workload_find(name))
		return "pmlab (built in)";
	for (int i = 0; i < s->n; i++)
		if (s->lib[i]->wl && !strcmp(s->lib[i]->wl->wl.name, name))
			return s->lib[i]->origin;
	return NULL;
}

static int check_workload(const struct plugin_set *s, const struct pmlab_workload *w,
			  const char *origin, struct pm_diag *d)
{
	const char *other;

	if (!good_name(w->name) || strchr(w->name, ':'))
		return pm_fail(d, "plugin %s: workload name '%s' (expected [a-z0-9_-], under 64 "
			       "characters)", origin, w->name ? w->name : "(null)");
	if (!w->init || !w->next)
		return pm_fail(d, "plugin %s: workload '%s' has no %s", origin, w->name,
			       !w->init ? "init()" : "next()");
	if ((other = workload_taken(s, w->name)))
		return pm_fail(d, "plugin %s: workload '%s' is already defined by %s", origin, w->name,
			       other);
	if (w->data_size > (256u << 20))
		return pm_fail(d, "plugin %s: workload '%s': data_size %zu (expected at most 256 MiB)",
			       origin, w->name, w->data_size);
	return check_tunables(origin, "workload", w->name, w->params, w->nparams, d);
}

/* Where a governor of that name already comes from, or NULL. */
static const char *taken(const struct plugin_set *s, bool idle, const char *name)
{
	if (idle ? cpuidle_governor_find(name) != NULL : cpufreq_governor_find(name) != NULL)
		return "pmlab (built in)";
	for (int i = 0; i < s->n; i++)
		if (idle ? s->lib[i]->idle && !strcmp(s->lib[i]->idle->gov.name, name)
			 : s->lib[i]->freq && !strcmp(s->lib[i]->freq->gov.name, name))
			return s->lib[i]->origin;
	return NULL;
}

/* Where a placement policy of that name already comes from, or NULL. */
static const char *placement_taken(const struct plugin_set *s, const char *name)
{
	if (placement_find(name))
		return "pmlab (built in)";
	for (int i = 0; i < s->n; i++)
		if (s->lib[i]->pl && !strcmp(s->lib[i]->pl->ops.name, name))
			return s->lib[i]->origin;
	return NULL;
}

static int check_placement(const struct plugin_set *s, const struct pmlab_placement *pl,
			   const char *origin, struct pm_diag *d)
{
	const char *other;

	if (!good_name(pl->name))
		return pm_fail(d, "plugin %s: placement policy name '%s' (expected [a-z0-9_-], under "
			       "64 characters)", origin, pl->name ? pl->name : "(null)");
	if (!pl->select_cpu)
		return pm_fail(d, "plugin %s: placement policy '%s' has no select_cpu()", origin,
			       pl->name);
	if ((other = placement_taken(s, pl->name)))
		return pm_fail(d, "plugin %s: placement policy '%s' is already defined by %s", origin,
			       pl->name, other);
	if (pl->data_size > (256u << 20))
		return pm_fail(d, "plugin %s: placement policy '%s': data_size %zu (expected at most "
			       "256 MiB)", origin, pl->name, pl->data_size);
	return check_tunables(origin, "placement policy", pl->name, pl->tunables, pl->ntunables, d);
}

/* Every promise of p's that can be checked before a run. */
static int check(const struct plugin_set *s, const struct pmlab_plugin *p, const char *origin,
		 struct pm_diag *d)
{
	const struct pmlab_idle_governor *ig = p->idle;
	const struct pmlab_freq_governor *fg = p->freq;
	const char *other;

	if (!ig && !fg && !p->workload && !p->placement)
		return pm_fail(d, "plugin %s: provides no governor, placement policy or workload "
			       "(.idle, .freq, .placement and .workload are NULL)", origin);
	if (p->workload && check_workload(s, p->workload, origin, d) < 0)
		return -1;
	if (p->placement && check_placement(s, p->placement, origin, d) < 0)
		return -1;
	if (ig) {
		if (!good_name(ig->name))
			return pm_fail(d, "plugin %s: idle governor name '%s' (expected [a-z0-9_-], "
				       "under 64 characters)", origin, ig->name ? ig->name : "(null)");
		if (!ig->select)
			return pm_fail(d, "plugin %s: idle governor '%s' has no select()", origin,
				       ig->name);
		if ((other = taken(s, true, ig->name)))
			return pm_fail(d, "plugin %s: idle governor '%s' is already defined by %s",
				       origin, ig->name, other);
		if (ig->data_size > (64u << 20))
			return pm_fail(d, "plugin %s: idle governor '%s': data_size %zu (expected at "
				       "most 64 MiB per CPU)", origin, ig->name, ig->data_size);
		if (check_tunables(origin, "idle governor", ig->name, ig->tunables, ig->ntunables,
				   d) < 0)
			return -1;
	}
	if (fg) {
		if (!good_name(fg->name))
			return pm_fail(d, "plugin %s: frequency governor name '%s' (expected "
				       "[a-z0-9_-], under 64 characters)", origin,
				       fg->name ? fg->name : "(null)");
		if (!fg->limits)
			return pm_fail(d, "plugin %s: frequency governor '%s' has no limits()", origin,
				       fg->name);
		if ((other = taken(s, false, fg->name)))
			return pm_fail(d, "plugin %s: frequency governor '%s' is already defined by %s",
				       origin, fg->name, other);
		if (fg->data_size > (64u << 20))
			return pm_fail(d, "plugin %s: frequency governor '%s': data_size %zu (expected "
				       "at most 64 MiB per policy)", origin, fg->name, fg->data_size);
		if (check_tunables(origin, "frequency governor", fg->name, fg->tunables,
				   fg->ntunables, d) < 0)
			return -1;
	}
	return 0;
}

static void norm_free(struct plugin_norm *n)
{
	if (!n)
		return;
	for (int i = 0; i < 3; i++)
		free(n->tables[i]);
	free(n);
}

/* An ABI 1 table as this ABI's (no words). NULL on OOM (n > 0). */
static struct pmlab_tunable *table_from_abi1(const struct pmlab_tunable_abi1 *t, int n)
{
	struct pmlab_tunable *out = calloc((size_t)(n > 0 ? n : 1), sizeof(*out));

	for (int i = 0; out && i < n; i++)
		out[i] = (struct pmlab_tunable){ t[i].name, t[i].help, t[i].def, t[i].min, t[i].max,
						 NULL };
	return out;
}

/* p as this ABI has it, in *out (the caller frees it with norm_free()).
 * -1 with the reason in d. */
static int normalize(const struct pmlab_plugin *p, const char *origin, struct plugin_norm **out,
		     struct pm_diag *d)
{
	struct plugin_norm *n;

	*out = NULL;
	if (p->abi < PMLAB_PLUGIN_ABI_OLDEST || p->abi > PMLAB_PLUGIN_ABI)
		return pm_fail(d, "plugin %s: built for plugin ABI %u, this pmlab loads ABI %d..%d "
			       "(rebuild it against this pmlab's pmlab/plugin.h)", origin, p->abi,
			       PMLAB_PLUGIN_ABI_OLDEST, PMLAB_PLUGIN_ABI);
	if (!(n = calloc(1, sizeof(*n))))
		return pm_fail(d, "out of memory");
	n->p = *p;
	*out = n;
	if (p->abi >= 2)
		return 0;
	/* ABI 1: its last member was reserved, and its tunables had no words. */
	if (p->placement) {
		norm_free(n);
		*out = NULL;
		return pm_fail(d, "plugin %s: ABI 1 has no placement seam (.placement must be NULL; "
			       "rebuild it against this pmlab's pmlab/plugin.h)", origin);
	}
	if (p->idle) {
		n->idle = *p->idle;
		n->p.idle = &n->idle;
		if (n->idle.ntunables > 0 && n->idle.tunables &&
		    !(n->tables[0] = table_from_abi1((const void *)n->idle.tunables,
						     n->idle.ntunables)))
			goto oom;
		n->idle.tunables = n->tables[0] ? n->tables[0] : n->idle.tunables;
	}
	if (p->freq) {
		n->freq = *p->freq;
		n->p.freq = &n->freq;
		if (n->freq.ntunables > 0 && n->freq.tunables &&
		    !(n->tables[1] = table_from_abi1((const void *)n->freq.tunables,
						     n->freq.ntunables)))
			goto oom;
		n->freq.tunables = n->tables[1] ? n->tables[1] : n->freq.tunables;
	}
	if (p->workload) {
		n->wl = *p->workload;
		n->p.workload = &n->wl;
		if (n->wl.nparams > 0 && n->wl.params &&
		    !(n->tables[2] = table_from_abi1((const void *)n->wl.params, n->wl.nparams)))
			goto oom;
		n->wl.params = n->tables[2] ? n->tables[2] : n->wl.params;
	}
	return 0;
oom:
	norm_free(n);
	*out = NULL;
	return pm_fail(d, "out of memory");
}

static void lib_free(struct plugin_lib *l)
{
	if (!l)
		return;
	if (l->idle)
		idle_plugin_fini(l->idle);
	if (l->freq)
		freq_plugin_fini(l->freq);
	if (l->wl)
		workload_plugin_fini(l->wl);
	if (l->pl)
		placement_plugin_fini(l->pl);
	free(l->idle);
	free(l->freq);
	free(l->wl);
	free(l->pl);
	norm_free(l->norm);
	if (l->handle)
		dlclose(l->handle);
	free(l->origin);
	free(l);
}

/* Registers l's governors in s. -1 on OOM (s unchanged). */
static int add(struct plugin_set *s, struct plugin_lib *l)
{
	struct plugin_lib **libs = realloc(s->lib, (size_t)(s->n + 1) * sizeof(*libs));
	const struct cpuidle_governor **ci;
	const struct cpufreq_governor **cf;
	const struct workload_ops **wl;
	const struct placement_ops **pl;

	if (!libs)
		return -1;
	s->lib = libs;
	ci = realloc(s->reg.cpuidle, (size_t)(s->reg.ncpuidle + 1) * sizeof(*ci));
	if (!ci)
		return -1;
	s->reg.cpuidle = ci;
	cf = realloc(s->reg.cpufreq, (size_t)(s->reg.ncpufreq + 1) * sizeof(*cf));
	if (!cf)
		return -1;
	s->reg.cpufreq = cf;
	wl = realloc(s->reg.workload, (size_t)(s->reg.nworkload + 1) * sizeof(*wl));
	if (!wl)
		return -1;
	s->reg.workload = wl;
	pl = realloc(s->reg.placement, (size_t)(s->reg.nplacement + 1) * sizeof(*pl));
	if (!pl)
		return -1;
	s->reg.placement = pl;
	s->lib[s->n++] = l;
	if (l->pl)
		s->reg.placement[s->reg.nplacement++] = &l->pl->ops;
	if (l->idle)
		s->reg.cpuidle[s->reg.ncpuidle++] = &l->idle->gov;
	if (l->freq)
		s->reg.cpufreq[s->reg.ncpufreq++] = &l->freq->gov;
	if (l->wl)
		s->reg.workload[s->reg.nworkload++] = &l->wl->wl;
	return 0;
}

/* Takes n (checked) and handle. */
static int adopt(struct plugin_set *s, struct plugin_norm *n, const char *origin, void *handle,
		 struct pm_diag *d)
{
	struct plugin_lib *l = calloc(1, sizeof(*l));
	const struct pmlab_plugin *p = &n->p;
	int rc = 0;

	if (!l) {
		norm_free(n);
		if (handle)
			dlclose(handle);
		return pm_fail(d, "out of memory");
	}
	l->handle = handle;
	l->norm = n;
	if (!(l->origin = strdup(origin)))
		rc = -1;
	if (rc == 0 && p->idle && (!(l->idle = malloc(sizeof(*l->idle))) ||
				   idle_plugin_init(l->idle, p->idle, l->origin) < 0))
		rc = -1;
	if (rc == 0 && p->freq && (!(l->freq = malloc(sizeof(*l->freq))) ||
				   freq_plugin_init(l->freq, p->freq, l->origin) < 0))
		rc = -1;
	if (rc == 0 && p->workload && (!(l->wl = malloc(sizeof(*l->wl))) ||
				       workload_plugin_init(l->wl, p->workload, l->origin) < 0))
		rc = -1;
	if (rc == 0 && p->placement && (!(l->pl = malloc(sizeof(*l->pl))) ||
					placement_plugin_init(l->pl, p->placement, l->origin) < 0))
		rc = -1;
	if (rc == 0)
		rc = add(s, l);
	if (rc < 0) {
		lib_free(l);
		return pm_fail(d, "out of memory");
	}
	return 0;
}

int plugin_set_add(struct plugin_set *s, const struct pmlab_plugin *p, const char *origin,
		   struct pm_diag *d)
{
	struct plugin_norm *n;

	if (!p)
		return pm_fail(d, "plugin %s: no plugin given", origin);
	if (normalize(p, origin, &n, d) < 0)
		return -1;
	if (check(s, &n->p, origin, d) < 0) {
		norm_free(n);
		return -1;
	}
	return adopt(s, n, origin, NULL, d);
}

int plugin_set_load(struct plugin_set *s, const char *path, struct pm_diag *d)
{
	const struct pmlab_plugin *p;
	struct plugin_norm *n;
	struct stat st;
	void *h;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return pm_fail(d, "plugin %s: no such file (give a path: ./NAME.so)", path);
	/* RTLD_LOCAL: two plugins may each define pmlab_plugin. A path
	 * without '/' would be searched in the library path: make it local. */
	if (!strchr(path, '/')) {
		char local[4096];
		snprintf(local, sizeof(local), "./%s", path);
		h = dlopen(local, RTLD_NOW | RTLD_LOCAL);
	} else {
		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	}
	if (!h) {
		const char *why = dlerror();
		return pm_fail(d, "plugin %s: cannot load: %s", path, why ? why : "unknown error");
	}
	p = dlsym(h, "pmlab_plugin");
	if (!p) {
		dlclose(h);
		return pm_fail(d, "plugin %s: no 'pmlab_plugin' object: not a pmlab plugin (see "
			       "pmlab/plugin.h and examples/plugins)", path);
	}
	if (normalize(p, path, &n, d) < 0) {
		dlclose(h);
		return -1;
	}
	if (check(s, &n->p, path, d) < 0) {
		norm_free(n);
		dlclose(h);
		return -1;
	}
	return adopt(s, n, path, h, d);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int load_dir(struct plugin_set *s, const char *dir, struct pm_diag *d)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	int n = 0, rc = 0;

	if (!dp)
		return pm_fail(d, "PMLAB_PLUGIN_PATH: %s: cannot read the directory", dir);
	while ((e = readdir(dp)) && rc == 0) {
		size_t len = strlen(e->d_name);
		char **more;
		if (len < 4 || strcmp(e->d_name + len - 3, ".so") != 0)
			continue;
		more = realloc(names, (size_t)(n + 1) * sizeof(*more));
		if (!more || !(more[n] = malloc(strlen(dir) + len + 2))) {
			names = more ? more : names;
			rc = pm_fail(d, "out of memory");
			break;
		}
		names = more;
		sprintf(names[n++], "%s/%s", dir, e->d_name);
	}
	closedir(dp);
	if (names)
		qsort(names, (size_t)n, sizeof(*names), by_name);
	for (int i = 0; i < n; i++) {
		if (rc == 0)
			rc = plugin_set_load(s, names[i], d);
		free(names[i]);
	}
	free(names);
	return rc;
}

int plugin_set_load_list(struct plugin_set *s, const char *list, struct pm_diag *d)
{
	char *copy = strdup(list), *item, *save = NULL;
	int rc = 0;

	if (!copy)
		return pm_fail(d, "out of memory");
	for (item = strtok_r(copy, ":", &save); item && rc == 0; item = strtok_r(NULL, ":", &save)) {
		struct stat st;
		if (stat(item, &st) < 0)
			rc = pm_fail(d, "PMLAB_PLUGIN_PATH: %s: no such file or directory", item);
		else if (S_ISDIR(st.st_mode))
			rc = load_dir(s, item, d);
		else
			rc = plugin_set_load(s, item, d);
	}
	free(copy);
	return rc;
}

const char *plugin_set_file(const struct plugin_set *s, int i)
{
	return s->lib[i]->origin;
}

const char *plugin_set_origin_of(const struct plugin_set *s, const char *governor)
{
	for (int i = 0; s && i < s->n; i++)
		if ((s->lib[i]->idle && !strcmp(s->lib[i]->idle->gov.name, governor)) ||
		    (s->lib[i]->freq && !strcmp(s->lib[i]->freq->gov.name, governor)) ||
		    (s->lib[i]->wl && !strcmp(s->lib[i]->wl->wl.name, governor)) ||
		    (s->lib[i]->pl && !strcmp(s->lib[i]->pl->ops.name, governor)))
			return s->lib[i]->origin;
	return NULL;
}

void plugin_set_free(struct plugin_set *s)
{
	for (int i = 0; i < s->n; i++)
		lib_free(s->lib[i]);
	free(s->lib);
	free(s->reg.cpuidle);
	free(s->reg.cpufreq);
	free(s->reg.workload);
	free(s->reg.placement);
	memset(s, 0, sizeof(*s));
}
