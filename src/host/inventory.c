// SPDX-License-Identifier: GPL-2.0-only
/* Discovery of the machine's power-management interfaces. See inventory.h. */
#include "inventory.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int host_policy_path(char *buf, size_t len, int policy, const char *attr)
{
	return hostfs_path(buf, len, HOST_CPUFREQ_DIR "/policy%d/%s", policy, attr);
}

int host_cpu_path(char *buf, size_t len, int cpu, const char *attr)
{
	return hostfs_path(buf, len, HOST_CPU_DIR "/cpu%d/%s", cpu, attr);
}

int host_cstate_path(char *buf, size_t len, int cpu, int state, const char *attr)
{
	return hostfs_path(buf, len, HOST_CPU_DIR "/cpu%d/cpuidle/state%d/%s", cpu, state, attr);
}

bool host_list_has(const char *list, const char *word)
{
	size_t n = strlen(word);
	if (!n)
		return false;
	for (const char *s = list; *s;) {
		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		size_t m = strcspn(s, " \t\n");
		if (m == n && strncmp(s, word, n) == 0)
			return true;
		s += m;
	}
	return false;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int host_parse_cpulist(const char *s, int max, int **cpus, int *n)
{
	*cpus = NULL;
	*n = 0;
	int cap = 0, count = 0;
	int *v = NULL;
	while (*s == ' ' || *s == '\n')
		s++;
	while (*s && *s != '\n') {
		if (!isdigit((unsigned char)*s))
			goto bad;
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				goto bad;
			hi = strtol(end + 1, &end, 10);
		}
		if (lo < 0 || hi < lo || hi >= max)
			goto bad;
		for (long c = lo; c <= hi; c++) {
			if (count == cap) {
				cap = cap ? 2 * cap : 16;
				int *grown = realloc(v, (size_t)cap * sizeof(*v));
				if (!grown)
					goto bad;
				v = grown;
			}
			v[count++] = (int)c;
		}
		s = end;
		/* cpufreq's affected_cpus and related_cpus separate by spaces
		 * (drivers/cpufreq/cpufreq.c, show_cpus()). */
		if (*s == ',' || *s == ' ')
			s++;
		else if (*s && *s != '\n')
			goto bad;
	}
	if (count)
		qsort(v, (size_t)count, sizeof(*v), cmp_int);
	for (int i = 1; i < count; i++)
		if (v[i] == v[i - 1])
			goto bad;
	*cpus = v;
	*n = count;
	return 0;
bad:
	free(v);
	return -1;
}

/* An optional file: false (and buf "") when absent or unreadable. */
static bool read_opt(const struct hostfs *fs, const char *rel, char *buf, size_t len)
{
	struct pm_diag d;
	if (hostfs_read_str(fs, rel, buf, len, &d) < 0) {
		buf[0] = '\0';
		return false;
	}
	return true;
}

static uint32_t read_khz(const struct hostfs *fs, const char *rel)
{
	uint64_t v;
	struct pm_diag d;
	return hostfs_read_u64(fs, rel, &v, &d) < 0 || v > UINT32_MAX ? 0 : (uint32_t)v;
}

/* Numbers N of the entries named PREFIX<N> in a directory, ascending. */
static int numbered(const struct hostfs *fs, const char *rel, const char *prefix, int **ids,
		    int *n, struct pm_diag *d)
{
	char **names;
	int count;
	*ids = NULL;
	*n = 0;
	if (hostfs_list(fs, rel, &names, &count, d) < 0)
		return -1;
	int *v = calloc((size_t)count + 1, sizeof(*v));
	if (!v) {
		hostfs_free_list(names, count);
		return pm_fail(d, "out of memory");
	}
	size_t plen = strlen(prefix);
	int k = 0;
	for (int i = 0; i < count; i++) {
		const char *s = names[i];
		if (strncmp(s, prefix, plen) != 0 || !isdigit((unsigned char)s[plen]))
			continue;
		char *end;
		long id = strtol(s + plen, &end, 10);
		char again[64];
		snprintf(again, sizeof(again), "%s%ld", prefix, id);
		if (*end || id < 0 || id >= HOST_MAX_CPUS || strcmp(again, s) != 0)
			continue; /* "policy01" is not a name the kernel makes */
		v[k++] = (int)id;
	}
	hostfs_free_list(names, count);
	qsort(v, (size_t)k, sizeof(*v), cmp_int);
	*ids = v;
	*n = k;
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

static int load_freqs(struct host_policy *p, const char *list)
{
	p->freqs = calloc(HOST_MAX_FREQS, sizeof(*p->freqs));
	if (!p->freqs)
		return -1;
	for (const char *s = list; *s && p->nfreqs < HOST_MAX_FREQS;) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		char *end;
		unsigned long v = strtoul(s, &end, 10);
		if (end == s)
			break;
		if (v > 0 && v <= UINT32_MAX)
			p->freqs[p->nfreqs++] = (uint32_t)v;
		s = end;
	}
	qsort(p->freqs, (size_t)p->nfreqs, sizeof(*p->freqs), cmp_u32);
	int k = 0;
	for (int i = 0; i < p->nfreqs; i++)
		if (!k || p->freqs[i] != p->freqs[k - 1])
			p->freqs[k++] = p->freqs[i];
	p->nfreqs = k;
	return 0;
}

