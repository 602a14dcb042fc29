// SPDX-License-Identifier: GPL-2.0-only
#include "replay_keep.h"

#include <fnmatch.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace_read.h"

/* include/linux/threads.h (Linux 6.12): PID_MAX_LIMIT on 64-bit. */
#define KEEP_PID_MAX (4 * 1024 * 1024)

struct keep {
	const struct replay_keep *k;
	uint8_t *bits;            /* kept PIDs, one bit each */
	int (*forks)[2];          /* parent, child, in trace order */
	size_t nforks, cap;
};

static bool kept(const struct keep *s, int pid)
{
	return pid > 0 && pid <= KEEP_PID_MAX && (s->bits[pid / 8] >> (pid % 8) & 1);
}

static void keep_pid(struct keep *s, int pid)
{
	if (pid > 0 && pid <= KEEP_PID_MAX)
		s->bits[pid / 8] |= (uint8_t)(1u << (pid % 8));
}

static void match_comm(struct keep *s, int pid, const char *comm)
{
	if (pid <= 0 || !comm[0])
		return;
	for (int i = 0; i < s->k->ncomms; i++)
		if (fnmatch(s->k->comms[i], comm, 0) == 0)
			keep_pid(s, pid);
}

static int first_pass(void *ctx, const struct trace_event *ev, struct pm_diag *d)
{
	struct keep *s = ctx;
	match_comm(s, ev->ctx_pid, ev->ctx_comm);
	match_comm(s, ev->pid, ev->comm);
	if (ev->kind == TEV_SWITCH || ev->kind == TEV_FORK)
		match_comm(s, ev->pid2, ev->comm2);
	if (ev->kind == TEV_FORK) {
		if (s->nforks == s->cap) {
			size_t cap = s->cap ? s->cap * 2 : 256;
			int(*grown)[2] = realloc(s->forks, cap * sizeof(*grown));
			if (!grown)
				return pm_fail(d, "out of memory");
			s->forks = grown;
			s->cap = cap;
		}
		s->forks[s->nforks][0] = ev->pid;
		s->forks[s->nforks++][1] = ev->pid2;
	}
	return 0;
}

/* A task not kept is the idle task; an event about it alone is dropped. */
static int rewrite(void *ctx, struct trace_event *ev)
{
	const struct keep *s = ctx;
	if (!kept(s, ev->ctx_pid)) {
		ev->ctx_pid = 0;
		ev->ctx_comm[0] = '\0';
	}
	switch (ev->kind) {
	case TEV_SWITCH:
		if (!kept(s, ev->pid)) {
			ev->pid = 0;
			ev->comm[0] = '\0';
		}
		if (!kept(s, ev->pid2)) {
			ev->pid2 = 0;
			ev->comm2[0] = '\0';
		}
		return 0;
	case TEV_FORK:
		if (!kept(s, ev->pid2))
			return 1;
		if (!kept(s, ev->pid)) {
			ev->pid = 0;
			ev->comm[0] = '\0';
		}
		return 0;
	case TEV_WAKING:
	case TEV_WAKEUP:
	case TEV_WAKEUP_NEW:
	case TEV_EXIT:
	case TEV_MIGRATE:
		return !kept(s, ev->pid);
	default:
		return 0;
	}
}

int replay_model_load_keep(struct replay_model *m, const char *path, const struct replay_keep *k,
			   struct pm_diag *d)
{
	struct keep s = { .k = k };
	int rc = -1;
	s.bits = calloc(KEEP_PID_MAX / 8 + 1, 1);
	if (!s.bits)
		return pm_fail(d, "out of memory");
	for (int i = 0; i < k->npids; i++)
		keep_pid(&s, k->pids[i]);
	if (trace_read(path, first_pass, &s, NULL, d) < 0)
		goto out;
	/* A fork by a kept task keeps the child; in trace order, so a chain of
	 * forks is followed to its end. */
	for (size_t f = 0; f < s.nforks; f++)
		if (kept(&s, s.forks[f][0]))
			keep_pid(&s, s.forks[f][1]);
	rc = replay_model_load_filtered(m, path, rewrite, &s, d);
	if (rc == 0 && m->ntasks == 0) {
		replay_model_free(m);
		rc = pm_fail(d, "%.400s: no task of the trace is among the ones kept (--pid, --comm)",
			     path);
	}
out:
	free(s.bits);
	free(s.forks);
	return rc;
}
