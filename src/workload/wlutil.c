// SPDX-License-Identifier: GPL-2.0-only
#include "wlutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../engine/sim.h"

struct action wl_work(double us, int64_t stall_pct, bool sys)
{
	if (!(us > 0))
		us = 0;
	return (struct action){
		.kind = ACT_RUN,
		.sys = sys,
		.cycles = workload_cycles(us * (double)(100 - stall_pct) / 100.0, WL_REF_KHZ),
		.stall_ns = us * 1000.0 * (double)stall_pct / 100.0,
	};
}

struct action wl_kernel(const struct sim *s, double ns)
{
	if (!(ns > 0))
		ns = 0;
	return (struct action){
		.kind = ACT_RUN,
		.sys = true,
		.cycles = workload_cycles(ns / 1000.0, sim_machine(s)->base_khz),
	};
}

void wl_add(struct action *a, const struct action *b)
{
	a->cycles += b->cycles;
	a->stall_ns += b->stall_ns;
}

double wl_normal(struct rng *r)
{
	/* 1 - u keeps the logarithm's argument in (0, 1]. */
	double u1 = 1.0 - rng_uniform(r), u2 = rng_uniform(r);
	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

double wl_lognormal(struct rng *r, double median, double sigma)
{
	return median * exp(sigma * wl_normal(r));
}

int wl_fifo_push(struct wl_fifo *q, int x)
{
	if (q->len == q->cap) {
		int cap = q->cap ? q->cap * 2 : 8;
		int *v = malloc((size_t)cap * sizeof(*v));
		if (!v)
			return -1;
		/* Unwrap the ring into the new array. */
		for (int i = 0; i < q->len; i++)
			v[i] = q->v[(q->head + i) % q->cap];
		free(q->v);
		q->v = v;
		q->cap = cap;
		q->head = 0;
	}
	q->v[(q->head + q->len) % q->cap] = x;
	q->len++;
	return 0;
}

int wl_fifo_pop(struct wl_fifo *q)
{
	if (q->len == 0)
		return -1;
	int x = q->v[q->head];
	q->head = (q->head + 1) % q->cap;
	q->len--;
	return x;
}

void wl_fifo_free(struct wl_fifo *q)
{
	free(q->v);
	*q = (struct wl_fifo){ 0 };
}

void wl_extra(struct run_result *r, const char *name, const char *unit, double value)
{
	if (r->nextra >= RESULT_MAX_EXTRA)
		return;
	struct result_extra *e = &r->extra[r->nextra++];
	snprintf(e->name, sizeof(e->name), "%s", name);
	snprintf(e->unit, sizeof(e->unit), "%s", unit);
	e->value = value;
}

static double cpu_time_s(const struct run_result *r, bool sys)
{
	double ns = 0;
	for (int i = 0; r->cpus && i < r->ncpus; i++)
		ns += (double)(sys ? r->cpus[i].sys_ns : r->cpus[i].user_ns);
	return ns * 1e-9;
}

double wl_user_s(const struct run_result *r)
{
	return cpu_time_s(r, false);
}

double wl_sys_s(const struct run_result *r)
{
	return cpu_time_s(r, true);
}

double wl_seconds(const struct run_result *r)
{
	return (double)r->duration_ns * 1e-9;
}