static int load_policy(struct host_policy *p, const struct hostfs *fs, int id, struct pm_diag *d)
{
	char rel[HOSTFS_PATH_MAX], buf[HOST_LIST_MAX];
	p->id = id;
#define PATH(attr) (host_policy_path(rel, sizeof(rel), id, attr), rel)
	if (!read_opt(fs, PATH("affected_cpus"), buf, sizeof(buf)))
		read_opt(fs, PATH("related_cpus"), buf, sizeof(buf));
	if (host_parse_cpulist(buf, HOST_MAX_CPUS, &p->cpus, &p->ncpus) < 0 || !p->ncpus) {
		free(p->cpus);
		p->cpus = malloc(sizeof(*p->cpus));
		if (!p->cpus)
			return pm_fail(d, "out of memory");
		p->cpus[0] = id; /* policyN is named after its first CPU */
		p->ncpus = 1;
	}
	read_opt(fs, PATH("scaling_driver"), p->driver, sizeof(p->driver));
	read_opt(fs, PATH("scaling_governor"), p->governor, sizeof(p->governor));
	read_opt(fs, PATH("scaling_available_governors"), p->governors, sizeof(p->governors));
	p->cpuinfo_min = read_khz(fs, PATH("cpuinfo_min_freq"));
	p->cpuinfo_max = read_khz(fs, PATH("cpuinfo_max_freq"));
	p->scaling_min = read_khz(fs, PATH("scaling_min_freq"));
	p->scaling_max = read_khz(fs, PATH("scaling_max_freq"));
	p->base_khz = read_khz(fs, PATH("base_frequency"));
	if (!p->base_khz)
		p->base_khz = p->cpuinfo_max;
	uint64_t lat;
	struct pm_diag ignore;
	if (hostfs_read_u64(fs, PATH("cpuinfo_transition_latency"), &lat, &ignore) == 0 &&
	    lat < UINT32_MAX)
		p->transition_latency_ns = (int64_t)lat;
	p->has_boost = hostfs_exists(fs, PATH("boost"));
	p->has_setspeed = hostfs_exists(fs, PATH("scaling_setspeed"));
	p->has_cur = hostfs_exists(fs, PATH("scaling_cur_freq"));
	p->has_epp = hostfs_exists(fs, PATH("energy_performance_preference"));
	read_opt(fs, PATH("energy_performance_available_preferences"), p->epps, sizeof(p->epps));
	read_opt(fs, PATH("scaling_available_frequencies"), buf, sizeof(buf));
#undef PATH
	if (load_freqs(p, buf) < 0)
		return pm_fail(d, "out of memory");
	return 0;
}

static int load_cpus(struct host_info *hi, const struct hostfs *fs, struct pm_diag *d)
{
	char buf[HOST_LIST_MAX];
	if (read_opt(fs, HOST_CPU_DIR "/online", buf, sizeof(buf)) &&
	    host_parse_cpulist(buf, HOST_MAX_CPUS, &hi->cpus, &hi->ncpus) == 0 && hi->ncpus)
		return 0;
	/* No online file (a fake tree may omit it): every cpuN directory. */
	return numbered(fs, HOST_CPU_DIR, "cpu", &hi->cpus, &hi->ncpus, d);
}

static bool every_cpu_has(const struct host_info *hi, const struct hostfs *fs, const char *attr)
{
	char rel[HOSTFS_PATH_MAX];
	for (int i = 0; i < hi->ncpus; i++)
		if (host_cpu_path(rel, sizeof(rel), hi->cpus[i], attr) < 0 || !hostfs_exists(fs, rel))
			return false;
	return hi->ncpus > 0;
}

/* topology/physical_package_id of each online CPU (tuned's
 * calc_isolated_cores groups by it). */
