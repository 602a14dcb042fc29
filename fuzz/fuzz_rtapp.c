// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target for the rt-app JSON loader: any input must give a
 * description or a message naming the input, and every description the
 * loader accepts must hold together: events of known kinds whose
 * resource and fork indices point into the tables, loops of -1 or more,
 * at least one task to start, CPUs within the machine's. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/rtapp.h"

#define NCPUS 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_sched(const struct rtapp_sched *sc)
{
	if (sc->util_min > 1024 || sc->util_max > 1024 || sc->weight == 0)
		abort();
	for (int i = 0; i < sc->ncpus; i++)
		if (sc->cpus[i] < 0 || sc->cpus[i] >= NCPUS)
			abort();
}

static void check(const struct rtapp_spec *sp)
{
	int64_t instances = 0;
	for (int t = 0; t < sp->nthreads; t++) {
		const struct rtapp_thread *th = &sp->threads[t];
		if (!th->name || th->nphases < 1 || th->loop < -1 || th->instances < 0)
			abort();
		instances += th->instances;
		check_sched(&th->sched);
		for (int p = 0; p < th->nphases; p++) {
			const struct rtapp_phase *ph = &th->phases[p];
			if (ph->nevents < 1 || ph->loop == 0 || ph->loop < -1)
				abort();
			check_sched(&ph->sched);
			for (int e = 0; e < ph->nevents; e++) {
				const struct rtapp_event *ev = &ph->events[e];
				if (ev->kind < RTAPP_RUN || ev->kind > RTAPP_IORUN || ev->value < 0)
					abort();
				if (ev->kind == RTAPP_FORK && (ev->res < 0 || ev->res >= sp->nthreads))
					abort();
				if (ev->kind != RTAPP_FORK && ev->res >= sp->nres)
					abort();
				if (ev->kind == RTAPP_WAIT && (ev->mutex < 0 || ev->mutex >= sp->nres))
					abort();
			}
		}
	}
	if (instances < 1 || instances > RTAPP_MAX_TASKS)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rtapp_spec sp;
	struct pm_diag d = { "" };

	if (rtapp_load_text(&sp, (const char *)data, size, "fuzz", NCPUS, &d) == 0) {
		check(&sp);
		rtapp_spec_free(&sp);
	} else if (strncmp(d.msg, "fuzz", 4) != 0) {
		fprintf(stderr, "failed without naming the input: '%s'\n", d.msg);
		abort();
	}
	return 0;
}
