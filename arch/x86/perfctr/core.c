// SPDX-License-Identifier: GPL-2.0
/*
 * perfctr x86 low-level driver.
 *
 * The CPU model is chosen once at init; the model-specific operations are
 * then reached through static calls, so on x86 (HAVE_STATIC_CALL_INLINE)
 * every call site is rewritten to call the model's function directly.
 * That is what the original driver's hand-made call-site backpatching and
 * its P6 "finalise backpatching" step did; text_poke_bp() makes it safe
 * on SMP, which the finalise step had to arrange by hand.
 *
 * Models: the generic one (the TSC alone: tsc_on = 1, no PMCs), and the
 * families of Documentation/arch/x86/perfctr.rst with accumulation-mode
 * counters, each in its file with one struct perfctr_x86_family_ops of
 * operations that its models point at (as arch/x86/events/ has one
 * struct x86_pmu a family):
 *  - p6.c: the P6 family and its descendants: Intel P6, AMD K7/K8, Intel
 *    architectural perfmon, AMD family 15h+ core counters; hybrid.c:
 *    Intel hybrid CPUs' PMUs, run by the P6 family's operations;
 *  - p5.c: the P5 family: Intel P5 and P5MMX, Cyrix 6x86MX/MII/III,
 *    Centaur WinChip C6/2/3 (two counters controlled by one CESR);
 *  - vc3.c: VIA C3 (PERFCTR1 only);
 *  - p4.c: Intel Pentium 4 (CCCRs and ESCRs, replay tagging).
 * This file holds what they share: detection, the static calls and
 * perfctr_x86_use_model(), which installs a model's family operations in
 * them, the reservation of the PMU, and the perfctr_cpu_* API.
 * Every model is exercised on a simulated PMU by the KUnit suite
 * (sim_kunit.c, and a file of cases per family: core_kunit.c, ...).
 * perfctr_cpu_init() selects the boot CPU's model, or the generic one if
 * its PMU does not respond (virtual machines, QEMU TCG); the PMU itself
 * is reserved at the first state (perfctr_cpu_reserve()).
 */
#define pr_fmt(fmt) "perfctr: " fmt

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/cpu.h>
#include <linux/cpufeature.h>
#include <linux/cpuhotplug.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/mm_types.h>
#include <linux/mmap_lock.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/perfctr.h>
#include <linux/processor.h>
#include <linux/smp.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <linux/syscore_ops.h>
#include <linux/topology.h>

#include <asm/cpuid/api.h>
#include <asm/mmu_context.h>
#include <asm/msr.h>
#include <asm/nmi.h>
#include <asm/perf_event.h>
#include <asm/tlbflush.h>
#include <asm/tsc.h>

#include <kunit/static_stub.h>

#include "x86.h"

const char *perfctr_cpu_name = "generic x86 with TSC";
EXPORT_SYMBOL_IF_KUNIT(perfctr_cpu_name);
/* The driver's forbidden CPUs: a hyper-threaded P4's second threads. */
cpumask_t perfctr_cpus_forbidden_mask;
EXPORT_SYMBOL_IF_KUNIT(perfctr_cpus_forbidden_mask);	/* read by the KUnit suites */
static unsigned int perfctr_cpu_type = PERFCTR_X86_GENERIC;
static unsigned int perfctr_cpu_features;

/*
 * The model in use and its family's operations (the generic model's if
 * none).  The TSC part of suspend/resume/sample is common to every model
 * and done here; the models handle the PMCs.
 */
const struct perfctr_x86_model *perfctr_x86_cur_model;
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_cur_model);

/* Pentium 4 control data, which only a P4 model may accept. */
bool perfctr_x86_has_p4_fields(const struct perfctr_cpu_control *cc)
{
	unsigned int i;

	for (i = 0; i < PERFCTR_NRCTRS; i++)
		if (cc->p4.escr[i])
			return true;
	return cc->p4.pebs_enable || cc->p4.pebs_matrix_vert;
}

static int generic_check_control(struct perfctr_cpu_state *state, int is_global)
{
	const struct perfctr_cpu_control *cc = &state->control;

	/* Only the TSC: no PMCs, nothing of the P4. */
	if (cc->nractrs || cc->nrictrs || perfctr_x86_has_p4_fields(cc))
		return -EINVAL;
	return 0;
}

static void generic_suspend_pmcs(struct perfctr_cpu_state *state) { }
static void generic_resume_pmcs(struct perfctr_cpu_state *state) { }
static void generic_write_control(const struct perfctr_cpu_state *state) { }

static const struct perfctr_x86_family_ops perfctr_x86_generic_ops = {
	.check_control	= generic_check_control,
	.suspend_pmcs	= generic_suspend_pmcs,
	.resume_pmcs	= generic_resume_pmcs,
	.write_control	= generic_write_control,
};

static const struct perfctr_x86_family_ops *perfctr_x86_cur_ops = &perfctr_x86_generic_ops;

DEFINE_STATIC_CALL(perfctr_x86_check_control, generic_check_control);
DEFINE_STATIC_CALL(perfctr_x86_suspend_pmcs, generic_suspend_pmcs);
DEFINE_STATIC_CALL(perfctr_x86_resume_pmcs, generic_resume_pmcs);
/* Loads a state's control registers: called by the RDPMC-based resume. */
DEFINE_STATIC_CALL(perfctr_x86_write_control, generic_write_control);

/*
 * Interrupt-mode counters need the overflow interrupt: the P6 family and
 * the P4 with a local APIC and CONFIG_PERFCTR_INTERRUPT_SUPPORT
 * (perfctr_x86_pcint, set with the model).  perfctr_x86_no_lapic lets the
 * KUnit suite play a CPU without a local APIC: static, and so always
 * false, without KUnit.
 */
bool perfctr_x86_pcint;
VISIBLE_IF_KUNIT bool perfctr_x86_no_lapic;
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_no_lapic);

/* Counter width of the P6-family model in use, as a mask; CPUID's at boot. */
VISIBLE_IF_KUNIT u64 perfctr_x86_width_mask = GENMASK_ULL(47, 0);
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_width_mask);

#if IS_ENABLED(CONFIG_PERFCTR_X86_KUNIT_TEST)
/*
 * The hardware accessors with the KUnit suite (else inline in x86.h):
 * redirected to the simulated PMU for the test thread.  Not KUnit's
 * static stubs: their lookup takes a spinlock_t, which the switch path's
 * interrupts-off sections may not take on PREEMPT_RT.
 */
struct perfctr_x86_test_hw perfctr_x86_test_hw;
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_test_hw);

