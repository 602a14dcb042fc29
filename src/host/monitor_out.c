// SPDX-License-Identifier: GPL-2.0-only
/* Table, CSV and JSON Lines for the monitor. See monitor_out.h. */
#include "monitor_out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../metrics/inputs.h"
#include "../metrics/texttable.h"

/* 10 significant digits, as every pmlab JSON: 0.022, not 0.021999999999999999 */
#define MON_JSON_FLAGS (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10))
#define MAX_COLS (8 + 4 * HOST_MAX_CSTATES + 8)
#define HEAD_MAX 48

enum col_kind { COL_BUSY, COL_AVG, COL_BZY, COL_CS_PCT, COL_CS_USAGE, COL_CS_BELOW,
		COL_CS_ABOVE, COL_USER, COL_SYS, COL_IOWAIT, COL_STEAL, COL_IDLE, COL_PKG, COL_COR, COL_RAM };

struct col {
	enum col_kind kind;
	int state;
	char head[HEAD_MAX]; /* table heading, turbostat's names */
	char key[HEAD_MAX];  /* CSV column and JSON key */
	int decimals;
};

static int columns(const struct monitor *m, struct col *c)
{
	static const struct {
		enum col_kind kind;
		const char *head, *key;
		int decimals;
	} fixed_head[] = {
		{ COL_BUSY, "Busy%", "busy_pct", 2 },
		{ COL_AVG, "Avg_MHz", "avg_mhz", 0 },
		{ COL_BZY, "Bzy_MHz", "bzy_mhz", 0 },
	}, fixed_tail[] = {
		/* sar's headings; the keys of pmlab sim's CSV and JSON */
		{ COL_USER, "%user", "util_user_pct", 2 },
		{ COL_SYS, "%system", "util_sys_pct", 2 },
		{ COL_IOWAIT, "%iowait", "util_iowait_pct", 2 },
		{ COL_STEAL, "%steal", "util_steal_pct", 2 },
		{ COL_IDLE, "%idle", "util_idle_pct", 2 },
		{ COL_PKG, "PkgWatt", "package_power_w", 2 },
		{ COL_COR, "CorWatt", "core_power_w", 2 },
		{ COL_RAM, "RAMWatt", "ram_power_w", 2 },
	};
	int n = 0;
	for (size_t i = 0; i < sizeof(fixed_head) / sizeof(fixed_head[0]); i++, n++) {
		c[n] = (struct col){ fixed_head[i].kind, 0, "", "", fixed_head[i].decimals };
		snprintf(c[n].head, HEAD_MAX, "%s", fixed_head[i].head);
		snprintf(c[n].key, HEAD_MAX, "%s", fixed_head[i].key);
	}
	/* turbostat: NAME% residency, NAME entries, NAME+ too shallow
	 * (below), NAME- too deep (above). */
	static const struct {
		enum col_kind kind;
		const char *head, *key;
		int decimals;
	} per_state[] = {
		{ COL_CS_PCT, "%", "_pct", 2 },
		{ COL_CS_USAGE, "", "_usage", 0 },
		{ COL_CS_BELOW, "+", "_below", 0 },
		{ COL_CS_ABOVE, "-", "_above", 0 },
	};
	for (int s = 0; s < m->hi.ncstates; s++)
		for (size_t k = 0; k < sizeof(per_state) / sizeof(per_state[0]); k++, n++) {
			c[n] = (struct col){ per_state[k].kind, s, "", "", per_state[k].decimals };
			snprintf(c[n].head, HEAD_MAX, "%.24s%s", m->hi.cstates[s].name,
				 per_state[k].head);
			/* "residency_C1_pct", as pmlab sim writes it */
			snprintf(c[n].key, HEAD_MAX, "%s%.24s%s", k == 0 ? "residency_" : "",
				 m->hi.cstates[s].name, per_state[k].key);
		}
	for (size_t i = 0; i < sizeof(fixed_tail) / sizeof(fixed_tail[0]); i++, n++) {
		c[n] = (struct col){ fixed_tail[i].kind, 0, "", "", fixed_tail[i].decimals };
		snprintf(c[n].head, HEAD_MAX, "%s", fixed_tail[i].head);
		snprintf(c[n].key, HEAD_MAX, "%s", fixed_tail[i].key);
	}
	return n;
}

static double value(const struct col *c, const struct mon_row *r)
{
	switch (c->kind) {
	case COL_BUSY: return r->busy_pct;
	case COL_AVG: return r->avg_mhz;
	case COL_BZY: return r->bzy_mhz;
	case COL_CS_PCT: return r->cs_pct[c->state];
	case COL_CS_USAGE: return r->cs_usage[c->state];
	case COL_CS_BELOW: return r->cs_below[c->state];
	case COL_CS_ABOVE: return r->cs_above[c->state];
	case COL_USER: return r->user_pct;
	case COL_SYS: return r->sys_pct;
	case COL_IOWAIT: return r->iowait_pct;
	case COL_STEAL: return r->steal_pct;
	case COL_IDLE: return r->idle_pct;
	case COL_PKG: return r->pkg_w;
	case COL_COR: return r->cor_w;
	case COL_RAM: return r->ram_w;
	}
	return NAN;
}

static void cell(char *buf, size_t len, double v, int decimals, const char *absent)
{
	if (isnan(v))
		snprintf(buf, len, "%s", absent);
	else
		snprintf(buf, len, "%.*f", decimals, v);
}

/* turbostat's rows, cut to the width (metrics/texttable.h) in groups:
 * the clock, each idle state's four columns, /proc/stat, RAPL. */
