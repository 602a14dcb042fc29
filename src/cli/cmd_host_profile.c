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

#define MAX_DIRS 16

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

/* Holds the PM QoS request until SIGINT, SIGTERM or SIGHUP; a dynamic
 * one follows the load average as tuned does. */
static int hold(struct hostfs *fs, int fd, int64_t us)
{
	struct host_state st;
	bool has = false, dynamic = false;
	struct pm_diag d = { { 0 } };
	if (host_signals_install() < 0) {
		close(fd);
		return runtime_error("profile: cannot install signal handlers");
	}
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
	host_signals_restore();
	return EXIT_OK;
}

static int apply(const char *spec, const char *root, const char *const *dirs, int ndirs,
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

int cmd_profile_host(const char *sub, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "root", required_argument, 0, 'r' },
		{ "profile-dir", required_argument, 0, 'D' },
		{ "hold", no_argument, 0, 'H' },
		{ "dry-run", no_argument, 0, 'n' },
		{ "force", no_argument, 0, 'F' },
		{ "quiet", no_argument, 0, 'q' },
		{ 0, 0, 0, 0 },
	};
	const char *root = NULL, *dirs[MAX_DIRS];
	int ndirs = 0, opt;
	bool want_hold = false, dry_run = false, force = false, is_apply = strcmp(sub, "apply") == 0;
	bool quiet = cli_quiet, is_recommend = strcmp(sub, "recommend") == 0;
	const char *apply_only = NULL, *recommend_only = NULL;

	if (!is_apply && !is_recommend && strcmp(sub, "off") != 0 && strcmp(sub, "verify") != 0 &&
	    strcmp(sub, "active") != 0)
		return cli_bad("profile: unknown subcommand '%s' (expected apply, off, verify, active "
			       "or recommend)", sub);
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":q", opts, NULL)) != -1) {
		switch (opt) {
		case 'r': root = optarg; break;
		case 'D':
			if (ndirs == MAX_DIRS)
				return cli_bad("profile: more than %d --profile-dir", MAX_DIRS);
			dirs[ndirs++] = optarg;
			apply_only = argv[optind - 1];
			break;
		case 'H': want_hold = true; apply_only = argv[optind - 1]; break;
		case 'n': dry_run = true; apply_only = argv[optind - 1]; break;
		case 'F': force = true; apply_only = argv[optind - 1]; break;
		case 'q': quiet = true; recommend_only = argv[optind - 1]; break;
		case ':':
		default:
			return cli_bad_option("profile", opt, argv[optind - 1]);
		}
	}
	int rest = argc - optind;
	if (recommend_only && !is_recommend)
		return cli_bad("profile: %s goes with recommend, not %s", recommend_only, sub);
	if (is_recommend) {
		if (apply_only)
			return cli_bad("profile: recommend takes only --quiet and --root, got '%s'",
				       apply_only);
		if (rest)
			return cli_bad("profile: recommend takes no argument, got '%s'", argv[optind]);
		return recommend(root, quiet);
	}
	if (!is_apply) {
		if (apply_only)
			return cli_bad("profile: %s takes only --root, got '%s'", sub, apply_only);
		if (rest)
			return cli_bad("profile: %s takes no argument, got '%s'", sub, argv[optind]);
		if (strcmp(sub, "off") == 0)
			return off(root);
		if (strcmp(sub, "verify") == 0)
			return verify(root);
		return active(root);
	}
	if (rest == 0)
		return cli_bad("profile: apply needs a profile NAME or PATH (see pmlab profile --help)");
	if (rest > 1)
		return cli_bad("profile: apply takes one profile, got '%s' too", argv[optind + 1]);
	if (want_hold && dry_run)
		return cli_bad("profile: --hold and --dry-run do not go together");
	return apply(argv[optind], root, dirs, ndirs, want_hold, dry_run, force);
}
