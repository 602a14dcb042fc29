// SPDX-License-Identifier: GPL-2.0-only
#include "validation.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "comparison.h"
#include "runspec.h"

/* The parser's state. */
struct parse {
	struct validation *e;
	FILE *f;
	int line, failed;
	char msg[V_TEXT];
	char *lbuf; /* the line being read */
	size_t lcap;
	/* Every key given so far ("SECTION\nKEY"), with its line: a key
	 * given twice is an error, not the last one winning. */
	struct seen_key {
		char *key;
		int line;
	} *seen;
	int nseen, cap_seen;
	char last[2 * V_NAME]; /* the previous line's section and key */
};

static int bad(struct parse *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(struct parse *e, const char *fmt, ...)
{
	va_list ap;

	if (e->failed)
		return 0;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	e->failed = e->line ? e->line : 1;
	return 0;
}

/* inih's reader: one line per call, read whole (getline), so that a line
 * longer than inih's buffer is refused at its own line rather than
 * handed over in pieces, each counted as a line, and a NUL byte is
 * refused rather than cutting the line short. */
static char *read_line(char *buf, int size, void *stream)
{
	struct parse *e = stream;
	ssize_t n = getline(&e->lbuf, &e->lcap, e->f);

	if (n < 0)
		return NULL;
	e->line++;
	if (memchr(e->lbuf, '\0', (size_t)n)) {
		bad(e, "a NUL byte (expected text)");
		return NULL;
	}
	if (n >= size) {
		bad(e, "a line longer than %d bytes", size - 1);
		return NULL;
	}
	memcpy(buf, e->lbuf, (size_t)n + 1);
	return buf;
}

/* A number as the data files write it: plain decimal, no blanks, no '+',
 * no hexadecimal, finite (strtod alone takes "0x10" and "inf"). */
static bool plain_number(const char *s, double *v)
{
	char *end;
	const char *p = *s == '-' ? s + 1 : s;
	if (!(isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) ||
	    strpbrk(p, "xX"))
		return false;
	*v = strtod(s, &end);
	return *end == '\0' && isfinite(*v);
}

/* What a figure is: relative error or points, and whether it is known. */
bool validation_fig_is_points(const char *fig)
{
	return fig[0] == 'C' || strcmp(fig, "user") == 0 || strcmp(fig, "sys") == 0 ||
	       strcmp(fig, "iowait") == 0 || strcmp(fig, "idle") == 0 ||
	       (strncmp(fig, "pkg", 3) == 0 && strstr(fig, "_idle"));
}

static int fig_known(const char *fig)
{
	static const char *const names[] = { "throughput_tpm", "throughput", "throughput_rel",
		"latency_ms", "latency_us", "power_w", "pkg_power_w", "freq_ghz", "user", "sys",
		"iowait", "idle", "runtime_s", "runtime_rel", "energy_rel", "power_rel",
		"pkg_power_rel" };
	int n = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(fig, names[i]) == 0)
			return 1;
	if (fig[0] == 'C' && fig[1] && strspn(fig + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") ==
	    strlen(fig + 1))
		return 1;
	if (sscanf(fig, "pkg%d_idle%n", &n, &n) == 1 && fig[n] == '\0')
		return 1;
	if (sscanf(fig, "pkg%d_cpu_idle%n", &n, &n) == 1 && fig[n] == '\0')
		return 1;
	return 0;
}

/* [experiment]'s plain text keys: stores `value` in the field named like
 * the key; false if `name` is not one of them. */
static bool text_key(struct validation *e, const char *name, const char *value, int line)
{
	static const struct {
		const char *name;
		size_t offset, size;
		long line_offset; /* of its line_ field, -1 none */
	} keys[] = {
#define TEXT_KEY(f, l) { #f, offsetof(struct validation, f), \
			 sizeof(((struct validation *)0)->f), l }
#define LINE(f) (long)offsetof(struct validation, line_##f)
		TEXT_KEY(name, -1), TEXT_KEY(seed_file, -1), TEXT_KEY(machine, LINE(machine)),
		TEXT_KEY(cpus, LINE(cpus)), TEXT_KEY(workload, LINE(workload)),
		TEXT_KEY(cpuidle, LINE(cpuidle)), TEXT_KEY(cpufreq, LINE(cpufreq)),
		TEXT_KEY(baseline, LINE(baseline)), TEXT_KEY(kernel, LINE(kernel)),
#undef LINE
#undef TEXT_KEY
	};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(name, keys[i].name) == 0) {
			snprintf((char *)e + keys[i].offset, keys[i].size, "%s", value);
			if (keys[i].line_offset >= 0)
				*(int *)((char *)e + keys[i].line_offset) = line;
			return true;
		}
	return false;
}

