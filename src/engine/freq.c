// SPDX-License-Identifier: GPL-2.0-only
/* The simulator's cpufreq driver: one policy per clock domain with online
 * CPUs, the governor attached to each, and frequency changes that take
 * effect after the machine's transition latency. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cpufreq/cppc_guided.h"
#include "../cpufreq/hw_autonomous.h"
#include "../cpufreq/hookcost.h"
#include "../sched/uclamp.h"
#include "sim_internal.h"

static struct sim *driver_sim(void *ctx)
{
	return ctx;
}

static void sim_cpu_times(void *ctx, int cpu, struct cpu_times *out)
{
	struct sim *s = driver_sim(ctx);
	struct sim_cpu *c = &s->cpus[cpu];
	cpu_sync(s, c);
	out->busy = c->acct.user_ns + c->acct.sys_ns;
	out->idle = c->acct.idle_ns;
	out->iowait = c->acct.iowait_ns;
	out->idle_calls = c->idle_calls;
}

/* cpu_util_cfs_boost() without runnable boosting, and the uclamp range:
 * the run queue's utilization as of its last PELT update, as the kernel
 * reads it (no update to now: see engine/load_avg.c). */
void cpu_util_get(struct sim *s, struct sim_cpu *c, struct cpu_util *out)
{
	uint32_t util = c->pelt.util_avg > c->util_est_sum ? c->pelt.util_avg : c->util_est_sum;
	/* cpu_util(): at most the CPU's capacity (capacity_orig_of()). */
	uint32_t cap = cpu_type_of(s, c)->capacity;
	out->capacity = cap;
	out->util = util < cap ? util : cap;
	/* uclamp_rq_util_with(): the max of the runnable tasks' effective
	 * clamps (sched/uclamp.h); none on an idle run queue, and the whole
	 * range while the static key sched_uclamp_used is off (the kernel
	 * returns before looking at the run queue). */
	out->uclamp_min = 0;
	out->uclamp_max = PELT_SCALE;
	if (!s->knobs.uclamp_used)
		return;
	struct uclamp_rq rq;
	uclamp_rq_init(&rq);
	for (int i = -1; i < c->rq.len; i++) {
		const struct task *t = i < 0 ? (c->mode == CPU_RUNNING ? c->curr : NULL)
					     : c->rq.heap[i];
		if (!t || (i < 0 && t->state != TASK_RUNNING))
			continue;
		uclamp_rq_add(&rq, t, &s->knobs);
	}
	out->uclamp_min = uclamp_rq_min(&rq);
	out->uclamp_max = uclamp_rq_max(&rq);
}

static void sim_cpu_util(void *ctx, int cpu, struct cpu_util *out)
{
	struct sim *s = driver_sim(ctx);
	cpu_util_get(s, &s->cpus[cpu], out);
}

/* APERF counts actual cycles in C0, MPERF and the TSC count at the base
 * frequency (in C0, and always). */
static void sim_cpu_counters(void *ctx, int cpu, struct cpu_counters *out)
{
	struct sim *s = driver_sim(ctx);
	struct sim_cpu *c = &s->cpus[cpu];
	cpu_sync(s, c);
	const struct sim_type *ty = cpu_type_of(s, c);
	double base_mhz = ty->khz[ty->base_idx] / 1000.0;
	out->aperf = (uint64_t)(cpu_c0_mhz_ns(s, c) / 1000.0);
	out->mperf = (uint64_t)((double)c->acct.c0_ns * base_mhz / 1000.0);
	out->tsc = (uint64_t)((double)s->now * base_mhz / 1000.0);
}

static int table_index(const struct sim_type *ty, uint32_t khz)
{
	for (int i = 0; i < ty->npstates; i++)
		if (ty->khz[i] >= khz)
			return i;
	return ty->npstates - 1;
}

