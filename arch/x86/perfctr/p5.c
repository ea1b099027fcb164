// SPDX-License-Identifier: GPL-2.0
/*
 * perfctr x86 driver: the P5 family -- Intel P5 and P5MMX, Cyrix
 * 6x86MX/MII/III, Centaur WinChip C6/2/3 -- two counters controlled by
 * one CESR.  32-bit hardware all of it; built on x86_64 too, where the
 * KUnit suite drives it on its simulated PMU.
 */
#include <linux/bits.h>
#include <linux/perfctr.h>

#include <asm/msr.h>

#include "x86.h"

/*
 * The P5 family (Documentation/arch/x86/perfctr.rst): one CESR holds
 * both counters' 16-bit controls; evntsel[i] is the half of counter
 * pmc_map[i].
 */
#define P5_CESR_MSR		0x11
#define P5_CTR0_MSR		0x12	/* and 0x13 */
#define P5_CESR_CPL		0x00c0
#define P5_CESR_CPL_OS		0x0040	/* CPL 0-2; 0x0080 is CPL 3 */

const struct perfctr_x86_model perfctr_x86_p5 = {
	.name		= "Intel P5",
	.cpu_type	= PERFCTR_X86_INTEL_P5,
	.ops		= &perfctr_x86_p5_ops,
	.nr_ctrs	= 2,
	.evntsel_msr	= P5_CESR_MSR,
	.perfctr_msr	= P5_CTR0_MSR,
	.evntsel_stride	= 1,
	.reserved	= 0xfffffe00,
	.cpl		= P5_CESR_CPL,
	.no_rdpmc	= true,
	.ctr_width	= 40,
};
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_p5);

const struct perfctr_x86_model perfctr_x86_p5mmx = {
	.name		= "Intel P5MMX",
	.cpu_type	= PERFCTR_X86_INTEL_P5MMX,
	.ops		= &perfctr_x86_p5mmx_ops,
	.nr_ctrs	= 2,
	.evntsel_msr	= P5_CESR_MSR,
	.perfctr_msr	= P5_CTR0_MSR,
	.evntsel_stride	= 1,
	.reserved	= 0xfffffe00,
	.cpl		= P5_CESR_CPL,
	.ctr_width	= 40,
};
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_p5mmx);

const struct perfctr_x86_model perfctr_x86_mii = {
	.name		= "Cyrix 6x86MX/MII/III",
	.cpu_type	= PERFCTR_X86_CYRIX_MII,
	.ops		= &perfctr_x86_p5mmx_ops,
	.nr_ctrs	= 2,
	.evntsel_msr	= P5_CESR_MSR,
	.perfctr_msr	= P5_CTR0_MSR,
	.evntsel_stride	= 1,
	.reserved	= 0xfffffa00,	/* bit 10: the event code's bit 6 */
	.cpl		= P5_CESR_CPL,
};
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_mii);

const struct perfctr_x86_model perfctr_x86_winchip_c6 = {
	.name		= "WinChip C6",
	.cpu_type	= PERFCTR_X86_WINCHIP_C6,
	.ops		= &perfctr_x86_p5mmx_ops,
	.nr_ctrs	= 2,
	.evntsel_msr	= P5_CESR_MSR,
	.perfctr_msr	= P5_CTR0_MSR,
	.evntsel_stride	= 1,
	.reserved	= 0xffffff00,	/* no CPL bits */
	.no_tsc		= true,
};
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_winchip_c6);

const struct perfctr_x86_model perfctr_x86_winchip_2 = {
	.name		= "WinChip 2/3",
	.cpu_type	= PERFCTR_X86_WINCHIP_2,
	.ops		= &perfctr_x86_p5mmx_ops,
	.nr_ctrs	= 2,
	.evntsel_msr	= P5_CESR_MSR,
	.perfctr_msr	= P5_CTR0_MSR,
	.evntsel_stride	= 1,
	.reserved	= 0xffffff00,
	.no_tsc		= true,
};
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_winchip_2);

/*
 * The P5 family.  Each evntsel is a 16-bit half of the CESR, the half of
 * counter pmc_map[i] (0 or 1); its reserved bits are the model's (P5
 * 0xFE00, Cyrix 0xFA00, WinChip 0xFF00, and all of bits 16-31), and one
 * CPL bit (0x00C0) must be set except on the WinChip, which has none.
 * The WinChip's TSC is synthesised from the counters and breaks when the
 * CESR is reprogrammed: tsc_on is refused there.  No local APIC, so no
 * i-mode counters.
 */
static int p5_check_control(struct perfctr_cpu_state *state, int is_global)
{
	const struct perfctr_x86_model *m = perfctr_x86_cur_model;
	const struct perfctr_cpu_control *cc = &state->control;
	unsigned int i, pmc, mask = 0;

	if (cc->nrictrs || cc->nractrs > m->nr_ctrs)
		return -EINVAL;
	if (m->no_tsc && cc->tsc_on)
		return -EINVAL;
	for (i = 0; i < cc->nractrs; i++) {
		pmc = cc->pmc_map[i];
		if (pmc >= m->nr_ctrs || mask & BIT(pmc))
			return -EINVAL;
		mask |= BIT(pmc);
		if (cc->evntsel[i] & m->reserved || cc->evntsel_high[i])
			return -EINVAL;
		if (m->cpl && !(cc->evntsel[i] & m->cpl))
			return -EINVAL;
	}
	return perfctr_x86_has_p4_fields(cc) ? -EINVAL : 0;
}

