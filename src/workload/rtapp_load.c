// SPDX-License-Identifier: GPL-2.0-only
/* The rt-app JSON loader (format: scheduler-tools/rt-app doc/tutorial.txt
 * and src/rt-app_parse_config.c). Keys are read in file order (jansson
 * keeps it); events are recognised by prefix as rt-app does, so workgen's
 * numbered keys ("run0", "sleep1") work, and "runtime" is tested before
 * "run". Duplicate keys are an error rather than rt-app's silent
 * last-one-wins. */
#include "rtapp.h"

#include "../core/jsonpos.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kernel's sched_prio_to_weight[], nice -20..19. */
static const int nice_weight[40] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548,  7620,  6100,  4904,  3906,  3121,  2501,  1991,  1586,  1277,
	1024,  820,   655,   526,   423,   335,   272,   215,   172,   137,
	110,   87,    70,    56,    45,    36,    29,    23,    18,    15,
};
#define WEIGHT_IDLEPRIO 3 /* SCHED_IDLE */
#define UCLAMP_MAX 1024
#define US_MAX INT32_MAX  /* rt-app reads durations into an int */

/* Pseudo-kinds for the event table. */
enum { EV_SYNC = 100, EV_UNSUPPORTED };

static const struct {
	const char *prefix;
	int kind;
} event_prefixes[] = {
	{ "lock", RTAPP_LOCK },       { "unlock", RTAPP_UNLOCK },   { "wait", RTAPP_WAIT },
	{ "signal", RTAPP_SIGNAL },   { "broad", RTAPP_BROAD },     { "sync", EV_SYNC },
	{ "sleep", RTAPP_SLEEP },     { "runtime", RTAPP_RUNTIME }, { "run", RTAPP_RUN },
	{ "timer", RTAPP_TIMER },     { "suspend", EV_UNSUPPORTED }, { "resume", EV_UNSUPPORTED },
	{ "mem", EV_UNSUPPORTED },    { "iorun", RTAPP_IORUN },     { "yield", RTAPP_YIELD },
	{ "barrier", RTAPP_BARRIER }, { "fork", RTAPP_FORK },
};

/* Keys with no effect in a simulation: rt-app's logging and process
 * settings. */
static const char *const global_noop_keys[] = {
	"pi_enabled", "lock_pages", "logdir", "log_basename", "log_size", "ftrace",
	"gnuplot", "io_device", "mem_buffer_size", NULL,
};

static const char *const sched_keys[] = { "cpus", "util_min", "util_max", "policy", "priority",
					  NULL };
static const char *const thread_only_keys[] = { "instance", "delay", "phases", NULL };

struct loader {
	struct rtapp_spec *spec;
	const char *where;
	int ncpus;
	struct pm_diag *d;
	json_t *tasks;
	bool default_idle; /* global default_policy is SCHED_IDLE */
	int64_t instances;
	struct json_pos pos;  /* where each value starts, for messages */
	const json_t *obj;    /* the object being read: the line of last resort */
};

/* "WHERE:LINE: ..." with the line where `at` starts (the enclosing
 * object's when `at` is true, false or null: jansson shares those). */
