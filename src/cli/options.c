// SPDX-License-Identifier: GPL-2.0-only
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../metrics/texttable.h"
#include "../lab/runner.h"
#include "../lab/runspec.h"
#include "../plugin/loader.h"
#include "cli.h"

static const char *const format_names[] = { "table", "csv", "json", "html" };
#define NFORMATS ((int)(sizeof(format_names) / sizeof(format_names[0])))

int cli_parse_format(const char *cmd, const char *arg, unsigned allowed, enum cli_format *out)
{
	char list[64] = "";
	int n = 0, k = 0;

	for (int f = 0; f < NFORMATS; f++) {
		if (!(allowed & CLI_FORMAT_BIT(f)))
			continue;
		if (strcmp(arg, format_names[f]) == 0) {
			*out = (enum cli_format)f;
			return 0;
		}
		n++;
	}
	/* "table, csv or json" */
	for (int f = 0; f < NFORMATS; f++)
		if (allowed & CLI_FORMAT_BIT(f)) {
			size_t len = strlen(list);

			snprintf(list + len, sizeof(list) - len, "%s%s", k == 0 ? "" : k + 1 == n ? " or " : ", ",
				 format_names[f]);
			k++;
		}
	cli_bad("%s: --format %s: expected %s", cmd, arg, list);
	return -1;
}

int cli_parse_count(const char *cmd, const char *name, const char *arg, uint64_t lo, uint64_t hi,
		    uint64_t *out)
{
	if (cli_parse_u64(arg, out) < 0 || *out < lo || *out > hi) {
		cli_bad("%s: %s %s: expected a count from %llu to %llu", cmd, name, arg,
			(unsigned long long)lo, (unsigned long long)hi);
		return -1;
	}
	return 0;
}

int cli_opts_init(struct cli_opts *o, const char *cmd, unsigned formats, int argc)
{
	memset(o, 0, sizeof(*o));
	o->cmd = cmd;
	o->formats = formats;
	o->duration = RUNSPEC_DEFAULT_DURATION;
	o->seed = RUNSPEC_DEFAULT_SEED;
	o->jobs = runner_default_workers();
	for (int f = 0; f < NFORMATS; f++)
		if (formats & CLI_FORMAT_BIT(f)) {
			o->format = (enum cli_format)f;
			break;
		}
	o->sets = calloc((size_t)argc + 1, sizeof(*o->sets));
	o->dirs = calloc((size_t)argc + 1, sizeof(*o->dirs));
	o->plugins = calloc((size_t)argc + 1, sizeof(*o->plugins));
	if (!o->sets || !o->dirs || !o->plugins) {
		cli_opts_free(o);
		return -1;
	}
	return 0;
}

void cli_opts_free(struct cli_opts *o)
{
	free(o->sets);
	free(o->dirs);
	free(o->plugins);
	o->sets = o->dirs = o->plugins = NULL;
}

/* 1: not a shared option. */
static int shared(struct cli_opts *o, int opt, const char *arg)
{
	uint64_t n;

	switch (opt) {
	case 'm': o->machine = arg; return 0;
	case 'w': o->workload = arg; return 0;
	case 'c': o->cpus = arg; return 0;
	case CLI_OPT_CPUFREQ: o->cpufreq = arg; return 0;
	case CLI_OPT_CPUIDLE: o->cpuidle = arg; return 0;
	case CLI_OPT_SET: o->sets[o->nsets++] = arg; return 0;
	case CLI_OPT_PROFILE: o->profile = arg; return 0;
	case CLI_OPT_PROFILE_DIR: o->dirs[o->ndirs++] = arg; return 0;
	case CLI_OPT_PLUGIN: o->plugins[o->nplugins++] = arg; return 0;
	case CLI_OPT_TIMELINE: o->timeline = arg; return 0;
	case CLI_OPT_TRACE: o->trace = arg; return 0;
	case CLI_OPT_WINDOW: o->window = arg; return 0;
	case CLI_OPT_TRACE_CPUS: o->trace_cpus = arg; return 0;
	case CLI_OPT_CHECK: o->check = true; return 0;
	case 'q': cli_quiet = true; return 0;
	case 'r': o->root = arg; return 0;
	case CLI_OPT_WIDE: text_width_set(0); return 0;
	case 'd':
		o->duration_arg = arg;
		o->duration = cli_parse_seconds(arg);
		if (o->duration < 0)
			return cli_bad("%s: --duration %s: expected positive seconds", o->cmd, arg), -1;
		return 0;
	case 's':
		o->seed_arg = arg;
		if (cli_parse_u64(arg, &o->seed) < 0)
			return cli_bad("%s: --seed %s: expected a non-negative integer", o->cmd, arg), -1;
		return 0;
	case 'f':
		return cli_parse_format(o->cmd, arg, o->formats, &o->format);
	case 'j':
		if (cli_parse_count(o->cmd, "--jobs", arg, 1, 1024, &n) < 0)
			return -1;
		o->jobs = (int)n;
		return 0;
	default:
		return 1;
	}
}

static void cli_bad_empty(const char *cmd, int opt, const struct option *longopts)
{
	for (int i = 0; longopts[i].name; i++)
		if (longopts[i].val == opt) {
			cli_bad("%s: --%s '': an empty value (see pmlab %s --help)", cmd,
				longopts[i].name, cmd);
			return;
		}
	cli_bad("%s: -%c '': an empty value (see pmlab %s --help)", cmd, opt, cmd);
}

int cli_parse(struct cli_opts *o, int argc, char **argv, const char *shortopts,
	      const struct option *longopts, cli_own_option own, void *ctx)
{
	int opt, rc;

	optind = 0; /* 0, not 1: glibc forgets a half-read "-abc" of an earlier argv */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (opt == ':' || opt == '?')
			return cli_bad_option(o->cmd, opt, argv[optind - 1]), -1;
		/* No option takes an empty value: --cpufreq "$UNSET" would
		 * otherwise run the default governor without a word. */
		if (optarg && !*optarg)
			return cli_bad_empty(o->cmd, opt, longopts), -1;
		rc = own ? own(ctx, opt, optarg) : 1;
		if (rc == 1)
			rc = shared(o, opt, optarg);
		if (rc == 1)
			return cli_bad_option(o->cmd, '?', argv[optind - 1]), -1;
		if (rc < 0)
			return -1;
	}
	return optind;
}

int cli_load_plugins(const struct cli_opts *o, struct plugin_set *set)
{
	const char *path = getenv("PMLAB_PLUGIN_PATH");
	struct pm_diag d = { { 0 } };

	if (path && plugin_set_load_list(set, path, &d) < 0)
		return cli_bad("%s: %s", o->cmd, d.msg), -1;
	for (int i = 0; i < o->nplugins; i++)
		if (plugin_set_load(set, o->plugins[i], &d) < 0)
			return cli_bad("%s: %s", o->cmd, d.msg), -1;
	return 0;
}

int cli_no_operands(const struct cli_opts *o, int i, int argc, char **argv)
{
	if (i < argc)
		return cli_bad("%s: unexpected argument '%s' (see pmlab %s --help)", o->cmd, argv[i],
			       o->cmd), -1;
	return 0;
}

int cli_load_machine(const struct cli_opts *o, struct machine *m)
{
	struct pm_diag d = { { 0 } };

	if (runspec_load_machine(m, o->machine, o->cpus, &d) < 0)
		return cli_bad("%s: %s", o->cmd, d.msg), -1;
	return 0;
}

const char *cli_host_root(const struct cli_opts *o)
{
	const char *env = getenv("PMLAB_ROOT");

	return o->root ? o->root : env && *env ? env : NULL;
}

