// SPDX-License-Identifier: GPL-2.0-only
#include "sweep.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../plugin/registry.h"
#include "batch.h"

/* Keys that name an option rather than a --set tunable. */
static const char *const special[] = { "machine", "workload", "cpus", "cpufreq", "cpuidle",
				       "profile", "duration", "seed" };
#define NSPECIAL ((int)(sizeof(special) / sizeof(special[0])))

/* Points share machines: each (machine, cpus) pair is loaded once. */
struct sweep_machine {
	const char *spec, *cpus;
	struct machine m;
};

static const char *fixed(const struct sweep *s, int k)
{
	const char *const v[NSPECIAL] = { s->machine, s->workload, s->cpus, s->cpufreq,
					  s->cpuidle, s->profile, s->duration, s->seed };
	return v[k];
}

int sweep_vary(struct sweep *s, const char *arg, struct pm_diag *d)
{
	const char *eq = strchr(arg, '=');
	struct sweep_dim *grown, *dm;
	char *list, *item, *save = NULL;

	if (!eq || eq == arg || !eq[1])
		return pm_fail(d, "--vary %s: expected KEY=VALUE,VALUE,...", arg);
	for (int i = 0; i < s->ndims; i++)
		if (strlen(s->dim[i].key) == (size_t)(eq - arg) &&
		    !strncmp(s->dim[i].key, arg, (size_t)(eq - arg)))
			return pm_fail(d, "--vary %.*s is given twice", (int)(eq - arg), arg);
	grown = realloc(s->dim, (size_t)(s->ndims + 1) * sizeof(*grown));
	if (!grown)
		return pm_fail(d, "out of memory");
	s->dim = grown;
	dm = &s->dim[s->ndims++];
	memset(dm, 0, sizeof(*dm));
	dm->key = strndup(arg, (size_t)(eq - arg));
	list = strdup(eq + 1);
	if (!dm->key || !list) {
		free(list);
		return pm_fail(d, "out of memory");
	}
	if (list[0] == ',' || list[strlen(list) - 1] == ',' || strstr(list, ",,")) {
		free(list);
		return pm_fail(d, "--vary %s: empty value in the list", arg);
	}
	for (item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char **more = realloc(dm->val, (size_t)(dm->n + 1) * sizeof(*more));

		if (!more || !(more[dm->n] = strdup(item))) {
			if (more)
				dm->val = more;
			free(list);
			return pm_fail(d, "out of memory");
		}
		dm->val = more;
		dm->n++;
	}
	free(list);
	return 0;
}

/* The value of KEY at point p: the varied one, or NULL. */
static const char *varied(const struct sweep *s, long p, const char *key)
{
	for (int i = s->ndims - 1; i >= 0; i--) {
		long idx = p % s->dim[i].n;

		p /= s->dim[i].n;
		if (strcmp(s->dim[i].key, key) == 0)
			return s->dim[i].val[idx];
	}
	return NULL;
}

static const char *value(const struct sweep *s, long p, int k)
{
	const char *v = varied(s, p, special[k]);

	return v ? v : fixed(s, k);
}

enum { MACHINE, WORKLOAD, CPUS, CPUFREQ, CPUIDLE, PROFILE, DURATION, SEED };

static int is_special(const char *key)
{
	for (int i = 0; i < NSPECIAL; i++)
		if (strcmp(key, special[i]) == 0)
			return 1;
	return 0;
}

static const struct machine *machine_for(struct sweep *s, const char *spec, const char *cpus,
					 struct pm_diag *d)
{
	struct sweep_machine **grown, *slot;

	for (int i = 0; i < s->nmachines; i++) {
		slot = s->machines[i];
		if (strcmp(slot->spec, spec) == 0 &&
		    (slot->cpus == cpus || (slot->cpus && cpus && strcmp(slot->cpus, cpus) == 0)))
			return &slot->m;
	}
	grown = realloc(s->machines, (size_t)(s->nmachines + 1) * sizeof(*grown));
	if (!grown || !(slot = calloc(1, sizeof(*slot)))) {
		if (grown)
			s->machines = grown;
		pm_fail(d, "out of memory");
		return NULL;
	}
	s->machines = grown;
	s->machines[s->nmachines++] = slot;
	slot->spec = spec;
	slot->cpus = cpus;
	if (runspec_load_machine(&slot->m, spec, cpus, d) < 0)
		return NULL;
	return &slot->m;
}