/* Both halves into one CESR; an unused counter's half is 0 (stopped). */
static void p5_write_control(const struct perfctr_cpu_state *state)
{
	struct perfctr_x86_cache *cache = perfctr_x86_this_cache();
	const struct perfctr_cpu_control *cc = &state->control;
	unsigned int i;
	u32 cesr = 0;

	if (cache->id == state->k1.id)
		return;
	for (i = 0; i < cc->nractrs; i++)
		cesr |= cc->evntsel[i] << (16 * cc->pmc_map[i]);
	if (cache->cesr != cesr) {
		cache->cesr = cesr;
		perfctr_x86_wrmsr(P5_CESR_MSR, cesr);
	}
	cache->id = state->k1.id;
}

/*
 * Stop the suspended state's counters: whatever runs next on this CPU
 * must not be counted (its events would show in the owner's next start,
 * in its mapped page or by RDPMC; see p6_astop()).  A CESR of 0 stops
 * both halves (CC = 0: count nothing) where the model has the CPL field;
 * the next resume writes the CESR again (p5_write_control()), one write
 * each way.  The WinChip's halves have no such field and cannot be
 * stopped: they keep counting (Documentation/arch/x86/perfctr.rst).
 */
static void p5_astop(void)
{
	struct perfctr_x86_cache *cache = perfctr_x86_this_cache();

	if (!perfctr_x86_cur_model->cpl || !cache->cesr)
		return;
	cache->cesr = 0;
	perfctr_x86_wrmsr(P5_CESR_MSR, 0);
	cache->id = 0;
}

/* The P5 before MMX has no RDPMC: its counters are read as MSRs. */
static void p5_suspend_pmcs(struct perfctr_cpu_state *state)
{
	unsigned int i, nrctrs = perfctr_cstatus_nractrs(state->cstatus);

	for (i = 0; i < nrctrs; i++)
		perfctr_x86_fold(&state->pmc[i],
				 perfctr_x86_rdmsr(P5_CTR0_MSR + state->pmc[i].map));
	p5_astop();
}

static void p5mmx_suspend_pmcs(struct perfctr_cpu_state *state)
{
	perfctr_x86_rdpmc_suspend_pmcs(state);
	p5_astop();
}

static void p5_resume_pmcs(struct perfctr_cpu_state *state)
{
	unsigned int i, nrctrs = perfctr_cstatus_nractrs(state->cstatus);

	perfctr_x86_claim_ctrs(state);
	p5_write_control(state);
	for (i = 0; i < nrctrs; i++)
		state->pmc[i].start = perfctr_x86_rdmsr(P5_CTR0_MSR + state->pmc[i].map);
}

/* The WinChip and the Cyrix's CPL-less halves always count kernel mode. */
static bool p5_counts_kernel(const struct perfctr_x86_model *m,
			     const struct perfctr_cpu_control *cc, unsigned int i)
{
	return !m->cpl || cc->evntsel[i] & P5_CESR_CPL_OS;
}

static void p5_quiesce(const struct perfctr_x86_model *m, struct perfctr_x86_cache *cache)
{
	if (cache->cesr)
		perfctr_x86_wrmsr(P5_CESR_MSR, 0);
}

/*
 * perf_events has no driver for the P5 family: probe the CESR, with the
 * exception-safe accessors -- never the WinChip's, whose rewriting breaks
 * its TSC: there only a read, which must find it set up.
 */
static bool p5_pmu_responds(const struct perfctr_x86_model *m)
{
	u64 val;

	/*
	 * The WinChip's CESR synthesises its TSC, so it is set up (not
	 * zero) on a real one; QEMU TCG reads it as 0 without a fault.
	 */
	if (m->no_tsc)
		return !rdmsrq_safe(P5_CESR_MSR, &val) && val;
	/* Event bits of counter 0, CPL untouched: it counts no more. */
	return perfctr_x86_msr_responds(P5_CESR_MSR, 0x1a);
}

/*
 * The allocator knows the P6-family and P4 counters.  perf_events has no
 * driver for the P5 family, whose MSRs the allocator would all map to its
 * bit 0: there is nothing to arbitrate with (.uses_allocator false).
 */
const struct perfctr_x86_family_ops perfctr_x86_p5_ops = {
	.check_control	= p5_check_control,
	.suspend_pmcs	= p5_suspend_pmcs,
	.resume_pmcs	= p5_resume_pmcs,
	.write_control	= p5_write_control,
	.counts_kernel	= p5_counts_kernel,
	.quiesce	= p5_quiesce,
	.pmu_responds	= p5_pmu_responds,
};

/* With RDPMC: the P5MMX, the Cyrix and the WinChip. */
const struct perfctr_x86_family_ops perfctr_x86_p5mmx_ops = {
	.check_control	= p5_check_control,
	.suspend_pmcs	= p5mmx_suspend_pmcs,
	.resume_pmcs	= perfctr_x86_rdpmc_resume_pmcs,
	.write_control	= p5_write_control,
	.counts_kernel	= p5_counts_kernel,
	.quiesce	= p5_quiesce,
	.pmu_responds	= p5_pmu_responds,
};
