// SPDX-License-Identifier: GPL-2.0-only
/* The inputs of a result in every format (inputs.h). */
#include "inputs.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json_build.h"
#include "result.h"
#include "texttable.h"

int inputs_set_machine(struct run_inputs *in, const struct machine *m)
{
	char *ini = machine_to_ini(m);
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a 64 */

	if (!ini)
		return -1;
	for (const unsigned char *p = (const unsigned char *)ini; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	free(ini);
	snprintf(in->machine, sizeof(in->machine), "%s", m->name);
	snprintf(in->machine_hash, sizeof(in->machine_hash), "%016" PRIx64, h);
	return 0;
}

/* Appends s to the growing string, single-quoted for sh when it holds
 * anything but letters, digits and -_.,:=/+%@. */
struct buf {
	char *s;
	size_t len, cap;
	int err;
};

static void add(struct buf *b, const char *s, size_t n)
{
	if (b->err)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;
		char *g = realloc(b->s, cap);

		if (!g) {
			b->err = 1;
			return;
		}
		b->s = g;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void word(struct buf *b, const char *s)
{
	add(b, " ", 1);
	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "-_.,:=/+%@") == strlen(s)) {
		add(b, s, strlen(s));
		return;
	}
	add(b, "'", 1);
	for (; *s; s++)
		if (*s == '\'')
			add(b, "'\\''", 4);
		else
			add(b, s, 1);
	add(b, "'", 1);
}

static void opt(struct buf *b, const char *name, const char *value)
{
	if (!value)
		return;
	word(b, name);
	word(b, value);
}

char *inputs_command(const struct run_inputs *in)
{
	struct buf b = { NULL, 0, 0, 0 };
	char num[RESULT_NUM_MAX];

	add(&b, "pmlab", 5);
	word(&b, in->command);
	if (in->trace)
		word(&b, in->trace);
	/* A replay without --machine runs on the machine the trace implies. */
	if (!in->trace || in->machine_arg)
		opt(&b, "--machine", in->machine_arg ? in->machine_arg : in->machine);
	if (in->cpus > 0) {
		snprintf(num, sizeof(num), "%d", in->cpus);
		opt(&b, "--cpus", num);
	}
	opt(&b, "--workload", in->workload);
	opt(&b, "--cpufreq", in->cpufreq);
	opt(&b, "--cpuidle", in->cpuidle);
	opt(&b, "--profile", in->profile);
	for (int i = 0; i < in->nsets; i++)
		opt(&b, "--set", in->sets[i]);
	if (in->nprofiles > 0) {
		struct buf list = { NULL, 0, 0, 0 };

		for (int i = 0; i < in->nprofiles; i++) {
			if (i)
				add(&list, ",", 1);
			add(&list, in->profiles[i], strlen(in->profiles[i]));
		}
		opt(&b, "--profiles", list.err ? "" : list.s);
		b.err |= list.err;
		free(list.s);
	}
	if (in->runs > 0) {
		snprintf(num, sizeof(num), "%d", in->runs);
		opt(&b, "--runs", num);
	}
	for (int i = 0; i < in->nextra; i++)
		word(&b, in->extra[i]);
	snprintf(num, sizeof(num), "%" PRIu64, in->seed);
	opt(&b, "--seed", num);
	opt(&b, "--duration", result_fmt_num(num, sizeof(num), in->duration_s, -9));
	if (b.err) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

/* The command, broken before an option where it would pass the width,
 * with the shell's " \\" at the end of every line but the last: it pastes. */
static void command_lines(FILE *out, const char *cmd, int indent)
{
	int w = text_width(), col = indent;
	const char *p = cmd;

	fprintf(out, "%*s", indent, "");
	while (*p) {
		const char *next = strstr(p + 1, " --");
		size_t n = next ? (size_t)(next - p) : strlen(p);

		if (p != cmd && w > 0 && col + (int)n + 2 > w) {
			fprintf(out, " \\\n%*s", indent + 2, "");
			col = indent + 2;
			while (*p == ' ') {
				p++;
				n--;
			}
		}
		fwrite(p, 1, n, out);
		col += (int)n;
		p += n;
	}
	fputc('\n', out);
}

void inputs_write_table(FILE *out, const struct run_inputs *in)
{
	char *cmd = inputs_command(in), text[512];

	snprintf(text, sizeof(text), "pmlab %s, machine %s (INI fnv1a64 %s); to run it again:",
		 in->version, in->machine, in->machine_hash);
	text_wrap(out, "inputs: ", text, 4);
	if (cmd)
		command_lines(out, cmd, 4);
	free(cmd);
}

static void line(FILE *out, const char *key, const char *value)
{
	if (!value)
		return;
	fprintf(out, "# %s: ", key);
	/* A value never ends the comment early. */
	for (; *value; value++)
		fputc(*value == '\n' || *value == '\r' ? ' ' : *value, out);
	fputc('\n', out);
}

void inputs_write_csv(FILE *out, const struct run_inputs *in)
{
	char num[RESULT_NUM_MAX], *cmd = inputs_command(in);

	line(out, "pmlab_version", in->version);
	line(out, "command", cmd);
	line(out, "machine", in->machine);
	line(out, "machine_ini_fnv1a64", in->machine_hash);
	line(out, "workload", in->workload);
	line(out, "trace", in->trace);
	line(out, "cpufreq", in->cpufreq);
	line(out, "cpuidle", in->cpuidle);
	line(out, "profile", in->profile);
	for (int i = 0; i < in->nsets; i++)
		line(out, "set", in->sets[i]);
	for (int i = 0; i < in->nprofiles; i++)
		line(out, "profiles", in->profiles[i]);
	snprintf(num, sizeof(num), "%" PRIu64, in->seed);
	line(out, "seed", num);
	line(out, "duration_s", result_fmt_num(num, sizeof(num), in->duration_s, -9));
	free(cmd);
}

static json_t *jstr_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *jlist(struct jctx *c, const char *const *v, int n)
{
	json_t *a = json_array();

	for (int i = 0; a && i < n; i++)
		append(c, a, json_string(v[i]));
	return a;
}

json_t *inputs_json(const struct run_inputs *in)
{
	struct jctx c = { 0 };
	json_t *o = json_object();
	char *cmd = inputs_command(in);

	if (!o || !cmd) {
		json_decref(o);
		free(cmd);
		return NULL;
	}
	put(&c, o, "pmlab_version", json_string(in->version));
	put(&c, o, "command", json_string(cmd));
	put(&c, o, "machine", json_string(in->machine));
	put(&c, o, "machine_ini_fnv1a64", json_string(in->machine_hash));
	put(&c, o, "cpus", in->cpus > 0 ? json_integer(in->cpus) : json_null());
	put(&c, o, "workload", jstr_or_null(in->workload));
	if (in->trace)
		put(&c, o, "trace", json_string(in->trace));
	put(&c, o, "cpufreq", jstr_or_null(in->cpufreq));
	put(&c, o, "cpuidle", jstr_or_null(in->cpuidle));
	put(&c, o, "profile", jstr_or_null(in->profile));
	put(&c, o, "sets", jlist(&c, in->sets, in->nsets));
	if (in->nprofiles > 0) {
		put(&c, o, "profiles", jlist(&c, in->profiles, in->nprofiles));
		put(&c, o, "runs", json_integer(in->runs));
	}
	put(&c, o, "seed", json_integer(in->seed > INT64_MAX ? INT64_MAX : (json_int_t)in->seed));
	put(&c, o, "duration_s", jnum(in->duration_s));
	free(cmd);
	if (c.err) {
		json_decref(o);
		return NULL;
	}
	return o;
}
