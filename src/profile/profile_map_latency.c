// SPDX-License-Identifier: GPL-2.0-only
/* Latency options: [cpu] force_latency (/dev/cpu_dma_latency) ->
 * pm_qos_latency_us; pm_qos_resume_latency_us, from [cpu] or [sysfs].
 *
 * cstate.id:N reads Linux's cpuidle stateN. A machine whose first C-state
 * polls (POLL on the x86 presets, snooze on POWER) lists Linux's state0,
 * so stateN is its C-state N; on a machine file without one, state0 is an
 * implicit POLL of 0 us (x86 always has it) and stateN its N-th C-state.
 * The latency is the state's exit latency in us. pm_qos_resume_latency_us
 * keeps the kernel's sysfs meaning: "n/a" is no C-state (engine 0), 0 is
 * no constraint (engine -1). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../core/tunable.h"
#include "profile_map.h"

/* Machine C-state index of Linux's stateN, -1 for the implicit POLL of a
 * machine that does not list a polling state first, -2 for none. */
int pfm_linux_state(const struct machine *mc, int n)
{
	bool implicit_poll = mc->ncstates == 0 || !mc->cstates[0].poll;
	if (implicit_poll) {
		if (n == 0)
			return -1;
		n--;
	}
	return n >= 0 && n < mc->ncstates ? n : -2;
}

int pfm_linux_nstates(const struct machine *mc)
{
	return mc->ncstates + (mc->ncstates == 0 || !mc->cstates[0].poll);
}

static const char *state_name(const struct machine *mc, int idx)
{
	return idx == -1 ? "POLL" : mc->cstates[idx].name;
}

static int64_t state_latency_us(const struct machine *mc, int idx)
{
	return idx == -1 ? 0 : mc->cstates[idx].exit_ns / 1000;
}

/* --- force_latency and pm_qos_resume_latency_us --- */

enum lat_kind { LAT_VALUE, LAT_NONE, LAT_NA, LAT_UNRESOLVED };

struct latency {
	enum lat_kind kind;
	int64_t us;
	char how[96]; /* which alternative, and what it resolved to */
};

static bool prefix(const char *s, const char *p, const char **rest)
{
	size_t n = strlen(p);
	if (strncmp(s, p, n) != 0)
		return false;
	*rest = s + n;
	return true;
}

/* Every alternative of a latency is well formed, whether or not this
 * machine has the state it names. -1 after pfm_bad. */
static int check_alternatives(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
			      char *const *alts, int n, bool allow_na)
{
	for (int i = 0; i < n; i++) {
		const char *a = alts[i], *rest;
		int64_t v;
		if (parse_int64(a, &v) == 0) {
			if (v < 0 || v > 2000000000)
				return pfm_bad(m, in, o, "latency %s us out of range (expected 0..2000000000)", a);
		} else if (prefix(a, "cstate.id_no_zero:", &rest) || prefix(a, "cstate.id:", &rest)) {
			if (parse_int64(rest, &v) || v < 0)
				return pfm_bad(m, in, o, "'%s': not a C-state number (expected cstate.id:N, "
					   "N >= 0)", a);
		} else if (prefix(a, "cstate.name_no_zero:", &rest) ||
			   prefix(a, "cstate.name:", &rest)) {
			if (!*rest)
				return pfm_bad(m, in, o, "'%s': no C-state name (expected cstate.name:NAME)", a);
		} else if (strcmp(a, "None") != 0 && strcmp(a, "none") != 0 &&
			   !(allow_na && strcmp(a, "n/a") == 0)) {
			return pfm_bad(m, in, o, "'%s' is not a latency (expected microseconds, cstate.id:N, "
				   "cstate.name:NAME, cstate.id_no_zero:N, cstate.name_no_zero:NAME%s or "
				   "None, alternatives separated by '|')", a, allow_na ? ", n/a" : "");
		}
	}
	return 0;
}

/* tuned's _parse_latency(): alternatives "a|b|c", the first that resolves
 * wins; None stops; a malformed alternative is an error here (tuned would
 * pass over it), so a typo cannot silently leave C-states unlimited. */
