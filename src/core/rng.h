// SPDX-License-Identifier: GPL-2.0-only
/* Deterministic pseudo-random streams (xoshiro256**, seeded by splitmix64).
 * Each source of randomness owns its stream, derived from (seed, stream id),
 * so adding a task or a workload never shifts another stream's draws. */
#ifndef PMLAB_RNG_H
#define PMLAB_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

void rng_init(struct rng *r, uint64_t seed, uint64_t stream);
uint64_t rng_next(struct rng *r);
/* Uniform double in [0, 1). */
double rng_uniform(struct rng *r);
/* Uniform integer in [0, n) without modulo bias; n > 0. */
uint64_t rng_below(struct rng *r, uint64_t n);
/* Exponentially distributed value with the given mean. */
double rng_exponential(struct rng *r, double mean);

#endif
