// SPDX-License-Identifier: GPL-2.0
/*
 * perfctr x86 driver: Intel Pentium 4 (NetBurst): 18 counters with their
 * CCCRs and ESCRs, replay tagging.
 */
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/perfctr.h>
#include <linux/topology.h>

#include <asm/msr.h>

#include "x86.h"

/*
 * Pentium 4: 18 counters, each with a CCCR (evntsel[i]) and an ESCR chosen
 * by the CCCR's ESCR_SELECT (p4.escr[i]).  The PMU allocator arbitrates
 * the counters (0x300..) as perf_events' P4 driver does.
 */
#define P4_PERFCTR0_MSR		0x300
#define P4_CCCR0_MSR		0x360

const struct perfctr_x86_model perfctr_x86_p4 = {
	.name		= "Intel P4",
	.cpu_type	= PERFCTR_X86_INTEL_P4,
	.ops		= &perfctr_x86_p4_ops,
	.nr_ctrs	= 18,
	.evntsel_msr	= P4_CCCR0_MSR,
	.perfctr_msr	= P4_PERFCTR0_MSR,
	.evntsel_stride	= 1,
	.p4_iq_escr	= true,
	.ctr_width	= 40,
};
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_p4);

const struct perfctr_x86_model perfctr_x86_p4m2 = {
	.name		= "Intel P4 model 2",
	.cpu_type	= PERFCTR_X86_INTEL_P4M2,
	.ops		= &perfctr_x86_p4_ops,
	.nr_ctrs	= 18,
	.evntsel_msr	= P4_CCCR0_MSR,
	.perfctr_msr	= P4_PERFCTR0_MSR,
	.evntsel_stride	= 1,
	.p4_ext_cascade	= true,
	.p4_iq_escr	= true,
	.ctr_width	= 40,
};
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_p4m2);

const struct perfctr_x86_model perfctr_x86_p4m3 = {
	.name		= "Intel P4 model 3+",
	.cpu_type	= PERFCTR_X86_INTEL_P4M3,
	.ops		= &perfctr_x86_p4_ops,
	.nr_ctrs	= 18,
	.evntsel_msr	= P4_CCCR0_MSR,
	.perfctr_msr	= P4_PERFCTR0_MSR,
	.evntsel_stride	= 1,
	.p4_ext_cascade	= true,
	.ctr_width	= 40,
};
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_p4m3);

/*
 * Pentium 4 (Documentation/arch/x86/perfctr.rst).  pmc_map[i] is what
 * RDPMC takes: the counter number, with bit 31 (fast RDPMC) allowed.
 */
#define P4_FAST_RDPMC		BIT(31)
#define P4_CCCR_OVF		BIT(31)
#define P4_CCCR_CASCADE		BIT(30)
#define P4_CCCR_OVF_PMI_T1	BIT(27)
#define P4_CCCR_OVF_PMI_T0	BIT(26)
#define P4_CCCR_FORCE_OVF	BIT(25)
#define P4_CCCR_ACTIVE_THREAD	(BIT(17) | BIT(16))
#define P4_CCCR_ESCR_SELECT(x)	(((x) >> 13) & 7)
#define P4_CCCR_ENABLE		BIT(12)
#define P4_CCCR_EXT_CASCADE	BIT(11)
/* OVF, OVF_PMI_T1 and the hardware-reserved bits. */
#define P4_CCCR_RESERVED	0xb80007ffU
/*
 * The ESCR's top bit (perfctr 2.7's "bit 32", counting from 1: an ESCR value
 * here has 32 bits) and the other thread's CPL field.
 */
#define P4_ESCR_RESERVED	BIT(31)
#define P4_ESCR_CPL_T1		(BIT(1) | BIT(0))
#define P4_ESCR_OS		(BIT(3) | BIT(1))	/* T0_OS, T1_OS */
/* Replay tagging: UOP_TAG and the tag bits, nothing of PEBS proper. */
#define P4_PE_UOP_TAG		BIT(24)
#define P4_PE_REPLAY_TAG_BITS	0x00000607U
#define P4_PMV_REPLAY_TAG_BITS	0x00000003U

/*
 * Table 15-4 of the IA-32 manual maps (counter, ESCR_SELECT) to an ESCR in
 * a regular way: counters 16 and 17 map like 13 and 14, the counters come
 * in pairs with one map, and the second pair of each two has the first's
 * map + 1 (except that pair 7 lacks select 3).  So four rows of 0x3?? MSR
 * offsets suffice, as in the original driver; 0 is "no such ESCR".
 */
