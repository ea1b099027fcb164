// SPDX-License-Identifier: GPL-2.0
/*
 * perfctr models for 64-bit Book3S: POWER8, POWER9 and POWER10.
 *
 * Six 32-bit counters: PMC1-4 count the events selected by the PMCnSEL
 * bytes of MMCR1, PMC5 counts completed instructions and PMC6 cycles.  A
 * counter overflows when it turns negative; with PMAE and its condition
 * enable (PMC1CE, PMCjCE) set in MMCR0 that raises the performance monitor
 * interrupt, and FCECE freezes every counter at that moment.
 *
 * PMCjCE enables the condition for all of PMC2-6, so while i-mode
 * counters run, no other counter may turn negative: a-mode counters are
 * then started from 0 at each resume and brought back to 0 by the
 * sampling (losing the few events between its read and its write)
 * before they get there, and the PMCs the control does not use (PMC5
 * and PMC6 count whenever MMCR0 lets them) are zeroed the same way.
 *
 * MMCR0[FC] freezes all counting: it is set at every suspend, and a
 * resume writes the thread's MMCR0 last, so counting starts with the
 * thread's control complete.  MMCR1 (and MMCRA, POWER10's MMCR3: always
 * zero here; MMCR2: the hypervisor-state freezes of a user-only control
 * on bare metal) are written only when the CPU last ran another
 * control.  With
 * MMCR0[PMCC] = 00 problem state may read PMC1-6 (UPMC1-6), which is
 * perfctr's fast read; on ISA v3.1 (POWER10) MMCR0[PMCCEXT] must also be
 * clear, so it is cleared while the owner runs and set again at suspend.
 */
#define pr_fmt(fmt) "perfctr: " fmt

#include <linux/bits.h>
#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/perfctr.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/smp.h>
#include <asm/cputable.h>
#include <asm/pmc.h>
#include <asm/reg.h>

#include "ppc.h"

#define PPC64_NR_PMCS	6

/* The MMCR0 bits a control may set: freeze conditions only. */
#define PPC64_MMCR0_USER	(MMCR0_FCS | MMCR0_FCP | MMCR0_FCM1 | MMCR0_FCM0 | \
				 MMCR0_FC56 | MMCR0_FCWAIT)

/* MMCR0[PMCjCE]: the overflow condition of PMC2-6. */
#define PPC64_MMCR0_PMCXCE	0x00004000UL

/* MMCR0 while nothing of perfctr's counts on this CPU. */
static u64 ppc64_mmcr0_frozen __ro_after_init = MMCR0_FC;

/*
 * MMCR2[FCnH] (ISA 2.07 on): freeze PMCn in hypervisor state, for the
 * six PMCs.  On bare metal (powernv, MSR[HV] = 1) the kernel runs in
 * hypervisor state, where MMCR0[FCS] does not freeze the counters: a
 * control's "user only" (FCS) needs FCnH there too, as perf's
 * exclude_kernel does (isa207_compute_mmcr()).
 */
#define PPC64_MMCR2_FCH(pmc)	(1ULL << (57 - ((pmc) - 1) * 9))
#define PPC64_MMCR2_FCH_ALL	(PPC64_MMCR2_FCH(1) | PPC64_MMCR2_FCH(2) | \
				 PPC64_MMCR2_FCH(3) | PPC64_MMCR2_FCH(4) | \
				 PPC64_MMCR2_FCH(5) | PPC64_MMCR2_FCH(6))
static bool ppc64_hv __ro_after_init;

/*
 * MMCR1's high word (ISA 2.07 on): a 4-bit PMCxUNIT for each of PMC1-4,
 * their combine bits (ISA 3.0 on: two per PMC), the L1 cache qualifiers
 * and, ISA 3.1, the radix scope qualifier.  The FAB match field is for
 * marked events (MMCRA's sampling, which a control cannot set) and the
 * rest is reserved.  Units 6-9 select L2/L3 events, which count for
 * every thread of the core (of the fused core pair on POWER9) and not
 * the thread's own: like x86's AnyThread, another user's events.
 */
#define PPC64_MMCR1_UNIT_SHIFT(pmc)	(60 - 4 * (pmc))
#define PPC64_MMCR1_UNIT(pmc)		(0xfULL << PPC64_MMCR1_UNIT_SHIFT(pmc))
#define PPC64_MMCR1_COMBINE_207(pmc)	BIT_ULL(35 - (pmc))
#define PPC64_MMCR1_COMBINE_300(pmc)	(3ULL << (38 - 2 * (pmc)))
#define PPC64_MMCR1_DC_IC_QUAL		(3ULL << 46)
#define PPC64_MMCR1_RADIX_SCOPE_31	BIT_ULL(45)

