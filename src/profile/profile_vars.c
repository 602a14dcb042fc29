// SPDX-License-Identifier: GPL-2.0-only
/* Variables, built-in functions and conditions: what a profile's values
 * can refer to, and what the simulated machine looks like to them.
 *
 * As in tuned (profiles/variables.py): [variables] of every included
 * profile merge like any section; a variable sees only those defined
 * before it; ${NAME} is replaced, \${ stays a literal "${"; ${i:PROFILE_DIR}
 * is the directory of the file the value is in; include=FILE in
 * [variables] reads more variables (a relative FILE is taken from the
 * profile's directory). Expansion happens where pmlab uses a value --
 * options it models, include=, conditions, devices= -- so a reference in
 * an option that is only listed as not modelled is never an error.
 *
 * A reference to a variable not (yet) defined stays as it is inside
 * [variables], as in tuned ("X = ${X}" keeps what an included file set);
 * in an option it is an error. A missing include= file is listed and
 * skipped, as tuned logs it and goes on. Variables whose value asserts
 * (${f:assertion...}) are expanded at once, as tuned expands every
 * variable when it is defined; the others where they are used.
 *
 * Functions (${f:NAME:ARG:...}): profile_func.c, on the machine the
 * profile is resolved for; exec and check_net_queue_count are refused.
 *
 * The machine: uname is "Linux pmlab PROFILE_UNAME_RELEASE #1 SMP ARCH" and
 * /proc/cpuinfo has one block per online CPU with the vendor, model name
 * (the machine's description), MHz and topology; ARCH is ppc64le for a
 * POWER machine (its name or description says POWER), else x86_64. There
 * are no "flags": the machine model does not list CPU features. */
#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "profile_internal.h"

#define EXPAND_MAX 4096
/* A variable sees only those defined before it, so references cannot
 * cycle; the bound only caps the stack (two levels per variable in a
 * chain: its reference and a function's arguments). */
#define EXPAND_DEPTH 64
#define MAX_FN_ARGS 16

static bool contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return true;
	return false;
}

static bool is_power(const struct machine *m)
{
	return contains_ci(m->name, "power") || contains_ci(m->description, "POWER");
}

int pf_machine_identity(struct pf_load *L)
{
	const struct machine *m = L->m;
	bool power = is_power(m);
	const char *desc = m->description[0] ? m->description : m->name;

	if (L->env && L->env->uname)
		snprintf(L->uname, sizeof(L->uname), "%s", L->env->uname);
	else
		snprintf(L->uname, sizeof(L->uname), "Linux pmlab %s #1 SMP %s",
			 PROFILE_UNAME_RELEASE, power ? "ppc64le" : "x86_64");

	size_t cap = (size_t)m->online_cpus * (300 + strlen(desc)) + 1, used = 0;
	L->cpuinfo = malloc(cap);
	if (!L->cpuinfo)
		return pm_fail(L->d, "out of memory");
	L->cpuinfo[0] = '\0';
	for (int c = 0; c < m->online_cpus; c++) {
		int pkg = machine_cpu_package(m, c);
		int core = machine_cpu_core(m, c) - pkg * m->cores_per_package;
		unsigned mhz = m->base_khz / 1000;
		if (power)
			used += (size_t)snprintf(L->cpuinfo + used, cap - used,
						 "processor\t: %d\ncpu\t\t: %s\nclock\t\t: %u.000000MHz\n\n",
						 c, desc, mhz);
		else
			used += (size_t)snprintf(L->cpuinfo + used, cap - used,
						 "processor\t: %d\nvendor_id\t: %s\nmodel name\t: %s\n"
						 "cpu MHz\t\t: %u.000\nphysical id\t: %d\nsiblings\t: %d\n"
						 "core id\t\t: %d\ncpu cores\t: %d\n\n",
						 c, contains_ci(desc, "AMD") ? "AuthenticAMD" : "GenuineIntel",
						 desc, mhz, pkg, m->cores_per_package * m->threads_per_core,
						 core, m->cores_per_package);
		if (used >= cap)
			break;
	}
	return 0;
}

/* --- Regular expressions --- */

/* Python's re for the patterns profiles use, on POSIX extended regexes with
 * GNU's \s \S \w \W \b \B: \d and \D are rewritten, (?...) is refused. */
