// SPDX-License-Identifier: GPL-2.0-only
/* Lines of JSON values. See jsonpos.h. */
#include "jsonpos.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

struct scan {
	const char *s;
	size_t len, pos;
	int line;
	struct json_pos *jp;
	bool lost; /* the text and the tree disagree: stop */
};

static size_t slot(const struct json_pos *jp, const json_t *v)
{
	return (size_t)(((uintptr_t)v >> 4) * 2654435761u) & (jp->cap - 1);
}

static void put(struct json_pos *jp, const json_t *v, int line)
{
	if ((jp->n + 1) * 2 > jp->cap) {
		size_t cap = jp->cap ? jp->cap * 2 : 256;
		const json_t **node = calloc(cap, sizeof(*node));
		int *lines = calloc(cap, sizeof(*lines));
		if (!node || !lines) {
			free(node);
			free(lines);
			return;
		}
		struct json_pos old = *jp;
		*jp = (struct json_pos){ .node = node, .line = lines, .cap = cap };
		for (size_t i = 0; i < old.cap; i++)
			if (old.node[i])
				put(jp, old.node[i], old.line[i]);
		free(old.node);
		free(old.line);
	}
	size_t i = slot(jp, v);
	while (jp->node[i] && jp->node[i] != v)
		i = (i + 1) & (jp->cap - 1);
	if (!jp->node[i])
		jp->n++;
	jp->node[i] = v;
	jp->line[i] = line;
}

static void skip_ws(struct scan *sc)
{
	while (sc->pos < sc->len) {
		char c = sc->s[sc->pos];
		if (c == '\n')
			sc->line++;
		else if (c != ' ' && c != '\t' && c != '\r')
			return;
		sc->pos++;
	}
}

static bool expect(struct scan *sc, char c)
{
	skip_ws(sc);
	if (sc->pos >= sc->len || sc->s[sc->pos] != c) {
		sc->lost = true;
		return false;
	}
	sc->pos++;
	return true;
}

static void skip_string(struct scan *sc)
{
	if (!expect(sc, '"'))
		return;
	while (sc->pos < sc->len && sc->s[sc->pos] != '"')
		sc->pos += sc->s[sc->pos] == '\\' ? 2 : 1;
	if (sc->pos >= sc->len)
		sc->lost = true;
	else
		sc->pos++;
}

/* The end of a number or literal. */
static bool ends_scalar(char c)
{
	return c == ',' || c == ']' || c == '}' || c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static void value(struct scan *sc, const json_t *v, int depth)
{
	skip_ws(sc);
	if (!v || sc->pos >= sc->len || depth > 4096) {
		sc->lost = true;
		return;
	}
	put(sc->jp, v, sc->line);
	char c = sc->s[sc->pos];
	if (c == '{' || c == '[') {
		bool obj = c == '{';
		char close = obj ? '}' : ']';
		sc->pos++;
		skip_ws(sc);
		if (sc->pos < sc->len && sc->s[sc->pos] == close) {
			sc->pos++;
			return;
		}
		void *it = obj ? json_object_iter((json_t *)v) : NULL;
		for (size_t i = 0; !sc->lost; i++) {
			const json_t *member;
			if (obj) {
				skip_string(sc);
				if (!expect(sc, ':'))
					return;
				member = it ? json_object_iter_value(it) : NULL;
				it = it ? json_object_iter_next((json_t *)v, it) : NULL;
			} else {
				member = json_array_get(v, i);
			}
			value(sc, member, depth + 1);
			skip_ws(sc);
			if (sc->pos < sc->len && sc->s[sc->pos] == ',') {
				sc->pos++;
				continue;
			}
			expect(sc, close);
			return;
		}
	} else if (c == '"') {
		skip_string(sc);
	} else {
		while (sc->pos < sc->len && !ends_scalar(sc->s[sc->pos]))
			sc->pos++;
	}
}

void json_pos_build(struct json_pos *jp, const char *text, size_t len, const json_t *root)
{
	*jp = (struct json_pos){ 0 };
	struct scan sc = { .s = text, .len = len, .line = 1, .jp = jp };
	value(&sc, root, 0);
}

int json_pos_line(const struct json_pos *jp, const json_t *v)
{
	if (!v || !jp->cap)
		return 0;
	for (size_t i = slot(jp, v); jp->node[i]; i = (i + 1) & (jp->cap - 1))
		if (jp->node[i] == v)
			return jp->line[i];
	return 0;
}

void json_pos_free(struct json_pos *jp)
{
	free(jp->node);
	free(jp->line);
	*jp = (struct json_pos){ 0 };
}
