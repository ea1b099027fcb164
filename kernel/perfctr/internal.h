/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The virtual per-thread counters' state, shared by kernel/perfctr/'s
 * files: virtual.c (the state, its switch path, overflows, exit and
 * exec), pmu.c (access and the PMU reservation), inherit.c and
 * syscalls.c (the files and the system calls).
 */
#ifndef _KERNEL_PERFCTR_INTERNAL_H
#define _KERNEL_PERFCTR_INTERNAL_H

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/irq_work.h>
#include <linux/list.h>
#include <linux/perfctr.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/task_work.h>
#include <linux/types.h>

#include "virtual.h"

/*
 * Overflow throttling: at most this many i-mode overflows of a thread
 * are restarted by vperfctr_iresume() within one tick (8,000 a second at
 * HZ=250, twice perf record's default rate).  Beyond it the i-mode
 * counters stay stopped until the next tick restarts them, so that a
 * period shorter than the overflow's own cost (signal, handler,
 * iresume) cannot keep the thread from running its own code.
 */
#define VPERFCTR_MAX_OVERFLOWS_PER_TICK	32

struct vperfctr {
	refcount_t refcnt;
	struct task_struct *owner;	/* NULL once detached; task_lock() */
	struct vperfctr_state *state;	/* page_address(page) */
	struct page *page;
	unsigned int sample_ticks;	/* ticks until the next sample */
	unsigned int sample_period;	/* ticks between samples (the control's) */
	int si_signo;
	unsigned int flags;		/* VPERFCTR_CONTROL_* */
	bool has_pmu;			/* holds a PMU reservation; reserve_mutex */
	struct list_head pmu_node;	/* on vperfctr_pmu_holders, while has_pmu */
	bool suspended;			/* by vperfctr_suspend(): suspend_cstatus */
	struct mm_struct *rdpmc_mm;	/* its count of user reads, mmgrab()ed */
	/*
	 * After an i-mode overflow: the cstatus that vperfctr_iresume()
	 * restores (0 when not suspended by an overflow), and the overflown
	 * counters not yet signalled with the signal of the control that
	 * overflowed (ovf_signo), sent by signal_work in the owner's own
	 * context on its way back to user space.
	 */
	unsigned int iresume_cstatus;
	atomic_t ovf_mask;
	int ovf_signo;
	/*
	 * Suspended by vperfctr_suspend() (suspended): the cstatus
	 * vperfctr_resume() restores.  The control, its sums and the PMU
	 * stay; an overflow iresumed meanwhile is restored with the rest.
	 * (Here and beside has_pmu, in what was padding: the struct stays
	 * within its kmalloc size.)
	 */
	unsigned int suspend_cstatus;
	/*
	 * Overflows in tick ovf_tick (jiffies), and throttled: an iresume
	 * beyond VPERFCTR_MAX_OVERFLOWS_PER_TICK was left to the next tick
	 * (which NO_HZ_FULL keeps running meanwhile).  "The next tick" is
	 * any jiffies value but ovf_tick: a stamp may be weeks old, and
	 * time_after() against it turns false after 2^31 ticks (24.8 days
	 * at HZ=1000 on a 32-bit kernel), which would hold the counters
	 * back for as long again (vperfctr_new_tick()).
	 */
	unsigned long ovf_tick;
	unsigned int ovf_count;
	bool throttled;
	bool tick_dep;			/* holds the owner's tick dependency */
	/*
	 * The lowest kernel.perfctr_access that allows the control in force
	 * (vperfctr_may_use()), raised under the reserve mutex by the PMU
	 * reservation of a control being installed: when the sysctl goes
	 * below it, the state stops at its owner's next switch-in or tick
	 * (vperfctr_revoke()).
	 */
	int access_needed;
	/*
	 * Set (release) at the end of the detach, after the PMU release and,
	 * with inheritance, the merge: a reader of a detached state waits
	 * for it, so what it reads next (its parent's children's sums) has
	 * the merge in it.
	 */
	bool detached;
	unsigned long pending;		/* VPERFCTR_PENDING_* bits */
	struct callback_head signal_work;
	struct irq_work signal_irq_work;	/* queues it from an NMI */
	/*
	 * The CPUs on which the control cannot run (forbidden_on: there are
	 * some): the thread's affinity excludes them from the control on, and
	 * a resume on one of them stops the counters (vperfctr_forbidden_cpu()).
	 */
	bool forbidden_on;
	cpumask_var_t forbidden;
	/*
	 * SIGILL for a resume on a forbidden CPU only when the owner asked
	 * for one (own_move: its last sched_setaffinity() on itself allowed
	 * a forbidden CPU) under a control its own program installed
	 * (own_control: set by the owner's vperfctr_control(), kept by
	 * inheritance, cleared at exec).  Other moves (a cpuset, CPU
	 * hotplug, another task) only stop the counters.
	 */
	bool own_control;
	bool own_move;
	/*
	 * vperfctr_control()'s forbidden CPUs: here rather than allocated per
	 * call.  Only one control runs at a time: the owner's own, or its
	 * tracer's while it is frozen.
	 */
	cpumask_var_t new_forbidden;
	/*
	 * Inheritance.  control_id names the control in force (a child
	 * created by inheritance starts with its parent's); inherited_id
	 * is the control a child had at its fork.  A state that inherits or
	 * is inherited from belongs to a tree (struct vperfctr_tree), whose
	 * lock guards inherit_parent -- the state a child's totals go to,
	 * referenced -- and the lists of inheriting children.  When a
	 * state's owner goes, its totals go to its parent and its children
	 * to its parent too, as the kernel reparents a dead process's
	 * children (vperfctr_merge_up()): no state stays allocated for its
	 * descendants' sake, and no merge walks the tree.  children_lock
	 * serialises the changes of state->children with those of
	 * control_id.
	 */
	u64 control_id;
	u64 inherited_id;
	struct vperfctr_tree *tree;
	struct vperfctr *inherit_parent;
	struct list_head inherit_children;
	struct list_head inherit_sibling;	/* in inherit_parent's list */
	bool exited;			/* detached by its owner's exit */
	bool aborted;			/* its fork failed after all */
	spinlock_t children_lock;
};

