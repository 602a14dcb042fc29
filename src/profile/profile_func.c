// SPDX-License-Identifier: GPL-2.0-only
/* tuned's built-in functions, ${f:NAME:ARG:...}, as tuned 2.20 has them
 * (tuned/profiles/functions/function_*.py), computed on the machine the
 * profile is resolved for: the simulated one, or this one for the host
 * backend (profile_env.cpus).
 *
 *   assertion, assertion_non_equal   A:B:C fails the load unless B == C
 *                                    (B != C), as tuned refuses the profile
 *   calc_isolated_cores[:N]          every online CPU but the first N (1) of
 *                                    each package
 *   cpulist_unpack, cpulist_pack,    tuned's CPU lists (profile_cpulist.h)
 *   cpulist2hex, cpulist2hex_invert,
 *   hex2cpulist, cpulist2devs
 *   cpulist_invert                   the online CPUs not in the list
 *   cpulist_online, cpulist_present  the list's CPUs that are online, present
 *   cpuinfo_check                    REGEX1:STR1:...[:ELSE] on /proc/cpuinfo
 *   regex_search_ternary             STR:REGEX:TRUE:FALSE
 *   strip                            the arguments joined, blanks trimmed
 *   kb2s, s2kb                       KiB <-> 512-byte sectors
 *   virt_check                       VIRTUAL:BARE (the machine is bare metal)
 *
 * exec and check_net_queue_count run programs on the host and are refused
 * by name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile_cpulist.h"
#include "profile_internal.h"

struct call {
	struct pf_load *L;
	char **argv; /* argv[0]: the name */
	int argc;
	const char *file;
	int line;
	char *out;
	size_t len;
};

static int nargs(const struct call *c, int min, int max)
{
	int n = c->argc - 1;
	if (n >= min && (max < 0 || n <= max))
		return 0;
	if (min == max)
		return pm_fail_at(c->L->d, c->file, c->line, "${f:%s}: %d argument%s (expected %d)",
				  c->argv[0], n, n == 1 ? "" : "s", min);
	return pm_fail_at(c->L->d, c->file, c->line, "${f:%s}: %d argument%s (expected %d to %d)",
			  c->argv[0], n, n == 1 ? "" : "s", min, max);
}

static int result(const struct call *c, const char *s)
{
	if (strlen(s) >= c->len)
		return pm_fail_at(c->L->d, c->file, c->line, "${f:%s}: result too long (expected at "
				  "most %zu characters)", c->argv[0], c->len - 1);
	snprintf(c->out, c->len, "%s", s);
	return 0;
}

/* The arguments joined with sep, as tuned passes them on. */
static void joined(const struct call *c, const char *sep, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 1; i < c->argc && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i > 1 ? sep : "", c->argv[i]);
}

/* Online CPUs and their packages: the host's, else the machine's. */
static void online(const struct pf_load *L, bool *set, int *package)
{
	const struct profile_cpus *h = L->env ? L->env->cpus : NULL;
	memset(set, 0, PF_CPUS_MAX * sizeof(*set));
	if (h) {
		for (int i = 0; i < h->n; i++)
			if (h->cpu[i] >= 0 && h->cpu[i] < PF_CPUS_MAX) {
				set[h->cpu[i]] = true;
				if (package)
					package[h->cpu[i]] = h->package ? h->package[i] : -1;
			}
		return;
	}
	for (int c = 0; c < L->m->online_cpus && c < PF_CPUS_MAX; c++) {
		set[c] = true;
		if (package)
			package[c] = machine_cpu_package(L->m, c);
	}
}

static void present(const struct pf_load *L, bool *set)
{
	const struct profile_cpus *h = L->env ? L->env->cpus : NULL;
	if (h && h->present) {
		pf_cpulist_unpack(h->present, set);
		return;
	}
	if (h) {
		online(L, set, NULL);
		return;
	}
	memset(set, 0, PF_CPUS_MAX * sizeof(*set));
	for (int c = 0; c < machine_possible_cpus(L->m) && c < PF_CPUS_MAX; c++)
		set[c] = true;
}

enum list_out { OUT_LIST, OUT_PACK, OUT_HEX, OUT_DEVS };

static int list_result(const struct call *c, const bool *set, enum list_out how)
{
	char buf[PF_CPUS_MAX * 8];
	if (how == OUT_PACK)
		pf_cpulist_pack(set, buf, sizeof(buf));
	else if (how == OUT_HEX)
		pf_cpulist_hex(set, buf, sizeof(buf));
	else
		pf_cpulist_format(set, buf, sizeof(buf));
	if (how == OUT_DEVS) {
		char devs[PF_CPUS_MAX * 8];
		size_t used = 0;
		devs[0] = '\0';
		for (char *save = NULL, *t = strtok_r(buf, ",", &save); t && used < sizeof(devs);
		     t = strtok_r(NULL, ",", &save))
			used += (size_t)snprintf(devs + used, sizeof(devs) - used, "%scpu%s",
						 used ? "," : "", t);
		return result(c, devs);
	}
	return result(c, buf);
}

