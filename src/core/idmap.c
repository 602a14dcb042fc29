// SPDX-License-Identifier: GPL-2.0-only
#include "idmap.h"

#include <stdlib.h>

void idmap_init(struct idmap *m)
{
	m->key = m->val = NULL;
	m->cap = m->len = 0;
}

void idmap_free(struct idmap *m)
{
	free(m->key);
	free(m->val);
	idmap_init(m);
}

/* Fibonacci hashing: ids that follow each other spread over the table. */
static uint32_t home(const struct idmap *m, uint32_t key)
{
	return (uint32_t)(key * UINT32_C(2654435769)) & (m->cap - 1);
}

static int grow(struct idmap *m)
{
	uint32_t cap = m->cap ? m->cap * 2 : 16;
	if (cap < m->cap)
		return -1;
	uint32_t *key = malloc((size_t)cap * sizeof(*key));
	uint32_t *val = malloc((size_t)cap * sizeof(*val));
	if (!key || !val) {
		free(key);
		free(val);
		return -1;
	}
	for (uint32_t i = 0; i < cap; i++)
		key[i] = IDMAP_EMPTY;
	struct idmap old = *m;
	m->key = key;
	m->val = val;
	m->cap = cap;
	m->len = 0;
	for (uint32_t i = 0; i < old.cap; i++)
		if (old.key[i] != IDMAP_EMPTY)
			idmap_put(m, old.key[i], old.val[i]);
	free(old.key);
	free(old.val);
	return 0;
}

int idmap_put(struct idmap *m, uint32_t key, uint32_t val)
{
	if (key == IDMAP_EMPTY)
		return -1;
	/* At most half full: probes stay short. */
	if ((m->len + 1) * 2 > m->cap && grow(m) < 0)
		return -1;
	uint32_t i = home(m, key);
	while (m->key[i] != IDMAP_EMPTY && m->key[i] != key)
		i = (i + 1) & (m->cap - 1);
	if (m->key[i] == IDMAP_EMPTY)
		m->len++;
	m->key[i] = key;
	m->val[i] = val;
	return 0;
}

bool idmap_get(const struct idmap *m, uint32_t key, uint32_t *val)
{
	if (!m->cap || key == IDMAP_EMPTY)
		return false;
	for (uint32_t i = home(m, key); m->key[i] != IDMAP_EMPTY; i = (i + 1) & (m->cap - 1)) {
		if (m->key[i] == key) {
			*val = m->val[i];
			return true;
		}
	}
	return false;
}

void idmap_del(struct idmap *m, uint32_t key)
{
	if (!m->cap || key == IDMAP_EMPTY)
		return;
	uint32_t mask = m->cap - 1, i = home(m, key);
	while (m->key[i] != key) {
		if (m->key[i] == IDMAP_EMPTY)
			return;
		i = (i + 1) & mask;
	}
	/* Backward shift: move later entries of the run into the hole when
	 * their home slot does not lie cyclically in (hole, their place]. */
	for (uint32_t j = (i + 1) & mask; m->key[j] != IDMAP_EMPTY; j = (j + 1) & mask) {
		uint32_t h = home(m, m->key[j]);
		bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
		if (stays)
			continue;
		m->key[i] = m->key[j];
		m->val[i] = m->val[j];
		i = j;
	}
	m->key[i] = IDMAP_EMPTY;
	m->len--;
}
