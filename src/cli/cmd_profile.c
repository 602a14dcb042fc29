// SPDX-License-Identifier: GPL-2.0-only
/* pmlab profile: tuned profiles as pmlab reads them. `show` resolves one
 * against a machine and prints what it sets, from which line, and what it
 * leaves out and why; `list` prints the profiles in the search path. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../lab/runspec.h"
#include "../metrics/texttable.h"
#include "../profile/profile.h"
#include "cli.h"
#include "options.h"

void usage_profile(void)
{
	printf("usage: pmlab profile show NAME|PATH[:OPTION=VALUE,...] [options]\n"
	       "       pmlab profile list [--profile-dir DIR]\n");
	usage_profile_host(); /* apply|off|verify|active: the host backend's */
	printf("\nIn the simulator: show reads a tuned profile (tuned.conf) as pmlab sim applies\n"
	       "it: the frequency governor, the --set settings its options become, each with\n"
	       "the file and line it came from, and the options pmlab does not model, each\n"
	       "with the reason; list prints the profiles found, with summaries. NAME is\n"
	       "searched in --profile-dir, $PMLAB_PROFILE_PATH, data/profiles, pmlab's installed\n"
	       "profiles, /etc/tuned/profiles, /etc/tuned, /usr/lib/tuned/profiles and\n"
	       "/usr/lib/tuned; FAMILY/NAME names one a level down (tuned-2.3/balanced).\n"
	       "OPTION=VALUE pairs after ':' override [cpu] options (balanced:governor=conservative);\n"
	       "tuned=X.Y there picks the tuned version emulated (default: the profile's, else 2.20).\n\n"
	       "show options:\n"
	       "  -m, --machine M      machine the profile is resolved against (default i7-4790):\n"
	       "                       its C-states (force_latency=cstate.id:N), CPUs, cpuinfo\n"
	       "      --cpus N         restrict the machine to its first N CPUs\n"
	       "      --cpufreq G      the governor that will run, as pmlab sim --cpufreq does:\n"
	       "                       it wins over the profile's; intel_pstate reads the profile's\n"
	       "                       governor=performance|powersave as its own policy\n"
	       "      --profile-dir DIR  look for profiles in DIR first; repeatable\n"
	       "  -f, --format F       table (default) or json\n");
}

static void print_table(const struct profile *p, const struct machine *m)
{
	printf("profile  %s\n", p->name);
	printf("summary  %s\n", p->summary[0] ? p->summary : "-");
	printf("file     %s\n", p->path);
	printf("machine  %s, %d CPUs, cpufreq driver %s\n", m->name, m->online_cpus, p->driver);
	if (p->daemon[0]) { /* ppd/NAME: no tuned version, no uname_regex */
		printf("daemon   %s\n", p->daemon);
	} else {
		printf("uname    %s\n", p->uname);
		printf("tuned    %d.%d (the version emulated; NAME:tuned=X.Y picks another)\n",
		       p->tuned_version / 100, p->tuned_version % 100);
	}
	if (p->cpufreq[0])
		printf("governor %s\n  from %s\n", p->cpufreq,
		       p->cpufreq_origin[0] ? p->cpufreq_origin : "the caller (--cpufreq)");
	else
		printf("governor - (the caller's: pmlab sim --cpufreq, else the machine's default)\n");
	printf("\nsettings (pmlab sim --set, before the user's):\n");
	if (!p->nsettings)
		printf("  (none)\n");
	for (int i = 0; i < p->nsettings; i++) {
		printf("  %s\n    from %s\n", p->settings[i].kv, p->settings[i].origin);
		if (p->settings[i].host_only)
			printf("    host only: %s\n", profile_host_only_why(p->settings[i].key));
	}
	printf("\nnot applied:\n");
	if (!p->nskipped)
		printf("  (none)\n");
	for (int i = 0; i < p->nskipped; i++)
		printf("  %s\n    at %s: %s\n", p->skipped[i].what, p->skipped[i].origin,
		       p->skipped[i].why);
}