int pf_regex_search(const char *pattern, const char *text, char *why, size_t len)
{
	char ere[2048];
	size_t o = 0;
	bool bracket = false;

	for (const char *c = pattern; *c; c++) {
		if (o + 8 >= sizeof(ere)) {
			snprintf(why, len, "regular expression too long");
			return -1;
		}
		if (!bracket && c[0] == '(' && c[1] == '?') {
			snprintf(why, len, "'(?...)' in '%s' is Python-only (expected a POSIX extended "
				 "regular expression)", pattern);
			return -1;
		}
		if (c[0] == '\\' && c[1]) {
			if (!bracket && (c[1] == 'd' || c[1] == 'D')) {
				o += (size_t)snprintf(ere + o, sizeof(ere) - o, "%s",
						      c[1] == 'd' ? "[0-9]" : "[^0-9]");
				c++;
				continue;
			}
			ere[o++] = *c++;
			ere[o++] = *c;
			continue;
		}
		if (*c == '[' && !bracket) {
			bracket = true;
			ere[o++] = *c;
			if (c[1] == '^')
				ere[o++] = *++c;
			if (c[1] == ']')
				ere[o++] = *++c; /* a literal ']' first */
			continue;
		}
		if (*c == ']' && bracket)
			bracket = false;
		ere[o++] = *c;
	}
	ere[o] = '\0';

	regex_t re;
	int rc = regcomp(&re, ere, REG_EXTENDED | REG_NEWLINE | REG_NOSUB);
	if (rc) {
		char msg[128];
		regerror(rc, &re, msg, sizeof(msg));
		snprintf(why, len, "bad regular expression '%s': %s", pattern, msg);
		return -1;
	}
	rc = regexec(&re, text, 0, NULL, 0);
	regfree(&re);
	return rc == 0;
}

/* --- Expansion --- */

struct out {
	char *buf;
	size_t len, used;
	bool full;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->used + n >= o->len) {
		o->full = true;
		return;
	}
	memcpy(o->buf + o->used, s, n);
	o->used += n;
	o->buf[o->used] = '\0';
}

struct where {
	const char *file;
	int line;
	int upto;    /* variables visible: index < upto (a variable's own definition) */
	bool in_var; /* expanding a [variables] value */
};

static int expand(struct pf_load *L, const char *s, size_t n, const struct where *w,
		  struct out *o, int depth);

/* The '}' closing the "${" at s (nested "${...}" count), or NULL. */
static const char *closing(const char *s, const char *end)
{
	int level = 0;
	for (const char *c = s; c < end; c++) {
		if (c[0] == '$' && c + 1 < end && c[1] == '{') {
			level++;
			c++;
		} else if (*c == '}' && --level == 0) {
			return c;
		}
	}
	return NULL;
}

/* "NAME}" with NAME of word characters: what tuned unescapes after "\\${". */
static bool escaped_name(const char *s)
{
	size_t n = 0;
	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	return n > 0 && s[n] == '}';
}

static int var_index(const struct pf_load *L, const char *name, size_t n, int upto)
{
	for (int i = upto - 1; i >= 0; i--)
		if (strlen(L->vars[i].name) == n && memcmp(L->vars[i].name, name, n) == 0)
			return i;
	return -1;
}