/* The hardware moves to `khz` (the table entry at or above it). */
static void freq_program(struct sim *s, struct cpufreq_policy *p, uint32_t khz)
{
	struct sim_policy *sp = &s->policies[p->id];
	int idx = table_index(&s->types[sp->type], khz);
	s->freq_transitions++;
	sp->apply_gen++;
	/* The energy/performance bias makes the hardware slower to take turbo
	 * (engine/epb.c): the base P-state first. */
	int base = s->types[sp->type].base_idx;
	sim_ns turbo_wait = idx > base && sp->cur_idx < base ? epb_turbo_delay_ns(s) : 0;
	int first = turbo_wait > 0 ? base : idx;
	if (s->m->transition_latency_ns == 0 || s->now == 0)
		freq_apply(s, p->id, first);
	else
		sim_post(s, s->now + s->m->transition_latency_ns, EV_FREQ_APPLY, (uint32_t)p->id,
			 sp->apply_gen, (uint32_t)first);
	if (turbo_wait > 0)
		sim_post(s, s->now + s->m->transition_latency_ns + turbo_wait, EV_FREQ_APPLY,
			 (uint32_t)p->id, sp->apply_gen, (uint32_t)idx);
}

static void guided_program(struct sim *s, struct cpufreq_policy *p, uint32_t khz)
{
	struct sim_policy *sp = &s->policies[p->id];
	if (khz == sp->guided_khz)
		return;
	sp->guided_khz = khz;
	freq_program(s, p, khz);
}

static void sim_set_target(void *ctx, struct cpufreq_policy *p, uint32_t khz)
{
	struct sim *s = driver_sim(ctx);
	if (freq_guided(p))
		guided_program(s, p, cppc_guided_request(&s->policies[p->id].guided, p, khz));
	else
		freq_program(s, p, khz);
}

/* Whether a CPU's own P-state request counts toward its clock. Intel's
 * datasheets: "All active processor cores share the same frequency and
 * voltage. In a multi-core processor, the highest frequency P-state
 * requested amongst all active cores is selected" (2nd and 4th generation
 * Core desktop datasheets vol. 1 s. 4.2.1, 328897; Xeon E5-1600/2600 v1/v2
 * vol. 1 s. 4.2.1; Intel support article 000007073 for current client
 * parts). Which idle states count as active: "voting rights were lost by
 * any threads in C1E/C3/C6 states" (Gough, Steiner, Saunders, Energy
 * Efficient Servers, Apress 2015, ch. 2, on Sandy Bridge and Ivy Bridge):
 * a thread votes in C0 (running, or waking) and in the first hardware
 * state, C1, whose core keeps its clock; from C1E down it does not. HWP
 * (Skylake on) keeps the per-thread request (IA32_HWP_REQUEST, SDM vol. 3
 * s. 14.4.4); how the hardware resolves them is not published, so the
 * same rule stands for it. */
static bool cpu_votes(const struct sim *s, const struct sim_cpu *c)
{
	return c->mode != CPU_IDLE || c->cstate <= s->demote_c1;
}

/* The shared clock at the highest request of the CPUs that vote. With
 * none voting no core runs: the datasheets' clock drops to its minimum,
 * which nothing observes before a CPU wakes and votes again, so the model
 * leaves it until then. */
static void resolve_votes(struct sim *s, struct sim_policy *sp)
{
	uint32_t top = 0;
	for (int j = 0; j < sp->p.ncpus; j++)
		if (sp->req_khz[j] > top && cpu_votes(s, &s->cpus[sp->cpus[j]]))
			top = sp->req_khz[j];
	if (top)
		cpufreq_driver_target(&sp->p, top, RELATION_L);
}

static void sim_request_cpus(void *ctx, struct cpufreq_policy *p, const uint32_t *khz)
{
	struct sim *s = driver_sim(ctx);
	struct sim_policy *sp = &s->policies[p->id];
	memcpy(sp->req_khz, khz, (size_t)p->ncpus * sizeof(*khz));
	sp->per_cpu_requests = true;
	for (int j = 0; j < p->ncpus; j++)
		s->cpus[sp->cpus[j]].votes_per_cpu = true;
	resolve_votes(s, sp);
}

void freq_votes(struct sim *s, const struct sim_cpu *c)
{
	struct sim_policy *sp = &s->policies[c->policy];
	if (sp->per_cpu_requests)
		resolve_votes(s, sp);
}

