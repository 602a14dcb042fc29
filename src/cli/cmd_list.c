// SPDX-License-Identifier: GPL-2.0-only
/* pmlab machines | governors | workloads: what is built in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cpufreq/cpufreq.h"
#include "../cpuidle/cpuidle.h"
#include "../engine/sim.h"
#include "../machine/energy_model.h"
#include "../machine/machine.h"
#include "../metrics/texttable.h"
#include "../workload/workload.h"
#include "../plugin/loader.h"
#include "cli.h"
#include "options.h"

void usage_machines(void)
{
	printf("usage: pmlab machines [show [--energy-model] NAME|FILE]\n"
	       "       pmlab machines detect [--root DIR] [-o FILE]\n\n"
	       "List the built-in machine models, or print one (or an .ini file, checked) as INI;\n"
	       "the printed text is a valid machine file. --energy-model prints instead the\n"
	       "kernel's Energy Model of each CPU type (frequency, performance, power, cost).\n\n"
	       "detect writes a machine file of this machine (or of the tree under --root,\n"
	       "default $PMLAB_ROOT, else /) from sysfs and /proc/cpuinfo: topology, SMT, cache\n"
	       "groups, CPU types and capacities, cpufreq driver and tables, cpuidle states,\n"
	       "power limits. Every figure it had to guess follows a '# guessed:' comment.\n");
}

int cmd_machines(int argc, char **argv)
{
	struct pm_diag d = { { 0 } };
	if (argc >= 2 && strcmp(argv[1], "detect") == 0)
		return cmd_machines_detect(argc - 1, argv + 1);
	if (argc == 1) {
		for (int i = 0; i < machine_preset_count(); i++) {
			struct machine m;
			if (machine_parse(&m, machine_preset_text(i), machine_preset_name(i), &d) < 0) {
				fprintf(stderr, "pmlab: %s\n", d.msg);
				return EXIT_RUNTIME;
			}
			char first[96];

			snprintf(first, sizeof(first), "%-20s %3d CPUs  ", m.name,
				 machine_possible_cpus(&m));
			text_wrap(stdout, first, m.description, (int)strlen(first));
		}
		return EXIT_OK;
	}
	if (argc == 4 && strcmp(argv[1], "show") == 0 &&
	    (strcmp(argv[2], "--energy-model") == 0 || strcmp(argv[3], "--energy-model") == 0)) {
		struct machine m;
		if (machine_load(&m, strcmp(argv[2], "--energy-model") == 0 ? argv[3] : argv[2], &d) < 0)
			return cli_bad("%s", d.msg);
		em_write(stdout, &m);
		return EXIT_OK;
	}
	if (argc == 3 && strcmp(argv[1], "show") == 0) {
		struct machine m;
		if (machine_load(&m, argv[2], &d) < 0)
			return cli_bad("%s", d.msg);
		char *ini = machine_to_ini(&m);
		if (!ini)
			return cli_bad("out of memory");
		fputs(ini, stdout);
		free(ini);
		return EXIT_OK;
	}
	return cli_bad("machines: expected no argument, 'show NAME', 'show --energy-model NAME' "
		       "or 'detect' (see pmlab machines --help)");
}

/* "      NAME  default D  what it does", the description wrapped to the
 * width under itself. */
static void print_tunable(const char *name, const char *def, const char *help)
{
	char first[128];

	snprintf(first, sizeof(first), "      %-30s default %-10s ", name, def);
	text_wrap(stdout, first, help, (int)strlen(first));
}

/* A plugin's tunable that takes words says which after its help (the
 * built-in ones' help texts name theirs). */
static void print_tunables(const struct tunable *t, int n, bool plugin)
{
	for (int i = 0; i < n; i++) {
		char def[64], help[1024];
		size_t used;
		tunable_format_value(&t[i], t[i].def, def, sizeof(def));
		used = (size_t)snprintf(help, sizeof(help), "%s", t[i].help);
		for (int k = 0; plugin && t[i].words && t[i].words[k] && used < sizeof(help); k++)
			used += (size_t)snprintf(help + used, sizeof(help) - used, "%s%.*s",
						 k ? "|" : " (", (int)strcspn(t[i].words[k], "="),
						 t[i].words[k]);
		if (plugin && t[i].words && used < sizeof(help))
			snprintf(help + used, sizeof(help) - used, ")");
		print_tunable(t[i].name, def, help);
	}
}

/* "  NAME  summary", wrapped. */
static void print_named(int w, const char *name, const char *summary)
{
	char first[96];

	snprintf(first, sizeof(first), "  %-*s ", w, name);
	text_wrap(stdout, first, summary, (int)strlen(first));
}

void usage_governors(void)
{
	printf("usage: pmlab governors [--plugin FILE]...\n\n"
	       "List the frequency (cpufreq) and idle (cpuidle) governors, each with its tunables,\n"
	       "their defaults and units, and the engine's own tunables. Set any of them with\n"
	       "'pmlab sim --set NAME=VALUE'; and the task placement policies: a built-in one runs\n"
	       "as the kernel's settings select it, a plugin's with --set placement=NAME. The\n"
	       "governors and policies of plugins (--plugin, and every *.so of PMLAB_PLUGIN_PATH)\n"
	       "are listed after the built-in ones, with their file.\n");
}

