// SPDX-License-Identifier: GPL-2.0-only
#include "sweep_out.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../core/jsonpos.h"
#include "csvread.h"
#include "inputs.h"
#include "result.h"

#define JSON_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10))

static struct sweep_row *new_row(struct sweep_out *o, long point)
{
	if (o->n == o->cap) {
		int cap = o->cap ? 2 * o->cap : 64;
		struct sweep_row *grown = realloc(o->row, (size_t)cap * sizeof(*grown));

		if (!grown)
			return NULL;
		o->row = grown;
		o->cap = cap;
	}
	memset(&o->row[o->n], 0, sizeof(o->row[0]));
	o->row[o->n].point = point;
	o->row[o->n].file = -1;
	return &o->row[o->n++];
}

static int add_cell(struct sweep_row *r, const char *name, const char *value)
{
	char **nn, **vv;

	if (!*value)
		return 0;
	nn = realloc(r->name, (size_t)(r->ncells + 1) * sizeof(*nn));
	if (nn)
		r->name = nn;
	vv = realloc(r->value, (size_t)(r->ncells + 1) * sizeof(*vv));
	if (vv)
		r->value = vv;
	if (!nn || !vv)
		return -1;
	r->name[r->ncells] = strdup(name);
	r->value[r->ncells] = strdup(value);
	if (!r->name[r->ncells] || !r->value[r->ncells]) {
		free(r->name[r->ncells]);
		free(r->value[r->ncells]);
		return -1;
	}
	r->ncells++;
	return 0;
}

int sweep_out_add_csv(struct sweep_out *o, long point, int ncells, const char *const *names,
		      const char *const *values, const char *csv, size_t len, struct pm_diag *d)
{
	struct csv_record head = { 0 }, row = { 0 };
	struct sweep_row *r = new_row(o, point);
	size_t pos = 0;
	int i, rc = 0;

	if (!r)
		return pm_fail(d, "out of memory");
	for (i = 0; i < ncells && rc == 0; i++)
		rc = add_cell(r, names[i], values[i]);
	if (rc < 0)
		return pm_fail(d, "out of memory");
	if (csv_read_record(csv, len, &pos, &head) != 1 || csv_read_record(csv, len, &pos, &row) != 1 ||
	    head.n != row.n)
		rc = pm_fail(d, "point %ld: the run's CSV is malformed", point);
	for (i = 0; i < head.n && rc == 0; i++)
		if (add_cell(r, head.field[i], row.field[i]) < 0)
			rc = pm_fail(d, "out of memory");
	csv_record_free(&head);
	csv_record_free(&row);
	return rc;
}

int sweep_out_add_json(struct sweep_out *o, long point, json_t *obj, struct pm_diag *d)
{
	struct sweep_row *r = new_row(o, point);

	if (!r) {
		json_decref(obj);
		return pm_fail(d, "out of memory");
	}
	r->obj = obj;
	return 0;
}

static int parse_point(const char *s, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return errno || end == s || *end || *out < 0 ? -1 : 0;
}

/* A row's sweep identity ("" for none) against the first file's. */
static int same_sweep(struct sweep_out *o, int file, long line, const char *id, struct pm_diag *d)
{
	if (strlen(id) >= sizeof(o->id))
		return pm_fail(d, "%s:%ld: sweep '%.60s...' is not a sweep's identity (expected "
			       "HASH/N as pmlab sweep --shard writes it)", o->files[file], line, id);
	if (!o->id_known) {
		snprintf(o->id, sizeof(o->id), "%s", id);
		o->id_known = true;
		return 0;
	}
	if (strcmp(o->id, id) == 0)
		return 0;
	if (!*id || !o->id[0])
		return pm_fail(d, "%s:%ld: %s, the files before it %s (merge joins the shards of one "
			       "pmlab sweep --shard)", o->files[file], line,
			       *id ? "a shard" : "not a shard", o->id[0] ? "are shards" : "are not");
	return pm_fail(d, "%s:%ld: a shard of another sweep (sweep %s, the files before it %s: "
		       "the options, the --vary lists or N of --shard I/N differ)", o->files[file],
		       line, id, o->id);
}

/* A file's inputs (version 2: its "#" lines or its "inputs" object,
 * without "shard"; version 1: none) against the first file's: merge joins
 * the shards of one sweep made by one pmlab. Takes csv and json. */
static int same_inputs(struct sweep_out *o, int file, int version, char *csv, json_t *json,
		       struct pm_diag *d)
{
	const char *path = o->files[file];
	int rc = 0;

