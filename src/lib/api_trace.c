// SPDX-License-Identifier: GPL-2.0-only
/* Recorded traces as handles: a kernel trace (trace.dat through
 * libtracecmd, or ftrace text) as its scheduler and power events, or the
 * CSV traces that pmlab idletrace (idle periods) and pmlab govtrace
 * (util-hook calls) read, parsed by the readers those commands use. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/readall.h"
#include "../cpufreq/govtrace.h"
#include "../cpuidle/idletrace.h"
#include "../trace/ftrace_text.h"
#include "../trace/trace_read.h"
#include "../trace/tracedat.h"
#include "lib_trace.h"

struct events {
	struct pmlab_trace *t;
	size_t cap;
};

static int keep_event(void *ctx, const struct trace_event *ev, struct pm_diag *d)
{
	struct events *e = ctx;
	struct pmlab_trace *t = e->t;

	if (t->nevents == e->cap) {
		size_t cap = e->cap ? 2 * e->cap : 1024;
		struct trace_event *grown = realloc(t->events, cap * sizeof(*grown));
		if (!grown)
			return pm_fail(d, "out of memory");
		t->events = grown;
		e->cap = cap;
	}
	t->events[t->nevents++] = *ev;
	return 0;
}

/* The first line that is not blank or a '#' comment starts with word. */
static bool header_is(const char *text, size_t len, const char *word)
{
	size_t pos = 0, n = strlen(word);

	while (pos < len) {
		const char *s = text + pos, *nl = memchr(s, '\n', len - pos);
		size_t line = nl ? (size_t)(nl - s) : len - pos;
		size_t skip = strspn(s, " \t\r");

		if (skip < line && s[skip] != '#')
			return line - skip >= n && memcmp(s + skip, word, n) == 0;
		pos += line + 1;
	}
	return false;
}

static pmlab_trace_kind kind_of(const char *text, size_t len)
{
	if (header_is(text, len, "next_timer_us"))
		return PMLAB_TRACE_IDLE;
	if (header_is(text, len, "t_us"))
		return PMLAB_TRACE_UTIL;
	return PMLAB_TRACE_EVENTS;
}

static pmlab_status parsed(struct pmlab_trace *t, int rc, const struct pm_diag *d,
			   pmlab_trace **out, pmlab_error *err)
{
	if (rc < 0) {
		pmlab_status code = strcmp(d->msg, "out of memory") == 0 ? PMLAB_ERR_NOMEM
									  : PMLAB_ERR_INPUT;
		pmlab_trace_free(t);
		return lib_fail_diag(err, code, d);
	}
	*out = t;
	return lib_ok(err);
}

pmlab_status pmlab_trace_parse(const char *text, size_t len, const char *where,
			       pmlab_trace_kind kind, pmlab_trace **out, pmlab_error *err)
{
	struct pm_diag d = { { 0 } };
	struct pmlab_trace *t;
	int rc;

	*out = NULL;
	if (!text && len > 0)
		return lib_fail(err, PMLAB_ERR_INPUT, "trace: expected a text");
	if ((unsigned)kind > PMLAB_TRACE_UTIL)
		return lib_fail(err, PMLAB_ERR_INPUT, "trace: kind %d: expected a pmlab_trace_kind",
				(int)kind);
	t = calloc(1, sizeof(*t));
	if (!t || !(t->name = strdup(where && *where ? where : "trace")))
		return parsed(t, pm_fail(&d, "out of memory"), &d, out, err);
	t->kind = kind == PMLAB_TRACE_ANY ? kind_of(text ? text : "", len) : kind;
	switch (t->kind) {
	case PMLAB_TRACE_IDLE:
		t->format = "idletrace CSV";
		rc = idletrace_parse(&t->idle, text ? text : "", len, t->name, &d);
		break;
	case PMLAB_TRACE_UTIL:
		t->format = "govtrace CSV";
		rc = govtrace_parse(text ? text : "", len, t->name, &t->util, &d);
		break;
	default:
		if (tracedat_magic((const unsigned char *)text, len)) {
			rc = pm_fail_at(&d, t->name, 0, "a trace.dat is read from its file "
				        "(pmlab_trace_load), not from memory");
			break;
		}
		rc = ftrace_text_read_buf(text ? text : "", len, t->name, keep_event,
					  &(struct events){ t, 0 }, &t->info, &d);
		t->format = t->info.format ? t->info.format : "ftrace text";
		break;
	}
	return parsed(t, rc, &d, out, err);
}

