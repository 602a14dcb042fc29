// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target for the host state file (src/host/state.c): any input
 * must give a state or a message naming the input; every state accepted
 * must hold only paths a plan may write (plan_paths.h), and format back into text that
 * parses to the same state. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host/plan_paths.h"
#include "host/state.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same(const struct host_state *a, const struct host_state *b)
{
	if (strcmp(a->profile, b->profile) || a->applied != b->applied || a->n != b->n ||
	    a->latency_us != b->latency_us || a->holder_pid != b->holder_pid ||
	    a->owner_pid != b->owner_pid || a->owner_start != b->owner_start ||
	    a->latency_old_valid != b->latency_old_valid)
		abort();
	for (int i = 0; i < a->n; i++) {
		const struct state_entry *x = &a->e[i], *y = &b->e[i];
		if (strcmp(x->path, y->path) || strcmp(x->value, y->value) ||
		    strcmp(x->seen, y->seen) || strcmp(x->key, y->key) || x->had_old != y->had_old ||
		    x->old_len != y->old_len || (x->had_old && memcmp(x->old, y->old, x->old_len)) ||
		    x->check != y->check || x->watch != y->watch || x->appears != y->appears)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct host_state st, back;
	struct pm_diag d;
	if (host_state_parse(&st, (const char *)data, size, "fuzz", &d) < 0) {
		if (strncmp(d.msg, "fuzz:", 5) != 0 && strcmp(d.msg, "out of memory") != 0)
			abort();
		return 0;
	}
	for (int i = 0; i < st.n; i++)
		if (!host_plan_path_ok(st.e[i].path))
			abort();
	size_t len;
	char *text = host_state_format(&st, &len);
	if (!text)
		abort();
	if (host_state_parse(&back, text, len, "again", &d) < 0)
		abort();
	same(&st, &back);
	host_state_free(&back);
	host_state_free(&st);
	free(text);
	return 0;
}
