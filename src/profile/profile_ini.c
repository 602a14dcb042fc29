// SPDX-License-Identifier: GPL-2.0-only
/* One tuned.conf (or a variables file) read into sections of key=value
 * lines, each remembering its line.
 *
 * tuned reads these files with configobj (list_values=False, no
 * interpolation); this reader follows configobj where the two INI dialects
 * differ: '#' starts a comment anywhere in an unquoted value (';' does
 * not), a quoted value keeps its quotes, a duplicate key or section is an
 * error, and a line that is neither [section] nor key=value is an error.
 *
 * The splitting is inih's (ini_parse_stream), fed by our own reader, as
 * machine_ini.c does it: the reader knows the current line, takes section
 * headers itself (inih does not report sections without keys, and tuned
 * has such sections: [eeepc_she]), strips comments, and hides a blank
 * before ';' from inih's inline-comment rule (restored in the handler).
 * Lines inih would misread -- longer than its buffer, a ':' before the
 * '=' (inih splits at either), a leading ';' (an inih comment) -- are
 * split here directly with the same result. */
#include <ini.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "profile_internal.h"

#define INIH_LINE 190  /* what we hand inih; its buffer holds INI_MAX_LINE (200) */
#define LINE_MAX_CHARS 4000
/* Stand for ' ' and '\t' before ';' while inih has the line; the reader
 * refuses control characters in the input, so they cannot clash. */
#define HIDDEN_SPACE '\x1e'
#define HIDDEN_TAB '\x1f'

struct reader {
	struct pf_file *f;
	const char *pos, *end;
	int line;
	int failed;
	struct pf_section *sec; /* current section, NULL before the first header */
	struct pm_diag *d;
};

