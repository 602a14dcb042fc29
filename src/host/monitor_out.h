// SPDX-License-Identifier: GPL-2.0-only
/* Writing monitor results: a turbostat-like table (the summary row first,
 * CPU "-"), CSV (one header, a row per CPU and interval, "all" for the
 * summary, empty fields for absent figures) or JSON Lines (one object per
 * interval, null for absent figures). Absent figures are "-" in tables.
 * Around a command, the table ends with the elapsed time and the JSON
 * object names the command and its elapsed_s. */
#ifndef PMLAB_MONITOR_OUT_H
#define PMLAB_MONITOR_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include "monitor.h"

struct run_inputs;

enum mon_format { MON_TABLE, MON_CSV, MON_JSON };

struct mon_writer {
	FILE *out;
	enum mon_format format;
	const struct monitor *m;
	bool header_done;
	bool summary_only;
	/* A wrapped command (monitor -- CMD): its name, for the JSON object and
	 * the table's "seconds time elapsed" line as perf stat prints it; the
	 * interval is then the command's run. NULL: periodic sampling. */
	const char *command;
	/* What the output records of how it was made (metrics/inputs.h),
	 * before the first interval: the table's "inputs:" paragraph, CSV
	 * "#" lines, a first JSON line {"inputs": {...}}. NULL: none. */
	const struct run_inputs *inputs;
	bool inputs_done;
};

/* t_s: seconds since the monitor started, at the end of the interval. */
int mon_write(struct mon_writer *w, const struct mon_result *r, double t_s);

#endif
