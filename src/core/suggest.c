// SPDX-License-Identifier: GPL-2.0-only
#include "suggest.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define SUGGEST_MAX 64 /* longer words are not compared */

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;
	return m < c ? m : c;
}

/* Optimal string alignment distance, case-insensitive. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[SUGGEST_MAX + 1][SUGGEST_MAX + 1];
	if (la > SUGGEST_MAX || lb > SUGGEST_MAX)
		return SIZE_MAX;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
			size_t cost = ca != cb;
			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	return d[la][lb];
}

void suggest_init(struct suggest *s, const char *word)
{
	s->word = word;
	s->best = NULL;
	s->dist = SIZE_MAX;
}

void suggest_offer(struct suggest *s, const char *name)
{
	size_t len = strlen(s->word), limit = len / 3 > 1 ? len / 3 : 1;
	size_t dist = distance(s->word, name);
	if (len >= 3 && len < strlen(name) && strncasecmp(s->word, name, len) == 0 && dist > 1)
		dist = 1; /* the start of the name */
	if (dist == 0 || dist > limit || dist >= s->dist)
		return;
	s->best = name;
	s->dist = dist;
}

const char *suggest_text(const struct suggest *s, char *buf, size_t len)
{
	if (!s->best)
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "; did you mean '%s'?", s->best);
	return buf;
}
