// SPDX-License-Identifier: GPL-2.0
/*
 * perfctr models for 32-bit Book3S: PowerPC 604, 604e/604ev, 750 (740,
 * 750CX/FX/GX), 7400/7410 and 745x (7451/7441, 7455/7445, 7457/7447,
 * 7447A, 7448).
 *
 * 2 (604), 4 (604e, 750, 7400) or 6 (745x) 32-bit counters, PMC1-6.
 * MMCR0 holds the global control bits and the event selectors of PMC1
 * and PMC2; MMCR1 (not on the 604) those of PMC3-6; MMCR2 (74xx only)
 * THRESHMULT.  The selectors come from evntsel[], the rest of MMCR0 from
 * ppc.mmcr0 (so its PMC1SEL/PMC2SEL bits, 0x00001FFF, must be zero).
 *
 * There is no overflow interrupt support on ppc32: PMXE is refused and
 * there are no i-mode counters (the model has no PERFCTR_FEATURE_PCINT).
 *
 * MMCR0[FC] freezes all counting: it is set at every suspend, and a
 * resume writes the thread's MMCR0 last.  MMCR1, MMCR2 (and BAMR, cleared,
 * on 745x) are written only when the CPU last ran another control (the
 * per-CPU control cache).  With FCECE or TRIGGER, a 74xx changes MMCR0
 * by itself (FCECE sets FC on an enabled condition, TRIGGER clears when
 * PMC1 triggers); such a control's MMCR0 is read back at suspend and
 * restored as the hardware left it.  Problem state reads the counters
 * through UPMC1-6 on 750 and 74xx, not on 604/604e.
 */
#include <linux/bits.h>
#include <linux/perfctr.h>
#include <linux/percpu.h>
#include <asm/reg.h>

#include "ppc.h"

#ifndef SPRN_BAMR
#define SPRN_BAMR		951	/* 745x breakpoint address mask */
#endif

#define PPC32_MMCR0_PMCSEL	0x00001fffU	/* PMC1SEL | PMC2SEL */
#define PPC32_MMCR2_THRESHMULT	0x80000000U

/* What a model has beyond PMC1-2 and MMCR0. */
#define PPC32_MMCR1		BIT(0)	/* MMCR1: PMC3SEL.. */
#define PPC32_74XX		BIT(1)	/* MMCR2 (THRESHMULT), async MMCR0 */
#define PPC32_BAMR		BIT(2)	/* 745x: BAMR, cleared */

/* Where each counter's event selector goes: MMCR0 for PMC1-2, else MMCR1. */
static const struct {
	u8 shift;
	u8 mask;
} ppc32_pmcsel[6] = {
	{ 6, 0x7f }, { 0, 0x3f },			/* MMCR0 */
	{ 27, 0x1f }, { 22, 0x1f }, { 17, 0x1f }, { 11, 0x3f },	/* MMCR1 */
};

/* The model's extras (PPC32_*) and counters, set once at probe. */
static unsigned int ppc32_flags __ro_after_init;
static unsigned int ppc32_nr_pmcs __ro_after_init;

/*
 * On ppc32 a state never has i-mode counters, so k1.isuspend_cpu is free:
 * for a 74xx control with FCECE or TRIGGER it holds MMCR0 as the hardware
 * left it at the last suspend, or -1 (a value with PMXE, which a control
 * never has) before the first one.
 */
#define PPC32_NO_MMCR0		-1

static u32 ppc32_read_pmc(unsigned int pmc)
{
	switch (pmc) {
	case 0: return mfspr(SPRN_PMC1);
	case 1: return mfspr(SPRN_PMC2);
	case 2: return mfspr(SPRN_PMC3);
	case 3: return mfspr(SPRN_PMC4);
	case 4: return mfspr(SPRN_PMC5);
	default: return mfspr(SPRN_PMC6);
	}
}