static int on_experiment(struct parse *ps, const char *name, const char *value)
{
	struct validation *e = ps->e;

	if (strcmp(name, "source") == 0) {
		/* several lines: the list, date, subject, author, address */
		size_t len = strlen(e->source);
		if (len + 2 + strlen(value) >= sizeof(e->source))
			return bad(ps, "source: longer than %zu characters", sizeof(e->source) - 1);
		snprintf(e->source + len, sizeof(e->source) - len, "%s%s", len ? " " : "", value);
		return 1;
	}
	if (text_key(e, name, value, ps->line))
		return 1;
	if (strcmp(name, "duration") == 0) {
		/* pmlab sim's range: ns in an int64 with room to spare */
		e->line_duration = ps->line;
		if (!plain_number(value, &e->duration) || !(e->duration > 0 && e->duration <= 1e6) ||
		    llround(e->duration * NS_PER_SEC) <= 0)
			return bad(ps, "duration = %s: expected seconds above 0, at most 1000000",
				   value);
	} else if (strcmp(name, "tie_tolerance") == 0 || strcmp(name, "order_margin") == 0) {
		double *x = name[0] == 't' ? &e->tie_tolerance : &e->order_margin;

		if (!plain_number(value, x) || !(*x >= 0 && *x <= 100))
			return bad(ps, "%s = %s: expected 0..100 (%% or points)", name, value);
	} else if (strcmp(name, "runs") == 0) {
		uint64_t r;

		if (runspec_parse_u64(value, &r) < 0 || r < 1 || r > 1000)
			return bad(ps, "runs = %s: expected a count from 1 to 1000", value);
		e->runs = (int)r;
	} else if (strncmp(name, "map.", 4) == 0) {
		if (e->nmaps >= V_MAX)
			return bad(ps, "too many map. keys");
		if (!fig_known(name + 4) || name[4] != 'C')
			return bad(ps, "%s: map. names a C-state figure (map.C1 = POLL+C1+C1E)", name);
		snprintf(e->map[e->nmaps].key, V_NAME, "%s", name + 4);
		snprintf(e->map[e->nmaps].val, V_TEXT, "%s", value);
		e->map[e->nmaps++].line = ps->line;
	} else
		return bad(ps, "[experiment]: unknown key '%s'", name);
	return 1;
}

static int on_calibration(struct parse *ps, const char *name, const char *value)
{
	struct validation *e = ps->e;

	/* The one machine figure no data sheet gives: the rest of the
	 * server (memory, disks, fans, PSU losses) at the wall. */
	if (strcmp(name, "platform_w") == 0) {
		if (!plain_number(value, &e->platform_w) ||
		    !(e->platform_w >= 0 && e->platform_w < 100000))
			return bad(ps, "platform_w = %s: expected watts", value);
		return 1;
	}
	if (e->nsets >= V_MAX)
		return bad(ps, "too many calibration keys");
	snprintf(e->set[e->nsets].key, V_NAME, "%s", name);
	snprintf(e->set[e->nsets].val, V_TEXT, "%s=%s", name, value);
	e->set[e->nsets++].line = ps->line;
	return 1;
}

/* The --set keys the source states: applied as calibration keys are,
 * but not fitted. */
static int on_setup(struct parse *ps, const char *name, const char *value)
{
	struct validation *e = ps->e;

	if (e->nsetup >= V_MAX)
		return bad(ps, "too many setup keys");
	snprintf(e->setup[e->nsetup].key, V_NAME, "%s", name);
	snprintf(e->setup[e->nsetup].val, V_TEXT, "%s=%s", name, value);
	e->setup[e->nsetup++].line = ps->line;
	return 1;
}

/* KEY = text of [notes] and [missing]; indented lines below continue it
 * (inih hands them over under the same name). */
