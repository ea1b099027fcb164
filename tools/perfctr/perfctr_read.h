/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * perfctr_read.h - the fast user-space reads of a perfctr state mapped
 * by its owner thread (mmap() of a vperfctr descriptor), by the state's
 * sequence counter: no system call.  One implementation for libperfctr
 * (tools/lib/perfctr, which installs this header beside libperfctr.h),
 * the selftests and the benchmark, so that what make bench measures is
 * what the library's users run.
 *
 * A counter's value is sum + perfctr_pmc_delta(now, start, width): the
 * hardware counter read now (perfctr_rdpmc(), needing
 * PERFCTR_FEATURE_RDPMC), less the period's start, modulo 2^width.
 */
#ifndef _PERFCTR_READ_H
#define _PERFCTR_READ_H

#include <linux/perfctr.h>

/*
 * The kernel writes the state only while the owner is not running:
 * loads the compiler may neither merge nor reorder are enough.
 */
#if __GCC_ATOMIC_LLONG_LOCK_FREE == 2
#define PERFCTR_LOAD(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#else
/*
 * No 64-bit atomic load (ppc32; GCC would call libatomic): a __u64 is
 * loaded in two halves.  A torn value is harmless: the reads retry
 * whenever the kernel updated the state meanwhile.
 */
#define PERFCTR_LOAD(x)		((__typeof__(x))perfctr_load_words(&(x), sizeof(x)))

static inline __u64 perfctr_load_words(const void *p, unsigned long size)
{
	const __u32 *w = (const __u32 *)p;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	const int hi = 0;
#else
	const int hi = 1;
#endif

	if (size == 4)
		return __atomic_load_n(w, __ATOMIC_RELAXED);
	return (__u64)__atomic_load_n(&w[hi], __ATOMIC_RELAXED) << 32 |
	       __atomic_load_n(&w[!hi], __ATOMIC_RELAXED);
}
#endif

static inline void perfctr_barrier(void)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/* The sequence at the start of a read: even (no update in progress). */
static inline __u32 perfctr_seq_begin(const struct vperfctr_state *s)
{
	__u32 seq;

	while ((seq = PERFCTR_LOAD(s->cpu_state.sequence)) & 1)
		;
	perfctr_barrier();
	return seq;
}

/* Non-zero if the kernel changed the state since perfctr_seq_begin(). */
static inline int perfctr_seq_retry(const struct vperfctr_state *s, __u32 seq)
{
	perfctr_barrier();
	return PERFCTR_LOAD(s->cpu_state.sequence) != seq;
}

/*
 * The owner's virtual TSC; works with the TSC off too (then: its sum).
 * By the TSC's base: tsc_base + (TSC & tsc_mask), retried while tsc_base
 * changes (it does whenever the owner was switched out or its TSC turned
 * on or off).  The TSC is read with the TSC off too: no RDTSC-faulting
 * (PR_SET_TSC) thread may use this; perfctr_state_read_tsc_seq() does
 * not read the TSC then.
 */
static inline __u64 perfctr_state_read_tsc(const struct vperfctr_state *s)
{
	__u64 base, base1, mask, now;

	base = PERFCTR_LOAD(s->cpu_state.tsc_base);
	for (;;) {
		perfctr_barrier();
		mask = PERFCTR_LOAD(s->cpu_state.tsc_mask);
		now = perfctr_rdtsc();
		perfctr_barrier();
		base1 = PERFCTR_LOAD(s->cpu_state.tsc_base);
		if (base1 == base)
			break;
		base = base1;
	}
	return base + (now & mask);
}

/* The same by the sequence counter, reading the TSC only if it is on. */
static inline __u64 perfctr_state_read_tsc_seq(const struct vperfctr_state *s)
{
	__u64 start, sum, now;
	__u32 seq, cstatus;

	do {
		seq = perfctr_seq_begin(s);
		cstatus = PERFCTR_LOAD(s->cpu_state.cstatus);
		start = PERFCTR_LOAD(s->cpu_state.tsc_start);
		sum = PERFCTR_LOAD(s->cpu_state.tsc_sum);
		now = (cstatus & PERFCTR_CSTATUS_TSC) ? perfctr_rdtsc() : start;
	} while (perfctr_seq_retry(s, seq));
	return sum + (now - start);
}

