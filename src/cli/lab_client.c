// SPDX-License-Identifier: GPL-2.0-only
#include "lab_client.h"

#include <stdio.h>
#include <stdlib.h>

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

int cli_lib_error(const struct cli_opts *o, const pmlab_error *err)
{
	if (err->code == PMLAB_ERR_INPUT)
		return cli_bad("%s: %s", o->cmd, err->message);
	fprintf(stderr, "pmlab: %s\n", err->message);
	return EXIT_RUNTIME;
}
