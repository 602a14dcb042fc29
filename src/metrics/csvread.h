// SPDX-License-Identifier: GPL-2.0-only
/* Reading CSV as pmlab writes it (RFC 4180: fields quoted when they hold
 * a comma, a quote or a line end; quotes doubled inside), for pmlab merge
 * and for turning the sim CSV writer's output into named cells. */
#ifndef PMLAB_CSVREAD_H
#define PMLAB_CSVREAD_H

#include <stddef.h>

struct csv_record {
	int n;
	char **field; /* n strings, each malloc'd */
};

/* Parses the record starting at *pos in text[0..len) and moves *pos past
 * its line end. 1: a record; 0: end of text; -1: malformed (an unclosed
 * quote, or text after a closing quote) or out of memory. */
int csv_read_record(const char *text, size_t len, size_t *pos, struct csv_record *rec);
void csv_record_free(struct csv_record *rec);

#endif
