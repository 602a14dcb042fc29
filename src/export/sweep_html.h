// SPDX-License-Identifier: GPL-2.0-only
/* A sweep's CSV rows as one self-contained HTML page. */
#ifndef PMLAB_SWEEP_HTML_H
#define PMLAB_SWEEP_HTML_H

#include <stdio.h>

#include "../core/diag.h"
#include "../metrics/sweep_out.h"

/* A table of the points and power against throughput with the Pareto
 * front. Sorts o's rows by point. -1 with the reason in d. */
int sweep_out_write_html(FILE *out, struct sweep_out *o, const char *title, struct pm_diag *d);

#endif