static void write_table(struct mon_writer *w, const struct col *c, int n,
			const struct mon_result *r)
{
	struct text_table *t = ttab_new(1, 0);
	char buf[64];

	if (w->header_done)
		fputc('\n', w->out);
	w->header_done = true;
	if (t) {
		ttab_col(t, "CPU", NULL);
		for (int k = 0; k < n; k++) {
			if (k > 0 && (c[k].kind != c[k - 1].kind || c[k].state != c[k - 1].state) &&
			    (c[k].kind == COL_CS_PCT || c[k].kind == COL_USER || c[k].kind == COL_PKG))
				ttab_group(t);
			ttab_col(t, c[k].head, NULL);
		}
		int rows = w->summary_only ? 1 : r->nrows;
		for (int i = 0; i < rows; i++) {
			const struct mon_row *row = &r->rows[i];

			if (row->cpu < 0)
				ttab_cell(t, "-");
			else
				ttab_cellf(t, "%d", row->cpu);
			for (int k = 0; k < n; k++) {
				cell(buf, sizeof(buf), value(&c[k], row), c[k].decimals, "-");
				ttab_cell(t, buf);
			}
		}
		ttab_write(w->out, t);
		ttab_free(t);
	}
	if (w->command)
		fprintf(w->out, "\n%14.3f seconds time elapsed (%s)\n", r->interval_s, w->command);
}

static void write_csv(struct mon_writer *w, const struct col *c, int n,
		      const struct mon_result *r, double t_s)
{
	char buf[64];
	if (!w->header_done) {
		fprintf(w->out, "time_s,interval_s,cpu");
		for (int k = 0; k < n; k++)
			fprintf(w->out, ",%s", c[k].key);
		fputc('\n', w->out);
		w->header_done = true;
	}
	int rows = w->summary_only ? 1 : r->nrows;
	for (int i = 0; i < rows; i++) {
		const struct mon_row *row = &r->rows[i];
		fprintf(w->out, "%.3f,%.3f,", t_s, r->interval_s);
		if (row->cpu < 0)
			fprintf(w->out, "all");
		else
			fprintf(w->out, "%d", row->cpu);
		for (int k = 0; k < n; k++) {
			cell(buf, sizeof(buf), value(&c[k], row), c[k].decimals, "");
			fprintf(w->out, ",%s", buf);
		}
		fputc('\n', w->out);
	}
}

static json_t *jnum(double v, int decimals)
{
	if (isnan(v))
		return json_null();
	double scale = pow(10, decimals);
	return decimals ? json_real(round(v * scale) / scale) : json_integer((json_int_t)llround(v));
}

static json_t *json_row(const struct col *c, int n, const struct mon_row *row)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	if (row->cpu >= 0)
		json_object_set_new(o, "cpu", json_integer(row->cpu));
	for (int k = 0; k < n; k++)
		json_object_set_new(o, c[k].key, jnum(value(&c[k], row), c[k].decimals));
	return o;
}

static int write_json(struct mon_writer *w, const struct col *c, int n,
		      const struct mon_result *r, double t_s)
{
	json_t *root = json_object(), *cpus = json_array();
	if (!root || !cpus) {
		json_decref(root);
		json_decref(cpus);
		return -1;
	}
	json_object_set_new(root, "time_s", jnum(t_s, 3));
	json_object_set_new(root, "interval_s", jnum(r->interval_s, 3));
	if (w->command) {
		json_object_set_new(root, "command", json_string(w->command));
		json_object_set_new(root, "elapsed_s", jnum(r->interval_s, 3));
	}
	json_object_set_new(root, "summary", json_row(c, n, &r->rows[0]));
	for (int i = 1; !w->summary_only && i < r->nrows; i++)
		json_array_append_new(cpus, json_row(c, n, &r->rows[i]));
	json_object_set_new(root, "cpus", cpus);
	int rc = json_dumpf(root, w->out, MON_JSON_FLAGS);
	json_decref(root);
	fputc('\n', w->out);
	return rc;
}

/* The inputs, once, before the first interval. */
static int write_inputs(struct mon_writer *w)
{
	json_t *root, *in;

	switch (w->format) {
	case MON_TABLE:
		inputs_write_table(w->out, w->inputs);
		fputc('\n', w->out);
		return 0;
	case MON_CSV:
		inputs_write_csv(w->out, w->inputs);
		return 0;
	case MON_JSON:
		root = json_object();
		in = inputs_json(w->inputs);
		if (!root || !in || json_object_set_new(root, "inputs", in) != 0) {
			json_decref(root);
			return -1;
		}
		int rc = json_dumpf(root, w->out, JSON_COMPACT | JSON_PRESERVE_ORDER);
		json_decref(root);
		fputc('\n', w->out);
		return rc;
	}
	return 0;
}

int mon_write(struct mon_writer *w, const struct mon_result *r, double t_s)
{
	struct col c[MAX_COLS];
	int n = columns(w->m, c);
	if (w->inputs && !w->inputs_done) {
		w->inputs_done = true;
		if (write_inputs(w) < 0)
			return -1;
	}
	switch (w->format) {
	case MON_TABLE:
		write_table(w, c, n, r);
		break;
	case MON_CSV:
		write_csv(w, c, n, r, t_s);
		break;
	case MON_JSON:
		if (write_json(w, c, n, r, t_s) < 0)
			return -1;
		break;
	}
	return fflush(w->out) == 0 && !ferror(w->out) ? 0 : -1;
}
