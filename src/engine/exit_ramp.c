// SPDX-License-Identifier: GPL-2.0-only
/* The exit ramp of a state that drops the core to its lowest P-state
 * (Intel's C1E). Intel's data sheets give the two halves of the rule:
 *   - entry: "if the C1E sub-state is enabled, the processor automatically
 *     transitions to the lowest supported core clock frequency, followed by
 *     a reduction in voltage" (Xeon E3-1200 v3 data sheet 328907-001,
 *     4.2.5, Package C1/C1E; the same words for Sandy Bridge-E);
 *   - exit: "upon receiving a break event from the package low power
 *     state, control will be returned to software while an Enhanced Intel
 *     SpeedStep Technology transition up to the initial operating point
 *     occurs" (Core 2 Duo mobile L7400 data sheet, 2.4, Extended Low Power
 *     States), and a transition up ramps the voltage first and locks the
 *     PLL on the target frequency only once the voltage is established
 *     (Xeon E5-2600 data sheet vol. 1, 4.2.1).
 * So a core woken from such a state runs its first microseconds at the
 * lowest P-state: for (V(target) - V(lowest)) / the regulator's slew rate
 * ([power] vr_slew_mv_per_us), then at the P-state its policy and the
 * turbo bins give. Power follows the lowest P-state meanwhile (the voltage
 * is between the two: the lower bound). */
#include "hwmodel.h"
#include "sim_internal.h"

sim_ns exit_ramp_ns(const struct machine *m, uint32_t from_mv, uint32_t to_mv)
{
	if (m->vr_slew_mv_per_us <= 0 || to_mv <= from_mv)
		return 0;
	return (sim_ns)((double)(to_mv - from_mv) / m->vr_slew_mv_per_us * 1e3 + 0.5);
}

/* The core's shallowest thread state while all its threads are idle, or
 * -1 if one of them is in C0 (nbusy counts them: set_mode() moves it with
 * every mode). */
static int core_idle_state(const struct sim *s, const struct sim_core *core)
{
	return core->nbusy ? -1 : core_shallowest_cstate(s, core);
}

void exit_ramp_begin(struct sim *s, struct sim_cpu *c)
{
	if (s->m->vr_slew_mv_per_us <= 0)
		return; /* no ramp to wait for */
	struct sim_core *core = &s->cores[c->core];
	int st = core_idle_state(s, core);
	/* The thread's C-state table is its type's (c->idle.states). */
	if (st < 0 || !c->idle.states[st].lowest_pstate)
		return;
	const struct cpu_type *t = cpu_type_of(s, c)->t;
	/* The P-state the core returns to: its own, as if no ramp ran. */
	int to = core_pstate_target(s, c->core);
	sim_ns ns = exit_ramp_ns(s->m, t->pstates[0].mv, t->pstates[to].mv);
	core->ramping = ns > 0;
	core_pstate_refresh(s, c->core);
	if (ns <= 0)
		return;
	core->ramp_gen++;
	sim_post_ramp_end(s, s->now + ns, (uint32_t)c->core, core->ramp_gen);
}

void exit_ramp_end(struct sim *s, int ci)
{
	struct sim_core *core = &s->cores[ci];
	/* C0 time at the lowest P-state first; the energy at the ramp's
	 * power is integrated by core_update(), before it sets the new. */
	for (int i = 0; i < core->ncpus; i++)
		if (s->cpus[core->cpus[i]].mode != CPU_IDLE)
			cpu_sync(s, &s->cpus[core->cpus[i]]);
	core->ramping = false;
	core_pstate_refresh(s, ci);
	core_update(s, ci);
	for (int i = 0; i < core->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[core->cpus[i]];
		if (c->mode == CPU_RUNNING) {
			cpu_set_speed(s, c);
			cpu_arm_done(s, c);
		}
	}
}
