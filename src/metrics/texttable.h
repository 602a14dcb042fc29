// SPDX-License-Identifier: GPL-2.0-only
/* Text tables that fit the width they are given: columns right-aligned to
 * the widest of their heading and cells, two spaces apart, one rule under
 * the headings; when the columns do not fit, they go on in further blocks
 * that repeat the label columns (as a wide turbostat or sar report would
 * be cut by hand). The width is the terminal's, or 100 columns in a pipe,
 * or unlimited with --wide. */
#ifndef PMLAB_TEXTTABLE_H
#define PMLAB_TEXTTABLE_H

#include <stdbool.h>
#include <stdio.h>

#define TEXT_WIDTH_DEFAULT 100 /* output that is not a terminal's */
#define TEXT_WIDTH_MIN 40

/* The width every table and wrapped line fits: set by text_width_set(),
 * else $COLUMNS (as ls reads it), else the terminal's on standard output,
 * else TEXT_WIDTH_DEFAULT. 0 means unlimited (--wide). */
int text_width(void);
/* 0: unlimited (--wide); otherwise at least TEXT_WIDTH_MIN. */
void text_width_set(int width);
/* Columns a UTF-8 string takes on a terminal ("±" is one). */
int text_cols(const char *s);

/* Prints `text` after `first` (printed as is) wrapped at ", " and "; "
 * boundaries (else at spaces) to the width, continuation lines indented
 * by `indent` spaces; ends with a newline. */
void text_wrap(FILE *out, const char *first, const char *text, int indent);

struct text_table;

/* A table whose first `nlabels` columns are left-aligned labels, repeated
 * in every block; `indent` leads each line. NULL on OOM. */
struct text_table *ttab_new(int nlabels, int indent);
/* A column: its heading and an optional second heading line (a unit,
 * "(W)"; NULL or "" for none). Columns are added before cells. -1 on OOM. */
int ttab_col(struct text_table *t, const char *head, const char *unit);
/* The next column starts a group: a block breaks before a group that
 * does not fit whole. */
void ttab_group(struct text_table *t);
/* The next cell, row by row, left to right. -1 on OOM. */
int ttab_cell(struct text_table *t, const char *text);
/* printf-style ttab_cell. */
int ttab_cellf(struct text_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Writes the table at text_width(). -1 on a write error or OOM. */
int ttab_write(FILE *out, struct text_table *t);
/* ... at a given width, 0 for unlimited. */
int ttab_write_at(FILE *out, struct text_table *t, int width);
void ttab_free(struct text_table *t);

#endif