static int on_text(struct parse *ps, const char *section, struct vnote *list, int *n,
		   const char *name, const char *value)
{
	struct vnote *k = *n ? &list[*n - 1] : NULL;

	if (k && strcmp(k->key, name) == 0) {
		size_t len = strlen(k->val);
		if (len + 1 + strlen(value) >= V_NOTE)
			return bad(ps, "[%s] %s: longer than %d characters", section, name, V_NOTE - 1);
		snprintf(k->val + len, V_NOTE - len, " %s", value);
		return 1;
	}
	if (*n >= V_MAX)
		return bad(ps, "[%s]: too many keys", section);
	if (strlen(name) >= V_NAME || strlen(value) >= V_NOTE)
		return bad(ps, "[%s] %s: too long", section, name);
	snprintf(list[*n].key, V_NAME, "%s", name);
	snprintf(list[*n].val, V_NOTE, "%s", value);
	list[(*n)++].line = ps->line;
	return 1;
}

static int on_ordering(struct parse *ps, const char *name, const char *value)
{
	struct validation *e = ps->e;

	if (e->norders >= V_MAX)
		return bad(ps, "too many orderings");
	if (!fig_known(name))
		return bad(ps, "[orderings]: unknown figure '%s'", name);
	snprintf(e->order[e->norders].key, V_NAME, "%s", name);
	snprintf(e->order[e->norders].val, V_TEXT, "%s", value);
	e->order[e->norders++].line = ps->line;
	return 1;
}

static int on_row(struct parse *ps, const char *section, const char *name, const char *value)
{
	struct validation *e = ps->e;
	struct vrow *r = e->nrows ? &e->row[e->nrows - 1] : NULL;

	if (!r || strcmp(r->name, section + 4) != 0) {
		for (int i = 0; i < e->nrows; i++)
			if (strcmp(e->row[i].name, section + 4) == 0)
				return bad(ps, "[%s]: row listed twice", section);
		if (e->nrows >= V_MAX)
			return bad(ps, "too many rows");
		r = &e->row[e->nrows++];
		snprintf(r->name, sizeof(r->name), "%s", section + 4);
		r->line = ps->line;
	}
	if (strcmp(name, "profile") == 0) {
		snprintf(r->policy, sizeof(r->policy), "%s", value);
	} else if (strcmp(name, "set") == 0) {
		snprintf(r->policy, sizeof(r->policy), "none:%s", value);
	} else if (strncmp(name, "target.", 7) == 0) {
		struct vtarget *t;

		if (!fig_known(name + 7))
			return bad(ps, "%s: unknown figure '%s'", name, name + 7);
		if (r->ntargets >= V_MAX)
			return bad(ps, "too many targets");
		t = &r->t[r->ntargets++];
		snprintf(t->fig, sizeof(t->fig), "%s", name + 7);
		t->line = ps->line;
		if (!plain_number(value, &t->v))
			return bad(ps, "%s = %s: expected a number", name, value);
	} else
		return bad(ps, "[%s]: unknown key '%s' (profile, set, target.FIGURE)", section, name);
	return 1;
}

/* A key given twice (a row's profile = and set = are one key: its
 * policy). 0, or the line it was first given at; -1 out of memory.
 * [notes] and [orderings] may repeat theirs: a topic goes on over lines,
 * a figure may have several chains. */
static int given_before(struct parse *ps, const char *section, const char *name)
{
	char key[2 * V_NAME + 8];
	bool policy = strncmp(section, "row ", 4) == 0 &&
		      (strcmp(name, "profile") == 0 || strcmp(name, "set") == 0);

	snprintf(key, sizeof(key), "%.*s\n%.*s", V_NAME, section, V_NAME, policy ? "policy" : name);
	for (int i = 0; i < ps->nseen; i++)
		if (strcmp(ps->seen[i].key, key) == 0)
			return ps->seen[i].line;
	if (ps->nseen == ps->cap_seen) {
		int cap = ps->cap_seen ? 2 * ps->cap_seen : 64;
		struct seen_key *n = realloc(ps->seen, (size_t)cap * sizeof(*n));
		if (!n)
			return -1;
		ps->seen = n;
		ps->cap_seen = cap;
	}
	if (!(ps->seen[ps->nseen].key = strdup(key)))
		return -1;
	ps->seen[ps->nseen++].line = ps->line;
	return 0;
}

