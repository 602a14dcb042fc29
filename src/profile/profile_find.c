// SPDX-License-Identifier: GPL-2.0-only
/* Where profiles live: the search path, finding NAME's tuned.conf, and
 * listing what is there.
 *
 * tuned looks a name up in its profile directories, user ones first, and
 * passes over a file already loaded in the current include chain, so a
 * user profile /etc/tuned/balanced can `include=balanced` and get the
 * system one. pmlab does the same over its own search path; a name may
 * also be FAMILY/NAME one level down (data/profiles/tuned-2.3/balanced),
 * and an include= from inside a family looks in that family first, so
 * the tuned 2.3 profiles include their own generation. */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/datadir.h"
#include "profile_internal.h"

#define MAX_SEARCH 32

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* tuned's safe profile name ([a-zA-Z0-9_.-]+), plus one "/" for a family. */
bool pf_name_ok(const char *name)
{
	int slashes = 0;
	const char *seg = name;

	if (!*name)
		return false;
	for (const char *c = name;; c++) {
		if (*c == '/' || *c == '\0') {
			size_t n = (size_t)(c - seg);
			if (n == 0 || (n == 1 && seg[0] == '.') || (n == 2 && seg[0] == '.' && seg[1] == '.'))
				return false;
			if (*c == '\0')
				return true;
			if (++slashes > 1)
				return false;
			seg = c + 1;
			continue;
		}
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '_' || *c == '.' || *c == '-'))
			return false;
	}
}

/* The directory of the running binary, or "" (no /proc). */
struct path_list {
	char dirs[MAX_SEARCH][PATH_MAX];
	char real[MAX_SEARCH][PATH_MAX];
	int n;
};

static void add_dir(struct path_list *l, const char *dir)
{
	char real[PATH_MAX];

	if (l->n == MAX_SEARCH || !*dir || !is_dir(dir) || !realpath(dir, real))
		return;
	for (int i = 0; i < l->n; i++)
		if (strcmp(l->real[i], real) == 0)
			return; /* the same directory by two names */
	snprintf(l->dirs[l->n], PATH_MAX, "%s", dir);
	snprintf(l->real[l->n], PATH_MAX, "%s", real);
	l->n++;
}

/* Each directory of a colon-separated list. */
static void add_dirs(struct path_list *l, const char *list)
{
	char copy[4096];

	snprintf(copy, sizeof(copy), "%s", list);
	for (char *save = NULL, *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save))
		add_dir(l, d);
}

static int add_data_dir(void *ctx, const char *dir)
{
	add_dir(ctx, dir);
	return 0;
}

static void build_path(struct path_list *l, const char *const *dirs, int ndirs)
{
	l->n = 0;
	for (int i = 0; i < ndirs; i++)
		add_dir(l, dirs[i]);
	const char *env = getenv("PMLAB_PROFILE_PATH");
	if (env)
		add_dirs(l, env);
	/* data/profiles, the installed share/pmlab/profiles, the source tree's. */
	datadir_each("profiles", add_data_dir, l);
	/* tuned's own directories; $PMLAB_TUNED_DIRS replaces them (the tests
	 * set it empty: they read only the tree). */
	env = getenv("PMLAB_TUNED_DIRS");
	add_dirs(l, env ? env : "/etc/tuned/profiles:/etc/tuned:/usr/lib/tuned/profiles:/usr/lib/tuned");
}

int profile_search_path(const char *const *dirs, int ndirs,
			int (*fn)(void *ctx, const char *dir), void *ctx)
{
	struct path_list *l = malloc(sizeof(*l)); /* 2 x 32 x PATH_MAX: not for a stack */
	int r = 0;

	if (!l)
		return -1;
	build_path(l, dirs, ndirs);
	for (int i = 0; i < l->n && !r; i++)
		r = fn(ctx, l->dirs[i]);
	free(l);
	return r;
}

static bool skipped(const char *path, char *const *skip, int nskip)
{
	char real[PATH_MAX];
	if (!realpath(path, real))
		return true;
	for (int i = 0; i < nskip; i++)
		if (strcmp(skip[i], real) == 0)
			return true;
	return false;
}

struct find_ctx {
	const char *name;
	char *const *skip;
	int nskip;
	char *found;
};

static int try_dir(void *ctx, const char *dir)
{
	struct find_ctx *f = ctx;
	char path[PATH_MAX + 256];

	snprintf(path, sizeof(path), "%s/%s/tuned.conf", dir, f->name);
	if (!is_file(path) || skipped(path, f->skip, f->nskip))
		return 0;
	f->found = strdup(path);
	return 1;
}

