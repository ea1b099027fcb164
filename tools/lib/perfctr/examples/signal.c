// SPDX-License-Identifier: GPL-2.0
/*
 * signal - overflow interrupts: a signal every PERIOD instructions.
 *
 * An example of this project's libperfctr, written in perfctr 2.7's
 * library API, as a perfctr 2.7 user would write it.  perfctr 2.7
 * shipped an example of this name; this is not its source.
 *
 *   signal [N]	wait for N overflows (default 10)
 *
 * The thread counts the instructions it retires in user mode on an
 * interrupt-mode (i-mode) counter, which starts at its ireset value and
 * interrupts when it overflows.  The kernel then suspends the thread's
 * counters and sends it the control's si_signo, here SIGIO, with
 * si_code SI_PMC_OVF and the mask of the counters that overflowed,
 * which perfctr_siginfo_ovf_mask() reads (bit N: counter N of the
 * control, the a-mode counters first).  The handler counts the
 * overflow and restarts the counters with vperfctr_iresume(), which
 * reloads the i-mode counter with ireset.
 *
 * ireset, and what an overflow is, differ:
 *  - x86: the counter overflows when it passes 0, so ireset is
 *    negative, -PERIOD; the event select has the INT bit (20) as well
 *    as USR and EN (Documentation/arch/x86/perfctr.rst).
 *  - POWER8 to POWER10: the counter overflows when its bit 31 becomes
 *    set, so ireset is 0x80000000 - PERIOD; PMC5 counts instructions
 *    completed (Documentation/arch/powerpc/perfctr.rst).
 *
 * Exit status: 0 after N overflows, printing "signal: N overflows"; 77
 * (skipped) where the CPU or the kernel has no overflow interrupt
 * (perfctr_info's cpu_features lacks PERFCTR_FEATURE_PCINT), no
 * programmable counter this example knows an event for, a busy PMU or a
 * counter that counts nothing (a virtual machine without a PMU), with the
 * reason; 1 when perfctr cannot be used or the overflows do not come.
 *
 *   cc -O2 signal.c -o signal $(pkg-config --cflags --libs libperfctr)
 */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <libperfctr.h>

#define PERIOD			1000000	/* instructions between two overflows */
#define TIME_LIMIT		60	/* seconds to wait for them */
#define EXIT_SKIP		77

#define X86_EVNTSEL_USR		0x00010000U	/* count in user mode */
#define X86_EVNTSEL_INT		0x00100000U	/* interrupt on overflow: i-mode */
#define X86_EVNTSEL_EN		0x00400000U	/* enable the counter */
#define PPC_MMCR0_FCS		0x40000000U	/* freeze in the kernel: user mode only */
#define PPC_PMC5		4		/* pmc_map of PMC5: instructions completed */

static struct vperfctr *self;

/* What the handler saw, for the main loop: lock-free atomics are safe there. */
static atomic_int overflows, bad_signals, iresume_errno;
static atomic_uint ovf_mask;

static void on_overflow(int sig, siginfo_t *si, void *uc)
{
	int saved_errno = errno;

	(void)sig;
	(void)uc;
	if (si->si_code != SI_PMC_OVF) {
		atomic_fetch_add(&bad_signals, 1);
		return;
	}
	atomic_fetch_or(&ovf_mask, perfctr_siginfo_ovf_mask(si));
	atomic_fetch_add(&overflows, 1);
	/* The counters stopped at the overflow: restart them. */
	if (vperfctr_iresume(self))
		atomic_store(&iresume_errno, errno);
	errno = saved_errno;
}

/*
 * Put one i-mode counter of instructions retired in @cc for the CPU
 * model @info names; its description, or NULL where this example knows
 * no event.
 */
static const char *instructions_ievent(const struct perfctr_info *info,
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
	cc->evntsel[0] = 0xc0 | X86_EVNTSEL_USR | X86_EVNTSEL_INT | X86_EVNTSEL_EN;
	cc->ireset[0] = -PERIOD;
	cc->nrictrs = 1;
	return "instructions retired (event 0xc0, user mode)";
#else	/* powerpc */
	if (info->cpu_type < PERFCTR_PPC64_POWER8)
		return NULL;
	cc->pmc_map[0] = PPC_PMC5;
	cc->evntsel[0] = 0;	/* PMC5 counts one event */
	cc->ireset[0] = 0x80000000U - PERIOD;
	cc->ppc.mmcr0 = PPC_MMCR0_FCS;
	cc->nrictrs = 1;
	return "instructions completed (PMC5, user mode)";
#endif
}

