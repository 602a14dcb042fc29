// SPDX-License-Identifier: GPL-2.0-only
/* The public calls: load a profile (resolve, then map), free it, and put
 * it into a simulator run. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/sim.h"
#include "profile_internal.h"

void pf_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

static size_t where_len(const char *origin)
{
	const char *colon = strstr(origin, ": ");
	return colon ? (size_t)(colon - origin) : strlen(origin);
}

int pf_add_skip(struct profile *p, const char *what, const char *origin, const char *why,
		struct pm_diag *d)
{
	if ((p->nskipped & (p->nskipped - 1)) == 0) { /* 0, 1, 2, 4...: grow */
		size_t cap = p->nskipped ? 2 * (size_t)p->nskipped : 8;
		struct profile_skip *grown = realloc(p->skipped, cap * sizeof(*grown));
		if (!grown)
			return pm_fail(d, "out of memory");
		p->skipped = grown;
	}
	struct profile_skip *s = &p->skipped[p->nskipped++];
	snprintf(s->what, sizeof(s->what), "%s", what);
	snprintf(s->origin, sizeof(s->origin), "%s", origin);
	snprintf(s->why, sizeof(s->why), "%s", why);
	return 0;
}

/* One setting per key: a later line replaces an earlier one, which is
 * listed as superseded, so `show` tells which line won. */
int pf_add_setting(struct profile *p, const char *key, const char *value, const char *origin,
		   struct pm_diag *d)
{
	struct profile_setting *s = NULL;

	if (strlen(key) >= sizeof(s->key) || strlen(value) >= sizeof(s->value))
		return pm_fail_at(d, origin, 0, "%s=%s is too long for a setting (expected a value "
				  "of at most %zu characters)", key, value, sizeof(s->value) - 1);
	for (int i = 0; i < p->nsettings; i++)
		if (strcmp(p->settings[i].key, key) == 0) {
			char what[sizeof(s->kv)], why[PROFILE_TEXT_MAX];
			s = &p->settings[i];
			snprintf(what, sizeof(what), "%s", s->kv);
			snprintf(why, sizeof(why), "superseded by %.*s", (int)where_len(origin), origin);
			if (pf_add_skip(p, what, s->origin, why, d))
				return -1;
			break;
		}
	if (!s) {
		if ((p->nsettings & (p->nsettings - 1)) == 0) {
			size_t cap = p->nsettings ? 2 * (size_t)p->nsettings : 8;
			struct profile_setting *grown = realloc(p->settings, cap * sizeof(*grown));
			if (!grown)
				return pm_fail(d, "out of memory");
			p->settings = grown;
		}
		s = &p->settings[p->nsettings++];
	}
	snprintf(s->key, sizeof(s->key), "%s", key);
	snprintf(s->value, sizeof(s->value), "%s", value);
	snprintf(s->origin, sizeof(s->origin), "%s", origin);
	snprintf(s->kv, sizeof(s->kv), "%s=%s", key, value);
	s->host_only = false;
	return 0;
}

int pf_add_host_setting(struct profile *p, const char *key, const char *value,
			const char *origin, struct pm_diag *d)
{
	if (pf_add_setting(p, key, value, origin, d))
		return -1;
	for (int i = 0; i < p->nsettings; i++)
		if (strcmp(p->settings[i].key, key) == 0)
			p->settings[i].host_only = true;
	return 0;
}

int profile_load_env(struct profile *p, const char *spec, const struct machine *m,
		     const struct profile_env *env, const char *const *dirs, int ndirs,
		     struct pm_diag *d)
{
	struct pf_load L = { .m = m, .env = env, .dirs = dirs, .ndirs = ndirs, .d = d };
	int rc;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", spec);
	if (strncmp(spec, "ppd/", 4) == 0) {
		rc = pf_ppd_profile(p, spec, m, env, d);
		if (rc)
			profile_free(p);
		return rc;
	}
	rc = pf_resolve(&L, spec);
	if (rc == 0) {
		snprintf(p->path, sizeof(p->path), "%s", L.top_path);
		snprintf(p->uname, sizeof(p->uname), "%s", L.uname);
		p->tuned_version = L.tuned_version;
		if (L.summary)
			snprintf(p->summary, sizeof(p->summary), "%s", L.summary->value);
		for (int i = 0; i < L.nnotes && rc == 0; i++)
			rc = pf_add_skip(p, L.notes[i].what, L.notes[i].origin, L.notes[i].why, d);
		if (rc == 0)
			rc = pf_map(&L, p);
	}
	pf_load_free(&L);
	if (rc) {
		profile_free(p);
		snprintf(p->name, sizeof(p->name), "%s", spec);
	}
	return rc;
}

int profile_load(struct profile *p, const char *spec, const struct machine *m,
		 const char *const *dirs, int ndirs, struct pm_diag *d)
{
	return profile_load_env(p, spec, m, NULL, dirs, ndirs, d);
}

void profile_free(struct profile *p)
{
	free(p->settings);
	free(p->skipped);
	memset(p, 0, sizeof(*p));
}

int profile_apply(const struct profile *p, struct sim_config *cfg, bool keep_cpufreq,
		  const char *const *user_sets, int nuser, const char **sets_out, int max,
		  struct pm_diag *d)
{
	int n = 0;

	if (p->nsettings + nuser > max)
		return pm_fail(d, "profile %s: %d settings and %d --set do not fit (expected at "
			       "most %d in all)", p->name, p->nsettings, nuser, max);
	for (int i = 0; i < p->nsettings; i++)
		if (!p->settings[i].host_only)
			sets_out[n++] = p->settings[i].kv;
	for (int i = 0; i < nuser; i++)
		sets_out[n++] = user_sets[i]; /* after the profile's: the user's win */
	if (!keep_cpufreq && p->cpufreq[0])
		cfg->cpufreq = p->cpufreq;
	cfg->sets = sets_out;
	cfg->nsets = n;
	return n;
}

const char *profile_host_only_why(const char *key)
{
	if (strcmp(key, "cpuidle_governor") == 0)
		return "the simulator takes the idle governor from --cpuidle";
	if (strcmp(key, "platform_profile") == 0)
		return "a firmware setting the simulator does not model";
	if (strncmp(key, "module.", 7) == 0)
		return "the simulator has every governor built in";
	return "not modelled by the simulator";
}
