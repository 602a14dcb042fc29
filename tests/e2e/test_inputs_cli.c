// SPDX-License-Identifier: GPL-2.0-only
/* End-to-end: every output records its inputs (issue 17) -- sweep, monitor
 * and bench as sim, compare and replay do -- and the command it prints runs
 * the same thing again. The host commands run on copies of the fake trees
 * in tests/fixtures/host. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "pmlab_run.h"

#define SWEEP "sweep --machine i7-4790 --workload pingpong --duration 0.05 --set hz=250 " \
	      "--vary cpufreq=performance,powersave --vary seed=3,4"
#define FIX PMLAB_SOURCE_ROOT "/tests/fixtures/host/"

static struct out ok(const char *args)
{
	struct out o = run(args);

	if (o.status != 0)
		fail_msg("pmlab %s: exit %d: %s", args, o.status, o.err);
	return o;
}

static void assert_contains(const char *text, const char *needle)
{
	if (!strstr(text, needle))
		fail_msg("output lacks '%s':\n%.2000s", needle, text);
}

static json_t *parse(const char *text)
{
	json_error_t err;
	json_t *j = json_loads(text, 0, &err);

	if (!j)
		fail_msg("bad JSON (%s): %.300s", err.text, text);
	return j;
}

/* The value of "# KEY: " in a CSV's inputs, copied (the caller frees). */
static char *csv_input(const char *text, const char *key)
{
	char head[64];
	snprintf(head, sizeof(head), "# %s: ", key);
	for (const char *l = text; l && *l == '#'; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (strncmp(l, head, strlen(head)) == 0)
			return strndup(l + strlen(head), strcspn(l + strlen(head), "\n"));
	fail_msg("no '%s' line in:\n%.1000s", head, text);
	return NULL;
}

/* Runs a printed command ("pmlab ARGS") with this pmlab, with more
 * arguments after it. */
static struct out rerun(const char *command, const char *more)
{
	char args[8192];
	assert_true(strncmp(command, "pmlab ", 6) == 0);
	snprintf(args, sizeof(args), "%s %s", command + 6, more);
	return ok(args);
}

/* A temporary file holding text; the caller unlinks and frees it. */
static char *save(const char *text)
{
	return write_temp(text, ".out");
}

/* The CSV's "#" lines: version, the command, machine and hash, workload,
 * the --set, each --vary axis, seed and duration; the JSON's "inputs" the
 * same; the printed command gives the same output again, byte for byte. */
static void test_sweep_inputs(void **state)
{
	(void)state;
	struct out csv = ok(SWEEP), json = ok(SWEEP " --format json");
	struct out sim = ok("sim --machine i7-4790 --workload pingpong --format csv");
	char *cmd = csv_input(csv.text, "command"), *hash = csv_input(sim.text, "machine_ini_fnv1a64");

	assert_string_equal(cmd, "pmlab sweep --machine i7-4790 --workload pingpong --set hz=250 "
				 "--vary cpufreq=performance,powersave --vary seed=3,4 "
				 "--duration 0.05"); /* no --seed: it is varied */
	assert_contains(csv.text, "# machine: i7-4790\n");
	char *sweep_hash = csv_input(csv.text, "machine_ini_fnv1a64");
	assert_string_equal(sweep_hash, hash); /* the same model as sim's */
	assert_contains(csv.text, "# set: hz=250\n# vary: cpufreq=performance,powersave\n"
				  "# vary: seed=3,4\n");
	assert_null(strstr(csv.text, "# seed:"));
	assert_contains(csv.text, "# duration_s: 0.05\n");
	struct out again = rerun(cmd, "");
	assert_string_equal(again.text, csv.text);
	out_free(&again);

	json_t *root = parse(json.text), *in = json_object_get(root, "inputs");
	assert_string_equal(json_string_value(json_object_get(root, "schema")), "pmlab-sweep");
	assert_int_equal(json_integer_value(json_object_get(root, "version")), 2);
	assert_string_equal(json_string_value(json_object_get(in, "command")), cmd);
	assert_string_equal(json_string_value(json_object_get(in, "machine_ini_fnv1a64")), hash);
	json_t *vary = json_object_get(in, "vary");
	assert_int_equal(json_array_size(json_object_get(vary, "cpufreq")), 2);
	assert_string_equal(json_string_value(json_array_get(json_object_get(vary, "seed"), 1)), "4");
	assert_true(json_is_null(json_object_get(in, "seed")));
	assert_string_equal(json_string_value(json_array_get(json_object_get(in, "sets"), 0)),
			    "hz=250");
	assert_int_equal(json_array_size(json_object_get(root, "points")), 4);
	again = rerun(cmd, "--format json");
	assert_string_equal(again.text, json.text);
	out_free(&again);
	json_decref(root);

	/* HTML names them too */
	again = rerun(cmd, "--format html");
	assert_contains(again.text, "Inputs: pmlab ");
	assert_contains(again.text, "--vary seed=3,4");
	out_free(&again);
	free(cmd);
	free(hash);
	free(sweep_hash);
	out_free(&csv);
	out_free(&json);
	out_free(&sim);
}

/* A varied machine or --cpus: every machine with its hash; the command
 * leaves the varied options out. */
static void test_sweep_machines(void **state)
{
	(void)state;
	struct out o = ok("sweep --workload pingpong --duration 0.02 "
			  "--vary machine=i7-4790,xeon-e5-2650l-v3 --vary cpus=2,4 --format json");
	struct out sim = ok("sim --machine xeon-e5-2650l-v3 --cpus 4 --workload pingpong --format json");
	json_t *root = parse(o.text), *in = json_object_get(root, "inputs");
	json_t *s = parse(sim.text);
	json_t *ms = json_object_get(in, "machines"), *last = json_array_get(ms, 3);

	assert_true(json_is_null(json_object_get(in, "machine")));
	assert_int_equal(json_array_size(ms), 4);
	assert_string_equal(json_string_value(json_object_get(last, "machine")), "xeon-e5-2650l-v3");
	assert_string_equal(json_string_value(json_object_get(last, "cpus")), "4");
	assert_string_equal(json_string_value(json_object_get(last, "machine_ini_fnv1a64")),
			    json_string_value(json_object_get(json_object_get(s, "inputs"),
							      "machine_ini_fnv1a64")));
	const char *cmd = json_string_value(json_object_get(in, "command"));
	assert_null(strstr(cmd, "--machine"));
	assert_null(strstr(cmd, "--cpus"));
	struct out again = rerun(cmd, "--format json");
	assert_string_equal(again.text, o.text);
	out_free(&again);
	json_decref(root);
	json_decref(s);
	out_free(&o);
	out_free(&sim);
	/* --cpus given for varied machines: the command keeps it */
	o = ok("sweep --workload pingpong --duration 0.02 --cpus 2 "
	       "--vary machine=i7-4790,xeon-e5-2650l-v3");
	char *c2 = csv_input(o.text, "command");
	assert_contains(c2, " --cpus 2 ");
	assert_contains(o.text, "# machines: xeon-e5-2650l-v3 --cpus 2 fnv1a64 ");
	again = rerun(c2, "");
	assert_string_equal(again.text, o.text);
	out_free(&again);
	free(c2);
	out_free(&o);
}

/* Every shard records the whole sweep's inputs and its shard (the same
 * machines whatever points it has); merge writes them without the shard,
 * as the unsharded sweep does, and refuses shards whose inputs differ. */
static void test_shard_inputs(void **state)
{
	(void)state;
	struct out all = ok(SWEEP), s[5];
	char *path[5], args[2048];

	for (int i = 0; i < 5; i++) {
		snprintf(args, sizeof(args), SWEEP " --shard %d/5", i);
		s[i] = ok(args);
		path[i] = save(s[i].text);
		char *shard = csv_input(s[i].text, "shard"), want[16];
		snprintf(want, sizeof(want), "%d/5", i);
		assert_string_equal(shard, want);
		free(shard);
		char *cmd = csv_input(s[i].text, "command"), *whole = csv_input(all.text, "command");
		assert_string_equal(cmd, whole); /* the whole sweep's command */
		free(cmd);
		free(whole);
	}
	assert_contains(s[4].text, "# machine: i7-4790\n"); /* no points, the same inputs */
	snprintf(args, sizeof(args), "merge %s %s %s %s %s", path[4], path[2], path[0], path[3],
		 path[1]);
	struct out m = ok(args);
	assert_string_equal(m.text, all.text);
	out_free(&m);

	/* another pmlab's shard: named by file and line */
	char *other = strdup(s[1].text), *v = strstr(other, "# pmlab_version: ");
	assert_non_null(v);
	v[17] = v[17] == '9' ? '8' : '9'; /* another version */
	char *po = save(other);
	snprintf(args, sizeof(args), "merge %s %s", path[0], po);
	m = run(args);
	char want[1024];
	snprintf(want, sizeof(want), "%s:1: the inputs differ from those of %s", po, path[0]);
	assert_usage_error(&m, want);
	out_free(&m);
	unlink(po);
	free(po);
	free(other);
	for (int i = 0; i < 5; i++) {
		unlink(path[i]);
		free(path[i]);
		out_free(&s[i]);
	}
	out_free(&all);
}

/* Shards written before inputs (version 1: a JSON array, a CSV without
 * "#" lines) still merge, into version 1; mixed with version 2, an error. */
static void test_merge_version_1(void **state)
{
	(void)state;
	struct out j[2], c[2];
	char *pj1[2], *pc1[2], *pj2, args[1024];

	for (int i = 0; i < 2; i++) {
		snprintf(args, sizeof(args), SWEEP " --format json --shard %d/2", i);
		j[i] = ok(args);
		snprintf(args, sizeof(args), SWEEP " --shard %d/2", i);
		c[i] = ok(args);
		/* version 1: the points as an array; a CSV without "#" lines */
		json_t *root = parse(j[i].text);
		char *v1 = json_dumps(json_object_get(root, "points"),
				      JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
		char *rows = csv_data(c[i].text);
		pj1[i] = save(v1);
		pc1[i] = save(rows);
		free(v1);
		free(rows);
		json_decref(root);
	}
	snprintf(args, sizeof(args), "merge %s %s", pj1[1], pj1[0]);
	struct out m = ok(args);
	json_t *merged = parse(m.text);
	assert_true(json_is_array(merged));
	assert_int_equal(json_array_size(merged), 4);
	assert_null(json_object_get(json_array_get(merged, 0), "sweep")); /* the identity dropped */
	json_decref(merged);
	out_free(&m);
	pj2 = save(j[0].text);
	snprintf(args, sizeof(args), "merge %s %s", pj2, pj1[1]);
	m = run(args);
	assert_usage_error(&m, "version 1 (no inputs)");
	out_free(&m);

	snprintf(args, sizeof(args), "merge %s %s", pc1[0], pc1[1]);
	m = ok(args);
	assert_true(strncmp(m.text, "point,", 6) == 0); /* no inputs */
	out_free(&m);
	/* a version this pmlab does not read */
	char *p3 = save("{\"schema\": \"pmlab-sweep\", \"version\": 3, \"points\": []}\n");
	snprintf(args, sizeof(args), "merge %s", p3);
	m = run(args);
	assert_usage_error(&m, "reads versions 1 and 2");
	out_free(&m);
	char *paths[] = { pj1[0], pj1[1], pc1[0], pc1[1], pj2, p3 };
	for (int i = 0; i < 6; i++) {
		unlink(paths[i]);
		free(paths[i]);
	}
	for (int i = 0; i < 2; i++) {
		out_free(&j[i]);
		out_free(&c[i]);
	}
}

/* sim from a machine file: the command names the file, not the model's
 * name (which no preset need have); --profile-dir is in it too. */
static void test_sim_machine_file(void **state)
{
	(void)state;
	struct out ini = ok("machines show i7-4790");
	char *text = strdup(ini.text), *name = strstr(text, "name = i7-4790");
	assert_non_null(name);
	memcpy(name, "name = mybox01", 14);
	char *path = write_temp(text, ".ini"), args[1024];
	snprintf(args, sizeof(args), "sim --machine %s --workload pingpong --duration 0.05 "
		 "--profile-dir %s --profile balanced --format csv", path,
		 PMLAB_SOURCE_ROOT "/tests/fixtures/host/profiles");
	struct out o = ok(args);
	char *cmd = csv_input(o.text, "command");
	assert_contains(cmd, path);
	assert_contains(cmd, "--profile-dir " PMLAB_SOURCE_ROOT "/tests/fixtures/host/profiles");
	struct out again = rerun(cmd, "--format csv");
	assert_string_equal(again.text, o.text);
	out_free(&again);
	free(cmd);
	unlink(path);
	free(path);
	free(text);
	out_free(&o);
	out_free(&ini);
}

/* A copy of a fake tree (the host commands never change it, but the
 * copy keeps the source tree safe). */
static char *tree(const char *name)
{
	char *dir = strdup("/tmp/pmlab-inputs-XXXXXX"), cmd[1024];
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "cp -a '" FIX "%s/.' '%s'", name, dir);
	assert_int_equal(system(cmd), 0);
	return dir;
}

static void drop(char *dir)
{
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(dir);
}

/* monitor: the interval (the default too), count, the root and the
 * wrapped command, in every format; the command runs the same monitor. */
static void test_monitor_inputs(void **state)
{
	(void)state;
	char *dir = tree("intel-hwp-laptop"), args[1024];
	snprintf(args, sizeof(args), "monitor -q --root %s --count 1 --interval 0.01 --format csv",
		 dir);
	struct out o = ok(args);
	char *cmd = csv_input(o.text, "command"), want[1024];
	snprintf(want, sizeof(want), "pmlab monitor --interval 0.01 --count 1 --root %s", dir);
	assert_string_equal(cmd, want);
	struct out again = rerun(cmd, "-q --format csv");
	char *a = csv_data(o.text), *b = csv_data(again.text);
	/* the same columns and rows (the figures are the machine's, of their moment) */
	assert_int_equal(strcspn(a, "\n"), strcspn(b, "\n"));
	assert_true(strncmp(a, b, strcspn(a, "\n")) == 0);
	free(a);
	free(b);
	out_free(&again);
	free(cmd);
	out_free(&o);

	snprintf(args, sizeof(args), "monitor -q --root %s --format json -- sh -c 'exit 0'", dir);
	o = ok(args);
	json_error_t err;
	json_t *first = json_loadb(o.text, strcspn(o.text, "\n"), 0, &err);
	assert_non_null(first);
	json_t *in = json_object_get(first, "inputs");
	snprintf(want, sizeof(want), "pmlab monitor --root %s -- sh -c 'exit 0'", dir);
	assert_string_equal(json_string_value(json_object_get(in, "command")), want);
	assert_string_equal(json_string_value(json_array_get(json_object_get(in, "wrapped_command"),
							     2)), "exit 0");
	json_t *second = parse(strchr(o.text, '\n') + 1);
	assert_non_null(json_object_get(second, "summary"));
	json_decref(second);
	json_decref(first);
	out_free(&o);

	snprintf(args, sizeof(args), "monitor -q --root %s --summary --count 1 --interval 0.01", dir);
	o = ok(args);
	snprintf(want, sizeof(want), "inputs: pmlab ");
	assert_true(strncmp(o.text, want, strlen(want)) == 0);
	snprintf(want, sizeof(want), "    pmlab monitor --interval 0.01 --count 1 --summary --root %s\n\nCPU ",
		 dir);
	assert_contains(o.text, want);
	out_free(&o);
	drop(dir);
}

/* bench: profiles, runs, baseline, profile directories, the root and
 * the command, in the table and the CSV. */
static void test_bench_inputs(void **state)
{
	(void)state;
	char *dir = tree("acpi-cpufreq-server"), args[1024], want[1024];
	snprintf(args, sizeof(args), "bench --root %s --profile-dir " FIX "profiles --profiles "
		 "balanced,powersave --runs 2 --baseline powersave --format csv -- true", dir);
	struct out o = ok(args);
	char *cmd = csv_input(o.text, "command");
	snprintf(want, sizeof(want), "pmlab bench --profiles balanced,powersave --runs 2 --baseline "
		 "powersave --profile-dir " FIX "profiles --root %s -- true", dir);
	assert_string_equal(cmd, want);
	assert_contains(o.text, "# profiles: balanced\n# profiles: powersave\n# runs: 2\n"
				"# baseline: powersave\n");
	assert_contains(o.text, "# wrapped_command: true\n");
	char *rows = csv_data(o.text);
	assert_true(strncmp(rows, "profile,run,", 12) == 0);
	free(rows);
	struct out again = rerun(cmd, "");
	assert_true(strncmp(again.text, "inputs: pmlab ", 14) == 0);
	assert_contains(again.text, "ratio to powersave");
	out_free(&again);
	free(cmd);
	out_free(&o);
	drop(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweep_inputs),
		cmocka_unit_test(test_sweep_machines),
		cmocka_unit_test(test_shard_inputs),
		cmocka_unit_test(test_merge_version_1),
		cmocka_unit_test(test_sim_machine_file),
		cmocka_unit_test(test_monitor_inputs),
		cmocka_unit_test(test_bench_inputs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
