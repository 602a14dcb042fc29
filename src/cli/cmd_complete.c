// SPDX-License-Identifier: GPL-2.0-only
/* pmlab complete: the names the shell completions offer, one a line --
 * commands, machines, workloads, governors, profiles, --set keys -- from
 * the registries themselves, so the completions never fall behind. */
#include <stdio.h>
#include <string.h>

#include "../cpufreq/cpufreq.h"
#include "../cpuidle/cpuidle.h"
#include "../engine/sim.h"
#include "../machine/machine.h"
#include "../profile/profile.h"
#include "../workload/workload.h"
#include "cli.h"

void usage_complete(void)
{
	printf("usage: pmlab complete commands|machines|workloads|cpufreq|cpuidle|profiles\n"
	       "       pmlab complete keys [WORKLOAD [CPUFREQ [CPUIDLE]]]\n\n"
	       "Print the names shell completion offers, one a line (the bash and zsh\n"
	       "completions make install installs call it): the commands, the built-in\n"
	       "machines, the workloads, the frequency and idle governors, the tuned profiles\n"
	       "in the search path, or the --set keys (KEY=) of the engine and, when named, of\n"
	       "a workload and governors.\n");
}

static void tunables(const struct tunable *t, int n)
{
	for (int i = 0; i < n; i++)
		printf("%s=\n", t[i].name);
}

static void profile_name(void *ctx, const struct profile_entry *e)
{
	if (!e->hidden_by[0])
		printf("%s\n", e->name);
}

static int keys(int argc, char **argv)
{
	for (int i = 0; i < sim_engine_tunable_count(); i++)
		tunables(sim_engine_tunable_at(i), 1);
	printf("kernel=\ncstate_disable=\n");
	const struct workload_ops *w = argc > 2 ? workload_find_spec(argv[2]) : NULL;
	const struct cpufreq_governor *f = argc > 3 ? cpufreq_governor_find(argv[3]) : NULL;
	const struct cpuidle_governor *c = argc > 4 ? cpuidle_governor_find(argv[4]) : NULL;
	if (w)
		tunables(w->params, w->nparams);
	if (f)
		tunables(f->tunables, f->ntunables);
	if (c)
		tunables(c->tunables, c->ntunables);
	return EXIT_OK;
}

int cmd_complete(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	if (strcmp(what, "commands") == 0)
		cli_print_commands();
	else if (strcmp(what, "machines") == 0)
		for (int i = 0; i < machine_preset_count(); i++)
			printf("%s\n", machine_preset_name(i));
	else if (strcmp(what, "workloads") == 0)
		for (int i = 0; i < workload_count(); i++)
			printf("%s\n", workload_at(i)->name);
	else if (strcmp(what, "cpufreq") == 0)
		for (int i = 0; i < cpufreq_governor_count(); i++)
			printf("%s\n", cpufreq_governor_at(i)->name);
	else if (strcmp(what, "cpuidle") == 0)
		for (int i = 0; i < cpuidle_governor_count(); i++)
			printf("%s\n", cpuidle_governor_at(i)->name);
	else if (strcmp(what, "profiles") == 0) {
		struct pm_diag d = { { 0 } };
		printf("none\n");
		if (profile_list(NULL, 0, profile_name, NULL, &d) < 0)
			return EXIT_RUNTIME;
	} else if (strcmp(what, "keys") == 0)
		return keys(argc, argv);
	else
		return cli_bad("complete: '%s': expected commands, machines, workloads, cpufreq, "
			       "cpuidle, profiles or keys", what);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_RUNTIME;
}
