// SPDX-License-Identifier: GPL-2.0
/*
 * perfctr x86 driver: the VIA C3, whose PERFCTR0 is the TSC and whose
 * PERFCTR1/EVNTSEL1 is its one programmable counter.
 */
#include <linux/perfctr.h>

#include <asm/msr.h>

#include "x86.h"

/* VIA C3: PERFCTR0 is the TSC, only PERFCTR1/EVNTSEL1 are programmable. */
const struct perfctr_x86_model perfctr_x86_vc3 = {
	.name		= "VIA C3",
	.cpu_type	= PERFCTR_X86_VIA_C3,
	.ops		= &perfctr_x86_vc3_ops,
	.nr_ctrs	= 2,
	.evntsel_msr	= MSR_P6_EVNTSEL0,
	.perfctr_msr	= MSR_P6_PERFCTR0,
	.evntsel_stride	= 1,
	.reserved	= 0xfffffe00,
};
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_vc3);

/*
 * VIA C3: at most one counter, PERFCTR1 (pmc_map[0] == 1); evntsel bits
 * 0xFFFFFE00 are reserved and there are no enable or CPL bits.  The
 * counter cannot be stopped: EVNTSEL1 keeps its last event.
 */
static int vc3_check_control(struct perfctr_cpu_state *state, int is_global)
{
	const struct perfctr_x86_model *m = perfctr_x86_cur_model;
	const struct perfctr_cpu_control *cc = &state->control;

	if (cc->nrictrs || cc->nractrs > 1)
		return -EINVAL;
	if (cc->nractrs == 1 &&
	    (cc->pmc_map[0] != 1 || cc->evntsel[0] & m->reserved || cc->evntsel_high[0]))
		return -EINVAL;
	return perfctr_x86_has_p4_fields(cc) ? -EINVAL : 0;
}

static void vc3_write_control(const struct perfctr_cpu_state *state)
{
	struct perfctr_x86_cache *cache = perfctr_x86_this_cache();
	u32 evntsel = state->control.evntsel[0];

	if (cache->id == state->k1.id)
		return;
	if (cache->evntsel[1] != evntsel) {
		cache->evntsel[1] = evntsel;
		perfctr_x86_wrmsr(MSR_P6_EVNTSEL0 + 1, evntsel);
	}
	cache->id = state->k1.id;
}

/* perf_events has no driver for it: probe EVNTSEL1. */
static bool vc3_pmu_responds(const struct perfctr_x86_model *m)
{
	return perfctr_x86_msr_responds(MSR_P6_EVNTSEL0 + 1, 0x5a);
}

/* PERFCTR1 only: PERFCTR0 is the TSC, which must not be zeroed. */
static u64 vc3_ctrs_here(const struct perfctr_x86_model *m)
{
	return BIT_ULL(1);
}

/*
 * No privilege levels (.counts_kernel NULL: it always counts kernel mode
 * too) and a counter that cannot be stopped (.quiesce NULL).
 */
const struct perfctr_x86_family_ops perfctr_x86_vc3_ops = {
	.check_control	= vc3_check_control,
	.suspend_pmcs	= perfctr_x86_rdpmc_suspend_pmcs,
	.resume_pmcs	= perfctr_x86_rdpmc_resume_pmcs,
	.write_control	= vc3_write_control,
	.pmu_responds	= vc3_pmu_responds,
	.ctrs_here	= vc3_ctrs_here,
	.uses_allocator	= true,
};