static const u8 p4_escr_rows[4][8] = {
	{ [7] = 0xa0, [6] = 0xa2, [2] = 0xaa, [4] = 0xac,	/* 0-3 */
	  [0] = 0xb2, [1] = 0xb4, [3] = 0xb6, [5] = 0xc8 },
	{ [0] = 0xc0, [2] = 0xc2, [1] = 0xc4 },			/* 4-7 */
	{ [1] = 0xa4, [0] = 0xa6, [5] = 0xa8, [2] = 0xae,	/* 8-11 */
	  [3] = 0xb0 },
	{ [4] = 0xb8, [5] = 0xcc, [6] = 0xe0, [0] = 0xba,	/* 12-17 */
	  [2] = 0xbc, [3] = 0xbe, [1] = 0xca },
};

static unsigned int p4_escr_compute(unsigned int pmc, unsigned int select)
{
	unsigned int pair, offset;

	if (pmc >= 18)
		return 0;
	if (pmc >= 16)
		pmc -= 3;
	pair = pmc / 2;
	offset = p4_escr_rows[pair / 2][select];
	if (!offset || (pair == 7 && select == 3))
		return 0;
	return 0x300 + offset + (pair & 1);
}

/* The full 18x8 map, computed once when a P4 model is chosen. */
static u16 p4_escr_map[18][8];

static void p4_escr_map_init(void)
{
	unsigned int pmc, select;

	for (pmc = 0; pmc < 18; pmc++)
		for (select = 0; select < 8; select++)
			p4_escr_map[pmc][select] = p4_escr_compute(pmc, select);
}

/**
 * perfctr_x86_p4_escr_msr - the ESCR a P4 counter uses
 * @pmc: counter number (0-17)
 * @cccr: its CCCR value (only ESCR_SELECT matters)
 *
 * Return: the ESCR's MSR number, or 0 if the counter has no such ESCR.
 */
VISIBLE_IF_KUNIT unsigned int perfctr_x86_p4_escr_msr(unsigned int pmc, u32 cccr)
{
	return pmc < 18 ? p4_escr_map[pmc][P4_CCCR_ESCR_SELECT(cccr)] : 0;
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_p4_escr_msr);

/*
 * Hyper-threaded P4: both threads share the counters.  Set at boot; the
 * KUnit suite plays both kinds of P4 with it.
 */
VISIBLE_IF_KUNIT bool perfctr_x86_p4_ht;
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_p4_ht);

static int p4_check_counter(const struct perfctr_x86_model *m,
			    const struct perfctr_cpu_control *cc, unsigned int i,
			    int is_global, unsigned int pmc)
{
	u32 cccr = cc->evntsel[i], escr = cc->p4.escr[i];
	unsigned int escr_msr;

	if (cccr & P4_CCCR_RESERVED || cc->evntsel_high[i])
		return -EINVAL;
	if (cccr & P4_CCCR_EXT_CASCADE &&
	    (!m->p4_ext_cascade || !(pmc == 12 || pmc >= 15)))
		return -EINVAL;
	if (!perfctr_x86_p4_ht && (cccr & P4_CCCR_ACTIVE_THREAD) != P4_CCCR_ACTIVE_THREAD)
		return -EINVAL;
	if (!(cccr & (P4_CCCR_ENABLE | P4_CCCR_CASCADE | P4_CCCR_EXT_CASCADE)))
		return -EINVAL;
	if (i < cc->nractrs) {
		if (cccr & P4_CCCR_OVF_PMI_T0)
			return -EINVAL;
	} else {
		if (!(cccr & P4_CCCR_OVF_PMI_T0) || cc->ireset[i] >= 0)
			return -EINVAL;
		if (cccr & P4_CCCR_FORCE_OVF && cc->ireset[i] != -1)
			return -EINVAL;
	}
	escr_msr = perfctr_x86_p4_escr_msr(pmc, cccr);
	if (!escr_msr)
		return -EINVAL;
	if (!m->p4_iq_escr && (escr_msr == MSR_P4_IQ_ESCR0 || escr_msr == MSR_P4_IQ_ESCR1))
		return -EINVAL;
	if (escr & P4_ESCR_RESERVED)
		return -EINVAL;
	if (escr & P4_ESCR_CPL_T1 && !(perfctr_x86_p4_ht && is_global))
		return -EINVAL;
	return 0;
}

