// SPDX-License-Identifier: GPL-2.0-only
/* pmlab sim: one simulated run. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engine/sim.h"
#include "../export/perfetto.h"
#include "../metrics/result.h"
#include "../profile/profile.h"
#include "cli.h"

/* Long runs show how far they are on a terminal and stay quiet in pipes. */
static void show_progress(void *ctx, double done)
{
	fprintf(stderr, "\rpmlab: simulating %3.0f%%", done * 100.0);
}

void usage_sim(void)
{
	printf("usage: pmlab sim --machine M --workload W [options]\n\n"
	       "Simulate workload W on machine M under a frequency and an idle governor and\n"
	       "print throughput, latency, energy, power, frequency, C-state residency and\n"
	       "CPU utilisation.\n\n"
	       "options:\n"
	       "  -m, --machine M      built-in machine (pmlab machines) or an .ini file\n"
	       "  -w, --workload W     workload model (pmlab workloads)\n"
	       "  -c, --cpus N         restrict the machine to its first N CPUs\n"
	       "  -d, --duration S     simulated seconds (default 10)\n"
	       "  -s, --seed N         random seed (default 1)\n"
	       "      --cpufreq G      frequency governor (default performance)\n"
	       "      --cpuidle G      idle governor (default deepest)\n"
	       "      --set KEY=VALUE  engine, workload or governor tunable; repeatable\n"
	       "      --profile P      tuned profile (pmlab profile list), a tuned.conf, or either\n"
	       "                       with :OPTION=VALUE,... [cpu] overrides; its governor runs\n"
	       "                       unless --cpufreq is given, its settings come before --set\n"
	       "      --profile-dir D  look for profiles in D first; repeatable\n"
	       "      --timeline FILE  also write the run as a timeline (Chrome trace JSON)\n"
	       "                       that ui.perfetto.dev opens\n"
	       "  -f, --format F       table (default), csv or json\n"
	       "      --check          verify the engine's invariants after every event (slow)\n");
}

