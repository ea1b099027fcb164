/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * libperfctr - user-space library for perfctr's per-thread virtual
 * performance counters.
 *
 * The perfctr 2.7 library interface (struct vperfctr, struct rvperfctr,
 * perfctr_info() and the print helpers), implemented on today's
 * system calls, plus raw system-call wrappers (perfctr_sys_*) and the
 * fast user-space reads of the mapped state.  README lists where the
 * kernel ABI differs from perfctr 2.7.
 */
#ifndef __LIB_PERFCTR_H
#define __LIB_PERFCTR_H

#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <linux/perfctr.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LIBPERFCTR_VERSION_MAJOR	3
#define LIBPERFCTR_VERSION_MINOR	0

/* The system-call numbers: the same on every architecture. */
#define PERFCTR_NR_INFO			473
#define PERFCTR_NR_VOPEN		474
#define PERFCTR_NR_VCONTROL		475
#define PERFCTR_NR_VUNLINK		476
#define PERFCTR_NR_VIRESUME		477
#define PERFCTR_NR_VREAD		478
#define PERFCTR_NR_VSUSPEND		479
#define PERFCTR_NR_VRESUME		480

/*
 * Raw system calls: -1 with errno set on failure, as syscall(2).  The
 * names differ from the kernel's so that they do not clash with the
 * perfctr 2.7 functions below.  ENOSYS, without a system call, unless
 * the running kernel shows it has perfctr (kernel.perfctr_access, or
 * CONFIG_PERFCTR=y in /boot/config-RELEASE): the numbers may be other
 * calls' on other kernels.
 */
int perfctr_sys_info(struct perfctr_info *info, struct perfctr_cpu_mask *cpus,
		     struct perfctr_cpu_mask *forbidden);
int perfctr_sys_vopen(int tid, int creat);
int perfctr_sys_vcontrol(int fd, const struct vperfctr_control *control);
int perfctr_sys_vunlink(int fd);
int perfctr_sys_viresume(int fd);
int perfctr_sys_vsuspend(int fd);
int perfctr_sys_vresume(int fd);
int perfctr_sys_vread(int fd, struct perfctr_sum_ctrs *sum, struct vperfctr_control *control,
		      struct vperfctr_children *children);

/* Map the state of @fd read-only (one page); NULL with errno on failure. */
const struct vperfctr_state *perfctr_sys_vmap(int fd);
void perfctr_sys_vunmap(const struct vperfctr_state *state);

/*
 * The overflow mask of an SI_PMC_OVF signal.  It is the first int of
 * siginfo's union, which every C library names si_pid (glibc, musl and
 * the kernel's uapi siginfo_t alike); the uapi header's si_pmc_ovf_mask
 * (_sifields._pad[0]) compiles with glibc's siginfo_t, not with musl's.
 */
#define perfctr_siginfo_ovf_mask(si)	((unsigned int)(si)->si_pid)

/*
 * perfctr 2.7 interface.
 */

/* CPU sets of perfctr_cpus_info(): one malloc()ed block, use free(). */
struct perfctr_cpus_info {
	struct perfctr_cpu_mask *cpus;
	struct perfctr_cpu_mask *cpus_forbidden;
};

/*
 * A handle on a thread's virtual counters.  Its members are the
 * library's: they are public only for the inline fast reads below.
 */
struct vperfctr {
	int fd;				/* -1 while the thread has no state */
	int tid;			/* 0: the calling thread */
	const struct vperfctr_state *kstate;	/* NULL when not mapped */
	unsigned int cpu_type;
	unsigned int cpu_features;
	int remote;			/* rvperfctr: never read live values */
	struct vperfctr *next_mapped;	/* the library's list of mapped handles */
};

struct rvperfctr;

/*
 * 2.7's library-internal calls on raw descriptors, kept for old code.
 * cpu_type is ignored; _vperfctr_open(0) and _sys_vperfctr_open(fd, tid, 0)
 * give, for a thread without state, a descriptor of no state, as 2.7's.
 */
int _sys_perfctr_info(int fd, struct perfctr_info *info, struct perfctr_cpu_mask *cpus,
		      struct perfctr_cpu_mask *forbidden);
int _sys_vperfctr_open(int fd, int tid, int creat);
int _sys_vperfctr_write_control(int fd, unsigned int cpu_type,
				const struct vperfctr_control *control);
int _sys_vperfctr_read_control(int fd, unsigned int cpu_type, struct vperfctr_control *control);
int _sys_vperfctr_read_sum(int fd, struct perfctr_sum_ctrs *sum);
int _sys_vperfctr_read_children(int fd, struct perfctr_sum_ctrs *sum);
int _sys_vperfctr_unlink(int fd);
int _sys_vperfctr_iresume(int fd);
int _sys_vperfctr_suspend(int fd);
int _sys_vperfctr_resume(int fd);
int _vperfctr_open(int creat);
int _vperfctr_control(int fd, const struct vperfctr_control *control);
int _vperfctr_read_control(int fd, struct vperfctr_control *control);
int _vperfctr_read_sum(int fd, struct perfctr_sum_ctrs *sum);
int _vperfctr_read_children(int fd, struct perfctr_sum_ctrs *sum);