static int load_packages(struct host_info *hi, const struct hostfs *fs)
{
	char rel[HOSTFS_PATH_MAX];
	hi->packages = calloc((size_t)hi->ncpus + 1, sizeof(*hi->packages));
	if (!hi->packages)
		return -1;
	for (int i = 0; i < hi->ncpus; i++) {
		uint64_t v;
		struct pm_diag ignore;
		host_cpu_path(rel, sizeof(rel), hi->cpus[i], "topology/physical_package_id");
		hi->packages[i] = hostfs_read_u64(fs, rel, &v, &ignore) == 0 && v < 1000000
					  ? (int)v : -1;
	}
	return 0;
}

static int load_cstates(struct host_info *hi, const struct hostfs *fs, struct pm_diag *d)
{
	char rel[HOSTFS_PATH_MAX];
	if (!hi->ncpus)
		return 0;
	int *ids, n;
	hostfs_path(rel, sizeof(rel), HOST_CPU_DIR "/cpu%d/cpuidle", hi->cpus[0]);
	if (numbered(fs, rel, "state", &ids, &n, d) < 0)
		return -1;
	/* States are numbered from 0 without gaps; stop at the first gap. */
	for (int i = 0; i < n && i < HOST_MAX_CSTATES && ids[i] == i; i++) {
		struct host_cstate *c = &hi->cstates[i];
		host_cstate_path(rel, sizeof(rel), hi->cpus[0], i, "name");
		read_opt(fs, rel, c->name, sizeof(c->name));
		host_cstate_path(rel, sizeof(rel), hi->cpus[0], i, "desc");
		read_opt(fs, rel, c->desc, sizeof(c->desc));
		struct pm_diag ignore;
		host_cstate_path(rel, sizeof(rel), hi->cpus[0], i, "latency");
		hostfs_read_u64(fs, rel, &c->latency_us, &ignore);
		host_cstate_path(rel, sizeof(rel), hi->cpus[0], i, "residency");
		hostfs_read_u64(fs, rel, &c->residency_us, &ignore);
		if (!c->name[0])
			snprintf(c->name, sizeof(c->name), "state%d", i);
		hi->ncstates = i + 1;
	}
	free(ids);
	return 0;
}

static enum host_zone_kind zone_kind(const char *name)
{
	if (strncmp(name, "package-", 8) == 0)
		return ZONE_PACKAGE;
	if (strcmp(name, "core") == 0)
		return ZONE_CORE;
	if (strcmp(name, "dram") == 0)
		return ZONE_DRAM;
	if (strcmp(name, "uncore") == 0)
		return ZONE_UNCORE;
	if (strcmp(name, "psys") == 0)
		return ZONE_PSYS;
	return ZONE_OTHER;
}

/* "intel-rapl:P" and "intel-rapl:P:S" (and the -mmio twins), rebuilt from
 * the numbers so that only names the kernel makes become paths. */
static int zone_dir(const char *entry, char *dir, size_t len, bool *mmio)
{
	static const char *const types[] = { "intel-rapl-mmio", "intel-rapl" };
	for (size_t t = 0; t < 2; t++) {
		size_t n = strlen(types[t]);
		if (strncmp(entry, types[t], n) != 0 || entry[n] != ':')
			continue;
		int a = -1, b = -1;
		char again[64];
		if (sscanf(entry + n, ":%d:%d", &a, &b) == 2 && a >= 0 && b >= 0)
			snprintf(again, sizeof(again), "%s:%d:%d", types[t], a, b);
		else if (sscanf(entry + n, ":%d", &a) == 1 && a >= 0)
			snprintf(again, sizeof(again), "%s:%d", types[t], a);
		else
			return -1;
		if (strcmp(again, entry) != 0)
			return -1;
		*mmio = t == 0;
		return hostfs_path(dir, len, HOST_POWERCAP_DIR "/%s", again);
	}
	return -1;
}

