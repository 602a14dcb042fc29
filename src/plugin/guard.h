// SPDX-License-Identifier: GPL-2.0-only
/* Plugin code is someone else's: pmlab marks, per thread, when it calls
 * into a plugin, so that what goes wrong there is reported as the
 * plugin's. Two kinds of failure:
 *  - a broken promise (a state index out of range, a failed init): the
 *    adapter records it with plugin_fault() and carries on with a safe
 *    choice; the run then fails with that message (runspec_run checks);
 *  - a crash (SIGSEGV, SIGFPE, ...): runs that use plugins go to a forked
 *    worker (lab/runner.c) whose handler, armed by plugin_guard_arm(),
 *    writes "plugin FILE: KIND 'NAME' crashed in OP (SIGNAL)" to a page
 *    shared with the parent before the worker dies of the signal; the
 *    parent reports that line instead of "worker killed by signal N". */
#ifndef PMLAB_PLUGIN_GUARD_H
#define PMLAB_PLUGIN_GUARD_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/diag.h"

/* A plugin's governor, as messages name it. */
struct plugin_site {
	const char *path; /* the shared object, as given */
	const char *kind; /* "idle governor" */
	const char *name;
};

/* The plugin code this thread is running, if any. */
struct plugin_now {
	const struct plugin_site *site;
	const char *op; /* "select" */
	char fault[PM_DIAG_MAX]; /* the first broken promise of the run; "" if none */
	/* Called with stop_ctx when a fault is recorded: stops the run at its
	 * next event (plugin_stop_on_fault); NULL: none. */
	void (*stop)(void *ctx);
	void *stop_ctx;
};
extern _Thread_local struct plugin_now plugin_now;

static inline void plugin_enter(const struct plugin_site *s, const char *op)
{
	plugin_now.site = s;
	plugin_now.op = op;
}

static inline void plugin_leave(void)
{
	plugin_now.site = NULL;
}

/* Records a broken promise of site's (the first one counts), and stops
 * the run it happened in. */
void plugin_fault(const struct plugin_site *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Takes the recorded fault: -1 with it in d, else 0. Clears it. */
int plugin_fault_take(struct pm_diag *d);
/* Whether a fault is recorded (a loop over a trace stops there). */
static inline bool plugin_faulted(void)
{
	return plugin_now.fault[0] != '\0';
}
/* While a run goes on in this thread: how a fault stops it (NULL: it
 * cannot be stopped, it fails at its end). */
static inline void plugin_stop_on_fault(void (*stop)(void *ctx), void *ctx)
{
	plugin_now.stop = stop;
	plugin_now.stop_ctx = ctx;
}

/* A page shared with the worker processes forked after it. */
struct plugin_guard;
struct plugin_guard *plugin_guard_new(void);
void plugin_guard_free(struct plugin_guard *g);
/* In a worker process: a crash inside plugin code is written to g. */
void plugin_guard_arm(void *g);
/* What a worker wrote; "" if nothing. The same for lab/runner.h's
 * death_note(). */
const char *plugin_guard_report(const struct plugin_guard *g);
const char *plugin_guard_note(void *g);

#endif
