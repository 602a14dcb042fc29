// SPDX-License-Identifier: GPL-2.0-only
/* A result computed where a plugin's crash cannot take the caller: in a
 * forked worker process (lab/runner.c, plugin/guard.h) when the lab
 * isolates plugins and has some, else here. One job, one answer over the
 * runner's pipe: the status, then the texts of the forms asked for, or
 * the failure's message -- a failure is an answer, so that the caller
 * learns its kind. pmlab_run_exec and the trace-driven governors
 * (pmlab_idletrace_exec, pmlab_govtrace_exec) share it. */
#ifndef PMLAB_LIB_WORKER_H
#define PMLAB_LIB_WORKER_H

#include "lib.h"

/* A set of forms: LIB_FORM(PMLAB_CSV) | LIB_FORM(PMLAB_JSON). */
#define LIB_FORM(f) (1u << (f))

/* Computes res's texts of the forms in `forms`; on failure (-1), *code
 * says what kind and d why. */
typedef int (*lib_compute_fn)(const void *ctx, struct pmlab_result *res, unsigned forms,
			      pmlab_status *code, struct pm_diag *d);

/* Runs compute(ctx) into *out (a new result), in a worker when the lab
 * isolates plugins and has some. Failures: as compute says; a worker
 * that dies as PMLAB_ERR_PLUGIN with the crash the plugin guard saw
 * ("NAME: plugin FILE: ... crashed in OP"), else PMLAB_ERR_RUN. */
pmlab_status lib_compute(const pmlab_lab *lab, const char *name, lib_compute_fn compute,
			 const void *ctx, unsigned forms, pmlab_result **out, pmlab_error *err);

#endif