/* The ISA level of the CPU: 3.0 (POWER9) and 3.1 (POWER10) on. */
static bool ppc64_isa300 __ro_after_init, ppc64_isa31 __ro_after_init;

/* MMCR1's high word for the PMC1-4 in @used (bit N: PMC N+1). */
static int ppc64_check_mmcr1(u64 mmcr1, unsigned int used)
{
	u64 allowed = PPC64_MMCR1_DC_IC_QUAL;
	unsigned int pmc, unit;

	if (ppc64_isa31)
		allowed |= PPC64_MMCR1_RADIX_SCOPE_31;
	for (pmc = 0; pmc < 4; pmc++) {
		if (!(used & BIT(pmc)))
			continue;
		unit = (mmcr1 >> PPC64_MMCR1_UNIT_SHIFT(pmc)) & 0xf;
		if (unit >= 6 && unit <= 9)
			return -EINVAL;
		allowed |= PPC64_MMCR1_UNIT(pmc) | (ppc64_isa300 ? PPC64_MMCR1_COMBINE_300(pmc) :
						    PPC64_MMCR1_COMBINE_207(pmc));
	}
	return mmcr1 & ~allowed ? -EINVAL : 0;
}

static u32 ppc64_read_pmc(unsigned int pmc)
{
	switch (pmc) {
	case 0:
		return mfspr(SPRN_PMC1);
	case 1:
		return mfspr(SPRN_PMC2);
	case 2:
		return mfspr(SPRN_PMC3);
	case 3:
		return mfspr(SPRN_PMC4);
	case 4:
		return mfspr(SPRN_PMC5);
	default:
		return mfspr(SPRN_PMC6);
	}
}

/*
 * Valid: the control's PMCnSEL bytes, MMCR1's low word (the control's own
 * mmcr1 has only the high word), go to k1.drv, so that a switch between
 * two controls loads MMCR1 without recomputing it.
 */
static int ppc64_check_control(struct perfctr_cpu_state *state)
{
	const struct perfctr_cpu_control *cc = &state->control;
	unsigned int i, used = 0, nrctrs = cc->nractrs + cc->nrictrs;
	u32 pmcsel = 0;
	int err;

	err = perfctr_ppc_check_counters(cc, PPC64_NR_PMCS);
	if (err)
		return err;
	/* Freeze conditions only; MMCR1's PMCnSEL bytes come from evntsel[]. */
	if (cc->ppc.mmcr0 & ~PPC64_MMCR0_USER || cc->ppc.mmcr2 || cc->ppc.mmcra ||
	    (u32)cc->ppc.mmcr1)
		return -EINVAL;
	for (i = 0; i < nrctrs; i++) {
		/* PMC1-4: an 8-bit PMCnSEL; PMC5 and PMC6 count fixed events. */
		if (cc->pmc_map[i] < 4 ? cc->evntsel[i] > 0xff : cc->evntsel[i])
			return -EINVAL;
		if (cc->pmc_map[i] < 4) {
			pmcsel |= cc->evntsel[i] << (24 - 8 * cc->pmc_map[i]);
			used |= BIT(cc->pmc_map[i]);
		}
	}
	err = ppc64_check_mmcr1(cc->ppc.mmcr1, used);
	if (err)
		return err;
	state->k1.drv = pmcsel;
	return 0;
}

static void ppc64_freeze(void)
{
	mtspr(SPRN_MMCR0, ppc64_mmcr0_frozen);
	isync();
}

static void ppc64_suspend_pmcs(struct perfctr_cpu_state *state)
{
	ppc64_freeze();
	perfctr_ppc_fold(state, ppc64_read_pmc);
	if (perfctr_cstatus_has_ictrs(state->cstatus)) {
		/* The PMCs hold this state's i-mode counts until others run. */
		state->k1.isuspend_cpu = smp_processor_id();
		__this_cpu_write(perfctr_ppc_cache.iid, state->k1.id);
	}
}

/* Load MMCR1 and MMCR2 where they differ from the CPU's cache. */
static noinline void ppc64_load_mmcrs(struct perfctr_ppc_cache *cache, u64 mmcr1, u64 mmcr2)
{
	/* Once per reservation: then only what differs from the CPU's cache. */
	if (!cache->loaded) {
		ppc_enable_pmcs();
		mtspr(SPRN_MMCRA, 0);
		mtspr(SPRN_MMCR2, mmcr2);
		/*
		 * ISA v3.1 (POWER10): MMCR3 extends PMC1-4's event selects;
		 * what perf_events left there would change the events.
		 */
		if (cpu_has_feature(CPU_FTR_ARCH_31))
			mtspr(SPRN_MMCR3, 0);
		cache->mmcr2 = mmcr2;
		cache->loaded = true;
	}
	if (cache->mmcr2 != mmcr2) {
		mtspr(SPRN_MMCR2, mmcr2);
		cache->mmcr2 = mmcr2;
	}
	mtspr(SPRN_MMCR1, mmcr1);
	cache->mmcr1 = mmcr1;
}

