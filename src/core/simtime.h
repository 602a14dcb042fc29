// SPDX-License-Identifier: GPL-2.0-only
/* Simulated time: signed 64-bit nanoseconds. Integer time keeps runs
 * byte-identical across machines; 2^63 ns is about 292 years. */
#ifndef PMLAB_SIMTIME_H
#define PMLAB_SIMTIME_H

#include <stdint.h>

typedef int64_t sim_ns;

#define NS_PER_US  INT64_C(1000)
#define NS_PER_MS  INT64_C(1000000)
#define NS_PER_SEC INT64_C(1000000000)
#define SIM_NS_MAX INT64_MAX

#endif