/* "  NAME  SUMMARY", wrapped, and the plugin's file for a plugin's governor. */
static void print_governor(const struct plugin_set *set, const char *name, const char *summary,
			   bool plugin)
{
	char text[512];

	snprintf(text, sizeof(text), "%s (plugin %s)", summary,
		 plugin ? plugin_set_origin_of(set, name) : "");
	print_named(14, name, plugin ? text : summary);
}

/* The listing commands take only --plugin: parse it and load the plugins into *set.
 * On failure the error is printed and nothing is left to free. */
static int open_listing(const char *cmd, int argc, char **argv, struct cli_opts *o,
			struct plugin_set *set)
{
	static const struct option opts[] = { CLI_OPTION_PLUGIN, { 0, 0, 0, 0 } };
	int i;

	if (cli_opts_init(o, cmd, 0, argc) < 0) {
		cli_bad("out of memory");
		return -1;
	}
	i = cli_parse(o, argc, argv, ":", opts, NULL, NULL);
	if (i < 0 || cli_no_operands(o, i, argc, argv) < 0 || cli_load_plugins(o, set) < 0) {
		plugin_set_free(set);
		cli_opts_free(o);
		return -1;
	}
	return 0;
}

int cmd_governors(int argc, char **argv)
{
	struct plugin_set set = { .n = 0 };
	struct cli_opts o;
	int i;

	if (open_listing("governors", argc, argv, &o, &set) < 0)
		return EXIT_USAGE;
	printf("cpufreq governors (--cpufreq):\n");
	for (i = 0; i < registry_cpufreq_count(&set.reg); i++) {
		const struct cpufreq_governor *g = registry_cpufreq_at(&set.reg, i);
		print_governor(&set, g->name, g->summary, g->plugin != NULL);
		print_tunables(g->tunables, g->ntunables, g->plugin != NULL);
	}
	printf("\ncpuidle governors (--cpuidle):\n");
	for (i = 0; i < registry_cpuidle_count(&set.reg); i++) {
		const struct cpuidle_governor *g = registry_cpuidle_at(&set.reg, i);
		print_governor(&set, g->name, g->summary, g->plugin != NULL);
		print_tunables(g->tunables, g->ntunables, g->plugin != NULL);
	}
	printf("\nplacement policies (--set placement=NAME; a built-in one where the kernel's "
	       "settings select it):\n");
	for (i = 0; i < registry_placement_count(&set.reg); i++) {
		const struct placement_ops *p = registry_placement_at(&set.reg, i);
		print_governor(&set, p->name, p->summary, p->plugin != NULL);
		print_tunables(p->tunables, p->ntunables, p->plugin != NULL);
	}
	plugin_set_free(&set);
	cli_opts_free(&o);
	printf("\nengine tunables (--set):\n");
	for (i = 0; i < sim_engine_tunable_count(); i++)
		print_tunables(sim_engine_tunable_at(i), 1, false);
	print_tunable("cstate_disable", "none", "comma-separated C-state names to disable "
		      "(stateN/disable)");
	print_tunable("placement", "kernel", "a plugin's placement policy, or the built-in "
		      "one the kernel's settings select (pmlab governors lists them)");
	print_tunable("kernel", "current", "MAJOR.MINOR: tick policy and governor rules of that "
		      "kernel (ondemand 3.10/3.11, conservative <4.8, menu 3.10); later keys override");
	return EXIT_OK;
}

void usage_workloads(void)
{
	printf("usage: pmlab workloads [--plugin FILE]...\n\n"
	       "List the workload models with their parameters (set with --set NAME=VALUE),\n"
	       "their throughput unit and what their latency measures; the workloads of plugins\n"
	       "(--plugin, PMLAB_PLUGIN_PATH) after the built-in ones, with their file.\n");
}

int cmd_workloads(int argc, char **argv)
{
	struct plugin_set set = { .n = 0 };
	struct cli_opts o;
	char text[512];
	int i;

	if (open_listing("workloads", argc, argv, &o, &set) < 0)
		return EXIT_USAGE;
	for (i = 0; i < registry_workload_count(&set.reg); i++) {
		const struct workload_ops *w = registry_workload_at(&set.reg, i);
		snprintf(text, sizeof(text), "%s (plugin %s)", w->summary,
			 w->plugin ? plugin_set_origin_of(&set, w->name) : "");
		print_named(12, w->name, w->plugin ? text : w->summary);
		printf("      throughput in %s; latency: %s\n", w->throughput_unit, w->latency_what);
		print_tunables(w->params, w->nparams, w->plugin != NULL);
	}
	plugin_set_free(&set);
	cli_opts_free(&o);
	return EXIT_OK;
}
