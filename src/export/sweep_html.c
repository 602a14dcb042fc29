// SPDX-License-Identifier: GPL-2.0-only
/* A sweep as one self-contained HTML page: every point's varied values and
 * headline figures in a table, and power against throughput with the
 * Pareto front -- the point of a sweep is usually to find that front. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "sweep_html.h"

/* The figures shown beside the varied values (sim CSV column names). */
static const char *const shown[] = {
	"throughput", "throughput_unit", "latency_p99_ms", "power_w", "package_power_w",
	"avg_mhz", "busy_pct",
};
#define NSHOWN ((int)(sizeof(shown) / sizeof(shown[0])))

static const char *cell(const struct sweep_row *r, const char *name)
{
	for (int i = 0; i < r->ncells; i++)
		if (strcmp(r->name[i], name) == 0)
			return r->value[i];
	return "";
}

static int by_point(const void *a, const void *b)
{
	const struct sweep_row *x = a, *y = b;
	return (x->point > y->point) - (x->point < y->point);
}

int sweep_out_write_html(FILE *out, struct sweep_out *o, const char *title, struct pm_diag *d)
{
	qsort(o->row, (size_t)o->n, sizeof(o->row[0]), by_point);
	/* The varied keys, as the first row names them. */
	int nvary = 0;
	const char *vary[64];
	for (int i = 0; o->n && i < o->row[0].ncells && nvary < 64; i++)
		if (strncmp(o->row[0].name[i], "vary_", 5) == 0)
			vary[nvary++] = o->row[0].name[i];
	int ncols = 1 + nvary + NSHOWN;
	const char **head = calloc((size_t)ncols, sizeof(*head));
	const char **cells = calloc((size_t)(ncols * (o->n ? o->n : 1)), sizeof(*cells));
	char **labels = calloc((size_t)(o->n ? o->n : 1), sizeof(*labels));
	struct html_point *pts = calloc((size_t)(o->n ? o->n : 1), sizeof(*pts));
	if (!head || !cells || !labels || !pts) {
		free(head);
		free(cells);
		free(labels);
		free(pts);
		return pm_fail(d, "out of memory");
	}
	head[0] = "point";
	for (int v = 0; v < nvary; v++)
		head[1 + v] = vary[v] + 5;
	for (int k = 0; k < NSHOWN; k++)
		head[1 + nvary + k] = shown[k];
	int rc = 0;
	for (int r = 0; r < o->n && rc == 0; r++) {
		const struct sweep_row *row = &o->row[r];
		const char **line = &cells[r * ncols];
		line[0] = cell(row, "point");
		size_t len = 32;
		for (int v = 0; v < nvary; v++) {
			line[1 + v] = cell(row, vary[v]);
			len += strlen(vary[v]) + strlen(line[1 + v]) + 4;
		}
		for (int k = 0; k < NSHOWN; k++)
			line[1 + nvary + k] = cell(row, shown[k]);
		labels[r] = malloc(len);
		if (!labels[r]) {
			rc = pm_fail(d, "out of memory");
			break;
		}
		int used = snprintf(labels[r], len, "%ld", row->point);
		for (int v = 0; v < nvary; v++)
			used += snprintf(labels[r] + used, len - (size_t)used, "%s%s=%s", v ? ", " : ": ",
					 vary[v] + 5, line[1 + v]);
		pts[r] = (struct html_point){ labels[r], atof(cell(row, "power_w")),
					      atof(cell(row, "throughput")) };
	}
	struct html *h = rc == 0 ? html_begin(out, title) : NULL;
	if (rc == 0 && !h)
		rc = pm_fail(d, "out of memory");
	if (h) {
		html_heading(h, title);
		html_text(h, "One row per point; the chart shows each point's power against its "
			     "throughput and joins the points no other point beats on both (the "
			     "Pareto front).");
		if (o->in)
			html_inputs(h, o->in);
		char ylabel[96];
		snprintf(ylabel, sizeof(ylabel), "throughput (%s)",
			 o->n ? cell(&o->row[0], "throughput_unit") : "");
		html_scatter(h, "Power against throughput", "power (W)", ylabel, o->n, pts, true);
		html_table(h, "Points", ncols, head, o->n, cells);
		if (html_end(h) < 0)
			rc = pm_fail(d, "cannot write the page");
	}
	for (int r = 0; r < o->n; r++)
		free(labels[r]);
	free(labels);
	free(pts);
	free(head);
	free(cells);
	return rc;
}
