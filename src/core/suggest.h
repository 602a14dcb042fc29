// SPDX-License-Identifier: GPL-2.0-only
/* "Did you mean": the known name nearest to a misspelt one, by the
 * optimal-string-alignment distance (insertions, deletions, substitutions
 * and swaps of two neighbours, case ignored), offered only when it is
 * close: at most a third of the word's length (at least 1), or the word
 * is the start of the name (3 characters or more). */
#ifndef PMLAB_SUGGEST_H
#define PMLAB_SUGGEST_H

#include <stddef.h>

struct suggest {
	const char *word;
	const char *best; /* NULL: nothing close */
	size_t dist;
};

void suggest_init(struct suggest *s, const char *word);
/* Considers one known name (which must outlive s). */
void suggest_offer(struct suggest *s, const char *name);
/* "; did you mean 'NAME'?" or "" when nothing is close; buf holds it. */
const char *suggest_text(const struct suggest *s, char *buf, size_t len);

#endif