static const struct cpufreq_driver sim_driver = {
	.cpu_times = sim_cpu_times,
	.cpu_util = sim_cpu_util,
	.cpu_counters = sim_cpu_counters,
	.set_target = sim_set_target,
	.request_cpus = sim_request_cpus,
};

void freq_apply(struct sim *s, int pi, int idx)
{
	struct sim_policy *sp = &s->policies[pi];
	if (sp->cur_idx == idx)
		return;
	/* What C0 time at the old frequency (idle CPUs have none). */
	for (int i = 0; i < sp->p.ncpus; i++)
		if (s->cpus[sp->cpus[i]].mode != CPU_IDLE)
			cpu_sync(s, &s->cpus[sp->cpus[i]]);
	/* Integrate each core's energy at the old frequency first (once a
	 * core: its threads share the policy). */
	for (int i = 0; i < sp->p.ncpus; i++) {
		const struct sim_cpu *c = &s->cpus[sp->cpus[i]];
		if (s->cores[c->core].cpus[0] == c->id)
			core_update(s, c->core);
	}
	sp->cur_idx = idx;
	policy_pstate_changed(s, pi);
	for (int i = 0; i < sp->p.ncpus; i++) {
		struct sim_cpu *c = &s->cpus[sp->cpus[i]];
		if (s->cores[c->core].cpus[0] == c->id)
			core_update(s, c->core);
		if (c->mode == CPU_RUNNING) {
			cpu_set_speed(s, c);
			cpu_arm_done(s, c);
		}
	}
}

/* What `cycles` of a hook's path cost at `khz` (see freq_update_call()). */
static inline sim_ns freq_hook_ns(uint64_t cycles, uint64_t khz)
{
	return (sim_ns)(cycles * 1000000 / khz);
}

/* cpufreq_update_util(): calls the governor if the kernel installed a
 * hook for the policy (or the simulator drives one in its place), and
 * charges the CPU what the call cost: the dispatch and the cycles of the
 * governor's path at the CPU's clock, plus a self-IPI and two kernel-thread
 * switches for work deferred to a kworker; or cpufreq_update_cost_ns per
 * real call when that is set. */
__attribute__((noinline)) void freq_update_call(struct sim *s, struct sim_cpu *c,
						struct cpufreq_policy *p, unsigned flags)
{
	enum cpufreq_hook hook = p->hook;
	c->util_decayed = false;
	uint64_t khz = cpu_khz(s, c);
	p->hook_cycles = 0;
	p->hook_deferred = 0;
	s->cf_gov->update(p, c->id, s->now, flags);
	if (freq_guided(p)) {
		/* The hardware's own loop, at no CPU cost. */
		uint32_t hw = cppc_guided_evaluate(&s->policies[c->policy].guided, p, c->id, s->now);
		if (hw)
			guided_program(s, p, hw);
	}
	uint64_t cycles = p->hook_cycles;
	if (hook == CPUFREQ_HOOK_UTIL) {
		s->cpufreq_hook_calls++;
		cycles += CPUFREQ_CYCLES_DISPATCH;
	}
	sim_ns ns;
	if (s->par.cpufreq_update_cost_ns >= 0) {
		ns = hook == CPUFREQ_HOOK_UTIL ? s->par.cpufreq_update_cost_ns : 0;
	} else {
		ns = freq_hook_ns(cycles, khz);
		/* Only the DBS governors defer work: the kernel-thread costs
		 * are looked up for their calls alone (callgrind, pingpong-su:
		 * -5.9 instructions a schedutil call). */
		if (p->hook_deferred)
			ns += (sim_ns)p->hook_deferred *
			      (2 * s->m->context_switch_ns + s->m->wakeup_ipi_ns);
	}
	cpu_charge(s, c, NULL, ns);
}

/* A call the governor says would change nothing (cpufreq_policy's
 * util_quiet_*; schedutil's evaluation that keeps its target): no other
 * CPU of the policy marked changed, this one's util at most the band's
 * top, and some CPU's at least its bottom (this one's, or another's known
 * so and unchanged since: it is not marked). Its bit then moves to
 * util_stale (freq_left_out()), so that the governor still reads it. */
