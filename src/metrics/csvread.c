// SPDX-License-Identifier: GPL-2.0-only
#include "csvread.h"

#include <stdlib.h>
#include <string.h>

static int add_field(struct csv_record *rec, const char *s, size_t n)
{
	char **grown = realloc(rec->field, (size_t)(rec->n + 1) * sizeof(*grown));
	char *f = malloc(n + 1);

	if (grown)
		rec->field = grown;
	if (!grown || !f) {
		free(f);
		return -1;
	}
	memcpy(f, s, n);
	f[n] = '\0';
	rec->field[rec->n++] = f;
	return 0;
}

int csv_read_record(const char *text, size_t len, size_t *pos, struct csv_record *rec)
{
	size_t i = *pos, cap = 64, n;
	char *buf;

	rec->n = 0;
	rec->field = NULL;
	if (i >= len)
		return 0;
	buf = malloc(cap);
	if (!buf)
		return -1;
	for (;;) {
		n = 0;
		if (i < len && text[i] == '"') {
			/* Quoted: up to the quote that is not doubled. */
			for (i++;; i++) {
				if (i >= len)
					goto bad;
				if (text[i] == '"') {
					if (i + 1 < len && text[i + 1] == '"')
						i++;
					else
						break;
				}
				if (n + 1 >= cap) {
					char *grown = realloc(buf, cap *= 2);

					if (!grown)
						goto bad;
					buf = grown;
				}
				buf[n++] = text[i];
			}
			i++;
			if (i < len && text[i] != ',' && text[i] != '\n' && text[i] != '\r')
				goto bad;
			if (add_field(rec, buf, n) < 0)
				goto bad;
		} else {
			size_t start = i;

			while (i < len && text[i] != ',' && text[i] != '\n')
				i++;
			n = i - start;
			/* A CRLF line end is not part of the last field. */
			if (n && text[start + n - 1] == '\r' && (i >= len || text[i] == '\n'))
				n--;
			if (add_field(rec, text + start, n) < 0)
				goto bad;
		}
		if (i < len && text[i] == '\r')
			i++;
		if (i >= len || text[i] == '\n') {
			*pos = i < len ? i + 1 : i;
			free(buf);
			return 1;
		}
		i++; /* the comma */
	}
bad:
	free(buf);
	csv_record_free(rec);
	return -1;
}

void csv_record_free(struct csv_record *rec)
{
	for (int i = 0; i < rec->n; i++)
		free(rec->field[i]);
	free(rec->field);
	rec->field = NULL;
	rec->n = 0;
}
