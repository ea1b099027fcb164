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
#include "perfctr_read.h"

/* The numbers come from the patched kernel's installed headers. */
#ifndef __NR_perfctr_info
# error "these kernel headers have no perfctr system calls"
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

static inline int vperfctr_suspend(int fd)
{
	return syscall(__NR_vperfctr_suspend, fd);
}

static inline int vperfctr_resume(int fd)
{
	return syscall(__NR_vperfctr_resume, fd);
}

static inline int vperfctr_read(int fd, struct perfctr_sum_ctrs *sum,
				struct vperfctr_control *control)
{
	return syscall(__NR_vperfctr_read, fd, sum, control, NULL);
}

/* The children's sums only, by the system call. */
static inline int vperfctr_read_children(int fd, struct vperfctr_children *children)
{
	return syscall(__NR_vperfctr_read, fd, NULL, NULL, children);
}

/* Map the state of @fd for fast reads; NULL (errno set) on failure. */
static inline const struct vperfctr_state *vperfctr_map(int fd)
{
	void *p = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (((struct vperfctr_state *)p)->magic != VPERFCTR_STATE_MAGIC) {
		munmap(p, sysconf(_SC_PAGESIZE));
		errno = EPROTO;
		return NULL;
	}
	return p;
}

static inline void vperfctr_unmap(const struct vperfctr_state *state)
{
	munmap((void *)state, sysconf(_SC_PAGESIZE));
}

/*
 * The owner thread's virtual TSC, read without a system call by the
 * original algorithm: retry while tsc_start changes.  Needs tsc_on.
 */
static inline __u64 vperfctr_read_tsc_restart(const struct vperfctr_state *s)
{
	__u64 tsc0, tsc1, now, sum;
	__u32 cstatus;

	tsc0 = PERFCTR_LOAD(s->cpu_state.tsc_start);
	for (;;) {
		perfctr_barrier();
		cstatus = PERFCTR_LOAD(s->cpu_state.cstatus);
		now = perfctr_rdtsc();
		sum = PERFCTR_LOAD(s->cpu_state.tsc_sum);
		perfctr_barrier();
		tsc1 = PERFCTR_LOAD(s->cpu_state.tsc_start);
		if (tsc1 == tsc0)
			break;
		tsc0 = tsc1;
	}
	if (!(cstatus & PERFCTR_CSTATUS_TSC))
		return sum;
	return sum + (now - tsc0);
}

/* The same with the sequence counter: works with the TSC off too. */
static inline __u64 vperfctr_read_tsc_seq(const struct vperfctr_state *s)
{
	return perfctr_state_read_tsc_seq(s);
}

/* The same by the TSC's base and mask (libperfctr's read). */
static inline __u64 vperfctr_read_tsc_base(const struct vperfctr_state *s)
{
	return perfctr_state_read_tsc(s);
}

/*
 * Programmable counter @i by the sequence algorithm; needs
 * PERFCTR_FEATURE_RDPMC (else use vperfctr_read()).
 */
static inline __u64 vperfctr_read_pmc_seq(const struct vperfctr_state *s, unsigned int i)
{
	return perfctr_state_read_pmc(s, i);
}

/*
 * Whether this thread may read PMCs itself (PERFCTR_FEATURE_RDPMC), asked
 * once: -1 on error.
 */
static inline int perfctr_have_rdpmc(void)
{
	static int have = -2;
	struct perfctr_info info;

	if (have == -2)
		have = perfctr_info(&info, NULL, NULL) ? -1 :
		       !!(info.cpu_features & PERFCTR_FEATURE_RDPMC);
	return have;
}

/*
 * Programmable counter @i of the state @fd maps at @s: the fast read
 * where user space may read PMCs, else the system call (the owner's
 * counters sampled).  ~0 when both fail.
 */
static inline __u64 vperfctr_read_pmc(int fd, const struct vperfctr_state *s, unsigned int i)
{
	struct perfctr_sum_ctrs sum;

	if (i >= PERFCTR_NRCTRS)
		return ~0ULL;
	if (s && perfctr_have_rdpmc() == 1)
		return vperfctr_read_pmc_seq(s, i);
	if (vperfctr_read(fd, &sum, NULL))
		return ~0ULL;
	return sum.pmc[i];
}

/* A control that runs the TSC only. */
static inline void vperfctr_control_tsc(struct vperfctr_control *c, int on)
{
	__builtin_memset(c, 0, sizeof(*c));
	c->cpu_control.tsc_on = !!on;
}

#endif /* _LIBPERFCTR_H */
