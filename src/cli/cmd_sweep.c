// SPDX-License-Identifier: GPL-2.0-only
/* pmlab sweep: one run per point of a Cartesian product of settings,
 * written as CSV or JSON rows; --shard runs one slice of the points so
 * that a batch system can spread a sweep over machines, and pmlab merge
 * joins the slices. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "progress.h"
#include "runner.h"
#include "runspec.h"
#include "sweep_out.h"

#define MAX_POINTS 10000000L

void usage_sweep(void)
{
	printf("usage: pmlab sweep --machine M --workload W --vary KEY=V1,V2,... [options]\n\n"
	       "Run one simulation per point of the Cartesian product of the --vary lists and\n"
	       "print one row per point: its number, the varied values, then the columns of\n"
	       "'pmlab sim --format csv' (CSV), or a JSON array of objects {\"point\", \"vary\",\n"
	       "\"result\"} where result is the 'pmlab sim --format json' object.\n\n"
	       "Points are numbered from 0 in the order of the --vary options, the last one\n"
	       "varying fastest. KEY is machine, workload, profile, cpufreq, cpuidle, seed,\n"
	       "cpus, duration, or any --set key (pmlab governors, pmlab workloads); values\n"
	       "cannot contain ','. As in pmlab sim, --cpufreq (or a varied cpufreq), --set\n"
	       "and varied keys win over a profile's governor and settings.\n\n"
	       "CSV columns are those of every point, in order of first appearance (points on\n"
	       "machines with other C-states, or workloads with other figures, leave the cells\n"
	       "they lack empty).\n\n"
	       "options:\n"
	       "  -m, --machine M       built-in machine (pmlab machines) or an .ini file\n"
	       "  -w, --workload W      workload model (pmlab workloads)\n"
	       "  -v, --vary KEY=V,...  a dimension of the sweep; repeatable\n"
	       "      --set KEY=VALUE   tunable for every point; repeatable\n"
	       "  -c, --cpus N          restrict the machine to its first N CPUs\n"
	       "  -d, --duration S      simulated seconds per point (default 10)\n"
	       "  -s, --seed N          random seed (default 1)\n"
	       "      --cpufreq G       frequency governor (default performance)\n"
	       "      --cpuidle G       idle governor (default deepest)\n"
	       "      --profile P       tuned profile for every point (see pmlab compare --help)\n"
	       "      --profile-dir DIR look for profiles in DIR first; repeatable\n"
	       "  -j, --jobs J          points in parallel, in J processes (default: processors\n"
	       "                        online); the output does not depend on J\n"
	       "      --shard I/N       run only the points whose number modulo N is I\n"
	       "                        (0 <= I < N); 'pmlab merge' joins the N outputs into\n"
	       "                        the output of the whole sweep, byte for byte\n"
	       "  -f, --format F        csv (default), json, or html (a table of the points and\n"
	       "                        power against throughput with the Pareto front)\n\n"
	       "On a terminal, progress goes to standard error; in a pipe, nothing but the result.\n");
}

struct dim {
	char *key;
	int n;
	char **val;
};

struct machine_slot {
	const char *spec, *cpus;
	struct machine m;
};

struct sweep {
	int ndims;
	struct dim *dim;
	long npoints;
	int nrun;
	long *point;          /* the points this shard runs */
	struct runspec *spec; /* one per point run */
	int nmachines;
	struct machine_slot **machines;
	enum sweep_format format;
	struct progress prog;
};

/* The fixed options, which a varied key replaces. */
struct fixed {
	const char *machine, *workload, *cpus, *cpufreq, *cpuidle, *profile, *duration, *seed;
	bool cpufreq_given;
	const char *const *sets;
	int nsets;
	const char *const *dirs;
	int ndirs;
};

static const char *const special[] = { "machine", "workload", "cpus", "cpufreq", "cpuidle",
				       "profile", "duration", "seed" };
#define NSPECIAL ((int)(sizeof(special) / sizeof(special[0])))

static void free_dims(struct sweep *s)
{
	for (int i = 0; i < s->ndims; i++) {
		for (int k = 0; k < s->dim[i].n; k++)
			free(s->dim[i].val[k]);
		free(s->dim[i].val);
		free(s->dim[i].key);
	}
	free(s->dim);
}