/* The placement policy point p names (--set or --vary placement=), or NULL. */
static const char *placement_of(const struct sweep *s, long p, const struct runspec *rs)
{
	const char *v = varied(s, p, "placement");

	for (int i = rs->nsets - 1; !v && i >= 0; i--)
		if (strncmp(rs->sets[i], "placement=", 10) == 0)
			v = rs->sets[i] + 10;
	return v;
}

/* The varied --set keys of point p, after the fixed ones. A key that is
 * some governor's, placement policy's or workload's, but not one of this
 * point's (--vary cpuidle=mine,menu --vary mine_weight=1,4: the menu
 * points), is left out of the point: its run, inputs and command are
 * those without it. A key no one has goes on, for the run to refuse. */
static int set_varied(const struct sweep *s, long p, struct runspec *rs, struct pm_diag *d)
{
	const char *placement = placement_of(s, p, rs);

	for (int i = 0; i < s->ndims; i++) {
		const char *v = varied(s, p, s->dim[i].key);
		char *kv;
		int rc;

		if (is_special(s->dim[i].key))
			continue;
		if (registry_key_known(s->registry, s->dim[i].key) &&
		    !registry_run_has_key(s->registry, runspec_cpufreq(rs, NULL), rs->cpuidle,
					  placement, rs->workload, s->dim[i].key))
			continue;
		kv = malloc(strlen(s->dim[i].key) + strlen(v) + 2);
		if (!kv)
			return pm_fail(d, "out of memory");
		sprintf(kv, "%s=%s", s->dim[i].key, v);
		rc = runspec_set(rs, kv);
		free(kv);
		if (rc < 0)
			return pm_fail(d, "out of memory");
	}
	return 0;
}

static int build_point(struct sweep *s, long p, struct runspec *rs, struct pm_diag *d)
{
	const struct machine *m = machine_for(s, value(s, p, MACHINE), value(s, p, CPUS), d);
	const char *dur = value(s, p, DURATION), *seed = value(s, p, SEED);
	const char *prof = value(s, p, PROFILE);

	if (!m || runspec_init(rs, m, value(s, p, WORKLOAD), value(s, p, CPUFREQ),
			       value(s, p, CPUIDLE), d) < 0)
		return -1;
	rs->registry = s->registry;
	if (dur && (rs->duration = runspec_parse_seconds(dur)) < 0)
		return pm_fail(d, "duration %s: expected positive seconds", dur);
	if (seed && runspec_parse_u64(seed, &rs->seed) < 0)
		return pm_fail(d, "seed %s: expected a non-negative integer", seed);
	if ((prof && runspec_profile(rs, prof, s->dirs, s->ndirs, d) < 0) ||
	    runspec_set_all(rs, s->sets, s->nsets, d) < 0 || set_varied(s, p, rs, d) < 0)
		return -1;
	return runspec_check(rs, d);
}

/* "point 3 (tasks=4, hz=250)" for messages. */
static void describe(const struct sweep *s, long p, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "point %ld", p);

	for (int i = 0; i < s->ndims && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s=%s", i ? ", " : " (", s->dim[i].key,
				      varied(s, p, s->dim[i].key));
	if (s->ndims && n < size)
		snprintf(buf + n, size - n, ")");
}

/* A varied key must not be given as an option or --set too. */
static int check_dims(struct sweep *s, struct pm_diag *d)
{
	s->npoints = 1;
	for (int i = 0; i < s->ndims; i++) {
		const char *key = s->dim[i].key;
		size_t n = strlen(key);

		for (int k = 0; k < NSPECIAL; k++)
			if (fixed(s, k) && strcmp(key, special[k]) == 0)
				return pm_fail(d, "--vary %s and --%s both given: choose one", key, key);
		for (int k = 0; k < s->nsets; k++)
			if (strncmp(s->sets[k], key, n) == 0 && s->sets[k][n] == '=')
				return pm_fail(d, "--vary %s and --set %s both given: choose one", key,
					       s->sets[k]);
		if (s->npoints > SWEEP_MAX_POINTS / s->dim[i].n)
			return pm_fail(d, "more than %ld points", SWEEP_MAX_POINTS);
		s->npoints *= s->dim[i].n;
	}
	if (!value(s, 0, MACHINE) || !value(s, 0, WORKLOAD))
		return pm_fail(d, "--machine and --workload (or --vary machine=, workload=) are "
			       "required (see pmlab sweep --help)");
	return 0;
}

