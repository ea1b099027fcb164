// SPDX-License-Identifier: GPL-2.0
/*
 * self - a thread counts its own code with perfctr's virtual counters.
 *
 * An example of this project's libperfctr, written in perfctr 2.7's
 * library API (vperfctr_open(), vperfctr_control(), vperfctr_read_ctrs()
 * ...), as a perfctr 2.7 user would write it.  perfctr 2.7 shipped an
 * example of this name; this is not its source.
 *
 *   self [N]	count a loop of N iterations (default 10000000)
 *
 * It counts the TSC (powerpc: the timebase) and, where the CPU model has
 * a programmable counter this example knows an event for, the
 * instructions the thread retires in user mode: on x86 event 0xc0 with
 * the USR and EN bits (Documentation/arch/x86/perfctr.rst), on POWER8 to
 * POWER10 PMC5, which counts completed instructions, with MMCR0's FCS
 * (not in the kernel).  Elsewhere, and where the kernel refuses the
 * counter (another user holds the PMU, a virtual machine without a
 * PMU), it counts the TSC only and says why.
 *
 * Exit status: 0 with the counts; 1 when perfctr cannot be used (the
 * reason is printed) or a counter counted less than the loop.
 *
 *   cc -O2 self.c -o self $(pkg-config --cflags --libs libperfctr)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libperfctr.h>

#define X86_EVNTSEL_USR		0x00010000U	/* count in user mode */
#define X86_EVNTSEL_EN		0x00400000U	/* enable the counter */
#define PPC_MMCR0_FCS		0x40000000U	/* freeze in the kernel: user mode only */
#define PPC_PMC5		4		/* pmc_map of PMC5: instructions completed */

/*
 * Put one a-mode counter of instructions retired in @cc for the CPU
 * model @info names; its description, or NULL where this example knows
 * no event (the TSC only).
 */
static const char *instructions_event(const struct perfctr_info *info,
				      struct perfctr_cpu_control *cc)
{
	if (!perfctr_info_nrctrs(info))
		return NULL;	/* the generic model: no programmable counters */
#ifndef _ARCH_PPC	/* x86 */
	switch (info->cpu_type) {
	case PERFCTR_X86_INTEL_P6:
	case PERFCTR_X86_INTEL_PII:
	case PERFCTR_X86_INTEL_PIII:
	case PERFCTR_X86_INTEL_PENTM:
	case PERFCTR_X86_AMD_K7:
	case PERFCTR_X86_AMD_K8:
	case PERFCTR_X86_AMD_K8C:
	case PERFCTR_X86_AMD_FAM10H:
	case PERFCTR_X86_AMD_FAM15H:
		break;
	default:
		if (!perfctr_info_intel_arch(info))
			return NULL;	/* P5, Cyrix, WinChip, VIA C3, P4: no event 0xc0 */
	}
	cc->pmc_map[0] = 0;
	cc->evntsel[0] = 0xc0 | X86_EVNTSEL_USR | X86_EVNTSEL_EN;
	cc->nractrs = 1;
	return "instructions retired (event 0xc0, user mode)";
#else	/* powerpc */
	if (info->cpu_type < PERFCTR_PPC64_POWER8)
		return NULL;
	cc->pmc_map[0] = PPC_PMC5;
	cc->evntsel[0] = 0;	/* PMC5 counts one event */
	cc->ppc.mmcr0 = PPC_MMCR0_FCS;
	cc->nractrs = 1;
	return "instructions completed (PMC5, user mode)";
#endif
}

/* The code measured: n iterations the compiler must keep. */
static unsigned long work(unsigned long n)
{
	unsigned long i, sum = 0;

	for (i = 0; i < n; i++) {
		sum += i;
		__asm__ __volatile__("" : "+r" (sum));	/* keeps the loop */
	}
	return sum;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 10000000;
	struct perfctr_sum_ctrs before, after;
	struct vperfctr_control control;
	struct perfctr_info info;
	const char *event;
	struct vperfctr *self;
	int err;

	self = vperfctr_open();
	if (!self) {
		err = errno;
		fprintf(stderr, "self: vperfctr_open: %s\nself: %s\n", strerror(err),
			perfctr_strerror(err, NULL));
		return 1;
	}
	if (vperfctr_info(self, &info)) {
		err = errno;
		fprintf(stderr, "self: vperfctr_info: %s\nself: %s\n", strerror(err),
			perfctr_strerror(err, NULL));
		return 1;
	}
	printf("self: perfctr %s, CPU model %s (cpu_type %u), %u counters, %u kHz\n",
	       info.driver_version, perfctr_info_cpu_name(&info), info.cpu_type,
	       perfctr_info_nrctrs(&info), info.cpu_khz);

	/* 2.7's rule: zero the control, then set what counts. */
	memset(&control, 0, sizeof(control));
	control.cpu_control.tsc_on = 1;
	event = instructions_event(&info, &control.cpu_control);
	if (!event) {
		printf("self: no programmable counter this example knows an event for\n");
	} else if (info.cpu_features & PERFCTR_FEATURE_PMU_BUSY) {
		printf("self: %s\n", perfctr_strerror(EBUSY, &info));
		event = NULL;
	} else if (vperfctr_control(self, &control)) {
		err = errno;
		printf("self: vperfctr_control with %s: %s\nself: %s\n", event, strerror(err),
		       perfctr_strerror(err, &info));
		event = NULL;
	}
	if (!event) {
		/* The TSC alone, which every model counts. */
		printf("self: counting the TSC only\n");
		memset(&control, 0, sizeof(control));
		control.cpu_control.tsc_on = 1;
		if (vperfctr_control(self, &control)) {
			err = errno;
			fprintf(stderr, "self: vperfctr_control: %s\nself: %s\n", strerror(err),
				perfctr_strerror(err, &info));
			vperfctr_close(self);
			return 1;
		}
	}

	/* The fast reads: no system call where the CPU lets user space read the counters. */
	vperfctr_read_ctrs(self, &before);
	work(n);
	vperfctr_read_ctrs(self, &after);

	printf("self: %lu iterations\n", n);
	printf("self: tsc %llu ticks\n", (unsigned long long)(after.tsc - before.tsc));
	if (event)
		printf("self: pmc0 %llu (%s)\n",
		       (unsigned long long)(after.pmc[0] - before.pmc[0]), event);

	/* A control that enables nothing: the counters stop (and their sums reset). */
	vperfctr_stop(self);
	vperfctr_unlink(self);
	vperfctr_close(self);

	if (after.tsc <= before.tsc) {
		fprintf(stderr, "self: the TSC did not advance\n");
		return 1;
	}
	/* Each iteration retires a few instructions: fewer than n is wrong. */
	if (event && after.pmc[0] - before.pmc[0] < n) {
		fprintf(stderr, "self: counted fewer instructions than the %lu iterations\n", n);
		return 1;
	}
	return 0;
}
