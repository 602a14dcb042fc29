// SPDX-License-Identifier: GPL-2.0-only
/* Any recorded trace by its content: a trace.dat (by its magic) through
 * libtracecmd, anything else as ftrace text. */
#ifndef PMLAB_TRACE_READ_H
#define PMLAB_TRACE_READ_H

#include "trace_event.h"

/* 0 when the whole file was read, -1 with d naming the file and the line
 * or record. info may be NULL. */
int trace_read(const char *path, trace_sink sink, void *ctx, struct trace_info *info,
	       struct pm_diag *d);

#endif
