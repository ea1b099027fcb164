/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfctr: kernel-internal interfaces.
 *
 * Three layers (Documentation/userspace-api/perfctr/overview.rst):
 *  - low-level drivers, one per architecture (arch/<arch>/perfctr/), behind
 *    the perfctr_cpu_*() API below;
 *  - the virtual per-thread counters service (kernel/perfctr/virtual.c and
 *    the files beside it), reached from the thread-management hooks below;
 *  - the top level (kernel/perfctr/init.c): initialisation and
 *    sys_perfctr_info().
 */
#ifndef _LINUX_PERFCTR_H
#define _LINUX_PERFCTR_H

#include <linux/types.h>

struct mm_struct;
struct task_struct;

/*
 * Only an architecture with a driver (HAVE_PERFCTR) has the <asm/perfctr.h>
 * the user ABI includes; elsewhere the hooks below are empty and nothing
 * of perfctr is compiled.
 */
#ifdef CONFIG_PERFCTR
#include <uapi/linux/perfctr.h>
#include <linux/array_size.h>
#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/thread_info.h>

/* cstatus: a re-encoding of tsc_on/nractrs/nrictrs for the hot paths. */
static inline unsigned int perfctr_mk_cstatus(unsigned int tsc_on,
					      unsigned int nractrs,
					      unsigned int nrictrs)
{
	return (tsc_on ? PERFCTR_CSTATUS_TSC : 0) | (nrictrs << 16) |
	       ((nractrs + nrictrs) << 8) | nractrs;
}

static inline bool perfctr_cstatus_enabled(unsigned int cstatus)
{
	return cstatus != 0;
}

static inline bool perfctr_cstatus_has_tsc(unsigned int cstatus)
{
	return cstatus & PERFCTR_CSTATUS_TSC;
}

static inline unsigned int perfctr_cstatus_nractrs(unsigned int cstatus)
{
	return PERFCTR_CSTATUS_NRACTRS(cstatus);
}

static inline unsigned int perfctr_cstatus_nrctrs(unsigned int cstatus)
{
	return PERFCTR_CSTATUS_NRCTRS(cstatus);
}

static inline bool perfctr_cstatus_has_ictrs(unsigned int cstatus)
{
	return PERFCTR_CSTATUS_NRICTRS(cstatus) != 0;
}

/*
 * For the drivers' perfctr_cpu_update_control(): the checks every model
 * makes first -- tsc_on is 0 or 1, nractrs + nrictrs fit in the arrays
 * (without wrapping), the reserved words are zero, entries beyond the
 * control's counters are zero and a-mode counters have no ireset, the
 * same on every architecture -- and, once the model accepted the
 * control, the state it starts from.
 */
static inline int perfctr_cpu_check_common(const struct perfctr_cpu_control *cc)
{
	unsigned int i, nrctrs;
	u32 bad = 0;

	if (cc->tsc_on > 1 || cc->nractrs > PERFCTR_NRCTRS ||
	    cc->nrictrs > PERFCTR_NRCTRS - cc->nractrs)
		return -EINVAL;
	/* Or-ed together, without a branch per entry: a control's path. */
	for (i = 0; i < ARRAY_SIZE(cc->_reserved); i++)
		bad |= cc->_reserved[i];
	for (i = 0; i < cc->nractrs; i++)
		bad |= cc->ireset[i];
	nrctrs = cc->nractrs + cc->nrictrs;
	for (i = nrctrs; i < PERFCTR_NRCTRS; i++)
		bad |= cc->pmc_map[i] | cc->evntsel[i] | cc->ireset[i];
	return bad ? -EINVAL : 0;
}

/**
 * perfctr_new_control_id - the id of a newly validated control
 *
 * The key of the drivers' per-CPU control caches.  Random, not a
 * counter: the id is in the state's page, which its owner maps, and a
 * global counter there would tell one user how many controls the others
 * make, and when (a covert channel).  Never 0 (no control) nor all ones
 * (a cache that forgot); two controls share an id with probability
 * 2^-64, and only a CPU that still caches the one would take it for the
 * other.
 *
 * Return: the id.
 */
static inline u64 perfctr_new_control_id(void)
{
	u64 id;

	do {
		id = get_random_u64();
	} while (id == 0 || id == ~0ULL);
	return id;
}