static int p4_check_control(struct perfctr_cpu_state *state, int is_global)
{
	const struct perfctr_x86_model *m = perfctr_x86_cur_model;
	const struct perfctr_cpu_control *cc = &state->control;
	unsigned int i, pmc, nrctrs = cc->nractrs + cc->nrictrs;
	u32 pe = cc->p4.pebs_enable, pmv = cc->p4.pebs_matrix_vert;
	u32 mask = 0;
	int err;

	if (nrctrs > m->nr_ctrs)
		return -EINVAL;
	for (i = 0; i < nrctrs; i++) {
		pmc = cc->pmc_map[i] & ~P4_FAST_RDPMC;
		if (pmc >= m->nr_ctrs || mask & BIT(pmc))
			return -EINVAL;
		mask |= BIT(pmc);
		err = p4_check_counter(m, cc, i, is_global, pmc);
		if (err)
			return err;
	}
	for (; i < PERFCTR_NRCTRS; i++)		/* no ESCR for unused counters */
		if (cc->p4.escr[i])
			return -EINVAL;
	/* Replay tagging; PEBS itself (ENABLE_PEBS_MY_THR, bit 25) is not. */
	if (pe) {
		if (!nrctrs || pe & ~(P4_PE_UOP_TAG | P4_PE_REPLAY_TAG_BITS))
			return -EINVAL;
		if (!(pe & P4_PE_UOP_TAG) || !(pe & P4_PE_REPLAY_TAG_BITS))
			return -EINVAL;
		if (pmv & ~P4_PMV_REPLAY_TAG_BITS || !(pmv & P4_PMV_REPLAY_TAG_BITS))
			return -EINVAL;
	} else if (pmv) {
		return -EINVAL;
	}
	if (cc->nrictrs && !perfctr_x86_pcint)
		return -EINVAL;		/* no overflow interrupt */
	return 0;
}

/*
 * Load a P4 control: stop the counters it does not use, then the ESCRs,
 * the CCCRs and the replay-tagging MSRs that differ from what this CPU
 * holds.
 */
static void p4_write_control(const struct perfctr_cpu_state *state)
{
	struct perfctr_x86_cache *cache = perfctr_x86_this_cache();
	const struct perfctr_cpu_control *cc = &state->control;
	unsigned int i, pmc, escr, nrctrs = cc->nractrs + cc->nrictrs;
	u32 cccr[18] = {};

	if (cache->id == state->k1.id)
		return;
	for (i = 0; i < nrctrs; i++)
		cccr[cc->pmc_map[i] & ~P4_FAST_RDPMC] = cc->evntsel[i];
	for (pmc = 0; pmc < 18; pmc++) {
		if (cccr[pmc] || !cache->evntsel[pmc])
			continue;
		cache->evntsel[pmc] = 0;
		perfctr_x86_wrmsr(P4_CCCR0_MSR + pmc, 0);
	}
	for (i = 0; i < nrctrs; i++) {
		pmc = cc->pmc_map[i] & ~P4_FAST_RDPMC;
		escr = perfctr_x86_p4_escr_msr(pmc, cc->evntsel[i]) - PERFCTR_P4_ESCR0;
		if (cache->escr[escr] == cc->p4.escr[i])
			continue;
		cache->escr[escr] = cc->p4.escr[i];
		perfctr_x86_wrmsr(PERFCTR_P4_ESCR0 + escr, cc->p4.escr[i]);
	}
	for (pmc = 0; pmc < 18; pmc++) {
		if (!cccr[pmc] || cache->evntsel[pmc] == cccr[pmc])
			continue;
		cache->evntsel[pmc] = cccr[pmc];
		perfctr_x86_wrmsr(P4_CCCR0_MSR + pmc, cccr[pmc]);
	}
	if (cache->pebs_enable != cc->p4.pebs_enable) {
		cache->pebs_enable = cc->p4.pebs_enable;
		perfctr_x86_wrmsr(PERFCTR_P4_PEBS_ENABLE, cc->p4.pebs_enable);
	}
	if (cache->pebs_matrix_vert != cc->p4.pebs_matrix_vert) {
		cache->pebs_matrix_vert = cc->p4.pebs_matrix_vert;
		perfctr_x86_wrmsr(PERFCTR_P4_PEBS_MATRIX_VERT, cc->p4.pebs_matrix_vert);
	}
	cache->id = state->k1.id;
}

