// SPDX-License-Identifier: GPL-2.0-only
/* Latency histogram with fixed memory: log-linear buckets (HDR-style).
 * Values are nanoseconds. Each power-of-two range [2^k, 2^(k+1)) is split
 * into HIST_SUB linear sub-buckets, so a reported percentile is within
 * 1/HIST_SUB (about 1.6 %) of the true value; min, max, count and sum are
 * exact. */
#ifndef PMLAB_HISTOGRAM_H
#define PMLAB_HISTOGRAM_H

#include <stdint.h>

#include "../core/simtime.h"

#define HIST_SUB_BITS 6
#define HIST_SUB (1 << HIST_SUB_BITS)
#define HIST_RANGES 48 /* up to 2^53 ns (about 104 days); larger values land in the last bucket */
#define HIST_BUCKETS (HIST_RANGES * HIST_SUB)

struct histogram {
	uint64_t count;
	double sum_ns;
	sim_ns min_ns, max_ns;
	uint64_t bucket[HIST_BUCKETS];
};

void hist_init(struct histogram *h);
void hist_add(struct histogram *h, sim_ns v);
/* Merge b into a. */
void hist_merge(struct histogram *a, const struct histogram *b);
/* Value at quantile q in [0, 1] (0 when empty); interpolated inside the
 * bucket and clamped to [min, max]. */
double hist_quantile(const struct histogram *h, double q);
double hist_mean(const struct histogram *h);

#endif
