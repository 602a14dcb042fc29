// SPDX-License-Identifier: GPL-2.0-only
#include "runspec.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cpufreq/cpufreq.h"
#include "../engine/sim.h"
#include "../plugin/guard.h"
#include "../plugin/registry.h"
#include "../profile/profile.h"
#include "reference.h"

sim_ns runspec_parse_seconds(const char *s)
{
	char *end;
	/* Plain decimal (1, 0.5, .5, 2e-3): strtod would also take " 5",
	 * "+5" and hexadecimal ("0x10" as 16 s). */
	if (!(isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]))) ||
	    strpbrk(s, "xX"))
		return -1;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end != '\0' || !isfinite(v) || v <= 0 || v > 1e6)
		return -1;
	sim_ns ns = (sim_ns)llround(v * 1e9);
	return ns > 0 ? ns : -1;
}

int runspec_parse_u64(const char *s, uint64_t *out)
{
	/* Decimal digits only: strtoull would take " 5", "+5", "0x10" and read
	 * "010" as 8. Each digit checked against overflow. */
	uint64_t v = 0;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		unsigned digit = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - digit) / 10)
			return -1;
		v = v * 10 + digit;
	}
	*out = v;
	return 0;
}

int runspec_load_machine_cpus(struct machine *m, const char *cpus, struct pm_diag *d)
{
	uint64_t n;

	if (runspec_parse_u64(cpus, &n) < 0 || n > MACHINE_MAX_CPUS)
		return pm_fail(d, "--cpus %s: expected a CPU count", cpus);
	if (machine_set_online(m, (int)n, d) < 0) {
		char why[PM_DIAG_MAX];

		snprintf(why, sizeof(why), "%s", d->msg);
		return pm_fail(d, "--cpus: %.*s", PM_DIAG_MAX - 16, why);
	}
	return 0;
}

int runspec_load_machine(struct machine *m, const char *spec, const char *cpus, struct pm_diag *d)
{
	if (machine_load(m, spec, d) < 0)
		return -1;
	return cpus ? runspec_load_machine_cpus(m, cpus, d) : 0;
}

const char *runspec_default_cpufreq(const struct machine *m, int kernel, const char **why)
{
	static const char *const whys[CPUFREQ_NDRIVERS] = {
		"the default of acpi-cpufreq", "the default of intel_pstate: powersave",
		"the default of intel_cpufreq", "the default of powernv-cpufreq",
		"the default of cpufreq-dt", "the default of amd-pstate",
		"the default of amd-pstate-epp: powersave", "no cpufreq driver",
	};
	enum cpufreq_driver_kind k = m->cpufreq_driver;
	const char *name = k == CPUFREQ_DRIVER_INTEL_PSTATE ? "intel_pstate" :
			   k == CPUFREQ_DRIVER_AMD_PSTATE_EPP ? "amd_pstate" :
			   k == CPUFREQ_DRIVER_NONE ? "performance" : "schedutil";
	const struct cpufreq_governor *g = cpufreq_governor_find(name);

	*why = (unsigned)k < CPUFREQ_NDRIVERS ? whys[k] : "";
	if (k == CPUFREQ_DRIVER_AMD_PSTATE_EPP && machine_pm_profile_server(m->pm_profile))
		*why = "the default of amd-pstate-epp on a server: performance";
	if (kernel > 0 && g && kernel < g->since) {
		*why = "the default of that kernel";
		return "performance";
	}
	return name;
}

const char *runspec_default_cpuidle(const struct machine *m, const char **why)
{
	if (m->cpuidle_driver == CPUIDLE_DRIVER_NONE) {
		*why = "no cpuidle driver";
		return "deepest";
	}
	*why = "the kernel's default";
	return "menu";
}

static int copy_name(char *dst, const char *src, size_t len, const char *what, struct pm_diag *d);

int runspec_init(struct runspec *rs, const struct machine *m, const char *workload,
		 const char *cpufreq, const char *cpuidle, struct pm_diag *d)
{
	const char *why;

	memset(rs, 0, sizeof(*rs));
	rs->m = m;
	rs->workload = workload;
	rs->duration = RUNSPEC_DEFAULT_DURATION;
	rs->seed = RUNSPEC_DEFAULT_SEED;
	rs->cpufreq_fixed = cpufreq != NULL;
	rs->cpufreq_default = cpufreq == NULL;
	rs->cpuidle_default = cpuidle == NULL;
	if (!cpufreq)
		cpufreq = runspec_default_cpufreq(m, 0, &why);
	if (!cpuidle)
		cpuidle = runspec_default_cpuidle(m, &why);
	if (copy_name(rs->cpufreq, cpufreq, strlen(cpufreq), cpufreq, d) < 0 ||
	    copy_name(rs->cpuidle, cpuidle, strlen(cpuidle), cpuidle, d) < 0)
		return -1;
	return 0;
}