	if (!o->inputs_known) {
		o->inputs_known = true;
		o->version = version;
		o->inputs_file = file;
		o->inputs_csv = csv;
		o->inputs_json = json;
		return 0;
	}
	if (version != o->version)
		rc = pm_fail(d, "%s: the output of a pmlab sweep of version %d (%s), %s is of "
			     "version %d: merge joins the shards of one pmlab", path, version,
			     version == 1 ? "no inputs" : "with its inputs", o->files[o->inputs_file],
			     o->version);
	else if (csv && o->inputs_csv && strcmp(csv, o->inputs_csv) != 0) {
		/* the first line that differs, by its number */
		long line = 1;
		size_t k = 0;
		while (csv[k] && csv[k] == o->inputs_csv[k])
			line += csv[k++] == '\n';
		rc = pm_fail(d, "%s:%ld: the inputs differ from those of %s (another pmlab version, "
			     "other options or --vary lists?)", path, line, o->files[o->inputs_file]);
	} else if (json && o->inputs_json && !json_equal(json, o->inputs_json))
		rc = pm_fail(d, "%s: \"inputs\" differ from those of %s (another pmlab version, "
			     "other options or --vary lists?)", path, o->files[o->inputs_file]);
	free(csv);
	json_decref(json);
	return rc;
}

/* The "#" lines a CSV file starts with, without "# shard:", into *out
 * (malloc'd; NULL when there are none); *pos past them. -1 on OOM. */
static int csv_comments(const char *text, size_t len, size_t *pos, char **out)
{
	size_t n = 0;

	*out = NULL;
	while (*pos < len && text[*pos] == '#') {
		const char *nl = memchr(text + *pos, '\n', len - *pos);
		size_t k = nl ? (size_t)(nl - (text + *pos)) + 1 : len - *pos;

		if (!*out && !(*out = calloc(1, len + 1)))
			return -1;
		if (strncmp(text + *pos, "# shard: ", 9) != 0) {
			memcpy(*out + n, text + *pos, k);
			n += k;
		}
		*pos += k;
	}
	return 0;
}

/* The line of byte `at` of text. */
static long line_at(const char *text, size_t at)
{
	long line = 1;
	for (size_t i = 0; i < at; i++)
		line += text[i] == '\n';
	return line;
}

static int read_csv(struct sweep_out *o, int file, const char *text, size_t len,
		    struct pm_diag *d)
{
	const char *path = o->files[file];
	struct csv_record head = { 0 }, rec = { 0 };
	size_t pos = 0, counted = 0;
	long line = 1;
	int rc, i, pcol = -1, scol = -1;
	char *comments;

	if (csv_comments(text, len, &pos, &comments) < 0)
		return pm_fail(d, "out of memory");
	if (same_inputs(o, file, comments ? 2 : 1, comments, NULL, d) < 0)
		return -1;
	line = line_at(text, pos);
	counted = pos;
	rc = csv_read_record(text, len, &pos, &head);
	if (rc <= 0)
		return rc == 0 ? 0 : pm_fail(d, "%s:%ld: malformed CSV header", path, line);
	for (i = 0; i < head.n; i++) {
		if (strcmp(head.field[i], "point") == 0)
			pcol = i;
		if (strcmp(head.field[i], "sweep") == 0)
			scol = i;
	}
	if (pcol < 0) {
		csv_record_free(&head);
		return pm_fail(d, "%s:%ld: no 'point' column (expected the CSV of pmlab sweep)", path,
			       line);
	}
	rc = 0;
	while (rc == 0) {
		struct sweep_row *r = NULL;
		long point;
		int got;

		/* the record starts here: its line, counting quoted newlines too */
		for (; counted < pos; counted++)
			line += text[counted] == '\n';
		got = csv_read_record(text, len, &pos, &rec);
		if (got == 0)
			break;
		if (got < 0) {
			rc = pm_fail(d, "%s:%ld: malformed CSV record", path, line);
			break;
		}
		if (rec.n != head.n)
			rc = pm_fail(d, "%s:%ld: %d fields, the header has %d", path, line, rec.n,
				     head.n);
		else if (parse_point(rec.field[pcol], &point) < 0)
			rc = pm_fail(d, "%s:%ld: point '%s': expected a row number", path, line,
				     rec.field[pcol]);
		else if (same_sweep(o, file, line, scol >= 0 ? rec.field[scol] : "", d) < 0)
			rc = -1;
		else if (!(r = new_row(o, point)))
			rc = pm_fail(d, "out of memory");
		if (r) {
			r->file = file;
			r->line = line;
		}
		for (i = 0; i < rec.n && rc == 0; i++)
			if (i != scol && add_cell(r, head.field[i], rec.field[i]) < 0)
				rc = pm_fail(d, "out of memory");
		csv_record_free(&rec);
	}
	csv_record_free(&head);
	return rc;
}

