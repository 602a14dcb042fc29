// SPDX-License-Identifier: GPL-2.0-only
/* pmlab compare: several profiles on one machine and workload, each run N
 * times, as the seed's tables set tuned profiles side by side. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../export/perfetto.h"
#include "../metrics/compare.h"
#include "cli.h"
#include "progress.h"
#include "runner.h"
#include "runspec.h"

void usage_compare(void)
{
	printf("usage: pmlab compare --machine M --workload W --profiles A,B,... [options]\n\n"
	       "Run workload W on machine M under each profile, --runs times each (seeds\n"
	       "S..S+N-1), and print throughput, latency, power, CPU frequency, C-state\n"
	       "residency, CPU utilisation and package idle per profile: mean and 95 %%\n"
	       "confidence interval (Student t), then the same relative to the baseline with\n"
	       "'~' where a difference is not significant (Welch's t-test, p >= 0.05). One\n"
	       "run gives neither intervals nor marks.\n\n"
	       "A profile is a tuned profile name (searched in --profile-dir, data/profiles,\n"
	       "/etc/tuned/profiles, /usr/lib/tuned/profiles) or path, optionally with\n"
	       "overrides of its [cpu] options (balanced:governor=conservative), or 'none':\n"
	       "the --cpufreq, --cpuidle and --set options alone. 'none:KEY=VALUE,...' adds\n"
	       "--set keys (and cpufreq=G, cpuidle=G) to that entry only. In the list, an\n"
	       "item OPTION=VALUE continues the previous entry's overrides.\n\n"
	       "options:\n"
	       "  -m, --machine M       built-in machine (pmlab machines) or an .ini file\n"
	       "  -w, --workload W      workload model (pmlab workloads)\n"
	       "  -p, --profiles LIST   profiles to compare, comma-separated; repeatable\n"
	       "  -b, --baseline P      the profile the others are set against (default: first)\n"
	       "  -n, --runs N          runs per profile (default 3)\n"
	       "  -c, --cpus N          restrict the machine to its first N CPUs\n"
	       "  -d, --duration S      simulated seconds per run (default 10)\n"
	       "  -s, --seed N          seed of the first run (default 1)\n"
	       "      --cpufreq G       frequency governor for every profile, over the\n"
	       "                        profiles' own (default: the profile's, else performance)\n"
	       "      --cpuidle G       idle governor (default deepest)\n"
	       "      --set KEY=VALUE   tunable for every profile, over the profile's own; repeatable\n"
	       "  -j, --jobs J          runs in parallel, in J processes (default: processors\n"
	       "                        online); the output does not depend on J\n"
	       "  -f, --format F        table (default), csv, json or html (one self-contained\n"
	       "                        page: the tables, power against throughput with the\n"
	       "                        Pareto front, C-state residency, busy frequency and\n"
	       "                        the spread of the runs' throughput)\n"
	       "      --timeline PREFIX also write each profile's first run as a timeline\n"
	       "                        (Chrome trace JSON that ui.perfetto.dev opens) to\n"
	       "                        PREFIX-PROFILE.json, with '/', ':', ',' and '=' in the\n"
	       "                        profile's name replaced by '_'\n"
	       "      --profile-dir DIR look for profiles in DIR first; repeatable\n\n"
	       "On a terminal, progress goes to standard error; in a pipe, nothing but the result.\n");
}

struct compare {
	struct cmp_set set;
	struct runspec *spec; /* one per profile */
	struct progress prog;
	const char *timeline; /* --timeline PREFIX, or NULL */
};

/* What a worker sends back per run: the unit, then the figures. */
struct sink {
	FILE *out;
	const struct cmp_set *set;
	sim_ns duration; /* the run's, for the timeline's end */
};

/* PREFIX-NAME.json, the profile name made file-safe. NULL on OOM. */
static char *timeline_path(const char *prefix, const char *profile)
{
	size_t a = strlen(prefix), b = strlen(profile);
	char *path = malloc(a + b + 7);

	if (!path)
		return NULL;
	memcpy(path, prefix, a);
	path[a] = '-';
	for (size_t i = 0; i < b; i++)
		path[a + 1 + i] = strchr("/:,=", profile[i]) ? '_' : profile[i];
	memcpy(path + a + 1 + b, ".json", 6);
	return path;
}

