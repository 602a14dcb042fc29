// SPDX-License-Identifier: GPL-2.0-only
/* Governors driven by recorded traces, as pmlab idletrace and pmlab
 * govtrace: an idle governor on CPU 0 of a machine, fed idle periods
 * (cpuidle/idletrace.c), and a frequency governor with its own small
 * driver, fed util-hook calls (cpufreq/govtrace.c). A plugin's governor
 * runs in a worker process (worker.h), as a plugin's run does. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../plugin/guard.h"
#include "../plugin/registry.h"
#include "lib_trace.h"
#include "worker.h"

/* ---- what both share ---- */

/* A broken promise of a plugin's, named for the command. */
static int fault(const char *name, pmlab_status *code, struct pm_diag *d)
{
	char why[PM_DIAG_MAX];

	if (plugin_fault_take(d) == 0)
		return 0;
	snprintf(why, sizeof(why), "%s", d->msg);
	*code = PMLAB_ERR_PLUGIN;
	return pm_fail(d, "%s: %.*s", name, PM_DIAG_MAX - 32, why);
}

static int dump_json(void *ctx, FILE *out, struct pm_diag *d)
{
	if (json_dumpf(ctx, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) < 0 || fputc('\n', out) < 0)
		return pm_fail(d, "out of memory");
	return 0;
}

/* ---- idle governors ---- */

struct pmlab_idletrace {
	const pmlab_lab *lab;
	struct machine m;
	char *governor;
	struct lib_strings sets;
	enum tick_policy tick_policy;
	int hz;
};

pmlab_status pmlab_idletrace_new(const pmlab_lab *lab, const pmlab_machine *m,
				 const char *governor, pmlab_idletrace **out, pmlab_error *err)
{
	pmlab_idletrace *it;

	*out = NULL;
	if (!lab || !m)
		return lib_fail(err, PMLAB_ERR_INPUT, "idletrace: expected a lab and a machine");
	if (!governor || !*governor)
		return lib_fail(err, PMLAB_ERR_INPUT, "idletrace: expected an idle governor");
	it = calloc(1, sizeof(*it));
	if (!it || !(it->governor = strdup(governor))) {
		free(it);
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	}
	it->lab = lab;
	it->m = m->m;
	it->tick_policy = TICK_GOVERNOR;
	it->hz = 250;
	*out = it;
	return lib_ok(err);
}

void pmlab_idletrace_free(pmlab_idletrace *it)
{
	if (!it)
		return;
	free(it->governor);
	lib_strings_free(&it->sets);
	free(it);
}

pmlab_status pmlab_idletrace_set(pmlab_idletrace *it, const char *key_value, pmlab_error *err)
{
	if (!key_value)
		return lib_fail(err, PMLAB_ERR_INPUT, "--set: expected KEY=VALUE");
	if (lib_strings_add(&it->sets, key_value) < 0)
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	return lib_ok(err);
}

pmlab_status pmlab_idletrace_tick_policy(pmlab_idletrace *it, const char *policy,
					 pmlab_error *err)
{
	if (!policy || tick_policy_parse(policy, &it->tick_policy) < 0)
		return lib_fail(err, PMLAB_ERR_INPUT, "--tick-policy %s: expected legacy, governor or "
				"periodic", policy ? policy : "");
	return lib_ok(err);
}

pmlab_status pmlab_idletrace_hz(pmlab_idletrace *it, int hz, pmlab_error *err)
{
	if (hz != 100 && hz != 250 && hz != 300 && hz != 1000)
		return lib_fail(err, PMLAB_ERR_INPUT, "--hz %d: expected 100, 250, 300 or 1000", hz);
	it->hz = hz;
	return lib_ok(err);
}

/* The governor set up on CPU 0 in s; -1 with the reason in d. */
static int idle_init(const pmlab_idletrace *it, struct idletrace_sim *s, struct pm_diag *d)
{
	const struct idletrace_config cfg = {
		.governor = it->governor, .tick_policy = it->tick_policy, .hz = it->hz,
		.sets = (const char *const *)it->sets.s, .nsets = it->sets.n,
		.registry = &it->lab->plugins.reg,
	};

	*s = (struct idletrace_sim){ 0 };
	return idletrace_sim_init(s, &it->m, &cfg, d);
}