/*
 * @id: the new control's id (perfctr_new_control_id()), the control
 *	cache key;
 * @width: its counters' width in bits, as the driver reads them.
 */
static inline void perfctr_cpu_init_state(struct perfctr_cpu_state *state, u64 id,
					  unsigned int width)
{
	const struct perfctr_cpu_control *cc = &state->control;
	unsigned int i, nrctrs = cc->nractrs + cc->nrictrs;

	state->cstatus = perfctr_mk_cstatus(cc->tsc_on, cc->nractrs, cc->nrictrs);
	for (i = 0; i < nrctrs; i++) {
		state->pmc[i].map = cc->pmc_map[i];
		state->pmc[i].width = width;
		/*
		 * An i-mode counter starts at its ireset (written at resume),
		 * sign-extended: the driver masks it to the counter's width.
		 * An a-mode counter's ireset is 0 (perfctr_cpu_check_common()).
		 */
		state->pmc[i].start = (u64)(s64)cc->ireset[i];
	}
	for (; i < PERFCTR_NRCTRS; i++) {
		state->pmc[i].map = 0;
		state->pmc[i].width = 0;
		state->pmc[i].start = 0;
	}
	state->k1.id = id;
	state->k1.isuspend_cpu = -1;
}

/*
 * The TSC part of the drivers' perfctr_cpu_suspend/resume/sample(): the
 * architecture's 64-bit clock (@read: the x86 TSC, the powerpc timebase),
 * whose differences are added to the sum whole, however long a period.
 * Inlined with @read, so the hot paths make no indirect call.
 *
 * They keep tsc_base (tsc_sum - tsc_start) for the owner's reads of
 * tsc_base + (TSC & tsc_mask): the resume sets it, the sample leaves it
 * (sum and start move together), and after a suspend the owner does not
 * run until the next resume.  Where cstatus or tsc_sum change otherwise,
 * perfctr_tsc_refresh() sets both.  While the TSC runs, the sum so far
 * is tsc_base + TSC, as the owner reads it.
 */
static __always_inline void perfctr_tsc_suspend(struct perfctr_cpu_state *state,
						u64 (*read)(void))
{
	if (perfctr_cstatus_has_tsc(state->cstatus))
		state->tsc_sum = state->tsc_base + read();
}

static __always_inline void perfctr_tsc_resume(struct perfctr_cpu_state *state,
					       u64 (*read)(void))
{
	u64 now;

	if (perfctr_cstatus_has_tsc(state->cstatus)) {
		now = read();
		state->tsc_start = now;
		state->tsc_base = state->tsc_sum - now;
	}
}

static __always_inline void perfctr_tsc_sample(struct perfctr_cpu_state *state,
					       u64 (*read)(void))
{
	u64 now;

	if (perfctr_cstatus_has_tsc(state->cstatus)) {
		now = read();
		state->tsc_sum = state->tsc_base + now;
		state->tsc_start = now;
	}
}

/*
 * The TSC's base and mask for the state's cstatus, tsc_sum and tsc_start,
 * after a change of cstatus or tsc_sum off the switch path (a control, a
 * suspension, a stop); inside a write section.
 */
static inline void perfctr_tsc_refresh(struct perfctr_cpu_state *state)
{
	u64 mask = perfctr_cstatus_has_tsc(state->cstatus) ? ~0ULL : 0;

	state->tsc_mask = mask;
	state->tsc_base = state->tsc_sum - (state->tsc_start & mask);
}

/*
 * The low-level driver API (Documentation/driver-api/perfctr.rst).
 * perfctr_cpu_suspend/resume/sample() are called with interrupts off.
 */
int perfctr_cpu_init(void);
void perfctr_cpu_exit(void);
extern const char *perfctr_cpu_name;
void perfctr_cpu_fill_info(struct perfctr_info *info);

const char *perfctr_cpu_reserve(const char *service);
void perfctr_cpu_release(const char *service);

int perfctr_cpu_update_control(struct perfctr_cpu_state *state, int is_global);
bool perfctr_cpu_counts_kernel(const struct perfctr_cpu_state *state);
/*
 * User-space reads of the counters where the permission is per mm (x86:
 * CR4.PCE): one count per state with programmable counters, on its
 * owner's mm, moved at exec.
 */