static int parse_latency(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
			 const char *value, bool allow_na, struct latency *out)
{
	const struct machine *mc = m->L->m;
	char copy[VALUE_MAX];
	char *alts[32];
	int n = 0;

	snprintf(copy, sizeof(copy), "%s", value);
	for (char *save = NULL, *a = strtok_r(copy, "|", &save); a && n < 32;
	     a = strtok_r(NULL, "|", &save)) {
		while (*a == ' ' || *a == '\t')
			a++;
		size_t len = strlen(a);
		while (len && (a[len - 1] == ' ' || a[len - 1] == '\t'))
			a[--len] = '\0';
		alts[n++] = a;
	}
	if (n == 0 || strstr(value, "||") || value[0] == '|' || value[strlen(value) - 1] == '|')
		return pfm_bad(m, in, o, "empty alternative (expected microseconds, cstate.id:N, "
			   "cstate.name:NAME or their _no_zero forms%s, separated by '|')",
			   allow_na ? ", n/a" : "");
	/* Check every alternative first. */
	if (check_alternatives(m, in, o, alts, n, allow_na) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		const char *a = alts[i], *rest;
		int64_t v;
		bool no_zero = false;
		int idx = -2;

		if (parse_int64(a, &v) == 0) {
			*out = (struct latency){ LAT_VALUE, v, "" };
			snprintf(out->how, sizeof(out->how), "%s", a);
			return 0;
		}
		if (strcmp(a, "None") == 0 || strcmp(a, "none") == 0) {
			*out = (struct latency){ LAT_NONE, 0, "" };
			return 0;
		}
		if (strcmp(a, "n/a") == 0) {
			*out = (struct latency){ LAT_NA, 0, "n/a" };
			return 0;
		}
		if ((no_zero = prefix(a, "cstate.id_no_zero:", &rest)) || prefix(a, "cstate.id:", &rest)) {
			parse_int64(rest, &v);
			idx = v <= 64 ? pfm_linux_state(mc, (int)v) : -2;
		} else if ((no_zero = prefix(a, "cstate.name_no_zero:", &rest)) ||
			   prefix(a, "cstate.name:", &rest)) {
			if (pfm_linux_state(mc, 0) == -1 && strcmp(rest, "POLL") == 0)
				idx = -1; /* the x86 POLL state the machine does not list */
			else if ((idx = machine_cstate_index(mc, rest)) < 0)
				idx = -2;
		}
		if (idx == -2)
			continue; /* no such state here: the next alternative */
		if (no_zero && state_latency_us(mc, idx) == 0)
			continue;
		*out = (struct latency){ LAT_VALUE, state_latency_us(mc, idx), "" };
		snprintf(out->how, sizeof(out->how), "%s = %s, %" PRId64 " us", a,
			 state_name(mc, idx), out->us);
		return 0;
	}
	*out = (struct latency){ LAT_UNRESOLVED, 0, "" };
	return 0;
}

int pfm_force_latency(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
			 const char *value)
{
	struct latency lat;
	char note[128];

	if (parse_latency(m, in, o, value, false, &lat))
		return -1;
	if (lat.kind == LAT_NONE)
		return pfm_skip(m, in, o, "None: PM QoS is left alone");
	if (lat.kind == LAT_UNRESOLVED)
		return pfm_skip(m, in, o, "no alternative exists on %s (tuned logs an error and sets no "
			    "PM QoS limit)", m->L->m->name);
	char num[32];
	snprintf(num, sizeof(num), "%" PRId64, lat.us);
	snprintf(note, sizeof(note), " (%s)", lat.how);
	return pfm_set_knob(m, in, o, pfm_engine_tunable("pm_qos_latency_us"), num,
			strchr(lat.how, '=') ? note : NULL);
}

int pfm_resume_latency(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
			  const char *value)
{
	struct latency lat;
	char note[160], num[32];

	if (parse_latency(m, in, o, value, true, &lat))
		return -1;
	if (lat.kind == LAT_NONE)
		return pfm_skip(m, in, o, "None: the resume latency is left alone");
	if (lat.kind == LAT_UNRESOLVED)
		return pfm_skip(m, in, o, "no alternative exists on %s", m->L->m->name);
	/* sysfs: "n/a" allows no C-state (engine 0), 0 means no constraint
	 * (engine -1), N allows states with an exit latency below N. */
	int64_t engine = lat.kind == LAT_NA ? 0 : lat.us == 0 ? -1 : lat.us;
	snprintf(num, sizeof(num), "%" PRId64, engine);
	snprintf(note, sizeof(note), " (%s%s)", lat.how[0] ? lat.how : value,
		 lat.kind == LAT_NA ? ": no C-state" : engine < 0 ? ": 0 is no constraint" : "");
	return pfm_set_knob(m, in, o, pfm_engine_tunable("pm_qos_resume_latency_us"), num, note);
}

int pfm_latency_us(struct map *m, const struct pf_inst *in, const struct pf_opt *o,
		   const char *value, int64_t *us, char *how, size_t len)
{
	struct latency lat;
	if (parse_latency(m, in, o, value, false, &lat))
		return -1;
	if (lat.kind == LAT_NONE || lat.kind == LAT_UNRESOLVED)
		return pfm_bad(m, in, o, "%s (expected microseconds or a C-state that exists on %s)",
			       lat.kind == LAT_NONE ? "None is no latency here" : "no alternative exists",
			       m->L->m->name);
	*us = lat.us;
	snprintf(how, len, "%s", lat.how[0] ? lat.how : value);
	return 0;
}
