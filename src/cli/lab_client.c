// SPDX-License-Identifier: GPL-2.0-only
#include "lab_client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../machine/machine.h"
#include "cli.h"

int cli_lab_setup(const struct cli_opts *o, pmlab_lab *lab)
{
	const char *path = getenv("PMLAB_PLUGIN_PATH");
	pmlab_error err;

	pmlab_lab_signals(lab, 1);
	for (int i = 0; i < o->ndirs; i++)
		if (pmlab_lab_profile_dir(lab, o->dirs[i], &err) != PMLAB_OK)
			return cli_bad("%s: %s", o->cmd, err.message), -1;
	if (path && pmlab_lab_load_plugin_list(lab, path, &err) != PMLAB_OK)
		return cli_bad("%s: %s", o->cmd, err.message), -1;
	for (int i = 0; i < o->nplugins; i++)
		if (pmlab_lab_load_plugin(lab, o->plugins[i], &err) != PMLAB_OK)
			return cli_bad("%s: %s", o->cmd, err.message), -1;
	return 0;
}

int cli_lab(const struct cli_opts *o, pmlab_lab **lab)
{
	pmlab_error err;

	if (pmlab_lab_new(lab, &err) != PMLAB_OK)
		return cli_bad("%s: %s", o->cmd, err.message), -1;
	return cli_lab_setup(o, *lab);
}

int cli_machine(const struct cli_opts *o, pmlab_machine **m)
{
	pmlab_error err;
	uint64_t n;

	if (pmlab_machine_load(o->machine, m, &err) != PMLAB_OK)
		return cli_bad("%s: %s", o->cmd, err.message), -1;
	if (!o->cpus)
		return 0;
	if (cli_parse_u64(o->cpus, &n) < 0 || n > MACHINE_MAX_CPUS)
		return cli_bad("%s: --cpus %s: expected a CPU count", o->cmd, o->cpus), -1;
	if (pmlab_machine_set_cpus(*m, (int)n, &err) != PMLAB_OK)
		return cli_bad("%s: --cpus: %s", o->cmd, err.message), -1;
	return 0;
}

int cli_run_exports(const struct cli_opts *o, pmlab_run *run)
{
	pmlab_error err = { PMLAB_OK, "" };

	if ((o->window || o->trace_cpus) && !o->timeline && !o->trace)
		return cli_bad("%s: --window and --trace-cpus choose what --timeline or --trace "
			       "keep; give one of them", o->cmd), -1;
	if (o->timeline && o->trace && strcmp(o->timeline, o->trace) == 0)
		return cli_bad("%s: --timeline and --trace name the same file '%s'", o->cmd,
			       o->trace), -1;
	if (pmlab_run_timeline(run, o->timeline, &err) != PMLAB_OK ||
	    pmlab_run_trace(run, o->trace, &err) != PMLAB_OK ||
	    (o->window && pmlab_run_window(run, o->window, &err) != PMLAB_OK) ||
	    (o->trace_cpus && pmlab_run_trace_cpus(run, o->trace_cpus, &err) != PMLAB_OK))
		return cli_bad("%s: %s", o->cmd, err.message), -1;
	return 0;
}

int cli_lib_error(const struct cli_opts *o, const pmlab_error *err)
{
	if (err->code == PMLAB_ERR_INPUT)
		return cli_bad("%s: %s", o->cmd, err->message);
	fprintf(stderr, "pmlab: %s\n", err->message);
	return EXIT_RUNTIME;
}
