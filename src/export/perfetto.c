// SPDX-License-Identifier: GPL-2.0-only
/* Chrome trace-event JSON, streamed. Slices are complete events ('X')
 * written when they end, since only then is their duration known; 'X'
 * events need not be in time order, counters ('C') are written as they
 * change, which is in time order. Times are microseconds with three
 * decimals, exact for integer nanoseconds. */
#include "perfetto.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum slice { SL_NONE, SL_TASK, SL_IDLE, SL_WAKING };

struct cpu_track {
	enum slice kind;
	sim_ns start;
	int cstate;              /* SL_IDLE, SL_WAKING: the state being left */
	uint32_t task;
	char name[TASK_NAME_MAX];
};

/* A counter's value from before the window, written at its start. */
struct held {
	bool set;
	sim_ns at;
	double v;
};

struct perfetto {
	FILE *f;
	char *path;
	const struct machine *m;
	int ncpus;
	struct cpu_track *cpu;
	struct export_filter filter;
	bool *core_kept, *pkg_kept;       /* a kept CPU is theirs */
	struct held *freq, *core, *uncore; /* per CPU, core, package */
	bool in_window;
	struct sim_observer obs;
	char buf[1 << 16];
};

static void put_ts(FILE *f, const char *key, sim_ns ns)
{
	if (ns < 0)
		ns = 0;
	fprintf(f, ",\"%s\":%" PRId64 ".%03d", key, ns / 1000, (int)(ns % 1000));
}

/* A JSON string: task names come from traces and may hold anything. */
static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f) /* not UTF-8 for sure: keep it ASCII */
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void meta(struct perfetto *p, const char *what, int pid, int tid, const char *key,
		 const char *name, int index)
{
	fprintf(p->f, "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,\"args\":{\"%s\":", what,
		pid, tid, key);
	if (name)
		put_str(p->f, name);
	else
		fprintf(p->f, "%d", index);
	fputs("}},\n", p->f);
}

static void end_slice(struct perfetto *p, int cpu, sim_ns now)
{
	struct cpu_track *c = &p->cpu[cpu];
	if (c->kind == SL_NONE)
		return;
	char name[CSTATE_NAME_MAX + 8];
	const char *cat = "task";
	if (c->kind == SL_IDLE) {
		snprintf(name, sizeof(name), "%s", p->m->cstates[c->cstate].name);
		cat = "idle";
	} else if (c->kind == SL_WAKING) {
		snprintf(name, sizeof(name), "exit %s", p->m->cstates[c->cstate].name);
		cat = "waking";
	}
	sim_ns from = c->start > p->filter.from ? c->start : p->filter.from;
	sim_ns to = now < p->filter.to ? now : p->filter.to;
	if (now < p->filter.from || c->start >= p->filter.to || !export_keeps_cpu(&p->filter, cpu)) {
		c->kind = SL_NONE; /* outside the window, or a CPU not kept */
		return;
	}
	fprintf(p->f, "{\"ph\":\"X\",\"cat\":\"%s\",\"pid\":%d,\"tid\":%d", cat,
		PERFETTO_PID_CPUS, PERFETTO_CPU_TID(cpu));
	put_ts(p->f, "ts", from);
	put_ts(p->f, "dur", to - from);
	fputs(",\"name\":", p->f);
	put_str(p->f, c->kind == SL_TASK ? c->name : name);
	if (c->kind == SL_TASK)
		fprintf(p->f, ",\"args\":{\"task\":%" PRIu32 "}", c->task);
	fputs("},\n", p->f);
	c->kind = SL_NONE;
}

static void on_run(void *ctx, int cpu, sim_ns now, const struct task *t)
{
	struct perfetto *p = ctx;
	end_slice(p, cpu, now);
	struct cpu_track *c = &p->cpu[cpu];
	c->kind = SL_TASK;
	c->start = now;
	c->task = t->id;
	snprintf(c->name, sizeof(c->name), "%s", t->name);
}

static void on_idle(void *ctx, int cpu, sim_ns now, int state)
{
	struct perfetto *p = ctx;
	end_slice(p, cpu, now);
	struct cpu_track *c = &p->cpu[cpu];
	c->kind = SL_IDLE;
	c->start = now;
	c->cstate = state;
}

