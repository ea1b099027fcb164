/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * libperfctr.h - header-only syscall(2) wrappers for perfctr.
 *
 * Include after the kernel's <linux/perfctr.h> is on the include path
 * (make headers_install).  Every wrapper returns what syscall(2) returns:
 * -1 with errno set on failure.
 */
#ifndef _LIBPERFCTR_H
#define _LIBPERFCTR_H

#include <errno.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perfctr.h>

#if defined(__x86_64__) || defined(__i386__)
# if defined(__x86_64__) && defined(__ILP32__)
#  define __PERFCTR_NR(n)	((n) | 0x40000000)	/* x32 */
# else
#  define __PERFCTR_NR(n)	(n)
# endif
# ifndef __NR_perfctr_info
#  define __NR_perfctr_info	__PERFCTR_NR(473)
#  define __NR_vperfctr_open	__PERFCTR_NR(474)
#  define __NR_vperfctr_control	__PERFCTR_NR(475)
#  define __NR_vperfctr_unlink	__PERFCTR_NR(476)
#  define __NR_vperfctr_iresume	__PERFCTR_NR(477)
#  define __NR_vperfctr_read	__PERFCTR_NR(478)
# endif
# define perfctr_barrier()	__asm__ __volatile__("" ::: "memory")
#else
# error "perfctr: no system call numbers for this architecture"
#endif

static inline int perfctr_info(struct perfctr_info *info,
			       struct perfctr_cpu_mask *cpus,
			       struct perfctr_cpu_mask *forbidden)
{
	return syscall(__NR_perfctr_info, info, cpus, forbidden);
}

static inline int vperfctr_open(int tid, int creat)
{
	return syscall(__NR_vperfctr_open, tid, creat);
}

static inline int vperfctr_control(int fd, const struct vperfctr_control *control)
{
	return syscall(__NR_vperfctr_control, fd, control);
}

static inline int vperfctr_unlink(int fd)
{
	return syscall(__NR_vperfctr_unlink, fd);
}

static inline int vperfctr_iresume(int fd)
{
	return syscall(__NR_vperfctr_iresume, fd);
}

static inline int vperfctr_read(int fd, struct perfctr_sum_ctrs *sum,
				struct vperfctr_control *control)
{
	return syscall(__NR_vperfctr_read, fd, sum, control);
}

typedef const volatile struct vperfctr_state vperfctr_map_t;

/* Map the state of @fd for fast reads; NULL (errno set) on failure. */
static inline vperfctr_map_t *vperfctr_map(int fd)
{
	void *p = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (((struct vperfctr_state *)p)->magic != VPERFCTR_STATE_MAGIC) {
		munmap(p, sysconf(_SC_PAGESIZE));
		errno = EPROTO;
		return NULL;
	}
	return (vperfctr_map_t *)p;
}

static inline void vperfctr_unmap(vperfctr_map_t *state)
{
	munmap((void *)state, sysconf(_SC_PAGESIZE));
}

/*
 * The owner thread's virtual TSC, read without a system call by the
 * original algorithm: retry while tsc_start changes.  Needs tsc_on.
 */
static inline __u64 vperfctr_read_tsc_restart(vperfctr_map_t *s)
{
	__u32 tsc0, tsc1, now, cstatus;
	__u64 sum;

	tsc0 = s->cpu_state.tsc_start;
	for (;;) {
		perfctr_barrier();
		cstatus = s->cpu_state.cstatus;
		now = (__u32)perfctr_rdtsc();
		sum = s->cpu_state.tsc_sum;
		perfctr_barrier();
		tsc1 = s->cpu_state.tsc_start;
		if (tsc1 == tsc0)
			break;
		tsc0 = tsc1;
	}
	if (!(cstatus & PERFCTR_CSTATUS_TSC))
		return sum;
	return sum + (__u32)(now - tsc0);
}

/* The same with the sequence counter: works with the TSC off too. */
static inline __u64 vperfctr_read_tsc_seq(vperfctr_map_t *s)
{
	__u32 seq, now, start, cstatus;
	__u64 sum;

	for (;;) {
		seq = s->cpu_state.sequence;
		perfctr_barrier();
		if (seq & 1)
			continue;
		cstatus = s->cpu_state.cstatus;
		start = s->cpu_state.tsc_start;
		sum = s->cpu_state.tsc_sum;
		now = (__u32)perfctr_rdtsc();
		perfctr_barrier();
		if (s->cpu_state.sequence == seq)
			break;
	}
	if (!(cstatus & PERFCTR_CSTATUS_TSC))
		return sum;
	return sum + (__u32)(now - start);
}

/*
 * Programmable counter @i by the sequence algorithm; needs
 * PERFCTR_FEATURE_RDPMC (else use vperfctr_read()).
 */
static inline __u64 vperfctr_read_pmc_seq(vperfctr_map_t *s, unsigned int i)
{
	__u32 seq, now = 0, start, cstatus;
	__u64 sum;

	for (;;) {
		seq = s->cpu_state.sequence;
		perfctr_barrier();
		if (seq & 1)
			continue;
		cstatus = s->cpu_state.cstatus;
		start = s->cpu_state.pmc[i].start;
		sum = s->cpu_state.pmc[i].sum;
		if (i < PERFCTR_CSTATUS_NRCTRS(cstatus))
			now = perfctr_rdpmc_low(s->cpu_state.pmc[i].map);
		perfctr_barrier();
		if (s->cpu_state.sequence == seq)
			break;
	}
	if (i >= PERFCTR_CSTATUS_NRCTRS(cstatus))
		return sum;
	return sum + (__u32)(now - start);
}

/* A control that runs the TSC only. */
static inline void vperfctr_control_tsc(struct vperfctr_control *c, int on)
{
	__builtin_memset(c, 0, sizeof(*c));
	c->cpu_control.tsc_on = !!on;
}

#endif /* _LIBPERFCTR_H */
