// SPDX-License-Identifier: GPL-2.0-only
/* Text tables and wrapped lines that fit the terminal (texttable.h). */
#include "texttable.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int width_set = -1; /* -1: not set, 0: unlimited */

void text_width_set(int width)
{
	width_set = width <= 0 ? 0 : width < TEXT_WIDTH_MIN ? TEXT_WIDTH_MIN : width;
}

int text_width(void)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;

	if (width_set >= 0)
		return width_set;
	if (env && *env) {
		char *end;
		long n = strtol(env, &end, 10);

		if (*end == '\0' && n > 0 && n < 100000)
			return n < TEXT_WIDTH_MIN ? TEXT_WIDTH_MIN : (int)n;
	}
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col < TEXT_WIDTH_MIN ? TEXT_WIDTH_MIN : ws.ws_col;
	return TEXT_WIDTH_DEFAULT;
}

int text_cols(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static void pad(FILE *out, int n)
{
	while (n-- > 0)
		fputc(' ', out);
}

/* Columns of s[0..len). */
static int cols_n(const char *s, size_t len)
{
	int n = 0;

	for (size_t i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

void text_wrap(FILE *out, const char *first, const char *text, int indent)
{
	int w = text_width(), col = text_cols(first);
	const char *p = text;

	fputs(first, out);
	while (*p) {
		size_t len = strlen(p), cut = len, i, brk = 0, sp = 0;

		if (w > 0 && col + cols_n(p, len) > w) {
			/* The last ", " or "; " (else space) that keeps the line within w. */
			for (i = 1; i < len && col + cols_n(p, i) <= w; i++) {
				if (p[i] == ' ' && (p[i - 1] == ',' || p[i - 1] == ';'))
					brk = i;
				if (p[i] == ' ')
					sp = i;
			}
			/* ", " unless it leaves the line less than two thirds full. */
			cut = brk && 3 * (col + cols_n(p, brk)) >= 2 * w ? brk : sp ? sp : brk ? brk : len;
			/* A word longer than the line: alone on it, up to the next space. */
			if (cut == len && strchr(p + 1, ' '))
				cut = (size_t)(strchr(p + 1, ' ') - p);
		}
		fwrite(p, 1, cut, out);
		fputc('\n', out);
		p += cut;
		while (*p == ' ')
			p++;
		if (*p) {
			pad(out, indent);
			col = indent;
		}
	}
	if (!*text)
		fputc('\n', out);
}

struct text_table {
	int nlabels, indent, ncols, ncells, capcells;
	char **head, **unit, **cell;
	bool *group;   /* a group of columns starts here: blocks break there first */
	bool *numeric; /* label columns of numbers only are right-aligned */
	bool next_group;
};

struct text_table *ttab_new(int nlabels, int indent)
{
	struct text_table *t = calloc(1, sizeof(*t));

	if (t) {
		t->nlabels = nlabels;
		t->indent = indent;
	}
	return t;
}

int ttab_col(struct text_table *t, const char *head, const char *unit)
{
	char **h = realloc(t->head, (size_t)(t->ncols + 1) * sizeof(*h)), **u;
	bool *g;

	if (!h)
		return -1;
	t->head = h;
	g = realloc(t->group, (size_t)(t->ncols + 1) * sizeof(*g));
	if (!g)
		return -1;
	t->group = g;
	g[t->ncols] = t->next_group;
	t->next_group = false;
	u = realloc(t->unit, (size_t)(t->ncols + 1) * sizeof(*u));
	if (!u)
		return -1;
	t->unit = u;
	h[t->ncols] = strdup(head);
	u[t->ncols] = strdup(unit ? unit : "");
	if (!h[t->ncols] || !u[t->ncols]) {
		free(h[t->ncols]);
		free(u[t->ncols]);
		return -1;
	}
	t->ncols++;
	return 0;
}

void ttab_group(struct text_table *t)
{
	t->next_group = true;
}

int ttab_cell(struct text_table *t, const char *text)
{
	if (t->ncells == t->capcells) {
		int cap = t->capcells ? 2 * t->capcells : 64;
		char **c = realloc(t->cell, (size_t)cap * sizeof(*c));

		if (!c)
			return -1;
		t->cell = c;
		t->capcells = cap;
	}
	if (!(t->cell[t->ncells] = strdup(text)))
		return -1;
	t->ncells++;
	return 0;
}

int ttab_cellf(struct text_table *t, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return ttab_cell(t, buf);
}

static bool shown(const struct text_table *t, int c, int from, int to)
{
	return c < t->nlabels || (c >= from && c < to);
}

/* One line of the block: text[c] for every shown column, labels left-
 * aligned, figures right-aligned, two spaces apart, no trailing spaces. */
static void line(FILE *out, const struct text_table *t, const int *w, int from, int to,
		 const char *const *text)
{
	int c, pending = t->indent, first = 1, last = 0;

	for (c = 0; c < t->ncols; c++)
		if (shown(t, c, from, to))
			last = c;
	for (c = 0; c < t->ncols; c++) {
		const char *s = text[c];
		int n = text_cols(s);

		if (!shown(t, c, from, to))
			continue;
		pending += first ? 0 : 2;
		first = 0;
		if (c < t->nlabels && !t->numeric[c]) {
			if (n) {
				pad(out, pending);
				fputs(s, out);
				pending = 0;
			}
			pending += w[c] - n;
		} else if (n) {
			size_t len = strlen(s);

			pad(out, pending + w[c] - n);
			/* The last column leaves no trailing spaces (a '~' mark's room). */
			while (last == c && len > 0 && s[len - 1] == ' ')
				len--;
			fwrite(s, 1, len, out);
			pending = 0;
		} else {
			pending += w[c];
		}
	}
	fputc('\n', out);
}

/* Columns [from, to) after the labels: headings, a rule, rows. */
static int block(FILE *out, const struct text_table *t, const int *w, int from, int to)
{
	int nrows = t->ncols ? (t->ncells + t->ncols - 1) / t->ncols : 0, r, c, total = 0;
	const char **text = calloc((size_t)t->ncols + 1, sizeof(*text));
	bool units = false;

	if (!text)
		return -1;
	for (c = 0; c < t->ncols; c++)
		if (shown(t, c, from, to)) {
			units |= t->unit[c][0] != '\0';
			total += (total ? 2 : 0) + w[c];
		}
	/* Two heading lines when a column has a unit: label headings on the second. */
	for (c = 0; c < t->ncols; c++)
		text[c] = units && c < t->nlabels ? "" : t->head[c];
	line(out, t, w, from, to, text);
	if (units) {
		for (c = 0; c < t->ncols; c++)
			text[c] = c < t->nlabels ? t->head[c] : t->unit[c];
		line(out, t, w, from, to, text);
	}
	pad(out, t->indent);
	for (c = 0; c < total; c++)
		fputc('-', out);
	fputc('\n', out);
	for (r = 0; r < nrows; r++) {
		for (c = 0; c < t->ncols; c++) {
			int k = r * t->ncols + c;

			text[c] = k < t->ncells ? t->cell[k] : "";
		}
		line(out, t, w, from, to, text);
	}
	free(text);
	return 0;
}

int ttab_write_at(FILE *out, struct text_table *t, int width)
{
	int *w = calloc((size_t)t->ncols + 1, sizeof(*w)), c, lw = t->indent, from;

	if (!w)
		return -1;
	for (c = 0; c < t->ncols; c++) {
		w[c] = text_cols(t->head[c]);
		if (text_cols(t->unit[c]) > w[c])
			w[c] = text_cols(t->unit[c]);
	}
	for (int k = 0; k < t->ncells; k++)
		if (text_cols(t->cell[k]) > w[k % t->ncols])
			w[k % t->ncols] = text_cols(t->cell[k]);
	free(t->numeric);
	if (!(t->numeric = calloc((size_t)t->ncols + 1, sizeof(bool)))) {
		free(w);
		return -1;
	}
	for (c = 0; c < t->nlabels && c < t->ncols; c++) {
		t->numeric[c] = true;
		for (int k = c; k < t->ncells; k += t->ncols)
			t->numeric[c] &= strspn(t->cell[k], "0123456789-") == strlen(t->cell[k]);
	}
	for (c = 0; c < t->nlabels && c < t->ncols; c++)
		lw += w[c] + (c ? 2 : 0);
	/* Greedy blocks: as many columns as fit after the labels, at least one. */
	for (from = t->nlabels; from < t->ncols || (from == t->nlabels && t->ncols == t->nlabels);) {
		int to = from, used = lw;

		while (to < t->ncols && (to == from || width <= 0 ||
					 used + (used > t->indent ? 2 : 0) + w[to] <= width)) {
			/* A group that does not fit whole starts the next block. */
			if (to > from && width > 0 && t->group[to]) {
				int end = to + 1, need = used;

				while (end < t->ncols && !t->group[end])
					end++;
				for (c = to; c < end; c++)
					need += 2 + w[c];
				if (need > width)
					break;
			}
			used += (used > t->indent ? 2 : 0) + w[to];
			to++;
		}
		if (from > t->nlabels)
			fputc('\n', out);
		if (block(out, t, w, from, to) < 0) {
			free(w);
			return -1;
		}
		if (to == from)
			break;
		from = to;
	}
	free(w);
	return ferror(out) ? -1 : 0;
}

int ttab_write(FILE *out, struct text_table *t)
{
	return ttab_write_at(out, t, text_width());
}

void ttab_free(struct text_table *t)
{
	if (!t)
		return;
	for (int c = 0; c < t->ncols; c++) {
		free(t->head[c]);
		free(t->unit[c]);
	}
	for (int k = 0; k < t->ncells; k++)
		free(t->cell[k]);
	free(t->head);
	free(t->unit);
	free(t->group);
	free(t->numeric);
	free(t->cell);
	free(t);
}
