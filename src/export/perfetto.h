// SPDX-License-Identifier: GPL-2.0-only
/* A simulated run as a Chrome trace-event JSON timeline that
 * ui.perfetto.dev (and chrome://tracing) opens: one track per CPU with a
 * slice per task run, per idle period (named by its C-state) and per
 * idle exit; counters of each CPU's frequency, each core's power and each
 * package's uncore power; names for every process and track.
 *
 * It is an engine observer: events go to the file as the run reports
 * them, so its memory is a few words per CPU whatever the run's length. */
#ifndef PMLAB_PERFETTO_H
#define PMLAB_PERFETTO_H

#include "../core/diag.h"
#include "../core/simtime.h"
#include "../engine/sim.h"
#include "../machine/machine.h"
#include "export_filter.h"

/* The pseudo-processes of the timeline, in the order the UI shows them. */
enum {
	PERFETTO_PID_CPUS = 1,  /* tid 100 + cpu: what each CPU does */
	PERFETTO_PID_FREQ = 2,  /* counters "cpuN freq" {"MHz"} */
	PERFETTO_PID_POWER = 3, /* counters "coreN power" and "pkgN uncore" {"W"} */
};
#define PERFETTO_CPU_TID(cpu) (100 + (cpu))

struct perfetto;

/* Creates path and writes the metadata of machine m (its online CPUs).
 * `title` (e.g. the workload and policy) goes to otherData. filter (NULL:
 * everything) keeps a window -- slices clipped to it, each counter's value
 * at its start -- and some CPUs, with their cores' and packages' power.
 * NULL with d filled if the file cannot be created. */
struct perfetto *perfetto_open(const char *path, const struct machine *m, const char *title,
			       const struct export_filter *filter, struct pm_diag *d);
/* Bytes written so far (0 if the file cannot tell, as /dev/null). */
uint64_t perfetto_bytes(const struct perfetto *p);
/* The observer to put in sim_config.observer; valid until close. */
const struct sim_observer *perfetto_observer(struct perfetto *p);
/* Ends the slices still open at `end` (the run's duration), finishes the
 * JSON and closes the file. -1 with d filled on a write error. Frees p. */
int perfetto_close(struct perfetto *p, sim_ns end, struct pm_diag *d);
/* Closes and removes the file (the run failed). Frees p. */
void perfetto_discard(struct perfetto *p);

#endif
