/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * x86 part of the perfctr user-space ABI.
 *
 * Every structure here has the same size and layout for i386, x32 and
 * x86_64 user space: only __u32/__u64/__s32 fields, each __u64 at an
 * offset that is a multiple of 8, explicit padding.
 */
#ifndef _UAPI_ASM_X86_PERFCTR_H
#define _UAPI_ASM_X86_PERFCTR_H

#include <linux/types.h>

/*
 * perfctr_info.cpu_type values.  The numbering of the original perfctr is
 * kept; new models are appended, never renumbered.
 */
#define PERFCTR_X86_GENERIC		0	/* any x86 with a TSC */
#define PERFCTR_X86_INTEL_P5		1
#define PERFCTR_X86_INTEL_P5MMX		2
#define PERFCTR_X86_INTEL_P6		3
#define PERFCTR_X86_INTEL_PII		4
#define PERFCTR_X86_INTEL_PIII		5
#define PERFCTR_X86_CYRIX_MII		6
#define PERFCTR_X86_WINCHIP_C6		7
#define PERFCTR_X86_WINCHIP_2		8
#define PERFCTR_X86_AMD_K7		9
#define PERFCTR_X86_VIA_C3		10
#define PERFCTR_X86_INTEL_P4		11
#define PERFCTR_X86_INTEL_P4M2		12
#define PERFCTR_X86_AMD_K8		13
#define PERFCTR_X86_INTEL_PENTM		14
#define PERFCTR_X86_AMD_K8C		15
#define PERFCTR_X86_INTEL_P4M3		16
#define PERFCTR_X86_INTEL_CORE		17
#define PERFCTR_X86_INTEL_CORE2		18
#define PERFCTR_X86_AMD_FAM10H		19
#define PERFCTR_X86_INTEL_ATOM		20
#define PERFCTR_X86_INTEL_NHLM		21
#define PERFCTR_X86_INTEL_WSTMR		22
#define PERFCTR_X86_INTEL_SNB		23
/* Appended by this series. */
#define PERFCTR_X86_INTEL_ARCH		24	/* architectural perfmon v2+ */
#define PERFCTR_X86_AMD_FAM15H		25	/* AMD family 15h+ core counters */
#define PERFCTR_X86_INTEL_HYBRID	26	/* hybrid Intel: a PMU per core type */

/* Room for this many programmable counters in every per-counter array. */
#define PERFCTR_NRCTRS		18

/**
 * struct perfctr_sum_ctrs - 64-bit virtual counter values
 * @tsc: the time-stamp counter
 * @pmc: the programmable counters, in control order (a-mode first)
 */
struct perfctr_sum_ctrs {
	__u64 tsc;
	__u64 pmc[PERFCTR_NRCTRS];
};

/**
 * struct perfctr_cpu_control - counter control, written by user space
 * @tsc_on: non-zero to sample the TSC
 * @nractrs: number of accumulation-mode counters (elements 0..nractrs-1)
 * @nrictrs: number of interrupt-mode counters (the next nrictrs elements)
 * @pmc_map: per counter, the RDPMC index of its hardware counter
 * @evntsel: per counter, the event select value (low 32 bits)
 * @evntsel_high: per counter, bits 32-63 of the event select (AMD
 *	family 10h and later); must be zero elsewhere
 * @p4: Pentium 4 only: ESCR values and replay tagging MSRs
 * @ireset: per i-mode counter, the (re)start value; must be negative
 * @_reserved: must be zero
 */
struct perfctr_cpu_control {
	__u32 tsc_on;
	__u32 nractrs;
	__u32 nrictrs;
	__u32 pmc_map[PERFCTR_NRCTRS];
	__u32 evntsel[PERFCTR_NRCTRS];
	__u32 evntsel_high[PERFCTR_NRCTRS];
	struct {
		__u32 escr[PERFCTR_NRCTRS];
		__u32 pebs_enable;
		__u32 pebs_matrix_vert;
	} p4;
	__s32 ireset[PERFCTR_NRCTRS];
	__u32 _reserved[5];
};

/**
 * struct perfctr_pmc_state - one counter in the mapped state
 * @map: hardware counter (RDPMC index), copied from pmc_map[]
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

/* Read the TSC and a PMC from user space. */
#ifndef __KERNEL__
static inline __u64 perfctr_rdtsc(void)
{
	__u32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((__u64)hi << 32) | lo;
}

static inline __u64 perfctr_rdpmc(__u32 map)
{
	__u32 lo, hi;

	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(map));
	return ((__u64)hi << 32) | lo;
}
#endif

#endif /* _UAPI_ASM_X86_PERFCTR_H */