/* Sets root[key] = v; jansson refuses a NULL v (json_string() of text
 * that is not UTF-8), which *bad records instead of printing a partial
 * object. */
static void put(json_t *root, const char *key, json_t *v, int *bad)
{
	if (json_object_set_new(root, key, v) < 0)
		*bad = 1;
}

static int print_json(const struct profile *p, const struct machine *m)
{
	json_t *root = json_object(), *sets = json_array(), *skips = json_array();
	int bad = !root || !sets || !skips, rc = -1;

	put(root, "profile", json_string(p->name), &bad);
	put(root, "summary", json_string(p->summary), &bad);
	put(root, "file", json_string(p->path), &bad);
	put(root, "machine", json_string(m->name), &bad);
	put(root, "cpus", json_integer(m->online_cpus), &bad);
	put(root, "driver", json_string(p->driver), &bad);
	if (p->daemon[0]) {
		put(root, "daemon", json_string(p->daemon), &bad);
	} else {
		char version[16];
		snprintf(version, sizeof(version), "%d.%d", p->tuned_version / 100,
			 p->tuned_version % 100);
		put(root, "uname", json_string(p->uname), &bad);
		put(root, "tuned_version", json_string(version), &bad);
	}
	put(root, "cpufreq", json_string(p->cpufreq), &bad);
	put(root, "cpufreq_origin", json_string(p->cpufreq_origin), &bad);
	for (int i = 0; i < p->nsettings; i++) {
		json_t *s = json_object();
		put(s, "key", json_string(p->settings[i].key), &bad);
		put(s, "value", json_string(p->settings[i].value), &bad);
		put(s, "origin", json_string(p->settings[i].origin), &bad);
		put(s, "host_only", json_boolean(p->settings[i].host_only), &bad);
		bad |= json_array_append_new(sets, s) < 0;
	}
	put(root, "settings", sets, &bad);
	for (int i = 0; i < p->nskipped; i++) {
		json_t *s = json_object();
		put(s, "what", json_string(p->skipped[i].what), &bad);
		put(s, "origin", json_string(p->skipped[i].origin), &bad);
		put(s, "why", json_string(p->skipped[i].why), &bad);
		bad |= json_array_append_new(skips, s) < 0;
	}
	put(root, "not_applied", skips, &bad);
	if (!bad && json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0 &&
	    putchar('\n') != EOF)
		rc = 0;
	json_decref(root);
	return rc;
}

static int show(const char *spec, const struct cli_opts *o)
{
	struct pm_diag d = { { 0 } };
	struct machine m;
	struct profile p;

	const char *why;

	if (cli_load_machine(o, &m) < 0)
		return EXIT_USAGE;
	/* Resolved for the governor that would run, as pmlab sim does. */
	struct profile_env env = {
		.cpufreq = o->cpufreq ? o->cpufreq : runspec_default_cpufreq(&m, 0, &why),
		.cpufreq_fixed = o->cpufreq != NULL,
	};
	if (profile_load_env(&p, spec, &m, &env, o->dirs, o->ndirs, &d) < 0)
		return cli_bad("%s", d.msg);
	int rc = EXIT_OK;
	if (o->format == CLI_JSON) {
		if (print_json(&p, &m) < 0) {
			fprintf(stderr, "pmlab: profile: cannot write JSON (text that is not UTF-8?)\n");
			rc = EXIT_RUNTIME;
		}
	} else {
		print_table(&p, &m);
	}
	if (fflush(stdout) != 0) {
		fprintf(stderr, "pmlab: profile: cannot write to standard output\n");
		rc = EXIT_RUNTIME;
	}
	profile_free(&p);
	return rc;
}

struct list_state {
	char dir[PROFILE_TEXT_MAX];
	int n;
};

