// SPDX-License-Identifier: GPL-2.0-only
/* The rows of a sweep, from its own runs or read back from shard files,
 * and their one output form: pmlab sweep and pmlab merge both write
 * through here, which is what makes merging shards byte-identical to the
 * unsharded run.
 *
 * CSV: a row is its named cells ("point", "vary_KEY"..., then the sim CSV
 * columns). Rows are written in point order under the union of their
 * columns, in order of first appearance; a cell a row lacks is empty. An
 * empty cell read back is a cell the row lacks (the sim CSV writer never
 * writes an empty field), so the union is rebuilt exactly from shards.
 * JSON: an object {"schema": "pmlab-sweep", "version": 2, "inputs",
 * "points"}, points an array of objects {"point", "vary", "result"} in
 * point order, with two-space indents.
 *
 * Inputs (metrics/inputs.h): CSV "# KEY: VALUE" lines before the header,
 * the JSON "inputs" object. A shard's carry "shard" (I/N) besides those of
 * the whole sweep; merge checks that every file's are the same but for
 * it, and writes them without it. Files of version 1 (a JSON array, a CSV
 * without "#" lines) merge as before, into version 1. */
#ifndef PMLAB_SWEEP_OUT_H
#define PMLAB_SWEEP_OUT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "../core/diag.h"

struct run_inputs;

enum sweep_format { SWEEP_CSV, SWEEP_JSON };

struct sweep_row {
	long point;
	int ncells;
	char **name, **value; /* CSV cells, owned */
	json_t *obj;          /* JSON element, owned */
	int file;             /* read: index in files[], -1 for a run's own row */
	long line;            /* read: where the row starts in it */
};

/* A shard's rows carry the identity of their sweep ("sweep" cell or key,
 * written by pmlab sweep --shard): merge joins only rows of one sweep and
 * leaves the identity out of what it writes. */
#define SWEEP_OUT_ID_MAX 48

struct sweep_out {
	enum sweep_format format;
	bool format_known;    /* merge: set by the first non-empty file */
	int n, cap;
	struct sweep_row *row;
	int nfiles;
	char **files;         /* the files read, for messages */
	bool id_known;        /* set by the first file with rows */
	char id[SWEEP_OUT_ID_MAX]; /* their sweep ("" none: not shards) */
	const struct run_inputs *in; /* a sweep's own rows: its inputs, or NULL */
	/* merge: the first file's inputs, without "shard": its "#" lines
	 * (CSV) or its object (JSON); neither for version 1 */
	bool inputs_known;
	int version;          /* merge: the files' (1 or 2), once inputs_known */
	int inputs_file;
	char *inputs_csv;
	json_t *inputs_json;
};

/* A CSV row: the point's cells, then every column of the CSV text (a
 * header line and one row, as the sim CSV writer prints them). Empty
 * cells are left out. -1 with the reason in d. */
int sweep_out_add_csv(struct sweep_out *o, long point, int ncells, const char *const *names,
		      const char *const *values, const char *csv, size_t len, struct pm_diag *d);
/* A JSON row; takes the reference to obj. */
int sweep_out_add_json(struct sweep_out *o, long point, json_t *obj, struct pm_diag *d);
/* Reads a file written by sweep_out_write or by a shard (merge): every
 * file's rows of one sweep; no NUL bytes. -1 with "FILE:LINE: why" in d. */
int sweep_out_read(struct sweep_out *o, const char *path, struct pm_diag *d);
/* Writes the rows in point order. A point seen twice is an error naming
 * both places; with complete, so is a gap in 0..max (a shard left out of
 * a merge). */
int sweep_out_write(FILE *out, struct sweep_out *o, bool complete, struct pm_diag *d);
void sweep_out_free(struct sweep_out *o);

/* pmlab sweep's rows written as they come, in point order, so that no
 * row stays in memory: a JSON row goes out at once; a CSV row waits in a
 * temporary file until the union of the columns is known (the header
 * comes first). The bytes are those sweep_out_write() gives for the same
 * rows. */
struct sweep_stream {
	FILE *out;
	const struct run_inputs *in;
	enum sweep_format format;
	long n;
	FILE *spill;          /* CSV: each row's cells, until the end */
	struct sweep_columns *cols;
};

/* Writes the inputs in (may be NULL: none) at once: CSV "#" lines, the
 * JSON object's start. */
int sweep_stream_start(struct sweep_stream *st, FILE *out, enum sweep_format format,
		       const struct run_inputs *in, struct pm_diag *d);
/* As sweep_out_add_csv / sweep_out_add_json, rows in point order. */
int sweep_stream_csv(struct sweep_stream *st, long point, int ncells, const char *const *names,
		     const char *const *values, const char *csv, size_t len, struct pm_diag *d);
int sweep_stream_json(struct sweep_stream *st, json_t *obj, struct pm_diag *d);
/* The CSV header and rows, or the JSON array's end. */
int sweep_stream_end(struct sweep_stream *st, struct pm_diag *d);
void sweep_stream_free(struct sweep_stream *st);

#endif
