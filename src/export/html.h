// SPDX-License-Identifier: GPL-2.0-only
/* One self-contained HTML page: headings, text, tables and charts drawn as
 * inline SVG. Nothing is fetched -- no scripts, fonts or styles from the
 * network -- so the page opens anywhere, offline, as one file. Every
 * function writes at once (nothing is kept), in the order called.
 *
 * Charts carry classes a test can count: svg.chart[data-chart=KIND], and
 * inside, circle.point / polyline.pareto (scatter), rect.seg (stacked
 * bars), rect.bar (plain bars), circle.run / line.mean (spread). A small inline script marks
 * body[data-charts-drawn] with the number of charts the browser laid out
 * with a non-empty box. */
#ifndef PMLAB_HTML_H
#define PMLAB_HTML_H

#include <stdbool.h>
#include <stdio.h>

struct html;

/* Starts the page (head, style) on out. NULL on OOM. */
struct html *html_begin(FILE *out, const char *title);
/* The same, with `css` (may be NULL) appended to the page's style sheet. */
struct html *html_begin_styled(FILE *out, const char *title, const char *css);
/* Writes s HTML-escaped (& < > " ') to f: for callers that write their own
 * markup on the page's stream between these functions' output. */
void html_escape(FILE *f, const char *s);
void html_heading(struct html *h, const char *text);
void html_text(struct html *h, const char *text);
/* ncols headings and nrows rows of ncols cells, row-major; cells that
 * read as numbers are right-aligned. */
void html_table(struct html *h, const char *caption, int ncols, const char *const *head,
		int nrows, const char *const *cells);

struct html_point {
	const char *label;
	double x, y;
};
/* y against x, points labelled. With `pareto`, the points that no other
 * point beats on both axes -- lower x (e.g. power) and higher y (e.g.
 * throughput) -- are joined as the Pareto front. */
void html_scatter(struct html *h, const char *caption, const char *xlabel, const char *ylabel,
		  int n, const struct html_point *pts, bool pareto);
/* Horizontal bars, one per `bars` entry, each split into nseries parts
 * values[bar * nseries + s] (shares of the bar, drawn to 100 %), with a
 * legend of the series. */
void html_stacked(struct html *h, const char *caption, int nbars, const char *const *bars,
		  int nseries, const char *const *series, const double *values);
/* Horizontal bars, values[b] (>= 0) on a common axis from 0, in `unit`. */
void html_bars(struct html *h, const char *caption, const char *unit, int nbars,
	       const char *const *bars, const double *values);
/* Per group, counts[g] values (one per run) as dots on a common axis,
 * the group's mean as a tick: how much the runs spread. values holds the
 * groups one after the other. */
void html_spread(struct html *h, const char *caption, const char *unit, int ngroups,
		 const char *const *groups, const int *counts, const double *values);
/* Ends the page and frees h. -1 if anything could not be written. */
/* The inputs a result was made from (metrics/inputs.h): a paragraph with
 * the version, the machine's hash and the command that runs it again. */
struct run_inputs;
void html_inputs(struct html *h, const struct run_inputs *in);
int html_end(struct html *h);

/* The Pareto front of n points (lower x, higher y): front[i] is set for
 * the points on it. */
void html_pareto(int n, const struct html_point *pts, bool *front);

#endif
