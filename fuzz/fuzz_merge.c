// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target for merge's reader of sweep shards (src/metrics/
 * sweep_out.c, csvread.c): the input is one shard file, in memory (a
 * memfd). Any input is read or refused with one message naming the file;
 * what is read writes out, and that output reads back and writes out the
 * same again (merge of a merge changes nothing). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "metrics/sweep_out.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "broken: %s\n", what);
		abort();
	}
}

static int memfd(const char *name, char *path, size_t len)
{
	int fd = memfd_create(name, MFD_CLOEXEC);
	check(fd >= 0, "memfd");
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

/* Writes o (not requiring every point) into fd; the bytes, malloc'd. */
static char *write_out(struct sweep_out *o, int fd, size_t *len, int *rc, struct pm_diag *d)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);
	check(f != NULL, "memstream");
	*rc = sweep_out_write(f, o, false, d);
	check(fclose(f) == 0, "memstream close");
	check(ftruncate(fd, 0) == 0 && pwrite(fd, text, *len, 0) == (ssize_t)*len, "memfd write");
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int in = -1, back = -1;
	static char in_path[64], back_path[64];
	if (in < 0) {
		in = memfd("shard", in_path, sizeof(in_path));
		back = memfd("merged", back_path, sizeof(back_path));
	}
	check(ftruncate(in, 0) == 0 && pwrite(in, data, size, 0) == (ssize_t)size, "memfd write");
	struct sweep_out o = { 0 }, o2 = { 0 };
	struct pm_diag d = { { 0 } };
	if (sweep_out_read(&o, in_path, &d) < 0) {
		check(strstr(d.msg, in_path) != NULL || strcmp(d.msg, "out of memory") == 0,
		      "a message naming the file");
		sweep_out_free(&o);
		return 0;
	}
	size_t len1, len2;
	int rc1, rc2;
	char *one = write_out(&o, back, &len1, &rc1, &d);
	if (rc1 == 0) {
		check(sweep_out_read(&o2, back_path, &d) == 0, "its own output reads back");
		int spare = memfd_create("again", MFD_CLOEXEC);
		check(spare >= 0, "memfd");
		char *two = write_out(&o2, spare, &len2, &rc2, &d);
		close(spare);
		check(rc2 == 0 && len1 == len2 && memcmp(one, two, len1) == 0, "a fixed point");
		free(two);
	}
	free(one);
	sweep_out_free(&o2);
	sweep_out_free(&o);
	return 0;
}