static void list_one(void *ctx, const struct profile_entry *e)
{
	struct list_state *s = ctx;
	if (strcmp(s->dir, e->dir) != 0) {
		printf("%s%s:\n", s->n ? "\n" : "", e->dir);
		snprintf(s->dir, sizeof(s->dir), "%s", e->dir);
	}
	if (e->hidden_by[0]) {
		printf("  %-32s (hidden by %s/%s)\n", e->name, e->hidden_by, e->name);
	} else {
		char first[160];

		/* the summary wrapped to the width, under itself */
		snprintf(first, sizeof(first), "  %-32s ", e->name);
		text_wrap(stdout, first, e->summary[0] ? e->summary : "-", (int)strlen(first));
	}
	s->n++;
}

/* Notes the options that only show takes (list refuses them); the shared
 * parser takes them all. */
static int note_show_only(void *ctx, int opt, const char *arg)
{
	const char **show_only = ctx;

	(void)arg;
	if (opt == 'm' || opt == 'c' || opt == CLI_OPT_CPUFREQ || opt == 'f')
		*show_only = opt == 'm' ? "--machine" : opt == 'c' ? "--cpus" :
			     opt == 'f' ? "--format" : "--cpufreq";
	return 1;
}

static int list(const struct cli_opts *o)
{
	struct list_state s = { "", 0 };
	struct pm_diag d = { { 0 } };

	if (profile_list(o->dirs, o->ndirs, list_one, &s, &d) < 0) {
		fprintf(stderr, "pmlab: profile: %s\n", d.msg);
		return EXIT_RUNTIME;
	}
	if (!s.n)
		printf("(no profiles found)\n");
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_RUNTIME;
}

/* show or list, after the options; rest arguments in args. */
static int show_or_list(const char *sub, struct cli_opts *o, const char *show_only, int rest,
			char **args)
{
	if (strcmp(sub, "list") == 0) {
		if (rest != 0)
			return cli_bad("profile: list takes no argument, got '%s'", args[0]);
		if (show_only)
			return cli_bad("profile: list takes only --profile-dir, got '%s'", show_only);
		return list(o);
	}
	if (rest == 0)
		return cli_bad("profile: show needs a profile NAME or PATH (see pmlab profile --help)");
	if (rest > 1)
		return cli_bad("profile: show takes one profile, got '%s' too", args[1]);
	if (!o->machine)
		o->machine = "i7-4790";
	return show(args[0], o);
}

int cmd_profile(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_OPTION_MACHINE, CLI_OPTION_CPUS, CLI_OPTION_CPUFREQ, CLI_OPTION_PROFILE_DIR,
		CLI_OPTION_FORMAT, { 0, 0, 0, 0 },
	};
	const char *show_only = NULL; /* an option list does not take */
	struct cli_opts o;
	int i, rc = EXIT_USAGE;

	if (argc < 2)
		return cli_bad("profile: expected 'show NAME' or 'list' (see pmlab profile --help)");
	const char *sub = argv[1];
	if (strcmp(sub, "apply") == 0 || strcmp(sub, "off") == 0 || strcmp(sub, "verify") == 0 ||
	    strcmp(sub, "active") == 0 || strcmp(sub, "recommend") == 0)
		return cmd_profile_host(sub, argc - 1, argv + 1); /* on this machine: src/host */
	if (strcmp(sub, "show") != 0 && strcmp(sub, "list") != 0)
		return cli_bad("profile: unknown subcommand '%s' (expected show, list, apply, off, "
			       "verify, active or recommend)", sub);
	if (cli_opts_init(&o, "profile", CLI_FORMAT_BIT(CLI_TABLE) | CLI_FORMAT_BIT(CLI_JSON),
			  argc) < 0)
		return cli_bad("out of memory");
	i = cli_parse(&o, argc - 1, argv + 1, ":m:f:", opts, note_show_only, &show_only);
	if (i >= 0)
		rc = show_or_list(sub, &o, show_only, argc - 1 - i, argv + 1 + i);
	cli_opts_free(&o);
	return rc;
}