pmlab_status pmlab_idletrace_validate(pmlab_idletrace *it, pmlab_error *err)
{
	struct idletrace_sim s;
	struct pm_diag d = { { 0 } };
	int rc = idle_init(it, &s, &d);

	idletrace_sim_destroy(&s);
	return rc < 0 ? lib_fail_diag(err, PMLAB_ERR_INPUT, &d) : lib_ok(err);
}

struct idle_run {
	const pmlab_idletrace *it;
	const struct idletrace *t;
	const struct cpuidle_device *dev;
	struct idletrace_step *steps;
	uint64_t count[MACHINE_MAX_CSTATES], above, below, stopped;
};

static int idle_csv(void *ctx, FILE *out, struct pm_diag *d)
{
	const struct idle_run *k = ctx;

	fputs("idx,state,stop_tick,above,below\n", out);
	for (int i = 0; i < k->t->nrows; i++) {
		const struct idletrace_step *st = &k->steps[i];
		fprintf(out, "%d,%s,%d,%d,%d\n", i, k->dev->states[st->state].name, st->tick_stopped,
			st->miss == CPUIDLE_ABOVE, st->miss == CPUIDLE_BELOW);
	}
	fputs("# states:", out);
	for (int i = 0; i < k->dev->nstates; i++)
		fprintf(out, " %s=%" PRIu64, k->dev->states[i].name, k->count[i]);
	fprintf(out, "; above=%" PRIu64 " below=%" PRIu64 " tick_stopped=%" PRIu64 "\n", k->above,
		k->below, k->stopped);
	return 0;
}

static json_t *idle_json(const struct idle_run *k)
{
	json_t *o = json_object(), *periods = json_array(), *states = json_object();

	for (int i = 0; o && periods && i < k->t->nrows; i++) {
		const struct idletrace_step *st = &k->steps[i];
		json_array_append_new(periods, json_pack("{s:i, s:s, s:b, s:b, s:b}", "idx", i,
			"state", k->dev->states[st->state].name, "stop_tick", st->tick_stopped,
			"above", st->miss == CPUIDLE_ABOVE, "below", st->miss == CPUIDLE_BELOW));
	}
	for (int i = 0; states && i < k->dev->nstates; i++)
		json_object_set_new(states, k->dev->states[i].name, json_integer((json_int_t)k->count[i]));
	json_object_set_new(o, "periods", periods);
	json_object_set_new(o, "states", states);
	json_object_set_new(o, "above", json_integer((json_int_t)k->above));
	json_object_set_new(o, "below", json_integer((json_int_t)k->below));
	json_object_set_new(o, "tick_stopped", json_integer((json_int_t)k->stopped));
	return o;
}

struct idle_ctx {
	const pmlab_idletrace *it;
	const struct idletrace *t;
};

static int idle_compute(const void *ctx, struct pmlab_result *res, unsigned forms,
			pmlab_status *code, struct pm_diag *d)
{
	const struct idle_ctx *c = ctx;
	struct idle_run k = { c->it, c->t, NULL, NULL, { 0 }, 0, 0, 0 };
	struct idletrace_sim s;
	json_t *json = NULL;
	int rc = -1;

	*code = PMLAB_ERR_INPUT;
	if (idle_init(c->it, &s, d) < 0)
		goto out;
	*code = PMLAB_ERR_NOMEM;
	k.dev = &s.dev;
	k.steps = calloc((size_t)c->t->nrows + 1, sizeof(*k.steps));
	if (!k.steps) {
		pm_fail(d, "out of memory");
		goto out;
	}
	/* A plugin's broken promise ends the trace there. */
	for (int i = 0; i < c->t->nrows && !plugin_faulted(); i++) {
		struct idletrace_step *st = &k.steps[i];
		idletrace_sim_step(&s, &c->t->rows[i], st);
		k.count[st->state]++;
		k.above += st->miss == CPUIDLE_ABOVE;
		k.below += st->miss == CPUIDLE_BELOW;
		k.stopped += st->tick_stopped;
	}
	if (fault("idletrace", code, d) < 0)
		goto out;
	*code = PMLAB_ERR_NOMEM;
	if ((forms & LIB_FORM(PMLAB_JSON)) && !(json = idle_json(&k))) {
		pm_fail(d, "out of memory");
		goto out;
	}
	if (((forms & LIB_FORM(PMLAB_CSV)) && lib_result_capture(res, PMLAB_CSV, idle_csv, &k, d) < 0) ||
	    ((forms & LIB_FORM(PMLAB_JSON)) && lib_result_capture(res, PMLAB_JSON, dump_json, json, d) < 0))
		goto out;
	rc = 0;
out:
	json_decref(json);
	free(k.steps);
	idletrace_sim_destroy(&s);
	return rc;
}

