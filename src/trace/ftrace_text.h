// SPDX-License-Identifier: GPL-2.0-only
/* Reader of scheduler traces as text: /sys/kernel/tracing/trace (default
 * options, irq-info off, record-tgid, latency-format) and `trace-cmd
 * report` output (default with its plugins, -N, -R, -t, -l). Each line
 * becomes a trace_event for the sink; headers, lost-event markers and
 * events the replay does not use are recognised, anything else is an
 * error naming the line. */
#ifndef PMLAB_FTRACE_TEXT_H
#define PMLAB_FTRACE_TEXT_H

#include <stdio.h>

#include "trace_event.h"

/* Reads every line of f. `name` is used in messages ("NAME:LINE: ...").
 * 0 when the whole file was read, -1 with d filled (the sink's own errors
 * included). info may be NULL. */
int ftrace_text_read(FILE *f, const char *name, trace_sink sink, void *ctx,
		     struct trace_info *info, struct pm_diag *d);

/* The same on a buffer of len bytes (need not be NUL-terminated). */
int ftrace_text_read_buf(const char *buf, size_t len, const char *name, trace_sink sink,
			 void *ctx, struct trace_info *info, struct pm_diag *d);

#endif