static int on_value(void *user, const char *section, const char *name, const char *value)
{
	struct parse *ps = user;
	char here[sizeof(ps->last)];

	if (ps->failed)
		return 0;
	/* inih hands an indented line over as more of the previous value:
	 * only text goes on that way (a note, what is missing, the source);
	 * elsewhere it would silently replace the value above it. */
	snprintf(here, sizeof(here), "%.*s\n%.*s", V_NAME - 1, section, V_NAME - 1, name);
	bool continued = (ps->lbuf[0] == ' ' || ps->lbuf[0] == '\t') && strcmp(here, ps->last) == 0;
	bool text = strcmp(section, "notes") == 0 || strcmp(section, "missing") == 0 ||
		    (strcmp(section, "experiment") == 0 && strcmp(name, "source") == 0);
	memcpy(ps->last, here, sizeof(here));
	if (!text && continued)
		return bad(ps, "an indented line: only a text ([notes], [missing], source) goes on "
			   "below its line (expected KEY = VALUE at the start of the line)");
	if (!continued && strcmp(section, "notes") != 0 && strcmp(section, "orderings") != 0) {
		int first = given_before(ps, section, name);
		if (first < 0)
			return bad(ps, "out of memory");
		if (first > 0)
			return bad(ps, "[%s] %s: given twice (first at line %d)", section,
				   strncmp(section, "row ", 4) == 0 &&
				   (strcmp(name, "profile") == 0 || strcmp(name, "set") == 0) ?
				   "profile = or set =" : name, first);
	}
	if (strcmp(section, "experiment") == 0)
		return on_experiment(ps, name, value);
	if (strcmp(section, "setup") == 0)
		return on_setup(ps, name, value);
	if (strcmp(section, "calibration") == 0)
		return on_calibration(ps, name, value);
	if (strcmp(section, "notes") == 0)
		return on_text(ps, section, ps->e->note, &ps->e->nnotes, name, value);
	if (strcmp(section, "missing") == 0) {
		if (!fig_known(name))
			return bad(ps, "[missing]: unknown figure '%s'", name);
		return on_text(ps, section, ps->e->missing, &ps->e->nmissing, name, value);
	}
	if (strcmp(section, "orderings") == 0)
		return on_ordering(ps, name, value);
	if (strncmp(section, "row ", 4) == 0 && section[4])
		return on_row(ps, section, name, value);
	return bad(ps, "unknown section [%s] (experiment, setup, calibration, row NAME, orderings, "
		   "missing, notes)", section);
}

int validation_row(const struct validation *e, const char *name)
{
	for (int i = 0; i < e->nrows; i++)
		if (strcmp(e->row[i].name, name) == 0)
			return i;
	return -1;
}

/* The model's values differ by no more than tol, in the figure's own unit
 * (points, or % of the larger value). */
static int within(const char *fig, double a, double b, double tol)
{
	double diff = fabs(a - b);
	if (validation_fig_is_points(fig))
		return diff <= tol;
	double big = fmax(fabs(a), fabs(b));
	return big == 0 || diff / big * 100 <= tol;
}

/* A '~' pair: within the experiment's tie tolerance. */
static int within_tolerance(const struct validation *e, const char *fig, double a, double b)
{
	return within(fig, a, b, e->tie_tolerance);
}

/* A '>' pair: more, and by more than order_margin when one is given (a
 * source whose own spread would make a smaller difference a toss-up). */
static int clearly_more(const struct validation *e, const char *fig, double a, double b)
{
	return a > b && (e->order_margin == 0 || !within(fig, a, b, e->order_margin));
}

static int split_chain(const char *s, char names[][V_NAME], char *rel, int max)
{
	int n = 0;

	while (*s) {
		const char *op = s + strcspn(s, ">~"), *end = op;
		while (*s == ' ' || *s == '\t')
			s++;
		const char *b = end;
		while (b > s && (b[-1] == ' ' || b[-1] == '\t'))
			b--;
		if (b == s || n >= max || b - s >= V_NAME)
			return -1;
		snprintf(names[n++], V_NAME, "%.*s", (int)(b - s), s);
		if (!*op)
			break;
		rel[n - 1] = *op;
		s = op + 1;
		if (!*s)
			return -1;
	}
	return n;
}