static int cpulist_fn(const struct call *c)
{
	/* On the stack, not static: profiles load in separate threads (libpmlab). */
	bool set[PF_CPUS_MAX] = { false }, other[PF_CPUS_MAX] = { false };
	char arg[8192];
	const char *fn = c->argv[0];

	if (strcmp(fn, "hex2cpulist") == 0) {
		if (nargs(c, 1, 1))
			return -1;
		if (!pf_cpulist_from_hex(c->argv[1], set))
			memset(set, 0, sizeof(set)); /* tuned: "invalid hexadecimal mask", [] */
		return list_result(c, set, OUT_LIST);
	}
	/* cpulist_online and cpulist2devs join with ",", the others with ",,"
	 * (which ends a hex mask). */
	bool single = strcmp(fn, "cpulist_online") == 0 || strcmp(fn, "cpulist2devs") == 0;
	joined(c, single ? "," : ",,", arg, sizeof(arg));
	pf_cpulist_unpack(arg, set);
	if (strcmp(fn, "cpulist_unpack") == 0)
		return list_result(c, set, OUT_LIST);
	if (strcmp(fn, "cpulist_pack") == 0)
		return list_result(c, set, OUT_PACK);
	if (strcmp(fn, "cpulist2hex") == 0)
		return list_result(c, set, OUT_HEX);
	if (strcmp(fn, "cpulist2devs") == 0)
		return list_result(c, set, OUT_DEVS);
	if (strcmp(fn, "cpulist_invert") == 0 || strcmp(fn, "cpulist2hex_invert") == 0 ||
	    strcmp(fn, "cpulist_online") == 0) {
		bool invert = strcmp(fn, "cpulist_online") != 0;
		online(c->L, other, NULL);
		for (int i = 0; i < PF_CPUS_MAX; i++)
			set[i] = invert ? other[i] && !set[i] : other[i] && set[i];
		return list_result(c, set, strcmp(fn, "cpulist2hex_invert") == 0 ? OUT_HEX : OUT_LIST);
	}
	/* cpulist_present */
	present(c->L, other);
	for (int i = 0; i < PF_CPUS_MAX; i++)
		set[i] = set[i] && other[i];
	return list_result(c, set, OUT_LIST);
}

static int calc_isolated_cores(const struct call *c)
{
	bool set[PF_CPUS_MAX] = { false };
	int package[PF_CPUS_MAX] = { 0 };
	int cpus[PF_CPUS_MAX], n = 0;
	long reserve = 1;
	if (nargs(c, 0, 1))
		return -1;
	if (c->argc == 2) {
		const char *a = c->argv[1];
		char *end;
		reserve = strtol(a, &end, 10);
		if (!*a || *end || a[0] == '-' || a[0] == '+' || a[0] == ' ')
			return pm_fail_at(c->L->d, c->file, c->line, "${f:calc_isolated_cores:%s}: not "
					  "a number of CPUs to keep per package (expected 0, 1, ...)", a);
	}
	online(c->L, set, package);
	for (int cpu = 0; cpu < PF_CPUS_MAX; cpu++)
		if (set[cpu] && package[cpu] >= 0) /* tuned skips a CPU without a package id */
			cpus[n++] = cpu;
	memset(set, 0, sizeof(set));
	/* each package's CPUs in ascending order: all but its first `reserve` */
	for (int i = 0; i < n; i++) {
		long before = 0;
		for (int j = 0; j < i; j++)
			before += package[cpus[j]] == package[cpus[i]];
		set[cpus[i]] = before >= reserve;
	}
	return list_result(c, set, OUT_LIST);
}

static int assertion(const struct call *c, bool equal)
{
	if (c->argc != 4) {
		/* tuned splits the arguments at every ':', those of expanded
		 * values too (cstate.name:C1 in cpu-partitioning-powersave's
		 * max_power_state): it logs "invalid number of arguments" and
		 * leaves the call unexpanded, so nothing is asserted. */
		char what[128], where[PROFILE_TEXT_MAX];
		snprintf(what, sizeof(what), "${f:%s:%.60s...}", c->argv[0], c->argv[1]);
		snprintf(where, sizeof(where), "%s:%d", c->file, c->line);
		if (pf_load_note(c->L, what, where, "not checked: a ':' in a value makes more than "
				 "3 arguments, and tuned then skips the assertion too"))
			return -1;
		return result(c, "");
	}
	if ((strcmp(c->argv[2], c->argv[3]) == 0) != equal)
		return pm_fail_at(c->L->d, c->file, c->line, "${f:%s}: assertion '%s' failed: '%s' "
				  "%s '%s' (tuned refuses the profile too)", c->argv[0], c->argv[1],
				  c->argv[2], equal ? "!=" : "==", c->argv[3]);
	return result(c, "");
}