/* The simulated PMU, for the test thread only; else NULL: the hardware. */
static __always_inline const struct perfctr_x86_test_hw *perfctr_x86_sim(void)
{
	return kunit_get_current_test() ? &perfctr_x86_test_hw : NULL;
}

void perfctr_x86_wrmsr(u32 msr, u64 val)
{
	const struct perfctr_x86_test_hw *sim = perfctr_x86_sim();

	if (unlikely(sim && sim->wrmsr)) {
		sim->wrmsr(msr, val);
		return;
	}
	wrmsrq(msr, val);
}

u64 perfctr_x86_rdmsr(u32 msr)
{
	const struct perfctr_x86_test_hw *sim = perfctr_x86_sim();
	u64 val;

	if (unlikely(sim && sim->read_msr))
		return sim->read_msr(msr);
	rdmsrq(msr, val);
	return val;
}

u64 perfctr_x86_rdpmc(u32 map)
{
	const struct perfctr_x86_test_hw *sim = perfctr_x86_sim();

	if (unlikely(sim && sim->read_pmc))
		return sim->read_pmc(map);
	return rdpmc(map);
}
#endif

/*
 * The value to write to an i-mode counter for its start: the start
 * sign-extended from the width it is read with (32 for the P4's fast
 * RDPMC) and cut to the counter's own width (@mask; a fixed counter's
 * is its own, CPUID 0xA EDX[12:5]).
 */
static u64 imode_counter_value(const struct perfctr_pmc_state *pmc, u64 mask)
{
	unsigned int shift = 64 - pmc->width;

	return (u64)((s64)(pmc->start << shift) >> shift) & mask;
}

/* Is @cpu a second (or later) hardware thread of its core? */
bool perfctr_x86_ht_sibling(unsigned int cpu)
{
	KUNIT_STATIC_STUB_REDIRECT(perfctr_x86_ht_sibling, cpu);
#ifdef CONFIG_SMP
	return cpu != cpumask_first(topology_sibling_cpumask(cpu));
#else
	return false;
#endif
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_ht_sibling);

/**
 * perfctr_x86_event_counters - the counters perf lets an event count on
 * @config: the event select without its enable and interrupt bits, the
 *	AMD event select's bits 35:32 from evntsel_high
 * @cpu: a CPU of the PMU (of the core type, on hybrid CPUs) to ask
 * @cntrs: set to the counters that can count it (bit N: general counter
 *	N; bit 32 + N: fixed counter N)
 *
 * perf's per-model constraints, extra registers and errata, asked of
 * perf (x86_perf_event_counters()) rather than copied; the KUnit suite
 * answers in its place.  May sleep.
 *
 * Return: 0; -ENODEV when perf has no x86 PMU (nothing is known);
 * -EOPNOTSUPP for an event that needs more than its counter; -ENOMEM.
 */
int perfctr_x86_event_counters(u64 config, unsigned int cpu, u64 *cntrs)
{
	KUNIT_STATIC_STUB_REDIRECT(perfctr_x86_event_counters, config, cpu, cntrs);
	return x86_perf_event_counters(config, cpu, cntrs);
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_event_counters);

/*
 * Per-CPU cache of the control registers (Implementation Notes): the id
 * of the control last loaded on this CPU and each register's value, so
 * that a resume writes no MSR when nothing changed.
 */
static DEFINE_PER_CPU(struct perfctr_x86_cache, perfctr_x86_cache);

struct perfctr_x86_cache *perfctr_x86_this_cache(void)
{
	return this_cpu_ptr(&perfctr_x86_cache);
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_this_cache);

/*
 * I-mode counters (the P6 family and the P4: "Overflow interrupts" in
 * Documentation/arch/x86/perfctr.rst; p6.c describes them): the MSR to
 * write with a counter's start.
 */
static u32 imode_ctr_msr(const struct perfctr_x86_model *m, unsigned int pmc)
{
	if (pmc >= PERFCTR_X86_PMC_MAP_FIXED)
		return MSR_CORE_PERF_FIXED_CTR0 + pmc - PERFCTR_X86_PMC_MAP_FIXED;
	return (m->ctr_write_msr ?: m->perfctr_msr) + pmc * m->evntsel_stride;
}

/* The counter's bit in the global control and overflow status MSRs. */
static u64 ovf_status_bit(unsigned int pmc)
{
	if (pmc >= PERFCTR_X86_PMC_MAP_FIXED)
		return BIT_ULL(32 + pmc - PERFCTR_X86_PMC_MAP_FIXED);
	return BIT_ULL(pmc);
}

/*
 * Stop a state's i-mode counters (the family's @istop), fold them into
 * the sums, and note the CPU and the state (see p6.c).
 */
void perfctr_x86_imode_suspend(struct perfctr_cpu_state *state, perfctr_x86_istop_t istop)
{
	struct perfctr_x86_cache *cache = perfctr_x86_this_cache();
	unsigned int i, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);

	istop(state, cache);
	for (i = perfctr_cstatus_nractrs(state->cstatus); i < nrctrs; i++)
		perfctr_x86_fold(&state->pmc[i], perfctr_x86_rdpmc(state->pmc[i].map));
	state->k1.isuspend_cpu = smp_processor_id();
	cache->iid = state->k1.id;
}

/*
 * Reload a state's i-mode counters unless this CPU still holds them;
 * @map_mask: the bits of pmc_map[] that address the counter.
 */
void perfctr_x86_imode_resume(struct perfctr_cpu_state *state, perfctr_x86_istop_t istop,
			      u32 map_mask)
{
	const struct perfctr_x86_model *m = perfctr_x86_cur_model;
	struct perfctr_x86_cache *cache = perfctr_x86_this_cache();
	unsigned int i, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);
	bool held = state->k1.isuspend_cpu == smp_processor_id() &&
		    cache->iid == state->k1.id;

	cache->iid = 0;
	if (held)
		return;
	/* No premature events or interrupts: stopped, then loaded. */
	istop(state, cache);
	for (i = perfctr_cstatus_nractrs(state->cstatus); i < nrctrs; i++) {
		u32 map = state->pmc[i].map & map_mask;
		u64 mask = perfctr_x86_width_mask;

		if (m->fixed_width && map >= PERFCTR_X86_PMC_MAP_FIXED)
			mask = GENMASK_ULL(m->fixed_width - 1, 0);
		perfctr_x86_wrmsr(imode_ctr_msr(m, map),
				  imode_counter_value(&state->pmc[i], mask));
	}
}

/*
 * Zero every counter of this CPU (perfctr_x86_claim_ctrs()); the i-mode
 * counters a resume then reloads are no longer held.
 */
