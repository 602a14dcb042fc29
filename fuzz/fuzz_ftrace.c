// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target for the ftrace text reader (src/trace/ftrace_text.c) and
 * the replay model built on it (src/trace/replay_model.c): any input must
 * give events within the documented ranges or one message naming the
 * input and a line, and a model whose references all point inside it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/ftrace_text.h"
#include "trace/replay_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "broken: %s\n", what);
		abort();
	}
}

static int sink(void *ctx, const struct trace_event *ev, struct pm_diag *d)
{
	check(ev->kind >= TEV_SWITCH && ev->kind <= TEV_OTHER, "event kind");
	check(ev->cpu >= 0, "negative CPU");
	check(ev->where > 0, "line number");
	check(strlen(ev->comm) < TRACE_COMM_MAX && strlen(ev->comm2) < TRACE_COMM_MAX &&
		      strlen(ev->ctx_comm) < TRACE_COMM_MAX, "comm length");
	check(ev->state >= TPS_RUNNABLE && ev->state <= TPS_DEAD, "prev_state");
	(void)d;
	(*(long *)ctx)++;
	return 0;
}

static void check_model(const struct replay_model *m)
{
	check(m->t_end >= m->t0, "trace ends before it starts");
	for (uint32_t i = 0; i < m->ntasks; i++) {
		const struct replay_task *t = &m->tasks[i];
		check(t->busy_ns >= 0 && t->start >= 0, "negative time");
		for (uint32_t k = 0; k < t->nsegs; k++) {
			const struct replay_seg *s = &t->segs[k];
			switch (s->kind) {
			case SEG_RUN:
				check(s->ns > 0 && s->ns_unknown >= 0 && s->ns_unknown <= s->ns &&
					      s->cycles >= 0, "burst");
				break;
			case SEG_SLEEP:
				check(s->ns >= 0, "sleep");
				break;
			case SEG_BLOCK:
			case SEG_WAKE:
				check(s->ref < m->nblocks, "block reference");
				break;
			case SEG_FORK:
				check(s->ref < m->ntasks && m->tasks[s->ref].start_kind == RS_FORK, "fork");
				break;
			default:
				check(0, "segment kind");
			}
		}
	}
	for (uint32_t e = 0; e < m->nexternal; e++)
		check(m->external[e].block < m->nblocks && m->external[e].at >= 0, "external wakeup");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pm_diag d = { { 0 } };
	long n = 0;
	struct trace_info info;
	if (ftrace_text_read_buf((const char *)data, size, "fuzz", sink, &n, &info, &d) < 0)
		check(strncmp(d.msg, "fuzz", 4) == 0, "message does not name the input");
	else
		check(n >= (long)info.nevents, "event count"); /* and the lost-event marks */
	struct replay_model m;
	if (replay_model_load_text(&m, (const char *)data, size, "fuzz", &d) == 0) {
		check_model(&m);
		replay_model_free(&m);
	} else {
		check(strstr(d.msg, "fuzz") != NULL || strcmp(d.msg, "out of memory") == 0,
		      "model message does not name the input");
	}
	return 0;
}
