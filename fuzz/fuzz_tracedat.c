// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target for trace.dat (src/trace/tracedat.c, tracedat_layout.c):
 * the input is the file, in memory (a memfd: no disk I/O). pmlab's own
 * checks of the header and the ring-buffer pages run first; whatever they
 * let through goes to libtracecmd in this process, so a crash there is a
 * file pmlab's checks should have refused (the real reader runs
 * libtracecmd in a child and survives it). Any input gives events within
 * the documented ranges or one message naming the file. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "trace/tracedat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "broken: %s\n", what);
		abort();
	}
}

static int sink(void *ctx, const struct trace_event *ev, struct pm_diag *d)
{
	const struct trace_info *info = ctx;
	check(ev->kind >= TEV_SWITCH && ev->kind <= TEV_OTHER, "event kind");
	check(ev->cpu >= 0 && (info->ncpus <= 0 || ev->cpu < info->ncpus), "CPU in range");
	check(ev->ts >= 0, "timestamp");
	check(ev->where > 0, "record number");
	check(strlen(ev->comm) < TRACE_COMM_MAX && strlen(ev->comm2) < TRACE_COMM_MAX &&
		      strlen(ev->ctx_comm) < TRACE_COMM_MAX, "comm length");
	(void)d;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	if (fd < 0) {
		fd = memfd_create("fuzz.dat", MFD_CLOEXEC);
		check(fd >= 0, "memfd");
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	check(ftruncate(fd, 0) == 0 && pwrite(fd, data, size, 0) == (ssize_t)size, "memfd write");
	struct trace_info info = { 0 };
	struct pm_diag d = { { 0 } };
	if (tracedat_read_here(path, sink, &info, &info, &d) < 0)
		check(strncmp(d.msg, path, strlen(path)) == 0 || strcmp(d.msg, "out of memory") == 0,
		      "a message naming the file");
	return 0;
}