pmlab_status pmlab_idletrace_exec(pmlab_idletrace *it, const pmlab_trace *t, pmlab_result **out,
				  pmlab_error *err)
{
	*out = NULL;
	if (!t || t->kind != PMLAB_TRACE_IDLE)
		return lib_fail(err, PMLAB_ERR_INPUT, "idletrace: %s: expected a trace of idle periods "
				"(PMLAB_TRACE_IDLE), not %s", t ? t->name : "(none)",
				t ? t->format : "nothing");
	return lib_compute(it->lab, "idletrace", idle_compute, &(struct idle_ctx){ it, &t->idle },
			   LIB_FORM(PMLAB_CSV) | LIB_FORM(PMLAB_JSON), out, err);
}

/* One form of a computed result to out; the result freed. */
static pmlab_status write_form(const char *name, pmlab_result *res, pmlab_format f, FILE *out,
			       pmlab_error *err)
{
	int bad = fputs(res->text[f], out) < 0;

	pmlab_result_free(res);
	return bad ? lib_fail(err, PMLAB_ERR_IO, "%s: cannot write the result", name) : lib_ok(err);
}

/* The form a write asks for, among those computed. */
static pmlab_status writable(const char *name, FILE *out, pmlab_format f, pmlab_error *err)
{
	if (!out || (f != PMLAB_CSV && f != PMLAB_JSON))
		return lib_fail(err, PMLAB_ERR_INPUT, "%s: expected a stream, and CSV or JSON", name);
	return lib_ok(err);
}

pmlab_status pmlab_idletrace_write(pmlab_idletrace *it, const pmlab_trace *t, FILE *out,
				   pmlab_format f, pmlab_error *err)
{
	pmlab_result *res;
	pmlab_status rc = writable("idletrace", out, f, err);

	if (rc != PMLAB_OK)
		return rc;
	if (!t || t->kind != PMLAB_TRACE_IDLE)
		return pmlab_idletrace_exec(it, t, &res, err); /* says what is wrong */
	rc = lib_compute(it->lab, "idletrace", idle_compute, &(struct idle_ctx){ it, &t->idle },
			 LIB_FORM(f), &res, err);
	return rc != PMLAB_OK ? rc : write_form("idletrace", res, f, out, err);
}

/* ---- frequency governors ---- */

struct pmlab_govtrace {
	const pmlab_lab *lab;
	char *governor;
	struct lib_strings sets;
	uint32_t *freqs;
	int nfreqs;
	uint32_t base_khz;
	int hz;
	int64_t transition_latency_us;
};

_Static_assert(PMLAB_GOVTRACE_MAX_KHZ == GOVTRACE_MAX_KHZ, "pmlab.h's limit is govtrace.h's");

pmlab_status pmlab_govtrace_new(const pmlab_lab *lab, const char *governor, pmlab_govtrace **out,
				pmlab_error *err)
{
	pmlab_govtrace *g;

	*out = NULL;
	if (!lab)
		return lib_fail(err, PMLAB_ERR_INPUT, "govtrace: expected a lab");
	if (!governor || !*governor)
		return lib_fail(err, PMLAB_ERR_INPUT, "govtrace: expected a frequency governor");
	g = calloc(1, sizeof(*g));
	if (!g || !(g->governor = strdup(governor))) {
		free(g);
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	}
	g->lab = lab;
	g->hz = 250;
	*out = g;
	return lib_ok(err);
}