/* MMCR0's overflow enables for a control's i-mode counters. */
static noinline u64 ppc64_imode_mmcr0(const struct perfctr_cpu_state *state)
{
	const struct perfctr_cpu_control *cc = &state->control;
	unsigned int i, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);
	u64 mmcr0 = MMCR0_PMXE | MMCR0_FCECE;

	for (i = cc->nractrs; i < nrctrs; i++)
		mmcr0 |= cc->pmc_map[i] == 0 ? MMCR0_PMC1CE : PPC64_MMCR0_PMCXCE;
	return mmcr0;
}

/* The MMCR1 and MMCR2 a control runs with. */
static inline u64 ppc64_mmcr1(const struct perfctr_cpu_state *state)
{
	return state->control.ppc.mmcr1 | state->k1.drv;
}

static inline u64 ppc64_mmcr2(const struct perfctr_cpu_state *state)
{
	return ppc64_hv && (state->control.ppc.mmcr0 & MMCR0_FCS) ? PPC64_MMCR2_FCH_ALL : 0;
}

/* Load MMCR1/MMCRA/MMCR2 for a control, and compute its running MMCR0. */
static void ppc64_load_control(const struct perfctr_cpu_state *state,
			       struct perfctr_ppc_cache *cache)
{
	u64 mmcr0 = state->control.ppc.mmcr0;
	u64 mmcr1 = ppc64_mmcr1(state), mmcr2 = ppc64_mmcr2(state);

	if (perfctr_cstatus_has_ictrs(state->cstatus))
		mmcr0 |= ppc64_imode_mmcr0(state);
	if (!cache->loaded || cache->mmcr1 != mmcr1 || cache->mmcr2 != mmcr2)
		ppc64_load_mmcrs(cache, mmcr1, mmcr2);
	cache->id = state->k1.id;
	cache->mmcr0 = mmcr0;
}

/* With i-mode counters: the PMCs of PMCjCE's group the control leaves unused. */
static unsigned int ppc64_idle_pmcs(const struct perfctr_cpu_state *state)
{
	unsigned int i, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);
	unsigned int used = 0;

	if (!perfctr_cstatus_has_ictrs(state->cstatus))
		return 0;
	for (i = 0; i < nrctrs; i++)
		used |= BIT(state->pmc[i].map);
	return GENMASK(PPC64_NR_PMCS - 1, 1) & ~used;
}

/* Start a-mode counters from where their PMCs stand, then counting. */
static __always_inline void ppc64_resume_actrs(struct perfctr_cpu_state *state,
					       struct perfctr_ppc_cache *cache)
{
	unsigned int i, nractrs = perfctr_cstatus_nractrs(state->cstatus);

	cache->iid = 0;
	for (i = 0; i < nractrs; i++)
		state->pmc[i].start = ppc64_read_pmc(state->pmc[i].map);
	mtspr(SPRN_MMCR0, cache->mmcr0);
}

/*
 * A resume that is not a-mode counters on the CPU's MMCR1 and MMCR2: a
 * control to load, or i-mode counters.  Out of line and reached by a
 * tail call, so that the common resume needs no stack frame.
 */
static noinline void ppc64_resume_slow(struct perfctr_cpu_state *state,
				       struct perfctr_ppc_cache *cache)
{
	unsigned int i, nractrs = perfctr_cstatus_nractrs(state->cstatus);
	unsigned int nrctrs = perfctr_cstatus_nrctrs(state->cstatus);
	unsigned int idle;

