// SPDX-License-Identifier: GPL-2.0-only
/* The inputs of a result in every format (inputs.h). */
#include "inputs.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json_build.h"
#include "result.h"
#include "texttable.h"

/* FNV-1a 64 of the machine's INI text, in hex. -1 on OOM. */
static int hash_of(const struct machine *m, char *hash)
{
	char *ini = machine_to_ini(m);
	uint64_t h = 0xcbf29ce484222325ull;

	if (!ini)
		return -1;
	for (const unsigned char *p = (const unsigned char *)ini; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	free(ini);
	snprintf(hash, INPUTS_HASH_MAX, "%016" PRIx64, h);
	return 0;
}

int inputs_set_machine(struct run_inputs *in, const struct machine *m)
{
	snprintf(in->machine, sizeof(in->machine), "%s", m->name);
	return hash_of(m, in->machine_hash);
}

int inputs_machine_of(struct inputs_machine *im, const char *spec, const char *cpus,
		      const struct machine *m)
{
	im->spec = spec;
	im->cpus = cpus;
	snprintf(im->name, sizeof(im->name), "%s", m->name);
	return hash_of(m, im->hash);
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

static void quoted(struct buf *b, const char *s)
{
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

static void word(struct buf *b, const char *s)
{
	add(b, " ", 1);
	quoted(b, s);
}

static void opt(struct buf *b, const char *name, const char *value)
{
	if (!value)
		return;
	word(b, name);
	word(b, value);
}

/* Whether the sweep varies key: its option is then left out (sweep
 * refuses both). */
static bool varied(const struct run_inputs *in, const char *key)
{
	size_t n = strlen(key);

	for (int i = 0; i < in->nvary; i++)
		if (strncmp(in->vary[i], key, n) == 0 && in->vary[i][n] == '=')
			return true;
	return false;
}

static void list_opt(struct buf *b, const char *name, const char *const *v, int n)
{
	struct buf list = { NULL, 0, 0, 0 };

	if (n <= 0)
		return;
	for (int i = 0; i < n; i++) {
		if (i)
			add(&list, ",", 1);
		add(&list, v[i], strlen(v[i]));
	}
	opt(b, name, list.err ? "" : list.s);
	b->err |= list.err;
	free(list.s);
}

char *inputs_command(const struct run_inputs *in)
{
	struct buf b = { NULL, 0, 0, 0 };
	char num[RESULT_NUM_MAX];

	/* The plugins a re-run loads from the path must be the same files. */
	if (in->plugin_path) {
		add(&b, "PMLAB_PLUGIN_PATH=", 18);
		quoted(&b, in->plugin_path);
		add(&b, " ", 1);
	}
	add(&b, "pmlab", 5);
	word(&b, in->command);
	if (in->trace)
		word(&b, in->trace);
	/* A replay without --machine runs on the machine the trace implies. */
	if (!in->host && !varied(in, "machine") && (!in->trace || in->machine_arg))
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
	list_opt(&b, "--profiles", in->profiles, in->nprofiles);
	if (in->runs > 0) {
		snprintf(num, sizeof(num), "%d", in->runs);
		opt(&b, "--runs", num);
	}
	for (int i = 0; i < in->nextra; i++)
		word(&b, in->extra[i]);
	for (int i = 0; i < in->nvary; i++)
		opt(&b, "--vary", in->vary[i]);
	for (int i = 0; i < in->ndirs; i++)
		opt(&b, "--profile-dir", in->dirs[i]);
	for (int i = 0; i < in->nplugins; i++)
		opt(&b, "--plugin", in->plugins[i]);
	if (!in->host && !varied(in, "seed")) {
		snprintf(num, sizeof(num), "%" PRIu64, in->seed);
		opt(&b, "--seed", num);
	}
	if (!in->host && !varied(in, "duration"))
		opt(&b, "--duration", result_fmt_num(num, sizeof(num), in->duration_s, -9));
	opt(&b, "--root", in->root);
	if (in->argv) {
		word(&b, "--");
		for (char *const *a = in->argv; *a; a++)
			word(&b, *a);
	}
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

void inputs_describe(char *text, size_t size, const struct run_inputs *in)
{
	size_t n;

	if (in->host)
		n = (size_t)snprintf(text, size, "pmlab %s, this machine%s%s%s", in->version,
				     in->root ? " (root " : "", in->root ? in->root : "",
				     in->root ? ")" : "");
	else if (in->nmachines > 0) {
		n = (size_t)snprintf(text, size, "pmlab %s, machines", in->version);
		for (int i = 0; i < in->nmachines && n < size; i++)
			n += (size_t)snprintf(text + n, size - n, "%s %s%s%s (INI fnv1a64 %s)",
					      i ? "," : "", in->machines[i].name,
					      in->machines[i].cpus ? " --cpus " : "",
					      in->machines[i].cpus ? in->machines[i].cpus : "",
					      in->machines[i].hash);
	}
	else
		n = (size_t)snprintf(text, size, "pmlab %s, machine %s (INI fnv1a64 %s)",
				     in->version, in->machine, in->machine_hash);
	for (int i = 0; i < in->npath_plugins && n < size; i++)
		n += (size_t)snprintf(text + n, size - n, "%s%s", i ? ", " : ", plugins of "
				      "PMLAB_PLUGIN_PATH: ", in->path_plugins[i]);
	if (in->shard && n < size)
		snprintf(text + n, size - n, ", shard %s of the sweep", in->shard);
}

void inputs_write_table(FILE *out, const struct run_inputs *in)
{
	char *cmd = inputs_command(in), text[1024];
	size_t n;

	inputs_describe(text, sizeof(text) - 24, in);
	n = strlen(text);
	snprintf(text + n, sizeof(text) - n, "; to run it again:");
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

static void lines(FILE *out, const char *key, const char *const *v, int n)
{
	for (int i = 0; i < n; i++)
		line(out, key, v[i]);
}

void inputs_write_csv(FILE *out, const struct run_inputs *in)
{
	char num[RESULT_NUM_MAX], *cmd = inputs_command(in);
	bool model = !in->host && in->nmachines == 0;

	line(out, "pmlab_version", in->version);
	line(out, "command", cmd);
	line(out, "shard", in->shard);
	line(out, "machine", model ? in->machine : NULL);
	line(out, "machine_ini_fnv1a64", model ? in->machine_hash : NULL);
	for (int i = 0; i < in->nmachines; i++) {
		char text[256];
		snprintf(text, sizeof(text), "%s%s%s fnv1a64 %s", in->machines[i].name,
			 in->machines[i].cpus ? " --cpus " : "",
			 in->machines[i].cpus ? in->machines[i].cpus : "", in->machines[i].hash);
		line(out, "machines", text);
	}
	line(out, "root", in->root);
	if (in->argv) {
		struct buf b = { NULL, 0, 0, 0 };
		for (char *const *a = in->argv; *a; a++)
			(a == in->argv ? quoted : word)(&b, *a);
		line(out, "wrapped_command", b.err ? NULL : b.s);
		free(b.s);
	}
	line(out, "workload", in->workload);
	line(out, "trace", in->trace);
	line(out, "cpufreq", in->cpufreq);
	line(out, "cpuidle", in->cpuidle);
	line(out, "profile", in->profile);
	lines(out, "set", in->sets, in->nsets);
	lines(out, "vary", in->vary, in->nvary);
	lines(out, "profiles", in->profiles, in->nprofiles);
	if (in->nprofiles > 0) {
		snprintf(num, sizeof(num), "%d", in->runs);
		line(out, "runs", num);
	}
	for (int i = 0; i + 1 < in->nextra; i++)
		if (strcmp(in->extra[i], "--baseline") == 0)
			line(out, "baseline", in->extra[i + 1]);
	lines(out, "profile_dir", in->dirs, in->ndirs);
	lines(out, "plugin", in->plugins, in->nplugins);
	line(out, "plugin_path", in->plugin_path);
	lines(out, "plugin_path_file", in->path_plugins, in->npath_plugins);
	if (!in->host && !varied(in, "seed")) {
		snprintf(num, sizeof(num), "%" PRIu64, in->seed);
		line(out, "seed", num);
	}
	if (!in->host && !varied(in, "duration"))
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

/* --vary KEY=V1,V2 as {"KEY": ["V1", "V2"]}, in the options' order. */
static json_t *jvary(struct jctx *c, const struct run_inputs *in)
{
	json_t *o = json_object();

	for (int i = 0; o && i < in->nvary; i++) {
		const char *eq = strchr(in->vary[i], '='), *v;
		json_t *vals = json_array();
		char key[256];

		if (!eq || (size_t)(eq - in->vary[i]) >= sizeof(key)) {
			json_decref(vals);
			continue;
		}
		snprintf(key, sizeof(key), "%.*s", (int)(eq - in->vary[i]), in->vary[i]);
		for (v = eq + 1; vals;) {
			size_t n = strcspn(v, ",");
			append(c, vals, json_stringn(v, n));
			if (!v[n])
				break;
			v += n + 1;
		}
		put(c, o, key, vals);
	}
	return o;
}

/* A sweep's machines: [{"machine", "cpus", "machine_ini_fnv1a64"}]. */
static json_t *jmachines(struct jctx *c, const struct run_inputs *in)
{
	json_t *a = json_array();

	for (int i = 0; a && i < in->nmachines; i++) {
		json_t *m = json_object();
		if (m) {
			put(c, m, "machine", json_string(in->machines[i].name));
			put(c, m, "cpus", jstr_or_null(in->machines[i].cpus));
			put(c, m, "machine_ini_fnv1a64", json_string(in->machines[i].hash));
		}
		append(c, a, m);
	}
	return a;
}

json_t *inputs_json(const struct run_inputs *in)
{
	struct jctx c = { 0 };
	json_t *o = json_object();
	char *cmd = inputs_command(in);
	bool model = !in->host && in->nmachines == 0;

	if (!o || !cmd) {
		json_decref(o);
		free(cmd);
		return NULL;
	}
	put(&c, o, "pmlab_version", json_string(in->version));
	put(&c, o, "command", json_string(cmd));
	if (in->shard)
		put(&c, o, "shard", json_string(in->shard));
	if (in->host) {
		put(&c, o, "root", jstr_or_null(in->root));
		put(&c, o, "wrapped_command", in->argv ? json_array() : json_null());
		for (char *const *a = in->argv; a && *a; a++)
			append(&c, json_object_get(o, "wrapped_command"), json_string(*a));
	} else {
		put(&c, o, "machine", model ? json_string(in->machine) : json_null());
		put(&c, o, "machine_ini_fnv1a64",
		    model ? json_string(in->machine_hash) : json_null());
		if (in->nmachines > 0)
			put(&c, o, "machines", jmachines(&c, in));
		put(&c, o, "cpus", in->cpus > 0 ? json_integer(in->cpus) : json_null());
		put(&c, o, "workload", jstr_or_null(in->workload));
		if (in->trace)
			put(&c, o, "trace", json_string(in->trace));
		put(&c, o, "cpufreq", jstr_or_null(in->cpufreq));
		put(&c, o, "cpuidle", jstr_or_null(in->cpuidle));
		put(&c, o, "profile", jstr_or_null(in->profile));
		put(&c, o, "sets", jlist(&c, in->sets, in->nsets));
	}
	if (in->nvary > 0)
		put(&c, o, "vary", jvary(&c, in));
	if (in->nprofiles > 0) {
		put(&c, o, "profiles", jlist(&c, in->profiles, in->nprofiles));
		put(&c, o, "runs", json_integer(in->runs));
	}
	if (in->nextra > 0)
		put(&c, o, "options", jlist(&c, in->extra, in->nextra));
	if (in->ndirs > 0)
		put(&c, o, "profile_dirs", jlist(&c, in->dirs, in->ndirs));
	if (!in->host) {
		put(&c, o, "plugins", jlist(&c, in->plugins, in->nplugins));
		put(&c, o, "plugin_path", jstr_or_null(in->plugin_path));
		if (in->plugin_path)
			put(&c, o, "plugin_path_files",
			    jlist(&c, in->path_plugins, in->npath_plugins));
		put(&c, o, "seed", varied(in, "seed") ? json_null() :
		    json_integer(in->seed > INT64_MAX ? INT64_MAX : (json_int_t)in->seed));
		put(&c, o, "duration_s", varied(in, "duration") ? json_null() : jnum(in->duration_s));
	}
	free(cmd);
	if (c.err) {
		json_decref(o);
		return NULL;
	}
	return o;
}