static inline bool freq_call_quiet(const struct sim_cpu *c, struct cpufreq_policy *p)
{
	uint64_t bit = c->util_dirty_bit;
	if (*c->util_dirty & ~bit)
		return false;
	uint32_t u = c->pelt.util_avg > c->util_est_sum ? c->pelt.util_avg : c->util_est_sum;
	if (u > p->util_quiet_hi)
		return false;
	if (u >= p->util_quiet_lo) {
		p->util_quiet_holders |= bit;
		return true;
	}
	if (!(p->util_quiet_holders & ~bit))
		return false;
	p->util_quiet_holders &= ~bit;
	return true;
}

/* A call left out: charged as freq_update_call() would (no work deferred,
 * the governor's clock unchanged). */
static void freq_quiet_charge(struct sim *s, struct sim_cpu *c, uint32_t cycles)
{
	c->util_decayed = false;
	s->cpufreq_hook_calls++;
	sim_ns ns = s->par.cpufreq_update_cost_ns;
	if (ns < 0)
		ns = freq_hook_ns((uint64_t)cycles + CPUFREQ_CYCLES_DISPATCH, cpu_khz(s, c));
	cpu_charge(s, c, NULL, ns);
}

/* A call with no flags that the governor says would change nothing
 * (cpufreq_policy's util_quiet_*): before util_quiet_from it returns at
 * the rate limit; from then it keeps the target if freq_call_quiet(). */
static inline bool freq_left_out(struct sim *s, struct sim_cpu *c, struct cpufreq_policy *p)
{
	if (s->now < p->util_quiet_from) {
		if (p->util_quiet_from == SIM_NS_MAX)
			return false;
		freq_quiet_charge(s, c, p->util_limited_cycles);
		return true;
	}
	if (!freq_call_quiet(c, p))
		return false;
	*c->util_dirty &= ~c->util_dirty_bit;
	*p->util_stale |= c->util_dirty_bit; /* one word: a policy of up to 64 CPUs */
	freq_quiet_charge(s, c, p->util_quiet_cycles);
	return true;
}

void freq_update_hook_outline(struct sim *s, struct sim_cpu *c, unsigned flags)
{
	freq_update_hook(s, c, flags);
}

__attribute__((noinline)) void freq_util_call(struct sim *s, struct sim_cpu *c,
					      struct cpufreq_policy *p, unsigned flags)
{
	if (!flags && freq_left_out(s, c, p))
		return;
	freq_update_call(s, c, p, flags);
}

/* The period of the processor's own loop for a policy: the governor's
 * (HWP, amd-pstate's active mode), or guided mode's, which runs whatever
 * governor gives it its floor. */
static sim_ns hw_loop_period(const struct cpufreq_policy *p)
{
	return freq_guided(p) ? HW_AUTO_EVAL_NS : p->hw_loop_ns;
}

/* hw_loop_ns is set only by the intel_pstate governor (with HWP, the
 * machine's or its tunable's) and amd-pstate (s->amd_pstate), guided
 * mode's period only under amd-pstate; a plugin's governor may set it
 * too. The governor and driver are fixed at setup, whatever policy
 * changes later. */
bool freq_hw_loop_possible(const struct sim *s)
{
	return s->amd_pstate != CPPC_NONE || s->cf_gov->plugin ||
	       strcmp(s->cf_gov->name, "intel_pstate") == 0;
}

bool freq_hw_loop_running(const struct sim *s)
{
	for (int i = 0; i < s->npolicies; i++)
		if (hw_loop_period(&s->policies[i].p) > 0)
			return true;
	return false;
}

void freq_hw_loop_start(struct sim *s, const struct sim_cpu *c)
{
	sim_ns period = hw_loop_period(&s->policies[c->policy].p);
	if (period > 0)
		sim_post(s, s->now + period, EV_HW_LOOP, (uint32_t)c->id, c->wake_gen, 0);
}

/* One turn of the processor's loop on a CPU in C0: no scheduler event, no
 * CPU time. */
