// SPDX-License-Identifier: GPL-2.0-only
#include "record_select.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct pidset {
	int *v;
	int n, cap;
};

static int add(struct pidset *p, int pid, struct pm_diag *d)
{
	if (p->n == p->cap) {
		int cap = p->cap ? p->cap * 2 : 64;
		int *grown = realloc(p->v, (size_t)cap * sizeof(*grown));
		if (!grown)
			return pm_fail(d, "out of memory");
		p->v = grown;
		p->cap = cap;
	}
	p->v[p->n++] = pid;
	return 0;
}

static int by_value(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static void path_of(char *buf, size_t len, const char *root, const char *rel)
{
	snprintf(buf, len, "%s/%s", strcmp(root, "/") == 0 ? "" : root, rel);
}

static int comms(const char *root, const struct record_select *s, struct pidset *p,
		 struct pm_diag *d)
{
	char dir[PATH_MAX];
	path_of(dir, sizeof(dir), root, "proc");
	DIR *proc = opendir(dir);
	if (!proc)
		return pm_fail(d, "cannot list %s: %s (needed for --comm)", dir, strerror(errno));
	int *found = calloc((size_t)s->ncomms, sizeof(*found));
	if (!found) {
		closedir(proc);
		return pm_fail(d, "out of memory");
	}
	int rc = 0;
	struct dirent *e;
	while (rc == 0 && (e = readdir(proc)) != NULL) {
		char *end, file[PATH_MAX + 300], comm[64];
		long pid = strtol(e->d_name, &end, 10);
		if (*end || pid <= 0)
			continue;
		snprintf(file, sizeof(file), "%s/%s/comm", dir, e->d_name);
		FILE *f = fopen(file, "r");
		if (!f)
			continue; /* gone since the listing */
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = '\0';
		fclose(f);
		comm[strcspn(comm, "\n")] = '\0';
		for (int i = 0; i < s->ncomms && rc == 0; i++)
			if (fnmatch(s->comms[i], comm, 0) == 0) {
				found[i]++;
				rc = add(p, (int)pid, d);
			}
	}
	closedir(proc);
	for (int i = 0; i < s->ncomms && rc == 0; i++)
		if (!found[i])
			rc = pm_fail(d, "--comm %s: no process of that name runs (in %s/*/comm)",
				     s->comms[i], dir);
	free(found);
	return rc;
}

static int cgroup(const char *root, const char *cg, struct pidset *p, struct pm_diag *d)
{
	char rel[PATH_MAX], file[PATH_MAX + 64], line[64];
	if (cg[0] == '/')
		snprintf(rel, sizeof(rel), "%s", cg + 1);
	else
		snprintf(rel, sizeof(rel), "sys/fs/cgroup/%s", cg);
	path_of(file, sizeof(file), root, rel);
	snprintf(file + strlen(file), sizeof(file) - strlen(file), "/cgroup.procs");
	FILE *f = fopen(file, "r");
	if (!f)
		return pm_fail(d, "--cgroup %s: cannot read %s: %s (expected a cgroup v2 directory)",
			       cg, file, strerror(errno));
	int before = p->n, rc = 0;
	while (rc == 0 && fgets(line, sizeof(line), f)) {
		char *end;
		long pid = strtol(line, &end, 10);
		if (end == line || (*end && *end != '\n') || pid <= 0) {
			rc = pm_fail(d, "%s: '%.32s' is not a PID", file, line);
			break;
		}
		rc = add(p, (int)pid, d);
	}
	fclose(f);
	if (rc == 0 && p->n == before)
		rc = pm_fail(d, "--cgroup %s: no process in it (%s is empty)", cg, file);
	return rc;
}

int record_select_pids(const char *root, const struct record_select *s, int **out, int *n,
		       struct pm_diag *d)
{
	struct pidset p = { 0 };
	char dir[PATH_MAX + 32];
	int rc = 0;
	for (int i = 0; i < s->npids && rc == 0; i++) {
		char rel[32];
		snprintf(rel, sizeof(rel), "proc/%d", s->pids[i]);
		path_of(dir, sizeof(dir), root, rel);
		if (access(dir, F_OK) < 0)
			rc = pm_fail(d, "-p %d: no such process (no %s)", s->pids[i], dir);
		else
			rc = add(&p, s->pids[i], d);
	}
	if (rc == 0 && s->ncomms)
		rc = comms(root, s, &p, d);
	if (rc == 0 && s->cgroup)
		rc = cgroup(root, s->cgroup, &p, d);
	if (rc < 0) {
		free(p.v);
		return -1;
	}
	qsort(p.v, (size_t)p.n, sizeof(*p.v), by_value);
	int k = 0;
	for (int i = 0; i < p.n; i++)
		if (!k || p.v[k - 1] != p.v[i])
			p.v[k++] = p.v[i];
	*out = p.v;
	*n = k;
	return 0;
}
