// SPDX-License-Identifier: GPL-2.0-only
/* From a spec to the plugin instances tuned would run: the include= chain,
 * merging, [cpu] overrides from the spec, variables, and the per-instance
 * meta options (type, enabled, priority, devices, conditions).
 *
 * As tuned's loader and merger do: an included profile is loaded before
 * the profile that includes it, and later sections merge into earlier
 * ones of the same name option by option (an option keeps its first
 * position and takes the last value), unless the later section says
 * replace=1 (it replaces the earlier one) or drop=a,b (those options are
 * removed first). include= may list several names (',' or ';'). A file
 * already in the include chain is passed over when a name is looked up;
 * when no other file of that name exists, that is a cycle. Unlike tuned,
 * two branches may include the same profile (tuned refuses the second).
 *
 * Conditions: uname_regex and cpuinfo_regex are searched (re.search,
 * MULTILINE) in the machine's uname and /proc/cpuinfo (profile_vars.c);
 * an instance whose condition fails is kept, disabled, so every one of
 * its options is listed with the reason. */
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "profile_internal.h"


int pf_bool(const char *s)
{
	/* tuned's commands.get_bool(): y, yes, t, true / n, no, f, false in any
	 * case, blanks around; and the 1/0, on/off its config parser reads. */
	static const char *const yes[] = { "1", "true", "yes", "on", "y", "t" };
	static const char *const no[] = { "0", "false", "no", "off", "n", "f" };
	char w[8];
	size_t n;
	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n >= sizeof(w))
		return -1;
	memcpy(w, s, n);
	w[n] = '\0';
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcasecmp(w, yes[i]) == 0)
			return 1;
		if (strcasecmp(w, no[i]) == 0)
			return 0;
	}
	return -1;
}

/* tuned's device matcher: rules split at ',' and blanks, "!" negates, no
 * positive rule means "*"; a device matches a positive rule and no
 * negative one. */
int pf_devices_matched(const char *rules, int ncpus)
{
	char copy[1024];
	char *pos[64], *neg[64];
	int np = 0, nn = 0, matched = 0;

	snprintf(copy, sizeof(copy), "%s", rules);
	for (char *save = NULL, *r = strtok_r(copy, ", \t", &save); r;
	     r = strtok_r(NULL, ", \t", &save)) {
		if (*r == '!' && nn < 64)
			neg[nn++] = r + 1;
		else if (*r != '!' && np < 64)
			pos[np++] = r;
	}
	for (int c = 0; c < ncpus; c++) {
		char dev[16];
		bool in = np == 0, out = false;
		snprintf(dev, sizeof(dev), "cpu%d", c);
		for (int i = 0; i < np && !in; i++)
			in = fnmatch(pos[i], dev, 0) == 0;
		for (int i = 0; i < nn && !out; i++)
			out = fnmatch(neg[i], dev, 0) == 0;
		matched += in && !out;
	}
	return matched;
}

static struct pf_file *new_file(struct pf_load *L)
{
	if (L->nfiles == L->capfiles) {
		int cap = L->capfiles ? 2 * L->capfiles : 8;
		struct pf_file **grown = realloc(L->files, (size_t)cap * sizeof(*grown));
		if (!grown)
			return NULL;
		L->files = grown;
		L->capfiles = cap;
	}
	struct pf_file *f = calloc(1, sizeof(*f));
	if (f)
		L->files[L->nfiles++] = f;
	return f;
}

static int opt_push(struct pf_opt **v, int *n, int *cap, const struct pf_opt *o)
{
	if (*n == *cap) {
		int c = *cap ? 2 * *cap : 8;
		struct pf_opt *grown = realloc(*v, (size_t)c * sizeof(*grown));
		if (!grown)
			return -1;
		*v = grown;
		*cap = c;
	}
	(*v)[(*n)++] = *o;
	return 0;
}

/* Sets o in the list: in place if the key is there (the later value
 * wins, the first position stays), else at the end. */
