// SPDX-License-Identifier: GPL-2.0-only
/* pmlab profile apply|off|verify|active: a tuned profile on this machine.
 * The work is in src/host/apply.c; this is options and output. Called
 * from cmd_profile.c's dispatch with argv[0] the subcommand. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../host/apply.h"
#include "../host/hostsig.h"
#include "../host/machine_kind.h"
#include "../host/peer.h"
#include "cli.h"
#include "options.h"

void usage_profile_host(void)
{
	printf("       pmlab profile apply NAME|PATH[:OPTION=VALUE,...] [--hold] [--dry-run]\n"
	       "                           [--force] [--profile-dir DIR] [--root DIR]\n"
	       "       pmlab profile off|verify|active [--root DIR]\n"
	       "       pmlab profile recommend [--quiet] [--root DIR]\n\n"
	       "On this machine: apply translates the profile into writes to this machine's\n"
	       "cpufreq, intel_pstate/amd_pstate, EPB, cpuidle and PM QoS files, skipping what\n"
	       "the hardware lacks (each skip is printed with the reason); it saves every old\n"
	       "value in /run/pmlab first and puts all of them back if any write fails. off\n"
	       "restores them; verify prints every file that no longer holds the profile's\n"
	       "value (exit 1 if any); active names the active profile. force_latency needs a\n"
	       "process holding /dev/cpu_dma_latency: pmlab daemon, or apply --hold.\n"
	       "apply refuses while tuned, power-profiles-daemon or a pmlab govd/bench runs\n"
	       "(named, with how to stop it) unless --force; off leaves a file another program\n"
	       "changed since the apply as it is, and says so. NAME:tuned=2.22 emulates another\n"
	       "tuned (default 2.20: its dynamic PM QoS for profiles without force_latency);\n"
	       "ppd/power-saver, ppd/balanced and ppd/performance write what\n"
	       "power-profiles-daemon writes on this machine's driver. recommend prints the\n"
	       "profile tuned-adm recommend picks for this kind of machine (tuned 2.27's rules:\n"
	       "virtual-guest in a virtual machine, throughput-performance on a server,\n"
	       "balanced otherwise) and, on standard error unless --quiet, why.\n\n"
	       "host options:\n"
	       "      --hold           keep the PM QoS latency request until a signal\n"
	       "      --dry-run        print what apply would write, change nothing\n"
	       "      --force          apply even while tuned or power-profiles-daemon runs\n"
	       "  -q, --quiet          recommend: the profile's name only\n"
	       "      --root DIR       the system root (default $PMLAB_ROOT, else /)\n");
}

static int open_root(struct hostfs *fs, const char *root)
{
	struct pm_diag d = { { 0 } };
	if (hostfs_open(fs, root, &d) < 0)
		return cli_bad("profile: %s", d.msg);
	return EXIT_OK;
}

static int runtime_error(const char *msg)
{
	fprintf(stderr, "pmlab: %s\n", msg);
	return EXIT_RUNTIME;
}

/* Holds the PM QoS request until SIGINT, SIGTERM or SIGHUP (the handlers
 * installed by apply); a dynamic one follows the load average as tuned
 * does. */
static int hold(struct hostfs *fs, int fd, int64_t us)
{
	struct host_state st;
	bool has = false, dynamic = false;
	struct pm_diag d = { { 0 } };
	if (host_profile_active(fs, &st, &has, &d) == 0 && has)
		dynamic = st.dyn_low_us >= 0;
	printf("holding /dev/cpu_dma_latency at %lld us until interrupted%s\n", (long long)us,
	       dynamic ? " (following the load average every 10 s)" : "");
	fflush(stdout);
	while (!host_signal_wait(dynamic ? HOST_DYNAMIC_INTERVAL_MS : -1)) {
		int64_t want = dynamic ? host_profile_latency_now(fs, &st) : us;
		int32_t v = (int32_t)want;
		if (want != us && hostfs_write_fd(fs, fd, HOST_DMA_LATENCY, &v, sizeof(v), &d) == 0) {
			printf("holding /dev/cpu_dma_latency at %lld us\n", (long long)want);
			fflush(stdout);
			us = want;
		}
	}
	if (has)
		host_state_free(&st);
	close(fd);
	return EXIT_OK;
}