static int load_zones(struct host_info *hi, const struct hostfs *fs, struct pm_diag *d)
{
	char **names;
	int n;
	if (hostfs_list(fs, HOST_POWERCAP_DIR, &names, &n, d) < 0)
		return -1;
	hi->zones = calloc((size_t)n + 1, sizeof(*hi->zones));
	if (!hi->zones) {
		hostfs_free_list(names, n);
		return pm_fail(d, "out of memory");
	}
	/* The MSR zones first; an MMIO zone of the same name measures the
	 * same energy and is left out, so watts are not counted twice. */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < n; i++) {
			struct host_zone z = { 0 };
			char rel[HOSTFS_PATH_MAX];
			bool mmio;
			if (zone_dir(names[i], z.dir, sizeof(z.dir), &mmio) < 0 || mmio != (pass == 1))
				continue;
			snprintf(rel, sizeof(rel), "%s/name", z.dir);
			if (!read_opt(fs, rel, z.name, sizeof(z.name)))
				continue;
			snprintf(rel, sizeof(rel), "%s/energy_uj", z.dir);
			if (!hostfs_exists(fs, rel))
				continue;
			snprintf(rel, sizeof(rel), "%s/max_energy_range_uj", z.dir);
			struct pm_diag ignore;
			if (hostfs_read_u64(fs, rel, &z.max_range_uj, &ignore) < 0)
				z.max_range_uj = 0;
			z.kind = zone_kind(z.name);
			bool dup = false;
			for (int k = 0; k < hi->nzones; k++)
				dup |= strcmp(hi->zones[k].name, z.name) == 0;
			if (!dup)
				hi->zones[hi->nzones++] = z;
		}
	}
	hostfs_free_list(names, n);
	return 0;
}

int host_info_load(struct host_info *hi, const struct hostfs *fs, struct pm_diag *d)
{
	*hi = (struct host_info){ 0 };
	char rel[HOSTFS_PATH_MAX];
	if (load_cpus(hi, fs, d) < 0)
		goto fail;

	int *ids, n;
	if (numbered(fs, HOST_CPUFREQ_DIR, "policy", &ids, &n, d) < 0)
		goto fail;
	hi->pol = calloc((size_t)n + 1, sizeof(*hi->pol));
	if (!hi->pol) {
		free(ids);
		pm_fail(d, "out of memory");
		goto fail;
	}
	for (int i = 0; i < n; i++) {
		/* A policy whose CPUs are all offline has no scaling_governor. */
		host_policy_path(rel, sizeof(rel), ids[i], "scaling_governor");
		if (!hostfs_exists(fs, rel))
			continue;
		if (load_policy(&hi->pol[hi->npolicies++], fs, ids[i], d) < 0) {
			free(ids);
			goto fail;
		}
	}
	free(ids);

	hi->intel_pstate = hostfs_is_dir(fs, HOST_PSTATE_DIR);
	hi->amd_pstate = hostfs_is_dir(fs, HOST_AMD_PSTATE_DIR);
	if (hi->intel_pstate)
		read_opt(fs, HOST_PSTATE_DIR "/status", hi->pstate_status, sizeof(hi->pstate_status));
	else if (hi->amd_pstate)
		read_opt(fs, HOST_AMD_PSTATE_DIR "/status", hi->pstate_status,
			 sizeof(hi->pstate_status));
	hi->has_no_turbo = hostfs_exists(fs, HOST_PSTATE_DIR "/no_turbo");
	hi->has_min_perf_pct = hostfs_exists(fs, HOST_PSTATE_DIR "/min_perf_pct");
	hi->has_max_perf_pct = hostfs_exists(fs, HOST_PSTATE_DIR "/max_perf_pct");
	hi->global_boost = hostfs_exists(fs, HOST_CPUFREQ_DIR "/boost");
	hi->has_epb = every_cpu_has(hi, fs, "power/energy_perf_bias");
	hi->has_resume_latency = every_cpu_has(hi, fs, "power/pm_qos_resume_latency_us");

	read_opt(fs, HOST_CPUIDLE_DIR "/current_driver", hi->idle_driver, sizeof(hi->idle_driver));
	hi->has_idle_governor = read_opt(fs, HOST_CPUIDLE_DIR "/current_governor",
					 hi->idle_governor, sizeof(hi->idle_governor));
	if (!hi->has_idle_governor)
		read_opt(fs, HOST_CPUIDLE_DIR "/current_governor_ro", hi->idle_governor,
			 sizeof(hi->idle_governor));
	read_opt(fs, HOST_CPUIDLE_DIR "/available_governors", hi->idle_governors,
		 sizeof(hi->idle_governors));
	if (load_cstates(hi, fs, d) < 0)
		goto fail;
	hi->has_dma_latency = hostfs_exists(fs, HOST_DMA_LATENCY);
	hi->has_platform_profile = read_opt(fs, HOST_PLATFORM_PROFILE, hi->platform_profile,
					    sizeof(hi->platform_profile));
	read_opt(fs, HOST_PLATFORM_PROFILE "_choices", hi->platform_profile_choices,
		 sizeof(hi->platform_profile_choices));
	read_opt(fs, "proc/sys/kernel/osrelease", hi->osrelease, sizeof(hi->osrelease));
	read_opt(fs, HOST_CPU_DIR "/present", hi->present, sizeof(hi->present));
	if (load_packages(hi, fs) < 0) {
		pm_fail(d, "out of memory");
		goto fail;
	}
	if (load_zones(hi, fs, d) < 0)
		goto fail;
	if (hi->ncpus) {
		hostfs_path(rel, sizeof(rel), "dev/cpu/%d/msr", hi->cpus[0]);
		int fd = hostfs_open_ro(fs, rel);
		hi->has_msr = fd >= 0;
		if (fd >= 0)
			close(fd);
	}
	return 0;
fail:
	host_info_free(hi);
	return -1;
}