static void perfctr_x86_clear_ctrs(struct perfctr_x86_cache *cache)
{
	const struct perfctr_x86_model *m = perfctr_x86_cur_model;
	const struct perfctr_x86_family_ops *ops = perfctr_x86_cur_ops;
	u64 here = ops->ctrs_here ? ops->ctrs_here(m) : GENMASK_ULL(m->nr_ctrs - 1, 0);
	unsigned int i;

	for (i = 0; i < m->nr_ctrs; i++)
		if (here & BIT_ULL(i))
			perfctr_x86_wrmsr(m->perfctr_msr + i * m->evntsel_stride, 0);
	for (i = 0; i < m->nr_fixed; i++)
		if (here & BIT_ULL(32 + i))
			perfctr_x86_wrmsr(MSR_CORE_PERF_FIXED_CTR0 + i, 0);
	cache->iid = 0;
}

/**
 * perfctr_x86_claim_ctrs - zero what another control left in the counters
 * @state: the state about to start counting on this CPU; interrupts off
 *
 * Nothing else zeroes a counter between two states: a-mode counters are
 * read at the resume, not written, so the next owner would find the last
 * one's final values in its start (its mapped page) and by RDPMC of any
 * counter, and the difference between two of its periods would be
 * another user's count.  When this CPU changes to another control than
 * the one whose counts its counters hold, every counter is zeroed first
 * (perf zeroes the counters of the events it deleted for the same
 * reason: perf_clear_dirty_counters()).  Counters that hold nobody's
 * counts (0: as at boot) are left; a CPU whose cache forgot (the PMU was
 * away) is cleared.  Called first in the resume: the i-mode counters are
 * reloaded after it.
 */
void perfctr_x86_claim_ctrs(const struct perfctr_cpu_state *state)
{
	struct perfctr_x86_cache *cache = perfctr_x86_this_cache();

	if (likely(cache->ctrs_id == state->k1.id))
		return;
	if (cache->ctrs_id)
		perfctr_x86_clear_ctrs(cache);
	cache->ctrs_id = state->k1.id;
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_claim_ctrs);

/* Without i-mode counters (the other families). */
static void none_isuspend(struct perfctr_cpu_state *state) { }
static void none_iresume(struct perfctr_cpu_state *state) { }

DEFINE_STATIC_CALL(perfctr_x86_isuspend, none_isuspend);
DEFINE_STATIC_CALL(perfctr_x86_iresume, none_iresume);

/*
 * Every model with RDPMC: fold the a-mode counters' periods into the sums,
 * then the i-mode counters' (stopping them).
 */
void perfctr_x86_rdpmc_suspend_pmcs(struct perfctr_cpu_state *state)
{
	unsigned int i, nrctrs = perfctr_cstatus_nractrs(state->cstatus);

	for (i = 0; i < nrctrs; i++)
		perfctr_x86_fold(&state->pmc[i], perfctr_x86_rdpmc(state->pmc[i].map));
	if (perfctr_cstatus_has_ictrs(state->cstatus))
		static_call(perfctr_x86_isuspend)(state);
}

/*
 * ... and start a period: the i-mode counters' values, the model's control
 * registers, then the a-mode counters' starts.
 */
void perfctr_x86_rdpmc_resume_pmcs(struct perfctr_cpu_state *state)
{
	unsigned int i, nrctrs = perfctr_cstatus_nractrs(state->cstatus);

	perfctr_x86_claim_ctrs(state);
	if (perfctr_cstatus_has_ictrs(state->cstatus))
		static_call(perfctr_x86_iresume)(state);
	static_call(perfctr_x86_write_control)(state);
	for (i = 0; i < nrctrs; i++)
		state->pmc[i].start = perfctr_x86_rdpmc(state->pmc[i].map);
}

static inline u64 perfctr_read_tsc(void)
{
	return rdtsc_ordered();
}

/**
 * perfctr_cpu_update_control - validate a new control and install it
 * @state: state whose @state->control was just set by the caller
 * @is_global: non-zero for global-mode counters (only P4 cares)
 *
 * Must not be called while @state has running i-mode counters.
 *
 * Return: 0, or -EINVAL when the control is invalid for this CPU; then
 * @state is left as it was apart from @state->control.
 */
int perfctr_cpu_update_control(struct perfctr_cpu_state *state, int is_global)
{
	const struct perfctr_x86_model *m;
	const struct perfctr_cpu_control *cc = &state->control;
	unsigned int i;
	int err;

	err = perfctr_cpu_check_common(cc);
	if (err)
		return err;
	/* As pmc_map/evntsel/ireset: nothing beyond the control's counters. */
	for (i = cc->nractrs + cc->nrictrs; i < PERFCTR_NRCTRS; i++)
		if (cc->evntsel_high[i])
			return -EINVAL;
	err = static_call(perfctr_x86_check_control)(state, is_global);
	if (err)
		return err;
	m = perfctr_x86_cur_model;
	perfctr_cpu_init_state(state, perfctr_new_control_id(),
			       m && m->ctr_width ? m->ctr_width : 32);
	for (i = 0; i < cc->nractrs + cc->nrictrs; i++) {
		if (cc->pmc_map[i] & perfctr_x86_cur_ops->fast_rdpmc)
			state->pmc[i].width = 32;	/* fast RDPMC: the low half */
		else if (cc->pmc_map[i] >= PERFCTR_X86_PMC_MAP_FIXED && m->fixed_width)
			state->pmc[i].width = m->fixed_width;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_cpu_update_control);

/**
 * perfctr_cpu_counts_kernel - does a control count events of kernel mode?
 * @state: a state whose control perfctr_cpu_update_control() accepted
 *
 * The privilege bits of each model: the P6 family's OS bit (bit 17) and
 * a fixed counter's OS field, the P5 family's CPL 0-2 bit (0x40), the
 * P4's T0_OS/T1_OS in the ESCR.  The WinChip and the VIA C3 cannot tell
 * privilege levels apart: their counters always count kernel mode too.
 *
 * Return: true if some counter of @state counts in kernel mode.
 */
bool perfctr_cpu_counts_kernel(const struct perfctr_cpu_state *state)
{
	const struct perfctr_x86_family_ops *ops = perfctr_x86_cur_ops;
	const struct perfctr_x86_model *m = perfctr_x86_cur_model;
	const struct perfctr_cpu_control *cc = &state->control;
	unsigned int i, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);

	for (i = 0; i < nrctrs; i++)
		if (!ops->counts_kernel || ops->counts_kernel(m, cc, i))
			return true;
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_cpu_counts_kernel);

/*
 * Taking the PMU costs no interprocessor interrupt: a CPU is prepared for
 * perfctr's counters at the first resume with PMCs there since the
 * reservation (perfctr_x86_take_cpu()), and the release visits only the
 * CPUs so prepared.  A loop that reserves and releases sends nothing to
 * CPUs it never ran on -- nohz_full and isolated CPUs among them.
 */
