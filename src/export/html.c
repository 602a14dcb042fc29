// SPDX-License-Identifier: GPL-2.0-only
/* The HTML page and its SVG charts. Axes get "nice" ticks (1, 2, 5 x
 * 10^k); numbers print without exponents (num(), tick()), which never depend on the locale
 * because the CLI never sets one. */
#include "html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../metrics/inputs.h"

struct html {
	FILE *out;
	int charts;
};

static const char *const palette[] = {
	"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
	"#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
};
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))

void html_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f);
		}
	}
}

/* A figure as a reader wants it: no exponent ("50000", not "5e+04"), four
 * significant digits below 10000, 0 for -0. */
static const char *num(char *buf, size_t size, double v)
{
	double a = fabs(v);

	if (!isfinite(v) || a < 1e-12)
		snprintf(buf, size, "0");
	else if (a >= 1e4)
		snprintf(buf, size, "%.0f", v);
	else if (a >= 1e-3)
		snprintf(buf, size, "%.4g", v);
	else
		snprintf(buf, size, "%.6f", v);
	return buf;
}

/* A tick: as many decimals as the step needs, never an exponent. */
static const char *tick(char *buf, size_t size, double v, double step)
{
	int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);

	if (fabs(v) < step * 1e-9)
		v = 0;
	snprintf(buf, size, "%.*f", dec > 9 ? 9 : dec, v);
	return buf;
}

/* Pixels a label of 12 px sans-serif takes at most: the check in a browser
 * (tests/e2e) holds the charts to it. */
#define CHAR_PX 7.5
#define LABEL_MAX_CHARS 36

static int text_px(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	if (n > LABEL_MAX_CHARS)
		n = LABEL_MAX_CHARS;
	return (int)ceil(n * CHAR_PX);
}

/* A label cut to LABEL_MAX_CHARS with an ellipsis; the full text is the
 * element's <title>. */
static void label(FILE *f, const char *s)
{
	int n = 0;
	const char *p = s;

	for (; *p; p++)
		n += ((unsigned char)*p & 0xc0) != 0x80;
	if (n <= LABEL_MAX_CHARS) {
		html_escape(f, s);
		return;
	}
	fputs("<title>", f);
	html_escape(f, s);
	fputs("</title>", f);
	n = 0;
	for (p = s; *p; p++) {
		if (((unsigned char)*p & 0xc0) != 0x80 && ++n > LABEL_MAX_CHARS - 1)
			break;
		fputc(*p, f);
	}
	fputs("\u2026", f);
}

/* The widest label of a list, in pixels, and at least `min`. */
static int labels_px(int n, const char *const *labels, int min)
{
	int w = min;

	for (int i = 0; i < n; i++)
		if (text_px(labels[i]) + 12 > w)
			w = text_px(labels[i]) + 12;
	return w;
}

struct html *html_begin(FILE *out, const char *title)
{
	return html_begin_styled(out, title, NULL);
}

struct html *html_begin_styled(FILE *out, const char *title, const char *css)
{
	struct html *h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->out = out;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", out);
	html_escape(out, title);
	fputs("</title>\n<style>\n"
	      "body{font-family:sans-serif;margin:2em;color:#222;max-width:72em}\n"
	      "table{border-collapse:collapse;margin:1em 0}\n"
	      "div.table{overflow-x:auto;max-width:100%}\n"
	      "code{white-space:pre-wrap;word-break:break-all}\n"
	      "th,td{border:1px solid #ccc;padding:.25em .6em}\n"
	      "th{background:#f3f3f3}\ntd.num{text-align:right;font-variant-numeric:tabular-nums}\n"
	      "caption,figcaption{font-weight:bold;text-align:left;margin:.5em 0}\n"
	      "svg.chart{display:block;font-size:12px}\n"
	      "svg .axis{stroke:#444}\nsvg .grid{stroke:#e5e5e5}\n"
	      "svg .pareto{fill:none;stroke:#e15759;stroke-width:2;stroke-dasharray:6 3}\n"
	      "svg .mean{stroke:#222;stroke-width:2}\n", out);
	if (css)
		fputs(css, out);
	fputs("</style>\n</head>\n<body>\n<h1>", out);
	html_escape(out, title);
	fputs("</h1>\n", out);
	return h;
}