/* Version 2's object: its inputs (without "shard") checked, its points
 * returned (borrowed); version 1's array is its points. NULL after the
 * message in d. */
static json_t *json_points(struct sweep_out *o, int file, json_t *root, struct pm_diag *d)
{
	const char *path = o->files[file];
	json_t *schema = json_object_get(root, "schema"), *version = json_object_get(root, "version");
	json_t *points = json_object_get(root, "points"), *in = json_object_get(root, "inputs");

	if (json_is_array(root))
		return same_inputs(o, file, 1, NULL, NULL, d) < 0 ? NULL : root;
	if (!json_is_object(root) || !json_is_string(schema) ||
	    strcmp(json_string_value(schema), "pmlab-sweep") != 0) {
		pm_fail(d, "%s:1: expected the JSON of pmlab sweep (an object with \"schema\": "
			"\"pmlab-sweep\")", path);
		return NULL;
	}
	if (!json_is_integer(version) || json_integer_value(version) != 2) {
		pm_fail(d, "%s:1: pmlab-sweep version %s: this pmlab reads versions 1 and 2", path,
			json_is_integer(version) ? "other than 2" : "missing");
		return NULL;
	}
	if (!json_is_array(points) || !(json_is_object(in) || json_is_null(in))) {
		pm_fail(d, "%s:1: expected \"inputs\" and a \"points\" array", path);
		return NULL;
	}
	in = json_is_object(in) ? json_deep_copy(in) : NULL;
	if (in)
		json_object_del(in, "shard"); /* merged output is the whole sweep's */
	return same_inputs(o, file, 2, NULL, in, d) < 0 ? NULL : points;
}

static int read_json(struct sweep_out *o, int file, const char *text, size_t len,
		     struct pm_diag *d)
{
	const char *path = o->files[file];
	json_error_t err;
	/* A key twice in one row would leave one of its values silently out. */
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err), *v, *points;
	struct json_pos pos;
	size_t i;
	int rc = 0;

	if (!root)
		return pm_fail(d, "%s:%d: %s at column %d (expected the JSON of pmlab sweep, each "
			       "key once per row)", path, err.line, err.text, err.column);
	json_pos_build(&pos, text, len, root);
	points = json_points(o, file, root, d);
	if (!points)
		rc = -1;
	json_array_foreach(points, i, v) {
		json_t *p = json_object_get(v, "point"), *id = json_object_get(v, "sweep");
		long line = json_pos_line(&pos, v);

		if (rc < 0)
			break;
		if (!json_is_integer(p) || json_integer_value(p) < 0)
			rc = pm_fail(d, "%s:%ld: element %zu: expected an object with a \"point\" number",
				     path, line, i);
		else if (id && !json_is_string(id))
			rc = pm_fail(d, "%s:%ld: element %zu: \"sweep\" is not a sweep's identity",
				     path, line, i);
		else if (same_sweep(o, file, line, id ? json_string_value(id) : "", d) == 0) {
			json_object_del(v, "sweep"); /* merged output is the whole sweep's */
			rc = sweep_out_add_json(o, (long)json_integer_value(p), json_incref(v), d);
			if (rc == 0) {
				o->row[o->n - 1].file = file;
				o->row[o->n - 1].line = line;
			}
		} else
			rc = -1;
	}
	json_pos_free(&pos);
	json_decref(root);
	return rc;
}