/* The owner's counter @i; needs PERFCTR_FEATURE_RDPMC while it runs. */
static inline __u64 perfctr_state_read_pmc(const struct vperfctr_state *s, unsigned int i)
{
	__u64 start, sum, now;
	__u32 seq, cstatus, width;

	do {
		seq = perfctr_seq_begin(s);
		cstatus = PERFCTR_LOAD(s->cpu_state.cstatus);
		start = PERFCTR_LOAD(s->cpu_state.pmc[i].start);
		sum = PERFCTR_LOAD(s->cpu_state.pmc[i].sum);
		width = PERFCTR_LOAD(s->cpu_state.pmc[i].width);
		if (i < PERFCTR_CSTATUS_NRCTRS(cstatus) && width) {
			now = perfctr_rdpmc(PERFCTR_LOAD(s->cpu_state.pmc[i].map));
		} else {
			now = start;
			width = 64;
		}
	} while (perfctr_seq_retry(s, seq));
	return sum + perfctr_pmc_delta(now, start, width);
}

/*
 * The children's sums (struct vperfctr_children): merged by other threads
 * on other CPUs, so read with the children's own sequence and acquire
 * ordering; any thread that maps the state may read them.
 */
static inline void perfctr_state_read_children(const struct vperfctr_state *s,
					       struct vperfctr_children *c)
{
	unsigned int i;
	__u32 seq;

	do {
		while ((seq = __atomic_load_n(&s->children.sequence, __ATOMIC_ACQUIRE)) & 1)
			;
		c->nr_merged = PERFCTR_LOAD(s->children.nr_merged);
		c->nr_unmerged = PERFCTR_LOAD(s->children.nr_unmerged);
		c->nr_running = PERFCTR_LOAD(s->children.nr_running);
		c->sum.tsc = PERFCTR_LOAD(s->children.sum.tsc);
		for (i = 0; i < PERFCTR_NRCTRS; i++)
			c->sum.pmc[i] = PERFCTR_LOAD(s->children.sum.pmc[i]);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (PERFCTR_LOAD(s->children.sequence) != seq);
	c->sequence = seq;
}

/*
 * All of the owner's counters, one snapshot under one sequence (the TSC
 * and every PMC of the same period); needs RDPMC if any PMC runs.  Only
 * the running counters are read from the hardware: the others are their
 * sums.
 */
static inline void perfctr_state_read_ctrs(const struct vperfctr_state *s,
					   struct perfctr_sum_ctrs *sum)
{
	__u64 start, now;
	__u32 seq, cstatus, width;
	unsigned int i, n;

	do {
		seq = perfctr_seq_begin(s);
		cstatus = PERFCTR_LOAD(s->cpu_state.cstatus);
		n = PERFCTR_CSTATUS_NRCTRS(cstatus);
		start = PERFCTR_LOAD(s->cpu_state.tsc_start);
		now = (cstatus & PERFCTR_CSTATUS_TSC) ? perfctr_rdtsc() : start;
		sum->tsc = PERFCTR_LOAD(s->cpu_state.tsc_sum) + (now - start);
		for (i = 0; i < PERFCTR_NRCTRS; i++) {
			sum->pmc[i] = PERFCTR_LOAD(s->cpu_state.pmc[i].sum);
			if (i >= n)
				continue;
			width = PERFCTR_LOAD(s->cpu_state.pmc[i].width);
			if (!width)
				continue;
			start = PERFCTR_LOAD(s->cpu_state.pmc[i].start);
			now = perfctr_rdpmc(PERFCTR_LOAD(s->cpu_state.pmc[i].map));
			sum->pmc[i] += perfctr_pmc_delta(now, start, width);
		}
	} while (perfctr_seq_retry(s, seq));
}

#endif /* _PERFCTR_READ_H */
