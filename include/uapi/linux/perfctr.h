/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * perfctr: per-thread virtualised performance counters.
 *
 * System calls (x86 numbers in asm/unistd_*.h):
 *
 *   int perfctr_info(struct perfctr_info *info,
 *                    struct perfctr_cpu_mask *cpus,
 *                    struct perfctr_cpu_mask *forbidden);
 *   int vperfctr_open(int tid, int creat);
 *   int vperfctr_control(int fd, const struct vperfctr_control *control);
 *   int vperfctr_unlink(int fd);
 *   int vperfctr_iresume(int fd);
 *   int vperfctr_suspend(int fd);
 *   int vperfctr_resume(int fd);
 *   int vperfctr_read(int fd, struct perfctr_sum_ctrs *sum,
 *                     struct vperfctr_control *control,
 *                     struct vperfctr_children *children);
 *
 * Documentation/userspace-api/perfctr/ describes them.  All structures
 * use fixed-size fields only and have one layout for 32- and 64-bit user
 * space.
 *
 * Reading the counters without a system call
 * ------------------------------------------
 * mmap() of a vperfctr file descriptor (one page, PROT_READ, MAP_SHARED)
 * gives whoever holds the descriptor read access to a struct
 * vperfctr_state.  Only the owner thread can compute a running counter's
 * value from it, since it reads the hardware counter itself: the value
 * is sum + perfctr_pmc_delta(now, start, width): now - start modulo
 * 2^width, where now is the hardware counter (RDTSC, RDPMC) read by the
 * owner thread and width its width in bits (struct perfctr_pmc_state;
 * the TSC's is 64); other threads see the sums as of the owner's last
 * suspend or sample.  The
 * kernel changes the state only while the owner thread is not in the
 * middle of a user-space read (at context switches, in the timer tick,
 * in the system calls), so a read is retried when the state changed
 * under it.  Two ways to notice that:
 *
 * 1. The original algorithm, which needs the TSC on (control.tsc_on):
 *
 *	tsc0 = state->cpu_state.tsc_start;
 *	for (;;) {
 *		now = perfctr_rdpmc(state->cpu_state.pmc[i].map);
 *		start = state->cpu_state.pmc[i].start;
 *		width = state->cpu_state.pmc[i].width;
 *		sum = state->cpu_state.pmc[i].sum;
 *		tsc1 = state->cpu_state.tsc_start;
 *		if (tsc1 == tsc0)
 *			break;
 *		tsc0 = tsc1;
 *	}
 *	value = sum + perfctr_pmc_delta(now, start, width);
 *
 * 2. The sequence counter, which works with the TSC off too:
 *
 *	do {
 *		seq = state->cpu_state.sequence;   (retry while odd)
 *		compiler barrier
 *		cstatus = state->cpu_state.cstatus;
 *		now = ..., start = ..., sum = ...;
 *		compiler barrier
 *	} while (state->cpu_state.sequence != seq);
 *
 * Both must check that the counter is running (cstatus) before adding
 * the live part: a stopped counter's value is its sum.  Only the owner
 * thread can read live values; any other reader sees the sums as of the
 * owner's last suspend.
 *
 * 3. The TSC alone, by its base and mask, which the kernel keeps so that
 *    the owner's virtual TSC is tsc_base + (TSC & tsc_mask), the TSC on
 *    or off; tsc_base changes whenever the owner was off the CPU or its
 *    TSC was turned on or off, so it is its own check:
 *
 *	base = state->cpu_state.tsc_base;
 *	for (;;) {
 *		compiler barrier
 *		mask = state->cpu_state.tsc_mask;
 *		now = perfctr_rdtsc();
 *		compiler barrier
 *		base1 = state->cpu_state.tsc_base;
 *		if (base1 == base)
 *			break;
 *		base = base1;
 *	}
 *	tsc = base + (now & mask);
 *
 * The children's sums (struct vperfctr_children) change when a
 * descendant's totals are merged, from another thread; they have their
 * own sequence counter, read in the same way.
 */
#ifndef _UAPI_LINUX_PERFCTR_H
#define _UAPI_LINUX_PERFCTR_H

#include <linux/types.h>
#include <asm/perfctr.h>

/*
 * Version of the system-call API (2.7's plus the sequence, inheritance,
 * the TSC's base and the mapped state's stops).
 */
#define PERFCTR_API_VERSION	0x0901
#define PERFCTR_CPU_VERSION	0x0100	/* 64-bit control ids */
#define PERFCTR_ABI_VERSION	((PERFCTR_API_VERSION << 16) | PERFCTR_CPU_VERSION)

/* perfctr_info.cpu_features */
#define PERFCTR_FEATURE_RDPMC	0x01	/* user space may read PMCs */
#define PERFCTR_FEATURE_RDTSC	0x02	/* user space may read the TSC */
#define PERFCTR_FEATURE_PCINT	0x04	/* overflow interrupts work */
/*
 * The TSC (powerpc: the timebase) ticks at a constant rate whatever the
 * core's clock does: cpu_khz / tsc_to_cpu_mult is its nominal rate, and
 * TSC ticks are not core cycles (the ratio is unknown).
 */
#define PERFCTR_FEATURE_TSC_CONSTANT	0x08
/*
 * Status, as of the call: another user holds the PMU (perf_events'
 * hardware events -- the NMI watchdog on most distributions -- or a KVM
 * guest's mediated vPMU), so a control with PMCs gets EBUSY now.  It
 * does not report perfctr's own states holding the PMU: root reads those
 * in /proc/perfctr_pmu.
 */
#define PERFCTR_FEATURE_PMU_BUSY	0x10

/**
 * struct perfctr_info - what sys_perfctr_info() reports
 * @abi_version: PERFCTR_ABI_VERSION of the kernel
 * @driver_version: NUL-terminated version string of the driver
 * @cpu_type: PERFCTR_<ARCH>_* CPU model the driver uses
 * @cpu_features: PERFCTR_FEATURE_* bits
 * @cpu_khz: core clock in kHz (x86: the TSC's rate)
 * @tsc_to_cpu_mult: core clock cycles per TSC tick (at least 1); nominal
 *	only with PERFCTR_FEATURE_TSC_CONSTANT
 * @_reserved: zero
 */
struct perfctr_info {
	__u32 abi_version;
	char driver_version[32];
	__u32 cpu_type;
	__u32 cpu_features;
	__u32 cpu_khz;
	__u32 tsc_to_cpu_mult;
	__u32 _reserved[3];
};

/**
 * struct perfctr_cpu_mask - a CPU set of unknown size
 * @nrwords: in: number of elements in @mask; out: number needed
 * @mask: bit N of mask[N / 32] is CPU N
 */
struct perfctr_cpu_mask {
	__u32 nrwords;
	__u32 mask[];
};

/*
 * cstatus: tsc_on, nractrs and nrictrs in one word.
 * Bit 31: TSC on; bits 16-23: nrictrs; bits 8-15: nractrs + nrictrs;
 * bits 0-7: nractrs.
 */
#define PERFCTR_CSTATUS_TSC		0x80000000U
#define PERFCTR_CSTATUS_NRICTRS(c)	(((c) >> 16) & 0x7f)
#define PERFCTR_CSTATUS_NRCTRS(c)	(((c) >> 8) & 0x7f)
#define PERFCTR_CSTATUS_NRACTRS(c)	((c) & 0x7f)

/*
 * The count since @start of a counter @width bits wide (1 to 64) that
 * reads @now: the difference modulo 2^@width, right across a wrap of the
 * hardware counter.  Kernel and user space fold with the same function.
 */
static inline __u64 perfctr_pmc_delta(__u64 now, __u64 start, __u32 width)
{
	return (now - start) & (~0ULL >> (64 - width));
}

/**
 * struct perfctr_cpu_state - counter state, readable through mmap()
 * @cstatus: encoded tsc_on/nractrs/nrictrs of the running control;
 *	zero when stopped
 * @sequence: incremented before and after every kernel update: odd
 *	while an update is in progress
 * @k1: opaque to user space (control id, i-mode suspend CPU, and a word
 *	the driver derives from the control)
 * @tsc_start: the TSC at the start of this period (64 bits)
 * @tsc_sum: TSC ticks up to the start of this period
 * @tsc_base: while the owner runs, tsc_sum - tsc_start with the TSC on
 *	and tsc_sum with it off (modulo 2^64)
 * @tsc_mask: while the owner runs, ~0 with the TSC on and 0 with it off
 * @pmc: per-counter state
 * @control: the control in force
 */
struct perfctr_cpu_state {
	__u32 cstatus;
	__u32 sequence;
	struct {
		__u64 id;
		__s32 isuspend_cpu;
		__u32 drv;
	} k1;
	__u64 tsc_start;
	__u64 tsc_sum;
	__u64 tsc_base;
	__u64 tsc_mask;
	struct perfctr_pmc_state pmc[PERFCTR_NRCTRS];
	struct perfctr_cpu_control control;
};

/**
 * struct vperfctr_children - what the inheriting descendants counted
 * @sequence: incremented before and after every merge: odd while one is
 *	in progress (read it as cpu_state.sequence)
 * @nr_merged: finished descendants whose totals are in @sum
 * @nr_unmerged: inheriting descendants whose totals are not: their
 *	control or this state's changed after the fork, they unlinked their
 *	state, or the fork could not give them one
 * @nr_running: inheriting descendants still running (or whose totals
 *	are on their way): theirs come when they finish
 * @sum: the sum of their final counts, in this state's control order
 *
 * A child that inherited the control (VPERFCTR_CONTROL_INHERIT,
 * VPERFCTR_CONTROL_INHERIT_THREAD) adds its own final sums and its
 * children's so far to its parent's state when it exits, before wait()
 * or pthread_join() can report it; descendants of it still running
 * become its parent's, counted in @nr_running until they finish, when
 * their totals reach that ancestor.  An exited state's sums here stop
 * changing at its exit.
 */
struct vperfctr_children {
	__u32 sequence;
	__u32 nr_merged;
	__u32 nr_unmerged;
	__u32 nr_running;
	struct perfctr_sum_ctrs sum;
};

#define VPERFCTR_STATE_MAGIC	0x76706373	/* "vpcs" */

/* vperfctr_state.stops: why the counters stopped with no control asking */
#define VPERFCTR_STOP_FORBIDDEN_CPU	0x1	/* resumed on a forbidden CPU */
#define VPERFCTR_STOP_REVOKED		0x2	/* kernel.perfctr_access lowered */

/**
 * struct vperfctr_state - the page mapped by mmap() of a vperfctr fd
 * @magic: VPERFCTR_STATE_MAGIC
 * @abi_version: PERFCTR_ABI_VERSION
 * @cpu_state: the counters
 * @children: the inheriting descendants' counts
 * @stops: VPERFCTR_STOP_* bits: the sums stopped short of what the
 *	control asked, kept after the owner is gone; cleared by a control
 *	that keeps no sum (@vperfctr_control.preserve zero).  An inheriting
 *	descendant with one set is not merged (@children.nr_unmerged).
 * @_reserved: zero
 */
struct vperfctr_state {
	__u32 magic;
	__u32 abi_version;
	struct perfctr_cpu_state cpu_state;
	struct vperfctr_children children;
	__u32 stops;
	__u32 _reserved;
};

/* vperfctr_control.flags */
#define VPERFCTR_CONTROL_CLOEXEC	0x1	/* unlink the state at exec */
/* A child of fork(), vfork() or clone() without CLONE_THREAD inherits. */
#define VPERFCTR_CONTROL_INHERIT	0x2
/* A thread created with CLONE_THREAD inherits. */
#define VPERFCTR_CONTROL_INHERIT_THREAD	0x4
/*
 * Only check the control as vperfctr_control() would, and change nothing:
 * no counter, sum or affinity, and no PMU reservation (so no EBUSY).
 */
#define VPERFCTR_CONTROL_VALIDATE	0x8
#define VPERFCTR_CONTROL_FLAGS		(VPERFCTR_CONTROL_CLOEXEC | \
					 VPERFCTR_CONTROL_INHERIT | \
					 VPERFCTR_CONTROL_INHERIT_THREAD | \
					 VPERFCTR_CONTROL_VALIDATE)

/* vperfctr_open() creat argument */
#define VPERFCTR_OPEN_CREAT		0x1

/**
 * struct vperfctr_control - argument of vperfctr_control()
 * @si_signo: signal sent on overflow of an i-mode counter (1..SIGRTMAX);
 *	ignored (may be 0) without i-mode counters
 * @preserve: bit N set keeps the sum of programmable counter N; other
 *	sums are reset.  The TSC sum is kept when the new control has tsc_on
 *	and reset when it has not.
 * @flags: VPERFCTR_CONTROL_* bits
 * @_reserved0: zero
 * @cpu_control: the counters to run
 * @_reserved: zero
 */
struct vperfctr_control {
	__s32 si_signo;
	__u32 preserve;
	__u32 flags;
	__u32 _reserved0;
	struct perfctr_cpu_control cpu_control;
	__u32 _reserved[4];
};

/* Overflow signal: si_code and where the overflown-counter mask is. */
#define SI_PMC_OVF		('P')
#define si_pmc_ovf_mask		_sifields._pad[0]

#endif /* _UAPI_LINUX_PERFCTR_H */