static const struct perfctr_x86_model *perfctr_reserved_model;
static DEFINE_PER_CPU(bool, perfctr_x86_cpu_taken);
static struct cpumask perfctr_x86_taken;

/*
 * perf_events marks the counters its deleted events used "dirty" and
 * zeroes them when a CPU switches to an mm that may RDPMC
 * (perf_clear_dirty_counters()).  perfctr's threads' mms may RDPMC too:
 * bits perf left set when perfctr took the PMU would zero perfctr's
 * running counters in the middle of a period.  Clear them on each CPU
 * before perfctr's counters first run there; perf schedules no hardware
 * event while perfctr holds the PMU, so none comes back.  Then LVTPC.
 * Interrupts off.
 */
static void perfctr_x86_take_cpu(void)
{
	perf_clear_dirty_counters();
	if (perfctr_x86_pcint)
		perfctr_x86_lvtpc_take_cpu();
	__this_cpu_write(perfctr_x86_cpu_taken, true);
	cpumask_set_cpu(smp_processor_id(), &perfctr_x86_taken);
}

/* A state with programmable counters runs on this CPU: its counts are its own. */
static DEFINE_PER_CPU(bool, perfctr_x86_claimed);

/**
 * perfctr_cpu_suspend - stop counting and fold the period into the sums
 * @state: the running state; interrupts off
 */
void perfctr_cpu_suspend(struct perfctr_cpu_state *state)
{
	if (perfctr_cstatus_nrctrs(state->cstatus)) {
		static_call(perfctr_x86_suspend_pmcs)(state);
		__this_cpu_write(perfctr_x86_claimed, false);
	}
	perfctr_tsc_suspend(state, perfctr_read_tsc);
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_cpu_suspend);

/**
 * perfctr_cpu_unclaim - leave no state's counts in this CPU's counters
 *
 * A suspend stops the counters but leaves their values, for the next
 * resume of the same control to read on.  Whatever runs next without
 * claiming them -- a thread of an mm that may RDPMC with no state, a
 * suspended or overflow-stopped one, perf_events -- must not read
 * them: zero them, as perf zeroes the counters of its own deleted
 * events (perf_clear_dirty_counters()).  Called with interrupts off
 * after a context switch from a thread with a state, and where a running
 * state is detached; nothing to do while a state counts here, or when
 * the counters hold nobody's counts.
 */
void perfctr_cpu_unclaim(void)
{
	struct perfctr_x86_cache *cache;

	if (__this_cpu_read(perfctr_x86_claimed))
		return;
	cache = perfctr_x86_this_cache();
	if (likely(!cache->ctrs_id) || cache->ctrs_id == ~0ULL)
		return;
	perfctr_x86_clear_ctrs(cache);
	cache->ctrs_id = 0;
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_cpu_unclaim);

/**
 * perfctr_cpu_resume - start a counting period
 * @state: the suspended state; interrupts off
 */
void perfctr_cpu_resume(struct perfctr_cpu_state *state)
{
	if (perfctr_cstatus_nrctrs(state->cstatus)) {
		if (unlikely(!__this_cpu_read(perfctr_x86_cpu_taken)) &&
		    READ_ONCE(perfctr_reserved_model))
			perfctr_x86_take_cpu();
		static_call(perfctr_x86_resume_pmcs)(state);
		__this_cpu_write(perfctr_x86_claimed, true);
	}
	perfctr_tsc_resume(state, perfctr_read_tsc);
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_cpu_resume);

/**
 * perfctr_cpu_sample - fold the counts so far into the sums, keep counting
 * @state: the running state; interrupts off
 */
void perfctr_cpu_sample(struct perfctr_cpu_state *state)
{
	if (perfctr_cstatus_nrctrs(state->cstatus)) {
		static_call(perfctr_x86_suspend_pmcs)(state);
		static_call(perfctr_x86_resume_pmcs)(state);
	}
	perfctr_tsc_sample(state, perfctr_read_tsc);
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_cpu_sample);

/**
 * perfctr_cpu_set_ihandler - install the overflow interrupt handler
 * @handler: called in IRQ context from LOCAL_PERFCTR_VECTOR
 *
 * The P6-family models with a local APIC program overflow interrupts
 * (PERFCTR_FEATURE_PCINT); elsewhere only a self-IPI reaches it.
 */
void perfctr_cpu_set_ihandler(perfctr_ihandler_t handler)
{
#ifdef CONFIG_PERFCTR_INTERRUPT_SUPPORT
	perfctr_x86_set_ihandler(handler);
#endif
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_cpu_set_ihandler);

/**
 * perfctr_cpu_identify_overflow - find and re-arm overflown i-mode counters
 * @state: the suspended state
 *
 * An x86 counter overflows when it passes 0, counting up from its
 * negative ireset: an i-mode counter whose value at the suspend is not
 * negative (as 32 bits) has overflowed.  Its start becomes its ireset
 * again (written by the next resume after perfctr_cpu_ireload()), and
 * its overflow status bit, where the model has one, is cleared.
 *
 * Return: bit mask of the overflown counters, bit i for counter i in
 * control order.
 */
unsigned int perfctr_cpu_identify_overflow(struct perfctr_cpu_state *state)
{
	const struct perfctr_x86_model *m = perfctr_x86_cur_model;
	unsigned int i, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);
	unsigned int mask = 0;
	u64 status = 0;

	for (i = perfctr_cstatus_nractrs(state->cstatus); i < nrctrs; i++) {
		if ((s32)state->pmc[i].start < 0)
			continue;
		state->pmc[i].start = state->control.ireset[i];
		mask |= BIT(i);
		status |= ovf_status_bit(state->pmc[i].map);
	}
	if (mask && m && m->ovf_ctrl_msr)	/* the P6 family's */
		perfctr_x86_wrmsr(m->ovf_ctrl_msr, status);
	return mask;
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_cpu_identify_overflow);

/**
 * perfctr_cpu_ireload - force the i-mode counters to be reloaded on resume
 * @state: the suspended state
 */
void perfctr_cpu_ireload(struct perfctr_cpu_state *state)
{
	state->k1.isuspend_cpu = -1;
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_cpu_ireload);

/*
 * Hardware reservation: one high-level service at a time, and never at
 * the same time as perf_events.  With a PMC model the counters are taken
 * from the kernel's PMU allocator (reserve_perfctr_nmi() and
 * reserve_evntsel_nmi()), which perf_events' reserve_pmc_hardware() uses
 * too: whoever comes first holds the PMU, the other gets -EBUSY.
 */