/*
 * perfctr->pending: a SIGILL is owed for a resume on a forbidden CPU;
 * signal_work is queued on the owner (and holds a reference).
 */
#define VPERFCTR_PENDING_SIGILL	0
#define VPERFCTR_PENDING_WORK	1
#define VPERFCTR_PENDING_REVOKE	2	/* release the PMU: access revoked */

static inline struct perfctr_cpu_state *cpu_state(struct vperfctr *perfctr)
{
	return &perfctr->state->cpu_state;
}

/*
 * Every change of the mapped state is bracketed by these so that a user
 * space reader can tell it raced with one (the sequence is odd during an
 * update, and different afterwards).
 */
static inline void vperfctr_write_begin(struct vperfctr *perfctr)
{
	struct perfctr_cpu_state *st = cpu_state(perfctr);

	WRITE_ONCE(st->sequence, st->sequence + 1);
	/* Odd sequence before the data changes; pairs with the reader's. */
	smp_wmb();
}

static inline void vperfctr_write_end(struct vperfctr *perfctr)
{
	struct perfctr_cpu_state *st = cpu_state(perfctr);

	/* The data before the even sequence; pairs with the reader's. */
	smp_wmb();
	WRITE_ONCE(st->sequence, st->sequence + 1);
}

/*
 * The children's sums change under children_lock, from any thread; the
 * sequence lets the owner read them from its mapping without the lock.
 */
static inline void vperfctr_children_begin(struct vperfctr_children *c)
{
	WRITE_ONCE(c->sequence, c->sequence + 1);
	/* Odd before the sums change; pairs with the reader's acquire loads. */
	smp_wmb();
}

static inline void vperfctr_children_end(struct vperfctr_children *c)
{
	/* The sums before the even sequence; pairs with the reader's fence. */
	smp_wmb();
	WRITE_ONCE(c->sequence, c->sequence + 1);
}

extern atomic_t vperfctr_nr_states;
extern int sysctl_perfctr_access;

/* virtual.c */
unsigned int vperfctr_sample_period(const struct perfctr_cpu_state *st);
void vperfctr_discard_overflow(struct vperfctr *perfctr);
void vperfctr_update_tick_dep(struct vperfctr *perfctr, struct task_struct *tsk);
bool vperfctr_new_tick(const struct vperfctr *perfctr);
bool vperfctr_revoked(const struct vperfctr *perfctr);
void vperfctr_note_stop(struct vperfctr *perfctr, u32 why);
void vperfctr_suspend_locked(struct vperfctr *perfctr);
void vperfctr_resume_locked(struct vperfctr *perfctr);
void vperfctr_sample_locked(struct vperfctr *perfctr);
void vperfctr_iresume_locked(struct vperfctr *perfctr, bool is_current);
void vperfctr_ihandler(unsigned long pc);
void vperfctr_put(struct vperfctr *perfctr);
struct vperfctr *vperfctr_alloc(void);
void vperfctr_detach(struct vperfctr *perfctr, struct task_struct *tsk);

/* pmu.c */
int vperfctr_get_pmu(struct vperfctr *perfctr, int access);
void vperfctr_grant_rdpmc(struct vperfctr *perfctr, struct task_struct *tsk);
void vperfctr_revoke_rdpmc(struct vperfctr *perfctr);
void vperfctr_put_pmu(struct vperfctr *perfctr);
void __init vperfctr_pmu_init(void);
int vperfctr_may_use(bool pmcs, int *needed);
int vperfctr_may_count_kernel(void);
/* For the x86 driver's KUnit suite: arch/x86/perfctr/kunit.h. */
int vperfctr_kunit_grant_rdpmc(struct task_struct *tsk);

/* inherit.c */
void vperfctr_get_children(struct vperfctr *perfctr, struct vperfctr_children *children);
struct vperfctr *vperfctr_merge_up(struct vperfctr *child);

#endif