static void on_waking(void *ctx, int cpu, sim_ns now)
{
	struct perfetto *p = ctx;
	struct cpu_track *c = &p->cpu[cpu];
	int st = c->kind == SL_IDLE ? c->cstate : 0;
	end_slice(p, cpu, now);
	c->kind = SL_WAKING;
	c->start = now;
	c->cstate = st;
}

/* Counter "WHAT<n> SUFFIX" {"unit": v}. */
static void put_counter(struct perfetto *p, int pid, const char *what, int n, const char *suffix,
			sim_ns now, const char *unit, double v)
{
	fprintf(p->f, "{\"ph\":\"C\",\"pid\":%d,\"name\":\"%s%d %s\"", pid, what, n, suffix);
	put_ts(p->f, "ts", now);
	fprintf(p->f, ",\"args\":{\"%s\":%.9g}},\n", unit, v);
}

enum counter_kind { CT_FREQ, CT_CORE, CT_UNCORE };

static void write_counter(struct perfetto *p, enum counter_kind k, int n, sim_ns now, double v)
{
	switch (k) {
	case CT_FREQ: put_counter(p, PERFETTO_PID_FREQ, "cpu", n, "freq", now, "MHz", v); return;
	case CT_CORE: put_counter(p, PERFETTO_PID_POWER, "core", n, "power", now, "W", v); return;
	case CT_UNCORE: put_counter(p, PERFETTO_PID_POWER, "pkg", n, "uncore", now, "W", v); return;
	}
}

/* The values held from before the window, at its start. */
static void enter_window(struct perfetto *p, sim_ns now)
{
	if (p->in_window || now < p->filter.from)
		return;
	p->in_window = true;
	struct { enum counter_kind k; struct held *h; int n; } all[] = {
		{ CT_FREQ, p->freq, p->ncpus },
		{ CT_CORE, p->core, machine_cores(p->m) },
		{ CT_UNCORE, p->uncore, p->m->packages },
	};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		for (int n = 0; n < all[i].n; n++)
			if (all[i].h[n].set)
				write_counter(p, all[i].k, n, p->filter.from, all[i].h[n].v);
}

static void counter(struct perfetto *p, enum counter_kind k, struct held *h, bool kept, int n,
		    sim_ns now, double v)
{
	if (!kept || now >= p->filter.to)
		return;
	enter_window(p, now);
	if (!p->in_window) {
		h[n] = (struct held){ true, now, v };
		return;
	}
	write_counter(p, k, n, now, v);
}

static void on_freq(void *ctx, int cpu, sim_ns now, uint32_t khz)
{
	struct perfetto *p = ctx;
	counter(p, CT_FREQ, p->freq, export_keeps_cpu(&p->filter, cpu), cpu, now, khz / 1000.0);
}

static void on_core_power(void *ctx, int core, sim_ns now, double w)
{
	struct perfetto *p = ctx;
	counter(p, CT_CORE, p->core, p->core_kept[core], core, now, w);
}

static void on_uncore_power(void *ctx, int pkg, sim_ns now, double w)
{
	struct perfetto *p = ctx;
	counter(p, CT_UNCORE, p->uncore, p->pkg_kept[pkg], pkg, now, w);
}

static void release(struct perfetto *p);