static bool ppc32_mmcr0_quirk(const struct perfctr_cpu_state *state)
{
	return ppc32_flags & PPC32_74XX &&
	       state->control.ppc.mmcr0 & (MMCR0_FCECE | MMCR0_TRIGGER);
}

static int ppc32_check_control(struct perfctr_cpu_state *state)
{
	const struct perfctr_cpu_control *cc = &state->control;
	unsigned int i;
	int err;

	err = perfctr_ppc_check_counters(cc, ppc32_nr_pmcs);
	if (err)
		return err;
	/* No overflow interrupt support: no i-mode counters, no PMXE. */
	if (cc->nrictrs || cc->ppc.mmcr0 & (PPC32_MMCR0_PMCSEL | MMCR0_PMXE))
		return -EINVAL;
	/* MMCR2: THRESHMULT only, 74xx only. */
	if (cc->ppc.mmcr2 & ~PPC32_MMCR2_THRESHMULT ||
	    (cc->ppc.mmcr2 && !(ppc32_flags & PPC32_74XX)))
		return -EINVAL;
	/* ppc64's fields. */
	if (cc->ppc.mmcr1 || cc->ppc.mmcra)
		return -EINVAL;
	for (i = 0; i < cc->nractrs; i++)
		if (cc->evntsel[i] & ~(u32)ppc32_pmcsel[cc->pmc_map[i]].mask)
			return -EINVAL;
	return 0;
}

static void ppc32_freeze(void)
{
	mtspr(SPRN_MMCR0, MMCR0_FC);
	isync();
}

static void ppc32_suspend_pmcs(struct perfctr_cpu_state *state)
{
	u32 mmcr0;

	if (ppc32_mmcr0_quirk(state)) {
		mmcr0 = mfspr(SPRN_MMCR0);
		ppc32_freeze();
		state->k1.isuspend_cpu = (s32)mmcr0;
	} else {
		ppc32_freeze();
	}
	perfctr_ppc_fold(state, ppc32_read_pmc);
}

/* Load MMCR1/MMCR2 (BAMR) for a control, and compute its running MMCR0. */
static void ppc32_load_control(const struct perfctr_cpu_state *state,
			       struct perfctr_ppc_cache *cache)
{
	const struct perfctr_cpu_control *cc = &state->control;
	unsigned int i, pmc, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);
	u32 mmcr0 = cc->ppc.mmcr0, mmcr1 = 0;

	for (i = 0; i < nrctrs; i++) {
		pmc = cc->pmc_map[i];
		if (pmc < 2)
			mmcr0 |= cc->evntsel[i] << ppc32_pmcsel[pmc].shift;
		else
			mmcr1 |= cc->evntsel[i] << ppc32_pmcsel[pmc].shift;
	}
	if (ppc32_flags & PPC32_MMCR1)
		mtspr(SPRN_MMCR1, mmcr1);
	if (ppc32_flags & PPC32_74XX)
		mtspr(SPRN_MMCR2, cc->ppc.mmcr2);
	if (ppc32_flags & PPC32_BAMR)
		mtspr(SPRN_BAMR, 0);
	cache->id = state->k1.id;
	cache->mmcr0 = mmcr0;
}

static void ppc32_resume_pmcs(struct perfctr_cpu_state *state)
{
	struct perfctr_ppc_cache *cache = this_cpu_ptr(&perfctr_ppc_cache);
	unsigned int i, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);
	u32 mmcr0;

	if (cache->id != state->k1.id) {
		ppc32_load_control(state, cache);
		/*
		 * Another control: zero every PMC first, or the new owner
		 * would read the last one's final counts in its start and
		 * through UPMC1-6 (as ppc64_resume_slow()).
		 */
		for (i = 0; i < ppc32_nr_pmcs; i++)
			perfctr_ppc_write_pmc(i, 0);
	}
	for (i = 0; i < nrctrs; i++)
		state->pmc[i].start = ppc32_read_pmc(state->pmc[i].map);
	mmcr0 = cache->mmcr0;
	if (ppc32_mmcr0_quirk(state) && state->k1.isuspend_cpu != PPC32_NO_MMCR0)
		mmcr0 = (u32)state->k1.isuspend_cpu;
	mtspr(SPRN_MMCR0, mmcr0);
}