/* What the parser cannot check line by line. */
static int check(const struct validation *e, int last_line, struct pm_diag *d)
{
	if (!e->machine[0] || !e->workload[0] || !e->baseline[0])
		return pm_fail_at(d, e->path, 1, "[experiment] needs machine, workload and baseline");
	if (e->nrows == 0)
		return pm_fail_at(d, e->path, last_line, "no [row NAME] sections");
	for (int i = 0; i < e->nrows; i++)
		if (!e->row[i].policy[0])
			return pm_fail_at(d, e->path, e->row[i].line, "[row %s]: needs profile = or set =",
					  e->row[i].name);
	if (validation_row(e, e->baseline) < 0)
		return pm_fail_at(d, e->path, e->line_baseline, "baseline = %s: no [row %s]",
				  e->baseline, e->baseline);
	/* Setup and calibration keys are set after a row's own: a row may not
	 * name one of them, or the row's value would be lost. */
	for (int i = 0; i < e->nrows; i++) {
		const char *key = strncmp(e->row[i].policy, "none:", 5) == 0 ? e->row[i].policy + 5 : "";

		while (*key) {
			size_t len = strcspn(key, "=,");

			for (int k = 0; k < e->nsetup + e->nsets; k++) {
				const struct vkeyed *x = k < e->nsetup ? &e->setup[k] : &e->set[k - e->nsetup];

				if (strlen(x->key) == len && strncmp(x->key, key, len) == 0)
					return pm_fail_at(d, e->path, e->row[i].line,
							  "[row %s]: %s is also a %s key", e->row[i].name,
							  x->key, k < e->nsetup ? "[setup]" : "[calibration]");
			}
			key += strcspn(key, ",");
			key += *key == ',';
		}
	}
	for (int i = 0; i < e->norders; i++) {
		const struct vkeyed *o = &e->order[i];
		char names[V_MAX][V_NAME];
		char rel[V_MAX];
		int n = split_chain(o->val, names, rel, V_MAX);

		if (n < 2)
			return pm_fail_at(d, e->path, o->line, "%s: expected 'ROW > ROW [> ROW...]' "
					  "('~' between rows the source cannot tell apart)", o->key);
		for (int k = 0; k + 1 < n; k++)
			if (rel[k] == '~' && e->tie_tolerance == 0)
				return pm_fail_at(d, e->path, o->line, "%s: '~' needs tie_tolerance = in "
						  "[experiment]", o->key);
		for (int k = 0; k < n; k++)
			if (validation_row(e, names[k]) < 0)
				return pm_fail_at(d, e->path, o->line, "%s: no row '%s'", o->key, names[k]);
	}
	return 0;
}

int validation_load(struct validation *e, const char *path, struct pm_diag *d)
{
	struct parse ps = { .e = e };
	int rc;

	memset(e, 0, sizeof(*e));
	e->path = path;
	ps.f = fopen(path, "r");
	if (!ps.f)
		return pm_fail(d, "%s: cannot open", path);
	e->duration = 10;
	e->runs = 3;
	snprintf(e->cpuidle, sizeof(e->cpuidle), "menu");
	rc = ini_parse_stream(read_line, &ps, on_value, &ps);
	fclose(ps.f);
	free(ps.lbuf);
	for (int i = 0; i < ps.nseen; i++)
		free(ps.seen[i].key);
	free(ps.seen);
	if (ps.failed)
		return pm_fail_at(d, path, ps.failed, "%s", ps.msg);
	if (rc != 0)
		return pm_fail_at(d, path, rc > 0 ? rc : 0,
				  "not a 'key = value' line, a [section] header or a comment");
	if (!e->name[0]) {
		const char *b = strrchr(path, '/');

		snprintf(e->name, sizeof(e->name), "%.*s", (int)strcspn(b ? b + 1 : path, "."),
			 b ? b + 1 : path);
	}
	return check(e, ps.line, d);
}

static double mean_of(const struct cmp_set *s, int p, const char *key, int *found)
{
	for (int m = 0; m < s->nmetrics; m++)
		if (strcmp(s->metric[m].key, key) == 0) {
			struct cmp_summary sum;

			cmp_summarize(s, p, m, &sum);
			*found = 1;
			return sum.mean;
		}
	*found = 0;
	return NAN;
}

