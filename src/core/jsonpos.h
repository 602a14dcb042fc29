// SPDX-License-Identifier: GPL-2.0-only
/* Where each value of a parsed JSON document starts in its text. jansson
 * keeps no positions once it has parsed, yet an error about a value
 * ("'loop' must be an integer") should name its line like a syntax error
 * does. The text is scanned once more beside the tree jansson built:
 * object members in file order (jansson keeps insertion order, and
 * duplicates were rejected), array elements by index. */
#ifndef PMLAB_JSONPOS_H
#define PMLAB_JSONPOS_H

#include <stddef.h>

#include <jansson.h>

struct json_pos {
	const json_t **node;
	int *line;
	size_t cap, n;
};

/* Scans text (which jansson parsed into root) and records every value's
 * line; a failure to allocate leaves fewer lines known, nothing worse. */
void json_pos_build(struct json_pos *jp, const char *text, size_t len, const json_t *root);
/* The line where v starts; 0 if unknown (NULL, or not from that text). */
int json_pos_line(const struct json_pos *jp, const json_t *v);
void json_pos_free(struct json_pos *jp);

#endif
