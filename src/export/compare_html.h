// SPDX-License-Identifier: GPL-2.0-only
/* A comparison (metrics/compare.h) as one self-contained HTML page. */
#ifndef PMLAB_COMPARE_HTML_H
#define PMLAB_COMPARE_HTML_H

#include <stdio.h>

#include "../metrics/compare.h"

/* The tables and charts of pmlab compare --format html; flushes out. -1 on
 * a write error or OOM. */
int cmp_write_html(FILE *out, const struct cmp_set *s);

#endif
