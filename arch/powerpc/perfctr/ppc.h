/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfctr powerpc low-level driver: what the CPU models provide to the
 * common part (ppc.c).
 */
#ifndef _ARCH_POWERPC_PERFCTR_PPC_H
#define _ARCH_POWERPC_PERFCTR_PPC_H

#include <linux/perfctr.h>
#include <asm/reg.h>
#include <asm/time.h>

/**
 * struct perfctr_ppc_model - one family of performance monitors
 * @name: for perfctr_info() users and the boot message
 * @cpu_type: PERFCTR_PPC_* or PERFCTR_PPC64_*
 * @nr_pmcs: number of PMCs (pmc_map values are 0..@nr_pmcs - 1)
 * @features: PERFCTR_FEATURE_RDPMC and/or PERFCTR_FEATURE_PCINT
 * @check_control: validate @state->control beyond the common rules; if
 *	valid, set what the model derives from it (@state->k1.drv)
 * @suspend_pmcs: freeze the PMCs and fold their counts into the sums
 * @resume_pmcs: load the control (unless cached) and start the PMCs
 * @sample_pmcs: fold the counts so far into the sums, keep counting
 * @freeze: stop all counting and drop a pending alert (from the PMI)
 * @responds: probe at boot that the PMU registers hold what is written
 */
struct perfctr_ppc_model {
	const char *name;
	unsigned int cpu_type;
	unsigned int nr_pmcs;
	unsigned int features;
	int (*check_control)(struct perfctr_cpu_state *state);
	void (*suspend_pmcs)(struct perfctr_cpu_state *state);
	void (*resume_pmcs)(struct perfctr_cpu_state *state);
	void (*sample_pmcs)(struct perfctr_cpu_state *state);
	void (*freeze)(void);
	bool (*responds)(void);
};

const struct perfctr_ppc_model *perfctr_ppc64_probe(void);
const struct perfctr_ppc_model *perfctr_ppc32_probe(void);

/* Per-CPU record of what the PMU holds (the control cache). */
struct perfctr_ppc_cache {
	u64 id;		/* control whose MMCRs are loaded */
	u64 iid;	/* state whose i-mode counts the PMCs still hold */
	u64 mmcr0;	/* MMCR0 that starts @id's counters */
	u64 mmcr1;	/* ppc64: MMCR1 as loaded */
	u64 mmcr2;	/* ppc64: MMCR2 as loaded */
	bool loaded;	/* ppc64: PMCs enabled, MMCRA/MMCR2 zeroed, mmcr1 valid */
};

DECLARE_PER_CPU(struct perfctr_ppc_cache, perfctr_ppc_cache);

/*
 * Fold each counter's count since its start into its sum and restart the
 * period there (suspend and sample); @read_pmc is the model's accessor.
 */
static inline void perfctr_ppc_fold(struct perfctr_cpu_state *state,
				    u32 (*read_pmc)(unsigned int pmc))
{
	unsigned int i, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);
	u32 now;

	for (i = 0; i < nrctrs; i++) {
		now = read_pmc(state->pmc[i].map);
		state->pmc[i].sum += perfctr_pmc_delta(now, state->pmc[i].start, 32);
		state->pmc[i].start = now;
	}
}

/* Write PMC@pmc + 1 (0-5), as ppc32 and ppc64 both number the SPRs. */
static inline void perfctr_ppc_write_pmc(unsigned int pmc, u32 val)
{
	switch (pmc) {
	case 0:
		mtspr(SPRN_PMC1, val);
		break;
	case 1:
		mtspr(SPRN_PMC2, val);
		break;
	case 2:
		mtspr(SPRN_PMC3, val);
		break;
	case 3:
		mtspr(SPRN_PMC4, val);
		break;
	case 4:
		mtspr(SPRN_PMC5, val);
		break;
	default:
		mtspr(SPRN_PMC6, val);
		break;
	}
}

/* The TSC of perfctr's ABI: the timebase. */
static inline u64 perfctr_read_tb(void)
{
	return get_tb();
}

/* Common per-counter checks: a distinct counter each, ireset rules. */
int perfctr_ppc_check_counters(const struct perfctr_cpu_control *cc,
			       unsigned int nr_pmcs);

#endif