int cmd_sim(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "machine", required_argument, 0, 'm' },
		{ "workload", required_argument, 0, 'w' },
		{ "cpus", required_argument, 0, 'c' },
		{ "duration", required_argument, 0, 'd' },
		{ "seed", required_argument, 0, 's' },
		{ "cpufreq", required_argument, 0, 'F' },
		{ "cpuidle", required_argument, 0, 'I' },
		{ "set", required_argument, 0, 'S' },
		{ "format", required_argument, 0, 'f' },
		{ "check", no_argument, 0, 'K' },
		{ "timeline", required_argument, 0, 'T' },
		{ "profile", required_argument, 0, 'P' },
		{ "profile-dir", required_argument, 0, 'D' },
		{ 0, 0, 0, 0 },
	};
	const char *machine = NULL, *workload = NULL, *cpus = NULL, *profile = NULL;
	bool cpufreq_given = false;
	struct profile prof = { .nsettings = 0 };
	const char **prof_sets = NULL;
	struct sim_config cfg = { .cpufreq = "performance", .cpuidle = "deepest",
				  .duration = 10 * NS_PER_SEC, .seed = 1 };
	enum result_format format = FORMAT_TABLE;
	const char *timeline = NULL;
	struct perfetto *tl = NULL;
	const char **sets = calloc((size_t)argc + 1, sizeof(*sets));
	const char **dirs = calloc((size_t)argc + 1, sizeof(*dirs));
	if (!sets || !dirs) {
		free(sets);
		free(dirs);
		return cli_bad("out of memory");
	}
	int ndirs = 0;
	int nsets = 0, opt, rc = EXIT_USAGE;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":m:w:c:d:s:f:", opts, NULL)) != -1) {
		switch (opt) {
		case 'm': machine = optarg; break;
		case 'w': workload = optarg; break;
		case 'c': cpus = optarg; break;
		case 'F': cfg.cpufreq = optarg; cpufreq_given = true; break;
		case 'I': cfg.cpuidle = optarg; break;
		case 'S': sets[nsets++] = optarg; break;
		case 'K': cfg.check_invariants = true; break;
		case 'T': timeline = optarg; break;
		case 'P': profile = optarg; break;
		case 'D': dirs[ndirs++] = optarg; break;
		case 'd':
			cfg.duration = cli_parse_seconds(optarg);
			if (cfg.duration < 0) {
				cli_bad("sim: --duration %s: expected positive seconds", optarg);
				goto out;
			}
			break;
		case 's':
			if (cli_parse_u64(optarg, &cfg.seed) < 0) {
				cli_bad("sim: --seed %s: expected a non-negative integer", optarg);
				goto out;
			}
			break;
		case 'f':
			if (strcmp(optarg, "table") == 0)
				format = FORMAT_TABLE;
			else if (strcmp(optarg, "csv") == 0)
				format = FORMAT_CSV;
			else if (strcmp(optarg, "json") == 0)
				format = FORMAT_JSON;
			else {
				cli_bad("sim: --format %s: expected table, csv or json", optarg);
				goto out;
			}
			break;
		case ':':
		default:
			cli_bad_option("sim", opt, argv[optind - 1]);
			goto out;
		}
	}
	if (optind < argc) {
		cli_bad("sim: unexpected argument '%s' (see pmlab sim --help)", argv[optind]);
		goto out;
	}
	if (!machine || !workload) {
		cli_bad("sim: --machine and --workload are required (see pmlab sim --help)");
		goto out;
	}

	struct pm_diag d = { { 0 } };
	struct machine m;
	if (machine_load(&m, machine, &d) < 0) {
		cli_bad("%s", d.msg);
		goto out;
	}
	if (cpus) {
		uint64_t n;
		if (cli_parse_u64(cpus, &n) < 0 || n > MACHINE_MAX_CPUS) {
			cli_bad("sim: --cpus %s: expected a CPU count", cpus);
			goto out;
		}
		if (machine_set_online(&m, (int)n, &d) < 0) {
			cli_bad("sim: --cpus: %s", d.msg);
			goto out;
		}
	}
	cfg.machine = &m;
	cfg.workload = workload;
	bool tty = isatty(STDERR_FILENO);
	if (tty)
		cfg.progress = show_progress;
	cfg.nsets = nsets;
	cfg.sets = sets;
	if (profile) {
		/* Resolved for the governor that will run; its settings go
		 * before the user's --set, which therefore win. */
		struct profile_env env = { .cpufreq = cfg.cpufreq, .cpufreq_fixed = cpufreq_given };
		if (profile_load_env(&prof, profile, &m, &env, dirs, ndirs, &d) < 0) {
			cli_bad("%s", d.msg);
			goto out;
		}
		prof_sets = calloc((size_t)(prof.nsettings + nsets) + 1, sizeof(*prof_sets));
		if (!prof_sets) {
			cli_bad("out of memory");
			goto out;
		}
		if (profile_apply(&prof, &cfg, cpufreq_given, sets, nsets, prof_sets,
				  prof.nsettings + nsets, &d) < 0) {
			cli_bad("%s", d.msg);
			goto out;
		}
	}
	if (timeline) {
		tl = perfetto_open(timeline, &m, workload, &d);
		if (!tl) {
			fprintf(stderr, "pmlab: %s\n", d.msg);
			rc = EXIT_RUNTIME;
			goto out;
		}
		cfg.observer = perfetto_observer(tl);
	}
	struct sim *s;
	if (sim_create(&s, &cfg, &d) < 0) {
		sim_destroy(s);
		cli_bad("%s", d.msg);
		goto out;
	}
	struct run_result r;
	int ran = sim_run(s, &r, &d);
	if (tty && r.events > 0xfffff)
		fprintf(stderr, "\r%30s\r", "");
	if (ran < 0) {
		sim_destroy(s);
		result_free(&r);
		fprintf(stderr, "pmlab: sim: %s\n", d.msg);
		rc = EXIT_RUNTIME;
		goto out;
	}
	rc = EXIT_OK;
	if (tl) {
		int closed = perfetto_close(tl, r.duration_ns, &d);
		tl = NULL;
		if (closed < 0) {
			fprintf(stderr, "pmlab: %s\n", d.msg);
			rc = EXIT_RUNTIME;
		}
	}
	if (profile)
		snprintf(r.profile, sizeof(r.profile), "%s", profile);
	if (result_write(stdout, &r, format) < 0 || fflush(stdout) != 0) {
		fprintf(stderr, "pmlab: sim: cannot write the result to standard output\n");
		rc = EXIT_RUNTIME;
	}
	result_free(&r);
	sim_destroy(s);
out:
	if (tl)
		perfetto_discard(tl);
	profile_free(&prof);
	free(prof_sets);
	free(dirs);
	free(sets);
	return rc;
}