static bool word(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

static int fn_call(struct pf_load *L, char *call, const struct where *w, struct out *o)
{
	char *argv[MAX_FN_ARGS];
	int argc = 0;
	char *a = call, *wr = call;

	/* Split at ':' not escaped by '\'; "\:" is a literal ':'. */
	argv[argc++] = wr;
	for (; *a; a++) {
		if (a[0] == '\\' && a[1] == ':') {
			*wr++ = ':';
			a++;
		} else if (*a == ':') {
			*wr++ = '\0';
			if (argc == MAX_FN_ARGS)
				return pm_fail_at(L->d, w->file, w->line, "${f:%s}: too many arguments "
						  "(expected at most %d)", argv[0], MAX_FN_ARGS - 1);
			argv[argc++] = wr;
		} else {
			*wr++ = *a;
		}
	}
	*wr = '\0';
	char res[EXPAND_MAX];
	if (pf_function(L, argv, argc, w->file, w->line, res, sizeof(res)))
		return -1;
	put(o, res, strlen(res));
	return 0;
}

static int reference(struct pf_load *L, const char *inner, size_t n, const struct where *w,
		     struct out *o, int depth)
{
	if (n >= 2 && inner[0] == 'f' && inner[1] == ':') {
		char args[EXPAND_MAX];
		struct out a = { args, sizeof(args), 0, false };
		args[0] = '\0';
		if (expand(L, inner + 2, n - 2, w, &a, depth + 1))
			return -1;
		if (a.full)
			return pm_fail_at(L->d, w->file, w->line, "value too long after expansion "
					  "(expected at most %d characters)", EXPAND_MAX - 1);
		return fn_call(L, args, w, o);
	}
	if (n == 13 && memcmp(inner, "i:PROFILE_DIR", 13) == 0) {
		/* absolute, as tuned's: a relative include= of it stays right */
		char dir[EXPAND_MAX], *real;
		const char *slash = strrchr(w->file, '/');
		snprintf(dir, sizeof(dir), "%.*s", slash ? (slash == w->file ? 1 :
			 (int)(slash - w->file)) : 1, slash ? w->file : ".");
		if ((real = realpath(dir, NULL)) != NULL) {
			put(o, real, strlen(real));
			free(real);
		} else {
			put(o, dir, strlen(dir));
		}
		return 0;
	}
	if (!word(inner, n))
		return pm_fail_at(L->d, w->file, w->line, "'${%.*s}' is not a variable reference "
				  "(expected ${NAME}, ${i:PROFILE_DIR} or ${f:FUNCTION:ARGS})",
				  (int)(n > 60 ? 60 : n), inner);
	int i = var_index(L, inner, n, w->upto);
	if (i < 0 && w->in_var) {
		/* tuned leaves ${NAME} as it is when NAME is not (yet) defined:
		 * "X = ${X}" keeps a value an included file gave, else stays
		 * "${X}" for an assertion to catch. In an option it is an error. */
		put(o, inner - 2, n + 3);
		return 0;
	}
	if (i < 0)
		return pm_fail_at(L->d, w->file, w->line, "unknown variable '%.*s' (expected one "
				  "defined in [variables] before it is used)", (int)n, inner);
	/* A variable's value is expanded with the variables defined before it;
	 * tuned stores it expanded and unescapes once more where it is used,
	 * so "\\${X}" in a definition inserts "${X}". */
	const struct pf_var *v = &L->vars[i];
	struct where vw = { v->file, v->line, i, true };
	char val[EXPAND_MAX];
	struct out vo = { val, sizeof(val), 0, false };
	val[0] = '\0';
	if (expand(L, v->value, strlen(v->value), &vw, &vo, depth + 1))
		return -1;
	if (vo.full)
		return pm_fail_at(L->d, v->file, v->line, "value too long after expansion "
				  "(expected at most %d characters)", EXPAND_MAX - 1);
	for (const char *c = val; *c; c++) {
		if (c[0] == '\\' && c[1] == '$' && c[2] == '{' && escaped_name(c + 3))
			continue; /* drop the backslash */
		put(o, c, 1);
	}
	return 0;
}

static int expand(struct pf_load *L, const char *s, size_t n, const struct where *w,
		  struct out *o, int depth)
{
	const char *end = s + n;

	if (depth > EXPAND_DEPTH)
		return pm_fail_at(L->d, w->file, w->line, "variables and functions nest more "
				  "than %d deep (expected a shorter chain of variables that use "
				  "variables)", EXPAND_DEPTH);
	for (const char *c = s; c < end;) {
		if (c[0] == '\\' && c + 2 < end && c[1] == '$' && c[2] == '{') {
			put(o, "${", 2); /* \${ is a literal ${ */
			c += 3;
			continue;
		}
		if (c[0] == '$' && c + 1 < end && c[1] == '{') {
			const char *close = closing(c, end);
			if (!close)
				return pm_fail_at(L->d, w->file, w->line, "'${' without its '}' "
						  "(expected ${NAME})");
			if (reference(L, c + 2, (size_t)(close - c - 2), w, o, depth))
				return -1;
			c = close + 1;
			continue;
		}
		put(o, c, 1);
		c++;
	}
	return 0;
}

int pf_expand_at(struct pf_load *L, const char *s, const char *file, int line, char *out,
		 size_t len)
{
	struct out o = { out, len, 0, false };
	struct where w = { file, line, L->nvars, false };

	out[0] = '\0';
	if (expand(L, s, strlen(s), &w, &o, 0))
		return -1;
	if (o.full)
		return pm_fail_at(L->d, file, line, "value too long after expansion (expected at "
				  "most %zu characters)", len - 1);
	return 0;
}

int pf_expand(struct pf_load *L, const struct pf_opt *opt, char *out, size_t len)
{
	return pf_expand_at(L, opt->value, opt->file, opt->line, out, len);
}

/* --- [variables] --- */

static int define(struct pf_load *L, const struct pf_opt *o)
{
	if (!word(o->key, strlen(o->key)))
		return pm_fail_at(L->d, o->file, o->line, "variable name '%s' (expected letters, "
				  "digits and '_')", o->key);
	if (L->nvars == L->capvars) {
		int cap = L->capvars ? 2 * L->capvars : 16;
		struct pf_var *grown = realloc(L->vars, (size_t)cap * sizeof(*grown));
		if (!grown)
			return pm_fail(L->d, "out of memory");
		L->vars = grown;
		L->capvars = cap;
	}
	L->vars[L->nvars++] = (struct pf_var){ o->key, o->value, o->file, o->line };
	return 0;
}

static int include_vars(struct pf_load *L, const struct pf_opt *o)
{
	char path[EXPAND_MAX], full[EXPAND_MAX + 64];

	if (pf_expand(L, o, path, sizeof(path)))
		return -1;
	if (path[0] != '/') {
		const char *slash = strrchr(o->file, '/');
		snprintf(full, sizeof(full), "%.*s/%s", slash ? (int)(slash - o->file) : 1,
			 slash ? o->file : ".", path);
	} else {
		snprintf(full, sizeof(full), "%s", path);
	}
	if (L->nfiles == L->capfiles) {
		int cap = L->capfiles ? 2 * L->capfiles : 8;
		struct pf_file **grown = realloc(L->files, (size_t)cap * sizeof(*grown));
		if (!grown)
			return pm_fail(L->d, "out of memory");
		L->files = grown;
		L->capfiles = cap;
	}
	struct stat sb;
	if (stat(full, &sb) < 0 && errno == ENOENT) {
		/* tuned logs "unable to find variables_file" and goes on */
		char what[128], where[PROFILE_TEXT_MAX];
		snprintf(what, sizeof(what), "[variables] include=%.100s", o->value);
		pf_where(o, where, sizeof(where));
		return pf_load_note(L, what, where, "no such file: skipped, as tuned does (its "
				    "variables stay undefined)");
	}
	struct pf_file *f = calloc(1, sizeof(*f));
	if (!f)
		return pm_fail(L->d, "out of memory");
	L->files[L->nfiles++] = f;
	struct pm_diag inner = { "" };
	if (pf_ini_load(f, full, &inner))
		return pm_fail_at(L->d, o->file, o->line, "[variables] include=%s: %s", o->value,
				  inner.msg);
	for (int s = 0; s < f->nsecs; s++)
		for (int i = 0; i < f->secs[s].nopts; i++)
			if (define(L, &f->secs[s].opts[i]))
				return -1;
	return 0;
}

int pf_define_vars(struct pf_load *L)
{
	for (int i = 0; i < L->nvaropts; i++) {
		const struct pf_opt *o = &L->varopts[i];
		if (strcmp(o->key, "include") == 0 ? include_vars(L, o) : define(L, o))
			return -1;
	}
	/* tuned expands each variable as it is defined, so an assertion in one
	 * fails the load even if nothing uses it; the rest are expanded where
	 * pmlab uses them (a ${f:exec} nothing modelled uses is no error). */
	for (int i = 0; i < L->nvars; i++) {
		const struct pf_var *v = &L->vars[i];
		if (!strstr(v->value, "f:assertion"))
			continue;
		char buf[EXPAND_MAX];
		struct out o = { buf, sizeof(buf), 0, false };
		struct where w = { v->file, v->line, i, true };
		if (expand(L, v->value, strlen(v->value), &w, &o, 0))
			return -1;
	}
	return 0;
}

int pf_load_note(struct pf_load *L, const char *what, const char *origin, const char *why)
{
	for (int i = 0; i < L->nnotes; i++)
		if (strcmp(L->notes[i].what, what) == 0 && strcmp(L->notes[i].origin, origin) == 0)
			return 0; /* a variable expanded twice */
	if (L->nnotes == L->capnotes) {
		int cap = L->capnotes ? 2 * L->capnotes : 4;
		struct profile_skip *grown = realloc(L->notes, (size_t)cap * sizeof(*grown));
		if (!grown)
			return pm_fail(L->d, "out of memory");
		L->notes = grown;
		L->capnotes = cap;
	}
	struct profile_skip *n = &L->notes[L->nnotes++];
	snprintf(n->what, sizeof(n->what), "%s", what);
	snprintf(n->origin, sizeof(n->origin), "%s", origin);
	snprintf(n->why, sizeof(n->why), "%s", why);
	return 0;
}

void pf_load_free(struct pf_load *L)
{
	for (int i = 0; i < L->nfiles; i++) {
		pf_file_free(L->files[i]);
		free(L->files[i]);
	}
	free(L->files);
	for (int i = 0; i < L->depth; i++)
		free(L->chain[i]);
	for (int i = 0; i < L->nunits; i++)
		free(L->units[i].opts);
	free(L->units);
	free(L->varopts);
	free(L->vars);
	free(L->insts);
	free(L->top_path);
	free(L->cpuinfo);
	free(L->notes);
	memset(L, 0, sizeof(*L));
}