/* The whole file at path into *text; -1 with the reason in d. */
static int read_file(const char *path, char **text, size_t *len, struct pm_diag *d)
{
	FILE *f = fopen(path, "rb");
	const char *why;

	if (!f)
		return pm_fail_at(d, path, 0, "cannot open: %s", strerror(errno));
	why = read_whole(f, text, len);
	fclose(f);
	return why ? pm_fail_at(d, path, 0, "cannot read: %s", why) : 0;
}

pmlab_status pmlab_trace_load(const char *path, pmlab_trace_kind kind, pmlab_trace **out,
			      pmlab_error *err)
{
	struct pm_diag d = { { 0 } };
	unsigned char head[16];
	struct pmlab_trace *t;
	char *text = NULL;
	size_t len = 0, n;
	FILE *f;
	pmlab_status rc;

	*out = NULL;
	if (!path || !*path)
		return lib_fail(err, PMLAB_ERR_INPUT, "trace: expected the path of a file");
	if (!(f = fopen(path, "rb")))
		return lib_fail(err, PMLAB_ERR_INPUT, "%s: cannot open: %s", path, strerror(errno));
	n = fread(head, 1, sizeof(head), f);
	fclose(f);
	if (tracedat_magic(head, n) && (kind == PMLAB_TRACE_ANY || kind == PMLAB_TRACE_EVENTS)) {
		t = calloc(1, sizeof(*t));
		if (!t || !(t->name = strdup(path)))
			return parsed(t, pm_fail(&d, "out of memory"), &d, out, err);
		t->kind = PMLAB_TRACE_EVENTS;
		rc = parsed(t, trace_read(path, keep_event, &(struct events){ t, 0 }, &t->info, &d),
			    &d, out, err);
		if (rc == PMLAB_OK)
			t->format = t->info.format ? t->info.format : "trace.dat";
		return rc;
	}
	if (read_file(path, &text, &len, &d) < 0)
		return lib_fail_diag(err, PMLAB_ERR_INPUT, &d);
	rc = pmlab_trace_parse(text, len, path, kind, out, err);
	free(text);
	return rc;
}

void pmlab_trace_free(pmlab_trace *t)
{
	if (!t)
		return;
	idletrace_free(&t->idle);
	govtrace_input_free(&t->util);
	free(t->events);
	free(t->name);
	free(t);
}

pmlab_trace_kind pmlab_trace_kind_of(const pmlab_trace *t)
{
	return t->kind;
}

const char *pmlab_trace_format(const pmlab_trace *t)
{
	return t->format;
}

size_t pmlab_trace_count(const pmlab_trace *t)
{
	switch (t->kind) {
	case PMLAB_TRACE_IDLE: return (size_t)t->idle.nrows;
	case PMLAB_TRACE_UTIL: return t->util.nrows;
	default: return t->nevents;
	}
}

int pmlab_trace_cpus(const pmlab_trace *t)
{
	int n = t->kind == PMLAB_TRACE_EVENTS ? t->info.ncpus : 1;

	for (size_t i = 0; t->kind == PMLAB_TRACE_EVENTS && i < t->nevents; i++) {
		const struct trace_event *ev = &t->events[i];
		int cpu = (ev->kind == TEV_FREQ || ev->kind == TEV_IDLE) ? ev->arg : ev->cpu;
		if (cpu >= n)
			n = cpu + 1;
	}
	return n;
}

uint64_t pmlab_trace_lost(const pmlab_trace *t)
{
	return t->kind == PMLAB_TRACE_EVENTS ? t->info.lost : 0;
}

