// SPDX-License-Identifier: GPL-2.0-only
/* Loading a tuned profile for this machine. See hostprofile.h. */
#include "hostprofile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "../cpufreq/cpufreq.h"
#include "ppd.h"

/* The options the mapper keeps only when it models intel_pstate. */
static const char *const hint_keys[] = {
	"energy_perf_bias", "energy_performance_preference", "min_perf_pct", "max_perf_pct",
	"no_turbo",
};

/* "model name : X" of the root's /proc/cpuinfo, for cpuinfo_regex. */
static void model_name(const struct hostfs *fs, char *out, size_t len)
{
	char buf[16384];
	out[0] = '\0';
	int fd = hostfs_open_ro(fs, "proc/cpuinfo");
	if (fd < 0)
		return;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	const char *s = strstr(buf, "model name");
	if (!s)
		s = strstr(buf, "\ncpu\t");
	if (!s || !(s = strchr(s, ':')))
		return;
	s++;
	while (*s == ' ' || *s == '\t')
		s++;
	size_t m = strcspn(s, "\n");
	snprintf(out, len, "%.*s", (int)(m < len ? m : len - 1), s);
}

void host_machine(struct machine *m, const struct hostfs *fs, const struct host_info *hi)
{
	*m = (struct machine){ 0 };
	snprintf(m->name, sizeof(m->name), "this machine");
	model_name(fs, m->description, sizeof(m->description));
	int n = hi->ncpus > 0 ? hi->ncpus : 1;
	if (n > MACHINE_MAX_CPUS)
		n = MACHINE_MAX_CPUS;
	m->packages = 1;
	m->cores_per_package = n;
	m->threads_per_core = 1;
	m->llc_cores = n;
	m->freq_domain = FREQ_DOMAIN_CORE;
	m->online_cpus = n;
	m->base_khz = hi->npolicies ? hi->pol[0].base_khz : 0;
	/* Linux's states as they are, POLL included and marked polling, so
	 * the mapper's cstate.id:N is this machine's stateN. */
	for (int i = 0; i < hi->ncstates && i < MACHINE_MAX_CSTATES; i++) {
		struct cstate *c = &m->cstates[m->ncstates++];
		snprintf(c->name, sizeof(c->name), "%.15s", hi->cstates[i].name);
		snprintf(c->desc, sizeof(c->desc), "%.47s", hi->cstates[i].desc);
		c->exit_ns = (sim_ns)hi->cstates[i].latency_us * 1000;
		c->residency_ns = (sim_ns)hi->cstates[i].residency_us * 1000;
		c->poll = i == 0 && strcmp(hi->cstates[i].name, "POLL") == 0;
	}
}

bool host_driver_owns_policies(const struct host_info *hi)
{
	if (!hi->npolicies)
		return false;
	const char *drv = hi->pol[0].driver;
	return strcmp(drv, "intel_pstate") == 0 || strcmp(drv, "amd-pstate-epp") == 0;
}

static bool is_hint_key(const char *key)
{
	for (size_t i = 0; i < sizeof(hint_keys) / sizeof(hint_keys[0]); i++)
		if (strcmp(key, hint_keys[i]) == 0)
			return true;
	return false;
}

/* Whether a skipped entry ("[cpu] energy_perf_bias=...") is about key. */
static bool skip_is(const struct profile_skip *s, const char *key)
{
	const char *b = strstr(s->what, "] ");
	size_t n = strlen(key);
	return b && strncmp(b + 2, key, n) == 0 && b[2 + n] == '=';
}

static int add_setting(struct profile *p, const struct profile_setting *s, struct pm_diag *d)
{
	struct profile_setting *grown = realloc(p->settings,
						((size_t)p->nsettings + 1) * sizeof(*grown));
	if (!grown)
		return pm_fail(d, "out of memory");
	p->settings = grown;
	p->settings[p->nsettings++] = *s;
	return 0;
}

/* A load that models intel_pstate keeps the hints whatever the governor;
 * take them, and drop the skipped lines that said they were lost. */
