// SPDX-License-Identifier: GPL-2.0-only
/* A recorded trace turned into what the replay workload plays back: per
 * task, a sequence of CPU bursts and waits, each wait ended the way the
 * trace says it really ended -- by another task (a dependency: the waker's
 * own sequence says when, right after the burst during which it woke the
 * waiter), by a timer (a sleep of the recorded length) or by something
 * outside the tasks (an interrupt: at the recorded time).
 *
 * Built once from a trace file and read-only afterwards, so one model can
 * drive any number of runs, in any number of processes. */
#ifndef PMLAB_REPLAY_MODEL_H
#define PMLAB_REPLAY_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/diag.h"
#include "../sched/task.h"
#include "trace_event.h"

enum replay_seg_kind {
	SEG_RUN,   /* a CPU burst */
	SEG_BLOCK, /* wait until block `ref` is released (by a SEG_WAKE or at an external time) */
	SEG_SLEEP, /* a timer sleep of `ns` */
	SEG_WAKE,  /* release block `ref` (another task's wait) */
	SEG_FORK,  /* start task `ref` */
};

struct replay_seg {
	uint8_t kind;
	bool iowait;     /* SEG_BLOCK: the task slept in D state */
	uint32_t ref;
	double cycles;   /* SEG_RUN: cycles of the part run at a recorded frequency */
	int64_t ns;      /* SEG_RUN: traced CPU time; SEG_SLEEP: the sleep */
	int64_t ns_unknown; /* SEG_RUN: part of ns at an unrecorded frequency */
};

/* A task that existed before the trace starts at 0: when the trace shows
 * it first later, its first segment is a wait ended then. */
enum replay_start {
	RS_AT,      /* starts at `start` */
	RS_FORK,    /* a SEG_FORK of its parent starts it */
};

struct replay_task {
	int pid;
	int prio;            /* kernel prio: 100..139 CFS, < 100 real-time; -1 unknown */
	char name[TASK_NAME_MAX]; /* "comm-pid" */
	enum replay_start start_kind;
	int64_t start;       /* RS_AT: ns after the trace's first event */
	uint32_t nsegs, cap;
	struct replay_seg *segs;
	int64_t busy_ns;     /* CPU time in the trace */
	uint32_t nbursts;
	bool exited;         /* the trace shows it exit */
};

struct replay_block {
	uint32_t task, seg;
};

struct replay_external {
	int64_t at; /* ns after the trace's first event */
	uint32_t block;
};

struct replay_model {
	char *path;
	struct trace_info info;
	int ncpus;          /* highest CPU the events name, + 1 */
	long cpu_where;     /* line/record where that CPU first appears */
	int64_t t0, t_end;  /* first and last event, ns as recorded */
	uint32_t ntasks;
	struct replay_task *tasks;
	uint32_t nblocks;
	struct replay_block *blocks;
	uint32_t nexternal;
	struct replay_external *external;
	bool freq_events;   /* cpu_frequency events gave the frequencies */
	/* How the waits ended, and what had to be guessed. */
	uint64_t switches, dependencies, timer_sleeps, external_wakes, inferred_switches;
};

/* Reads the trace at path (trace.dat or ftrace text) into m. -1 with d
 * naming the file and line/record: unreadable, not a trace, no
 * sched_switch events. */
int replay_model_load(struct replay_model *m, const char *path, struct pm_diag *d);
/* The same, every event passed through filter() first, which may rewrite
 * it or, returning nonzero, drop it (replay_keep.c: only some processes). */
int replay_model_load_filtered(struct replay_model *m, const char *path,
			       int (*filter)(void *ctx, struct trace_event *ev), void *ctx,
			       struct pm_diag *d);
/* The same from ftrace text in memory (tests, benchmarks); name is for messages. */
int replay_model_load_text(struct replay_model *m, const char *text, size_t len,
			   const char *name, struct pm_diag *d);
void replay_model_free(struct replay_model *m);

/* "PATH:LINE" or "PATH: record N" where the highest CPU first appears. */
void replay_model_cpu_where(const struct replay_model *m, char *buf, size_t size);
/* Cycles of a burst when the unrecorded frequency is capture_khz. */
static inline double replay_seg_cycles(const struct replay_seg *s, double capture_khz)
{
	return s->cycles + (double)s->ns_unknown * capture_khz / 1e6;
}

#endif