static void ppc32_sample_pmcs(struct perfctr_cpu_state *state)
{
	perfctr_ppc_fold(state, ppc32_read_pmc);
}

/* Frozen, PMC1 must hold what is written (an absent PMU reads back 0). */
static bool ppc32_responds(void)
{
	u32 mmcr0 = mfspr(SPRN_MMCR0), pmc1 = mfspr(SPRN_PMC1);
	bool ok;

	mtspr(SPRN_MMCR0, mmcr0 | MMCR0_FC);
	mtspr(SPRN_PMC1, 0x5a5a1234);
	ok = mfspr(SPRN_PMC1) == 0x5a5a1234;
	mtspr(SPRN_PMC1, pmc1);
	mtspr(SPRN_MMCR0, mmcr0);
	return ok;
}

#define PPC32_MODEL(_name, _type, _nr, _features) {			\
	.name = _name,							\
	.cpu_type = _type,						\
	.nr_pmcs = _nr,							\
	.features = _features,						\
	.check_control = ppc32_check_control,				\
	.suspend_pmcs = ppc32_suspend_pmcs,				\
	.resume_pmcs = ppc32_resume_pmcs,				\
	.sample_pmcs = ppc32_sample_pmcs,				\
	.freeze = ppc32_freeze,						\
	.responds = ppc32_responds,					\
}

static const struct perfctr_ppc_model ppc32_models[] = {
	PPC32_MODEL("PowerPC 604", PERFCTR_PPC_604, 2, 0),
	PPC32_MODEL("PowerPC 604e", PERFCTR_PPC_604e, 4, 0),
	PPC32_MODEL("PowerPC 750", PERFCTR_PPC_750, 4, PERFCTR_FEATURE_RDPMC),
	PPC32_MODEL("PowerPC 7400", PERFCTR_PPC_7400, 4, PERFCTR_FEATURE_RDPMC),
	PPC32_MODEL("PowerPC 7450", PERFCTR_PPC_7450, 6, PERFCTR_FEATURE_RDPMC),
};

/**
 * perfctr_ppc32_probe - the model for this CPU
 *
 * Chooses by the PVR's version field: 604, 604e/604ev, 750 (740, 750CX,
 * 750FX, 750GX), 7400/7410 and 745x.
 *
 * Return: the matching model, or NULL.
 */
const struct perfctr_ppc_model * __init perfctr_ppc32_probe(void)
{
	const struct perfctr_ppc_model *m;

	switch (PVR_VER(mfspr(SPRN_PVR))) {
	case 0x0004:		/* 604 */
		m = &ppc32_models[0];
		break;
	case 0x0009:		/* 604e */
	case 0x000a:		/* 604ev */
		m = &ppc32_models[1];
		ppc32_flags = PPC32_MMCR1;
		break;
	case 0x0008:		/* 750/740, 750CX/CXe */
	case 0x1008:		/* 750P/740P */
	case 0x7000:		/* 750FX */
	case 0x7002:		/* 750GX */
		m = &ppc32_models[2];
		ppc32_flags = PPC32_MMCR1;
		break;
	case 0x000c:		/* 7400 */
	case 0x800c:		/* 7410 */
		m = &ppc32_models[3];
		ppc32_flags = PPC32_MMCR1 | PPC32_74XX;
		break;
	case 0x8000:		/* 7451/7441 */
	case 0x8001:		/* 7455/7445 */
	case 0x8002:		/* 7457/7447 */
	case 0x8003:		/* 7447A */
	case 0x8004:		/* 7448 */
		m = &ppc32_models[4];
		ppc32_flags = PPC32_MMCR1 | PPC32_74XX | PPC32_BAMR;
		break;
	default:
		return NULL;
	}
	ppc32_nr_pmcs = m->nr_pmcs;
	return m;
}