int sweep_out_read(struct sweep_out *o, const char *path, struct pm_diag *d)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	size_t len = 0, k, cap = 0;
	enum sweep_format fmt;
	int rc;

	if (!f)
		return pm_fail(d, "%s: %s", path, strerror(errno));
	do {
		if (cap - len < 65536) {
			char *grown = realloc(text, cap = cap ? 2 * cap : 65536);

			if (!grown) {
				free(text);
				fclose(f);
				return pm_fail(d, "out of memory");
			}
			text = grown;
		}
		k = fread(text + len, 1, cap - len, f);
		len += k;
	} while (k > 0);
	rc = ferror(f);
	fclose(f);
	if (rc) {
		free(text);
		return pm_fail(d, "%s: read error", path);
	}
	for (k = 0; k < len && strchr(" \t\r\n", text[k]); k++)
		;
	if (k == len) {
		/* An empty shard (more shards than points) has no rows. */
		free(text);
		return 0;
	}
	fmt = text[k] == '[' || text[k] == '{' ? SWEEP_JSON : SWEEP_CSV;
	if (o->format_known && fmt != o->format) {
		free(text);
		return pm_fail(d, "%s: %s, the files before it are %s", path,
			       fmt == SWEEP_JSON ? "JSON" : "CSV", o->format == SWEEP_JSON ? "JSON" : "CSV");
	}
	const char *nul = memchr(text, '\0', len);
	if (nul) {
		long line = line_at(text, (size_t)(nul - text));
		free(text);
		return pm_fail(d, "%s:%ld: a NUL byte (expected the CSV or JSON of pmlab sweep)", path,
			       line);
	}
	char **grown = realloc(o->files, (size_t)(o->nfiles + 1) * sizeof(*grown));
	if (!grown || !(grown[o->nfiles] = strdup(path))) {
		if (grown)
			o->files = grown;
		free(text);
		return pm_fail(d, "out of memory");
	}
	o->files = grown;
	int file = o->nfiles++;
	o->format = fmt;
	o->format_known = true;
	rc = fmt == SWEEP_JSON ? read_json(o, file, text, len, d) : read_csv(o, file, text, len, d);
	free(text);
	return rc;
}

static int by_point(const void *a, const void *b)
{
	long x = ((const struct sweep_row *)a)->point, y = ((const struct sweep_row *)b)->point;

	return (x > y) - (x < y);
}

/* Column names in order of first appearance. Rows of one sweep mostly
 * share their columns, so each name is first looked for where the
 * previous row had it. */
struct columns {
	int n, cap;
	char **name;
	bool own; /* names copied (a stream's rows are gone by the end) */
};

static int column_of(struct columns *c, const char *name, int hint)
{
	int i;

	if (hint >= 0 && hint < c->n && strcmp(c->name[hint], name) == 0)
		return hint;
	for (i = 0; i < c->n; i++)
		if (strcmp(c->name[i], name) == 0)
			return i;
	if (c->n == c->cap) {
		int cap = c->cap ? 2 * c->cap : 64;
		char **grown = realloc(c->name, (size_t)cap * sizeof(*grown));

		if (!grown)
			return -1;
		c->name = grown;
		c->cap = cap;
	}
	c->name[c->n] = c->own ? strdup(name) : (char *)name; /* else borrowed from the row */
	if (!c->name[c->n])
		return -1;
	return c->n++;
}

static void csv_header(FILE *out, const struct columns *c)
{
	for (int k = 0; k < c->n; k++) {
		if (k)
			fputc(',', out);
		result_csv_quote(out, c->name[k], strlen(c->name[k]));
	}
	if (c->n)
		fputc('\n', out);
}

/* One row under the columns c (which hold every name of the row). */
static void csv_row(FILE *out, struct columns *c, const char **cells, int ncells, char *const *name,
		    char *const *value)
{
	memset(cells, 0, (size_t)c->n * sizeof(*cells));
	for (int k = 0; k < ncells; k++)
		cells[column_of(c, name[k], k)] = value[k];
	for (int k = 0; k < c->n; k++) {
		if (k)
			fputc(',', out);
		if (cells[k])
			result_csv_quote(out, cells[k], strlen(cells[k]));
	}
	fputc('\n', out);
}

/* The inputs before everything: an own sweep's, or those merge read. */
static void csv_inputs(FILE *out, const struct run_inputs *in, const char *text)
{
	if (in)
		inputs_write_csv(out, in);
	else if (text)
		fputs(text, out);
}

/* Version 2's JSON: the object's start, each point, its end. */
static int json_head(FILE *out, const struct run_inputs *in, json_t *read)
{
	json_t *o = in ? inputs_json(in) : json_incref(read);
	char *text = o ? json_dumps(o, JSON_FLAGS) : NULL;

	json_decref(o);
	if ((in || read) && !text)
		return -1;
	fputs("{\n  \"schema\": \"pmlab-sweep\",\n  \"version\": 2,\n  \"inputs\": ", out);
	for (const char *p = text ? text : "null"; *p; p++) {
		fputc(*p, out);
		if (*p == '\n')
			fputs("  ", out);
	}
	fputs(",\n  \"points\": [", out);
	free(text);
	return 0;
}

