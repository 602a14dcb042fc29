// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target for the validation data files (src/lab/validation.c,
 * data/validation/ files): the input is the file, in memory (a memfd). Any
 * input gives an experiment or one message "PATH:LINE: ..." with a line
 * inside the file; an experiment's rows, targets and orderings are within
 * their bounds and name rows that exist. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lab/validation.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "broken: %s\n", what);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	static struct validation v;
	if (fd < 0) {
		fd = memfd_create("fuzz.ini", MFD_CLOEXEC);
		check(fd >= 0, "memfd");
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	check(ftruncate(fd, 0) == 0 && pwrite(fd, data, size, 0) == (ssize_t)size, "memfd write");
	struct pm_diag d = { { 0 } };
	if (validation_load(&v, path, &d) < 0) {
		size_t n = strlen(path);
		check(strncmp(d.msg, path, n) == 0 && d.msg[n] == ':', "a message naming the file");
		long line = strtol(d.msg + n + 1, NULL, 10);
		long lines = 1;
		for (size_t i = 0; i < size; i++)
			lines += data[i] == '\n';
		check(line >= 0 && line <= lines, "a line inside the file");
		return 0;
	}
	check(v.nrows > 0 && v.nrows <= V_MAX && v.norders <= V_MAX, "counts");
	check(validation_row(&v, v.baseline) >= 0, "the baseline is a row");
	for (int r = 0; r < v.nrows; r++)
		check(v.row[r].ntargets >= 0 && v.row[r].ntargets <= V_MAX, "targets");
	return 0;
}