bool perfctr_cpu_rdpmc_get(struct mm_struct *mm);
void perfctr_cpu_rdpmc_put(struct mm_struct *mm);
void perfctr_cpu_suspend(struct perfctr_cpu_state *state);
void perfctr_cpu_resume(struct perfctr_cpu_state *state);
void perfctr_cpu_sample(struct perfctr_cpu_state *state);
/*
 * After a suspend, when nothing resumed on this CPU since claims the
 * counters: leave no state's counts where what runs next could read
 * them (x86: by RDPMC).  Interrupts off.
 */
void perfctr_cpu_unclaim(void);

typedef void (*perfctr_ihandler_t)(unsigned long pc);
void perfctr_cpu_set_ihandler(perfctr_ihandler_t handler);
unsigned int perfctr_cpu_identify_overflow(struct perfctr_cpu_state *state);
void perfctr_cpu_ireload(struct perfctr_cpu_state *state);

/*
 * CPUs on which no control with programmable counters may run (x86: a
 * hyper-threaded P4's second threads; the debugfs file "perfctr/forbidden"
 * with CONFIG_PERFCTR_DEBUG_FORBIDDEN), reported by sys_perfctr_info().
 * Defined and filled by the driver, which the top level comes after.
 */
extern cpumask_t perfctr_cpus_forbidden_mask;

/*
 * The other CPUs on which @state's control cannot run: their PMU lacks a
 * counter it uses (x86: a hybrid CPU's cores of another type).  Called
 * once perfctr_cpu_update_control() accepted the control; may sleep.
 */
void perfctr_cpu_forbidden(const struct perfctr_cpu_state *state, struct cpumask *mask);

/*
 * Sections that change a running state keep out the overflow interrupt.
 * It is an ordinary interrupt on x86 and ppc32, so interrupts off is
 * enough, and the switch and tick hooks already run so; on ppc64 it is
 * an NMI unless masked on its own, and <asm/perfctr.h> says how.
 */
#ifndef perfctr_irq_save
#define perfctr_irq_save(flags)		local_irq_save(flags)
#define perfctr_irq_restore(flags)	local_irq_restore(flags)
#endif
#ifndef perfctr_pmi_save
#define perfctr_pmi_save(flags)		((flags) = 0)
#define perfctr_pmi_restore(flags)	((void)(flags))
#define perfctr_pmi_is_nmi()		false
#else
#define perfctr_pmi_is_nmi()		true
#endif

#endif /* CONFIG_PERFCTR */

#ifdef CONFIG_PERFCTR_VIRTUAL
#include <linux/jump_label.h>

struct vperfctr;

/*
 * Off until the first state is created, and never off again: the switch
 * hooks of an architecture without a context-switch work mask are a
 * no-op branch in switch_to() while no thread has ever had counters.
 */
DECLARE_STATIC_KEY_FALSE(perfctr_switch_hooks);

void __vperfctr_exit(struct task_struct *tsk);
void __vperfctr_suspend(struct vperfctr *perfctr);
void __vperfctr_resume(struct vperfctr *perfctr);
void __vperfctr_sample(struct vperfctr *perfctr);
void __vperfctr_exec(struct task_struct *tsk, bool secure);
void __vperfctr_fork(struct task_struct *child, u64 clone_flags);
void __vperfctr_setaffinity(struct task_struct *tsk, const struct cpumask *mask);

/*
 * Thread-management hooks.  A thread has a state attached exactly when
 * TIF_PERFCTR is set, so each hook costs one flag test for other threads;
 * on x86 TIF_PERFCTR is part of the context-switch work mask and the
 * switch hooks are not even reached for them.
 */

/* copy_thread(): the child starts without counters (see perfctr_fork()). */
static inline void perfctr_copy_thread(struct task_struct *child)
{
	child->thread.perfctrs = NULL;
	clear_tsk_thread_flag(child, TIF_PERFCTR);
}

/*
 * copy_process(), after copy_thread() succeeded, in the parent: a child
 * of a thread whose control asks for it (VPERFCTR_CONTROL_INHERIT, and
 * VPERFCTR_CONTROL_INHERIT_THREAD for CLONE_THREAD) gets a state of its
 * own with the same control.  A later failure of the fork undoes it in
 * exit_thread().
 */