static int opt_merge(struct pf_opt **v, int *n, int *cap, const struct pf_opt *o)
{
	for (int i = 0; i < *n; i++)
		if (strcmp((*v)[i].key, o->key) == 0) {
			(*v)[i] = *o;
			return 0;
		}
	return opt_push(v, n, cap, o);
}

static struct pf_unit *unit(struct pf_load *L, const char *name)
{
	for (int i = 0; i < L->nunits; i++)
		if (strcmp(L->units[i].name, name) == 0)
			return &L->units[i];
	if (L->nunits == L->capunits) {
		int cap = L->capunits ? 2 * L->capunits : 16;
		struct pf_unit *grown = realloc(L->units, (size_t)cap * sizeof(*grown));
		if (!grown)
			return NULL;
		L->units = grown;
		L->capunits = cap;
	}
	struct pf_unit *u = &L->units[L->nunits];
	*u = (struct pf_unit){ .name = name, .order = L->nunits };
	L->nunits++;
	return u;
}

/* Merge directives of a section, not options of the instance. */
static bool merge_meta(const char *key)
{
	return strcmp(key, "replace") == 0 || strcmp(key, "drop") == 0;
}

static int merge_section(struct pf_load *L, const struct pf_section *s)
{
	if (strcmp(s->name, "variables") == 0) {
		for (int i = 0; i < s->nopts; i++)
			if (opt_merge(&L->varopts, &L->nvaropts, &L->capvaropts, &s->opts[i]))
				return pm_fail(L->d, "out of memory");
		return 0;
	}
	struct pf_unit *u = unit(L, s->name);
	if (!u)
		return pm_fail(L->d, "out of memory");
	u->file = s->file;
	u->line = s->line;
	const struct pf_opt *rep = pf_section_opt(s, "replace");
	if (rep) {
		int b = pf_bool(rep->value);
		if (b < 0)
			return pm_fail_at(L->d, rep->file, rep->line, "[%s] replace=%s: not a boolean "
					  "(expected 1|0|true|false)", s->name, rep->value);
		if (b)
			u->nopts = 0;
	}
	const struct pf_opt *drop = pf_section_opt(s, "drop");
	if (drop) {
		char list[1024];
		snprintf(list, sizeof(list), "%s", drop->value);
		for (char *save = NULL, *k = strtok_r(list, ", \t", &save); k;
		     k = strtok_r(NULL, ", \t", &save))
			for (int i = 0; i < u->nopts; i++)
				if (strcmp(u->opts[i].key, k) == 0) {
					memmove(&u->opts[i], &u->opts[i + 1],
						(size_t)(u->nopts - i - 1) * sizeof(*u->opts));
					u->nopts--;
					break;
				}
	}
	for (int i = 0; i < s->nopts; i++) {
		if (merge_meta(s->opts[i].key) ||
		    (strcmp(s->name, "main") == 0 && strcmp(s->opts[i].key, "include") == 0))
			continue;
		if (opt_merge(&u->opts, &u->nopts, &u->cap, &s->opts[i]))
			return pm_fail(L->d, "out of memory");
	}
	return 0;
}

struct reals {
	char real[32][PATH_MAX];
	int n;
};

static int collect_real(void *ctx, const char *dir)
{
	struct reals *r = ctx;
	if (r->n < 32 && realpath(dir, r->real[r->n]))
		r->n++;
	return 0;
}

/* The family directory of a profile file (the directory holding its
 * profile directory), when that is not itself in the search path: an
 * include= looks there first. NULL otherwise. */
