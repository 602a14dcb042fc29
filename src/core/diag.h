// SPDX-License-Identifier: GPL-2.0-only
/* Error reporting for bad input. Library code never prints or exits: it
 * fills a pm_diag and returns -1; the CLI prints the one line
 * "pmlab: WHERE: what is wrong (expected ...)" and exits with 2. */
#ifndef PMLAB_DIAG_H
#define PMLAB_DIAG_H

#include <stdarg.h>

#define PM_DIAG_MAX 1024

struct pm_diag {
	char msg[PM_DIAG_MAX];
};

/* Always returns -1 so callers can write `return pm_fail(d, ...)`. */
int pm_fail(struct pm_diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Prefix an existing message with "where: ". */
int pm_fail_at(struct pm_diag *d, const char *where, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