static int sectors(const struct call *c, bool to_sectors)
{
	char *end, buf[32];
	if (nargs(c, 1, 1))
		return -1;
	long long v = strtoll(c->argv[1], &end, 10);
	if (!c->argv[1][0] || *end || v < 0 || v > (1LL << 50))
		return pm_fail_at(c->L->d, c->file, c->line, "${f:%s:%s}: not a whole number of %s",
				  c->argv[0], c->argv[1], to_sectors ? "KiB" : "sectors");
	/* s2kb: Python 3's round(), halves to even */
	long long r = to_sectors ? v * 2 : v / 2 + ((v & 1) && ((v / 2) & 1));
	snprintf(buf, sizeof(buf), "%lld", r);
	return result(c, buf);
}

static int text_fn(const struct call *c, bool *done)
{
	const char *fn = c->argv[0];
	char why[256], buf[4096];
	*done = true;
	if (strcmp(fn, "virt_check") == 0) {
		if (nargs(c, 2, 2))
			return -1;
		return result(c, c->argv[2]); /* a simulated machine is bare metal */
	}
	if (strcmp(fn, "strip") == 0) {
		joined(c, "", buf, sizeof(buf));
		char *b = buf, *e = buf + strlen(buf);
		while (b < e && (*b == ' ' || *b == '\t' || *b == '\n'))
			b++;
		while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
			e--;
		*e = '\0';
		return result(c, b);
	}
	if (strcmp(fn, "regex_search_ternary") == 0) {
		if (nargs(c, 4, 4))
			return -1;
		int m = pf_regex_search(c->argv[2], c->argv[1], why, sizeof(why));
		if (m < 0)
			return pm_fail_at(c->L->d, c->file, c->line, "${f:regex_search_ternary}: %s", why);
		return result(c, c->argv[m ? 3 : 4]);
	}
	if (strcmp(fn, "cpuinfo_check") == 0) {
		/* REGEX1:STR1:REGEX2:STR2...[:ELSE] against /proc/cpuinfo. */
		int i;
		for (i = 1; i + 1 < c->argc; i += 2) {
			int m = pf_regex_search(c->argv[i], c->L->cpuinfo, why, sizeof(why));
			if (m < 0)
				return pm_fail_at(c->L->d, c->file, c->line, "${f:cpuinfo_check}: %s", why);
			if (m)
				return result(c, c->argv[i + 1]);
		}
		return result(c, i < c->argc ? c->argv[i] : "");
	}
	if (strcmp(fn, "kb2s") == 0 || strcmp(fn, "s2kb") == 0)
		return sectors(c, strcmp(fn, "kb2s") == 0);
	if (strcmp(fn, "assertion") == 0 || strcmp(fn, "assertion_non_equal") == 0)
		return assertion(c, strcmp(fn, "assertion") == 0);
	*done = false;
	return 0;
}

int pf_function(struct pf_load *L, char **argv, int argc, const char *file, int line,
		char *out, size_t len)
{
	static const char *const lists[] = { "cpulist_unpack", "cpulist_pack", "cpulist2hex",
		"cpulist2hex_invert", "hex2cpulist", "cpulist2devs", "cpulist_invert",
		"cpulist_online", "cpulist_present" };
	struct call c = { L, argv, argc, file, line, out, len };
	bool done;
	out[0] = '\0';
	int rc = text_fn(&c, &done);
	if (done)
		return rc;
	if (strcmp(argv[0], "calc_isolated_cores") == 0)
		return calc_isolated_cores(&c);
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		if (strcmp(argv[0], lists[i]) == 0)
			return cpulist_fn(&c);
	return pm_fail_at(L->d, file, line, "${f:%s}: function not supported by pmlab (expected "
			  "one of tuned's that need no program: assertion, assertion_non_equal, "
			  "calc_isolated_cores, cpuinfo_check, cpulist2devs, cpulist2hex, "
			  "cpulist2hex_invert, cpulist_invert, cpulist_online, cpulist_pack, "
			  "cpulist_present, cpulist_unpack, hex2cpulist, kb2s, regex_search_ternary, "
			  "s2kb, strip, virt_check; exec and check_net_queue_count run programs)",
			  argv[0]);
}