/* Clear the CCCRs of @state's counters @first to @last - 1. */
static void p4_stop(const struct perfctr_cpu_state *state, struct perfctr_x86_cache *cache,
		    unsigned int first, unsigned int last)
{
	unsigned int i, pmc;

	for (i = first; i < last; i++) {
		pmc = state->pmc[i].map & ~P4_FAST_RDPMC;
		if (!cache->evntsel[pmc])
			continue;
		cache->evntsel[pmc] = 0;
		perfctr_x86_wrmsr(P4_CCCR0_MSR + pmc, 0);
	}
	cache->id = 0;
}

/*
 * P4 i-mode counters (OVF_PMI_T0 set in their CCCR): stopped at every
 * suspend by clearing the CCCR, which also clears its sticky OVF flag,
 * and reloaded at resume as in the P6 family (perfctr_x86_imode_suspend/resume()): the
 * counters are 40 bits wide and overflow when they pass 0.
 */
static void p4_istop(const struct perfctr_cpu_state *state, struct perfctr_x86_cache *cache)
{
	p4_stop(state, cache, perfctr_cstatus_nractrs(state->cstatus),
		perfctr_cstatus_nrctrs(state->cstatus));
}

/*
 * Stop the suspended state's a-mode counters (the i-mode ones stop in
 * p4_isuspend()): whatever runs next on this CPU must not be counted (see
 * p6_astop()).  Their CCCRs are cleared; the ESCRs stay cached, and the
 * next resume writes the CCCRs again (p4_write_control()): one write a
 * counter each way.
 */
static void p4_suspend_pmcs(struct perfctr_cpu_state *state)
{
	perfctr_x86_rdpmc_suspend_pmcs(state);
	p4_stop(state, perfctr_x86_this_cache(), 0, perfctr_cstatus_nractrs(state->cstatus));
}

static void p4_isuspend(struct perfctr_cpu_state *state)
{
	perfctr_x86_imode_suspend(state, p4_istop);
}

static void p4_iresume(struct perfctr_cpu_state *state)
{
	perfctr_x86_imode_resume(state, p4_istop, ~(u32)P4_FAST_RDPMC);
}

static bool p4_counts_kernel(const struct perfctr_x86_model *m,
			     const struct perfctr_cpu_control *cc, unsigned int i)
{
	return cc->p4.escr[i] & P4_ESCR_OS;
}

static void p4_quiesce(const struct perfctr_x86_model *m, struct perfctr_x86_cache *cache)
{
	unsigned int i;

	for (i = 0; i < m->nr_ctrs; i++)
		perfctr_x86_wrmsr(P4_CCCR0_MSR + i, 0);
}

/*
 * On a hyper-threaded P4 only thread 0 of each core may use the counters
 * (Documentation/arch/x86/perfctr.rst): the others are forbidden.
 */
static void p4_select(const struct perfctr_x86_model *m)
{
	unsigned int cpu;

	p4_escr_map_init();
	if (!perfctr_x86_p4_ht)
		return;
	for_each_possible_cpu(cpu)
		if (perfctr_x86_ht_sibling(cpu))
			cpumask_set_cpu(cpu, &perfctr_cpus_forbidden_mask);
}

static void p4_boot(const struct perfctr_x86_model *m)
{
	perfctr_x86_p4_ht = topology_max_smt_threads() > 1;
}

/*
 * perf_events probed the P4's PMU at boot, and knows; without it, check
 * "performance monitoring available", then probe an ESCR_SELECT.
 */
static bool p4_pmu_responds(const struct perfctr_x86_model *m)
{
	u64 val;

	if (IS_ENABLED(CONFIG_PERF_EVENTS))
		return perfctr_x86_perf_pmu_responds();
	if (rdmsrq_safe(MSR_IA32_MISC_ENABLE, &val) ||
	    !(val & MSR_IA32_MISC_ENABLE_EMON))
		return false;
	return perfctr_x86_msr_responds(P4_CCCR0_MSR, 0x2000);
}

const struct perfctr_x86_family_ops perfctr_x86_p4_ops = {
	.check_control	= p4_check_control,
	.suspend_pmcs	= p4_suspend_pmcs,
	.resume_pmcs	= perfctr_x86_rdpmc_resume_pmcs,
	.write_control	= p4_write_control,
	.isuspend	= p4_isuspend,
	.iresume	= p4_iresume,
	.select		= p4_select,
	.boot		= p4_boot,
	.counts_kernel	= p4_counts_kernel,
	.quiesce	= p4_quiesce,
	.pmu_responds	= p4_pmu_responds,
	.fast_rdpmc	= P4_FAST_RDPMC,
	.uses_allocator	= true,
};
