// SPDX-License-Identifier: GPL-2.0-only
/* Writing monitor results: a turbostat-like table (the summary row first,
 * CPU "-"), CSV (one header, a row per CPU and interval, "all" for the
 * summary, empty fields for absent figures) or JSON Lines (one object per
 * interval, null for absent figures). Absent figures are "-" in tables. */
#ifndef PMLAB_MONITOR_OUT_H
#define PMLAB_MONITOR_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include "monitor.h"

enum mon_format { MON_TABLE, MON_CSV, MON_JSON };

struct mon_writer {
	FILE *out;
	enum mon_format format;
	const struct monitor *m;
	bool header_done;
	bool summary_only;
};

/* t_s: seconds since the monitor started, at the end of the interval. */
int mon_write(struct mon_writer *w, const struct mon_result *r, double t_s);

#endif