static int fail(struct loader *L, const json_t *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct loader *L, const json_t *at, const char *fmt, ...)
{
	char body[PM_DIAG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(body, sizeof(body), fmt, ap);
	va_end(ap);
	int line = json_is_boolean(at) || json_is_null(at) ? 0 : json_pos_line(&L->pos, at);
	if (!line)
		line = json_pos_line(&L->pos, L->obj);
	return pm_fail_at(L->d, L->where, line, "%s", body);
}

static bool in_list(const char *const *list, const char *key)
{
	for (int i = 0; list[i]; i++)
		if (strcmp(list[i], key) == 0)
			return true;
	return false;
}

static int get_int(struct loader *L, const char *ctx, const char *key, const json_t *v,
		   int64_t min, int64_t max, int64_t *out)
{
	if (!json_is_integer(v))
		return fail(L, v, "%s: '%s' must be an integer", ctx, key);
	json_int_t x = json_integer_value(v);
	if (x < min || x > max)
		return fail(L, v, "%s: '%s' = %lld is out of range (expected %lld..%lld)", ctx, key,
			    (long long)x, (long long)min, (long long)max);
	*out = x;
	return 0;
}

static const char *get_string(struct loader *L, const char *ctx, const char *key, const json_t *v)
{
	if (!json_is_string(v)) {
		fail(L, v, "%s: '%s' must be a string", ctx, key);
		return NULL;
	}
	return json_string_value(v);
}

/* Index of resource (name, kind), added if new; -1 on OOM. */
static int resource(struct loader *L, const char *name, enum rtapp_resource_kind kind)
{
	struct rtapp_spec *sp = L->spec;
	for (int i = 0; i < sp->nres; i++)
		if (sp->res[i].kind == kind && strcmp(sp->res[i].name, name) == 0)
			return i;
	struct rtapp_resource *grown = realloc(sp->res, (size_t)(sp->nres + 1) * sizeof(*grown));
	if (!grown)
		return fail(L, NULL, "out of memory");
	sp->res = grown;
	struct rtapp_resource *r = &sp->res[sp->nres];
	*r = (struct rtapp_resource){ .name = strdup(name), .kind = kind };
	if (!r->name)
		return fail(L, NULL, "out of memory");
	return sp->nres++;
}

static int add_event(struct loader *L, struct rtapp_phase *ph, struct rtapp_event ev)
{
	struct rtapp_event *grown = realloc(ph->events, (size_t)(ph->nevents + 1) * sizeof(*grown));
	if (!grown)
		return fail(L, NULL, "out of memory");
	ph->events = grown;
	ph->events[ph->nevents++] = ev;
	return 0;
}

static int event_kind(const char *key)
{
	for (size_t i = 0; i < sizeof(event_prefixes) / sizeof(event_prefixes[0]); i++)
		if (strncmp(key, event_prefixes[i].prefix, strlen(event_prefixes[i].prefix)) == 0)
			return event_prefixes[i].kind;
	return -1;
}

static int thread_index(struct loader *L, const char *name)
{
	int i = 0;
	const char *key;
	json_t *v;
	json_object_foreach(L->tasks, key, v) {
		if (strcmp(key, name) == 0)
			return i;
		i++;
	}
	return -1;
}

/* {"ref": NAME, "mutex": NAME} of wait and sync. */
static int parse_wait_object(struct loader *L, const char *ctx, const char *key, const json_t *v,
			     int *cond, int *mutex)
{
	if (!json_is_object(v))
		return fail(L, v, "%s: '%s' must be an object {\"ref\": ..., \"mutex\": ...}", ctx, key);
	const char *k;
	json_t *x;
	const char *ref = NULL, *mtx = NULL;
	json_object_foreach((json_t *)v, k, x) {
		if (strcmp(k, "ref") == 0) {
			if (!(ref = get_string(L, ctx, "ref", x)))
				return -1;
		} else if (strcmp(k, "mutex") == 0) {
			if (!(mtx = get_string(L, ctx, "mutex", x)))
				return -1;
		} else {
			return fail(L, x, "%s: '%s': unsupported key '%s' (expected ref, mutex)", ctx, key, k);
		}
	}
	if (!ref || !mtx)
		return fail(L, v, "%s: '%s' needs both \"ref\" and \"mutex\"", ctx, key);
	if ((*cond = resource(L, ref, RTAPP_COND)) < 0 || (*mutex = resource(L, mtx, RTAPP_MUTEX)) < 0)
		return -1;
	return 0;
}

static int parse_timer(struct loader *L, const char *ctx, const char *key, const json_t *v,
		       struct rtapp_event *ev)
{
	if (!json_is_object(v))
		return fail(L, v, "%s: '%s' must be an object {\"ref\": ..., \"period\": ...}", ctx, key);
	const char *k, *ref = NULL;
	json_t *x;
	bool absolute = false, have_period = false;
	json_object_foreach((json_t *)v, k, x) {
		if (strcmp(k, "ref") == 0) {
			if (!(ref = get_string(L, ctx, "ref", x)))
				return -1;
		} else if (strcmp(k, "period") == 0) {
			if (get_int(L, ctx, "period", x, 0, US_MAX, &ev->value) < 0)
				return -1;
			have_period = true;
		} else if (strcmp(k, "mode") == 0) {
			const char *mode = get_string(L, ctx, "mode", x);
			if (!mode)
				return -1;
			if (strcmp(mode, "absolute") == 0)
				absolute = true;
			else if (strcmp(mode, "relative") != 0)
				return fail(L, x, "%s: '%s': mode '%s' (expected relative or absolute)", ctx,
					    key, mode);
		} else {
			return fail(L, x, "%s: '%s': unsupported key '%s' (expected ref, period, mode)", ctx,
				    key, k);
		}
	}
	if (!ref || !have_period)
		return fail(L, v, "%s: '%s' needs \"ref\" and \"period\"", ctx, key);
	ev->kind = RTAPP_TIMER;
	if ((ev->res = resource(L, ref, RTAPP_TIMER_RES)) < 0)
		return -1;
	struct rtapp_resource *r = &L->spec->res[ev->res];
	r->unique = strncmp(ref, "unique", 6) == 0;
	r->absolute = r->absolute || absolute; /* as rt-app: any absolute use makes it so */
	return 0;
}

static int parse_event(struct loader *L, const char *ctx, const char *key, const json_t *v,
		       int kind, struct rtapp_phase *ph)
{
	struct rtapp_event ev = { .kind = (enum rtapp_event_kind)kind, .res = -1, .mutex = -1 };
	const char *name;
	switch (kind) {
	case EV_UNSUPPORTED:
		return fail(L, v, "%s: event '%s' is not supported by the simulator "
			    "(supported: run, runtime, sleep, timer, lock, unlock, wait, signal, "
			    "broad, sync, barrier, fork, yield, iorun)", ctx, key);
	case RTAPP_RUN:
	case RTAPP_RUNTIME:
	case RTAPP_SLEEP:
		if (get_int(L, ctx, key, v, 0, US_MAX, &ev.value) < 0)
			return -1;
		return add_event(L, ph, ev);
	case RTAPP_IORUN:
		if (get_int(L, ctx, key, v, 0, INT32_MAX, &ev.value) < 0)
			return -1;
		return add_event(L, ph, ev);
	case RTAPP_TIMER:
		if (parse_timer(L, ctx, key, v, &ev) < 0)
			return -1;
		return add_event(L, ph, ev);
	case RTAPP_LOCK:
	case RTAPP_UNLOCK:
	case RTAPP_SIGNAL:
	case RTAPP_BROAD:
	case RTAPP_BARRIER:
	case RTAPP_FORK: {
		if (!(name = get_string(L, ctx, key, v)))
			return -1;
		if (kind == RTAPP_FORK) {
			ev.res = thread_index(L, name);
			if (ev.res < 0)
				return fail(L, v, "%s: '%s': no task named '%s' to fork", ctx, key, name);
			L->spec->threads[ev.res].forked = true;
		} else {
			enum rtapp_resource_kind rk = kind == RTAPP_LOCK || kind == RTAPP_UNLOCK
							      ? RTAPP_MUTEX
						      : kind == RTAPP_BARRIER ? RTAPP_BARRIER_RES
									      : RTAPP_COND;
			if ((ev.res = resource(L, name, rk)) < 0)
				return -1;
		}
		return add_event(L, ph, ev);
	}
	case RTAPP_YIELD:
		return add_event(L, ph, ev);
	case RTAPP_WAIT:
		if (parse_wait_object(L, ctx, key, v, &ev.res, &ev.mutex) < 0)
			return -1;
		return add_event(L, ph, ev);
	default: { /* sync: rt-app's lock, signal, wait, unlock on the same pair */
		int cond, mutex;
		if (parse_wait_object(L, ctx, key, v, &cond, &mutex) < 0)
			return -1;
		struct rtapp_event seq[] = {
			{ .kind = RTAPP_LOCK, .res = mutex, .mutex = -1 },
			{ .kind = RTAPP_SIGNAL, .res = cond, .mutex = -1 },
			{ .kind = RTAPP_WAIT, .res = cond, .mutex = mutex },
			{ .kind = RTAPP_UNLOCK, .res = mutex, .mutex = -1 },
		};
		for (size_t i = 0; i < sizeof(seq) / sizeof(seq[0]); i++)
			if (add_event(L, ph, seq[i]) < 0)
				return -1;
		return 0;
	}
	}
}

/* policy, priority, util_min, util_max, cpus of a thread (`thread`: the
 * defaults apply) or phase object (unset ones stay unchanged). */
static int parse_sched(struct loader *L, const char *ctx, const json_t *obj, bool thread,
		       struct rtapp_sched *sc)
{
	json_t *v;
	bool idle = thread && L->default_idle, other = thread && !L->default_idle;
	*sc = (struct rtapp_sched){ .weight = -1, .util_min = -1, .util_max = -1 };
	if ((v = json_object_get(obj, "policy"))) {
		const char *p = get_string(L, ctx, "policy", v);
		if (!p)
			return -1;
		if (strcmp(p, "SCHED_OTHER") == 0) {
			other = true;
			idle = false;
		} else if (strcmp(p, "SCHED_IDLE") == 0) {
			idle = true;
			other = false;
		} else if (!strcmp(p, "SCHED_FIFO") || !strcmp(p, "SCHED_RR") ||
			   !strcmp(p, "SCHED_DEADLINE")) {
			return fail(L, v, "%s: policy %s is not simulated (pmlab schedules CFS tasks: "
				    "SCHED_OTHER, SCHED_IDLE)", ctx, p);
		} else {
			return fail(L, v, "%s: unknown policy '%s' (expected SCHED_OTHER or SCHED_IDLE)",
				    ctx, p);
		}
	}
	if ((v = json_object_get(obj, "priority"))) {
		int64_t nice = 0;
		if (get_int(L, ctx, "priority", v, -20, 19, &nice) < 0)
			return -1;
		sc->weight = nice_weight[nice + 20];
	} else if (other) {
		sc->weight = nice_weight[20];
	}
	if (idle)
		sc->weight = WEIGHT_IDLEPRIO;
	int64_t x = 0;
	if ((v = json_object_get(obj, "util_min"))) {
		if (get_int(L, ctx, "util_min", v, 0, UCLAMP_MAX, &x) < 0)
			return -1;
		sc->util_min = (int)x;
	}
	if ((v = json_object_get(obj, "util_max"))) {
		if (get_int(L, ctx, "util_max", v, 0, UCLAMP_MAX, &x) < 0)
			return -1;
		sc->util_max = (int)x;
	}
	if (sc->util_min >= 0 && sc->util_max >= 0 && sc->util_min > sc->util_max)
		return fail(L, json_object_get(obj, "util_max"), "%s: util_min %d is above util_max %d", ctx, sc->util_min, sc->util_max);
	if ((v = json_object_get(obj, "cpus"))) {
		size_t n = json_array_size(v);
		if (!json_is_array(v) || n == 0)
			return fail(L, v, "%s: 'cpus' must be a non-empty array of CPU numbers", ctx);
		sc->cpus = calloc(n, sizeof(*sc->cpus));
		if (!sc->cpus)
			return fail(L, NULL, "out of memory");
		sc->ncpus = (int)n;
		for (size_t i = 0; i < n; i++) {
			int64_t cpu;
			json_t *c = json_array_get(v, i);
			if (!json_is_integer(c))
				return fail(L, c, "%s: 'cpus' must hold integers", ctx);
			cpu = json_integer_value(c);
			if (cpu < 0 || cpu >= L->ncpus)
				return fail(L, c, "%s: cpus: CPU %lld is not online (expected 0..%d)", ctx,
					    (long long)cpu, L->ncpus - 1);
			sc->cpus[i] = (int)cpu;
		}
	}
	return 0;
}

/* A phase object, or a thread object holding one phase inline (then the
 * thread's own keys are skipped here). */
static int parse_phase(struct loader *L, const char *ctx, const json_t *obj, bool inline_phase,
		       struct rtapp_phase *ph)
{
	const char *key;
	json_t *v;
	ph->loop = 1;
	L->obj = obj;
	if (!inline_phase && parse_sched(L, ctx, obj, false, &ph->sched) < 0)
		return -1;
	if (inline_phase)
		ph->sched = (struct rtapp_sched){ .weight = -1, .util_min = -1, .util_max = -1 };
	json_object_foreach((json_t *)obj, key, v) {
		if (in_list(sched_keys, key) || (inline_phase && in_list(thread_only_keys, key)))
			continue;
		if (strcmp(key, "loop") == 0) {
			if (get_int(L, ctx, "loop", v, -1, INT32_MAX, &ph->loop) < 0)
				return -1;
			if (ph->loop == 0)
				return fail(L, v, "%s: loop 0 (expected -1 for ever or a positive count)", ctx);
			continue;
		}
		int kind = event_kind(key);
		if (kind < 0)
			return fail(L, v, "%s: unsupported key '%s'", ctx, key);
		if (parse_event(L, ctx, key, v, kind, ph) < 0)
			return -1;
	}
	if (ph->nevents == 0)
		return fail(L, obj, "%s: no events (a phase needs at least one, e.g. \"run\": 1000)", ctx);
	return 0;
}

static int parse_thread(struct loader *L, const char *name, const json_t *obj,
			struct rtapp_thread *th)
{
	char ctx[160];
	snprintf(ctx, sizeof(ctx), "task '%.100s'", name);
	L->obj = obj;
	if (!json_is_object(obj))
		return fail(L, obj, "%s must be an object", ctx);
	json_t *v;
	th->instances = 1;
	th->loop = -1;
	if ((v = json_object_get(obj, "instance")) &&
	    get_int(L, ctx, "instance", v, 0, RTAPP_MAX_TASKS, &th->instances) < 0)
		return -1;
	L->instances += th->instances;
	if (L->instances > RTAPP_MAX_TASKS)
		return fail(L, json_object_get(obj, "instance"), "%s: more than %d task instances in all", ctx, RTAPP_MAX_TASKS);
	if ((v = json_object_get(obj, "delay")) &&
	    get_int(L, ctx, "delay", v, 0, US_MAX, &th->delay_us) < 0)
		return -1;
	if (parse_sched(L, ctx, obj, true, &th->sched) < 0)
		return -1;
	json_t *phases = json_object_get(obj, "phases");
	if (!phases) {
		th->phases = calloc(1, sizeof(*th->phases));
		if (!th->phases)
			return fail(L, NULL, "out of memory");
		th->nphases = 1;
		if (parse_phase(L, ctx, obj, true, &th->phases[0]) < 0)
			return -1;
		/* rt-app: a "loop" beside inline events counts the phase's runs,
		 * and the thread then runs it once; without one it loops for ever. */
		th->loop = json_object_get(obj, "loop") ? 1 : -1;
		return 0;
	}
	const char *key;
	json_object_foreach((json_t *)obj, key, v) {
		if (strcmp(key, "loop") == 0) {
			if (get_int(L, ctx, "loop", v, -1, INT32_MAX, &th->loop) < 0)
				return -1;
		} else if (!in_list(sched_keys, key) && !in_list(thread_only_keys, key)) {
			return fail(L, v, "%s: unsupported key '%s'%s", ctx, key,
				    event_kind(key) >= 0 ? " (with \"phases\", events go in the phases)"
							 : "");
		}
	}
	size_t n = json_object_size(phases);
	if (!json_is_object(phases) || n == 0)
		return fail(L, phases, "%s: 'phases' must be an object of one or more phases", ctx);
	th->phases = calloc(n, sizeof(*th->phases));
	if (!th->phases)
		return fail(L, NULL, "out of memory");
	json_object_foreach(phases, key, v) {
		char pctx[320];
		snprintf(pctx, sizeof(pctx), "%s phase '%.100s'", ctx, key);
		if (!json_is_object(v))
			return fail(L, v, "%s must be an object", pctx);
		if (parse_phase(L, pctx, v, false, &th->phases[th->nphases++]) < 0)
			return -1;
	}
	return 0;
}

static int parse_global(struct loader *L, const json_t *g)
{
	const char *key;
	json_t *v;
	if (!json_is_object(g))
		return fail(L, g, "'global' must be an object");
	L->obj = g;
	json_object_foreach((json_t *)g, key, v) {
		if (strcmp(key, "duration") == 0) {
			if (get_int(L, "global", "duration", v, -1, 100000000, &L->spec->duration_s) < 0)
				return -1;
		} else if (strcmp(key, "calibration") == 0) {
			/* Work is measured at the calibration CPU's base frequency;
			 * every CPU of a machine model is the same, so the CPU
			 * only has to exist, and a ns-per-loop figure changes
			 * nothing either. */
			int cpu;
			char tail;
			if (json_is_integer(v)) {
				if (json_integer_value(v) <= 0)
					return fail(L, v, "global: calibration %lld (expected ns per loop > 0)",
						    (long long)json_integer_value(v));
			} else if (!json_is_string(v) ||
				   sscanf(json_string_value(v), "CPU%d%c", &cpu, &tail) != 1 || cpu < 0 ||
				   cpu >= L->ncpus) {
				return fail(L, v, "global: calibration must be \"CPUn\" with an online CPU "
					    "(0..%d) or ns per loop", L->ncpus - 1);
			}
		} else if (strcmp(key, "default_policy") == 0) {
			const char *p = get_string(L, "global", key, v);
			if (!p)
				return -1;
			if (strcmp(p, "SCHED_IDLE") == 0)
				L->default_idle = true;
			else if (strcmp(p, "SCHED_OTHER") != 0)
				return fail(L, v, "global: default_policy %s is not simulated (pmlab "
					    "schedules CFS tasks: SCHED_OTHER, SCHED_IDLE)", p);
		} else if (strcmp(key, "cumulative_slack") == 0) {
			if (!json_is_boolean(v))
				return fail(L, v, "global: 'cumulative_slack' must be true or false");
			L->spec->cumulative_slack = json_is_true(v);
		} else if (!in_list(global_noop_keys, key)) {
			return fail(L, v, "global: unsupported key '%s'", key);
		}
	}
	return 0;
}

/* Barriers: everyone who uses one takes part, so count them; rt-app
 * refuses barriers in forked tasks (their number is not known). */
static int count_barrier_users(struct loader *L)
{
	struct rtapp_spec *sp = L->spec;
	for (int r = 0; r < sp->nres; r++) {
		if (sp->res[r].kind != RTAPP_BARRIER_RES)
			continue;
		for (int t = 0; t < sp->nthreads; t++) {
			const struct rtapp_thread *th = &sp->threads[t];
			bool uses = false;
			for (int p = 0; p < th->nphases && !uses; p++)
				for (int e = 0; e < th->phases[p].nevents && !uses; e++)
					uses = th->phases[p].events[e].kind == RTAPP_BARRIER &&
					       th->phases[p].events[e].res == r;
			if (!uses)
				continue;
			if (th->forked)
				return fail(L, json_object_get(L->tasks, th->name), "task '%.100s': barrier '%.100s' in a task that fork starts "
					    "(rt-app does not allow it)", th->name, sp->res[r].name);
			sp->res[r].users += (int)th->instances;
		}
	}
	return 0;
}

static int load(struct loader *L, json_t *root)
{
	struct rtapp_spec *sp = L->spec;
	const char *key;
	json_t *v;
	L->obj = root;
	if (!json_is_object(root))
		return fail(L, root, "expected a JSON object with \"tasks\"");
	json_object_foreach(root, key, v) {
		if (strcmp(key, "global") == 0) {
			if (parse_global(L, v) < 0)
				return -1;
		} else if (strcmp(key, "resources") == 0) {
			/* rt-app keeps it for old files and creates resources
			 * from the events; so do we. */
			if (!json_is_object(v))
				return fail(L, v, "'resources' must be an object");
		} else if (strcmp(key, "tasks") != 0) {
			return fail(L, v, "unsupported key '%s' (expected tasks, global, resources)", key);
		}
	}
	L->tasks = json_object_get(root, "tasks");
	if (!json_is_object(L->tasks) || json_object_size(L->tasks) == 0)
		return fail(L, L->tasks ? L->tasks : root, "'tasks' must be an object with at least one task");
	size_t n = json_object_size(L->tasks);
	sp->threads = calloc(n, sizeof(*sp->threads));
	if (!sp->threads)
		return fail(L, NULL, "out of memory");
	/* Names first: a fork may name a task defined further down. */
	json_object_foreach(L->tasks, key, v) {
		struct rtapp_thread *th = &sp->threads[sp->nthreads++];
		if (!(th->name = strdup(key)))
			return fail(L, NULL, "out of memory");
	}
	int i = 0;
	json_object_foreach(L->tasks, key, v) {
		if (parse_thread(L, key, v, &sp->threads[i++]) < 0)
			return -1;
	}
	if (L->instances == 0)
		return fail(L, L->tasks, "no task to start (every task has instance 0)");
	return count_barrier_users(L);
}

int rtapp_load_text(struct rtapp_spec *spec, const char *text, size_t len, const char *where,
		    int ncpus, struct pm_diag *d)
{
	*spec = (struct rtapp_spec){ .duration_s = -1 };
	struct loader L = { .spec = spec, .where = where, .ncpus = ncpus, .d = d };
	json_error_t err;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
	if (!root) {
		bool dup = strncmp(err.text, "duplicate object key", 20) == 0;
		return pm_fail_at(d, where, err.line, "%s%s", err.text,
				  dup ? " (number repeated events, as rt-app's workgen does: run0, run1)"
				      : "");
	}
	json_pos_build(&L.pos, text, len, root);
	int rc = load(&L, root);
	json_pos_free(&L.pos);
	json_decref(root);
	if (rc < 0)
		rtapp_spec_free(spec);
	return rc;
}

int rtapp_load_file(struct rtapp_spec *spec, const char *path, int ncpus, struct pm_diag *d)
{
	*spec = (struct rtapp_spec){ .duration_s = -1 };
	FILE *f = fopen(path, "rb");
	if (!f)
		return pm_fail_at(d, path, 0, "cannot open: %s", strerror(errno));
	size_t cap = 1 << 16, len = 0, got;
	char *text = malloc(cap);
	while (text && (got = fread(text + len, 1, cap - len, f)) > 0) {
		len += got;
		if (len < cap)
			continue;
		char *grown = cap < ((size_t)1 << 30) ? realloc(text, 2 * cap) : NULL;
		if (!grown)
			free(text);
		text = grown;
		cap *= 2;
	}
	bool bad = ferror(f);
	fclose(f);
	if (!text)
		return pm_fail_at(d, path, 0, "out of memory (or larger than 1 GiB)");
	if (bad) {
		free(text);
		return pm_fail_at(d, path, 0, "read error");
	}
	int rc = rtapp_load_text(spec, text, len, path, ncpus, d);
	free(text);
	return rc;
}

static void free_sched(struct rtapp_sched *sc)
{
	free(sc->cpus);
}

void rtapp_spec_free(struct rtapp_spec *spec)
{
	for (int t = 0; spec->threads && t < spec->nthreads; t++) {
		struct rtapp_thread *th = &spec->threads[t];
		for (int p = 0; th->phases && p < th->nphases; p++) {
			free(th->phases[p].events);
			free_sched(&th->phases[p].sched);
		}
		free(th->phases);
		free_sched(&th->sched);
		free(th->name);
	}
	free(spec->threads);
	for (int r = 0; spec->res && r < spec->nres; r++)
		free(spec->res[r].name);
	free(spec->res);
	*spec = (struct rtapp_spec){ .duration_s = -1 };
}