void freq_hw_loop(struct sim *s, struct sim_cpu *c)
{
	struct sim_policy *sp = &s->policies[c->policy];
	struct cpufreq_policy *p = &sp->p;
	if (freq_guided(p)) {
		uint32_t hw = cppc_guided_evaluate(&sp->guided, p, c->id, s->now);
		if (hw)
			guided_program(s, p, hw);
	} else if (p->hw_loop_ns > 0 && s->cf_gov->update) {
		p->hook_cycles = 0;
		p->hook_deferred = 0;
		s->cf_gov->update(p, c->id, s->now, CPUFREQ_UPDATE_HW);
	}
	freq_hw_loop_start(s, c);
}

/* Which amd-pstate mode runs the policies: the amd_pstate governor is the
 * active mode (amd-pstate-epp); a generic governor on a machine whose
 * driver is amd-pstate runs in passive mode, or guided with
 * --set amd_pstate=guided (mode_state_machine[] of amd-pstate.c switches
 * between them at run time; the simulator fixes one per run). */
static int set_amd_pstate_mode(struct sim *s, struct pm_diag *d)
{
	enum cpufreq_driver_kind k = s->m->cpufreq_driver;
	bool amd_machine = k == CPUFREQ_DRIVER_AMD_PSTATE || k == CPUFREQ_DRIVER_AMD_PSTATE_EPP;
	int64_t want = s->par.amd_pstate;
	const char *word = want == AMD_PSTATE_GUIDED ? "guided" : "passive";
	s->amd_pstate = CPPC_NONE;
	if (strcmp(s->cf_gov->name, "amd_pstate") == 0) {
		if (want != AMD_PSTATE_DEFAULT)
			return pm_fail(d, "--set amd_pstate=%s: the amd_pstate governor is amd-pstate's "
				       "active mode (amd-pstate-epp); %s mode runs a generic governor "
				       "(expected e.g. --cpufreq schedutil)", word, word);
		s->amd_pstate = CPPC_ACTIVE;
	} else if (amd_machine) {
		s->amd_pstate = want == AMD_PSTATE_GUIDED ? CPPC_GUIDED : CPPC_PASSIVE;
	} else if (want != AMD_PSTATE_DEFAULT) {
		return pm_fail(d, "--set amd_pstate=%s: machine %s runs the cpufreq driver %s (expected "
			       "a machine with cpufreq_driver = amd-pstate or amd-pstate-epp)", word,
			       s->m->name, machine_cpufreq_driver_name(k));
	}
	return 0;
}

/* One policy per clock domain, in the order of their first CPUs; each
 * CPU's place in its policy and its utilization-update flags. */