/* A point, indented as an element of "points"; n: the points before it. */
static int json_point(FILE *out, json_t *obj, long n)
{
	char *text = json_dumps(obj, JSON_FLAGS);

	if (!text)
		return -1;
	fputs(n ? ",\n    " : "\n    ", out);
	for (const char *p = text; *p; p++) {
		fputc(*p, out);
		if (*p == '\n')
			fputs("    ", out);
	}
	free(text);
	return 0;
}

static void json_tail(FILE *out, long n)
{
	fputs(n ? "\n  ]\n}\n" : "]\n}\n", out);
}

static int write_csv(FILE *out, struct sweep_out *o)
{
	struct columns c = { 0 };
	const char **cells = NULL;
	int i, k, rc = 0;

	for (i = 0; i < o->n && rc == 0; i++)
		for (k = 0; k < o->row[i].ncells; k++)
			if (column_of(&c, o->row[i].name[k], k) < 0) {
				rc = -1;
				break;
			}
	if (rc == 0 && c.n > 0)
		cells = calloc((size_t)c.n, sizeof(*cells));
	if (rc < 0 || (c.n > 0 && !cells)) {
		free(c.name);
		return -1;
	}
	csv_inputs(out, o->in, o->inputs_csv);
	csv_header(out, &c);
	for (i = 0; i < o->n; i++)
		csv_row(out, &c, cells, o->row[i].ncells, o->row[i].name, o->row[i].value);
	free(cells);
	free(c.name);
	return 0;
}

static int write_json(FILE *out, struct sweep_out *o)
{
	json_t *a;
	int i, rc;

	if (o->in || !o->inputs_known || o->version == 2) {
		if (json_head(out, o->in, o->inputs_json) < 0)
			return -1;
		for (i = 0; i < o->n; i++)
			if (json_point(out, o->row[i].obj, i) < 0)
				return -1;
		json_tail(out, o->n);
		return 0;
	}
	/* version 1's shards merge into version 1's array */
	a = json_array();
	if (!a)
		return -1;
	for (i = 0; i < o->n; i++)
		if (json_array_append(a, o->row[i].obj) != 0) {
			json_decref(a);
			return -1;
		}
	rc = json_dumpf(a, out, JSON_FLAGS) == 0 && fputc('\n', out) != EOF ? 0 : -1;
	json_decref(a);
	return rc;
}

int sweep_out_write(FILE *out, struct sweep_out *o, bool complete, struct pm_diag *d)
{
	int i;

	if (o->n > 1)
		qsort(o->row, (size_t)o->n, sizeof(o->row[0]), by_point);
	for (i = 0; i < o->n; i++) {
		if (i > 0 && o->row[i].point == o->row[i - 1].point) {
			const struct sweep_row *a = &o->row[i - 1], *b = &o->row[i];
			if (a->file > b->file || (a->file == b->file && a->line > b->line)) {
				const struct sweep_row *t = a;
				a = b;
				b = t;
			}
			if (b->file >= 0)
				return pm_fail(d, "%s:%ld: point %ld appears twice (first at %s:%ld: the "
					       "same shard given twice?)", o->files[b->file], b->line,
					       b->point, o->files[a->file], a->line);
			return pm_fail(d, "point %ld appears twice", b->point);
		}
	}
	for (i = 0; complete && i < o->n; i++)
		if (o->row[i].point != i)
			return pm_fail(d, "point %d is missing (a shard left out?)", i);
	if ((o->format == SWEEP_JSON ? write_json(out, o) : write_csv(out, o)) < 0)
		return pm_fail(d, "out of memory");
	return 0;
}

void sweep_out_free(struct sweep_out *o)
{
	for (int i = 0; i < o->n; i++) {
		struct sweep_row *r = &o->row[i];

		for (int k = 0; k < r->ncells; k++) {
			free(r->name[k]);
			free(r->value[k]);
		}
		free(r->name);
		free(r->value);
		json_decref(r->obj);
	}
	free(o->row);
	for (int i = 0; i < o->nfiles; i++)
		free(o->files[i]);
	free(o->files);
	free(o->inputs_csv);
	json_decref(o->inputs_json);
	memset(o, 0, sizeof(*o));
}

/* ---- the stream ---- */

struct sweep_columns {
	struct columns c;
};

