// SPDX-License-Identifier: GPL-2.0-only
#include "profile_list.h"

#include <stdlib.h>
#include <string.h>

/* Splits a --profiles list. "balanced:governor=x,energy_perf_bias=y" is
 * one entry: an item that is OPTION=VALUE (no ':' and no '/') continues
 * the entry before it, as tuned's own override syntax would read it. */
int compare_split_profiles(const char *arg, char ***list, int *n)
{
	char *copy = strdup(arg), *item, *save = NULL;
	int rc = 0;

	if (!copy)
		return -1;
	for (item = strtok_r(copy, ",", &save); item && rc == 0; item = strtok_r(NULL, ",", &save)) {
		char **grown;

		if (*n > 0 && strchr(item, '=') && !strpbrk(item, ":/") && strchr((*list)[*n - 1], ':')) {
			size_t a = strlen((*list)[*n - 1]), b = strlen(item);
			char *joined = realloc((*list)[*n - 1], a + b + 2);

			if (!joined) {
				rc = -1;
				break;
			}
			joined[a] = ',';
			memcpy(joined + a + 1, item, b + 1);
			(*list)[*n - 1] = joined;
			continue;
		}
		grown = realloc(*list, (size_t)(*n + 1) * sizeof(*grown));
		if (!grown || !(grown[*n] = strdup(item))) {
			if (grown)
				*list = grown;
			rc = -1;
			break;
		}
		*list = grown;
		(*n)++;
	}
	free(copy);
	return rc;
}