double validation_model_value(const struct validation *e, const struct cmp_set *s, int p,
			      const char *fig)
{
	char key[CMP_KEY_MAX + 16];
	int found = 0, b = validation_row(e, e->baseline);
	double v;

	if (strcmp(fig, "throughput_tpm") == 0 || strcmp(fig, "throughput") == 0)
		return mean_of(s, p, "throughput", &found);
	if (strcmp(fig, "throughput_rel") == 0)
		return mean_of(s, p, "throughput", &found) / mean_of(s, b, "throughput", &found);
	if (strcmp(fig, "runtime_rel") == 0) /* a fixed amount of work: time ~ 1 / throughput */
		return mean_of(s, b, "throughput", &found) / mean_of(s, p, "throughput", &found);
	if (strcmp(fig, "latency_ms") == 0)
		return mean_of(s, p, "latency_mean_ms", &found);
	if (strcmp(fig, "latency_us") == 0)
		return 1000 * mean_of(s, p, "latency_mean_ms", &found);
	if (strcmp(fig, "power_w") == 0)
		return mean_of(s, p, "power_w", &found);
	/* The packages alone, as RAPL reads them (turbostat PkgWatt): the
	 * platform is a constant the machine adds at the wall. */
	if (strcmp(fig, "pkg_power_w") == 0)
		return mean_of(s, p, "power_w", &found) - e->platform_run;
	if (strcmp(fig, "pkg_power_rel") == 0)
		return (mean_of(s, p, "power_w", &found) - e->platform_run) /
		       (mean_of(s, b, "power_w", &found) - e->platform_run);
	if (strcmp(fig, "freq_ghz") == 0)
		return mean_of(s, p, "bzy_mhz", &found) / 1000;
	if (strcmp(fig, "runtime_s") == 0) {
		/* kernbench's throughput is in runs/h: one build's time. */
		v = mean_of(s, p, "throughput", &found);
		return v > 0 ? 3600.0 / v : NAN;
	}
	if (strcmp(fig, "power_rel") == 0) {
		double b0 = mean_of(s, b, "power_w", &found);
		return mean_of(s, p, "power_w", &found) / b0;
	}
	if (strcmp(fig, "energy_rel") == 0) {
		double t = mean_of(s, p, "throughput", &found), tb = mean_of(s, b, "throughput", &found);
		double w = mean_of(s, p, "power_w", &found), wb = mean_of(s, b, "power_w", &found);
		return (w / t) / (wb / tb); /* power x runtime, runtime = 1/throughput */
	}
	if (fig[0] == 'C') {
		const char *spec = fig;
		char buf[V_TEXT], *tok, *save = NULL;

		for (int i = 0; i < e->nmaps; i++)
			if (strcmp(e->map[i].key, fig) == 0)
				spec = e->map[i].val;
		if (strcmp(spec, "-") == 0)
			return NAN;
		if (strcmp(spec, "C0") == 0)
			return mean_of(s, p, "busy_pct", &found);
		snprintf(buf, sizeof(buf), "%s", spec);
		v = 0;
		for (tok = strtok_r(buf, "+ ", &save); tok; tok = strtok_r(NULL, "+ ", &save)) {
			snprintf(key, sizeof(key), "residency_%s_pct", tok);
			v += mean_of(s, p, key, &found);
			if (!found)
				return NAN;
		}
		return v;
	}
	if (strncmp(fig, "pkg", 3) == 0) {
		snprintf(key, sizeof(key), "%s_pct", fig);
		v = mean_of(s, p, key, &found);
		return found ? v : NAN;
	}
	snprintf(key, sizeof(key), "util_%s_pct", fig);
	return mean_of(s, p, key, &found);
}

bool validation_cell_within(const char *fig, double err)
{
	return fabs(err) <= (validation_fig_is_points(fig) ? 3.0 : 5.0);
}

const char *validation_missing(const struct validation *v, const char *fig)
{
	for (int i = 0; i < v->nmissing; i++)
		if (strcmp(v->missing[i].key, fig) == 0)
			return v->missing[i].val;
	return NULL;
}

/* Error of a cell: relative % or points; NAN when not comparable. */
double validation_cell_error(const char *fig, double model, double target)
{
	if (isnan(model))
		return NAN;
	if (validation_fig_is_points(fig))
		return model - target;
	return target != 0 ? 100.0 * (model - target) / target : NAN;
}