/* FNV-1a, 64 bits, over the bytes of s (and a separator). */
static uint64_t fnv(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return (h ^ '\n') * 0x100000001b3ull;
}

/* What makes a sweep this sweep: every option a point's run depends on,
 * each varied key with its values in order, and the number of shards. */
static void identify(struct sweep *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	char num[32];

	for (int k = 0; k < NSPECIAL; k++) {
		h = fnv(h, special[k]);
		h = fnv(h, fixed(s, k) ? fixed(s, k) : "");
	}
	for (int k = 0; k < s->nsets; k++)
		h = fnv(fnv(h, "set"), s->sets[k]);
	for (int k = 0; k < s->ndirs; k++)
		h = fnv(fnv(h, "profile-dir"), s->dirs[k]);
	for (int i = 0; i < s->ndims; i++) {
		h = fnv(fnv(h, "vary"), s->dim[i].key);
		for (int k = 0; k < s->dim[i].n; k++)
			h = fnv(h, s->dim[i].val[k]);
	}
	snprintf(num, sizeof(num), "%ld", s->nshards);
	h = fnv(fnv(h, "shards"), num);
	snprintf(s->id, sizeof(s->id), "%016llx/%ld", (unsigned long long)h, s->nshards);
}

static int inputs_machines(struct sweep *s, struct pm_diag *d);

/* The sweep's inputs: the caller's base, then what the sweep was given. */
static int build_inputs(struct sweep *s, struct pm_diag *d)
{
	struct run_inputs *in = &s->in;

	*in = *s->base;
	in->command = "sweep";
	in->machine_arg = s->machine;
	in->workload = s->workload;
	in->cpufreq = s->cpufreq;
	in->cpuidle = s->cpuidle;
	in->profile = s->profile;
	in->sets = s->sets;
	in->nsets = s->nsets;
	in->dirs = s->dirs;
	in->ndirs = s->ndirs;
	if (s->seed && runspec_parse_u64(s->seed, &in->seed) < 0)
		return pm_fail(d, "seed %s: expected a non-negative integer", s->seed);
	if (!s->seed)
		in->seed = RUNSPEC_DEFAULT_SEED;
	in->duration_s = (double)(s->duration ? runspec_parse_seconds(s->duration)
					      : RUNSPEC_DEFAULT_DURATION) / NS_PER_SEC;
	s->vary_arg = calloc((size_t)s->ndims + 1, sizeof(*s->vary_arg));
	if (!s->vary_arg)
		return pm_fail(d, "out of memory");
	for (int i = 0; i < s->ndims; i++) {
		size_t n = strlen(s->dim[i].key) + 2;
		for (int k = 0; k < s->dim[i].n; k++)
			n += strlen(s->dim[i].val[k]) + 1;
		if (!(s->vary_arg[i] = malloc(n)))
			return pm_fail(d, "out of memory");
		n = (size_t)sprintf(s->vary_arg[i], "%s=", s->dim[i].key);
		for (int k = 0; k < s->dim[i].n; k++)
			n += (size_t)sprintf(s->vary_arg[i] + n, "%s%s", k ? "," : "", s->dim[i].val[k]);
	}
	in->vary = (const char *const *)s->vary_arg;
	in->nvary = s->ndims;
	if (s->nshards > 1) {
		snprintf(s->shard_arg, sizeof(s->shard_arg), "%ld/%ld", s->shard, s->nshards);
		in->shard = s->shard_arg;
	}
	return inputs_machines(s, d);
}

/* The values of special key k over the whole sweep (not this shard's
 * points: every shard records the same inputs). */
