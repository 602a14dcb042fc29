// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target for the /proc/stat reader and the sysfs CPU-list
 * parser (src/host/procstat.c, inventory.c): any input gives a result or
 * a message; a result has no CPU twice, and deltas never exceed their
 * total. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host/inventory.h"
#include "host/procstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct procstat st = { 0 };
	struct pm_diag d;
	if (procstat_parse(&st, (const char *)data, size, "fuzz", &d) == 0) {
		for (int i = 0; i < st.ncpus; i++) {
			for (int k = 0; k < i; k++)
				if (st.cpus[k].cpu == st.cpus[i].cpu)
					abort();
			if (procstat_find(&st, st.cpus[i].cpu) != &st.cpus[i])
				abort();
			struct procstat_delta dl;
			procstat_delta(&st.all, &st.cpus[i], &dl);
			if (dl.busy > dl.total || dl.idle > dl.total || dl.user > dl.busy || dl.system > dl.busy)
				abort();
		}
	} else if (strncmp(d.msg, "fuzz:", 5) != 0 && strcmp(d.msg, "out of memory") != 0) {
		abort();
	}
	procstat_free(&st);

	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	int *cpus, n;
	if (host_parse_cpulist(text, 4096, &cpus, &n) == 0) {
		for (int i = 1; i < n; i++)
			if (cpus[i] <= cpus[i - 1])
				abort();
		for (int i = 0; i < n; i++)
			if (cpus[i] < 0 || cpus[i] >= 4096)
				abort();
		free(cpus);
	}
	free(text);
	return 0;
}