const struct vtarget *validation_target(const struct validation *v, int row, const char *fig)
{
	const struct vrow *r = &v->row[row];

	for (int t = 0; t < r->ntargets; t++)
		if (strcmp(r->t[t].fig, fig) == 0)
			return &r->t[t];
	return NULL;
}

const struct vtarget *validation_scored_target(const struct validation *v, int row, const char *fig)
{
	if (row == validation_row(v, v->baseline) && strstr(fig, "_rel"))
		return NULL; /* 1 by definition */
	return validation_target(v, row, fig);
}

int validation_figures(const struct validation *v, char figs[][V_NAME], int max)
{
	int n = 0;

	for (int r = 0; r < v->nrows; r++)
		for (int t = 0; t < v->row[r].ntargets; t++) {
			int k;

			for (k = 0; k < n && strcmp(figs[k], v->row[r].t[t].fig) != 0; k++)
				;
			if (k == n && n < max)
				snprintf(figs[n++], V_NAME, "%s", v->row[r].t[t].fig);
		}
	return n;
}

static bool order_holds(const struct validation *v, const struct cmp_set *s, const struct vkeyed *o)
{
	char names[V_MAX][V_NAME];
	char rel[V_MAX];
	int n = split_chain(o->val, names, rel, V_MAX);

	for (int k = 0; k + 1 < n; k++) {
		double a = validation_model_value(v, s, validation_row(v, names[k]), o->key);
		double c = validation_model_value(v, s, validation_row(v, names[k + 1]), o->key);

		if (rel[k] == '>' ? !clearly_more(v, o->key, a, c) : !within_tolerance(v, o->key, a, c))
			return false;
	}
	return true;
}

void validation_score(const struct validation *v, const struct cmp_set *s, struct vscore *out)
{
	static char figs[2 * V_MAX][V_NAME];
	int nf = validation_figures(v, figs, 2 * V_MAX);
	double sum = 0;

	memset(out, 0, sizeof(*out));
	for (int p = 0; p < v->nrows; p++)
		for (int f = 0; f < nf; f++) {
			const struct vtarget *t = validation_scored_target(v, p, figs[f]);
			double err;

			if (!t)
				continue;
			err = validation_cell_error(figs[f], validation_model_value(v, s, p, figs[f]), t->v);
			if (isnan(err))
				continue;
			out->ncells++;
			out->nwithin += validation_cell_within(figs[f], err);
			sum += fabs(err);
			if (fabs(err) > out->max_err)
				out->max_err = fabs(err);
		}
	out->mean_err = out->ncells ? sum / out->ncells : 0.0;
	for (int i = 0; i < v->norders; i++) {
		out->order_ok[i] = order_holds(v, s, &v->order[i]);
		out->nmatch += out->order_ok[i];
	}
}

/* "PATH:LINE: KEY = VALUE: why" from the message in d. */
static int at_line(const struct validation *v, int line, const char *key, const char *value,
		   struct pm_diag *d)
{
	char why[PM_DIAG_MAX];

	snprintf(why, sizeof(why), "%s", d->msg);
	return pm_fail_at(d, v->path, line > 0 ? line : 1, "%s = %.200s: %s", key, value, why);
}

/* What every row shares -- the workload, the governors, the kernel, each
 * setup and calibration key -- built one at a time onto a plain run, so that what
 * the simulator refuses is reported at the line that gave it (it was all
 * reported at the first row). */