static const char *const *values_of(const struct sweep *s, int k, const char **one, int *n)
{
	for (int i = 0; i < s->ndims; i++)
		if (strcmp(s->dim[i].key, special[k]) == 0) {
			*n = s->dim[i].n;
			return (const char *const *)s->dim[i].val;
		}
	*one = fixed(s, k);
	*n = 1;
	return one;
}

/* The machines of the sweep: one, with the usual keys; several (a varied
 * machine or --cpus), each with its hash, in the order of the values. */
static int inputs_machines(struct sweep *s, struct pm_diag *d)
{
	const char *m1, *c1;
	int nm, nc;
	const char *const *ms = values_of(s, MACHINE, &m1, &nm);
	const char *const *cs = values_of(s, CPUS, &c1, &nc);
	struct run_inputs *in = &s->in;

	s->in_machine = calloc((size_t)(nm * nc), sizeof(*s->in_machine));
	if (!s->in_machine)
		return pm_fail(d, "out of memory");
	for (int i = 0; i < nm; i++)
		for (int k = 0; k < nc; k++) {
			const struct machine *m = machine_for(s, ms[i], cs[k], d);
			if (!m)
				return -1;
			if (inputs_machine_of(&s->in_machine[i * nc + k], ms[i], cs[k], m) < 0)
				return pm_fail(d, "out of memory");
		}
	if (nm * nc == 1) {
		const struct machine *m = machine_for(s, ms[0], cs[0], d);
		in->cpus = cs[0] ? m->online_cpus : 0;
		return inputs_set_machine(in, m) < 0 ? pm_fail(d, "out of memory") : 0;
	}
	in->machines = s->in_machine;
	in->nmachines = nm * nc;
	/* --cpus given (not varied) for varied machines: in the command too */
	if (nc == 1 && cs[0])
		in->cpus = machine_for(s, ms[0], cs[0], d)->online_cpus;
	return 0;
}

const struct run_inputs *sweep_inputs(const struct sweep *s)
{
	return s->base ? &s->in : NULL;
}

int sweep_setup(struct sweep *s, struct pm_diag *d)
{
	long nshards = s->nshards > 0 ? s->nshards : 1;

	if (check_dims(s, d) < 0)
		return -1;
	s->id[0] = '\0';
	if (nshards > 1)
		identify(s);
	s->point = calloc((size_t)(s->npoints / nshards + 1), sizeof(*s->point));
	s->spec = calloc((size_t)(s->npoints / nshards + 1), sizeof(*s->spec));
	if (!s->point || !s->spec)
		return pm_fail(d, "out of memory");
	for (long p = s->shard; p < s->npoints; p += nshards) {
		s->point[s->nrun] = p;
		if (build_point(s, p, &s->spec[s->nrun++], d) < 0) {
			char where[512], why[PM_DIAG_MAX];

			describe(s, p, where, sizeof(where));
			snprintf(why, sizeof(why), "%s", d->msg);
			return pm_fail(d, "%s: %.*s", where, PM_DIAG_MAX - 520, why);
		}
	}
	if (s->base && build_inputs(s, d) < 0)
		return -1;
	return 0;
}

struct rows {
	struct sweep *s;
	struct sweep_out *o;     /* rows kept (HTML), or */
	struct sweep_stream *st; /* rows written as they come */
};

static int emit(void *ctx, const struct run_result *r, FILE *out)
{
	const struct rows *k = ctx;

	return result_write(out, r, k->s->format == SWEEP_JSON ? FORMAT_JSON : FORMAT_CSV);
}

static void label(void *ctx, int i, char *buf, size_t size)
{
	const struct rows *k = ctx;

	describe(k->s, k->s->point[i], buf, size);
}

static void done(void *ctx, int ndone, int njobs)
{
	const struct rows *k = ctx;

	if (k->s->done)
		k->s->done(k->s->done_ctx, ndone, njobs);
}

