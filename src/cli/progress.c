// SPDX-License-Identifier: GPL-2.0-only
#include "progress.h"

#include "cli.h"

#include <stdio.h>
#include <unistd.h>

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

void progress_start(struct progress *p, const char *what)
{
	p->on = isatty(STDERR_FILENO) && !cli_quiet;
	p->what = what;
	clock_gettime(CLOCK_MONOTONIC, &p->start);
}

void progress_update(struct progress *p, int done, int total)
{
	double el;

	if (!p->on || done <= 0)
		return;
	el = since(&p->start);
	/* Runs of a batch take about the same time: a linear estimate. */
	fprintf(stderr, "\rpmlab: %s %d/%d, %.1f s elapsed, about %.1f s left   ", p->what, done,
		total, el, el / done * (total - done));
}

void progress_end(struct progress *p)
{
	if (p->on)
		fprintf(stderr, "\r%72s\r", "");
}