	if (cache->id != state->k1.id) {
		/*
		 * Another control than the one whose counts the PMCs hold:
		 * zero all six first, or the new owner would see the last
		 * one's final values in its start (its mapped page) and by
		 * reading any PMC -- another user's counts.  perf zeroes
		 * the counters of deleted events for the same reason
		 * (perf_clear_dirty_counters()).  i-mode counters are then
		 * reloaded below.
		 */
		ppc64_load_control(state, cache);
		for (i = 0; i < PPC64_NR_PMCS; i++)
			perfctr_ppc_write_pmc(i, 0);
		cache->iid = 0;
	}
	if (!perfctr_cstatus_has_ictrs(state->cstatus)) {
		ppc64_resume_actrs(state, cache);
		return;
	}
	/*
	 * i-mode counts still in this CPU's PMCs need no reload -- except
	 * on bare metal, where the CPU may have idled in a deep stop state
	 * since the suspend: those lose PMC1-6 (power9_idle_stop() restores
	 * the MMCRs, not the PMCs), and the counters would resume on
	 * whatever the wakeup left.  A guest's PMCs are its hypervisor's to
	 * keep.
	 */
	if (ppc64_hv || state->k1.isuspend_cpu != smp_processor_id() ||
	    cache->iid != state->k1.id)
		for (i = nractrs; i < nrctrs; i++)
			perfctr_ppc_write_pmc(state->pmc[i].map, state->pmc[i].start);
	cache->iid = 0;
	/* Far from negative: see the top of this file. */
	for (i = 0; i < nractrs; i++) {
		perfctr_ppc_write_pmc(state->pmc[i].map, 0);
		state->pmc[i].start = 0;
	}
	idle = ppc64_idle_pmcs(state);
	for (i = 0; i < PPC64_NR_PMCS; i++)
		if (idle & BIT(i))
			perfctr_ppc_write_pmc(i, 0);
	mtspr(SPRN_MMCR0, cache->mmcr0);
}

/*
 * Another control's a-mode counters on the CPU's MMCR1 and MMCR2: the
 * PMCs hold the last control's counts, which its owner must not see
 * (ppc64_resume_slow()): all six zeroed, the counters started from 0.
 */
static __always_inline void ppc64_resume_zeroed(struct perfctr_cpu_state *state,
						struct perfctr_ppc_cache *cache)
{
	unsigned int i, nractrs = perfctr_cstatus_nractrs(state->cstatus);

	cache->iid = 0;
	mtspr(SPRN_PMC1, 0);
	mtspr(SPRN_PMC2, 0);
	mtspr(SPRN_PMC3, 0);
	mtspr(SPRN_PMC4, 0);
	mtspr(SPRN_PMC5, 0);
	mtspr(SPRN_PMC6, 0);
	for (i = 0; i < nractrs; i++)
		state->pmc[i].start = 0;
	mtspr(SPRN_MMCR0, cache->mmcr0);
}

/*
 * The common resume: a-mode counters only, and the CPU's MMCR1 and MMCR2
 * already those of the control (the CPU last ran it, or another control
 * of the same events, such as another thread's of the same program,
 * whose counts are zeroed first).
 */
static void ppc64_resume_pmcs(struct perfctr_cpu_state *state)
{
	struct perfctr_ppc_cache *cache = this_cpu_ptr(&perfctr_ppc_cache);

	if (perfctr_cstatus_has_ictrs(state->cstatus))
		goto slow;
	if (cache->id != state->k1.id) {
		if (!cache->loaded || cache->mmcr1 != ppc64_mmcr1(state) ||
		    cache->mmcr2 != ppc64_mmcr2(state))
			goto slow;
		cache->id = state->k1.id;
		cache->mmcr0 = state->control.ppc.mmcr0;
		ppc64_resume_zeroed(state, cache);
		return;
	}
	ppc64_resume_actrs(state, cache);
	return;
slow:
	ppc64_resume_slow(state, cache);
}

static void ppc64_sample_pmcs(struct perfctr_cpu_state *state)
{
	unsigned int i, nractrs = perfctr_cstatus_nractrs(state->cstatus);
	unsigned int idle;

	perfctr_ppc_fold(state, ppc64_read_pmc);
	if (!perfctr_cstatus_has_ictrs(state->cstatus))
		return;
	/* Beside i-mode counters, an a-mode one halfway to negative restarts. */
	for (i = 0; i < nractrs; i++) {
		if (state->pmc[i].start >= 0x40000000U) {
			perfctr_ppc_write_pmc(state->pmc[i].map, 0);
			state->pmc[i].start = 0;
		}
	}
	idle = ppc64_idle_pmcs(state);
	for (i = 0; i < PPC64_NR_PMCS; i++)
		if (idle & BIT(i) && ppc64_read_pmc(i) >= 0x40000000U)
			perfctr_ppc_write_pmc(i, 0);
}

/*
 * perfctr_cpu_suspend() and perfctr_cpu_resume() of a 64-bit Book3S
 * kernel, whose only models are these (ppc.c has the others'): the PMC
 * work inlines into them, with no indirect call (powerpc64 has no static
 * calls of its own: a static call is an indirect one there).  A state has
 * counters only where a model was chosen.
 */