struct perfetto *perfetto_open(const char *path, const struct machine *m, const char *title,
			       const struct export_filter *filter, struct pm_diag *d)
{
	struct perfetto *p = calloc(1, sizeof(*p));
	size_t ncores = (size_t)machine_cores(m), npkgs = (size_t)m->packages;
	if (!p || !(p->path = strdup(path)) ||
	    !(p->cpu = calloc((size_t)m->online_cpus, sizeof(*p->cpu))) ||
	    !(p->core_kept = calloc(ncores, sizeof(*p->core_kept))) ||
	    !(p->pkg_kept = calloc(npkgs, sizeof(*p->pkg_kept))) ||
	    !(p->freq = calloc((size_t)m->online_cpus, sizeof(*p->freq))) ||
	    !(p->core = calloc(ncores, sizeof(*p->core))) ||
	    !(p->uncore = calloc(npkgs, sizeof(*p->uncore)))) {
		if (p)
			release(p);
		pm_fail(d, "out of memory");
		return NULL;
	}
	if (filter)
		p->filter = *filter;
	else
		export_filter_all(&p->filter);
	for (int c = 0; c < m->online_cpus; c++)
		if (export_keeps_cpu(&p->filter, c)) {
			p->core_kept[machine_cpu_core(m, c)] = true;
			p->pkg_kept[machine_cpu_package(m, c)] = true;
		}
	p->f = fopen(path, "w");
	if (!p->f) {
		pm_fail_at(d, path, 0, "cannot create the timeline: %s", strerror(errno));
		release(p);
		return NULL;
	}
	setvbuf(p->f, p->buf, _IOFBF, sizeof(p->buf));
	p->m = m;
	p->ncpus = m->online_cpus;
	p->obs = (struct sim_observer){ .ctx = p, .cpu_run = on_run, .cpu_idle = on_idle,
					.cpu_waking = on_waking, .cpu_freq = on_freq,
					.core_power = on_core_power, .uncore_power = on_uncore_power };
	fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"pmlab\",\"machine\":", p->f);
	put_str(p->f, m->name);
	fputs(",\"run\":", p->f);
	put_str(p->f, title ? title : "");
	fputs("},\n\"traceEvents\":[\n", p->f);
	meta(p, "process_name", PERFETTO_PID_CPUS, 0, "name", "CPUs", 0);
	meta(p, "process_sort_index", PERFETTO_PID_CPUS, 0, "sort_index", NULL, 0);
	meta(p, "process_name", PERFETTO_PID_FREQ, 0, "name", "Frequency", 0);
	meta(p, "process_sort_index", PERFETTO_PID_FREQ, 0, "sort_index", NULL, 1);
	meta(p, "process_name", PERFETTO_PID_POWER, 0, "name", "Power", 0);
	meta(p, "process_sort_index", PERFETTO_PID_POWER, 0, "sort_index", NULL, 2);
	for (int c = 0; c < p->ncpus; c++) {
		char name[32];
		if (!export_keeps_cpu(&p->filter, c))
			continue;
		snprintf(name, sizeof(name), "CPU %d", c);
		meta(p, "thread_name", PERFETTO_PID_CPUS, PERFETTO_CPU_TID(c), "name", name, 0);
		meta(p, "thread_sort_index", PERFETTO_PID_CPUS, PERFETTO_CPU_TID(c), "sort_index",
		     NULL, c);
	}
	return p;
}

const struct sim_observer *perfetto_observer(struct perfetto *p)
{
	return &p->obs;
}

static void release(struct perfetto *p)
{
	free(p->cpu);
	free(p->core_kept);
	free(p->pkg_kept);
	free(p->freq);
	free(p->core);
	free(p->uncore);
	free(p->path);
	free(p);
}

uint64_t perfetto_bytes(const struct perfetto *p)
{
	long at = ftell(p->f);
	return at > 0 ? (uint64_t)at : 0;
}

int perfetto_close(struct perfetto *p, sim_ns end, struct pm_diag *d)
{
	for (int c = 0; c < p->ncpus; c++)
		end_slice(p, c, end);
	enter_window(p, end); /* a window that starts after the last change */
	/* The last element: JSON allows no trailing comma. */
	fprintf(p->f, "{\"ph\":\"i\",\"s\":\"g\",\"name\":\"%s\",\"pid\":%d,\"tid\":0",
		end < p->filter.to ? "end of run" : "end of window", PERFETTO_PID_CPUS);
	put_ts(p->f, "ts", end < p->filter.to ? end : p->filter.to);
	fputs("}\n]}\n", p->f);
	int err = ferror(p->f) ? (errno ? errno : EIO) : 0;
	if (fclose(p->f) != 0 && !err)
		err = errno ? errno : EIO;
	int rc = 0;
	if (err)
		rc = pm_fail_at(d, p->path, 0, "cannot write the timeline: %s", strerror(err));
	release(p);
	return rc;
}

void perfetto_discard(struct perfetto *p)
{
	fclose(p->f);
	remove(p->path);
	release(p);
}