char *pf_find_name(const char *name, const char *first_dir, const char *const *dirs,
		   int ndirs, char *const *skip, int nskip)
{
	struct find_ctx f = { name, skip, nskip, NULL };

	if (!pf_name_ok(name))
		return NULL;
	if (first_dir && try_dir(&f, first_dir))
		return f.found;
	profile_search_path(dirs, ndirs, try_dir, &f);
	return f.found;
}

char *pf_find_path(const char *spec)
{
	char path[PATH_MAX + 16];

	if (is_file(spec))
		return strdup(spec);
	if (!is_dir(spec))
		return NULL;
	snprintf(path, sizeof(path), "%s%stuned.conf", spec,
		 spec[strlen(spec) - 1] == '/' ? "" : "/");
	return is_file(path) ? strdup(path) : NULL;
}

/* --- Listing --- */

struct lister {
	struct profile_entry *all; /* everything listed so far, to spot hidden names */
	int n, cap;
	void (*fn)(void *ctx, const struct profile_entry *e);
	void *ctx;
	int failed;
};

static void read_summary(const char *path, char *out, size_t len)
{
	struct pf_file f;
	struct pm_diag d = { "" };

	out[0] = '\0';
	if (pf_ini_load(&f, path, &d) == 0) {
		const struct pf_opt *o = pf_section_opt(pf_file_section(&f, "main"), "summary");
		if (o)
			snprintf(out, len, "%s", o->value);
	} else {
		snprintf(out, len, "(cannot read: %s)", d.msg);
	}
	pf_file_free(&f);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct profile_entry *)a)->name,
		      ((const struct profile_entry *)b)->name);
}

static int add_entry(struct lister *l, const char *dir, const char *name)
{
	char path[PATH_MAX + 256];

	snprintf(path, sizeof(path), "%s/%s/tuned.conf", dir, name);
	if (!pf_name_ok(name) || !is_file(path))
		return 0;
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 64;
		struct profile_entry *grown = realloc(l->all, (size_t)cap * sizeof(*grown));
		if (!grown)
			return -1;
		l->all = grown;
		l->cap = cap;
	}
	struct profile_entry *e = &l->all[l->n++];
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", name);
	snprintf(e->dir, sizeof(e->dir), "%s", dir);
	read_summary(path, e->summary, sizeof(e->summary));
	return 0;
}

static int list_dir(void *ctx, const char *dir)
{
	struct lister *l = ctx;
	int first = l->n;
	DIR *dp = opendir(dir);

	if (!dp)
		return 0;
	for (struct dirent *de; (de = readdir(dp));) {
		char sub[PATH_MAX + 256], conf[PATH_MAX + 512];
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		snprintf(conf, sizeof(conf), "%s/tuned.conf", sub);
		if (is_file(conf)) {
			if (add_entry(l, dir, de->d_name) < 0)
				goto oom;
			continue;
		}
		if (!is_dir(sub))
			continue;
		/* A family one level down: FAMILY/NAME. */
		DIR *fp = opendir(sub);
		if (!fp)
			continue;
		for (struct dirent *fe; (fe = readdir(fp));) {
			char name[NAME_MAX * 2 + 2];
			if (fe->d_name[0] == '.')
				continue;
			snprintf(name, sizeof(name), "%s/%s", de->d_name, fe->d_name);
			if (add_entry(l, dir, name) < 0) {
				closedir(fp);
				goto oom;
			}
		}
		closedir(fp);
	}
	closedir(dp);
	qsort(l->all + first, (size_t)(l->n - first), sizeof(*l->all), by_name);
	for (int i = first; i < l->n; i++) {
		for (int j = 0; j < first; j++)
			if (strcmp(l->all[j].name, l->all[i].name) == 0 && !l->all[j].hidden_by[0]) {
				snprintf(l->all[i].hidden_by, sizeof(l->all[i].hidden_by), "%s",
					 l->all[j].dir);
				break;
			}
		l->fn(l->ctx, &l->all[i]);
	}
	return 0;
oom:
	closedir(dp);
	l->failed = 1;
	return 1;
}

int profile_list(const char *const *dirs, int ndirs,
		 void (*fn)(void *ctx, const struct profile_entry *e), void *ctx,
		 struct pm_diag *d)
{
	struct lister l = { .fn = fn, .ctx = ctx };

	profile_search_path(dirs, ndirs, list_dir, &l);
	free(l.all);
	return l.failed ? pm_fail(d, "out of memory") : 0;
}
