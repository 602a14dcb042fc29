/* Placeholder until pmlab govtrace lands. */
#include <stdio.h>

#include "cli.h"

void usage_govtrace(void)
{
	printf("usage: pmlab govtrace (not built yet)\n");
}

int cmd_govtrace(int argc, char **argv)
{
	return cli_bad("govtrace: not built yet");
}