struct vperfctr *vperfctr_open(void);
struct vperfctr *vperfctr_open_mode(unsigned int mode);
int vperfctr_info(const struct vperfctr *self, struct perfctr_info *info);
struct perfctr_cpus_info *vperfctr_cpus_info(const struct vperfctr *self);
int vperfctr_read_ctrs_slow(const struct vperfctr *self, struct perfctr_sum_ctrs *sum);
int vperfctr_read_state(const struct vperfctr *self, struct perfctr_sum_ctrs *sum,
			struct vperfctr_control *control);
int vperfctr_read_children(const struct vperfctr *self, struct vperfctr_children *children);
int vperfctr_control(struct vperfctr *self, struct vperfctr_control *control);
int vperfctr_stop(struct vperfctr *self);
int vperfctr_is_running(const struct vperfctr *self);
int vperfctr_is_active(const struct vperfctr *self);
int vperfctr_iresume(const struct vperfctr *self);
int vperfctr_suspend(const struct vperfctr *self);
int vperfctr_resume(const struct vperfctr *self);
int vperfctr_unlink(const struct vperfctr *self);
void vperfctr_close(struct vperfctr *self);
int vperfctr_fd(const struct vperfctr *self);

struct rvperfctr *rvperfctr_open(int pid);
int rvperfctr_pid(const struct rvperfctr *self);
int rvperfctr_info(const struct rvperfctr *self, struct perfctr_info *info);
int rvperfctr_read_ctrs(const struct rvperfctr *self, struct perfctr_sum_ctrs *sum);
int rvperfctr_read_state(const struct rvperfctr *self, struct perfctr_sum_ctrs *sum,
			 struct vperfctr_control *control);
int rvperfctr_control(struct rvperfctr *self, struct vperfctr_control *control);
int rvperfctr_stop(struct rvperfctr *self);
int rvperfctr_unlink(const struct rvperfctr *self);
void rvperfctr_close(struct rvperfctr *self);

/* Miscellaneous: @fd is ignored (2.7 passed a descriptor). */
int _perfctr_abi_check_fd(int fd, unsigned int user_abi_version);
static inline int perfctr_abi_check_fd(int fd)
{
	return _perfctr_abi_check_fd(fd, PERFCTR_ABI_VERSION);
}

int perfctr_info(int fd, struct perfctr_info *info);
struct perfctr_cpus_info *perfctr_cpus_info(int fd);
unsigned int perfctr_info_nrctrs(const struct perfctr_info *info);
unsigned int perfctr_info_nrfixed(const struct perfctr_info *info);
int perfctr_info_intel_arch(const struct perfctr_info *info);
const char *perfctr_info_cpu_name(const struct perfctr_info *info);
void perfctr_info_print(const struct perfctr_info *info);
void perfctr_cpus_info_print(const struct perfctr_cpus_info *info);
void perfctr_cpu_control_print(const struct perfctr_cpu_control *control);
unsigned int perfctr_linux_version_code(void);
#define PERFCTR_KERNEL_VERSION(v, p, s)	(((v) << 16) + ((p) << 8) + (s))

/*
 * What the error @err (an errno value of a perfctr call; its sign is
 * ignored) means on this system and what to do about it: for EACCES
 * which of kernel.perfctr_access and kernel.perf_event_paranoid refuses
 * the caller, for EBUSY who may hold the PMU, for ENOSYS and ENODEV what
 * the kernel lacks.  @info (NULL if unknown) is perfctr_info()'s: it
 * names the CPU model.  For an error it has no advice on, strerror(@err).
 * The string is the calling thread's until its next call.  Makes no
 * perfctr system call.
 */
const char *perfctr_strerror(int err, const struct perfctr_info *info);

/*
 * POWER8-10 (ppc64): perf's and libpfm4's raw event codes (as perf's
 * rNNNN) to a control's pmc_map, evntsel and MMCR1 upper word, by the
 * kernel's perf rules; architecture-independent (host tools may call it).
 * libperfctr(3) describes them.  @isa: PERFCTR_POWER_ISA207 (POWER8),
 * _ISA300 (POWER9) or _ISA310 (POWER10); perfctr_power_isa() gives it
 * for a perfctr_info cpu_type (0: not POWER8-10).  -1 with errno and the
 * reason in @why: EOPNOTSUPP an event needs a register perfctr does not
 * program (MMCRA, MMCR2, MMCR3, MMCRC) or an L2/L3 unit; EINVAL no such
 * event or PMC; EBUSY events that cannot count together; ENOSPC more
 * events than PMC1-4 (and PMC5-6) hold.
 */
