// SPDX-License-Identifier: GPL-2.0-only
/* The handles behind include/pmlab/pmlab.h and what the files of src/lib
 * share: errors from a pm_diag, owned string lists, results as text. */
#ifndef PMLAB_LIB_H
#define PMLAB_LIB_H

#include <stdbool.h>
#include <stddef.h>

#include "../../include/pmlab/pmlab.h"
#include "../core/diag.h"
#include "../machine/machine.h"
#include "../plugin/loader.h"

/* A list of owned strings. */
struct lib_strings {
	int n;
	char **s;
};

struct pmlab_lab {
	int ndirs;
	char **dirs;                 /* profile directories, searched first */
	struct plugin_set plugins;   /* the governors of the plugins loaded */
	bool isolate;                /* runs with plugins go to a worker process */
	/* For the inputs of results (metrics/inputs.h): the files loaded one
	 * by one (pmlab sim --plugin), the lists given (PMLAB_PLUGIN_PATH,
	 * joined by ':') and the files they loaded. */
	struct lib_strings given, listed;
	char *plugin_path;
};

struct pmlab_machine {
	struct machine m;
	char *source; /* the preset name or file it was loaded from; NULL: parsed text */
};


/* -1 on OOM. */
int lib_strings_add(struct lib_strings *l, const char *s);
void lib_strings_free(struct lib_strings *l);
/* *slot = a copy of s (NULL: NULL); -1 on OOM (the slot unchanged). */
int lib_strdup_into(char **slot, const char *s);

/* Fills err (may be NULL) and returns code. */
pmlab_status lib_fail(pmlab_error *err, pmlab_status code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* lib_fail with d's message. */
pmlab_status lib_fail_diag(pmlab_error *err, pmlab_status code, const struct pm_diag *d);
/* Clears err and returns PMLAB_OK. */
pmlab_status lib_ok(pmlab_error *err);

/* A result: each format's text (NULL where there is none) and the JSON
 * form parsed on the first pmlab_result_number(). */
struct pmlab_result {
	char *text[PMLAB_HTML + 1];
	void *json; /* json_t *, parsed lazily */
};

/* A result with no text yet; NULL on OOM. */
struct pmlab_result *lib_result_new(void);
/* What write(out, ctx) writes, as the text of format f. -1 if write
 * fails (d says why) or on OOM. */
int lib_result_capture(struct pmlab_result *res, pmlab_format f,
		       int (*write)(void *ctx, FILE *out, struct pm_diag *d), void *ctx,
		       struct pm_diag *d);

#endif
