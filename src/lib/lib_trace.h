// SPDX-License-Identifier: GPL-2.0-only
/* The trace handle behind pmlab.h's traces section, which api_trace.c
 * loads and api_trace_run.c drives governors with. */
#ifndef PMLAB_LIB_TRACE_H
#define PMLAB_LIB_TRACE_H

#include "../cpufreq/govtrace.h"
#include "../cpuidle/idletrace.h"
#include "../trace/trace_event.h"
#include "lib.h"

struct pmlab_trace {
	pmlab_trace_kind kind;
	char *name;             /* the path, or the caller's name for a text */
	const char *format;     /* "trace.dat", "ftrace text", "idletrace CSV", ... */
	struct idletrace idle;  /* PMLAB_TRACE_IDLE */
	struct govtrace_input util; /* PMLAB_TRACE_UTIL */
	struct trace_event *events; /* PMLAB_TRACE_EVENTS, in file order */
	size_t nevents;
	struct trace_info info;
};

#endif