/* Point p's CSV row: its number, the varied values, then the sim's CSV. */
static int add_csv(const struct sweep *s, struct sweep_out *o, struct sweep_stream *st, long p,
		   const char *data, size_t len, struct pm_diag *d)
{
	const char **names = calloc((size_t)s->ndims + 2, sizeof(*names));
	const char **vals = calloc((size_t)s->ndims + 2, sizeof(*vals));
	char **owned = calloc((size_t)s->ndims + 1, sizeof(*owned));
	int rc = names && vals && owned ? 0 : pm_fail(d, "out of memory");
	int first = s->id[0] ? 1 : 0; /* a shard's rows start with the sweep's identity */
	char num[24];

	snprintf(num, sizeof(num), "%ld", p);
	if (rc == 0) {
		names[0] = "sweep";
		vals[0] = s->id;
		names[first] = "point";
		vals[first] = num;
	}
	for (int k = 0; rc == 0 && k < s->ndims; k++) {
		owned[k] = malloc(strlen(s->dim[k].key) + 6);
		if (!owned[k]) {
			rc = pm_fail(d, "out of memory");
			break;
		}
		sprintf(owned[k], "vary_%s", s->dim[k].key);
		names[first + k + 1] = owned[k];
		vals[first + k + 1] = varied(s, p, s->dim[k].key);
	}
	if (rc == 0)
		rc = st ? sweep_stream_csv(st, p, first + s->ndims + 1, names, vals, data, len, d)
			: sweep_out_add_csv(o, p, first + s->ndims + 1, names, vals, data, len, d);
	for (int k = 0; owned && k < s->ndims; k++)
		free(owned[k]);
	free(owned);
	free(names);
	free(vals);
	return rc;
}

/* Point p's JSON row: {"point", "vary", "result"}. */
static int add_json(const struct sweep *s, struct sweep_out *o, struct sweep_stream *st, long p,
		    const char *data, size_t len, struct pm_diag *d)
{
	json_error_t err;
	json_t *result = json_loadb(data, len, 0, &err);
	json_t *obj = json_object(), *vary = json_object();
	int bad = !result || !obj || !vary;

	if (s->id[0])
		bad |= json_object_set_new(obj, "sweep", json_string(s->id)) != 0;
	bad |= json_object_set_new(obj, "point", json_integer(p)) != 0;
	for (int k = 0; !bad && k < s->ndims; k++)
		bad |= json_object_set_new(vary, s->dim[k].key,
					   json_string(varied(s, p, s->dim[k].key))) != 0;
	bad |= json_object_set(obj, "vary", vary) != 0;
	bad |= json_object_set(obj, "result", result) != 0;
	json_decref(vary);
	json_decref(result);
	if (bad) {
		json_decref(obj);
		return pm_fail(d, "sweep: point %ld: cannot build its JSON row", p);
	}
	return st ? sweep_stream_json(st, obj, d) : sweep_out_add_json(o, p, obj, d);
}

static int collect(void *ctx, int i, int run, const char *data, size_t len, struct pm_diag *d)
{
	const struct rows *k = ctx;
	long p = k->s->point[i];

	if (k->s->format == SWEEP_CSV)
		return add_csv(k->s, k->o, k->st, p, data, len, d);
	return add_json(k->s, k->o, k->st, p, data, len, d);
}

int sweep_run(struct sweep *s, struct sweep_out *o, struct sweep_stream *st, struct pm_diag *d)
{
	struct rows k = { s, o, st };
	struct batch b = {
		.cmd = "sweep", .spec = s->spec, .nspecs = s->nrun, .runs = 1,
		.workers = s->workers, .label = label, .emit = emit, .collect = collect,
		.done = done, .ctx = &k, .keep_signals = s->keep_signals,
	};

	if (o) {
		o->format = s->format;
		o->in = sweep_inputs(s);
	}
	return batch_run(&b, d);
}

void sweep_free(struct sweep *s)
{
	for (int i = 0; s->spec && i < s->nrun; i++)
		runspec_free(&s->spec[i]);
	free(s->spec);
	free(s->point);
	for (int i = 0; i < s->nmachines; i++)
		free(s->machines[i]);
	free(s->machines);
	for (int i = 0; i < s->ndims; i++) {
		for (int k = 0; k < s->dim[i].n; k++)
			free(s->dim[i].val[k]);
		free(s->dim[i].val);
		free(s->dim[i].key);
	}
	free(s->dim);
	for (int i = 0; s->vary_arg && s->vary_arg[i]; i++)
		free(s->vary_arg[i]);
	free(s->vary_arg);
	free(s->in_machine);
	memset(s, 0, sizeof(*s));
}