int sweep_stream_start(struct sweep_stream *st, FILE *out, enum sweep_format format,
		       const struct run_inputs *in, struct pm_diag *d)
{
	*st = (struct sweep_stream){ .out = out, .format = format, .in = in };
	if (format == SWEEP_JSON) {
		if (json_head(out, in, NULL) < 0)
			return pm_fail(d, "out of memory");
		return 0;
	}
	csv_inputs(out, in, NULL);
	st->cols = calloc(1, sizeof(*st->cols));
	st->spill = tmpfile();
	if (!st->cols || !st->spill) {
		sweep_stream_free(st);
		return pm_fail(d, "cannot create a temporary file for the rows: %s", strerror(errno));
	}
	st->cols->c.own = true;
	return 0;
}

static int put_str(FILE *f, const char *s)
{
	uint32_t n = (uint32_t)strlen(s);
	return fwrite(&n, sizeof(n), 1, f) == 1 && fwrite(s, 1, n, f) == n ? 0 : -1;
}

static char *get_str(FILE *f)
{
	uint32_t n;
	if (fread(&n, sizeof(n), 1, f) != 1)
		return NULL;
	char *s = malloc((size_t)n + 1);
	if (s && fread(s, 1, n, f) != n) {
		free(s);
		return NULL;
	}
	if (s)
		s[n] = '\0';
	return s;
}

int sweep_stream_csv(struct sweep_stream *st, long point, int ncells, const char *const *names,
		     const char *const *values, const char *csv, size_t len, struct pm_diag *d)
{
	/* Parsed into cells as merge reads them, spilled, and forgotten. */
	struct sweep_out one = { 0 };
	if (sweep_out_add_csv(&one, point, ncells, names, values, csv, len, d) < 0) {
		sweep_out_free(&one);
		return -1;
	}
	const struct sweep_row *r = &one.row[0];
	uint32_t n = (uint32_t)r->ncells;
	bool ok = fwrite(&n, sizeof(n), 1, st->spill) == 1;
	for (int k = 0; ok && k < r->ncells; k++)
		ok = put_str(st->spill, r->name[k]) == 0 && put_str(st->spill, r->value[k]) == 0 &&
		     column_of(&st->cols->c, r->name[k], k) >= 0;
	sweep_out_free(&one);
	if (!ok)
		return pm_fail(d, "cannot keep the rows: %s", strerror(errno ? errno : ENOMEM));
	st->n++;
	return 0;
}

int sweep_stream_json(struct sweep_stream *st, json_t *obj, struct pm_diag *d)
{
	int rc = json_point(st->out, obj, st->n);
	json_decref(obj);
	if (rc < 0)
		return pm_fail(d, "out of memory");
	st->n++;
	/* out at once, not when a pipe's buffer fills */
	if (fflush(st->out) != 0)
		return pm_fail(d, "cannot write the row: %s", strerror(errno));
	return 0;
}

int sweep_stream_end(struct sweep_stream *st, struct pm_diag *d)
{
	if (st->format == SWEEP_JSON) {
		json_tail(st->out, st->n);
		return 0;
	}
	struct columns *c = &st->cols->c;
	const char **cells = calloc((size_t)c->n + 1, sizeof(*cells));
	int rc = cells && fflush(st->spill) == 0 && fseek(st->spill, 0, SEEK_SET) == 0 ? 0 : -1;

	if (rc == 0)
		csv_header(st->out, c);
	for (long i = 0; rc == 0 && i < st->n; i++) {
		uint32_t n;
		char **name = NULL, **value = NULL;
		if (fread(&n, sizeof(n), 1, st->spill) != 1 ||
		    !(name = calloc((size_t)n + 1, sizeof(*name))) ||
		    !(value = calloc((size_t)n + 1, sizeof(*value))))
			rc = -1;
		for (uint32_t k = 0; rc == 0 && k < n; k++)
			if (!(name[k] = get_str(st->spill)) || !(value[k] = get_str(st->spill)))
				rc = -1;
		if (rc == 0)
			csv_row(st->out, c, cells, (int)n, name, value);
		for (uint32_t k = 0; name && value && k < n; k++) {
			free(name[k]);
			free(value[k]);
		}
		free(name);
		free(value);
	}
	free(cells);
	return rc < 0 ? pm_fail(d, "cannot read the rows back: %s", strerror(errno ? errno : EIO))
		      : 0;
}

void sweep_stream_free(struct sweep_stream *st)
{
	if (st->spill)
		fclose(st->spill);
	if (st->cols) {
		for (int k = 0; k < st->cols->c.n; k++)
			free(st->cols->c.name[k]);
		free(st->cols->c.name);
		free(st->cols);
	}
	*st = (struct sweep_stream){ 0 };
}