void html_heading(struct html *h, const char *text)
{
	fputs("<h2>", h->out);
	html_escape(h->out, text);
	fputs("</h2>\n", h->out);
}

void html_text(struct html *h, const char *text)
{
	fputs("<p>", h->out);
	html_escape(h->out, text);
	fputs("</p>\n", h->out);
}

static bool numeric(const char *s)
{
	char *end;
	if (!s || !*s)
		return false;
	strtod(s, &end);
	return end != s && (*end == '\0' || *end == '%' || *end == ' ');
}

void html_table(struct html *h, const char *caption, int ncols, const char *const *head,
		int nrows, const char *const *cells)
{
	FILE *f = h->out;
	fputs("<div class=\"table\"><table>\n", f);
	if (caption) {
		fputs("<caption>", f);
		html_escape(f, caption);
		fputs("</caption>\n", f);
	}
	fputs("<tr>", f);
	for (int c = 0; c < ncols; c++) {
		fputs("<th>", f);
		html_escape(f, head[c]);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (int r = 0; r < nrows; r++) {
		fputs("<tr>", f);
		for (int c = 0; c < ncols; c++) {
			const char *v = cells[r * ncols + c];
			fputs(numeric(v) ? "<td class=\"num\">" : "<td>", f);
			html_escape(f, v);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n", f);
}

/* --- axes --- */

struct axis {
	double lo, hi, step;
	double p0, p1; /* pixels of lo and hi */
};

static double nice_step(double range)
{
	double raw = range / 5, mag = pow(10, floor(log10(raw))), n = raw / mag;
	return (n < 1.5 ? 1 : n < 3 ? 2 : n < 7 ? 5 : 10) * mag;
}

static void axis_fit(struct axis *a, double lo, double hi, bool from_zero, double p0, double p1)
{
	if (!isfinite(lo) || !isfinite(hi)) {
		lo = 0;
		hi = 1;
	}
	if (from_zero && lo > 0)
		lo = 0;
	if (hi - lo <= fabs(hi) * 1e-9) { /* one value: a range around it */
		double pad = hi != 0 ? fabs(hi) * 0.1 : 1;
		lo -= pad;
		hi += pad;
	}
	a->step = nice_step(hi - lo);
	a->lo = floor(lo / a->step) * a->step;
	a->hi = ceil(hi / a->step) * a->step;
	a->p0 = p0;
	a->p1 = p1;
}

static double axis_px(const struct axis *a, double v)
{
	return a->p0 + (v - a->lo) / (a->hi - a->lo) * (a->p1 - a->p0);
}

/* The widest tick label of an axis, in pixels. */
static int ticks_px(const struct axis *a)
{
	char b[48];
	int w = 0;

	for (double v = a->lo; v <= a->hi + a->step / 2; v += a->step)
		if (text_px(tick(b, sizeof(b), v, a->step)) > w)
			w = text_px(tick(b, sizeof(b), v, a->step));
	return w;
}

/* Moves a horizontal axis's right end in so that its last tick label,
 * centred on it, stays inside the chart. */
static void x_axis_room(struct axis *a, double right_edge)
{
	double need = ticks_px(a) / 2.0 + 4;

	if (right_edge - a->p1 < need)
		a->p1 = right_edge - need;
}

static void chart_open(struct html *h, const char *kind, const char *caption, int w, int hgt)
{
	fprintf(h->out, "<figure>\n<figcaption>");
	html_escape(h->out, caption);
	fprintf(h->out, "</figcaption>\n<svg class=\"chart\" data-chart=\"%s\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" xmlns=\"http://www.w3.org/2000/svg\">\n",
		kind, w, hgt, w, hgt);
	h->charts++;
}

static void chart_close(struct html *h)
{
	fputs("</svg>\n</figure>\n", h->out);
}

/* Ticks and grid of a horizontal (x) axis at y = base, lines up to top;
 * the labels' baseline `dy` below the axis. */
static void x_ticks_at(FILE *f, const struct axis *a, double base, double top, double dy)
{
	fprintf(f, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		a->p0, base, a->p1, base);
	char b[48];

	for (double v = a->lo; v <= a->hi + a->step / 2; v += a->step) {
		double x = axis_px(a, v);
		fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			x, top, x, base, x, base + dy, tick(b, sizeof(b), v, a->step));
	}
}

static void x_ticks(FILE *f, const struct axis *a, double base, double top)
{
	x_ticks_at(f, a, base, top, 15);
}

static void y_ticks(FILE *f, const struct axis *a, double left, double right)
{
	fprintf(f, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", left,
		a->p0, left, a->p1);
	char b[48];

	for (double v = a->lo; v <= a->hi + a->step / 2; v += a->step) {
		double y = axis_px(a, v);
		fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			left, y, right, y, left - 5, y + 4, tick(b, sizeof(b), v, a->step));
	}
}

/* --- scatter with the Pareto front --- */

void html_pareto(int n, const struct html_point *pts, bool *front)
{
	for (int i = 0; i < n; i++) {
		front[i] = true;
		for (int j = 0; j < n && front[i]; j++) {
			bool no_worse = pts[j].x <= pts[i].x && pts[j].y >= pts[i].y;
			bool better = pts[j].x < pts[i].x || pts[j].y > pts[i].y;
			if (j != i && no_worse && better)
				front[i] = false;
		}
	}
}

static int by_x(const void *a, const void *b)
{
	const struct html_point *p = *(const struct html_point *const *)a;
	const struct html_point *q = *(const struct html_point *const *)b;
	return (p->x > q->x) - (p->x < q->x);
}

/* A label's box, for placing the points' labels without overlaps. */
struct box {
	double x0, y0, x1, y1;
};

static bool overlaps(const struct box *a, const struct box *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

void html_scatter(struct html *h, const char *caption, const char *xlabel, const char *ylabel,
		  int n, const struct html_point *pts, bool pareto)
{
	enum { PLOT = 420, H = 400, T = 20, B = 50 };
	FILE *f = h->out;
	double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
	int L, R = 40, W;
	for (int i = 0; i < n; i++) {
		xlo = fmin(xlo, pts[i].x);
		xhi = fmax(xhi, pts[i].x);
		ylo = fmin(ylo, pts[i].y);
		yhi = fmax(yhi, pts[i].y);
		if (text_px(pts[i].label) + 12 > R)
			R = text_px(pts[i].label) + 12;
	}
	struct axis ax, ay;
	axis_fit(&ay, ylo, yhi, false, H - B, T);
	/* Room for the y tick labels and the rotated axis label left of them. */
	L = ticks_px(&ay) + 34;
	W = L + PLOT + R;
	axis_fit(&ax, xlo, xhi, false, L, L + PLOT);
	chart_open(h, "scatter", caption, W, H);
	/* Low enough to clear the y axis's lowest label at the corner. */
	x_ticks_at(f, &ax, H - B, T, 22);
	y_ticks(f, &ay, L, L + PLOT);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", L + PLOT / 2, H - 12);
	label(f, xlabel);
	fprintf(f, "</text>\n<text transform=\"translate(14 %d) rotate(-90)\" "
		"text-anchor=\"middle\">", (T + H - B) / 2);
	label(f, ylabel);
	fputs("</text>\n", f);
	bool *front = calloc((size_t)(n > 0 ? n : 1), sizeof(*front));
	const struct html_point **on = calloc((size_t)(n > 0 ? n : 1), sizeof(*on));
	struct box *placed = calloc((size_t)(n > 0 ? n : 1), sizeof(*placed));
	if (pareto && front && on) {
		html_pareto(n, pts, front);
		int k = 0;
		for (int i = 0; i < n; i++)
			if (front[i])
				on[k++] = &pts[i];
		qsort(on, (size_t)k, sizeof(*on), by_x);
		fputs("<polyline class=\"pareto\" points=\"", f);
		for (int i = 0; i < k; i++)
			fprintf(f, "%s%.1f,%.1f", i ? " " : "", axis_px(&ax, on[i]->x),
				axis_px(&ay, on[i]->y));
		fputs("\"><title>Pareto front: no other point has lower ", f);
		html_escape(f, xlabel);
		fputs(" and higher ", f);
		html_escape(f, ylabel);
		fputs("</title></polyline>\n", f);
	}
	for (int i = 0; i < n; i++) {
		double x = axis_px(&ax, pts[i].x), y = axis_px(&ay, pts[i].y), ly = y - 6;
		bool fr = pareto && front && front[i];
		char a[48], b[48];
		struct box bx;

		fprintf(f, "<circle class=\"point%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\">"
			"<title>", fr ? " front" : "", x, y, palette[(size_t)i % NPALETTE]);
		html_escape(f, pts[i].label);
		fprintf(f, ": %s, %s</title></circle>\n", num(a, sizeof(a), pts[i].x),
			num(b, sizeof(b), pts[i].y));
		/* Above right of the point, else the nearest free line below or
		 * above it: labels of close points never overlap. */
		for (int k = 0; placed && k < 2 * n + 2; k++) {
			double try = y - 6 + (k % 2 ? 1 : -1) * 15.0 * ((k + 1) / 2);
			bool free_line = try >= T + 12 && try <= H - B - 2;

			bx = (struct box){ x + 8, try - 12, x + 8 + text_px(pts[i].label), try + 3 };
			for (int j = 0; j < i && free_line; j++)
				free_line = !overlaps(&bx, &placed[j]);
			if (free_line) {
				ly = try;
				break;
			}
		}
		if (placed)
			placed[i] = (struct box){ x + 8, ly - 12, x + 8 + text_px(pts[i].label), ly + 3 };
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", x + 8, ly);
		label(f, pts[i].label);
		fputs("</text>\n", f);
	}
	free(front);
	free(on);
	free(placed);
	chart_close(h);
}

/* --- stacked bars --- */

void html_stacked(struct html *h, const char *caption, int nbars, const char *const *bars,
		  int nseries, const char *const *series, const double *values)
{
	enum { PLOT = 490, BAR = 22, GAP = 8, T = 10 };
	FILE *f = h->out;
	int LABEL = labels_px(nbars, bars, 150), W = LABEL + PLOT;
	int legend_rows = (nseries + 3) / 4;
	int hgt = T + nbars * (BAR + GAP) + 28 + legend_rows * 18 + 10;
	struct axis ax;
	axis_fit(&ax, 0, 100, true, LABEL, W - 20);
	x_axis_room(&ax, W);
	chart_open(h, "stacked", caption, W, hgt);
	int base = T + nbars * (BAR + GAP);
	x_ticks(f, &ax, base, T);
	for (int b = 0; b < nbars; b++) {
		double total = 0;
		for (int s = 0; s < nseries; s++)
			total += fmax(values[b * nseries + s], 0);
		int y = T + b * (BAR + GAP);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LABEL - 6, y + BAR / 2 + 4);
		label(f, bars[b]);
		fputs("</text>\n", f);
		double at = 0;
		for (int s = 0; s < nseries && total > 0; s++) {
			double share = fmax(values[b * nseries + s], 0) / total * 100;
			if (share <= 0)
				continue;
			double x0 = axis_px(&ax, at), x1 = axis_px(&ax, at + share);
			fprintf(f, "<rect class=\"seg\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" "
				"fill=\"%s\"><title>", x0, y, x1 - x0, BAR,
				palette[(size_t)s % NPALETTE]);
			html_escape(f, bars[b]);
			fputs(", ", f);
			html_escape(f, series[s]);
			char pct[48];
			fprintf(f, ": %s %%</title></rect>\n", num(pct, sizeof(pct), share));
			at += share;
		}
	}
	for (int s = 0; s < nseries; s++) {
		int x = LABEL + (s % 4) * 115, y = base + 34 + (s / 4) * 18;
		fprintf(f, "<rect class=\"legend\" x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" "
			"fill=\"%s\"/><text x=\"%d\" y=\"%d\">", x, y - 10, palette[(size_t)s % NPALETTE],
			x + 16, y);
		label(f, series[s]);
		fputs("</text>\n", f);
	}
	chart_close(h);
}

/* --- plain bars --- */

void html_bars(struct html *h, const char *caption, const char *unit, int nbars,
	       const char *const *bars, const double *values)
{
	enum { PLOT = 490, BAR = 22, GAP = 8, T = 10 };
	FILE *f = h->out;
	int LABEL = labels_px(nbars, bars, 150), W = LABEL + PLOT;
	int hgt = T + nbars * (BAR + GAP) + 40;
	double hi = 0;
	struct axis ax;
	char nb[48];
	for (int b = 0; b < nbars; b++)
		if (isfinite(values[b]) && values[b] > hi)
			hi = values[b];
	axis_fit(&ax, 0, hi, true, LABEL, W - 20);
	x_axis_room(&ax, W);
	chart_open(h, "bars", caption, W, hgt);
	int base = T + nbars * (BAR + GAP);
	x_ticks(f, &ax, base, T);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", (LABEL + W - 20) / 2,
		base + 32);
	html_escape(f, unit);
	fputs("</text>\n", f);
	for (int b = 0; b < nbars; b++) {
		int y = T + b * (BAR + GAP);
		double v = isfinite(values[b]) ? fmax(values[b], 0) : 0;
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LABEL - 6, y + BAR / 2 + 4);
		label(f, bars[b]);
		fputs("</text>\n", f);
		fprintf(f, "<rect class=\"bar\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" "
			"fill=\"%s\"><title>", axis_px(&ax, 0), y, axis_px(&ax, v) - axis_px(&ax, 0),
			BAR, palette[0]);
		html_escape(f, bars[b]);
		fprintf(f, ": %s ", num(nb, sizeof(nb), values[b]));
		html_escape(f, unit);
		fputs("</title></rect>\n", f);
	}
	chart_close(h);
}