static int build_policies(struct sim *s, struct pm_diag *d)
{
	const struct machine *m = s->m;
	int ndom = machine_freq_domains(m);
	int *map = malloc((size_t)ndom * sizeof(*map));
	if (!map)
		return pm_fail(d, "out of memory");
	for (int i = 0; i < ndom; i++)
		map[i] = -1;
	s->npolicies = 0;
	for (int c = 0; c < s->ncpus; c++) {
		int dom = machine_cpu_freq_domain(m, c);
		if (map[dom] < 0)
			map[dom] = s->npolicies++;
	}
	s->policies = calloc((size_t)s->npolicies, sizeof(*s->policies));
	if (!s->policies) {
		free(map);
		return pm_fail(d, "out of memory");
	}
	s->cpu_policy_slot = malloc((size_t)s->ncpus * sizeof(int));
	if (!s->cpu_policy_slot) {
		free(map);
		return pm_fail(d, "out of memory");
	}
	for (int c = 0; c < s->ncpus; c++) {
		int pi = map[machine_cpu_freq_domain(m, c)];
		struct sim_policy *sp = &s->policies[pi];
		int *grown = realloc(sp->cpus, (size_t)(sp->p.ncpus + 1) * sizeof(int));
		if (!grown) {
			free(map);
			return pm_fail(d, "out of memory");
		}
		sp->cpus = grown;
		s->cpu_policy_slot[c] = sp->p.ncpus;
		sp->cpus[sp->p.ncpus++] = c;
		sp->type = s->cpus[c].type;
		s->cpus[c].policy = pi;
	}
	free(map);
	for (int pi = 0; pi < s->npolicies; pi++) {
		struct sim_policy *sp = &s->policies[pi];
		/* util_dirty's words, then util_stale's. */
		size_t words = ((size_t)sp->p.ncpus + 63) / 64;
		sp->util_dirty = calloc(2 * words, sizeof(*sp->util_dirty));
		sp->req_khz = calloc((size_t)sp->p.ncpus, sizeof(*sp->req_khz));
		sp->util_src = calloc((size_t)sp->p.ncpus, sizeof(*sp->util_src));
		if (!sp->util_dirty || !sp->req_khz || !sp->util_src)
			return pm_fail(d, "out of memory");
		sp->p.util_dirty = sp->util_dirty;
		sp->p.util_stale = sp->util_dirty + words;
		sp->p.util_quiet_from = SIM_NS_MAX;
		sp->p.cpu_index = s->cpu_policy_slot;
		sp->p.util_src = s->knobs.uclamp_used ? NULL : sp->util_src;
	}
	for (int c = 0; c < s->ncpus; c++) {
		struct sim_cpu *cpu = &s->cpus[c];
		struct sim_policy *sp = &s->policies[cpu->policy];
		int slot = s->cpu_policy_slot[c];
		cpu->util_dirty = &sp->util_dirty[slot / 64];
		cpu->util_dirty_bit = UINT64_C(1) << (slot % 64);
		/* cpu_util_get()'s inputs, where they stay for the whole run. */
		sp->util_src[slot] = (struct cpu_util_src){ .util_avg = &cpu->pelt.util_avg,
							    .util_est = &cpu->util_est_sum,
							    .capacity = cpu_type_of(s, cpu)->capacity };
	}
	return 0;
}

void freq_uclamp_used(struct sim *s)
{
	for (int pi = 0; pi < s->npolicies; pi++) {
		s->policies[pi].p.util_src = NULL;
		/* The band the governor gave was for utils without clamps. */
		s->policies[pi].p.util_quiet_from = SIM_NS_MAX;
	}
}

bool freq_util_src_agrees(struct sim *s, int cpu)
{
	const struct sim_cpu *c = &s->cpus[cpu];
	const struct cpufreq_policy *p = &s->policies[c->policy].p;
	if (!p->util_src)
		return true;
	const struct cpu_util_src *src = &p->util_src[s->cpu_policy_slot[cpu]];
	struct cpu_util u;
	cpu_util_get(s, &s->cpus[cpu], &u);
	uint32_t util = *src->util_avg > *src->util_est ? *src->util_avg : *src->util_est;
	return !s->knobs.uclamp_used && src->capacity == u.capacity &&
	       (util < src->capacity ? util : src->capacity) == u.util && u.uclamp_min == 0 &&
	       u.uclamp_max == PELT_SCALE;
}

/* The transition delay a cpufreq driver sets for itself (0: none, the
 * cpufreq core derives one from the transition latency). intel_pstate in
 * passive mode (intel_cpufreq: a generic governor on an intel_pstate
 * machine): intel_cpufreq_cpu_init() sets transition_delay_us to
 * INTEL_CPUFREQ_TRANSITION_DELAY, 500 us (drivers/cpufreq/intel_pstate.c,
 * v4.14 through v6.x), or with HWP to INTEL_CPUFREQ_TRANSITION_DELAY_HWP,
 * 5000 us (v5.9+, when passive mode began to keep HWP on; before, it
 * turned HWP off). */
static sim_ns driver_transition_delay_ns(const struct sim *s)
{
	enum cpufreq_driver_kind k = s->m->cpufreq_driver;
	bool intel = k == CPUFREQ_DRIVER_INTEL_PSTATE || k == CPUFREQ_DRIVER_INTEL_CPUFREQ;
	int v = s->kernel_version;
	if (!intel || strcmp(s->cf_gov->name, "intel_pstate") == 0 || (v && v < 4014))
		return 0;
	bool hwp = s->m->hwp != 0 && (!v || v >= 5009);
	return (hwp ? 5000 : 500) * NS_PER_US;
}

/* A policy's limits, tables and driver as the machine gives them, and
 * its governor's data. */
