// SPDX-License-Identifier: GPL-2.0-only
/* A map from 32-bit ids to 32-bit values: open addressing with linear
 * probing and backward-shift deletion, so it never fills with tombstones
 * and its size follows the ids present, not the ids ever used (the
 * simulator's live tasks by id, their ids growing for ever). */
#ifndef PMLAB_IDMAP_H
#define PMLAB_IDMAP_H

#include <stdbool.h>
#include <stdint.h>

struct idmap {
	uint32_t *key;   /* IDMAP_EMPTY where free */
	uint32_t *val;
	uint32_t cap;    /* a power of two, or 0 */
	uint32_t len;
};

#define IDMAP_EMPTY UINT32_MAX /* the one id that cannot be stored */

void idmap_init(struct idmap *m);
void idmap_free(struct idmap *m);
/* Adds or replaces; -1 only if memory runs out (or key is IDMAP_EMPTY). */
int idmap_put(struct idmap *m, uint32_t key, uint32_t val);
bool idmap_get(const struct idmap *m, uint32_t key, uint32_t *val);
void idmap_del(struct idmap *m, uint32_t key);

#endif