static int merge_hints(struct profile *p, const struct profile *hints, struct pm_diag *d)
{
	for (int i = 0; i < hints->nsettings; i++) {
		const struct profile_setting *s = &hints->settings[i];
		bool have = false;
		if (!is_hint_key(s->key))
			continue;
		for (int k = 0; k < p->nsettings; k++)
			have |= strcmp(p->settings[k].key, s->key) == 0;
		if (have)
			continue;
		if (add_setting(p, s, d) < 0)
			return -1;
		int kept = 0;
		for (int k = 0; k < p->nskipped; k++)
			if (!skip_is(&p->skipped[k], s->key))
				p->skipped[kept++] = p->skipped[k];
		p->nskipped = kept;
	}
	return 0;
}

/* Under intel_pstate the mapper gives the governor as its
 * scaling_governor setting; make it the profile's governor. */
static void governor_from_policy(struct profile *p)
{
	for (int i = 0; i < p->nsettings; i++) {
		if (strcmp(p->settings[i].key, "scaling_governor") != 0)
			continue;
		snprintf(p->cpufreq, sizeof(p->cpufreq), "%.63s", p->settings[i].value);
		snprintf(p->cpufreq_origin, sizeof(p->cpufreq_origin), "%s", p->settings[i].origin);
		memmove(&p->settings[i], &p->settings[i + 1],
			(size_t)(p->nsettings - i - 1) * sizeof(*p->settings));
		p->nsettings--;
		return;
	}
}

int host_profile_load(struct profile *p, const char *spec, const struct hostfs *fs,
		      const struct host_info *hi, const char *const *dirs, int ndirs,
		      struct pm_diag *d)
{
	struct machine m;
	struct utsname u;
	char uname_text[PROFILE_TEXT_MAX];
	host_machine(&m, fs, hi);
	if (uname(&u) == 0)
		snprintf(uname_text, sizeof(uname_text), "%.40s %.40s %.60s %.60s %.20s", u.sysname,
			 u.nodename, u.release, u.version, u.machine);
	else
		snprintf(uname_text, sizeof(uname_text), "Linux");
	if (strncmp(spec, "ppd/", 4) == 0)
		return host_ppd_profile(p, spec, fs, hi, d);
	/* tuned's functions see this machine's CPUs; messages name its driver */
	struct profile_cpus cpus = { hi->ncpus, hi->cpus, hi->packages,
				     hi->present[0] ? hi->present : NULL };
	const char *driver = hi->npolicies && hi->pol[0].driver[0] ? hi->pol[0].driver : NULL;
	struct profile_env pstate = { .cpufreq = "intel_pstate", .cpufreq_fixed = true,
				      .uname = uname_text, .cpus = &cpus, .driver = driver };
	if (host_driver_owns_policies(hi)) {
		/* Its two policies are scaling_governor performance|powersave, as
		 * the mapper's intel_pstate model has them (amd-pstate-epp too). */
		if (profile_load_env(p, spec, &m, &pstate, dirs, ndirs, d) < 0)
			return -1;
		governor_from_policy(p);
		return 0;
	}
	const struct cpufreq_governor *cur =
		hi->npolicies ? cpufreq_governor_find(hi->pol[0].governor) : NULL;
	struct profile_env env = { .cpufreq = cur ? cur->name : "performance",
				   .uname = uname_text, .cpus = &cpus, .driver = driver };
	if (profile_load_env(p, spec, &m, &env, dirs, ndirs, d) < 0)
		return -1;
	/* acpi-cpufreq machines have EPB, passive intel_cpufreq ones EPP: a
	 * second load, as intel_pstate, yields those hints. */
	struct profile hints;
	struct pm_diag hd;
	if (profile_load_env(&hints, spec, &m, &pstate, dirs, ndirs, &hd) == 0) {
		int rc = merge_hints(p, &hints, d);
		profile_free(&hints);
		if (rc < 0) {
			profile_free(p);
			return -1;
		}
	}
	return 0;
}