static int setup_policy(struct sim *s, int pi, struct pm_diag *d)
{
	const struct machine *m = s->m;
	struct sim_policy *sp = &s->policies[pi];
	struct cpufreq_policy *p = &sp->p;
	const struct sim_type *ty = &s->types[sp->type];
	uint32_t hw_max = s->par.boost ? ty->khz[ty->npstates - 1] : ty->khz[ty->base_idx];
	p->id = pi;
	p->cpus = sp->cpus;
	p->table = ty->os_khz;
	p->ntable = ty->os_npstates;
	p->cpuinfo_min = ty->khz[0];
	p->cpuinfo_max = hw_max;
	p->base_khz = ty->khz[ty->base_idx];
	p->tick_ns = s->tick_ns;
	p->transition_delay_ns = driver_transition_delay_ns(s);
	p->min = p->cpuinfo_min;
	p->max = p->cpuinfo_max;
	/* Firmware hands over at the base frequency. */
	sp->cur_idx = ty->base_idx;
	policy_pstate_changed(s, pi);
	p->cur = ty->khz[ty->base_idx];
	p->transition_latency_ns = m->transition_latency_ns;
	p->freq_invariant = ty->fie_khz != 0;
	p->hwp = s->m->hwp != 0;
	p->perf_scaling_khz = ty->t->perf_scaling_khz;
	p->lowest_nonlinear_khz = ty->t->lowest_nonlinear_khz;
	p->amd_pstate = s->amd_pstate;
	p->pm_server = machine_pm_profile_server(m->pm_profile);
	p->epp_balance_perf = (uint32_t)m->epp_balance_perf;
	p->kernel = s->kernel_version;
	p->driver = &sim_driver;
	p->driver_ctx = s;
	p->gov = s->cf_gov;
	if (s->cf_gov->data_size) {
		p->gov_data = malloc(s->cf_gov->data_size);
		if (!p->gov_data)
			return pm_fail(d, "out of memory");
		memcpy(p->gov_data, s->cf_tunables, s->cf_gov->data_size);
	}
	/* Guided mode's hardware loop runs with every hook call: none is left
	 * out; nor when the run asks for every call. */
	if (freq_guided(p) || s->call_every_hook)
		p->util_stale = NULL;
	if (freq_guided(p) && cppc_guided_init(&sp->guided, p, d) < 0)
		return -1;
	return 0;
}

int freq_init(struct sim *s, struct pm_diag *d)
{
	if (set_amd_pstate_mode(s, d) < 0 || build_policies(s, d) < 0)
		return -1;
	for (int pi = 0; pi < s->npolicies; pi++)
		if (setup_policy(s, pi, d) < 0)
			return -1;
	for (int pi = 0; pi < s->npolicies; pi++) {
		struct cpufreq_policy *p = &s->policies[pi].p;
		uint32_t lo = s->par.scaling_min_khz ? (uint32_t)s->par.scaling_min_khz
						     : cpufreq_default_min(p);
		uint32_t hi = s->par.scaling_max_khz ? (uint32_t)s->par.scaling_max_khz : p->cpuinfo_max;
		if (p->gov->start && p->gov->start(p, d) < 0)
			return -1;
		/* scaling_{min,max}_freq as the user set them; this also calls the
		 * governor's limits(), which sets the first frequency. */
		if (cpufreq_set_limits(p, lo, hi, d) < 0) {
			char why[PM_DIAG_MAX];
			snprintf(why, sizeof(why), "%s", d->msg);
			return pm_fail(d, "--set scaling_min_khz/scaling_max_khz: %s", why);
		}
	}
	return 0;
}

void freq_fini(struct sim *s)
{
	for (int pi = 0; pi < s->npolicies; pi++) {
		struct sim_policy *sp = &s->policies[pi];
		if (sp->p.gov && sp->p.gov->stop)
			sp->p.gov->stop(&sp->p);
		free(sp->p.gov_data);
		cppc_guided_fini(&sp->guided);
		free(sp->cpus);
		free(sp->util_dirty);
		free(sp->req_khz);
		free(sp->util_src);
	}
	free(s->policies);
	s->policies = NULL;
}