void pmlab_govtrace_free(pmlab_govtrace *g)
{
	if (!g)
		return;
	free(g->governor);
	free(g->freqs);
	lib_strings_free(&g->sets);
	free(g);
}

pmlab_status pmlab_govtrace_freqs(pmlab_govtrace *g, const char *khz_list, pmlab_error *err)
{
	struct pm_diag d = { { 0 } };
	uint32_t *table = NULL;
	int n = 0;

	if (govtrace_parse_freqs(khz_list ? khz_list : "", &table, &n, &d) < 0) {
		free(table);
		return lib_fail_diag(err, PMLAB_ERR_INPUT, &d);
	}
	free(g->freqs);
	g->freqs = table;
	g->nfreqs = n;
	return lib_ok(err);
}

pmlab_status pmlab_govtrace_base_khz(pmlab_govtrace *g, uint32_t khz, pmlab_error *err)
{
	if (khz > GOVTRACE_MAX_KHZ)
		return lib_fail(err, PMLAB_ERR_INPUT, "--base-khz %u: expected kHz 1..%u", khz,
				GOVTRACE_MAX_KHZ);
	g->base_khz = khz;
	return lib_ok(err);
}

pmlab_status pmlab_govtrace_hz(pmlab_govtrace *g, int hz, pmlab_error *err)
{
	g->hz = hz; /* checked with the rest: govtrace_check names it */
	return lib_ok(err);
}

pmlab_status pmlab_govtrace_transition_latency(pmlab_govtrace *g, int64_t us, pmlab_error *err)
{
	g->transition_latency_us = us; /* checked with the rest */
	return lib_ok(err);
}

pmlab_status pmlab_govtrace_set(pmlab_govtrace *g, const char *key_value, pmlab_error *err)
{
	if (!key_value)
		return lib_fail(err, PMLAB_ERR_INPUT, "--set: expected KEY=VALUE");
	if (lib_strings_add(&g->sets, key_value) < 0)
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	return lib_ok(err);
}

static struct govtrace_config gov_config(const pmlab_govtrace *g, const struct govtrace_input *in)
{
	return (struct govtrace_config){
		.governor = g->governor, .sets = (const char *const *)g->sets.s,
		.nsets = g->sets.n, .freqs = g->freqs, .nfreqs = g->nfreqs,
		.base_khz = g->base_khz, .hz = g->hz,
		.transition_latency_us = g->transition_latency_us, .ncpus = 1,
		.no_util = in && !in->has_util, .registry = &g->lab->plugins.reg,
	};
}

pmlab_status pmlab_govtrace_validate(pmlab_govtrace *g, const pmlab_trace *t, pmlab_error *err)
{
	struct pm_diag d = { { 0 } };
	struct govtrace_config cfg;
	struct govtrace *gt = NULL;

	if (!g->freqs)
		return lib_fail(err, PMLAB_ERR_INPUT, "--freqs: expected a frequency table");
	if (t && t->kind != PMLAB_TRACE_UTIL)
		return lib_fail(err, PMLAB_ERR_INPUT, "%s: expected a trace of util-hook calls "
				"(PMLAB_TRACE_UTIL), not %s", t->name, t->format);
	cfg = gov_config(g, t ? &t->util : NULL);
	if (govtrace_check(&cfg, &d) < 0)
		return lib_fail_diag(err, PMLAB_ERR_INPUT, &d);
	/* Whether the governor starts on this trace (schedutil needs util);
	 * a plugin's start runs in the worker, with the trace. */
	if (t && !registry_has_plugins(cfg.registry)) {
		if (govtrace_create(&gt, &cfg, &d) < 0)
			return lib_fail_diag(err, PMLAB_ERR_INPUT, &d);
		govtrace_destroy(gt);
	}
	return lib_ok(err);
}

struct gov_ctx {
	const pmlab_govtrace *g;
	const struct pmlab_trace *t;
};

struct gov_changes {
	const struct govtrace_change *c;
	size_t n;
};

