// SPDX-License-Identifier: GPL-2.0-only
/* rt-app workload descriptions (scheduler-tools/rt-app, doc/tutorial.txt):
 * the JSON loader's output, a plain program the rtapp workload runs.
 *
 * The loader takes what the simulator can reproduce and refuses the rest
 * by name: every key it does not know, and the rt-app keys whose effect
 * it cannot model (real-time and deadline policies, taskgroups, NUMA
 * binding, the mem, suspend and resume events). Keys that only steer
 * rt-app's logging or its process (logdir, log_basename, log_size, ftrace,
 * gnuplot, lock_pages, io_device, mem_buffer_size, pi_enabled) are
 * accepted and have no effect. */
#ifndef PMLAB_RTAPP_H
#define PMLAB_RTAPP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/diag.h"

/* Most task instances a description may start, forks included. */
#define RTAPP_MAX_TASKS 10000

enum rtapp_event_kind {
	RTAPP_RUN,     /* value us of work at the calibration CPU's base frequency */
	RTAPP_RUNTIME, /* value us of busy time whatever the frequency */
	RTAPP_SLEEP,   /* value us */
	RTAPP_TIMER,   /* res: timer; value: period, us */
	RTAPP_LOCK,    /* res: mutex */
	RTAPP_UNLOCK,  /* res: mutex */
	RTAPP_WAIT,    /* res: condition; mutex: released while waiting */
	RTAPP_SIGNAL,  /* res: condition, wakes its first waiter */
	RTAPP_BROAD,   /* res: condition, wakes all its waiters */
	RTAPP_BARRIER, /* res: barrier */
	RTAPP_FORK,    /* res: index of the thread to start one instance of */
	RTAPP_YIELD,
	RTAPP_IORUN,   /* value bytes written to the I/O device */
};

struct rtapp_event {
	enum rtapp_event_kind kind;
	int64_t value;
	int res;
	int mutex;
};

/* Scheduling settings a thread or phase object sets; -1 or NULL where it
 * leaves them as they are. */
struct rtapp_sched {
	int weight;             /* CFS load weight from policy and nice */
	int util_min, util_max; /* uclamp, 0..1024 */
	int *cpus;              /* affinity */
	int ncpus;
};

struct rtapp_phase {
	int64_t loop; /* runs of its events in a row; -1: forever */
	struct rtapp_event *events;
	int nevents;
	struct rtapp_sched sched;
};

struct rtapp_thread {
	char *name;
	int64_t instances; /* started at time 0 (+ delay); 0: only by fork */
	int64_t delay_us;
	int64_t loop;      /* runs of all its phases; -1: forever */
	struct rtapp_sched sched;
	struct rtapp_phase *phases;
	int nphases;
	bool forked;       /* some fork event starts it */
};

enum rtapp_resource_kind { RTAPP_MUTEX, RTAPP_COND, RTAPP_BARRIER_RES, RTAPP_TIMER_RES };

struct rtapp_resource {
	char *name;
	enum rtapp_resource_kind kind;
	bool unique;   /* timer named "unique...": one per task instance */
	bool absolute; /* timer in absolute mode */
	int users;     /* barrier: task instances that take part */
};

struct rtapp_spec {
	int64_t duration_s; /* <= 0: until every task has exited */
	bool cumulative_slack;
	struct rtapp_thread *threads;
	int nthreads;
	struct rtapp_resource *res;
	int nres;
};

/* Loads a description for a machine of `ncpus` CPUs. Errors name the file
 * (`where`) and, for JSON syntax, the line: "FILE:LINE: ...". */
int rtapp_load_file(struct rtapp_spec *spec, const char *path, int ncpus, struct pm_diag *d);
int rtapp_load_text(struct rtapp_spec *spec, const char *text, size_t len, const char *where,
		    int ncpus, struct pm_diag *d);
void rtapp_spec_free(struct rtapp_spec *spec);

#endif