static int send_figures(void *ctx, const struct run_result *r)
{
	struct sink *k = ctx;
	double *v = calloc((size_t)k->set->nmetrics, sizeof(*v));
	char unit[RESULT_NAME_MAX] = { 0 };

	if (!v)
		return -1;
	snprintf(unit, sizeof(unit), "%.*s", (int)strnlen(r->throughput_unit, sizeof(unit) - 1),
		 r->throughput_unit);
	cmp_sample(k->set, r, v);
	k->duration = r->duration_ns;
	fwrite(unit, 1, sizeof(unit), k->out);
	fwrite(v, sizeof(*v), (size_t)k->set->nmetrics, k->out);
	free(v);
	return 0;
}

static void job_name(void *ctx, int i, char *buf, size_t size)
{
	struct compare *c = ctx;
	int run = i % c->set.nruns;

	snprintf(buf, size, "compare: %s, run %d (seed %" PRIu64 ")",
		 c->set.profile[i / c->set.nruns].name, run + 1, c->set.seed + (uint64_t)run);
}

static int run_job(void *ctx, int i, FILE *out, struct pm_diag *d)
{
	struct compare *c = ctx;
	int p = i / c->set.nruns, run = i % c->set.nruns;
	struct runspec rs = c->spec[p];
	struct sink k = { out, &c->set, 0 };
	struct perfetto *tl = NULL;
	int rc;

	rs.seed = c->set.seed + (uint64_t)run;
	if (c->timeline && run == 0) {
		/* Each profile's first run, in whichever process runs it: the
		 * file is the worker's own, the output unchanged. */
		char *path = timeline_path(c->timeline, c->set.profile[p].name);
		char title[512];

		if (!path)
			return pm_fail(d, "out of memory");
		snprintf(title, sizeof(title), "%s, %s", rs.workload, c->set.profile[p].name);
		tl = perfetto_open(path, rs.m, title, d);
		free(path);
		if (!tl)
			return -1;
		rs.observer = perfetto_observer(tl);
	}
	rc = runspec_run(&rs, send_figures, &k, d);
	if (tl) {
		if (rc < 0)
			perfetto_discard(tl);
		else if (perfetto_close(tl, k.duration, d) < 0)
			return -1;
	}
	if (rc < 0) {
		char why[PM_DIAG_MAX], name[512];

		snprintf(why, sizeof(why), "%s", d->msg[0] ? d->msg : "out of memory");
		job_name(c, i, name, sizeof(name));
		return pm_fail(d, "%s: %s", name, why);
	}
	return 0;
}

static void job_done(void *ctx, int done, int total)
{
	progress_update(&((struct compare *)ctx)->prog, done, total);
}

/* Splits a --profiles list. "balanced:governor=x,energy_perf_bias=y" is
 * one entry: an item that is OPTION=VALUE (no ':' and no '/') continues
 * the entry before it, as tuned's own override syntax would read it. */
static int split_profiles(const char *arg, char ***list, int *n)
{
	char *copy = strdup(arg), *item, *save = NULL;
	int rc = 0;

	if (!copy)
		return -1;
	for (item = strtok_r(copy, ",", &save); item && rc == 0; item = strtok_r(NULL, ",", &save)) {
		char **grown;

		if (*n > 0 && strchr(item, '=') && !strpbrk(item, ":/") && strchr((*list)[*n - 1], ':')) {
			size_t a = strlen((*list)[*n - 1]), b = strlen(item);
			char *joined = realloc((*list)[*n - 1], a + b + 2);

			if (!joined) {
				rc = -1;
				break;
			}
			joined[a] = ',';
			memcpy(joined + a + 1, item, b + 1);
			(*list)[*n - 1] = joined;
			continue;
		}
		grown = realloc(*list, (size_t)(*n + 1) * sizeof(*grown));
		if (!grown || !(grown[*n] = strdup(item))) {
			if (grown)
				*list = grown;
			rc = -1;
			break;
		}
		*list = grown;
		(*n)++;
	}
	free(copy);
	return rc;
}

