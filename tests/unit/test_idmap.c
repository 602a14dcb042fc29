// SPDX-License-Identifier: GPL-2.0-only
/* The id map against a plain array, through random puts and deletes that
 * make long probe runs wrap around the table's end. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/idmap.h"
#include "core/rng.h"

#define IDS 3000

static void test_empty(void **state)
{
	(void)state;
	struct idmap m;
	uint32_t v;
	idmap_init(&m);
	assert_false(idmap_get(&m, 7, &v));
	idmap_del(&m, 7); /* nothing to delete: no effect */
	assert_int_equal(idmap_put(&m, IDMAP_EMPTY, 1), -1);
	idmap_free(&m);
}

static void test_against_array(void **state)
{
	(void)state;
	static int64_t want[IDS]; /* -1: absent */
	struct idmap m;
	struct rng r;
	idmap_init(&m);
	rng_init(&r, 1, 2);
	for (int i = 0; i < IDS; i++)
		want[i] = -1;
	uint32_t live = 0;
	for (int step = 0; step < 200000; step++) {
		/* Ids spread over a range, some of them multiples of a power of
		 * two, which a poor hash would pile into one run. */
		uint32_t k = (uint32_t)rng_below(&r, IDS);
		uint32_t id = k % 3 ? k : k * 1024;
		int64_t *w = &want[k];
		if (rng_below(&r, 3) == 0) {
			idmap_del(&m, id);
			live -= *w >= 0;
			*w = -1;
		} else {
			uint32_t v = (uint32_t)step;
			assert_int_equal(idmap_put(&m, id, v), 0);
			live += *w < 0;
			*w = v;
		}
		assert_int_equal(m.len, live);
		if (step % 1000 == 0) {
			for (uint32_t j = 0; j < IDS; j++) {
				uint32_t v, jid = j % 3 ? j : j * 1024;
				bool found = idmap_get(&m, jid, &v);
				assert_int_equal(found, want[j] >= 0);
				if (found)
					assert_int_equal(v, (uint32_t)want[j]);
			}
		}
	}
	idmap_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_against_array),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
