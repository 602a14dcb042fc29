/* Placeholder until pmlab idletrace lands. */
#include <stdio.h>

#include "cli.h"

void usage_idletrace(void)
{
	printf("usage: pmlab idletrace (not built yet)\n");
}

int cmd_idletrace(int argc, char **argv)
{
	return cli_bad("idletrace: not built yet");
}
