/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * powerpc part of the perfctr user-space ABI, for ppc32 and ppc64.
 *
 * Every structure here has the same size and layout for 32- and 64-bit
 * user space: only __u32/__s32/__u64 fields, each __u64 at an offset that
 * is a multiple of 8, explicit padding.  Documentation/arch/powerpc/
 * perfctr.rst describes the fields.
 */
#ifndef _UAPI_ASM_POWERPC_PERFCTR_H
#define _UAPI_ASM_POWERPC_PERFCTR_H

#include <linux/types.h>

/*
 * perfctr_info.cpu_type values.  The numbering of the original perfctr is
 * kept; new models are appended, never renumbered.
 */
#define PERFCTR_PPC_GENERIC	0	/* any PowerPC with a timebase */
#define PERFCTR_PPC_604		1
#define PERFCTR_PPC_604e	2
#define PERFCTR_PPC_750		3
#define PERFCTR_PPC_7400	4
#define PERFCTR_PPC_7450	5
/* Appended by this series: 64-bit Book3S. */
#define PERFCTR_PPC64_POWER8	6
#define PERFCTR_PPC64_POWER9	7
#define PERFCTR_PPC64_POWER10	8

/* Room for this many programmable counters in every per-counter array. */
#define PERFCTR_NRCTRS		8

/**
 * struct perfctr_sum_ctrs - 64-bit virtual counter values
 * @tsc: the timebase
 * @pmc: the programmable counters, in control order (a-mode first)
 */
struct perfctr_sum_ctrs {
	__u64 tsc;
	__u64 pmc[PERFCTR_NRCTRS];
};

/**
 * struct perfctr_cpu_control - counter control, written by user space
 * @tsc_on: non-zero to sample the timebase
 * @nractrs: number of accumulation-mode counters (elements 0..nractrs-1)
 * @nrictrs: number of interrupt-mode counters (the next nrictrs elements)
 * @pmc_map: per counter, its hardware counter: 0 for PMC1 .. 5 for PMC6
 *	(a counter number, never an SPR number)
 * @evntsel: per counter, its event selector (PMCnSEL)
 * @ireset: per i-mode counter, the (re)start value, 0..0x7fffffff: the
 *	counter overflows when it turns negative
 * @_reserved0: must be zero
 * @ppc: global control.  @ppc.mmcr0: MMCR0 bits other than the event
 *	selectors (ppc32) or the freeze conditions the model allows (ppc64);
 *	@ppc.mmcr2: MMCR2's THRESHMULT (74xx only); @ppc.mmcr1: ppc64 only,
 *	MMCR1 bits other than PMC1SEL..PMC4SEL (unit and combine fields);
 *	@ppc.mmcra: must be zero (sampling is not supported)
 * @_reserved: must be zero
 */
struct perfctr_cpu_control {
	__u32 tsc_on;
	__u32 nractrs;
	__u32 nrictrs;
	__u32 pmc_map[PERFCTR_NRCTRS];
	__u32 evntsel[PERFCTR_NRCTRS];
	__s32 ireset[PERFCTR_NRCTRS];
	__u32 _reserved0;
	struct {
		__u32 mmcr0;
		__u32 mmcr2;
		__u64 mmcr1;
		__u64 mmcra;
	} ppc;
	__u32 _reserved[4];
};

/**
 * struct perfctr_pmc_state - one counter in the mapped state
 * @map: hardware counter number, copied from pmc_map[]
 * @width: width of the hardware counter in bits, as perfctr reads it (set
 *	for the control's counters)
 * @start: the hardware counter at the start of the current period
 * @sum: total count up to the start of the current period
 */
struct perfctr_pmc_state {
	__u32 map;
	__u32 width;
	__u64 start;
	__u64 sum;
};

/*
 * Read the timebase and a PMC from user space.  The PMCs are readable in
 * problem state when perfctr_info.cpu_features has PERFCTR_FEATURE_RDPMC:
 * UPMC1-6 (SPRs 771-776) on ppc64; UPMC1-6 (937, 938, 941, 942, 929, 930)
 * on 750/74xx.
 */
#ifndef __KERNEL__
#ifdef _ARCH_PPC64
#define PERFCTR_UPMC1		771
#define PERFCTR_UPMC2		772
#define PERFCTR_UPMC3		773
#define PERFCTR_UPMC4		774
#define PERFCTR_UPMC5		775
#define PERFCTR_UPMC6		776

static inline __u64 perfctr_rdtsc(void)
{
	__u64 tb;

	__asm__ __volatile__("mfspr %0, 268" : "=r"(tb));
	return tb;
}
#else
#define PERFCTR_UPMC1		937
#define PERFCTR_UPMC2		938
#define PERFCTR_UPMC3		941
#define PERFCTR_UPMC4		942
#define PERFCTR_UPMC5		929
#define PERFCTR_UPMC6		930

static inline __u64 perfctr_rdtsc(void)
{
	__u32 hi, lo, hi2;

	do {
		__asm__ __volatile__("mfspr %0, 269" : "=r"(hi));
		__asm__ __volatile__("mfspr %0, 268" : "=r"(lo));
		__asm__ __volatile__("mfspr %0, 269" : "=r"(hi2));
	} while (hi != hi2);
	return ((__u64)hi << 32) | lo;
}
#endif

/* The PMCs are 32 bits wide (struct perfctr_pmc_state.width). */
static inline __u64 perfctr_rdpmc(__u32 map)
{
	unsigned long v;

	switch (map) {
	case 0:
		__asm__ __volatile__("mfspr %0, %1" : "=r"(v) : "i"(PERFCTR_UPMC1));
		break;
	case 1:
		__asm__ __volatile__("mfspr %0, %1" : "=r"(v) : "i"(PERFCTR_UPMC2));
		break;
	case 2:
		__asm__ __volatile__("mfspr %0, %1" : "=r"(v) : "i"(PERFCTR_UPMC3));
		break;
	case 3:
		__asm__ __volatile__("mfspr %0, %1" : "=r"(v) : "i"(PERFCTR_UPMC4));
		break;
	case 4:
		__asm__ __volatile__("mfspr %0, %1" : "=r"(v) : "i"(PERFCTR_UPMC5));
		break;
	case 5:
		__asm__ __volatile__("mfspr %0, %1" : "=r"(v) : "i"(PERFCTR_UPMC6));
		break;
	default:
		v = 0;
		break;
	}
	return (__u32)v;
}
#endif

#endif /* _UAPI_ASM_POWERPC_PERFCTR_H */
