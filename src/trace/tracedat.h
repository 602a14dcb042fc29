// SPDX-License-Identifier: GPL-2.0-only
/* Reader of trace-cmd's trace.dat (versions 6 and 7) through libtracecmd:
 * records of every CPU merged in time order, decoded by field name with
 * libtraceevent, delivered as trace_events. */
#ifndef PMLAB_TRACEDAT_H
#define PMLAB_TRACEDAT_H

#include <stdbool.h>
#include <stddef.h>

#include "trace_event.h"

/* The file starts with trace.dat's magic: 0x17 0x08 0x44 "tracing". */
bool tracedat_magic(const void *head, size_t n);

/* 0 when every record was read, -1 with d filled ("PATH: byte N ..."). */
int tracedat_read(const char *path, trace_sink sink, void *ctx, struct trace_info *info,
		  struct pm_diag *d);
/* The same in this process, as the child of tracedat_read() does it: a
 * file libtracecmd chokes on crashes the caller (the fuzz target uses it,
 * to see what pmlab's own checks let through). */
int tracedat_read_here(const char *path, trace_sink sink, void *ctx, struct trace_info *info,
		       struct pm_diag *d);

#endif