static DEFINE_MUTEX(perfctr_reserve_mutex);
static const char *perfctr_current_service;

#define PERFCTR_PERF_HOLDS \
	"perf_events (hardware events, or the NMI watchdog: see /proc/sys/kernel/nmi_watchdog)"
#define PERFCTR_KVM_HOLDS \
	"KVM (guests with a mediated vPMU: stop them, or load kvm with enable_mediated_pmu=0)"

/* The allocator knows the P6-family and P4 counters (not the P5's). */
static bool perfctr_x86_uses_allocator(const struct perfctr_x86_model *m)
{
	return m->ops->uses_allocator;
}

static void perfctr_x86_give_pmu(const struct perfctr_x86_model *m, unsigned int n)
{
	unsigned int i;

	if (!perfctr_x86_uses_allocator(m))
		return;
	for (i = 0; i < n; i++) {
		release_evntsel_nmi(m->evntsel_msr + i * m->evntsel_stride);
		release_perfctr_nmi(m->perfctr_msr + i * m->evntsel_stride);
	}
}

static bool perfctr_x86_take_pmu(const struct perfctr_x86_model *m)
{
	unsigned int i;

	if (!perfctr_x86_uses_allocator(m))
		return true;
	for (i = 0; i < m->nr_ctrs; i++) {
		if (!reserve_perfctr_nmi(m->perfctr_msr + i * m->evntsel_stride))
			goto fail;
		if (!reserve_evntsel_nmi(m->evntsel_msr + i * m->evntsel_stride)) {
			release_perfctr_nmi(m->perfctr_msr + i * m->evntsel_stride);
			goto fail;
		}
	}
	return true;
fail:
	perfctr_x86_give_pmu(m, i);
	return false;
}

/*
 * Does another user hold the PMU now?  Read from the PMU allocator's
 * ownership bits and KVM's mediated-vPMU count: nothing is taken, so
 * asking never denies the PMU to perf_events, as a trial reservation
 * would for as long as it lasted.  perfctr's own reservation is not
 * "another user": its states share it.
 */
static bool perfctr_x86_pmu_busy(void)
{
	const struct perfctr_x86_model *m = perfctr_x86_cur_model;
	unsigned int i;

	if (!m || READ_ONCE(perfctr_current_service))
		return false;
	if (perf_mediated_pmu_in_use())
		return true;
	if (!perfctr_x86_uses_allocator(m))
		return false;
	/*
	 * Counters and event selects both: perf on a CPU with full-width
	 * counter writes reserves its event selects only (its counters'
	 * IA32_A_PMCx addresses are not the allocator's).
	 */
	for (i = 0; i < m->nr_ctrs; i++)
		if (perfctr_nmi_reserved(m->perfctr_msr + i * m->evntsel_stride) ||
		    evntsel_nmi_reserved(m->evntsel_msr + i * m->evntsel_stride))
			return true;
	return false;
}

/**
 * perfctr_cpu_rdpmc_get - let user space in @mm read the counters
 * @mm: the mm of a thread whose state has programmable counters
 *
 * RDPMC at CPL 3 needs CR4.PCE.  It follows the mm, as for perf_events'
 * mapped events (x86_pmu_event_mapped()): one count in
 * mm->context.perf_rdpmc_allowed per state, which every mm switch reads
 * (switch_mm_irqs_off() calls cr4_update_pce_mm() for the next mm), so
 * the permission is right after a context switch, after exec's
 * exec_mmap() (the exec hook moves the count to the new mm before the
 * program's first instruction), after use_temporary_mm(), and when perf's
 * "rdpmc" sysfs knob re-applies it on every CPU.  The first count is
 * propagated at once to the CPUs running @mm, under mmap_lock as perf
 * does, so that no thread of @mm returns to user space with CR4.PCE
 * still clear.  With the knob at 0 CR4.PCE stays clear and
 * perfctr_info() no longer lists PERFCTR_FEATURE_RDPMC.
 *
 * Return: true if counted (balance with perfctr_cpu_rdpmc_put()); false
 * on a model without RDPMC.
 */
bool perfctr_cpu_rdpmc_get(struct mm_struct *mm)
{
	if (!(perfctr_cpu_features & PERFCTR_FEATURE_RDPMC))
		return false;
	mmap_write_lock(mm);
	if (atomic_inc_return(&mm->context.perf_rdpmc_allowed) == 1)
		on_each_cpu_mask(mm_cpumask(mm), cr4_update_pce, NULL, 1);
	mmap_write_unlock(mm);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_cpu_rdpmc_get);

/**
 * perfctr_cpu_rdpmc_put - drop a count perfctr_cpu_rdpmc_get() took
 * @mm: its mm
 */
void perfctr_cpu_rdpmc_put(struct mm_struct *mm)
{
	if (atomic_dec_and_test(&mm->context.perf_rdpmc_allowed))
		on_each_cpu_mask(mm_cpumask(mm), cr4_update_pce, NULL, 1);
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_cpu_rdpmc_put);

/**
 * perfctr_cpu_reserve - reserve the counters for a high-level service
 * @service: name of the service
 *
 * Return: NULL on success, else the name of what holds them: another
 * service, or perf_events.
 */
const char *perfctr_cpu_reserve(const char *service)
{
	const char *ret = NULL;
	unsigned int cpu;

	mutex_lock(&perfctr_reserve_mutex);
	if (perfctr_current_service) {
		ret = perfctr_current_service;
	} else if (perfctr_x86_cur_model && perf_mediated_pmu_block(service)) {
		/*
		 * A guest's mediated vPMU loads its own counters and LVTPC
		 * at every VM entry: no PMC control is safe while one runs.
		 */
		ret = PERFCTR_KVM_HOLDS;
	} else if (IS_ENABLED(CONFIG_X86_LOCAL_APIC) && perfctr_x86_cur_model &&
		   !perfctr_x86_take_pmu(perfctr_x86_cur_model)) {
		perf_mediated_pmu_unblock();
		ret = PERFCTR_PERF_HOLDS;
	} else {
		/*
		 * perf_events may have programmed the PMU since perfctr last
		 * held it: every cached register value is unknown (all ones
		 * matches no control), so the first resume writes them all.
		 */
		for_each_possible_cpu(cpu)
			memset(per_cpu_ptr(&perfctr_x86_cache, cpu), 0xff,
			       sizeof(struct perfctr_x86_cache));
		perfctr_current_service = service;
		/* Each CPU is taken at its first resume (perfctr_x86_take_cpu()). */
		WRITE_ONCE(perfctr_reserved_model, perfctr_x86_cur_model);
	}
	mutex_unlock(&perfctr_reserve_mutex);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_cpu_reserve);