static int parse_format(const char *s, enum cmp_format *f)
{
	static const char *const names[] = { "table", "csv", "json", "html" };

	for (int i = 0; i < 4; i++)
		if (strcmp(s, names[i]) == 0) {
			*f = (enum cmp_format)i;
			return 0;
		}
	return -1;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "machine", required_argument, 0, 'm' },
		{ "workload", required_argument, 0, 'w' },
		{ "profiles", required_argument, 0, 'p' },
		{ "baseline", required_argument, 0, 'b' },
		{ "runs", required_argument, 0, 'n' },
		{ "cpus", required_argument, 0, 'c' },
		{ "duration", required_argument, 0, 'd' },
		{ "seed", required_argument, 0, 's' },
		{ "cpufreq", required_argument, 0, 'F' },
		{ "cpuidle", required_argument, 0, 'I' },
		{ "set", required_argument, 0, 'S' },
		{ "jobs", required_argument, 0, 'j' },
		{ "format", required_argument, 0, 'f' },
		{ "profile-dir", required_argument, 0, 'P' },
		{ "timeline", required_argument, 0, 'T' },
		{ 0, 0, 0, 0 },
	};
	const char *machine = NULL, *workload = NULL, *cpus = NULL, *baseline = NULL;
	const char *cpufreq = NULL, *cpuidle = "deepest";
	const char **sets = calloc((size_t)argc + 1, sizeof(*sets));
	const char **dirs = calloc((size_t)argc + 1, sizeof(*dirs));
	char **profiles = NULL;
	int nsets = 0, ndirs = 0, nprofiles = 0, opt, rc = EXIT_USAGE, i, njobs = 0;
	uint64_t runs = 3, seed = 1, jobs = (uint64_t)runner_default_workers();
	sim_ns duration = 10 * NS_PER_SEC;
	enum cmp_format format = CMP_TABLE;
	struct compare c;
	struct runner_result *res = NULL;
	struct pm_diag d = { { 0 } };
	struct machine m;

	memset(&c, 0, sizeof(c));
	if (!sets || !dirs) {
		free(sets);
		free(dirs);
		return cli_bad("out of memory");
	}
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":m:w:p:b:n:c:d:s:j:f:", opts, NULL)) != -1) {
		switch (opt) {
		case 'm': machine = optarg; break;
		case 'w': workload = optarg; break;
		case 'b': baseline = optarg; break;
		case 'c': cpus = optarg; break;
		case 'F': cpufreq = optarg; break;
		case 'I': cpuidle = optarg; break;
		case 'S': sets[nsets++] = optarg; break;
		case 'P': dirs[ndirs++] = optarg; break;
		case 'T': c.timeline = optarg; break;
		case 'p':
			if (split_profiles(optarg, &profiles, &nprofiles) < 0) {
				cli_bad("out of memory");
				goto out;
			}
			break;
		case 'n':
			if (cli_parse_u64(optarg, &runs) < 0 || runs < 1 || runs > 100000) {
				cli_bad("compare: --runs %s: expected a count from 1 to 100000", optarg);
				goto out;
			}
			break;
		case 'j':
			if (cli_parse_u64(optarg, &jobs) < 0 || jobs < 1 || jobs > 1024) {
				cli_bad("compare: --jobs %s: expected a count from 1 to 1024", optarg);
				goto out;
			}
			break;
		case 'd':
			duration = cli_parse_seconds(optarg);
			if (duration < 0) {
				cli_bad("compare: --duration %s: expected positive seconds", optarg);
				goto out;
			}
			break;
		case 's':
			if (cli_parse_u64(optarg, &seed) < 0) {
				cli_bad("compare: --seed %s: expected a non-negative integer", optarg);
				goto out;
			}
			break;
		case 'f':
			if (parse_format(optarg, &format) < 0) {
				cli_bad("compare: --format %s: expected table, csv, json or html", optarg);
				goto out;
			}
			break;
		case ':':
		default:
			cli_bad_option("compare", opt, argv[optind - 1]);
			goto out;
		}
	}
	if (optind < argc) {
		cli_bad("compare: unexpected argument '%s' (see pmlab compare --help)", argv[optind]);
		goto out;
	}
	if (!machine || !workload || nprofiles == 0) {
		cli_bad("compare: --machine, --workload and --profiles are required "
			"(see pmlab compare --help)");
		goto out;
	}
	if (runspec_load_machine(&m, machine, cpus, &d) < 0) {
		cli_bad("compare: %s", d.msg);
		goto out;
	}
	if (cmp_init(&c.set, &m, nprofiles, (int)runs) < 0 ||
	    !(c.spec = calloc((size_t)nprofiles, sizeof(*c.spec)))) {
		cli_bad("out of memory");
		goto out;
	}
	snprintf(c.set.workload, sizeof(c.set.workload), "%s", workload);
	c.set.duration_s = (double)duration / NS_PER_SEC;
	c.set.seed = seed;
	for (i = 0; i < nprofiles; i++) {
		struct runspec *rs = &c.spec[i];

		for (int k = 0; k < i; k++)
			if (strcmp(profiles[k], profiles[i]) == 0) {
				cli_bad("compare: profile '%s' is listed twice", profiles[i]);
				goto out;
			}
		if (baseline && strcmp(profiles[i], baseline) == 0)
			c.set.baseline = i;
		rs->m = &m;
		rs->workload = workload;
		rs->duration = duration;
		rs->seed = seed;
		snprintf(rs->cpufreq, sizeof(rs->cpufreq), "%s", cpufreq ? cpufreq : "performance");
		rs->cpufreq_fixed = cpufreq != NULL;
		snprintf(rs->cpuidle, sizeof(rs->cpuidle), "%s", cpuidle);
		if (runspec_profile(rs, profiles[i], dirs, ndirs, &d) < 0) {
			cli_bad("compare: %s", d.msg);
			goto out;
		}
		for (int k = 0; k < nsets; k++)
			if (runspec_set(rs, sets[k]) < 0) {
				cli_bad("out of memory");
				goto out;
			}
		/* Bad input must stop the command before any run starts. */
		if (runspec_check(rs, &d) < 0) {
			cli_bad("compare: %s: %s", profiles[i], d.msg);
			goto out;
		}
		if (cmp_set_profile(&c.set, i, profiles[i], rs->cpufreq, rs->cpuidle, rs->note,
				    rs->skipped) < 0) {
			cli_bad("out of memory");
			goto out;
		}
	}
	/* Two profiles must not write the same timeline file. */
	for (i = 0; c.timeline && i < nprofiles; i++)
		for (int k = 0; k < i; k++) {
			char *a = timeline_path("", profiles[i]), *b = timeline_path("", profiles[k]);
			int same = a && b && strcmp(a, b) == 0;

			free(a);
			free(b);
			if (same) {
				cli_bad("compare: --timeline: profiles '%s' and '%s' give the same file "
					"name", profiles[k], profiles[i]);
				goto out;
			}
		}
	if (baseline && strcmp(profiles[c.set.baseline], baseline) != 0) {
		cli_bad("compare: --baseline %s: not one of --profiles", baseline);
		goto out;
	}

	njobs = nprofiles * (int)runs;
	res = calloc((size_t)njobs, sizeof(*res));
	if (!res) {
		cli_bad("out of memory");
		goto out;
	}
	struct runner r = { njobs, (int)jobs, run_job, &c, job_done, job_name };
	size_t want = RESULT_NAME_MAX + (size_t)c.set.nmetrics * sizeof(double);

	progress_start(&c.prog, "compare: runs");
	rc = runner_run(&r, res, &d);
	progress_end(&c.prog);
	if (rc < 0) {
		fprintf(stderr, "pmlab: %s\n", d.msg);
		rc = EXIT_RUNTIME;
		goto out;
	}
	rc = EXIT_RUNTIME;
	for (i = 0; i < njobs; i++) {
		double *row = calloc((size_t)c.set.nmetrics, sizeof(*row));

		if (res[i].len != want || !row) {
			free(row);
			fprintf(stderr, "pmlab: compare: run %d: %s\n", i,
				row ? "malformed answer from its worker" : "out of memory");
			goto out;
		}
		/* Copied out: the buffer gives no alignment guarantee to doubles
		 * behind the unit. */
		memcpy(row, res[i].data + RESULT_NAME_MAX, want - RESULT_NAME_MAX);
		if (i == 0)
			cmp_set_unit(&c.set, res[i].data);
		if (strncmp(c.set.unit, res[i].data, RESULT_NAME_MAX) != 0) {
			free(row);
			fprintf(stderr, "pmlab: compare: %s reports throughput in %.*s, %s in %s: "
				"not comparable\n", c.set.profile[i / (int)runs].name, RESULT_NAME_MAX,
				res[i].data, c.set.profile[0].name, c.set.unit);
			goto out;
		}
		cmp_put_run(&c.set, i / (int)runs, i % (int)runs, row);
		free(row);
	}
	if (cmp_write(stdout, &c.set, format) < 0) {
		fprintf(stderr, "pmlab: compare: cannot write the result to standard output\n");
		goto out;
	}
	rc = EXIT_OK;
out:
	if (res)
		runner_results_free(res, njobs);
	free(res);
	if (c.spec)
		for (i = 0; i < nprofiles; i++)
			runspec_free(&c.spec[i]);
	free(c.spec);
	cmp_free(&c.set);
	for (i = 0; i < nprofiles; i++)
		free(profiles[i]);
	free(profiles);
	free(sets);
	free(dirs);
	return rc;
}