static char *family_dir(struct pf_load *L, const char *file)
{
	char dir[PATH_MAX], real[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s", file);
	for (int up = 0; up < 2; up++) {
		char *slash = strrchr(dir, '/');
		if (!slash)
			return NULL;
		*slash = '\0';
	}
	if (!dir[0] || !realpath(dir, real))
		return NULL;
	struct reals *reals = calloc(1, sizeof(*reals));
	if (!reals)
		return NULL;
	profile_search_path(L->dirs, L->ndirs, collect_real, reals);
	bool searched = false;
	for (int i = 0; i < reals->n && !searched; i++)
		searched = strcmp(reals->real[i], real) == 0;
	free(reals);
	return searched ? NULL : strdup(dir);
}

static int load_file(struct pf_load *L, const char *path, const struct pf_opt *from);

static int cycle_message(struct pf_load *L, const struct pf_opt *from, const char *name)
{
	char chain[PM_DIAG_MAX / 2] = "";
	for (int i = 0; i < L->depth; i++) {
		size_t used = strlen(chain);
		snprintf(chain + used, sizeof(chain) - used, "%s -> ", L->chain[i]);
	}
	return pm_fail_at(L->d, from->file, from->line, "include cycle: %s%s (expected a "
			  "profile that does not include itself)", chain, name);
}

static int include_one(struct pf_load *L, const struct pf_opt *from, const char *name)
{
	char rel[PATH_MAX + 256];
	char *path = NULL;

	if (!*name)
		return pm_fail_at(L->d, from->file, from->line, "include= names an empty profile "
				  "(expected include=NAME[,NAME...])");
	if (name[0] == '/' || strncmp(name, "./", 2) == 0 || strncmp(name, "../", 3) == 0) {
		const char *slash = strrchr(from->file, '/');
		if (name[0] == '/')
			snprintf(rel, sizeof(rel), "%s", name);
		else
			snprintf(rel, sizeof(rel), "%.*s/%s", slash ? (int)(slash - from->file) : 1,
				 slash ? from->file : ".", name);
		path = pf_find_path(rel);
	} else if (pf_name_ok(name)) {
		char *family = family_dir(L, from->file);
		path = pf_find_name(name, family, L->dirs, L->ndirs, L->chain, L->depth);
		/* Found only in the chain itself: a cycle, not a missing profile. */
		char *in_chain = path ? NULL : pf_find_name(name, family, L->dirs, L->ndirs, NULL, 0);
		free(family);
		if (in_chain) {
			free(in_chain);
			return cycle_message(L, from, name);
		}
	} else {
		return pm_fail_at(L->d, from->file, from->line, "include=%s: not a profile name "
				  "(expected letters, digits, '.', '_', '-' and at most one '/', or a "
				  "path starting with /, ./ or ../)", name);
	}
	if (!path)
		return pm_fail_at(L->d, from->file, from->line, "include=%s: no such profile "
				  "(expected a name from pmlab profile list)", name);
	int rc = load_file(L, path, from);
	free(path);
	return rc;
}

static int load_file(struct pf_load *L, const char *path, const struct pf_opt *from)
{
	char real[PATH_MAX];

	if (!realpath(path, real))
		return from ? pm_fail_at(L->d, from->file, from->line, "include: cannot open %s", path)
			    : pm_fail(L->d, "%s: cannot open", path);
	for (int i = 0; i < L->depth; i++)
		if (strcmp(L->chain[i], real) == 0)
			return cycle_message(L, from, path);
	if (L->depth == PF_MAX_DEPTH)
		return pm_fail_at(L->d, from->file, from->line, "includes nest more than %d deep "
				  "(expected a shorter include= chain)", PF_MAX_DEPTH);
	struct pf_file *f = new_file(L);
	if (!f)
		return pm_fail(L->d, "out of memory");
	if (pf_ini_load(f, path, L->d))
		return -1;
	if (f->nsecs && f->secs[0].name[0] == '\0')
		return pm_fail_at(L->d, path, f->secs[0].opts[0].line, "option '%s' before any "
				  "section (expected [main] or a plugin section first)",
				  f->secs[0].opts[0].key);
	L->chain[L->depth] = strdup(real);
	if (!L->chain[L->depth])
		return pm_fail(L->d, "out of memory");
	L->depth++;

	const struct pf_opt *inc = pf_section_opt(pf_file_section(f, "main"), "include");
	if (inc) {
		/* tuned expands include= before it knows the [variables] of the
		 * chain: only ${i:PROFILE_DIR} and ${f:...} can be used here. */
		char list[4096];
		if (pf_expand(L, inc, list, sizeof(list)))
			return -1;
		for (char *save = NULL, *n = strtok_r(list, ",;", &save); n;
		     n = strtok_r(NULL, ",;", &save)) {
			while (*n == ' ' || *n == '\t')
				n++;
			size_t len = strlen(n);
			while (len && (n[len - 1] == ' ' || n[len - 1] == '\t'))
				n[--len] = '\0';
			if (include_one(L, inc, n))
				return -1;
		}
	}
	for (int i = 0; i < f->nsecs; i++)
		if (merge_section(L, &f->secs[i]))
			return -1;
	const struct pf_opt *summary = pf_section_opt(pf_file_section(f, "main"), "summary");
	if (summary)
		L->summary = summary;
	L->depth--;
	free(L->chain[L->depth]);
	L->chain[L->depth] = NULL;
	return 0;
}

static const struct pf_opt *unit_opt(const struct pf_unit *u, const char *key)
{
	for (int i = 0; i < u->nopts; i++)
		if (strcmp(u->opts[i].key, key) == 0)
			return &u->opts[i];
	return NULL;
}

/* "governor=conservative,sampling_down_factor=10" as [cpu] options of the
 * top profile, merged last. */
int pf_tuned_version(const char *s)
{
	char *end;
	long major = strtol(s, &end, 10);
	if (end == s || *end != '.' || major != 2)
		return -1;
	const char *m = end + 1;
	long minor = strtol(m, &end, 10);
	if (end == m || minor < 0 || minor > 99 || (*end && *end != '.'))
		return -1;
	if (*end && (!end[1] || strspn(end + 1, "0123456789") != strlen(end + 1)))
		return -1;
	return (int)(major * 100 + minor);
}

/* "tuned=2.22" items out of an override list (in place): the version of
 * tuned to emulate. */
static int tuned_override(struct pf_load *L, char *text)
{
	char *w = text;
	for (char *save = NULL, *item = strtok_r(text, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		if (strncmp(item, "tuned=", 6) == 0) {
			int v = pf_tuned_version(item + 6);
			if (v < 0)
				return pm_fail(L->d, "override '%s': not a tuned version (expected e.g. "
					       "tuned=2.20 or tuned=2.22)", item);
			L->tuned_version = v;
			continue;
		}
		if (strncmp(item, "dynamic_tuning=", 15) == 0) {
			int b = pf_bool(item + 15);
			if (b < 0)
				return pm_fail(L->d, "override '%s': not a boolean (expected "
					       "dynamic_tuning=0 or 1)", item);
			L->dynamic_tuning = b;
			pf_fmt(L->dynamic_from, sizeof(L->dynamic_from), "the override %s", item);
			continue;
		}
		size_t n = strlen(item);
		if (w != text)
			*w++ = ',';
		memmove(w, item, n);
		w += n;
	}
	*w = '\0';
	return 0;
}

/* The tuned version a profile comes from: its family directory's name,
 * "tuned-X.Y" (data/profiles/tuned-2.3/balanced), or a file "tuned-version"
 * holding "X.Y" in the directory that holds the profile's (data/profiles:
 * copies of tuned 2.28's); -1 if neither says. */
static int family_version(const char *path)
{
	char dir[PATH_MAX], text[32];
	snprintf(dir, sizeof(dir), "%s", path);
	for (int up = 0; up < 2; up++) { /* .../FAMILY/NAME/tuned.conf */
		char *slash = strrchr(dir, '/');
		if (!slash)
			return -1;
		*slash = '\0';
	}
	const char *base = strrchr(dir, '/');
	base = base ? base + 1 : dir;
	if (strncmp(base, "tuned-", 6) == 0)
		return pf_tuned_version(base + 6);
	char file[PATH_MAX + 16];
	snprintf(file, sizeof(file), "%s/tuned-version", dir);
	FILE *f = fopen(file, "r");
	if (!f)
		return -1;
	int v = -1;
	if (fgets(text, sizeof(text), f)) {
		text[strcspn(text, " \t\r\n")] = '\0';
		v = pf_tuned_version(text);
	}
	fclose(f);
	return v;
}

/* tuned-main.conf beside the profile's directory (data/profiles/tuned-2.3/
 * tuned-main.conf: the RHEL 7 build's), as tuned reads
 * /etc/tuned/tuned-main.conf: its dynamic_tuning. 0 if there is none or
 * it does not say, -1 (with a message) if it is malformed. */
static int family_main_conf(struct pf_load *L, const char *path)
{
	char dir[PATH_MAX], line[512];
	snprintf(dir, sizeof(dir), "%s", path);
	for (int up = 0; up < 2; up++) {
		char *slash = strrchr(dir, '/');
		if (!slash)
			return 0;
		*slash = '\0';
	}
	char file[PATH_MAX + 32];
	snprintf(file, sizeof(file), "%s/tuned-main.conf", dir);
	FILE *f = fopen(file, "r");
	if (!f)
		return 0;
	int rc = 0, n = 0;
	while (rc == 0 && fgets(line, sizeof(line), f)) {
		n++;
		char *k = line + strspn(line, " \t");
		k[strcspn(k, "\r\n")] = '\0';
		if (!*k || *k == '#' || *k == ';')
			continue;
		char *eq = strchr(k, '=');
		if (!eq) {
			rc = pm_fail_at(L->d, file, n, "not a 'key = value' line (expected e.g. "
					"dynamic_tuning = 0)");
			break;
		}
		char *v = eq + 1;
		do
			*eq-- = '\0';
		while (eq >= k && (*eq == ' ' || *eq == '\t'));
		v += strspn(v, " \t");
		size_t len = strlen(v);
		while (len && (v[len - 1] == ' ' || v[len - 1] == '\t'))
			v[--len] = '\0';
		if (strcmp(k, "dynamic_tuning") != 0)
			continue; /* the daemon's other settings mean nothing to a model */
		int b = pf_bool(v);
		if (b < 0) {
			rc = pm_fail_at(L->d, file, n, "dynamic_tuning = %s: not a boolean (expected "
					"0 or 1)", v);
			break;
		}
		L->dynamic_tuning = b;
		pf_fmt(L->dynamic_from, sizeof(L->dynamic_from), "%s:%d", file, n);
	}
	fclose(f);
	return rc;
}

static int overrides(struct pf_load *L, const char *text)
{
	char items[1024];
	if (strlen(text) >= sizeof(items))
		return pm_fail(L->d, "override '%.40s...': too long (expected at most %zu characters)",
			       text, sizeof(items) - 1);
	snprintf(items, sizeof(items), "%s", text);
	if (tuned_override(L, items))
		return -1;
	if (!items[0])
		return 0;
	text = items;
	struct pf_file *f = new_file(L);
	if (!f || !(f->path = strdup(PF_OVERRIDE_FILE)) || !(f->dir = strdup(".")))
		return pm_fail(L->d, "out of memory");
	struct pf_unit *u = NULL;
	for (int i = 0; i < L->nunits && !u; i++) {
		const struct pf_opt *t = unit_opt(&L->units[i], "type");
		if (strcmp(t ? t->value : L->units[i].name, "cpu") == 0)
			u = &L->units[i]; /* the profile's (first) [cpu] instance */
	}
	if (!u)
		u = unit(L, "cpu");
	if (!u)
		return pm_fail(L->d, "out of memory");
	if (!u->file) {
		u->file = f->path;
		u->line = 0;
	}
	char *copy = pf_file_strdup(f, text, strlen(text));
	if (!copy)
		return pm_fail(L->d, "out of memory");
	for (char *save = NULL, *item = strtok_r(copy, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');
		if (!eq || eq == item)
			return pm_fail(L->d, "override '%s': expected OPTION=VALUE (e.g. "
				       "balanced:governor=conservative)", item);
		*eq = '\0';
		if (!pf_cpu_option_known(item))
			return pm_fail(L->d, "override: unknown [cpu] option '%s' (expected %s)",
				       item, pf_cpu_options_text);
		struct pf_opt o = { item, eq + 1, f->path, 0 };
		if (opt_merge(&u->opts, &u->nopts, &u->cap, &o))
			return pm_fail(L->d, "out of memory");
	}
	return 0;
}

static int condition(struct pf_load *L, struct pf_inst *in, const char *key, const char *text)
{
	const struct pf_opt *o = unit_opt(in->u, key);
	char pattern[1024], why[256];

	if (!o || !in->enabled)
		return 0;
	if (pf_expand(L, o, pattern, sizeof(pattern)))
		return -1;
	int m = pf_regex_search(pattern, text, why, sizeof(why));
	if (m < 0)
		return pm_fail_at(L->d, o->file, o->line, "[%s] %s: %s", in->u->name, key, why);
	if (!m) {
		in->enabled = false;
		snprintf(in->why_off, sizeof(in->why_off), "%s '%.60s' does not match this machine's "
			 "%s", key, pattern, strcmp(key, "uname_regex") == 0 ? "uname" : "/proc/cpuinfo");
	}
	return 0;
}

static int by_priority(const void *a, const void *b)
{
	const struct pf_inst *x = a, *y = b;
	if (x->priority != y->priority)
		return x->priority < y->priority ? -1 : 1;
	return x->u->order - y->u->order;
}

static int instances(struct pf_load *L)
{
	L->insts = calloc((size_t)(L->nunits ? L->nunits : 1), sizeof(*L->insts));
	if (!L->insts)
		return pm_fail(L->d, "out of memory");
	for (int i = 0; i < L->nunits; i++) {
		const struct pf_unit *u = &L->units[i];
		struct pf_inst *in = &L->insts[L->ninsts++];
		const struct pf_opt *o;

		*in = (struct pf_inst){ .u = u, .type = u->name, .enabled = true };
		if (strcmp(u->name, "main") == 0)
			continue;
		if ((o = unit_opt(u, "type")))
			in->type = o->value;
		if ((o = unit_opt(u, "priority"))) {
			char *end;
			long v = strtol(o->value, &end, 10);
			if (!*o->value || *end || v < -1000000 || v > 1000000)
				return pm_fail_at(L->d, o->file, o->line, "[%s] priority=%s: not an "
						  "integer (expected e.g. priority=10)", u->name, o->value);
			in->priority = (int)v;
		}
		if ((o = unit_opt(u, "enabled"))) {
			int b = pf_bool(o->value);
			if (b < 0)
				return pm_fail_at(L->d, o->file, o->line, "[%s] enabled=%s: not a boolean "
						  "(expected true|false|1|0)", u->name, o->value);
			if (!b) {
				in->enabled = false;
				snprintf(in->why_off, sizeof(in->why_off), "enabled=%s", o->value);
			}
		}
		in->devices = unit_opt(u, "devices");
		if (condition(L, in, "uname_regex", L->uname) ||
		    condition(L, in, "cpuinfo_regex", L->cpuinfo))
			return -1;
	}
	qsort(L->insts, (size_t)L->ninsts, sizeof(*L->insts), by_priority);
	return 0;
}

int pf_resolve(struct pf_load *L, const char *spec)
{
	char target[PATH_MAX];
	const char *colon = strchr(spec, ':');
	size_t n = colon ? (size_t)(colon - spec) : strlen(spec);

	if (n == 0 || n >= sizeof(target))
		return pm_fail(L->d, "profile '%s': expected NAME or PATH[:OPTION=VALUE,...]", spec);
	memcpy(target, spec, n);
	target[n] = '\0';
	char *path = pf_find_path(target);
	if (!path && pf_name_ok(target))
		path = pf_find_name(target, NULL, L->dirs, L->ndirs, NULL, 0);
	if (!path)
		return pm_fail(L->d, "profile '%s': not found (expected a name from pmlab profile "
			       "list, a tuned.conf or a directory holding one)", target);
	L->top_path = path;
	int family = family_version(path);
	L->tuned_version = family > 0 ? family
				      : L->env && L->env->tuned_version ? L->env->tuned_version
									: PF_TUNED_DEFAULT;
	L->dynamic_tuning = -1;
	if (family_main_conf(L, path) || pf_machine_identity(L) || load_file(L, path, NULL))
		return -1;
	if (colon && overrides(L, colon + 1))
		return -1;
	if (pf_define_vars(L))
		return -1;
	return instances(L);
}