/*
 * Give back a CPU perfctr's counters ran on: stop what perfctr may have
 * left programmed there (every event select, fixed-counter field, P4
 * CCCR or P5 CESR of the model that this CPU's cache does not know to be
 * stopped), so that perf_events takes a quiet PMU, forget the cache, and
 * give LVTPC back.  The VIA C3's counter cannot be stopped.
 */
static void perfctr_x86_give_cpu(void *info)
{
	const struct perfctr_x86_model *m = info;
	struct perfctr_x86_cache *cache = perfctr_x86_this_cache();

	if (m->ops->quiesce)
		m->ops->quiesce(m, cache);
	/* perf's RDPMC readers find no state's counts in counters not theirs. */
	perfctr_x86_clear_ctrs(cache);
	memset(cache, 0xff, sizeof(*cache));
	perfctr_x86_lvtpc_give_cpu();
	__this_cpu_write(perfctr_x86_cpu_taken, false);
	__this_cpu_write(perfctr_x86_claimed, false);
}

/**
 * perfctr_cpu_release - release the counters reserved by @service
 * @service: the name passed to perfctr_cpu_reserve()
 */
void perfctr_cpu_release(const char *service)
{
	mutex_lock(&perfctr_reserve_mutex);
	if (WARN_ON(perfctr_current_service != service)) {
		pr_err("%s releases counters held by %s\n", service,
		       perfctr_current_service ?: "nobody");
	} else {
		/* Only the CPUs perfctr's counters ran on since the reservation. */
		if (perfctr_reserved_model) {
			cpus_read_lock();
			on_each_cpu_mask(&perfctr_x86_taken, perfctr_x86_give_cpu,
					 (void *)perfctr_reserved_model, 1);
			cpumask_clear(&perfctr_x86_taken);
			cpus_read_unlock();
		}
		if (IS_ENABLED(CONFIG_X86_LOCAL_APIC) && perfctr_reserved_model)
			perfctr_x86_give_pmu(perfctr_reserved_model,
					     perfctr_reserved_model->nr_ctrs);
		if (perfctr_reserved_model)
			perf_mediated_pmu_unblock();
		perfctr_current_service = NULL;
		WRITE_ONCE(perfctr_reserved_model, NULL);
	}
	mutex_unlock(&perfctr_reserve_mutex);
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_cpu_release);

/* Write @msr with @bits flipped and read it back, restoring it: safely. */
bool perfctr_x86_msr_responds(u32 msr, u64 bits)
{
	u64 old, val;

	if (rdmsrq_safe(msr, &old))
		return false;
	if (wrmsrq_safe(msr, old ^ bits) || rdmsrq_safe(msr, &val)) {
		wrmsrq_safe(msr, old);
		return false;
	}
	wrmsrq_safe(msr, old);
	return val == (old ^ bits);
}

/* perf_events probed the P6-family and P4 PMUs at boot (write, read back). */
bool perfctr_x86_perf_pmu_responds(void)
{
	struct x86_pmu_capability cap;

	if (boot_cpu_has(X86_FEATURE_HYBRID_CPU))
		return true;
	perf_get_x86_pmu_capability(&cap);
	return cap.num_counters_gp > 0;
}

/*
 * Does the PMU count?  perf_events probed the P6-family and P4 PMUs at
 * boot, and knows; without perf_events, and for the families it has no
 * driver for (their .pmu_responds), probe a control register the same
 * way with the exception-safe accessors.
 */
bool __init perfctr_x86_pmu_responds(const struct perfctr_x86_model *model)
{
	if (model && model->ops->pmu_responds)
		return model->ops->pmu_responds(model);
	if (IS_ENABLED(CONFIG_PERF_EVENTS))
		return perfctr_x86_perf_pmu_responds();
	if (boot_cpu_data.x86_vendor == X86_VENDOR_AMD ||
	    boot_cpu_data.x86_vendor == X86_VENDOR_HYGON)
		return perfctr_x86_msr_responds(MSR_K7_EVNTSEL0, 0x5a);
	if (boot_cpu_data.x86_vendor == X86_VENDOR_INTEL && boot_cpu_data.x86 >= 6)
		/* An unused event select, disabled: counts nothing. */
		return perfctr_x86_msr_responds(MSR_P6_EVNTSEL0, 0x5a);
	return false;
}

/**
 * perfctr_x86_detect - the model of a CPU, from its CPUID identity
 * @vendor: X86_VENDOR_*
 * @family: CPUID family
 * @model: CPUID model
 * @mmx: the CPU has MMX
 *
 * Only the families of Documentation/arch/x86/perfctr.rst other than the
 * P6 family yet.
 *
 * Return: the model, or NULL for none.
 */