void host_info_free(struct host_info *hi)
{
	for (int i = 0; i < hi->npolicies; i++) {
		free(hi->pol[i].cpus);
		free(hi->pol[i].freqs);
	}
	free(hi->pol);
	free(hi->cpus);
	free(hi->zones);
	free(hi->packages);
	*hi = (struct host_info){ 0 };
}

const struct host_policy *host_cpu_policy(const struct host_info *hi, int cpu)
{
	for (int i = 0; i < hi->npolicies; i++)
		for (int k = 0; k < hi->pol[i].ncpus; k++)
			if (hi->pol[i].cpus[k] == cpu)
				return &hi->pol[i];
	return NULL;
}

bool host_module_loaded(const struct hostfs *fs, const char *name)
{
	char rel[HOSTFS_PATH_MAX], alt[HOST_NAME_MAX];
	snprintf(alt, sizeof(alt), "%s", name);
	for (char *c = alt; *c; c++)
		if (*c == '-')
			*c = '_'; /* sysfs names modules with '_' */
	return hostfs_path(rel, sizeof(rel), "sys/module/%s", alt) == 0 && hostfs_is_dir(fs, rel);
}

/* Whether a modules.dep or modules.builtin line names module `want`
 * ("kernel/drivers/cpufreq/cpufreq_conservative.ko.xz: ..."). */
static bool list_names(const char *text, const char *want)
{
	for (const char *line = text; *line;) {
		size_t n = strcspn(line, "\n");
		const char *colon = memchr(line, ':', n);
		size_t end = colon ? (size_t)(colon - line) : n;
		const char *base = line;
		for (size_t i = 0; i < end; i++)
			if (line[i] == '/')
				base = line + i + 1;
		size_t blen = (size_t)(line + end - base), k = 0;
		for (; k < blen && want[k]; k++) {
			char a = base[k] == '-' ? '_' : base[k], b = want[k] == '-' ? '_' : want[k];
			if (a != b)
				break;
		}
		if (!want[k] && blen >= k + 3 && strncmp(base + k, ".ko", 3) == 0)
			return true;
		line += n + (line[n] == '\n');
	}
	return false;
}

int host_module_known(const struct hostfs *fs, const struct host_info *hi, const char *name)
{
	static const char *const lists[] = { "modules.dep", "modules.builtin" };
	int asked = 0;
	if (!hi->osrelease[0])
		return -1;
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		char rel[HOSTFS_PATH_MAX];
		if (hostfs_path(rel, sizeof(rel), "lib/modules/%s/%s", hi->osrelease, lists[i]) < 0 ||
		    !hostfs_plain_relative(rel))
			continue;
		int fd = hostfs_open_ro(fs, rel);
		if (fd < 0)
			continue;
		asked++;
		size_t cap = 1 << 16, used = 0;
		char *text = malloc(cap + 1);
		ssize_t got = 0;
		while (text && (got = read(fd, text + used, cap - used)) > 0) {
			used += (size_t)got;
			if (used == cap) {
				char *grown = cap < (64u << 20) ? realloc(text, 2 * cap + 1) : NULL;
				if (!grown)
					break;
				text = grown;
				cap *= 2;
			}
		}
		close(fd);
		if (!text)
			continue;
		text[used] = '\0';
		bool found = list_names(text, name);
		free(text);
		if (found)
			return 1;
	}
	return asked ? 0 : -1;
}

int host_loadavg(const struct hostfs *fs, double *v)
{
	char buf[128], *end;
	struct pm_diag ignore;
	if (hostfs_read_str(fs, HOST_LOADAVG, buf, sizeof(buf), &ignore) < 0)
		return -1;
	double x = strtod(buf, &end);
	if (end == buf || !(x >= 0))
		return -1;
	*v = x;
	return 0;
}