int runspec_set(struct runspec *rs, const char *kv)
{
	char **grown = realloc(rs->sets, (size_t)(rs->nsets + 1) * sizeof(*grown));

	if (!grown)
		return -1;
	rs->sets = grown;
	rs->sets[rs->nsets] = strdup(kv);
	if (!rs->sets[rs->nsets])
		return -1;
	rs->nsets++;
	return 0;
}

int runspec_set_all(struct runspec *rs, const char *const *sets, int n, struct pm_diag *d)
{
	for (int i = 0; i < n; i++)
		if (runspec_set(rs, sets[i]) < 0)
			return pm_fail(d, "out of memory");
	return 0;
}

static int copy_name(char *dst, const char *src, size_t len, const char *what, struct pm_diag *d)
{
	if (len == 0 || len >= RUNSPEC_NAME_MAX)
		return pm_fail(d, "%s: expected a governor name", what);
	memcpy(dst, src, len);
	dst[len] = '\0';
	return 0;
}

/* "none:KEY=VALUE,...": the run as the command line says, with these
 * settings on top; lets one compare --set variants without a profile. */
static int apply_none(struct runspec *rs, const char *spec, const char *list, struct pm_diag *d)
{
	char *copy = strdup(list), *item, *save = NULL;
	int rc = 0;

	if (!copy)
		return pm_fail(d, "out of memory");
	if (!*copy)
		rc = pm_fail(d, "profile '%s': expected KEY=VALUE after 'none:'", spec);
	for (item = strtok_r(copy, ",", &save); item && rc == 0; item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');

		if (!eq || eq == item || !eq[1])
			rc = pm_fail(d, "profile '%s': '%s': expected KEY=VALUE", spec, item);
		else if (strncmp(item, "cpufreq=", 8) == 0) {
			rc = copy_name(rs->cpufreq, eq + 1, strlen(eq + 1), item, d);
			rs->cpufreq_default = false;
		} else if (strncmp(item, "cpuidle=", 8) == 0) {
			rc = copy_name(rs->cpuidle, eq + 1, strlen(eq + 1), item, d);
			rs->cpuidle_default = false;
		}
		else if (runspec_set(rs, item) < 0)
			rc = pm_fail(d, "out of memory");
	}
	free(copy);
	return rc;
}

/* A profile's options are never dropped silently: the report says how
 * many settings it applied and which options did nothing here. */
static int describe(struct runspec *rs, const struct profile *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int i;

	if (!f)
		return -1;
	for (i = 0; i < p->nskipped; i++)
		fprintf(f, "%s%s (%s)", i ? "; " : "", p->skipped[i].what, p->skipped[i].why);
	if (fclose(f) != 0) {
		free(buf);
		return -1;
	}
	free(rs->skipped);
	rs->skipped = buf;
	free(rs->note);
	rs->note = malloc(96);
	if (!rs->note)
		return -1;
	snprintf(rs->note, 96, "%d setting%s, %d option%s not modelled", p->nsettings,
		 p->nsettings == 1 ? "" : "s", p->nskipped, p->nskipped == 1 ? "" : "s");
	return 0;
}

int runspec_profile(struct runspec *rs, const char *spec, const char *const *dirs, int ndirs,
		    struct pm_diag *d)
{
	struct profile_env env = { .cpufreq = runspec_cpufreq(rs, NULL),
				   .cpufreq_fixed = rs->cpufreq_fixed };
	struct sim_config cfg = { .cpufreq = env.cpufreq };
	struct profile p;
	const char **sets = NULL;
	int i, n, rc = 0;

	if (strcmp(spec, "none") == 0)
		return 0;
	if (strncmp(spec, "none:", 5) == 0)
		return apply_none(rs, spec, spec + 5, d);
	memset(&p, 0, sizeof(p));
	if (profile_load_env(&p, spec, rs->m, &env, dirs, ndirs, d) < 0) {
		profile_free(&p);
		return -1;
	}
	/* The profile's own helper decides governor and order of settings,
	 * so that compare and sweep run a profile exactly as sim does. */
	sets = calloc((size_t)p.nsettings + 1, sizeof(*sets));
	if (!sets)
		rc = pm_fail(d, "out of memory");
	n = rc ? -1 : profile_apply(&p, &cfg, rs->cpufreq_fixed, NULL, 0, sets, p.nsettings + 1, d);
	if (n < 0)
		rc = -1;
	if (rc == 0 && cfg.cpufreq != env.cpufreq) {
		rc = copy_name(rs->cpufreq, cfg.cpufreq, strlen(cfg.cpufreq), spec, d);
		rs->cpufreq_default = false;
	}
	for (i = 0; rc == 0 && i < n; i++)
		if (runspec_set(rs, sets[i]) < 0)
			rc = pm_fail(d, "out of memory");
	if (rc == 0 && describe(rs, &p) < 0)
		rc = pm_fail(d, "out of memory");
	snprintf(rs->profile, sizeof(rs->profile), "%s", spec);
	free(sets);
	profile_free(&p);
	return rc;
}