VISIBLE_IF_KUNIT const struct perfctr_x86_model *
perfctr_x86_detect(unsigned int vendor, unsigned int family, unsigned int model, bool mmx)
{
	switch (vendor) {
	case X86_VENDOR_INTEL:
		if (family == 5)
			return mmx ? &perfctr_x86_p5mmx : &perfctr_x86_p5;
		if (family == 15)
			return model <= 1 ? &perfctr_x86_p4 :
			       model == 2 ? &perfctr_x86_p4m2 : &perfctr_x86_p4m3;
		break;
	case X86_VENDOR_CYRIX:
		if (family == 6)	/* 6x86MX, MII, III */
			return &perfctr_x86_mii;
		break;
	case X86_VENDOR_CENTAUR:
		if (family == 5 && model == 4)
			return &perfctr_x86_winchip_c6;
		if (family == 5 && (model == 8 || model == 9))	/* WinChip 2, 3 */
			return &perfctr_x86_winchip_2;
		if (family == 6 && model >= 6 && model <= 9)	/* Cyrix III, C3 */
			return &perfctr_x86_vc3;
		break;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_detect);

/*
 * The boot CPU's model where CPUID describes it rather than picks one of
 * the fixed ones: Intel's architectural perfmon, AMD's PerfMonV2.
 */
static struct perfctr_x86_model perfctr_x86_cpuid_model;

/**
 * perfctr_x86_detect_cpu - the model of a CPU, by its features
 * @c: what CPUID (and IA32_PERF_CAPABILITIES) say of it
 * @buf: where to build a model CPUID describes (see below)
 *
 * perfctr_x86_detect()'s families first (P5, P4, Cyrix, Centaur), then by
 * feature whatever the family: Intel's architectural perfmon (leaf 0xA,
 * any version: family 6, 18, 19 or later alike), else the P6 itself in
 * family 6; AMD's (and Hygon's) core counters (PERFCTR_CORE), as many as
 * CPUID 0x80000022 gives with PerfMonV2 (which also brings the global
 * control: the core counters of perfctr_x86_amd_core, NumPerfCtrCore
 * (EBX[3:0]) of them), else the six of family 15h; else the K7's four,
 * with EventSelect[11:8] from family 10h on.  Where TSX uses PMC3 (a TSX
 * force-abort part with MSR_TSX_FORCE_ABORT clear, as perf_events leaves
 * it while it does not use PMC3) the counter is not offered: it would
 * count TSX's events too, with no error.  The architectural perfmon and
 * PerfMonV2 models are built in @buf.
 *
 * Return: the model, or NULL for none (the generic TSC-only model).
 */
VISIBLE_IF_KUNIT const struct perfctr_x86_model *
perfctr_x86_detect_cpu(const struct perfctr_x86_cpuid *c, struct perfctr_x86_model *buf)
{
	const struct perfctr_x86_model *model;
	struct perfctr_x86_pmu_caps caps;
	union cpuid10_eax eax = { .full = c->eax10 };
	unsigned int nr;

	model = perfctr_x86_detect(c->vendor, c->family, c->model, c->mmx);
	if (model)
		return model;
	switch (c->vendor) {
	case X86_VENDOR_INTEL:
		if (c->arch_perfmon) {
			perfctr_x86_parse_pmu_caps(&caps, c->eax10, c->ecx10, c->edx10,
						   c->ext, c->gp23, c->fixed23);
			if (c->tsx_owns_pmc3)
				caps.gp &= ~BIT(3);
			model = perfctr_x86_arch_model(&caps, eax.split.version_id,
						       c->fw_writes, buf);
			if (model)
				return model;
		}
		return c->family == 6 ? &perfctr_x86_p6 : NULL;
	case X86_VENDOR_AMD:
	case X86_VENDOR_HYGON:
		if (!c->perfctr_core)
			return c->family >= 0x10 ? &perfctr_x86_fam10h :
			       c->family >= 6 ? &perfctr_x86_k7 : NULL;
		if (!c->perfmon_v2)
			return &perfctr_x86_amd_core_v1;
		nr = c->ebx_80000022 & 0xf;	/* NumPerfCtrCore */
		if (!nr)
			return &perfctr_x86_amd_core;
		*buf = perfctr_x86_amd_core;
		buf->nr_ctrs = min(nr, PERFCTR_NRCTRS);
		return buf;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_detect_cpu);

static const struct perfctr_x86_model * __init perfctr_x86_detect_boot_cpu(void)
{
	struct perfctr_x86_cpuid c = {
		.vendor		= boot_cpu_data.x86_vendor,
		.family		= boot_cpu_data.x86,
		.model		= boot_cpu_data.x86_model,
		.mmx		= boot_cpu_has(X86_FEATURE_MMX),
		.arch_perfmon	= boot_cpu_has(X86_FEATURE_ARCH_PERFMON),
		.perfctr_core	= boot_cpu_has(X86_FEATURE_PERFCTR_CORE),
		.perfmon_v2	= boot_cpu_has(X86_FEATURE_PERFMON_V2),
	};
	union cpuid35_eax eax35 = {};
	unsigned int ebx, unused;
	u64 perf_cap;

	if (c.arch_perfmon)
		cpuid(10, &c.eax10, &ebx, &c.ecx10, &c.edx10);
	if (boot_cpu_has(X86_FEATURE_ARCH_PERFMON_EXT))
		cpuid(ARCH_PERFMON_EXT_LEAF, &eax35.full, &unused, &unused, &unused);
	if (eax35.split.cntr_subleaf) {
		c.ext = true;
		cpuid_count(ARCH_PERFMON_EXT_LEAF, ARCH_PERFMON_NUM_COUNTER_LEAF,
			    &c.gp23, &c.fixed23, &unused, &unused);
	}
	c.fw_writes = boot_cpu_has(X86_FEATURE_PDCM) &&
		      !rdmsrq_safe(MSR_IA32_PERF_CAPABILITIES, &perf_cap) &&
		      perf_cap & PERF_CAP_FW_WRITES;
	if (c.perfmon_v2)
		c.ebx_80000022 = cpuid_ebx(0x80000022);
	if (boot_cpu_has(X86_FEATURE_TSX_FORCE_ABORT) &&
	    !boot_cpu_has(X86_FEATURE_RTM_ALWAYS_ABORT)) {
		u64 tfa = 0;

		rdmsrq_safe(MSR_TSX_FORCE_ABORT, &tfa);
		c.tsx_owns_pmc3 = !(tfa & MSR_TFA_RTM_FORCE_ABORT);
		if (c.tsx_owns_pmc3)
			pr_info("TSX uses PMC3 (MSR_TSX_FORCE_ABORT clear): PMC3 not offered\n");
	}
	return perfctr_x86_detect_cpu(&c, &perfctr_x86_cpuid_model);
}

/*
 * Point the static calls (on x86: every call site, patched at run time:
 * the original driver's hand-made backpatching) at a family's code.
 */
static void perfctr_x86_static_call_update(const struct perfctr_x86_family_ops *ops)
{
	static_call_update(perfctr_x86_check_control, ops->check_control);
	static_call_update(perfctr_x86_suspend_pmcs, ops->suspend_pmcs);
	static_call_update(perfctr_x86_resume_pmcs, ops->resume_pmcs);
	static_call_update(perfctr_x86_write_control, ops->write_control);
	static_call_update(perfctr_x86_isuspend, ops->isuspend ?: none_isuspend);
	static_call_update(perfctr_x86_iresume, ops->iresume ?: none_iresume);
}

/* The overflow interrupt (i-mode counters) needs the local APIC. */
static void perfctr_x86_set_pcint(void)
{
	perfctr_x86_pcint = IS_ENABLED(CONFIG_PERFCTR_INTERRUPT_SUPPORT) &&
			    boot_cpu_has(X86_FEATURE_APIC) && !perfctr_x86_no_lapic;
	if (perfctr_x86_pcint)
		perfctr_cpu_features |= PERFCTR_FEATURE_PCINT;
}

/**
 * perfctr_x86_use_model - run @model's operations from now on
 * @model: a model, or NULL for the generic one
 *
 * Installs its family's operations in the static calls (and so, on x86,
 * at every call site), and sets the reported CPU type, features and
 * forbidden CPUs.  May sleep.  Used at init and by the KUnit suite (which
 * restores the model it found after each case); no state may be running
 * counters meanwhile.
 */
VISIBLE_IF_KUNIT void perfctr_x86_use_model(const struct perfctr_x86_model *model)
{
	const struct perfctr_x86_family_ops *ops = model ? model->ops : &perfctr_x86_generic_ops;
	unsigned int cpu;

	perfctr_x86_cur_model = model;
	perfctr_x86_cur_ops = ops;
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&perfctr_x86_cache, cpu), 0,
		       sizeof(struct perfctr_x86_cache));
	cpumask_clear(&perfctr_cpus_forbidden_mask);
	perfctr_x86_pcint = false;
	if (model) {
		perfctr_cpu_name = model->name;
		perfctr_cpu_type = model->cpu_type;
		perfctr_cpu_features = (model->no_tsc ? 0 : PERFCTR_FEATURE_RDTSC) |
				       (model->no_rdpmc ? 0 : PERFCTR_FEATURE_RDPMC);
		if (ops->select)
			ops->select(model);
		/* Families with i-mode counters: their width, the interrupt. */
		if (ops->isuspend) {
			perfctr_x86_width_mask = GENMASK_ULL(model->ctr_width - 1, 0);
			perfctr_x86_set_pcint();
		}
	} else {
		perfctr_cpu_name = "generic x86 with TSC";
		perfctr_cpu_type = PERFCTR_X86_GENERIC;
		perfctr_cpu_features = PERFCTR_FEATURE_RDTSC;
	}
	perfctr_x86_static_call_update(ops);
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_use_model);