static int gov_csv(void *ctx, FILE *out, struct pm_diag *d)
{
	const struct gov_changes *k = ctx;

	fputs("t_us,freq_khz\n", out);
	for (size_t i = 0; i < k->n; i++)
		fprintf(out, "%" PRId64 ",%u\n", k->c[i].t_us, k->c[i].khz);
	return 0;
}

static int gov_compute(const void *ctx, struct pmlab_result *res, unsigned forms,
		       pmlab_status *code, struct pm_diag *d)
{
	const struct gov_ctx *c = ctx;
	const struct govtrace_input *in = &c->t->util;
	struct govtrace_config cfg = gov_config(c->g, in);
	struct gov_changes k;
	struct govtrace *gt;
	json_t *json = NULL, *changes;
	int rc = -1;

	*code = PMLAB_ERR_INPUT;
	if (govtrace_check(&cfg, d) < 0 || govtrace_create(&gt, &cfg, d) < 0)
		return -1;
	for (size_t i = 0; i < in->nrows && !plugin_faulted(); i++)
		if (govtrace_step(gt, 0, &in->rows[i], d) < 0) {
			char why[PM_DIAG_MAX];
			snprintf(why, sizeof(why), "%s", d->msg);
			pm_fail_at(d, c->t->name, in->rows[i].line, "%.*s", PM_DIAG_MAX - 64, why);
			goto out;
		}
	if (fault("govtrace", code, d) < 0)
		goto out;
	*code = PMLAB_ERR_NOMEM;
	k.c = govtrace_changes(gt, &k.n);
	if (!(forms & LIB_FORM(PMLAB_JSON))) {
		rc = lib_result_capture(res, PMLAB_CSV, gov_csv, &k, d);
		goto out;
	}
	json = json_object();
	changes = json_array();
	if (json && changes && json_object_set(json, "changes", changes) < 0)
		json_decref(json), json = NULL;
	json_decref(changes); /* json holds it */
	for (size_t i = 0; json && changes && i < k.n; i++)
		json_array_append_new(changes, json_pack("{s:I, s:I}", "t_us", (json_int_t)k.c[i].t_us,
							 "freq_khz", (json_int_t)k.c[i].khz));
	if (!json || !changes) {
		pm_fail(d, "out of memory");
		goto out;
	}
	if (((forms & LIB_FORM(PMLAB_CSV)) && lib_result_capture(res, PMLAB_CSV, gov_csv, &k, d) < 0) ||
	    lib_result_capture(res, PMLAB_JSON, dump_json, json, d) < 0)
		goto out;
	rc = 0;
out:
	json_decref(json);
	govtrace_destroy(gt);
	return rc;
}

pmlab_status pmlab_govtrace_exec(pmlab_govtrace *g, const pmlab_trace *t, pmlab_result **out,
				 pmlab_error *err)
{
	pmlab_status rc;

	*out = NULL;
	if (!t)
		return lib_fail(err, PMLAB_ERR_INPUT, "govtrace: expected a trace");
	rc = pmlab_govtrace_validate(g, t, err);
	if (rc != PMLAB_OK)
		return rc;
	return lib_compute(g->lab, "govtrace", gov_compute, &(struct gov_ctx){ g, t },
			   LIB_FORM(PMLAB_CSV) | LIB_FORM(PMLAB_JSON), out, err);
}

pmlab_status pmlab_govtrace_write(pmlab_govtrace *g, const pmlab_trace *t, FILE *out,
				  pmlab_format f, pmlab_error *err)
{
	pmlab_result *res;
	pmlab_status rc = writable("govtrace", out, f, err);

	if (rc == PMLAB_OK)
		rc = t ? pmlab_govtrace_validate(g, t, err)
		       : lib_fail(err, PMLAB_ERR_INPUT, "govtrace: expected a trace");
	if (rc != PMLAB_OK)
		return rc;
	rc = lib_compute(g->lab, "govtrace", gov_compute, &(struct gov_ctx){ g, t }, LIB_FORM(f),
			 &res, err);
	return rc != PMLAB_OK ? rc : write_form("govtrace", res, f, out, err);
}
