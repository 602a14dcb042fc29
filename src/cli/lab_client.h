// SPDX-License-Identifier: GPL-2.0-only
/* What the commands that are clients of libpmlab (include/pmlab/pmlab.h)
 * share: the lab the options describe, the machine they name, the exports
 * of a run. */
#ifndef PMLAB_CLI_LAB_CLIENT_H
#define PMLAB_CLI_LAB_CLIENT_H

#include <pmlab/pmlab.h>

#include "options.h"

/* A lab with --profile-dir's directories, the plugins of
 * $PMLAB_PLUGIN_PATH then those of --plugin, and the signals a command
 * owns (pmlab_lab_signals). -1 after the one-line message. */
int cli_lab(const struct cli_opts *o, pmlab_lab **lab);
/* The same into a lab made by pmlab_lab_new. */
int cli_lab_setup(const struct cli_opts *o, pmlab_lab *lab);
/* --machine limited to --cpus. -1 after the one-line message. */
int cli_machine(const struct cli_opts *o, pmlab_machine **m);
/* What --timeline, --trace, --window and --trace-cpus ask of run. -1
 * after the message. */
int cli_run_exports(const struct cli_opts *o, pmlab_run *run);
/* Prints a library error as the commands do: bad input as a usage error
 * "pmlab: CMD: MSG" (exit 2), else "pmlab: MSG" (exit 1, the message
 * naming the command or the run). Returns the exit code. */
int cli_lib_error(const struct cli_opts *o, const pmlab_error *err);

#endif