#if IS_ENABLED(CONFIG_PERFCTR_X86_KUNIT_TEST)
/**
 * perfctr_x86_get_ops - the functions the static calls now point to
 * @ops: filled in
 *
 * Only for the KUnit suite, to check that the call sites follow the
 * model; not built without it.
 */
void perfctr_x86_get_ops(struct perfctr_x86_ops *ops)
{
	ops->check = static_call_query(perfctr_x86_check_control);
	ops->suspend = static_call_query(perfctr_x86_suspend_pmcs);
	ops->resume = static_call_query(perfctr_x86_resume_pmcs);
	ops->write_control = static_call_query(perfctr_x86_write_control);
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_get_ops);
#endif

/**
 * perfctr_x86_cpu_forget - forget what a CPU's control registers hold
 * @cpu: a CPU coming online, or the boot CPU resuming from sleep
 *
 * Its PMU registers may now hold anything: AMD's amd_pmu_cpu_starting()
 * zeroes the global control at every online, S3 and S4 resume bring the
 * registers back at zero, firmware may leave them programmed.  A cache
 * that still named the control last loaded would spare its rewrite, and
 * the counters would silently count nothing (or the wrong events).  All
 * ones matches no control: the next resume there writes every register.
 * Runs on @cpu before the scheduler sends it tasks, or with interrupts
 * off in the resume.
 *
 * Return: 0.
 */
VISIBLE_IF_KUNIT int perfctr_x86_cpu_forget(unsigned int cpu)
{
	memset(per_cpu_ptr(&perfctr_x86_cache, cpu), 0xff, sizeof(struct perfctr_x86_cache));
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_cpu_forget);

/*
 * A CPU coming online: its cache forgotten, and its local APIC set up
 * anew (LVTPC as perf_events wants it): not taken, until the next resume
 * with PMCs there.  Run on @cpu.
 */
static int perfctr_x86_cpu_online(unsigned int cpu)
{
	perfctr_x86_cpu_forget(cpu);
	perfctr_x86_lvtpc_forget_cpu(cpu);
	per_cpu(perfctr_x86_cpu_taken, cpu) = false;
	cpumask_clear_cpu(cpu, &perfctr_x86_taken);
	return 0;
}

static void perfctr_x86_syscore_resume(void *data)
{
	perfctr_x86_cpu_forget(smp_processor_id());
}

static const struct syscore_ops perfctr_x86_syscore_ops = {
	.resume = perfctr_x86_syscore_resume,
};

static struct syscore perfctr_x86_syscore = {
	.ops = &perfctr_x86_syscore_ops,
};

/**
 * perfctr_cpu_init - detect the CPU and choose its model
 *
 * Return: 0, -ENODEV without a usable TSC, or the error of setting up
 * the CPU hotplug callback.
 */
int __init perfctr_cpu_init(void)
{
	const struct perfctr_x86_model *model;
	int ret;

	if (!boot_cpu_has(X86_FEATURE_TSC))
		return -ENODEV;

	model = perfctr_x86_detect_boot_cpu();
	if (model && boot_cpu_has(X86_FEATURE_HYBRID_CPU)) {
		model = perfctr_x86_hybrid_boot(model);
	} else if (!perfctr_x86_pmu_responds(model)) {
		pr_info("PMU not available (absent or not responding, as in most virtual machines): using the generic TSC-only model%s%s\n",
			model ? " instead of " : "", model ? model->name : "");
		model = NULL;
	} else if (!model) {
		pr_info("no perfctr model for this PMU (vendor %u family %u model %u) yet: using the generic TSC-only model\n",
			boot_cpu_data.x86_vendor, boot_cpu_data.x86,
			boot_cpu_data.x86_model);
	}
	if (model && model->ops->boot)
		model->ops->boot(model);

	perfctr_x86_use_model(model);
	/* CPUs coming online, and the resume from sleep (its LVTPC restored). */
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "x86/perfctr:cache",
					perfctr_x86_cpu_online, NULL);
	if (ret < 0)
		return ret;
	register_syscore(&perfctr_x86_syscore);
	return 0;
}

/**
 * perfctr_cpu_exit - undo perfctr_cpu_init()
 */
void perfctr_cpu_exit(void) { }

/**
 * perfctr_cpu_fill_info - fill the CPU part of struct perfctr_info
 * @info: filled in
 */
void perfctr_cpu_fill_info(struct perfctr_info *info)
{
	info->cpu_type = perfctr_cpu_type;
	info->cpu_features = perfctr_cpu_features;
	/* perf's "rdpmc" sysfs knob at 0: no user RDPMC, for perfctr too. */
	if (static_branch_unlikely(&rdpmc_never_available_key))
		info->cpu_features &= ~PERFCTR_FEATURE_RDPMC;
	info->cpu_khz = tsc_khz ? tsc_khz : cpu_khz;
	/*
	 * 1: the TSC counts the core's cycles -- unless it runs at a constant
	 * rate whatever the core's clock does (CONSTANT_TSC: every CPU since
	 * the Core 2 and the K10), when the ratio is unknown and said so.
	 */
	info->tsc_to_cpu_mult = 1;
	if (boot_cpu_has(X86_FEATURE_CONSTANT_TSC))
		info->cpu_features |= PERFCTR_FEATURE_TSC_CONSTANT;
	if (perfctr_x86_pmu_busy())
		info->cpu_features |= PERFCTR_FEATURE_PMU_BUSY;
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_cpu_fill_info);