static const char *event_name(enum trace_kind k)
{
	static const char *const names[] = {
		[TEV_SWITCH] = "sched_switch", [TEV_WAKING] = "sched_waking",
		[TEV_WAKEUP] = "sched_wakeup", [TEV_WAKEUP_NEW] = "sched_wakeup_new",
		[TEV_FORK] = "sched_process_fork", [TEV_EXIT] = "sched_process_exit",
		[TEV_MIGRATE] = "sched_migrate_task", [TEV_FREQ] = "cpu_frequency",
		[TEV_IDLE] = "cpu_idle", [TEV_TIMER_ENTRY] = "timer_expire_entry",
		[TEV_TIMER_EXIT] = "timer_expire_exit", [TEV_LOST] = "lost", [TEV_OTHER] = "other",
	};
	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "other";
}

/* A comm as a CSV cell: quoted when it holds a comma, a quote or a line end. */
static void put_comm(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void write_events(FILE *out, const struct pmlab_trace *t)
{
	static const char *const states[] = {
		[TPS_RUNNABLE] = "R", [TPS_SLEEP] = "S", [TPS_DISK] = "D", [TPS_DEAD] = "X",
	};

	fputs("ts_ns,cpu,event,pid,comm,pid2,comm2,prev_state,value,target_cpu,ctx_pid,"
	      "irq_ctx,where\n", out);
	for (size_t i = 0; i < t->nevents; i++) {
		const struct trace_event *ev = &t->events[i];
		bool cpu_state = ev->kind == TEV_FREQ || ev->kind == TEV_IDLE;

		fprintf(out, "%" PRId64 ",%d,%s,%d,", ev->ts, ev->cpu, event_name(ev->kind), ev->pid);
		put_comm(out, ev->comm);
		fprintf(out, ",%d,", ev->pid2);
		put_comm(out, ev->comm2);
		fprintf(out, ",%s,", ev->kind == TEV_SWITCH ? states[ev->state] : "");
		/* cpu_idle's exit (PWR_EVENT_EXIT, (u32)-1) as -1 */
		if (ev->kind == TEV_IDLE && ev->value == UINT32_MAX)
			fputs("-1", out);
		else if (cpu_state || ev->kind == TEV_LOST)
			fprintf(out, "%" PRIu64, ev->value);
		fputc(',', out);
		if (cpu_state || ev->kind == TEV_MIGRATE)
			fprintf(out, "%d", ev->arg);
		fprintf(out, ",%d,%s,%ld\n", ev->ctx_pid,
			!(ev->ctx & TEV_CTX_KNOWN) ? ""
			: ev->ctx & TEV_CTX_HARDIRQ ? "hardirq"
			: ev->ctx & TEV_CTX_SOFTIRQ ? "softirq" : "task",
			ev->where);
	}
}

static void write_us(FILE *out, sim_ns ns)
{
	fprintf(out, "%" PRId64 ".%03" PRId64, ns / 1000, ns % 1000);
}

static void write_idle(FILE *out, const struct idletrace *t)
{
	fputs("next_timer_us,idle_us,latency_limit_us\n", out);
	for (int i = 0; i < t->nrows; i++) {
		write_us(out, t->rows[i].next_timer_ns);
		fputc(',', out);
		write_us(out, t->rows[i].idle_ns);
		fputc(',', out);
		if (t->rows[i].latency_limit_ns != SIM_NS_MAX)
			write_us(out, t->rows[i].latency_limit_ns);
		fputc('\n', out);
	}
}

static void write_util(FILE *out, const struct govtrace_input *in)
{
	fputs("t_us,busy_us,iowait_us,idle_us,util,iowait_wakeup\n", out);
	for (size_t i = 0; i < in->nrows; i++) {
		const struct govtrace_row *r = &in->rows[i];
		fprintf(out, "%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",", r->t_us, r->busy_us,
			r->iowait_us, r->idle_us);
		if (in->has_util)
			fprintf(out, "%d", r->util);
		fprintf(out, ",%d\n", (r->flags & CPUFREQ_UPDATE_IOWAIT) ? 1 : 0);
	}
}

char *pmlab_trace_csv(const pmlab_trace *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	if (!out)
		return NULL;
	switch (t->kind) {
	case PMLAB_TRACE_IDLE: write_idle(out, &t->idle); break;
	case PMLAB_TRACE_UTIL: write_util(out, &t->util); break;
	default: write_events(out, t); break;
	}
	if (fclose(out) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}
