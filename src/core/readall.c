// SPDX-License-Identifier: GPL-2.0-only
#include "readall.h"

#include <stdbool.h>
#include <stdlib.h>

const char *read_whole(FILE *f, char **text, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);

	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap || cap >= READ_ALL_MAX)
			break;
		char *grown = realloc(buf, cap * 2);
		if (!grown)
			free(buf);
		buf = grown;
		cap *= 2;
	}
	bool failed = !buf || ferror(f) || n == cap;
	if (failed) {
		free(buf);
		return !buf ? "out of memory" : n == cap ? "larger than 1 GiB" : "read error";
	}
	buf[n] = '\0'; /* n < cap */
	*text = buf;
	*len = n;
	return NULL;
}