/**
 * perfctr_cpu_suspend - stop counting and fold the period into the sums
 * @state: the running state; interrupts off
 */
void perfctr_cpu_suspend(struct perfctr_cpu_state *state)
{
	perfctr_tsc_suspend(state, perfctr_read_tb);
	if (perfctr_cstatus_nrctrs(state->cstatus))
		ppc64_suspend_pmcs(state);
}

/**
 * perfctr_cpu_resume - start a counting period
 * @state: the suspended state; interrupts off
 */
void perfctr_cpu_resume(struct perfctr_cpu_state *state)
{
	perfctr_tsc_resume(state, perfctr_read_tb);
	if (perfctr_cstatus_nrctrs(state->cstatus))
		ppc64_resume_pmcs(state);
}

/* Frozen, PMC1 must hold what is written (an absent PMU reads back 0). */
static bool ppc64_responds(void)
{
	unsigned long mmcr0 = mfspr(SPRN_MMCR0), pmc1 = mfspr(SPRN_PMC1);
	bool ok;

	mtspr(SPRN_MMCR0, mmcr0 | MMCR0_FC);
	mtspr(SPRN_PMC1, 0x5a5a1234);
	ok = mfspr(SPRN_PMC1) == 0x5a5a1234;
	mtspr(SPRN_PMC1, pmc1);
	mtspr(SPRN_MMCR0, mmcr0);
	return ok;
}

#define PPC64_MODEL(_name, _type) {					\
	.name = _name,							\
	.cpu_type = _type,						\
	.nr_pmcs = PPC64_NR_PMCS,					\
	.features = PERFCTR_FEATURE_RDPMC |				\
		(IS_ENABLED(CONFIG_PERFCTR_INTERRUPT_SUPPORT) ? PERFCTR_FEATURE_PCINT : 0), \
	.check_control = ppc64_check_control,				\
	.suspend_pmcs = ppc64_suspend_pmcs,				\
	.resume_pmcs = ppc64_resume_pmcs,				\
	.sample_pmcs = ppc64_sample_pmcs,				\
	.freeze = ppc64_freeze,						\
	.responds = ppc64_responds,					\
}

static const struct perfctr_ppc_model ppc64_models[] = {
	PPC64_MODEL("POWER8", PERFCTR_PPC64_POWER8),
	PPC64_MODEL("POWER9", PERFCTR_PPC64_POWER9),
	PPC64_MODEL("POWER10", PERFCTR_PPC64_POWER10),
};

#ifdef CONFIG_PERFCTR_DEBUG_IDLE_LOSS
/*
 * Fault injection (debugfs perfctr-ppc64/idle_loss): every idle entry
 * zeroes PMC1-6, as a deep stop state of a bare-metal POWER9 loses them,
 * so that the selftests can check that no state resumes on lost values
 * under an emulator whose idle loses nothing.
 */
static bool ppc64_idle_loss;

void arch_cpu_idle_enter(void)
{
	unsigned int i;

	if (!READ_ONCE(ppc64_idle_loss))
		return;
	for (i = 0; i < PPC64_NR_PMCS; i++)
		perfctr_ppc_write_pmc(i, 0);
}

static int __init ppc64_idle_loss_init(void)
{
	debugfs_create_bool("idle_loss", 0600, debugfs_create_dir("perfctr-ppc64", NULL),
			    &ppc64_idle_loss);
	return 0;
}
late_initcall(ppc64_idle_loss_init);
#endif

/**
 * perfctr_ppc64_probe - the model for this CPU
 *
 * Return: the POWER8/9/10 model matching the PVR, or NULL.
 */
const struct perfctr_ppc_model * __init perfctr_ppc64_probe(void)
{
	ppc64_hv = cpu_has_feature(CPU_FTR_HVMODE);
	ppc64_isa300 = cpu_has_feature(CPU_FTR_ARCH_300);
	ppc64_isa31 = cpu_has_feature(CPU_FTR_ARCH_31);
	if (ppc64_hv)
		pr_info("hypervisor state (bare metal): user-only controls also freeze MMCR2[FCnH]\n");
	if (pvr_version_is(PVR_POWER8) || pvr_version_is(PVR_POWER8E) ||
	    pvr_version_is(PVR_POWER8NVL))
		return &ppc64_models[0];
	if (pvr_version_is(PVR_POWER9))
		return &ppc64_models[1];
	if (pvr_version_is(PVR_POWER10)) {
		/* The kernel sets PMCCEXT to keep problem state out. */
		ppc64_mmcr0_frozen = MMCR0_FC | MMCR0_PMCCEXT;
		return &ppc64_models[2];
	}
	return NULL;
}
