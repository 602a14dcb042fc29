// SPDX-License-Identifier: GPL-2.0-only
/* Recording a scheduler trace of this machine through tracefs
 * (libtracefs): the sched, power and timer events a replay needs, while a
 * command runs or for a time, saved as a trace.dat. The tracing state it
 * changes -- which events are on, the buffer size, tracing_on -- is put
 * back afterwards, also after an error or a signal (SIGINT, SIGTERM,
 * SIGHUP, SIGQUIT). The ring buffer's previous contents are cleared. */
#ifndef PMLAB_RECORD_H
#define PMLAB_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/diag.h"
#include "../core/simtime.h"

struct record_config {
	const char *output;   /* the trace.dat */
	sim_ns duration;      /* 0: until the command ends (or a signal) */
	char *const *argv;    /* the command, NULL-terminated; NULL: none */
	int buffer_kb;        /* per-CPU ring buffer while recording; 0: 4096 */
	/* Only these processes and what they fork (set_event_pid with the
	 * event-fork option), and the idle task, whose records say when a CPU
	 * idles; with a command, pmlab itself, so that the command it forks is
	 * kept. A switch between a kept task and another is recorded with both.
	 * NULL: every process. */
	const int *pids;
	int npids;
};

struct record_result {
	int ncpus;
	double seconds;       /* how long tracing was on */
	uint64_t bytes;       /* size of the trace.dat */
	uint64_t lost;        /* events the ring buffer dropped (overrun) */
	int status;           /* the command's exit status; -1: no command; 128+N: killed by N */
	int signal;           /* the signal that stopped the recording, 0 none */
	bool exec_failed;     /* the command could not be started (errno in exec_errno) */
	int exec_errno;
	const char *tracing_dir;
};

/* 0 when a trace was written (even if the command failed or a signal
 * stopped the recording early); -1 with d filled otherwise. */
int record_run(const struct record_config *cfg, struct record_result *res, struct pm_diag *d);

#endif