static inline void perfctr_fork(struct task_struct *child, u64 clone_flags)
{
	if (test_thread_flag(TIF_PERFCTR))
		__vperfctr_fork(child, clone_flags);
}

/*
 * exit_thread(): stop the counters and detach the state; an inherited
 * state's totals go to its parent's children's sums.
 */
static inline void perfctr_exit_thread(struct task_struct *tsk)
{
	if (test_tsk_thread_flag(tsk, TIF_PERFCTR))
		__vperfctr_exit(tsk);
}

/*
 * switch_to(), interrupts off, and only for a thread whose TIF_PERFCTR
 * the caller found set (x86: in the flags __switch_to_xtra() already
 * read), so the hot path tests it once: suspend prev's counters.
 */
static inline void perfctr_suspend_thread(struct task_struct *prev)
{
	__vperfctr_suspend(prev->thread.perfctrs);
}

/* The same for next: resume its counters. */
static inline void perfctr_resume_thread(struct task_struct *next)
{
	__vperfctr_resume(next->thread.perfctrs);
}

/*
 * switch_to(), after the two above, when prev had a state: the counts
 * prev's counters hold and next's did not claim go (x86, where next's mm
 * may read the counters by RDPMC).
 */
static inline void perfctr_switch_done(void)
{
	perfctr_cpu_unclaim();
}

/* Timer tick, interrupts off: sample before a hardware counter wraps. */
static inline void perfctr_sample_thread(struct task_struct *tsk)
{
	if (test_tsk_thread_flag(tsk, TIF_PERFCTR))
		__vperfctr_sample(tsk->thread.perfctrs);
}

/* exec: unlink when asked to (VPERFCTR_CONTROL_CLOEXEC) or setuid. */
static inline void perfctr_exec_thread(struct task_struct *tsk, bool secure)
{
	if (test_tsk_thread_flag(tsk, TIF_PERFCTR))
		__vperfctr_exec(tsk, secure);
}

/*
 * sched_setaffinity(), before the change: a thread that asks for a CPU
 * its control cannot run on gets SIGILL there, where any other move only
 * stops its counters.
 */
static inline void perfctr_setaffinity(struct task_struct *tsk, const struct cpumask *mask)
{
	if (tsk == current && test_tsk_thread_flag(tsk, TIF_PERFCTR))
		__vperfctr_setaffinity(tsk, mask);
}

/*
 * switch_to() of an architecture without a context-switch work mask
 * (powerpc), just before the stack switch: suspend prev's counters, then
 * resume next's.  One hook, where the caller still holds both tasks'
 * thread_structs in registers, so a kernel that has perfctr and does not
 * use it pays one no-op instruction (the static branch) and keeps no
 * extra value live across __switch_to(); the flag tests and the calls lie
 * out of line.  All of it compiles away without CONFIG_PERFCTR_VIRTUAL.
 */
static inline void perfctr_switch(struct task_struct *prev, struct task_struct *next)
{
	if (static_branch_unlikely(&perfctr_switch_hooks)) {
		if (unlikely(test_tsk_thread_flag(prev, TIF_PERFCTR)))
			perfctr_suspend_thread(prev);
		if (unlikely(test_tsk_thread_flag(next, TIF_PERFCTR)))
			perfctr_resume_thread(next);
	}
}
#else
static inline void perfctr_copy_thread(struct task_struct *child) { }
static inline void perfctr_fork(struct task_struct *child, u64 clone_flags) { }
static inline void perfctr_exit_thread(struct task_struct *tsk) { }
static inline void perfctr_suspend_thread(struct task_struct *prev) { }
static inline void perfctr_resume_thread(struct task_struct *next) { }
static inline void perfctr_switch_done(void) { }
static inline void perfctr_sample_thread(struct task_struct *tsk) { }
static inline void perfctr_exec_thread(struct task_struct *tsk, bool secure) { }
static inline void perfctr_setaffinity(struct task_struct *tsk,
				       const struct cpumask *mask) { }
static inline void perfctr_switch(struct task_struct *prev, struct task_struct *next) { }
#endif /* CONFIG_PERFCTR_VIRTUAL */

#endif /* _LINUX_PERFCTR_H */