/* Code to count: n iterations the compiler must keep. */
static void work(unsigned long n)
{
	unsigned long i, sum = 0;

	for (i = 0; i < n; i++) {
		sum += i;
		__asm__ __volatile__("" : "+r" (sum));	/* keeps the loop */
	}
}

static int stop(int code)
{
	vperfctr_stop(self);
	vperfctr_unlink(self);
	vperfctr_close(self);
	return code;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;
	struct vperfctr_control control;
	struct perfctr_sum_ctrs sum;
	struct perfctr_info info;
	struct sigaction sa;
	struct timespec t0, t;
	const char *event;
	int err, checked = 0;

	self = vperfctr_open();
	if (!self) {
		err = errno;
		fprintf(stderr, "signal: vperfctr_open: %s\nsignal: %s\n", strerror(err),
			perfctr_strerror(err, NULL));
		return 1;
	}
	if (vperfctr_info(self, &info)) {
		err = errno;
		fprintf(stderr, "signal: vperfctr_info: %s\nsignal: %s\n", strerror(err),
			perfctr_strerror(err, NULL));
		vperfctr_close(self);
		return 1;
	}
	printf("signal: CPU model %s (cpu_type %u), %u counters\n",
	       perfctr_info_cpu_name(&info), info.cpu_type, perfctr_info_nrctrs(&info));
	if (!(info.cpu_features & PERFCTR_FEATURE_PCINT)) {
		printf("signal: skipped: %s\n",
		       "no overflow interrupt (PERFCTR_FEATURE_PCINT) on this CPU model or kernel");
		vperfctr_close(self);
		return EXIT_SKIP;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_overflow;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGIO, &sa, NULL);

	/* 2.7's rule: zero the control, then set what counts. */
	memset(&control, 0, sizeof(control));
	control.si_signo = SIGIO;
	control.cpu_control.tsc_on = 1;
	event = instructions_ievent(&info, &control.cpu_control);
	if (!event) {
		printf("signal: skipped: %s\n",
		       "no programmable counter this example knows an event for");
		vperfctr_close(self);
		return EXIT_SKIP;
	}
	if (vperfctr_control(self, &control)) {
		err = errno;
		printf("signal: vperfctr_control with %s: %s\nsignal: %s\n", event, strerror(err),
		       perfctr_strerror(err, &info));
		if (err == EBUSY)
			printf("signal: skipped: the PMU is busy\n");
		vperfctr_close(self);
		return err == EBUSY ? EXIT_SKIP : 1;
	}
	printf("signal: a signal every %d %s\n", PERIOD, event);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (overflows < n && !bad_signals && !iresume_errno) {
		work(PERIOD / 4);
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec >= TIME_LIMIT)
			break;
		/* No overflow after two seconds: does the counter count at all? */
		if (!overflows && !checked && t.tv_sec - t0.tv_sec >= 2) {
			checked = 1;
			if (vperfctr_read_ctrs(self, &sum) == 0 && sum.pmc[0] == 0) {
				printf("signal: skipped: %s\n",
				       "the counter counts nothing (a virtual machine without a PMU?)");
				return stop(EXIT_SKIP);
			}
		}
	}
	if (bad_signals || iresume_errno || overflows < n) {
		fprintf(stderr,
			"signal: %d overflows of %d (at most %d s), %d signals without SI_PMC_OVF%s%s\n",
			(int)overflows, n, TIME_LIMIT, (int)bad_signals,
			iresume_errno ? ", vperfctr_iresume: " : "",
			iresume_errno ? strerror(iresume_errno) : "");
		return stop(1);
	}
	if (ovf_mask != 1) {
		fprintf(stderr, "signal: overflow mask 0x%x, not 0x1 (counter 0)\n",
			(unsigned int)ovf_mask);
		return stop(1);
	}
	printf("signal: %d overflows\n", (int)overflows);
	return stop(0);
}
