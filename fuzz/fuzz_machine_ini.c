// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target for the machine INI parser: any input must give a
 * machine or a message, and any machine the parser accepts must pass
 * machine_validate() and survive machine_to_ini() -> machine_parse(). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/machine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct machine m, back; /* large: keep them off the stack */
	struct pm_diag d = { "" };
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';

	if (machine_parse(&m, text, "fuzz", &d) == 0) {
		if (machine_validate(&m, "fuzz", &d) != 0) {
			fprintf(stderr, "parsed but invalid: %s\n", d.msg);
			abort();
		}
		char *ini = machine_to_ini(&m);
		if (!ini || machine_parse(&back, ini, "fuzz-round-trip", &d) != 0) {
			fprintf(stderr, "round trip failed: %s\n%s\n", d.msg, ini ? ini : "(null)");
			abort();
		}
		char *again = machine_to_ini(&back);
		if (!again || strcmp(ini, again) != 0) {
			fprintf(stderr, "round trip changed the machine:\n%s\n---\n%s\n", ini,
				again ? again : "(null)");
			abort();
		}
		free(again);
		free(ini);
	} else if (!d.msg[0] || !strstr(d.msg, "fuzz")) {
		fprintf(stderr, "failed without a message\n");
		abort();
	}
	free(text);
	return 0;
}
