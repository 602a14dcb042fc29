// SPDX-License-Identifier: GPL-2.0-only
#include "diag.h"

#include <stdio.h>

int pm_fail(struct pm_diag *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int pm_fail_at(struct pm_diag *d, const char *where, int line, const char *fmt, ...)
{
	/* Shorter than msg so the prefix always fits. */
	char body[PM_DIAG_MAX - 420];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(body, sizeof(body), fmt, ap);
	va_end(ap);
	if (line > 0)
		snprintf(d->msg, sizeof(d->msg), "%.400s:%d: %s", where, line, body);
	else
		snprintf(d->msg, sizeof(d->msg), "%.400s: %s", where, body);
	return -1;
}