static int apply_now(const char *spec, const char *root, const char *const *dirs, int ndirs,
		     bool want_hold, bool dry_run, bool force)
{
	struct hostfs fs;
	struct pm_diag d = { { 0 } };
	struct txn_result r;
	int rc = open_root(&fs, root);
	if (rc != EXIT_OK)
		return rc;
	struct host_profile_opts o = { .dirs = dirs, .ndirs = ndirs, .log = stdout,
				       .notes = stdout, .hold = want_hold, .dry_run = dry_run,
				       .force = force };
	rc = host_profile_apply(&fs, spec, &o, &r, &d);
	if (rc == HOST_BAD_INPUT) {
		hostfs_close(&fs);
		return cli_bad("%s", d.msg);
	}
	if (rc < 0) {
		hostfs_close(&fs);
		return runtime_error(d.msg);
	}
	if (r.recovered)
		printf("(the profile active before, or an interrupted apply, was restored first)\n");
	rc = EXIT_OK;
	hostfs_print_refused(&fs, stderr);
	/* A running daemon holds the new profile's request, or drops the old
	 * one when the new profile asks for none. */
	bool daemon = !dry_run && host_daemon_notify(&fs);
	if (r.latency_fd >= 0) {
		struct host_state st;
		bool has;
		int64_t us = -1;
		if (host_profile_active(&fs, &st, &has, &d) == 0 && has)
			us = st.latency_us;
		host_state_free(&st);
		if (want_hold) {
			fflush(stdout);
			rc = hold(&fs, r.latency_fd, us);
		} else {
			close(r.latency_fd);
			if (!daemon)
				fprintf(stderr, "pmlab: warning: the %lld us /dev/cpu_dma_latency request "
					"lapses now, as pmlab exits (tuned holds it while it runs): run "
					"pmlab daemon (systemctl enable --now pmlab) to hold it, or apply "
					"--hold\n", (long long)us);
		}
	}
	hostfs_close(&fs);
	if (fflush(stdout) != 0)
		return runtime_error("profile: cannot write to standard output");
	return rc;
}

/* With --hold, the signal handlers go in before the apply: the state file
 * names this process as the holder from the moment the apply commits, and
 * a profile off (or another apply) that signals it then must find it
 * holding, not killed by the default action. */
static int apply(const char *spec, const char *root, const char *const *dirs, int ndirs,
		 bool want_hold, bool dry_run, bool force)
{
	int rc;

	if (!want_hold)
		return apply_now(spec, root, dirs, ndirs, false, dry_run, force);
	if (host_signals_install() < 0)
		return runtime_error("profile: cannot install signal handlers");
	rc = apply_now(spec, root, dirs, ndirs, true, dry_run, force);
	host_signals_restore();
	return rc;
}

static int off(const char *root)
{
	struct hostfs fs;
	struct pm_diag d = { { 0 } };
	bool had;
	int left, rc = open_root(&fs, root);
	if (rc != EXIT_OK)
		return rc;
	rc = host_profile_off_left(&fs, stdout, &had, &left, &d);
	if (rc == 0)
		hostfs_print_refused(&fs, stderr);
	hostfs_close(&fs);
	if (rc == HOST_BAD_INPUT)
		return cli_bad("%s", d.msg);
	if (rc < 0)
		return runtime_error(d.msg);
	if (!had)
		printf("no profile was active\n");
	else if (left)
		fprintf(stderr, "pmlab: profile off: %d file%s left as another program set %s since "
			"the apply (listed above)\n", left, left == 1 ? "" : "s",
			left == 1 ? "it" : "them");
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_RUNTIME;
}

static int verify(const char *root)
{
	struct hostfs fs;
	struct pm_diag d = { { 0 } };
	struct host_state st;
	bool has;
	int n, rc = open_root(&fs, root);
	if (rc != EXIT_OK)
		return rc;
	rc = host_profile_verify(&fs, stdout, &n, &d);
	if (rc < 0) {
		hostfs_close(&fs);
		return rc == HOST_BAD_INPUT ? cli_bad("%s", d.msg) : runtime_error(d.msg);
	}
	if (host_profile_active(&fs, &st, &has, &d) < 0)
		has = false;
	hostfs_print_refused(&fs, stderr);
	hostfs_close(&fs);
	if (n) {
		fflush(stdout);
		fprintf(stderr, "pmlab: profile %s: %d setting%s differ%s from the profile\n",
			has ? st.profile : "?", n, n == 1 ? "" : "s", n == 1 ? "s" : "");
		host_state_free(&st);
		return EXIT_RUNTIME;
	}
	printf("profile %s: verified, every file holds the profile's value (%d file%s)\n",
	       st.profile, st.n, st.n == 1 ? "" : "s");
	host_state_free(&st);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_RUNTIME;
}