/* --vary KEY=V1,V2,... */
static int add_dim(struct sweep *s, const char *arg)
{
	const char *eq = strchr(arg, '=');
	struct dim *grown, *dm;
	char *list, *item, *save = NULL;

	if (!eq || eq == arg || !eq[1])
		return cli_bad("sweep: --vary %s: expected KEY=VALUE,VALUE,...", arg);
	for (int i = 0; i < s->ndims; i++)
		if (strlen(s->dim[i].key) == (size_t)(eq - arg) && !strncmp(s->dim[i].key, arg, (size_t)(eq - arg)))
			return cli_bad("sweep: --vary %.*s is given twice", (int)(eq - arg), arg);
	grown = realloc(s->dim, (size_t)(s->ndims + 1) * sizeof(*grown));
	if (!grown)
		return cli_bad("out of memory");
	s->dim = grown;
	dm = &s->dim[s->ndims++];
	memset(dm, 0, sizeof(*dm));
	dm->key = strndup(arg, (size_t)(eq - arg));
	list = strdup(eq + 1);
	if (!dm->key || !list) {
		free(list);
		return cli_bad("out of memory");
	}
	if (list[0] == ',' || list[strlen(list) - 1] == ',' || strstr(list, ",,")) {
		free(list);
		return cli_bad("sweep: --vary %s: empty value in the list", arg);
	}
	for (item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char **more = realloc(dm->val, (size_t)(dm->n + 1) * sizeof(*more));

		if (!more || !(more[dm->n] = strdup(item))) {
			if (more)
				dm->val = more;
			free(list);
			return cli_bad("out of memory");
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

static const char *value(const struct sweep *s, long p, const char *key, const char *fixed)
{
	const char *v = varied(s, p, key);

	return v ? v : fixed;
}

static int is_special(const char *key)
{
	for (int i = 0; i < NSPECIAL; i++)
		if (strcmp(key, special[i]) == 0)
			return 1;
	return 0;
}

/* Points share machines: each (machine, cpus) pair is loaded once. */
static const struct machine *machine_for(struct sweep *s, const char *spec, const char *cpus,
					 struct pm_diag *d)
{
	struct machine_slot **grown, *slot;

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

static int build_point(struct sweep *s, long p, const struct fixed *f, struct runspec *rs,
		       struct pm_diag *d)
{
	const char *mspec = value(s, p, "machine", f->machine);
	const char *dur = value(s, p, "duration", f->duration);
	const char *seed = value(s, p, "seed", f->seed);
	const char *prof = value(s, p, "profile", f->profile);
	const char *v;

	memset(rs, 0, sizeof(*rs));
	rs->m = machine_for(s, mspec, value(s, p, "cpus", f->cpus), d);
	if (!rs->m)
		return -1;
	rs->workload = value(s, p, "workload", f->workload);
	snprintf(rs->cpufreq, sizeof(rs->cpufreq), "%s", value(s, p, "cpufreq", f->cpufreq));
	rs->cpufreq_fixed = f->cpufreq_given || varied(s, p, "cpufreq");
	snprintf(rs->cpuidle, sizeof(rs->cpuidle), "%s", value(s, p, "cpuidle", f->cpuidle));
	rs->duration = cli_parse_seconds(dur);
	if (rs->duration < 0)
		return pm_fail(d, "duration %s: expected positive seconds", dur);
	if (cli_parse_u64(seed, &rs->seed) < 0)
		return pm_fail(d, "seed %s: expected a non-negative integer", seed);
	if (prof && runspec_profile(rs, prof, f->dirs, f->ndirs, d) < 0)
		return -1;
	for (int i = 0; i < f->nsets; i++)
		if (runspec_set(rs, f->sets[i]) < 0)
			return pm_fail(d, "out of memory");
	for (int i = 0; i < s->ndims; i++) {
		char *kv;
		int rc;

		if (is_special(s->dim[i].key))
			continue;
		v = varied(s, p, s->dim[i].key);
		kv = malloc(strlen(s->dim[i].key) + strlen(v) + 2);
		if (!kv)
			return pm_fail(d, "out of memory");
		sprintf(kv, "%s=%s", s->dim[i].key, v);
		rc = runspec_set(rs, kv);
		free(kv);
		if (rc < 0)
			return pm_fail(d, "out of memory");
	}
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

struct sink {
	FILE *out;
	enum result_format f;
};

static int write_result(void *ctx, const struct run_result *r)
{
	struct sink *k = ctx;

	return result_write(k->out, r, k->f);
}

static void job_name(void *ctx, int i, char *buf, size_t size)
{
	struct sweep *s = ctx;
	char where[512];

	describe(s, s->point[i], where, sizeof(where));
	snprintf(buf, size, "sweep: %s", where);
}

static int run_job(void *ctx, int i, FILE *out, struct pm_diag *d)
{
	struct sweep *s = ctx;
	struct sink k = { out, s->format == SWEEP_JSON ? FORMAT_JSON : FORMAT_CSV };

	if (runspec_run(&s->spec[i], write_result, &k, d) < 0) {
		char name[600], why[PM_DIAG_MAX];

		job_name(s, i, name, sizeof(name));
		snprintf(why, sizeof(why), "%s", d->msg[0] ? d->msg : "cannot write the result");
		return pm_fail(d, "%s: %s", name, why);
	}
	return 0;
}

static void job_done(void *ctx, int done, int total)
{
	progress_update(&((struct sweep *)ctx)->prog, done, total);
}

/* Files point i's run (the sim's CSV or JSON text) as its output row. */
static int add_row(struct sweep *s, struct sweep_out *o, int i, const struct runner_result *res,
		   struct pm_diag *d)
{
	long p = s->point[i];
	char num[24];

	snprintf(num, sizeof(num), "%ld", p);
	if (s->format == SWEEP_CSV) {
		const char **names = calloc((size_t)s->ndims + 1, sizeof(*names));
		const char **vals = calloc((size_t)s->ndims + 1, sizeof(*vals));
		char **owned = calloc((size_t)s->ndims + 1, sizeof(*owned));
		int rc = names && vals && owned ? 0 : pm_fail(d, "out of memory");

		if (rc == 0) {
			names[0] = "point";
			vals[0] = num;
		}
		for (int k = 0; rc == 0 && k < s->ndims; k++) {
			owned[k] = malloc(strlen(s->dim[k].key) + 6);
			if (!owned[k]) {
				rc = pm_fail(d, "out of memory");
				break;
			}
			sprintf(owned[k], "vary_%s", s->dim[k].key);
			names[k + 1] = owned[k];
			vals[k + 1] = varied(s, p, s->dim[k].key);
		}
		if (rc == 0)
			rc = sweep_out_add_csv(o, p, s->ndims + 1, names, vals, res->data, res->len, d);
		for (int k = 0; owned && k < s->ndims; k++)
			free(owned[k]);
		free(owned);
		free(names);
		free(vals);
		return rc;
	}
	json_error_t err;
	json_t *result = json_loadb(res->data, res->len, 0, &err);
	json_t *obj = json_object(), *vary = json_object();
	int bad = !result || !obj || !vary;

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
	return sweep_out_add_json(o, p, obj, d);
}

static int parse_shard(const char *arg, long *idx, long *n)
{
	char *end;

	*idx = strtol(arg, &end, 10);
	if (end == arg || *end != '/' || *idx < 0)
		return -1;
	arg = end + 1;
	*n = strtol(arg, &end, 10);
	return end == arg || *end || *n < 1 || *idx >= *n ? -1 : 0;
}

int cmd_sweep(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "machine", required_argument, 0, 'm' },
		{ "workload", required_argument, 0, 'w' },
		{ "vary", required_argument, 0, 'v' },
		{ "set", required_argument, 0, 'S' },
		{ "cpus", required_argument, 0, 'c' },
		{ "duration", required_argument, 0, 'd' },
		{ "seed", required_argument, 0, 's' },
		{ "cpufreq", required_argument, 0, 'F' },
		{ "cpuidle", required_argument, 0, 'I' },
		{ "profile", required_argument, 0, 'p' },
		{ "profile-dir", required_argument, 0, 'P' },
		{ "jobs", required_argument, 0, 'j' },
		{ "shard", required_argument, 0, 'H' },
		{ "format", required_argument, 0, 'f' },
		{ 0, 0, 0, 0 },
	};
	struct fixed f = { .cpufreq = "performance", .cpuidle = "deepest", .duration = "10",
			   .seed = "1" };
	const char **sets = calloc((size_t)argc + 1, sizeof(*sets));
	const char **dirs = calloc((size_t)argc + 1, sizeof(*dirs));
	const char *given[NSPECIAL] = { 0 };
	struct sweep s;
	struct sweep_out o = { 0 };
	struct runner_result *res = NULL;
	struct pm_diag d = { { 0 } };
	uint64_t jobs = (uint64_t)runner_default_workers();
	long shard = 0, nshards = 1;
	int opt, rc = EXIT_USAGE, i;
	bool html = false;

	memset(&s, 0, sizeof(s));
	if (!sets || !dirs) {
		free(sets);
		free(dirs);
		return cli_bad("out of memory");
	}
	f.sets = sets;
	f.dirs = dirs;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":m:w:v:c:d:s:j:f:", opts, NULL)) != -1) {
		switch (opt) {
		case 'm': f.machine = given[0] = optarg; break;
		case 'w': f.workload = given[1] = optarg; break;
		case 'c': f.cpus = given[2] = optarg; break;
		case 'F':
			f.cpufreq = given[3] = optarg;
			f.cpufreq_given = true;
			break;
		case 'I': f.cpuidle = given[4] = optarg; break;
		case 'p': f.profile = given[5] = optarg; break;
		case 'd': f.duration = given[6] = optarg; break;
		case 's': f.seed = given[7] = optarg; break;
		case 'S': sets[f.nsets++] = optarg; break;
		case 'P': dirs[f.ndirs++] = optarg; break;
		case 'v':
			if (add_dim(&s, optarg) != 0)
				goto out;
			break;
		case 'j':
			if (cli_parse_u64(optarg, &jobs) < 0 || jobs < 1 || jobs > 1024) {
				cli_bad("sweep: --jobs %s: expected a count from 1 to 1024", optarg);
				goto out;
			}
			break;
		case 'H':
			if (parse_shard(optarg, &shard, &nshards) < 0) {
				cli_bad("sweep: --shard %s: expected I/N with 0 <= I < N", optarg);
				goto out;
			}
			break;
		case 'f':
			if (strcmp(optarg, "csv") == 0) {
				s.format = SWEEP_CSV;
			} else if (strcmp(optarg, "json") == 0) {
				s.format = SWEEP_JSON;
			} else if (strcmp(optarg, "html") == 0) {
				s.format = SWEEP_CSV; /* rows are gathered as CSV cells */
				html = true;
			} else {
				cli_bad("sweep: --format %s: expected csv, json or html", optarg);
				goto out;
			}
			break;
		case ':':
		default:
			cli_bad_option("sweep", opt, argv[optind - 1]);
			goto out;
		}
	}
	if (optind < argc) {
		cli_bad("sweep: unexpected argument '%s' (see pmlab sweep --help)", argv[optind]);
		goto out;
	}
	s.npoints = 1;
	for (i = 0; i < s.ndims; i++) {
		const char *key = s.dim[i].key;

		for (int k = 0; k < NSPECIAL; k++)
			if (given[k] && strcmp(key, special[k]) == 0) {
				cli_bad("sweep: --vary %s and --%s both given: choose one", key, key);
				goto out;
			}
		for (int k = 0; k < f.nsets; k++) {
			size_t n = strlen(key);

			if (strncmp(sets[k], key, n) == 0 && sets[k][n] == '=') {
				cli_bad("sweep: --vary %s and --set %s both given: choose one", key, sets[k]);
				goto out;
			}
		}
		if (s.npoints > MAX_POINTS / s.dim[i].n) {
			cli_bad("sweep: more than %ld points", MAX_POINTS);
			goto out;
		}
		s.npoints *= s.dim[i].n;
	}
	if (!value(&s, 0, "machine", f.machine) || !value(&s, 0, "workload", f.workload)) {
		cli_bad("sweep: --machine and --workload (or --vary machine=, workload=) are required "
			"(see pmlab sweep --help)");
		goto out;
	}
	s.point = calloc((size_t)(s.npoints / nshards + 1), sizeof(*s.point));
	s.spec = calloc((size_t)(s.npoints / nshards + 1), sizeof(*s.spec));
	if (!s.point || !s.spec) {
		cli_bad("out of memory");
		goto out;
	}
	for (long p = shard; p < s.npoints; p += nshards) {
		s.point[s.nrun] = p;
		if (build_point(&s, p, &f, &s.spec[s.nrun++], &d) < 0) {
			char where[512];

			describe(&s, p, where, sizeof(where));
			cli_bad("sweep: %s: %s", where, d.msg);
			goto out;
		}
	}

	res = calloc((size_t)s.nrun + 1, sizeof(*res));
	if (!res) {
		cli_bad("out of memory");
		goto out;
	}
	struct runner r = { s.nrun, (int)jobs, run_job, &s, job_done, job_name };

	progress_start(&s.prog, "sweep: points");
	rc = runner_run(&r, res, &d);
	progress_end(&s.prog);
	if (rc < 0) {
		fprintf(stderr, "pmlab: %s\n", d.msg);
		rc = EXIT_RUNTIME;
		goto out;
	}
	rc = EXIT_RUNTIME;
	o.format = s.format;
	for (i = 0; i < s.nrun; i++)
		if (add_row(&s, &o, i, &res[i], &d) < 0) {
			fprintf(stderr, "pmlab: %s\n", d.msg);
			goto out;
		}
	if (html ? sweep_out_write_html(stdout, &o, "pmlab sweep", &d) < 0
		 : sweep_out_write(stdout, &o, false, &d) < 0) {
		fprintf(stderr, "pmlab: sweep: %s\n", d.msg);
		goto out;
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "pmlab: sweep: cannot write the result to standard output\n");
		goto out;
	}
	rc = EXIT_OK;
out:
	sweep_out_free(&o);
	if (res)
		runner_results_free(res, s.nrun);
	free(res);
	for (i = 0; s.spec && i < s.nrun; i++)
		runspec_free(&s.spec[i]);
	free(s.spec);
	free(s.point);
	for (i = 0; i < s.nmachines; i++)
		free(s.machines[i]);
	free(s.machines);
	free_dims(&s);
	free(sets);
	free(dirs);
	return rc;
}
