// SPDX-License-Identifier: GPL-2.0-only
/* pmlab merge: joins the outputs of a sweep's shards into the output of
 * the whole sweep. */
#include <stdio.h>

#include "cli.h"
#include "../metrics/sweep_out.h"

void usage_merge(void)
{
	printf("usage: pmlab merge FILE...\n\n"
	       "Join the outputs of 'pmlab sweep --shard I/N' (CSV or JSON, all alike) into\n"
	       "the output the sweep gives without --shard, byte for byte: rows in point\n"
	       "order, CSV columns rebuilt as the whole sweep has them. Shards of another\n"
	       "sweep (each row carries its sweep's identity), a point given twice, or one\n"
	       "missing from 0 up to the last one (a shard left out), is an error.\n"
	       "Files may be given in any order; an empty file (a shard without points)\n"
	       "adds nothing.\n");
}

int cmd_merge(int argc, char **argv)
{
	struct sweep_out o = { 0 };
	struct pm_diag d = { { 0 } };
	int rc = EXIT_USAGE, i = 1;

	if (i < argc && argv[i][0] == '-' && argv[i][1] == '-' && !argv[i][2])
		i++;
	else if (i < argc && argv[i][0] == '-' && argv[i][1])
		return cli_bad("merge: unknown option '%s' (see pmlab merge --help)", argv[i]);
	if (i >= argc)
		return cli_bad("merge: expected the files to merge (see pmlab merge --help)");
	for (; i < argc; i++)
		if (sweep_out_read(&o, argv[i], &d) < 0) {
			cli_bad("merge: %s", d.msg);
			goto out;
		}
	if (sweep_out_write(stdout, &o, true, &d) < 0) {
		cli_bad("merge: %s", d.msg);
		goto out;
	}
	rc = EXIT_OK;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "pmlab: merge: cannot write the result to standard output\n");
		rc = EXIT_RUNTIME;
	}
out:
	sweep_out_free(&o);
	return rc;
}