static int active(const char *root)
{
	struct hostfs fs;
	struct pm_diag d = { { 0 } };
	struct host_state st;
	bool has;
	int rc = open_root(&fs, root);
	if (rc != EXIT_OK)
		return rc;
	rc = host_profile_active(&fs, &st, &has, &d);
	hostfs_close(&fs);
	if (rc == HOST_BAD_INPUT)
		return cli_bad("%s", d.msg);
	if (rc < 0)
		return runtime_error(d.msg);
	if (!has)
		printf("No current active profile.\n");
	else if (!st.applied)
		printf("Current active profile: %s (its apply was interrupted: run pmlab profile "
		       "off)\n", st.profile);
	else
		printf("Current active profile: %s\n", st.profile);
	host_state_free(&st);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_RUNTIME;
}

/* tuned-adm recommend: the name on standard output, the reason on
 * standard error. */
static int recommend(const char *root, bool quiet)
{
	struct hostfs fs;
	struct host_kind_info k;
	char why[512];
	int rc = open_root(&fs, root);
	if (rc != EXIT_OK)
		return rc;
	host_kind_detect(&fs, &k);
	const char *name = host_recommend(&k, why, sizeof(why));
	hostfs_close(&fs);
	printf("%s\n", name);
	if (!quiet)
		fprintf(stderr, "pmlab: profile recommend: %s: %s\n", name, why);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_RUNTIME;
}

/* The options of apply and recommend, and which was given (for the
 * subcommands that do not take them). */
struct host_args {
	bool hold, dry_run, force, quiet;
	const char *apply_only, *recommend_only;
};

static int own_option(void *ctx, int opt, const char *arg)
{
	struct host_args *h = ctx;

	(void)arg;
	switch (opt) {
	case 'H': h->hold = true; h->apply_only = "--hold"; return 0;
	case 'n': h->dry_run = true; h->apply_only = "--dry-run"; return 0;
	case 'F': h->force = true; h->apply_only = "--force"; return 0;
	case 'q': h->quiet = true; h->recommend_only = "--quiet"; return 0;
	case CLI_OPT_PROFILE_DIR: h->apply_only = "--profile-dir"; return 1; /* shared */
	default: return 1;
	}
}

/* After the options: which subcommand runs, with what. */
static int run_sub(const char *sub, const struct cli_opts *o, const struct host_args *h,
		   int rest, char **args)
{
	if (h->recommend_only && strcmp(sub, "recommend") != 0)
		return cli_bad("profile: %s goes with recommend, not %s", h->recommend_only, sub);
	if (strcmp(sub, "recommend") == 0) {
		if (h->apply_only)
			return cli_bad("profile: recommend takes only --quiet and --root, got '%s'",
				       h->apply_only);
		if (rest)
			return cli_bad("profile: recommend takes no argument, got '%s'", args[0]);
		return recommend(o->root, h->quiet);
	}
	if (strcmp(sub, "apply") != 0) {
		if (h->apply_only)
			return cli_bad("profile: %s takes only --root, got '%s'", sub, h->apply_only);
		if (rest)
			return cli_bad("profile: %s takes no argument, got '%s'", sub, args[0]);
		if (strcmp(sub, "off") == 0)
			return off(o->root);
		if (strcmp(sub, "verify") == 0)
			return verify(o->root);
		return active(o->root);
	}
	if (rest == 0)
		return cli_bad("profile: apply needs a profile NAME or PATH (see pmlab profile --help)");
	if (rest > 1)
		return cli_bad("profile: apply takes one profile, got '%s' too", args[1]);
	if (h->hold && h->dry_run)
		return cli_bad("profile: --hold and --dry-run do not go together");
	return apply(args[0], o->root, o->dirs, o->ndirs, h->hold, h->dry_run, h->force);
}

int cmd_profile_host(const char *sub, int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_OPTION_ROOT, CLI_OPTION_PROFILE_DIR,
		{ "hold", no_argument, 0, 'H' },
		{ "dry-run", no_argument, 0, 'n' },
		{ "force", no_argument, 0, 'F' },
		{ "quiet", no_argument, 0, 'q' },
		{ 0, 0, 0, 0 },
	};
	struct host_args h = { .quiet = cli_quiet };
	struct cli_opts o;
	int i, rc = EXIT_USAGE;

	if (strcmp(sub, "apply") != 0 && strcmp(sub, "recommend") != 0 && strcmp(sub, "off") != 0 &&
	    strcmp(sub, "verify") != 0 && strcmp(sub, "active") != 0)
		return cli_bad("profile: unknown subcommand '%s' (expected apply, off, verify, active "
			       "or recommend)", sub);
	if (cli_opts_init(&o, "profile", 0, argc) < 0)
		return cli_bad("out of memory");
	i = cli_parse(&o, argc, argv, ":q", opts, own_option, &h);
	if (i >= 0)
		rc = run_sub(sub, &o, &h, argc - i, argv + i);
	cli_opts_free(&o);
	return rc;
}
