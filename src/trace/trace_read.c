// SPDX-License-Identifier: GPL-2.0-only
#include "trace_read.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ftrace_text.h"
#include "tracedat.h"

int trace_read(const char *path, trace_sink sink, void *ctx, struct trace_info *info,
	       struct pm_diag *d)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return pm_fail_at(d, path, 0, "cannot open: %s", strerror(errno));
	unsigned char head[16];
	size_t n = fread(head, 1, sizeof(head), f);
	if (tracedat_magic(head, n)) {
		fclose(f);
		return tracedat_read(path, sink, ctx, info, d);
	}
	rewind(f);
	int rc = ftrace_text_read(f, path, sink, ctx, info, d);
	fclose(f);
	return rc;
}