/* The last --set kernel=X.Y, or 0. */
static int kernel_of(const struct runspec *rs)
{
	int version = 0;

	for (int i = 0; i < rs->nsets; i++)
		if (strncmp(rs->sets[i], "kernel=", 7) == 0)
			version = sim_kernel_version(rs->sets[i] + 7);
	return version;
}

sim_ns runspec_duration_cap(sim_ns duration)
{
	const char *v = getenv("PMLAB_MAX_DURATION");
	sim_ns cap = v ? runspec_parse_seconds(v) : -1;
	return cap > 0 && cap < duration ? cap : duration;
}

const char *runspec_cpufreq(const struct runspec *rs, const char **why)
{
	const char *none;

	if (!why)
		why = &none;
	*why = "";
	if (!rs->cpufreq_default)
		return rs->cpufreq;
	return runspec_default_cpufreq(rs->m, kernel_of(rs), why);
}

static void config(const struct runspec *rs, struct sim_config *cfg)
{
	const char *why;

	memset(cfg, 0, sizeof(*cfg));
	cfg->machine = rs->m;
	cfg->workload = rs->workload;
	cfg->cpufreq = runspec_cpufreq(rs, &why);
	cfg->cpuidle = rs->cpuidle;
	cfg->duration = runspec_duration_cap(rs->duration);
	cfg->seed = rs->seed;
	cfg->nsets = rs->nsets;
	cfg->sets = (const char *const *)rs->sets;
	cfg->check_invariants = rs->check;
	cfg->keep_finished_tasks = rs->keep_finished_tasks;
	cfg->registry = rs->registry;
	cfg->workload_data = rs->workload_data;
}

static void config_run(const struct runspec *rs, struct sim_config *cfg)
{
	config(rs, cfg);
	cfg->observer = rs->observer;
	cfg->progress = rs->progress;
	cfg->progress_ctx = rs->progress_ctx;
}

/* Why governors nobody named run: for the run's header. */
static void runspec_why(const struct runspec *rs, struct run_result *r)
{
	const char *why;

	runspec_cpufreq(rs, &why);
	snprintf(r->cpufreq_why, sizeof(r->cpufreq_why), "%s", why);
	if (rs->cpuidle_default)
		runspec_default_cpuidle(rs->m, &why);
	snprintf(r->cpuidle_why, sizeof(r->cpuidle_why), "%s", rs->cpuidle_default ? why : "");
}

int runspec_check(const struct runspec *rs, struct pm_diag *d)
{
	struct sim_config cfg;
	struct sim *s;
	int rc;

	config(rs, &cfg);
	rc = sim_create(&s, &cfg, d);
	sim_destroy(s);
	return rc;
}

static void stop_run(void *s)
{
	sim_stop(s);
}

int runspec_run(const struct runspec *rs,
		int (*use)(void *ctx, struct sim *s, const struct run_result *r), void *ctx,
		struct pm_diag *d)
{
	struct sim_config cfg;
	struct run_result r;
	struct sim *s;
	int rc;

	memset(&r, 0, sizeof(r));
	config_run(rs, &cfg);
	rc = sim_create(&s, &cfg, d);
	/* A plugin that broke a promise (plugin/guard.h) fails the run: it
	 * stops at the next event, or does not start. */
	if (rc == 0 && !plugin_faulted()) {
		plugin_stop_on_fault(stop_run, s);
		rc = sim_run(s, &r, d);
		plugin_stop_on_fault(NULL, NULL);
	}
	if (plugin_fault_take(rc == 0 ? d : &(struct pm_diag){ { 0 } }) < 0)
		rc = -1;
	if (rc == 0)
		rc = reference_apply(rs, &r, d);
	/* As pmlab sim --profile reports it, so a sweep's rows match sim's. */
	snprintf(r.profile, sizeof(r.profile), "%s", rs->profile);
	runspec_why(rs, &r);
	if (rc == 0)
		rc = use(ctx, s, &r);
	result_free(&r);
	sim_destroy(s);
	return rc;
}

void runspec_free(struct runspec *rs)
{
	int i;

	for (i = 0; i < rs->nsets; i++)
		free(rs->sets[i]);
	free(rs->sets);
	free(rs->note);
	free(rs->skipped);
	rs->sets = NULL;
	rs->note = NULL;
	rs->skipped = NULL;
	rs->nsets = 0;
}
