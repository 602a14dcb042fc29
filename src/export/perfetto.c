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

struct perfetto {
	FILE *f;
	char *path;
	const struct machine *m;
	int ncpus;
	struct cpu_track *cpu;
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
	fprintf(p->f, "{\"ph\":\"X\",\"cat\":\"%s\",\"pid\":%d,\"tid\":%d", cat,
		PERFETTO_PID_CPUS, PERFETTO_CPU_TID(cpu));
	put_ts(p->f, "ts", c->start);
	put_ts(p->f, "dur", now - c->start);
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
static void counter(struct perfetto *p, int pid, const char *what, int n, const char *suffix,
		    sim_ns now, const char *unit, double v)
{
	fprintf(p->f, "{\"ph\":\"C\",\"pid\":%d,\"name\":\"%s%d %s\"", pid, what, n, suffix);
	put_ts(p->f, "ts", now);
	fprintf(p->f, ",\"args\":{\"%s\":%.9g}},\n", unit, v);
}

static void on_freq(void *ctx, int cpu, sim_ns now, uint32_t khz)
{
	counter(ctx, PERFETTO_PID_FREQ, "cpu", cpu, "freq", now, "MHz", khz / 1000.0);
}

static void on_core_power(void *ctx, int core, sim_ns now, double w)
{
	counter(ctx, PERFETTO_PID_POWER, "core", core, "power", now, "W", w);
}

static void on_uncore_power(void *ctx, int pkg, sim_ns now, double w)
{
	counter(ctx, PERFETTO_PID_POWER, "pkg", pkg, "uncore", now, "W", w);
}

struct perfetto *perfetto_open(const char *path, const struct machine *m, const char *title,
			       struct pm_diag *d)
{
	struct perfetto *p = calloc(1, sizeof(*p));
	if (!p || !(p->path = strdup(path)) ||
	    !(p->cpu = calloc((size_t)m->online_cpus, sizeof(*p->cpu)))) {
		if (p)
			free(p->path);
		free(p);
		pm_fail(d, "out of memory");
		return NULL;
	}
	p->f = fopen(path, "w");
	if (!p->f) {
		pm_fail_at(d, path, 0, "cannot create the timeline: %s", strerror(errno));
		free(p->cpu);
		free(p->path);
		free(p);
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
	free(p->path);
	free(p);
}

int perfetto_close(struct perfetto *p, sim_ns end, struct pm_diag *d)
{
	for (int c = 0; c < p->ncpus; c++)
		end_slice(p, c, end);
	/* The last element: JSON allows no trailing comma. */
	fprintf(p->f, "{\"ph\":\"i\",\"s\":\"g\",\"name\":\"end of run\",\"pid\":%d,\"tid\":0",
		PERFETTO_PID_CPUS);
	put_ts(p->f, "ts", end);
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