static int check_common(const struct validation *v, const struct machine *m, struct pm_diag *d)
{
	const char *cpufreq = v->cpufreq[0] ? v->cpufreq : NULL;
	const char *cpuidle = v->cpuidle[0] ? v->cpuidle : NULL;
	const struct {
		const char *key, *value, *cpufreq, *cpuidle;
		int line;
	} steps[] = {
		{ "workload", v->workload, NULL, NULL, v->line_workload },
		{ "cpufreq", v->cpufreq, cpufreq, NULL, v->line_cpufreq },
		{ "cpuidle", v->cpuidle, cpufreq, cpuidle, v->line_cpuidle },
	};
	struct runspec rs = { 0 };
	int rc = 0;

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]) && rc == 0; i++) {
		if (i > 0 && !steps[i].value[0])
			continue;
		runspec_free(&rs);
		if (runspec_init(&rs, m, v->workload, steps[i].cpufreq, steps[i].cpuidle, d) < 0 ||
		    runspec_check(&rs, d) < 0)
			rc = at_line(v, steps[i].line, steps[i].key, steps[i].value, d);
	}
	if (rc == 0 && v->kernel[0]) {
		char kv[V_NAME + 8];
		snprintf(kv, sizeof(kv), "kernel=%s", v->kernel);
		if (runspec_set(&rs, kv) < 0)
			rc = pm_fail(d, "out of memory");
		else if (runspec_check(&rs, d) < 0)
			rc = at_line(v, v->line_kernel, "kernel", v->kernel, d);
	}
	for (int k = 0; k < v->nsetup + v->nsets && rc == 0; k++) {
		const struct vkeyed *x = k < v->nsetup ? &v->setup[k] : &v->set[k - v->nsetup];

		if (runspec_set(&rs, x->val) < 0)
			rc = pm_fail(d, "out of memory");
		else if (runspec_check(&rs, d) < 0)
			rc = at_line(v, x->line, x->key, x->val + strlen(x->key) + 1, d);
	}
	runspec_free(&rs);
	return rc;
}

void validation_summarize(const struct validation *v, const struct vscore *sc,
			  struct vsummary *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", v->name);
	out->ncells = sc->ncells;
	out->nwithin = sc->nwithin;
	out->norders = v->norders;
	out->nmatch = sc->nmatch;
	for (int i = 0; i < v->norders; i++) {
		const char *why;
		int k;

		if (sc->order_ok[i])
			continue;
		k = out->nfailed++;
		why = validation_missing(v, v->order[i].key);
		out->failed[k] = v->order[i];
		out->explained[k] = why != NULL;
		snprintf(out->why[k], V_NOTE, "%s", why ? why : "");
	}
}

int validation_run(struct validation *v, int workers, struct cmp_set *set, bool *bad_input,
		   struct pm_diag *d)
{
	const char *policy[V_MAX], *label[V_MAX], *sets[2 * V_MAX + 1];
	char kernel[V_NAME + 8];
	struct machine m;
	struct comparison c = {
		.cmd = "validate", .m = &m, .workload = v->workload,
		.cpufreq = v->cpufreq[0] ? v->cpufreq : NULL, .cpuidle = v->cpuidle,
		.duration = (sim_ns)llround(v->duration * NS_PER_SEC), .seed = 1, .runs = v->runs,
		.sets = sets, .policy = policy, .label = label, .npolicies = v->nrows,
		.baseline = validation_row(v, v->baseline), .workers = workers,
	};
	int bad, rc;

	*bad_input = true;
	if (machine_load(&m, v->machine, d) < 0)
		return at_line(v, v->line_machine, "machine", v->machine, d);
	if (v->cpus[0] && runspec_load_machine_cpus(&m, v->cpus, d) < 0)
		return at_line(v, v->line_cpus, "cpus", v->cpus, d);
	if (v->platform_w > 0)
		m.platform_w = v->platform_w;
	v->platform_run = m.platform_w;
	snprintf(kernel, sizeof(kernel), "kernel=%s", v->kernel);
	if (v->kernel[0])
		sets[c.nsets++] = kernel;
	for (int k = 0; k < v->nsetup; k++)
		sets[c.nsets++] = v->setup[k].val;
	for (int k = 0; k < v->nsets; k++)
		sets[c.nsets++] = v->set[k].val;
	if (check_common(v, &m, d) < 0)
		return -1;
	for (int i = 0; i < v->nrows; i++) {
		policy[i] = v->row[i].policy;
		label[i] = v->row[i].name;
	}
	rc = comparison_setup(&c, set, &bad, d);
	if (rc < 0 && bad >= 0) {
		char why[PM_DIAG_MAX];

		snprintf(why, sizeof(why), "%s", d->msg);
		pm_fail_at(d, v->path, v->row[bad].line, "[row %s]: %s", v->row[bad].name, why);
	}
	if (rc == 0) {
		*bad_input = false;
		rc = comparison_run(&c, set, d);
	}
	comparison_free(&c);
	return rc;
}