__attribute__((format(printf, 3, 4)))
static int fail(struct reader *r, int line, const char *fmt, ...)
{
	char msg[PM_DIAG_MAX / 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->failed = 1;
	return pm_fail_at(r->d, r->f->path, line, "%s", msg);
}

char *pf_file_strdup(struct pf_file *f, const char *s, size_t n)
{
	if (f->nstrs == f->capstrs) {
		int cap = f->capstrs ? 2 * f->capstrs : 32;
		char **grown = realloc(f->strs, (size_t)cap * sizeof(*grown));
		if (!grown)
			return NULL;
		f->strs = grown;
		f->capstrs = cap;
	}
	char *c = malloc(n + 1);
	if (!c)
		return NULL;
	memcpy(c, s, n);
	c[n] = '\0';
	f->strs[f->nstrs++] = c;
	return c;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static struct pf_section *new_section(struct reader *r, const char *name, size_t n)
{
	struct pf_file *f = r->f;
	if (f->nsecs == f->cap) {
		int cap = f->cap ? 2 * f->cap : 8;
		struct pf_section *grown = realloc(f->secs, (size_t)cap * sizeof(*grown));
		if (!grown)
			return NULL;
		f->secs = grown;
		f->cap = cap;
	}
	const char *copy = pf_file_strdup(f, name, n);
	if (!copy)
		return NULL;
	struct pf_section *s = &f->secs[f->nsecs++];
	*s = (struct pf_section){ .name = copy, .file = f->path, .line = r->line };
	return s;
}

const struct pf_section *pf_file_section(const struct pf_file *f, const char *name)
{
	for (int i = 0; i < f->nsecs; i++)
		if (strcmp(f->secs[i].name, name) == 0)
			return &f->secs[i];
	return NULL;
}

const struct pf_opt *pf_section_opt(const struct pf_section *s, const char *key)
{
	for (int i = 0; s && i < s->nopts; i++)
		if (strcmp(s->opts[i].key, key) == 0)
			return &s->opts[i];
	return NULL;
}

/* key and value are trimmed; value has no comment. */
static int store(struct reader *r, const char *key, size_t klen, const char *value, size_t vlen)
{
	if (!klen)
		return fail(r, r->line, "'=' without a key (expected KEY=VALUE)");
	if (!r->sec) {
		/* A variables file may start with keys; a profile may not (the
		 * resolver says so). */
		r->sec = new_section(r, "", 0);
		if (!r->sec)
			return fail(r, r->line, "out of memory");
		r->sec->line = 0;
	}
	struct pf_section *s = r->sec;
	for (int i = 0; i < s->nopts; i++)
		if (strlen(s->opts[i].key) == klen && memcmp(s->opts[i].key, key, klen) == 0)
			return fail(r, r->line, "duplicate option '%.*s' in [%s], first on line %d "
				    "(expected each option once per section)",
				    (int)klen, key, s->name, s->opts[i].line);
	if (s->nopts == s->cap) {
		int cap = s->cap ? 2 * s->cap : 8;
		struct pf_opt *grown = realloc(s->opts, (size_t)cap * sizeof(*grown));
		if (!grown)
			return fail(r, r->line, "out of memory");
		s->opts = grown;
		s->cap = cap;
	}
	const char *k = pf_file_strdup(r->f, key, klen);
	const char *v = pf_file_strdup(r->f, value, vlen);
	if (!k || !v)
		return fail(r, r->line, "out of memory");
	s->opts[s->nopts++] = (struct pf_opt){ k, v, r->f->path, r->line };
	return 0;
}

/* "[name]" with an optional comment after it; s is trimmed. */
static int header(struct reader *r, const char *s, size_t n)
{
	if (n >= 2 && s[1] == '[')
		return fail(r, r->line, "subsection '%.*s' (expected [section]; tuned.conf has "
			    "no nested sections)", (int)n, s);
	const char *close = memchr(s, ']', n);
	if (!close)
		return fail(r, r->line, "section header has no closing ']' (expected [name])");
	for (const char *q = close + 1; q < s + n; q++) {
		if (*q == '#')
			break;
		if (!is_blank(*q))
			return fail(r, r->line, "text after a section header (expected nothing after "
				    "']' but a # comment)");
	}
	const char *a = s + 1, *b = close;
	while (a < b && is_blank(*a))
		a++;
	while (b > a && is_blank(b[-1]))
		b--;
	if (a == b)
		return fail(r, r->line, "empty section name (expected [name])");
	for (int i = 0; i < r->f->nsecs; i++) {
		const struct pf_section *o = &r->f->secs[i];
		if (strlen(o->name) == (size_t)(b - a) && memcmp(o->name, a, (size_t)(b - a)) == 0)
			return fail(r, r->line, "duplicate section [%.*s], first on line %d (expected "
				    "each section once per file)", (int)(b - a), a, o->line);
	}
	r->sec = new_section(r, a, (size_t)(b - a));
	return r->sec ? 0 : fail(r, r->line, "out of memory");
}

/* configobj's unquoted value ends at the first '#'; a quoted one at its
 * closing quote, and only a comment may follow. Sets *vlen. */
static int value_end(struct reader *r, const char *v, size_t n, size_t *vlen)
{
	if (n && (*v == '"' || *v == '\'')) {
		const char *close = memchr(v + 1, *v, n - 1);
		if (!close)
			return fail(r, r->line, "unterminated quoted value (expected a closing %c)", *v);
		*vlen = (size_t)(close - v) + 1;
		for (const char *q = close + 1; q < v + n; q++) {
			if (*q == '#')
				break;
			if (!is_blank(*q))
				return fail(r, r->line, "text after a quoted value (expected nothing "
					    "but a # comment)");
		}
		return 0;
	}
	const char *hash = memchr(v, '#', n);
	size_t len = hash ? (size_t)(hash - v) : n;
	while (len && is_blank(v[len - 1]))
		len--;
	*vlen = len;
	return 0;
}

/* The ini_reader: one line per call, as fgets would. Returning NULL ends
 * the parse (at the end, or after an error). */
static char *read_line(char *str, int num, void *stream)
{
	struct reader *r = stream;
	const char *s = r->pos;

	if (r->failed || s >= r->end)
		return NULL;
	const char *nl = memchr(s, '\n', (size_t)(r->end - s));
	size_t n = nl ? (size_t)(nl - s) : (size_t)(r->end - s);
	r->pos = s + n + (nl != NULL);
	r->line++;

	if (r->line == 1 && n >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) {
		s += 3; /* UTF-8 byte order mark */
		n -= 3;
	}
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 && !is_blank(s[i])) {
			fail(r, r->line, "control character 0x%02x (expected text)",
			     (unsigned char)s[i]);
			return NULL;
		}
	while (n && is_blank(*s))
		s++, n--;
	while (n && is_blank(s[n - 1]))
		n--;
	if (n > LINE_MAX_CHARS) {
		fail(r, r->line, "line is too long (expected at most %d characters)", LINE_MAX_CHARS);
		return NULL;
	}
	str[0] = '\n';
	str[1] = '\0';
	if (!n || *s == '#')
		return str;
	if (*s == '[') {
		if (header(r, s, n))
			return NULL;
		return str;
	}
	const char *eq = memchr(s, '=', n);
	if (!eq) {
		fail(r, r->line, "'%.*s' is not an option (expected KEY=VALUE, [section] or "
		     "# comment)", n > 60 ? 60 : (int)n, s);
		return NULL;
	}
	size_t klen = (size_t)(eq - s);
	while (klen && is_blank(s[klen - 1]))
		klen--;
	const char *v = eq + 1;
	size_t vn = (size_t)(s + n - v), vlen = 0;
	while (vn && is_blank(*v))
		v++, vn--;
	if (value_end(r, v, vn, &vlen))
		return NULL;
	size_t out = klen + 1 + vlen;
	if (out + 2 > (size_t)num || out > INIH_LINE || memchr(s, ':', klen) || *s == ';' ||
	    !r->sec) {
		/* inih would cut, split elsewhere or skip it: split it here. */
		if (store(r, s, klen, v, vlen))
			return NULL;
		return str;
	}
	memcpy(str, s, klen);
	str[klen] = '=';
	memcpy(str + klen + 1, v, vlen);
	for (size_t i = 1; i < out; i++)
		if (str[i] == ';' && (str[i - 1] == ' ' || str[i - 1] == '\t'))
			str[i - 1] = str[i - 1] == ' ' ? HIDDEN_SPACE : HIDDEN_TAB;
	str[out] = '\n';
	str[out + 1] = '\0';
	return str;
}

static void unhide(char *s)
{
	for (; *s; s++)
		if (*s == HIDDEN_SPACE)
			*s = ' ';
		else if (*s == HIDDEN_TAB)
			*s = '\t';
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct reader *r = user;
	char k[INI_MAX_LINE], v[INI_MAX_LINE];

	(void)section; /* ours: inih never sees a header */
	snprintf(k, sizeof(k), "%s", name);
	snprintf(v, sizeof(v), "%s", value);
	unhide(k);
	unhide(v);
	return store(r, k, strlen(k), v, strlen(v)) == 0;
}

int pf_ini_parse(struct pf_file *f, const char *text, const char *path, struct pm_diag *d)
{
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	const char *slash = strrchr(path, '/');
	f->dir = slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
	if (!f->path || !f->dir)
		return pm_fail(d, "out of memory");
	if (f->dir[0] == '\0') { /* "/tuned.conf" */
		free(f->dir);
		f->dir = strdup("/");
		if (!f->dir)
			return pm_fail(d, "out of memory");
	}
	struct reader r = { .f = f, .pos = text, .end = text + strlen(text), .d = d };
	int rc = ini_parse_stream(read_line, &r, handler, &r);
	if (r.failed)
		return -1;
	if (rc != 0) /* a line inih refused that the reader let through */
		return pm_fail_at(d, path, rc > 0 ? rc : 0, "cannot parse this line (expected "
				  "KEY=VALUE or [section])");
	return 0;
}

int pf_ini_load(struct pf_file *f, const char *path, struct pm_diag *d)
{
	memset(f, 0, sizeof(*f));
	FILE *in = fopen(path, "rb");
	if (!in)
		return pm_fail(d, "%s: cannot open: %s", path, strerror(errno));
	/* As large as the file, not the limit: a 1 MiB buffer per file
	 * costs more than parsing a profile (and the fuzzer loads thousands). */
	struct stat sb;
	size_t cap = fstat(fileno(in), &sb) == 0 && sb.st_size > 0 &&
			     sb.st_size <= PF_MAX_FILE_BYTES ? (size_t)sb.st_size + 1
							     : PF_MAX_FILE_BYTES + 1;
	char *text = malloc(cap + 1);
	if (!text) {
		fclose(in);
		return pm_fail(d, "out of memory");
	}
	size_t n = fread(text, 1, cap, in);
	if (n == cap && cap <= PF_MAX_FILE_BYTES) {
		/* it grew since fstat: read on up to the limit */
		char *grown = realloc(text, PF_MAX_FILE_BYTES + 2);
		if (!grown) {
			free(text);
			fclose(in);
			return pm_fail(d, "out of memory");
		}
		text = grown;
		n += fread(text + n, 1, PF_MAX_FILE_BYTES + 1 - n, in);
	}
	int err = ferror(in);
	fclose(in);
	int rc;
	if (err)
		rc = pm_fail(d, "%s: cannot read", path);
	else if (n > PF_MAX_FILE_BYTES)
		rc = pm_fail(d, "%s: larger than %d bytes (expected a tuned.conf)", path,
			     PF_MAX_FILE_BYTES);
	else if (memchr(text, '\0', n))
		rc = pm_fail(d, "%s: contains a NUL byte (expected text)", path);
	else {
		text[n] = '\0';
		rc = pf_ini_parse(f, text, path, d);
	}
	free(text);
	return rc;
}

void pf_file_free(struct pf_file *f)
{
	if (!f)
		return;
	for (int i = 0; i < f->nsecs; i++)
		free(f->secs[i].opts);
	free(f->secs);
	for (int i = 0; i < f->nstrs; i++)
		free(f->strs[i]);
	free(f->strs);
	free(f->path);
	free(f->dir);
	memset(f, 0, sizeof(*f));
}