#define PERFCTR_POWER_ISA207	207	/* POWER8 */
#define PERFCTR_POWER_ISA300	300	/* POWER9 */
#define PERFCTR_POWER_ISA310	310	/* POWER10 */

/*
 * Accept the L2/L3 units (6-9) under perf's group rules instead of
 * refusing them: they count for every thread of the core, and this
 * kernel's perfctr refuses them in a control (EINVAL).
 */
#define PERFCTR_POWER_L2L3	0x1U

/*
 * An event: @code the raw code, @name for the reason (NULL: the code);
 * @pmc in: 0-5, or -1 for the code's PMC or any of PMC1-4, out: the PMC
 * (pmc_map); out: @evntsel the PMCxSEL, 0 for PMC5 and PMC6.
 */
struct perfctr_power_event {
	unsigned long long code;
	const char *name;
	int pmc;
	unsigned int evntsel;
};

unsigned int perfctr_power_isa(unsigned int cpu_type);
int perfctr_power_check(unsigned int isa, unsigned int flags, unsigned long long code,
			const char *name, char *why, size_t whylen);
int perfctr_power_encode(unsigned int isa, unsigned int flags, struct perfctr_power_event *ev,
			 unsigned int n, unsigned long long *mmcr1, char *why, size_t whylen);

/*
 * Hybrid Intel CPUs (libperfctr(3)): the core type a libpfm4 core PMU
 * counts on (adl_glc: the P-cores, adl_grt: the E-cores; others: any),
 * from its name and description, and the CPUs a set of events may count
 * on: 0 no restriction (not a hybrid CPU, or events of any core type);
 * 1 with @cpus the CPUs of @allowed (NULL: the calling thread's
 * affinity) of the one core type the events need; -1 with the reason in
 * @why (events of two core types, no allowed CPU of the type).
 * @sysfs_root prefixes /sys (NULL: none).  perfctr_events_cpus() is
 * declared where <sched.h> has cpu_set_t (_GNU_SOURCE).
 */
#define PERFCTR_CORE_P		1U	/* P-cores: perf's cpu_core */
#define PERFCTR_CORE_E		2U	/* E-cores: cpu_atom (and cpu_lowpower) */
#define PERFCTR_CORE_ANY	(PERFCTR_CORE_P | PERFCTR_CORE_E)

unsigned int perfctr_pmu_core_type(const char *pmu_name, const char *pmu_desc);
const char *perfctr_core_type_name(unsigned int core);
#ifdef CPU_SETSIZE
int perfctr_events_cpus(unsigned int n, const unsigned int *core, const char *const *name,
			const char *sysfs_root, const cpu_set_t *allowed, cpu_set_t *cpus,
			char *why, size_t whylen);
#endif

/* The fast reads of the mapped state: perfctr_state_read_tsc/pmc/ctrs(). */
#include "perfctr_read.h"

static inline int vperfctr_fast_ok(const struct vperfctr *self, unsigned int feature)
{
	return self->kstate && !self->remote && (self->cpu_features & feature) == feature;
}

static inline unsigned long long vperfctr_read_tsc(const struct vperfctr *self)
{
	struct perfctr_sum_ctrs sum;

	if (vperfctr_fast_ok(self, PERFCTR_FEATURE_RDTSC))
		return perfctr_state_read_tsc(self->kstate);
	if (vperfctr_read_ctrs_slow(self, &sum))
		return 0;
	return sum.tsc;
}

static inline unsigned long long vperfctr_read_pmc(const struct vperfctr *self, unsigned int i)
{
	struct perfctr_sum_ctrs sum;

	if (i >= PERFCTR_NRCTRS)
		return 0;
	if (vperfctr_fast_ok(self, PERFCTR_FEATURE_RDPMC))
		return perfctr_state_read_pmc(self->kstate, i);
	if (vperfctr_read_ctrs_slow(self, &sum))
		return 0;
	return sum.pmc[i];
}

static inline int vperfctr_read_ctrs(const struct vperfctr *self, struct perfctr_sum_ctrs *sum)
{
	unsigned int need = PERFCTR_FEATURE_RDTSC;

	if (self->kstate && PERFCTR_CSTATUS_NRCTRS(PERFCTR_LOAD(self->kstate->cpu_state.cstatus)))
		need |= PERFCTR_FEATURE_RDPMC;
	if (vperfctr_fast_ok(self, need)) {
		perfctr_state_read_ctrs(self->kstate, sum);
		return 0;
	}
	return vperfctr_read_ctrs_slow(self, sum);
}

#ifdef __cplusplus
}
#endif

#endif /* __LIB_PERFCTR_H */
