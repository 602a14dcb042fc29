// SPDX-License-Identifier: GPL-2.0-only
/* Tests that touch the real machine -- tracefs, the cpuidle governor,
 * /dev/cpu_dma_latency -- run only when asked: `make check-real` (as root)
 * sets PMLAB_TEST_REAL_MACHINE=1. `make check` reads only the tree and
 * temporary directories, and counts these as skipped. Use at the top of
 * a cmocka test. */
#ifndef PMLAB_TEST_REAL_MACHINE_H
#define PMLAB_TEST_REAL_MACHINE_H

#include <stdlib.h>
#include <string.h>

#define SKIP_UNLESS_REAL_MACHINE()                                                          \
	do {                                                                               \
		const char *real_ = getenv("PMLAB_TEST_REAL_MACHINE");                     \
		if (!real_ || strcmp(real_, "1") != 0) {                                   \
			print_message("skipped: touches the real machine (make check-real)\n"); \
			skip();                                                            \
		}                                                                          \
	} while (0)

#endif