/* --- spread of runs --- */

void html_spread(struct html *h, const char *caption, const char *unit, int ngroups,
		 const char *const *groups, const int *counts, const double *values)
{
	enum { PLOT = 490, ROW = 28, T = 10 };
	FILE *f = h->out;
	int LABEL = labels_px(ngroups, groups, 150), W = LABEL + PLOT;
	char nb[48];
	double lo = INFINITY, hi = -INFINITY;
	int total = 0;
	for (int g = 0; g < ngroups; g++)
		total += counts[g];
	for (int i = 0; i < total; i++) {
		lo = fmin(lo, values[i]);
		hi = fmax(hi, values[i]);
	}
	int hgt = T + ngroups * ROW + 45;
	struct axis ax;
	axis_fit(&ax, lo, hi, false, LABEL, W - 20);
	x_axis_room(&ax, W);
	chart_open(h, "spread", caption, W, hgt);
	int base = T + ngroups * ROW;
	x_ticks(f, &ax, base, T);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", (LABEL + W - 20) / 2,
		base + 34);
	html_escape(f, unit);
	fputs("</text>\n", f);
	const double *v = values;
	for (int g = 0; g < ngroups; g++) {
		int y = T + g * ROW + ROW / 2;
		double sum = 0;
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LABEL - 6, y + 4);
		label(f, groups[g]);
		fputs("</text>\n", f);
		for (int i = 0; i < counts[g]; i++) {
			sum += v[i];
			fprintf(f, "<circle class=\"run\" cx=\"%.1f\" cy=\"%d\" r=\"4\" fill=\"%s\" "
				"fill-opacity=\"0.7\"><title>run %d: %s</title></circle>\n",
				axis_px(&ax, v[i]), y, palette[(size_t)g % NPALETTE], i + 1,
				num(nb, sizeof(nb), v[i]));
		}
		if (counts[g] > 0) {
			double x = axis_px(&ax, sum / counts[g]);
			fprintf(f, "<line class=\"mean\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\">"
				"<title>mean %s</title></line>\n", x, y - 9, x, y + 9,
				num(nb, sizeof(nb), sum / counts[g]));
		}
		v += counts[g];
	}
	chart_close(h);
}

int html_end(struct html *h)
{
	FILE *f = h->out;
	/* Counts the charts the browser laid out: a check for headless tests,
	 * harmless for a reader. */
	fputs("<script>\nwindow.addEventListener('load', function () {\n"
	      "  var n = 0;\n"
	      "  document.querySelectorAll('svg.chart').forEach(function (s) {\n"
	      "    var b = s.getBBox();\n"
	      "    if (b.width > 0 && b.height > 0) n++;\n"
	      "  });\n"
	      "  document.body.setAttribute('data-charts-drawn', String(n));\n"
	      "});\n</script>\n</body>\n</html>\n", f);
	int rc = ferror(f) ? -1 : 0;
	free(h);
	return rc;
}

void html_inputs(struct html *h, const struct run_inputs *in)
{
	char *cmd = inputs_command(in), text[1024];

	inputs_describe(text, sizeof(text), in);
	fputs("<p class=\"inputs\">Inputs: ", h->out);
	html_escape(h->out, text);
	fputs("; to run it again: <code>", h->out);
	html_escape(h->out, cmd ? cmd : "");
	fputs("</code></p>\n", h->out);
	free(cmd);
}
