// SPDX-License-Identifier: GPL-2.0
/*
 * Virtual per-thread performance counters.
 *
 * A thread's counter state is a struct vperfctr: an object of its own,
 * reference counted by the thread it is attached to and by every open
 * file of the vperfctrfs pseudo filesystem that names it.  Its counters
 * live in one zeroed page (struct vperfctr_state) that the owner maps
 * read-only to read the counters without a system call.
 *
 * Who touches a state (Documentation/userspace-api/perfctr/virtual.rst):
 *  - the owner thread itself: context switches, the timer tick, its own
 *    system calls, exec and exit.  These run with interrupts off while
 *    they change the live state, so they never interleave;
 *  - a tracer, only while the owner is stopped under ptrace and frozen
 *    there (ptrace_freeze_stopped_child()), so the owner runs none of the
 *    above meanwhile;
 *  - anyone holding a file of a state no longer attached: read only;
 *  - an inheriting descendant's final totals, merged into its children's
 *    sums (state->children) from whatever thread finishes it, under
 *    children_lock.
 * task_lock() of the owner guards the attach and detach of the state.
 */
#include <linux/capability.h>
#include <linux/compiler.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/mount.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/perfctr.h>
#include <linux/pid.h>
#include <linux/proc_fs.h>
#include <linux/ptrace.h>
#include <linux/pseudo_fs.h>
#include <linux/perf_event.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/signal.h>
#include <linux/slab.h>
#include <linux/syscalls.h>
#include <linux/sysctl.h>
#include <linux/task_work.h>
#include <linux/tick.h>
#include <linux/uaccess.h>
#include <linux/wait_bit.h>
#include <uapi/linux/magic.h>

#include "virtual.h"

/*
 * Sample at least this often while a thread runs.  Sums fold at each
 * counter's width: 40 to 48 bits take hours to wrap at any event rate.
 * 32-bit counters (powerpc's, the P4's fast RDPMC, the Cyrix and VIA C3
 * low halves) are sampled at every tick: a POWER10 core passes 2^32
 * completed instructions or dispatches in 130 to 250 ms, and a counter
 * that wraps twice between two folds loses 2^32 events without a trace.
 * At HZ = 100 a tick is 10 ms, a 16th of that.
 */
#define VPERFCTR_SAMPLE_TICKS	max(HZ / 4, 1)

static unsigned int vperfctr_sample_period(const struct perfctr_cpu_state *st)
{
	unsigned int i, nrctrs = perfctr_cstatus_nrctrs(st->cstatus);

	for (i = 0; i < nrctrs; i++)
		if (st->pmc[i].width <= 32)
			return 1;
	return VPERFCTR_SAMPLE_TICKS;
}

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
	 * (vperfctr_may_use()): when the sysctl goes below it, the state
	 * stops at its owner's next switch-in or tick (vperfctr_revoke()).
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
	/*
	 * The CPUs on which the control cannot run (forbidden_on: there are
	 * some): the thread's affinity excludes them from the control on, and
	 * a resume on one of them stops the counters (vperfctr_forbidden_cpu()).
	 */
	bool forbidden_on;
	cpumask_var_t forbidden;
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

/*
 * Who may use perfctr: the kernel's own rules for perf_events, plus
 * kernel.perfctr_access (Documentation/userspace-api/perfctr/virtual.rst,
 * "Privileges"):
 *   3            every user: the TSC and programmable counters (user-mode
 *                events; kernel mode as perf_event_paranoid allows);
 *   2 (default)  every user the TSC; programmable counters only for
 *                perfmon_capable() callers;
 *   1            perfmon_capable() callers only;
 *   0            nobody: perfctr is off (perfctr_info() still answers).
 * Programmable counters are exclusive: while a state holds them, perf's
 * hardware events, the NMI watchdog on CPUs coming online and KVM's
 * mediated vPMUs are refused.  perf_event_paranoid 2 lets users count
 * their own tasks but never hold the PMU, so neither does the default.
 * perf_event_paranoid above 2 (Debian's and Android's "no perf for
 * unprivileged users") keeps out all but CAP_SYS_ADMIN, as it keeps them
 * out of perf_event_open(); LSMs are asked as for perf_event_open().
 * Checked with the caller's credentials when it creates or programs a
 * state: a tracer programming its tracee needs the rights itself.
 * Lowering the sysctl takes back what the new level does not allow, from
 * every state, running or not (vperfctr_revoke_holders()): a state
 * running on a CPU stops there at once, one that does not run stops at
 * its owner's next switch-in (vperfctr_revoke()), and the PMU goes back
 * before the write returns, even from a stopped or blocked owner.
 */
#define VPERFCTR_ACCESS_USERS_PMCS	3
#define VPERFCTR_ACCESS_USERS_TSC	2
#define VPERFCTR_ACCESS_CAPABLE		1
static int sysctl_perfctr_access __read_mostly = VPERFCTR_ACCESS_USERS_TSC;

DEFINE_STATIC_KEY_FALSE(perfctr_switch_hooks);

static struct vfsmount *vperfctr_mnt __ro_after_init;
static DEFINE_MUTEX(vperfctr_reserve_mutex);
static atomic64_t vperfctr_control_ids;	/* the last control_id given */
static unsigned int vperfctr_nr_pmu_users;	/* vperfctr_reserve_mutex */
/* The states holding the PMU (has_pmu): /proc/perfctr_pmu lists them. */
static LIST_HEAD(vperfctr_pmu_holders);	/* vperfctr_reserve_mutex */

#ifdef CONFIG_PERFCTR_INTERRUPT_SUPPORT
/*
 * The state whose counters run on this CPU: set by a resume, cleared by
 * the suspend.  The overflow interrupt acts on it, not on current: on
 * ppc64 with the radix MMU the performance monitor interrupt is not
 * hard-disabled around _switch(), so it can come after __switch_to()
 * resumed next's counters, or before it suspended prev's, with current
 * still prev (vperfctr_ihandler()).
 */
static DEFINE_PER_CPU(struct vperfctr *, vperfctr_running);

static inline void vperfctr_set_running(struct vperfctr *perfctr)
{
	__this_cpu_write(vperfctr_running, perfctr);
}

/*
 * Every suspend is of the state running here (current's, or the
 * interrupt's vperfctr_running), or of one whose resume did not start
 * it, after which nothing runs here: so no test.
 */
static inline void vperfctr_clear_running(void)
{
	__this_cpu_write(vperfctr_running, NULL);
}
#else
static inline void vperfctr_set_running(struct vperfctr *perfctr) { }
static inline void vperfctr_clear_running(void) { }
#endif

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
 * Queue signal_work on the owner, whose counters are being suspended or
 * resumed right now (it is current, or prev/next in the context switch):
 * task_work runs it in the owner's own context before it returns to user
 * space, so the signal is sent where sending may sleep (PREEMPT_RT), by
 * the owner itself (si_pid survives PID namespaces), and before the owner
 * runs another user instruction.  The overflow interrupt may be an NMI
 * (ppc64): TWA_NMI_CURRENT then.  Lock-free; interrupts off.
 */
static void vperfctr_queue_signal(struct vperfctr *perfctr)
{
	struct task_struct *owner = READ_ONCE(perfctr->owner);

	if (!owner || test_and_set_bit(VPERFCTR_PENDING_WORK, &perfctr->pending))
		return;
	refcount_inc(&perfctr->refcnt);
	/*
	 * TWA_NMI_CURRENT is for current only; a ppc64 NMI inside the
	 * context switch may act for next (vperfctr_ihandler()), which has
	 * not returned to user space yet: TWA_RESUME's flag is enough.
	 */
	if (task_work_add(owner, &perfctr->signal_work,
			  in_nmi() && owner == current ? TWA_NMI_CURRENT : TWA_RESUME)) {
		/* The owner is past exit_task_work(): nothing to tell it. */
		clear_bit(VPERFCTR_PENDING_WORK, &perfctr->pending);
		refcount_dec(&perfctr->refcnt);	/* the owner holds one */
	}
}

/*
 * Forget an overflow not yet signalled: the control that overflowed is
 * being replaced, stopped or unlinked, and its signal must not reach the
 * next one.  With the overflow interrupt off.
 */
static void vperfctr_update_tick_dep(struct vperfctr *perfctr, struct task_struct *tsk);

static void vperfctr_discard_overflow(struct vperfctr *perfctr)
{
	atomic_set(&perfctr->ovf_mask, 0);
	perfctr->iresume_cstatus = 0;
	if (perfctr->throttled) {
		perfctr->throttled = false;
		vperfctr_update_tick_dep(perfctr, perfctr->owner);
	}
}

/*
 * The owner's tick dependency (NO_HZ_FULL), for the samples the tick
 * takes: while throttled (the tick ends the throttle), and while the
 * state has programmable counters on a system with nohz_full CPUs --
 * sums fold at the counters' full width, but only if something samples
 * them in the hours a 48-bit counter takes to wrap, and a task alone on
 * a nohz_full CPU may enter the kernel never.
 */
static void vperfctr_update_tick_dep(struct vperfctr *perfctr, struct task_struct *tsk)
{
	bool want = perfctr->throttled || (perfctr->has_pmu && tick_nohz_full_enabled());

	if (want == perfctr->tick_dep || !tsk)
		return;
	perfctr->tick_dep = want;
	if (want)
		tick_dep_set_task(tsk, TICK_DEP_BIT_PERF_EVENTS);
	else
		tick_dep_clear_task(tsk, TICK_DEP_BIT_PERF_EVENTS);
}

/* Is this tick another than the one of @perfctr's last overflow? */
static bool vperfctr_new_tick(const struct vperfctr *perfctr)
{
	unsigned long now = jiffies;

	return now != perfctr->ovf_tick;
}

/*
 * An i-mode counter overflowed (found at a suspend): re-arm it, keep only
 * the TSC running until vperfctr_iresume(), and signal the owner with
 * this control's signal.  Inside a write section, interrupts off.
 */
static void vperfctr_overflow(struct vperfctr *perfctr)
{
	struct perfctr_cpu_state *st = cpu_state(perfctr);
	unsigned int mask = perfctr_cpu_identify_overflow(st);

	if (!mask)
		return;
	perfctr_cpu_ireload(st);
	perfctr->iresume_cstatus = st->cstatus;
	st->cstatus = perfctr_cstatus_has_tsc(st->cstatus) ? perfctr_mk_cstatus(1, 0, 0) : 0;
	if (vperfctr_new_tick(perfctr)) {
		perfctr->ovf_tick = jiffies;
		perfctr->ovf_count = 0;
	}
	perfctr->ovf_count++;
	WRITE_ONCE(perfctr->ovf_signo, perfctr->si_signo);
	atomic_or(mask, &perfctr->ovf_mask);
	vperfctr_queue_signal(perfctr);
}

static void vperfctr_mark_stopped(struct vperfctr *perfctr);

/*
 * kernel.perfctr_access went below what the state's control needs: stop
 * the counters, keeping their sums (readers see them stopped, and the
 * next control is refused with EACCES), and have the owner release the
 * PMU in its own context (vperfctr_signal_work()).  Inside a resume or a
 * sample, interrupts off.
 */
static bool vperfctr_revoked(const struct vperfctr *perfctr)
{
	return unlikely(perfctr->access_needed > READ_ONCE(sysctl_perfctr_access));
}

static void vperfctr_revoke(struct vperfctr *perfctr)
{
	vperfctr_mark_stopped(perfctr);
	vperfctr_discard_overflow(perfctr);
	if (READ_ONCE(perfctr->has_pmu)) {
		set_bit(VPERFCTR_PENDING_REVOKE, &perfctr->pending);
		vperfctr_queue_signal(perfctr);
	}
}

/* Called with interrupts (and the overflow interrupt) off on the owner's CPU. */
static void vperfctr_suspend_locked(struct vperfctr *perfctr)
{
	struct perfctr_cpu_state *st = cpu_state(perfctr);

	if (!perfctr_cstatus_enabled(st->cstatus))
		return;
	vperfctr_clear_running();
	vperfctr_write_begin(perfctr);
	perfctr_cpu_suspend(st);
	if (perfctr_cstatus_has_ictrs(st->cstatus))
		vperfctr_overflow(perfctr);
	vperfctr_write_end(perfctr);
}

/*
 * Mark a suspended state's counters stopped, for readers of the page
 * too, with nothing for vperfctr_iresume() or vperfctr_resume() to
 * restart.
 */
static void vperfctr_mark_stopped(struct vperfctr *perfctr)
{
	vperfctr_write_begin(perfctr);
	cpu_state(perfctr)->cstatus = 0;
	perfctr_tsc_refresh(cpu_state(perfctr));
	vperfctr_write_end(perfctr);
	perfctr->iresume_cstatus = 0;
	perfctr->suspended = false;
	perfctr->suspend_cstatus = 0;
}

/*
 * A state suspended by vperfctr_suspend() runs nothing, but holds its
 * control and the PMU: lowering kernel.perfctr_access takes them back
 * all the same, at the owner's next switch-in or tick.
 */
static void vperfctr_revoke_suspended(struct vperfctr *perfctr)
{
	if (unlikely(perfctr->suspended) && vperfctr_revoked(perfctr))
		vperfctr_revoke(perfctr);
}

/*
 * The owner runs on a CPU its control cannot run on (its affinity was
 * widened again after the control, or a cpuset or CPU hotplug moved it):
 * virtual.rst's rule -- stop the counters, keeping their sums, and send
 * the owner SIGILL.  Inside the resume, interrupts off.
 */
static void vperfctr_forbidden_cpu(struct vperfctr *perfctr)
{
	vperfctr_mark_stopped(perfctr);
	set_bit(VPERFCTR_PENDING_SIGILL, &perfctr->pending);
	vperfctr_queue_signal(perfctr);
}

static void vperfctr_resume_locked(struct vperfctr *perfctr)
{
	if (!perfctr_cstatus_enabled(cpu_state(perfctr)->cstatus)) {
		vperfctr_revoke_suspended(perfctr);
		return;
	}
	if (vperfctr_revoked(perfctr)) {
		vperfctr_revoke(perfctr);
		return;
	}
	if (unlikely(perfctr->forbidden_on) &&
	    cpumask_test_cpu(smp_processor_id(), perfctr->forbidden)) {
		vperfctr_forbidden_cpu(perfctr);
		return;
	}
	vperfctr_write_begin(perfctr);
	perfctr_cpu_resume(cpu_state(perfctr));
	vperfctr_write_end(perfctr);
	vperfctr_set_running(perfctr);
	perfctr->sample_ticks = perfctr->sample_period;
}

static void vperfctr_sample_locked(struct vperfctr *perfctr)
{
	if (!perfctr_cstatus_enabled(cpu_state(perfctr)->cstatus)) {
		vperfctr_revoke_suspended(perfctr);
		return;
	}
	if (vperfctr_revoked(perfctr)) {
		vperfctr_suspend_locked(perfctr);
		vperfctr_revoke(perfctr);
		return;
	}
	vperfctr_write_begin(perfctr);
	perfctr_cpu_sample(cpu_state(perfctr));
	vperfctr_write_end(perfctr);
	perfctr->sample_ticks = perfctr->sample_period;
}

/*
 * Restart the i-mode counters an overflow stopped; in a state suspended
 * by vperfctr_suspend(), only re-arm them for vperfctr_resume().
 * Interrupts (and the overflow interrupt) off; @is_current: the owner is
 * current, else it is frozen off-CPU by its tracer.
 */
static void vperfctr_iresume_locked(struct vperfctr *perfctr, bool is_current)
{
	struct perfctr_cpu_state *st = cpu_state(perfctr);

	if (perfctr->suspended) {
		vperfctr_write_begin(perfctr);
		perfctr->suspend_cstatus = perfctr->iresume_cstatus;
		perfctr_cpu_ireload(st);
		vperfctr_write_end(perfctr);
		perfctr->iresume_cstatus = 0;
		return;
	}
	if (is_current)
		vperfctr_suspend_locked(perfctr);
	vperfctr_write_begin(perfctr);
	st->cstatus = perfctr->iresume_cstatus;
	perfctr_cpu_ireload(st);
	perfctr_tsc_refresh(st);
	vperfctr_write_end(perfctr);
	perfctr->iresume_cstatus = 0;
	if (is_current)
		vperfctr_resume_locked(perfctr);
}

/*
 * The thread-management hooks (include/linux/perfctr.h), called with
 * interrupts off; where the overflow interrupt is an NMI unless masked
 * on its own (ppc64), it is masked too around a state with i-mode
 * counters.  Only those raise it: a state without them runs the PMU with
 * the interrupt disabled (or leaves the PMU alone, TSC only), so nothing
 * of its own can interrupt its switch, and an interrupt another state
 * left pending finds no running state, as it would a moment later.
 */
static inline bool vperfctr_pmi_mask(struct vperfctr *perfctr)
{
	return perfctr_pmi_is_nmi() &&
	       perfctr_cstatus_has_ictrs(READ_ONCE(cpu_state(perfctr)->cstatus));
}

void __vperfctr_suspend(struct vperfctr *perfctr)
{
	unsigned long flags;

	if (!vperfctr_pmi_mask(perfctr)) {
		vperfctr_suspend_locked(perfctr);
		return;
	}
	perfctr_pmi_save(flags);
	vperfctr_suspend_locked(perfctr);
	perfctr_pmi_restore(flags);
}

void __vperfctr_resume(struct vperfctr *perfctr)
{
	unsigned long flags;

	if (!vperfctr_pmi_mask(perfctr)) {
		vperfctr_resume_locked(perfctr);
		return;
	}
	perfctr_pmi_save(flags);
	vperfctr_resume_locked(perfctr);
	perfctr_pmi_restore(flags);
}

void __vperfctr_sample(struct vperfctr *perfctr)
{
	unsigned long flags;

	if (unlikely(perfctr->throttled) && vperfctr_new_tick(perfctr)) {
		/* A new tick: restart what the throttle held back. */
		perfctr_pmi_save(flags);
		perfctr->throttled = false;
		vperfctr_update_tick_dep(perfctr, current);
		vperfctr_iresume_locked(perfctr, true);
		perfctr_pmi_restore(flags);
	}
	if (perfctr->sample_ticks > 1) {
		perfctr->sample_ticks--;
		return;
	}
	perfctr_pmi_save(flags);
	vperfctr_sample_locked(perfctr);
	perfctr_pmi_restore(flags);
}

#ifdef CONFIG_PERFCTR_INTERRUPT_SUPPORT
/*
 * The overflow interrupt, on the CPU whose counters overflowed; maybe an
 * NMI, but never inside one of the sections above.  It acts on the state
 * running on this CPU, which is current's except inside the context
 * switch: on ppc64 with the radix MMU, between the resume of next's
 * counters and _switch() current is still prev, whose counters are
 * suspended -- suspending and resuming prev there would fold next's
 * counts into prev's sums, add prev's TSC interval twice and load prev's
 * control under next.  With nothing running here (a late interrupt
 * after the suspend) there is nothing to do: the suspend has found the
 * overflow.  The suspend finds the overflown counters
 * (vperfctr_overflow()); the resume restarts what still runs.  An
 * interrupt for a state without i-mode counters (a late one, after a
 * control change) just samples it.
 */
static void vperfctr_ihandler(unsigned long pc)
{
	struct vperfctr *perfctr = __this_cpu_read(vperfctr_running);

	if (!perfctr)
		return;
	vperfctr_suspend_locked(perfctr);
	vperfctr_resume_locked(perfctr);
}
#endif

static void vperfctr_put(struct vperfctr *perfctr);
static void vperfctr_put_pmu(struct vperfctr *perfctr);

/*
 * task_work, in the owner's context: send it what it is owed -- the
 * overflow signal of the control that overflowed (si_pmc_ovf_mask is the
 * first int of _sifields), unless that control was replaced meanwhile,
 * and SIGILL (si_code SI_KERNEL) after a resume on a forbidden CPU.  The
 * kernel's own queueing rules apply: a real-time signal counts against
 * RLIMIT_SIGPENDING, another one is queued at most once; and there is at
 * most one overflow per vperfctr_iresume().
 */
static void vperfctr_signal_work(struct callback_head *work)
{
	struct vperfctr *perfctr = container_of(work, struct vperfctr, signal_work);
	struct kernel_siginfo si;
	unsigned int mask;
	bool sigill, revoke;
	int signo;

	clear_bit(VPERFCTR_PENDING_WORK, &perfctr->pending);
	/* A new overflow after this point queues the work again. */
	smp_mb__after_atomic();
	mask = atomic_xchg(&perfctr->ovf_mask, 0);
	signo = READ_ONCE(perfctr->ovf_signo);
	sigill = test_and_clear_bit(VPERFCTR_PENDING_SIGILL, &perfctr->pending);
	revoke = test_and_clear_bit(VPERFCTR_PENDING_REVOKE, &perfctr->pending);
	if (READ_ONCE(perfctr->owner) == current) {
		/*
		 * Access revoked: give the PMU back, unless a control that
		 * was allowed (validated before the sysctl changed) has
		 * started counters since, or the control in force now is
		 * allowed -- a new one, installed (and maybe suspended) by a
		 * tracer while this work waited, cleared the bit, but not
		 * before it was taken here.  The owner's own context, as its
		 * system calls: nothing else changes the state meanwhile.
		 */
		if (revoke && vperfctr_revoked(perfctr) &&
		    !perfctr_cstatus_enabled(cpu_state(perfctr)->cstatus)) {
			vperfctr_put_pmu(perfctr);
			vperfctr_update_tick_dep(perfctr, current);
		}
		if (mask && valid_signal(signo) && signo) {
			clear_siginfo(&si);
			si.si_signo = signo;
			si.si_code = SI_PMC_OVF;
			/* SIL_KILL layout for this si_code: compat copies si_pid too. */
			si.si_pid = mask;
			send_sig_info(signo, &si, current);
		}
		if (sigill)
			send_sig_info(SIGILL, SEND_SIG_PRIV, current);
	}
	vperfctr_put(perfctr);
}

/*
 * PMU reservation: held while at least one state has a control with
 * programmable counters, so that perf_events' hardware events and a
 * thread using only the TSC do not exclude each other.
 */
static int vperfctr_get_pmu(struct vperfctr *perfctr)
{
	const char *other = NULL;

	mutex_lock(&vperfctr_reserve_mutex);
	if (perfctr->has_pmu) {
		mutex_unlock(&vperfctr_reserve_mutex);
		return 0;
	}
	if (!vperfctr_nr_pmu_users) {
		other = perfctr_cpu_reserve(VPERFCTR_SERVICE);
#ifdef CONFIG_PERFCTR_INTERRUPT_SUPPORT
		if (!other)
			perfctr_cpu_set_ihandler(vperfctr_ihandler);
#endif
	}
	if (!other) {
		vperfctr_nr_pmu_users++;
		perfctr->has_pmu = true;
		list_add_tail(&perfctr->pmu_node, &vperfctr_pmu_holders);
	}
	mutex_unlock(&vperfctr_reserve_mutex);
	if (other) {
		pr_info_ratelimited("perfctr: the performance counters are in use by %s\n",
				    other);
		return -EBUSY;
	}
	return 0;
}

/*
 * User-space reads of the counters (perfctr_cpu_rdpmc_get()): granted on
 * the owner's mm while the state holds the PMU, moved to the new mm at
 * exec, revoked with the PMU.  rdpmc_mm changes under
 * vperfctr_reserve_mutex, as has_pmu does: the sysctl's revocation
 * takes both from a state whose owner may be running its own system
 * call meanwhile.
 */
static void vperfctr_grant_rdpmc(struct vperfctr *perfctr, struct task_struct *tsk)
{
	struct mm_struct *mm = tsk->mm;

	/* Already granted, or nothing to grant: no lock (rechecked under it). */
	if (!mm || READ_ONCE(perfctr->rdpmc_mm) || !READ_ONCE(perfctr->has_pmu))
		return;
	mutex_lock(&vperfctr_reserve_mutex);
	if (!perfctr->rdpmc_mm && perfctr->has_pmu && perfctr_cpu_rdpmc_get(mm)) {
		mmgrab(mm);
		perfctr->rdpmc_mm = mm;
	}
	mutex_unlock(&vperfctr_reserve_mutex);
}

static void __vperfctr_revoke_rdpmc(struct vperfctr *perfctr)
{
	struct mm_struct *mm = perfctr->rdpmc_mm;

	lockdep_assert_held(&vperfctr_reserve_mutex);
	if (mm) {
		perfctr->rdpmc_mm = NULL;
		perfctr_cpu_rdpmc_put(mm);
		mmdrop(mm);
	}
}

static void vperfctr_revoke_rdpmc(struct vperfctr *perfctr)
{
	mutex_lock(&vperfctr_reserve_mutex);
	__vperfctr_revoke_rdpmc(perfctr);
	mutex_unlock(&vperfctr_reserve_mutex);
}

static void __vperfctr_put_pmu(struct vperfctr *perfctr)
{
	lockdep_assert_held(&vperfctr_reserve_mutex);
	if (!perfctr->has_pmu)
		return;
	__vperfctr_revoke_rdpmc(perfctr);
	perfctr->has_pmu = false;
	list_del(&perfctr->pmu_node);
	if (!--vperfctr_nr_pmu_users)
		perfctr_cpu_release(VPERFCTR_SERVICE);
}

static void vperfctr_put_pmu(struct vperfctr *perfctr)
{
	/* Only the sysctl's revocation clears it meanwhile (not sets it). */
	if (!READ_ONCE(perfctr->has_pmu))
		return;
	mutex_lock(&vperfctr_reserve_mutex);
	__vperfctr_put_pmu(perfctr);
	mutex_unlock(&vperfctr_reserve_mutex);
}

/* Object lifetime: how many states exist (/proc/perfctr_pmu). */
static atomic_t vperfctr_nr_states = ATOMIC_INIT(0);

static void vperfctr_put(struct vperfctr *perfctr)
{
	if (!refcount_dec_and_test(&perfctr->refcnt))
		return;
	atomic_dec(&vperfctr_nr_states);
	vperfctr_put_pmu(perfctr);
	free_cpumask_var(perfctr->forbidden);
	free_cpumask_var(perfctr->new_forbidden);
	__free_page(perfctr->page);
	kfree(perfctr);
}

static struct vperfctr *vperfctr_alloc(void)
{
	struct vperfctr *perfctr;

	/* Charged to the caller's memory cgroup: users pay for their states. */
	perfctr = kzalloc_obj(*perfctr, GFP_KERNEL_ACCOUNT);
	if (!perfctr)
		return ERR_PTR(-ENOMEM);
	perfctr->page = alloc_page(GFP_KERNEL_ACCOUNT | __GFP_ZERO);
	if (!perfctr->page ||
	    !zalloc_cpumask_var(&perfctr->forbidden, GFP_KERNEL_ACCOUNT) ||
	    !alloc_cpumask_var(&perfctr->new_forbidden, GFP_KERNEL_ACCOUNT)) {
		free_cpumask_var(perfctr->forbidden);
		if (perfctr->page)
			__free_page(perfctr->page);
		kfree(perfctr);
		return ERR_PTR(-ENOMEM);
	}
	refcount_set(&perfctr->refcnt, 1);
	spin_lock_init(&perfctr->children_lock);
	INIT_LIST_HEAD(&perfctr->inherit_children);
	INIT_LIST_HEAD(&perfctr->inherit_sibling);
	INIT_LIST_HEAD(&perfctr->pmu_node);
	perfctr->ovf_tick = jiffies - 1;	/* no overflow in this tick yet */
	init_task_work(&perfctr->signal_work, vperfctr_signal_work);
	perfctr->state = page_address(perfctr->page);
	perfctr->state->magic = VPERFCTR_STATE_MAGIC;
	perfctr->state->abi_version = PERFCTR_ABI_VERSION;
	perfctr->state->cpu_state.k1.isuspend_cpu = -1;
	perfctr->sample_period = VPERFCTR_SAMPLE_TICKS;
	atomic_inc(&vperfctr_nr_states);
	return perfctr;
}

/*
 * The children's sums change under children_lock, from any thread; the
 * sequence lets the owner read them from its mapping without the lock.
 */
static void vperfctr_children_begin(struct vperfctr_children *c)
{
	WRITE_ONCE(c->sequence, c->sequence + 1);
	/* Odd before the sums change; pairs with the reader's acquire loads. */
	smp_wmb();
}

static void vperfctr_children_end(struct vperfctr_children *c)
{
	/* The sums before the even sequence; pairs with the reader's fence. */
	smp_wmb();
	WRITE_ONCE(c->sequence, c->sequence + 1);
}

/*
 * The states that inherit, directly or not, from one state's control,
 * and that state: the lock of their parent links and children lists.
 * Referenced by each of them; one per tree, so a merge in one user's
 * tree never waits for another's.
 */
struct vperfctr_tree {
	spinlock_t lock;	/* inherit_parent, the children lists, the merges */
	refcount_t refcnt;
};

/*
 * What a finished descendant adds to an ancestor's children's sums: its
 * totals, the descendants counted in them, and the change in the
 * number still running.
 */
struct vperfctr_delta {
	struct perfctr_sum_ctrs sum;
	u32 nr_merged;
	u32 nr_unmerged;
	s32 nr_running;
};

static void vperfctr_children_add(struct vperfctr *to, const struct vperfctr_delta *d)
{
	struct vperfctr_children *c = &to->state->children;
	unsigned int i;

	lockdep_assert_held(&to->children_lock);
	vperfctr_children_begin(c);
	c->sum.tsc += d->sum.tsc;
	for (i = 0; i < PERFCTR_NRCTRS; i++)
		c->sum.pmc[i] += d->sum.pmc[i];
	c->nr_merged += d->nr_merged;
	c->nr_unmerged += d->nr_unmerged;
	c->nr_running += d->nr_running;
	vperfctr_children_end(c);
}

/* The children's sums, consistent: under their lock. */
static void vperfctr_get_children(struct vperfctr *perfctr, struct vperfctr_children *children)
{
	spin_lock(&perfctr->children_lock);
	*children = perfctr->state->children;
	spin_unlock(&perfctr->children_lock);
}

/*
 * @child's owner is gone (exit, exec, unlink) or its fork failed: its
 * totals go to its parent state now.  Its own sums and its children's
 * so far are added if it exited (not unlinked, not detached at exec) and
 * neither it nor its parent changed control since the fork -- else the
 * counters may count other events, and it is counted as not merged.  A
 * child whose fork failed was never one.  (The parent's control id is
 * compared under the lock that its changes take: never torn, never a
 * new control's children's sums with the old one's counts.)
 *
 * Merged, its inheriting children become its parent's, as the kernel
 * reparents a dead process's children: their totals go there when they
 * finish, and their running count with them now.  Not merged, they stay
 * its own: its children's sums take their totals, and it stays
 * allocated while they run.  The work is one parent and @child's own
 * children, under the tree's lock only: however deep the tree, however
 * many ancestors have exited.  Returns the parent whose reference
 * @child held, for the caller to drop outside the lock.
 */
static struct vperfctr *vperfctr_merge_up(struct vperfctr *child)
{
	const struct perfctr_cpu_state *st = cpu_state(child);
	struct vperfctr_tree *tree = child->tree;
	struct vperfctr *parent, *c, *next;
	struct vperfctr_children from;
	struct vperfctr_delta d = { .nr_running = -1 };
	unsigned int i, moved = 0;
	bool ok = false;

	if (!tree)
		return NULL;
	spin_lock(&tree->lock);
	parent = child->inherit_parent;
	if (!parent)
		goto out;
	vperfctr_get_children(child, &from);
	ok = !child->aborted && child->exited && child->control_id == child->inherited_id;
	spin_lock(&parent->children_lock);
	ok = ok && parent->control_id == child->inherited_id;
	if (ok) {
		d.sum.tsc = st->tsc_sum + from.sum.tsc;
		for (i = 0; i < PERFCTR_NRCTRS; i++)
			d.sum.pmc[i] = st->pmc[i].sum + from.sum.pmc[i];
		d.nr_merged = 1 + from.nr_merged;
		d.nr_unmerged = from.nr_unmerged;
		d.nr_running += from.nr_running;
	} else if (!child->aborted) {
		d.nr_unmerged = 1;
	}
	vperfctr_children_add(parent, &d);
	spin_unlock(&parent->children_lock);
	child->inherit_parent = NULL;
	list_del_init(&child->inherit_sibling);
	if (ok) {
		list_for_each_entry_safe(c, next, &child->inherit_children, inherit_sibling) {
			refcount_inc(&parent->refcnt);
			c->inherit_parent = parent;
			list_move_tail(&c->inherit_sibling, &parent->inherit_children);
			moved++;
		}
	}
out:
	spin_unlock(&tree->lock);
	/* Their references to @child: its owner's still keeps it. */
	WARN_ON_ONCE(moved && refcount_sub_and_test(moved, &child->refcnt));
	/*
	 * Detached, it needs its tree no more: nothing forks from it again,
	 * and the children it keeps (not merged) hold the tree themselves.
	 */
	child->tree = NULL;
	if (refcount_dec_and_test(&tree->refcnt))
		kfree(tree);
	return parent;
}

/*
 * Stop the counters of a state whose owner is current (interrupts off
 * around the live part) or is frozen off-CPU (the state was suspended at
 * its last switch-out), and mark them stopped for readers of the page.
 */
static void vperfctr_stop(struct vperfctr *perfctr, bool is_current)
{
	unsigned long flags;

	perfctr_irq_save(flags);
	if (is_current)
		vperfctr_suspend_locked(perfctr);
	vperfctr_mark_stopped(perfctr);
	vperfctr_discard_overflow(perfctr);
	perfctr_irq_restore(flags);
}

/*
 * Detach from the owner and drop the owner's reference.  The PMU goes
 * back with it: a state no thread runs needs no counters, even while
 * files of it stay open to read its sums.
 */
static void vperfctr_detach(struct vperfctr *perfctr, struct task_struct *tsk)
{
	struct vperfctr *parent;

	vperfctr_stop(perfctr, tsk == current);
	task_lock(tsk);
	clear_tsk_thread_flag(tsk, TIF_PERFCTR);
	tsk->thread.perfctrs = NULL;
	WRITE_ONCE(perfctr->owner, NULL);
	task_unlock(tsk);
	vperfctr_put_pmu(perfctr);
	vperfctr_update_tick_dep(perfctr, tsk);
	/* Its totals go up now; those of descendants still running, later. */
	parent = vperfctr_merge_up(perfctr);
	if (parent)
		vperfctr_put(parent);
	/*
	 * Only now is the detach done for readers (vperfctr_begin()): who
	 * saw the owner gone, or waited for it, finds the PMU released and
	 * the merge done.
	 */
	smp_store_release(&perfctr->detached, true);
	/* The store before wake_up_var()'s waitqueue_active() check. */
	smp_mb();
	wake_up_var(&perfctr->detached);
	vperfctr_put(perfctr);
}

void __vperfctr_exit(struct task_struct *tsk)
{
	struct vperfctr *perfctr = tsk->thread.perfctrs;

	if (!perfctr)
		return;
	/* copy_process() undoing a fork calls exit_thread() too. */
	if (tsk->flags & PF_EXITING)
		perfctr->exited = true;
	else
		perfctr->aborted = true;
	vperfctr_detach(perfctr, tsk);
}

void __vperfctr_exec(struct task_struct *tsk, bool secure)
{
	struct vperfctr *perfctr = tsk->thread.perfctrs;

	if (!perfctr)
		return;
	/*
	 * An interrupt-mode control does not survive exec: the new program
	 * has the default action for its signal (for SIGIO, termination),
	 * and its first overflow would kill it.  Unlinked as with
	 * VPERFCTR_CONTROL_CLOEXEC, as perf removes its sigtrap events
	 * (which require remove_on_exec); an inherited one too.
	 */
	if (secure || (perfctr->flags & VPERFCTR_CONTROL_CLOEXEC) ||
	    cpu_state(perfctr)->control.nrictrs) {
		vperfctr_detach(perfctr, tsk);
	} else if (perfctr->rdpmc_mm) {
		/*
		 * exec_mmap() switched to the new mm, whose count is 0 (x86:
		 * CR4.PCE clear): count the state there before the program
		 * runs, and uncount it on the mm it left.
		 */
		vperfctr_revoke_rdpmc(perfctr);
		vperfctr_grant_rdpmc(perfctr, tsk);
	}
}

/* The vperfctrfs pseudo filesystem. */
static int vperfctr_release(struct inode *inode, struct file *filp)
{
	vperfctr_put(filp->private_data);
	return 0;
}

/*
 * One page, read-only, shared.  The file is opened read-only, so the mm
 * core already refuses PROT_WRITE on a shared mapping (EACCES) and never
 * grants VM_MAYWRITE (and it turns VM_SHARED off: VM_MAYSHARE says the
 * mapping was asked shared); a private mapping could be made writable by
 * copy-on-write and is refused here.
 */
static int vperfctr_mmap_prepare(struct vm_area_desc *desc)
{
	struct vperfctr *perfctr = desc->file->private_data;

	if (!vma_desc_test_any(desc, VMA_MAYSHARE_BIT))
		return -EINVAL;
	if (vma_desc_test_any(desc, VMA_WRITE_BIT, VMA_MAYWRITE_BIT))
		return -EACCES;
	if (desc->pgoff != 0 || vma_desc_size(desc) != PAGE_SIZE)
		return -EINVAL;
	vma_desc_set_flags(desc, VMA_DONTEXPAND_BIT, VMA_DONTCOPY_BIT);
	vma_desc_clear_flags(desc, VMA_MAYEXEC_BIT);
	mmap_action_map_kernel_pages_full(desc, &perfctr->page);
	return 0;
}

static const struct file_operations vperfctr_fops = {
	.release	= vperfctr_release,
	.mmap_prepare	= vperfctr_mmap_prepare,
};

static bool is_vperfctr_file(struct file *filp)
{
	return filp->f_op == &vperfctr_fops;
}

static char *vperfctrfs_dname(struct dentry *dentry, char *buffer, int buflen)
{
	return dynamic_dname(buffer, buflen, "vperfctr:[%llu]",
			     (unsigned long long)d_inode(dentry)->i_ino);
}

static const struct dentry_operations vperfctrfs_dentry_operations = {
	.d_dname	= vperfctrfs_dname,
};

static int vperfctrfs_init_fs_context(struct fs_context *fc)
{
	struct pseudo_fs_context *ctx = init_pseudo(fc, VPERFCTRFS_MAGIC);

	if (!ctx)
		return -ENOMEM;
	ctx->dops = &vperfctrfs_dentry_operations;
	return 0;
}

static struct file_system_type vperfctrfs_type = {
	.name		= "vperfctrfs",
	.init_fs_context = vperfctrfs_init_fs_context,
	.kill_sb	= kill_anon_super,
};

/* Takes over the caller's reference to @perfctr, also on error. */
static struct file *vperfctr_file(struct vperfctr *perfctr)
{
	struct inode *inode;
	struct file *filp;

	inode = new_inode_pseudo(vperfctr_mnt->mnt_sb);
	if (!inode) {
		vperfctr_put(perfctr);
		return ERR_PTR(-ENOMEM);
	}
	inode->i_ino = get_next_ino();
	inode->i_mode = S_IFREG | 0400;
	inode->i_uid = current_fsuid();
	inode->i_gid = current_fsgid();
	simple_inode_init_ts(inode);

	filp = alloc_file_pseudo(inode, vperfctr_mnt, "", O_RDONLY, &vperfctr_fops);
	if (IS_ERR(filp)) {
		iput(inode);
		vperfctr_put(perfctr);
		return filp;
	}
	filp->private_data = perfctr;
	return filp;
}

/*
 * Access to another thread's state: it must be stopped under ptrace by
 * the caller, and stays frozen there until vperfctr_unlock_task().
 */
static int vperfctr_lock_task(struct task_struct *tsk)
{
	if (tsk == current)
		return 0;
	return ptrace_freeze_stopped_child(tsk) ? -EPERM : 0;
}

static void vperfctr_unlock_task(struct task_struct *tsk)
{
	if (tsk != current)
		ptrace_thaw_stopped_child(tsk);
}

/* The owner of the state behind @fd, with a reference; NULL if detached. */
static struct task_struct *vperfctr_get_owner(struct vperfctr *perfctr)
{
	struct task_struct *tsk;

	rcu_read_lock();
	tsk = READ_ONCE(perfctr->owner);
	if (tsk)
		get_task_struct(tsk);
	rcu_read_unlock();
	return tsk;
}

static bool vperfctr_is_detached(struct vperfctr *perfctr)
{
	/* Pairs with the release that ends vperfctr_detach(). */
	return smp_load_acquire(&perfctr->detached);
}

/*
 * Look up the state behind @fd and lock its owner for an operation.
 * Returns the owner (NULL if detached and @need_owner is false) or an
 * ERR_PTR: -ESRCH detached, -EPERM not ours to touch.  An owner other
 * than current is returned with a reference and frozen under ptrace;
 * vperfctr_end() undoes both.
 */
static struct task_struct *vperfctr_begin(struct vperfctr *perfctr, bool need_owner)
{
	struct task_struct *tsk;
	int err;

	/*
	 * The owner itself, the common case: only its own exit or exec
	 * detaches the state, so it needs neither a reference nor a lock.
	 */
	if (READ_ONCE(perfctr->owner) == current)
		return current;
	tsk = vperfctr_get_owner(perfctr);
	if (!tsk) {
		err = -ESRCH;
		goto detached;
	}
	err = vperfctr_lock_task(tsk);
	if (!err && READ_ONCE(perfctr->owner) != tsk) {
		/* Detached while we looked (exit or exec of a traced thread). */
		vperfctr_unlock_task(tsk);
		err = -ESRCH;
	} else if (err == -EPERM && tsk->flags & PF_EXITING) {
		/*
		 * The owner is exiting: pthread_join() and wait() return
		 * before its exit_thread() detaches the state.  Reading and
		 * unlinking wait for the detach, as they would after it.
		 */
		err = -ESRCH;
	}
	if (!err)
		return tsk;
	put_task_struct(tsk);
	if (err != -ESRCH)
		return ERR_PTR(err);
detached:
	if (need_owner)
		return ERR_PTR(err);
	/*
	 * Detached, or being detached: the owner is cleared before the PMU
	 * is released and the state merged into its parent.  A reader waits
	 * for the end of the detach, so that the parent's children's sums
	 * it reads next have this state in them.
	 */
	err = wait_var_event_killable(&perfctr->detached, vperfctr_is_detached(perfctr));
	return err ? ERR_PTR(err) : NULL;	/* detached: readable by anyone */
}

static void vperfctr_end(struct task_struct *tsk)
{
	if (tsk && tsk != current) {
		vperfctr_unlock_task(tsk);
		put_task_struct(tsk);
	}
}

/*
 * On each CPU, as the tick would: a state running there whose control
 * the new kernel.perfctr_access no longer allows stops now, and one
 * suspended by its owner is stopped (vperfctr_sample_locked()).
 */
static void vperfctr_revoke_running(void *unused)
{
	struct vperfctr *perfctr = current->thread.perfctrs;
	unsigned long flags;

	if (!perfctr || !vperfctr_revoked(perfctr))
		return;
	perfctr_pmi_save(flags);
	vperfctr_sample_locked(perfctr);
	perfctr_pmi_restore(flags);
}

/*
 * kernel.perfctr_access was lowered: take the PMU from every state whose
 * control the new level does not allow, whether its owner runs, sleeps,
 * or is stopped by a signal or a tracer.  First each CPU stops the
 * revoked state it runs; after that no revoked state runs anywhere, and
 * none starts again (vperfctr_resume_locked() checks first).  Then the
 * reservations go, with the user-space reads: the PMU is free for perf,
 * the NMI watchdog and KVM when the write returns.  The states keep
 * their sums; each owner sees its counters stopped and its next PMC
 * control refused with EACCES.
 */
static void vperfctr_revoke_holders(void)
{
	struct vperfctr *perfctr, *next;

	on_each_cpu(vperfctr_revoke_running, NULL, 1);
	mutex_lock(&vperfctr_reserve_mutex);
	list_for_each_entry_safe(perfctr, next, &vperfctr_pmu_holders, pmu_node)
		if (vperfctr_revoked(perfctr))
			__vperfctr_put_pmu(perfctr);
	mutex_unlock(&vperfctr_reserve_mutex);
}

static int vperfctr_access_handler(const struct ctl_table *table, int write,
				   void *buffer, size_t *lenp, loff_t *ppos)
{
	int old = READ_ONCE(sysctl_perfctr_access);
	int err = proc_dointvec_minmax(table, write, buffer, lenp, ppos);

	if (!err && write && READ_ONCE(sysctl_perfctr_access) < old)
		vperfctr_revoke_holders();
	return err;
}

/*
 * /proc/perfctr_pmu (root only): who holds the PMU -- one line per state
 * with programmable counters, running or suspended: its owner's thread
 * and process ids (in the reader's PID namespace), real uid, the number
 * of counters and whether they run, are suspended, or are stopped.
 */
static int vperfctr_pmu_show(struct seq_file *m, void *unused)
{
	struct vperfctr *perfctr;
	struct task_struct *owner;
	const struct perfctr_cpu_state *st;
	const char *what;

	seq_printf(m, "# %d states, %u holding the PMU\n",
		   atomic_read(&vperfctr_nr_states), READ_ONCE(vperfctr_nr_pmu_users));
	seq_puts(m, "tid\tpid\tuid\tcounters\tstate\n");
	mutex_lock(&vperfctr_reserve_mutex);
	list_for_each_entry(perfctr, &vperfctr_pmu_holders, pmu_node) {
		st = cpu_state(perfctr);
		if (perfctr->suspended)
			what = "suspended";
		else if (perfctr_cstatus_nrctrs(READ_ONCE(st->cstatus)) ||
			 perfctr->iresume_cstatus)
			what = "counting";
		else
			what = "stopped";
		rcu_read_lock();
		owner = READ_ONCE(perfctr->owner);
		if (owner)
			seq_printf(m, "%d\t%d\t%u\t%u\t%s\n", task_pid_vnr(owner),
				   task_tgid_vnr(owner),
				   from_kuid_munged(current_user_ns(), task_uid(owner)),
				   st->control.nractrs + st->control.nrictrs, what);
		rcu_read_unlock();
	}
	mutex_unlock(&vperfctr_reserve_mutex);
	return 0;
}

static const struct ctl_table vperfctr_sysctls[] = {
	{
		.procname	= "perfctr_access",
		.data		= &sysctl_perfctr_access,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= vperfctr_access_handler,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_THREE,
	},
};

/*
 * May the caller create a state (@pmcs false) or program one with
 * programmable counters (@pmcs true)?  0 or -EACCES; *@needed (if not
 * NULL) is the lowest kernel.perfctr_access that allows it.
 */
static int vperfctr_may_use(bool pmcs, int *needed)
{
	int access = READ_ONCE(sysctl_perfctr_access), need;

	if (perfmon_capable())
		need = VPERFCTR_ACCESS_CAPABLE;
	else
		need = pmcs ? VPERFCTR_ACCESS_USERS_PMCS : VPERFCTR_ACCESS_USERS_TSC;
	if (access < need)
		return -EACCES;
#ifdef CONFIG_PERF_EVENTS
	if (READ_ONCE(sysctl_perf_event_paranoid) > 2 && !capable(CAP_SYS_ADMIN))
		return -EACCES;
#endif
	if (needed)
		*needed = need;
	return security_perf_event_open(PERF_SECURITY_OPEN);
}

/*
 * Counting events of kernel mode (the x86 OS bit, the P4's T0_OS, a
 * powerpc control without MMCR0[FCS], ...) needs what perf_event_open()
 * needs for exclude_kernel = 0 -- perf_event_paranoid <= 1 or
 * perfmon_capable() -- and a kernel not locked down for perf.
 */
static int vperfctr_may_count_kernel(void)
{
	int err = perf_allow_kernel();

	return err ?: security_locked_down(LOCKDOWN_PERF);
}

/*
 * A child that should have inherited @parent's control got no state (no
 * memory, perfctr_access lowered, the PMU taken meanwhile): it still
 * forks, and the parent's children's sums say they miss one.
 */
static void vperfctr_unmerged_child(struct vperfctr *parent)
{
	struct vperfctr_children *c = &parent->state->children;

	spin_lock(&parent->children_lock);
	vperfctr_children_begin(c);
	c->nr_unmerged++;
	vperfctr_children_end(c);
	spin_unlock(&parent->children_lock);
}

/*
 * @parent's tree, made at its first inheriting child (@parent's owner
 * is current: nothing else sets it).  NULL: no memory.
 */
static struct vperfctr_tree *vperfctr_tree_of(struct vperfctr *parent)
{
	struct vperfctr_tree *tree = parent->tree;

	if (tree)
		return tree;
	tree = kmalloc_obj(*tree, GFP_KERNEL_ACCOUNT);
	if (!tree)
		return NULL;
	spin_lock_init(&tree->lock);
	refcount_set(&tree->refcnt, 1);		/* @parent's */
	parent->tree = tree;
	return tree;
}

/*
 * A state for @child with @parent's control, its sums at zero: what
 * vperfctr_open() and vperfctr_control() would give it, with the rights
 * of the forking thread (current, @parent's owner).
 */
static struct vperfctr *vperfctr_inherit(struct vperfctr *parent, struct task_struct *child)
{
	struct vperfctr_tree *tree = vperfctr_tree_of(parent);
	struct vperfctr *perfctr;
	struct perfctr_cpu_state *st;
	int err;

	if (!tree)
		return ERR_PTR(-ENOMEM);
	perfctr = vperfctr_alloc();
	if (IS_ERR(perfctr))
		return perfctr;
	st = cpu_state(perfctr);
	st->control = cpu_state(parent)->control;
	err = perfctr_cpu_update_control(st, 0);
	if (!err)
		err = vperfctr_may_use(perfctr_cstatus_nrctrs(st->cstatus),
				       &perfctr->access_needed);
	if (!err && perfctr_cpu_counts_kernel(st))
		err = vperfctr_may_count_kernel();
	if (!err && perfctr_cstatus_nrctrs(st->cstatus))
		err = vperfctr_get_pmu(perfctr);
	if (err) {
		vperfctr_put(perfctr);
		return ERR_PTR(err);
	}
	perfctr->si_signo = parent->si_signo;
	perfctr->flags = parent->flags;
	perfctr->sample_period = parent->sample_period;
	/* The parent's affinity, which the child has, already excludes them. */
	cpumask_copy(perfctr->forbidden, parent->forbidden);
	perfctr->forbidden_on = parent->forbidden_on;
	perfctr->control_id = parent->control_id;
	perfctr->inherited_id = parent->control_id;
	/* A child of a suspended state starts suspended, as perf's do. */
	if (parent->suspended) {
		perfctr->suspend_cstatus = st->cstatus;
		st->cstatus = 0;
		perfctr->suspended = true;
	}
	perfctr_tsc_refresh(st);
	refcount_inc(&tree->refcnt);
	perfctr->tree = tree;
	return perfctr;
}

void __vperfctr_fork(struct task_struct *child, u64 clone_flags)
{
	struct vperfctr *parent = current->thread.perfctrs;
	struct vperfctr *perfctr;
	unsigned int want = clone_flags & CLONE_THREAD ? VPERFCTR_CONTROL_INHERIT_THREAD
						       : VPERFCTR_CONTROL_INHERIT;

	/*
	 * The child starts without the parent's tick dependency:
	 * copy_process() cleared the copy dup_task_struct() made
	 * (tick_dep_init_task()); an inherited state sets its own below.
	 * Not io_uring's or vhost's workers: they run no user code.
	 */
	if (!(parent->flags & want) || child->flags & (PF_KTHREAD | PF_USER_WORKER))
		return;
	perfctr = vperfctr_inherit(parent, child);
	if (IS_ERR(perfctr)) {
		vperfctr_unmerged_child(parent);
		return;
	}
	/* One more descendant running, until vperfctr_merge_up(). */
	spin_lock(&parent->tree->lock);
	refcount_inc(&parent->refcnt);
	perfctr->inherit_parent = parent;
	list_add_tail(&perfctr->inherit_sibling, &parent->inherit_children);
	spin_lock(&parent->children_lock);
	vperfctr_children_begin(&parent->state->children);
	parent->state->children.nr_running++;
	vperfctr_children_end(&parent->state->children);
	spin_unlock(&parent->children_lock);
	spin_unlock(&parent->tree->lock);
	/* The child is not visible yet; its first switch-in starts the counters. */
	task_lock(child);
	perfctr->owner = child;		/* the allocation's reference */
	child->thread.perfctrs = perfctr;
	set_tsk_thread_flag(child, TIF_PERFCTR);
	task_unlock(child);
	vperfctr_grant_rdpmc(perfctr, child);
	vperfctr_update_tick_dep(perfctr, child);
}

/* sys_vperfctr_open() */
static int do_vperfctr_open(int tid, int creat)
{
	struct task_struct *tsk;
	struct vperfctr *perfctr;
	struct file *filp;
	int err, fd;

	if (!perfctr_ready())
		return -ENODEV;
	if (tid < 0 || (creat & ~VPERFCTR_OPEN_CREAT))
		return -EINVAL;
	if (creat) {
		err = vperfctr_may_use(false, NULL);
		if (err)
			return err;
		/*
		 * Before any lock: enabling patches kernel text under the CPU
		 * hotplug lock.  Every state's first ancestor is made here.
		 */
		if (!static_key_enabled(&perfctr_switch_hooks))
			static_branch_enable(&perfctr_switch_hooks);
	}

	if (!tid || tid == task_pid_vnr(current)) {
		tsk = current;
		get_task_struct(tsk);
	} else {
		tsk = find_get_task_by_vpid(tid);
		if (!tsk)
			return -ESRCH;
	}
	err = vperfctr_lock_task(tsk);
	if (err)
		goto out_put;

	/*
	 * Everything that can fail (the descriptor, the state, its file) is
	 * had before the state is attached: a failed call changes nothing.
	 */
	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0) {
		err = fd;
		goto out_unlock;
	}
	if (creat) {
		perfctr = vperfctr_alloc();
		if (IS_ERR(perfctr)) {
			err = PTR_ERR(perfctr);
			goto out_fd;
		}
	} else {
		task_lock(tsk);
		perfctr = tsk->thread.perfctrs;
		if (perfctr)
			refcount_inc(&perfctr->refcnt);
		task_unlock(tsk);
		if (!perfctr) {
			err = -ENOENT;
			goto out_fd;
		}
	}
	/* The file takes the reference of the state just had. */
	filp = vperfctr_file(perfctr);
	if (IS_ERR(filp)) {
		err = PTR_ERR(filp);
		goto out_fd;
	}
	if (creat) {
		task_lock(tsk);
		if (tsk->thread.perfctrs) {
			err = -EEXIST;
		} else if (tsk->flags & PF_EXITING) {
			err = -ESRCH;
		} else {
			/* The owner's reference. */
			refcount_inc(&perfctr->refcnt);
			perfctr->owner = tsk;
			tsk->thread.perfctrs = perfctr;
			set_tsk_thread_flag(tsk, TIF_PERFCTR);
		}
		task_unlock(tsk);
		if (err) {
			fput(filp);
			goto out_fd;
		}
	}
	fd_install(fd, filp);
	err = fd;
	goto out_unlock;

out_fd:
	put_unused_fd(fd);
out_unlock:
	vperfctr_unlock_task(tsk);
out_put:
	put_task_struct(tsk);
	return err;
}

/*
 * vperfctr_control()'s argument and the state it is validated in (1.3
 * KiB on x86_64, 568 bytes on ppc64): in the state's own page, after the
 * struct vperfctr_state it begins with (1 KiB on x86_64), so that a
 * control costs no allocation and a thread no more memory.  One control
 * runs at a time (new_forbidden's rule).  The owner's read-only mapping
 * shows the page whole: all it can see there is a control that it or its
 * tracer passed, which user space cannot change while it is validated.
 */
struct vperfctr_control_scratch {
	struct vperfctr_control ctl;
	struct perfctr_cpu_state next;
};

struct vperfctr_page {
	struct vperfctr_state state;
	struct vperfctr_control_scratch scratch;
};

static_assert(sizeof(struct vperfctr_page) <= PAGE_SIZE);

static struct vperfctr_control_scratch *vperfctr_scratch(struct vperfctr *perfctr)
{
	return &container_of(perfctr->state, struct vperfctr_page, state)->scratch;
}

/*
 * The fields of struct vperfctr_control that are not the CPU control;
 * perfctr_cpu_update_control() validates cpu_control itself.
 */
static int vperfctr_check_control(const struct vperfctr_control *ctl)
{
	unsigned int i;

	if (ctl->flags & ~VPERFCTR_CONTROL_FLAGS || ctl->_reserved0)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(ctl->_reserved); i++)
		if (ctl->_reserved[i])
			return -EINVAL;
	if (ctl->cpu_control.nrictrs ? !valid_signal(ctl->si_signo) || !ctl->si_signo
				     : ctl->si_signo < 0 || !valid_signal(ctl->si_signo))
		return -EINVAL;
	return 0;
}

/*
 * The CPUs on which @next's programmable counters cannot run: those on
 * which no control with counters may run (perfctr_cpus_forbidden_mask:
 * a hyper-threaded P4's second threads) and those whose PMU lacks what
 * this one uses (perfctr_cpu_forbidden(): a hybrid CPU's smaller cores).
 * A TSC-only control runs anywhere.
 */
static bool vperfctr_forbidden_cpus(const struct perfctr_cpu_state *next,
				    struct cpumask *mask)
{
	if (!perfctr_cstatus_nrctrs(next->cstatus)) {
		cpumask_clear(mask);
		return false;
	}
	perfctr_cpu_forbidden(next, mask);
	cpumask_or(mask, mask, &perfctr_cpus_forbidden_mask);
	return !cpumask_empty(mask);
}

/*
 * virtual.rst: a control with programmable counters takes the forbidden
 * CPUs out of the thread's affinity.  EINVAL if that leaves no CPU it may
 * run on; then nothing changed.  @tsk is current or frozen by its tracer.
 */
static int vperfctr_exclude_cpus(struct task_struct *tsk, const struct cpumask *forbidden)
{
	cpumask_var_t allowed;
	int err = -EINVAL;

	if (!cpumask_intersects(&tsk->cpus_mask, forbidden))
		return 0;
	if (!alloc_cpumask_var(&allowed, GFP_KERNEL))
		return -ENOMEM;
	if (cpumask_andnot(allowed, &tsk->cpus_mask, forbidden) &&
	    cpumask_intersects(allowed, cpu_active_mask))
		err = set_cpus_allowed_ptr(tsk, allowed);
	free_cpumask_var(allowed);
	return err;
}

/* Would vperfctr_exclude_cpus() leave @tsk an active CPU? */
static bool vperfctr_cpus_left(struct task_struct *tsk, const struct cpumask *forbidden)
{
	unsigned int cpu;

	for_each_cpu_andnot(cpu, &tsk->cpus_mask, forbidden)
		if (cpu_active(cpu))
			return true;
	return false;
}

/* sys_vperfctr_control() */
static int do_vperfctr_control(struct vperfctr *perfctr,
			       const struct vperfctr_control __user *argp)
{
	struct vperfctr_control_scratch *scratch = vperfctr_scratch(perfctr);
	struct vperfctr_control *ctl = &scratch->ctl;
	struct perfctr_cpu_state *next = &scratch->next;
	struct perfctr_cpu_state *st = cpu_state(perfctr);
	struct task_struct *tsk;
	struct cpumask *forbidden = perfctr->new_forbidden;
	bool forbidden_on, had_pmu;
	unsigned long flags;
	unsigned int i;
	int err, access_needed;

	tsk = vperfctr_begin(perfctr, true);
	if (IS_ERR(tsk))
		return PTR_ERR(tsk);
	if (copy_from_user(ctl, argp, sizeof(*ctl))) {
		err = -EFAULT;
		goto out;
	}
	err = vperfctr_check_control(ctl);
	if (err)
		goto out;
	/* Validate into the scratch state: a bad control changes nothing. */
	memset(next, 0, sizeof(*next));
	next->control = ctl->cpu_control;
	err = perfctr_cpu_update_control(next, 0);
	if (err)
		goto out;
	/* Only the new control's own counters have sums to preserve. */
	if (ctl->preserve >> perfctr_cstatus_nrctrs(next->cstatus)) {
		err = -EINVAL;
		goto out;
	}
	err = vperfctr_may_use(perfctr_cstatus_nrctrs(next->cstatus), &access_needed);
	if (!err && perfctr_cpu_counts_kernel(next))
		err = vperfctr_may_count_kernel();
	if (err)
		goto out;
	forbidden_on = vperfctr_forbidden_cpus(next, forbidden);
	if (ctl->flags & VPERFCTR_CONTROL_VALIDATE) {
		/* Checked only: EINVAL where no allowed CPU would be left. */
		err = forbidden_on && !vperfctr_cpus_left(tsk, forbidden) ? -EINVAL : 0;
		goto out;
	}
	had_pmu = perfctr->has_pmu;
	if (perfctr_cstatus_nrctrs(next->cstatus)) {
		err = vperfctr_get_pmu(perfctr);
		if (err)
			goto out;
	}
	if (forbidden_on) {
		err = vperfctr_exclude_cpus(tsk, forbidden);
		if (err) {
			if (!had_pmu)
				vperfctr_put_pmu(perfctr);
			goto out;
		}
	}

	/*
	 * A new control id: children forked under the old control are not
	 * merged any more.  The children's sums follow the rule of the
	 * thread's own.
	 */
	spin_lock(&perfctr->children_lock);
	vperfctr_children_begin(&perfctr->state->children);
	perfctr->control_id = atomic64_inc_return(&vperfctr_control_ids);
	for (i = 0; i < PERFCTR_NRCTRS; i++)
		if (!(ctl->preserve & BIT(i)))
			perfctr->state->children.sum.pmc[i] = 0;
	if (!next->control.tsc_on)
		perfctr->state->children.sum.tsc = 0;
	vperfctr_children_end(&perfctr->state->children);
	spin_unlock(&perfctr->children_lock);

	perfctr_irq_save(flags);
	if (tsk == current)
		vperfctr_suspend_locked(perfctr);
	/* An overflow of the old control is not the new one's to signal. */
	vperfctr_discard_overflow(perfctr);
	perfctr->suspended = false;
	vperfctr_write_begin(perfctr);
	for (i = 0; i < PERFCTR_NRCTRS; i++) {
		next->pmc[i].sum = (ctl->preserve & BIT(i)) ? st->pmc[i].sum : 0;
		st->pmc[i] = next->pmc[i];
	}
	if (!next->control.tsc_on)
		st->tsc_sum = 0;
	st->control = next->control;
	st->k1 = next->k1;
	st->cstatus = next->cstatus;
	perfctr_tsc_refresh(st);
	vperfctr_write_end(perfctr);
	cpumask_copy(perfctr->forbidden, forbidden);
	perfctr->forbidden_on = forbidden_on;
	perfctr->si_signo = ctl->si_signo;
	perfctr->flags = ctl->flags;
	perfctr->access_needed = access_needed;
	/*
	 * A revocation still pending is the old control's: the new one was
	 * validated now, and keeps the PMU it holds (vperfctr_signal_work()).
	 */
	clear_bit(VPERFCTR_PENDING_REVOKE, &perfctr->pending);
	perfctr->sample_period = vperfctr_sample_period(st);
	if (tsk == current)
		vperfctr_resume_locked(perfctr);
	perfctr_irq_restore(flags);
	/* No programmable counters any more: let perf_events have the PMU. */
	if (!perfctr_cstatus_nrctrs(next->cstatus))
		vperfctr_put_pmu(perfctr);
	else
		vperfctr_grant_rdpmc(perfctr, tsk);
	vperfctr_update_tick_dep(perfctr, tsk);
out:
	vperfctr_end(tsk);
	return err;
}

/* sys_vperfctr_unlink() */
static int do_vperfctr_unlink(struct vperfctr *perfctr)
{
	struct task_struct *tsk = vperfctr_begin(perfctr, false);

	if (IS_ERR(tsk))
		return PTR_ERR(tsk);
	if (tsk)
		vperfctr_detach(perfctr, tsk);
	vperfctr_end(tsk);
	return 0;
}

/* sys_vperfctr_iresume() */
static int do_vperfctr_iresume(struct vperfctr *perfctr)
{
	struct task_struct *tsk;
	unsigned long flags;
	int err = 0;

	tsk = vperfctr_begin(perfctr, true);
	if (IS_ERR(tsk))
		return PTR_ERR(tsk);
	if (!(perfctr_info.cpu_features & PERFCTR_FEATURE_PCINT)) {
		err = -EOPNOTSUPP;
	} else if (!perfctr_cstatus_has_ictrs(perfctr->iresume_cstatus)) {
		/* No i-mode counters, or not suspended by an overflow. */
		err = -EINVAL;
	} else {
		/* Not interleaved with the tick that ends a throttle. */
		perfctr_irq_save(flags);
		if (perfctr->throttled) {
			/* Already left to the next tick. */
		} else if (perfctr->ovf_count >= VPERFCTR_MAX_OVERFLOWS_PER_TICK &&
			   !vperfctr_new_tick(perfctr)) {
			perfctr->throttled = true;
			vperfctr_update_tick_dep(perfctr, tsk);
		} else {
			vperfctr_iresume_locked(perfctr, tsk == current);
		}
		perfctr_irq_restore(flags);
	}
	vperfctr_end(tsk);
	return err;
}

/*
 * sys_vperfctr_suspend(): stop the counters, keeping the control, the
 * sums and the PMU, until sys_vperfctr_resume() -- perf_event's
 * IOC_DISABLE and IOC_ENABLE, without a control to copy and validate.
 * Either on a state already in that condition does nothing.
 */
static int do_vperfctr_suspend(struct vperfctr *perfctr)
{
	struct perfctr_cpu_state *st = cpu_state(perfctr);
	struct task_struct *tsk;
	unsigned long flags;

	tsk = vperfctr_begin(perfctr, true);
	if (IS_ERR(tsk))
		return PTR_ERR(tsk);
	perfctr_irq_save(flags);
	if (!perfctr->suspended) {
		if (tsk == current)
			vperfctr_suspend_locked(perfctr);
		vperfctr_write_begin(perfctr);
		perfctr->suspend_cstatus = st->cstatus;
		st->cstatus = 0;
		perfctr_tsc_refresh(st);
		vperfctr_write_end(perfctr);
		perfctr->suspended = true;
	}
	perfctr_irq_restore(flags);
	vperfctr_end(tsk);
	return 0;
}

/* sys_vperfctr_resume() */
static int do_vperfctr_resume(struct vperfctr *perfctr)
{
	struct perfctr_cpu_state *st = cpu_state(perfctr);
	struct task_struct *tsk;
	unsigned long flags;

	tsk = vperfctr_begin(perfctr, true);
	if (IS_ERR(tsk))
		return PTR_ERR(tsk);
	perfctr_irq_save(flags);
	if (perfctr->suspended) {
		vperfctr_write_begin(perfctr);
		st->cstatus = perfctr->suspend_cstatus;
		perfctr_tsc_refresh(st);
		vperfctr_write_end(perfctr);
		perfctr->suspended = false;
		/* Revoked or on a forbidden CPU meanwhile: stops here. */
		if (tsk == current)
			vperfctr_resume_locked(perfctr);
	}
	perfctr_irq_restore(flags);
	vperfctr_end(tsk);
	return 0;
}

/* sys_vperfctr_read() */
static int do_vperfctr_read(struct vperfctr *perfctr,
			    struct perfctr_sum_ctrs __user *sump,
			    struct vperfctr_control __user *controlp,
			    struct vperfctr_children __user *childrenp)
{
	struct perfctr_cpu_state *st = cpu_state(perfctr);
	struct vperfctr_children children;
	struct perfctr_sum_ctrs sum;
	struct {
		s32 si_signo;
		u32 preserve, flags, reserved0;
	} head = {};
	struct task_struct *tsk;
	unsigned long flags;
	unsigned int i;
	int err = 0;

	static_assert(sizeof(head) == offsetof(struct vperfctr_control, cpu_control));

	/*
	 * The children's sums alone: their lock is enough, and any holder
	 * of the descriptor may read them, as through the mapping.
	 */
	if (!sump && !controlp) {
		if (!childrenp)
			return 0;
		vperfctr_get_children(perfctr, &children);
		return copy_to_user(childrenp, &children, sizeof(children)) ? -EFAULT : 0;
	}
	tsk = vperfctr_begin(perfctr, false);
	if (IS_ERR(tsk))
		return PTR_ERR(tsk);
	perfctr_irq_save(flags);
	if (tsk == current)
		vperfctr_sample_locked(perfctr);
	sum.tsc = st->tsc_sum;
	for (i = 0; i < PERFCTR_NRCTRS; i++)
		sum.pmc[i] = st->pmc[i].sum;
	perfctr_irq_restore(flags);
	head.si_signo = perfctr->si_signo;
	head.flags = perfctr->flags;
	if (childrenp)
		vperfctr_get_children(perfctr, &children);

	/* The control changes only through this thread or while it is frozen. */
	if (sump && copy_to_user(sump, &sum, sizeof(sum)))
		err = -EFAULT;
	else if (controlp &&
		 (copy_to_user(controlp, &head, sizeof(head)) ||
		  copy_to_user(&controlp->cpu_control, &st->control, sizeof(st->control)) ||
		  clear_user(controlp->_reserved, sizeof(controlp->_reserved))))
		err = -EFAULT;
	else if (childrenp && copy_to_user(childrenp, &children, sizeof(children)))
		err = -EFAULT;
	vperfctr_end(tsk);
	return err;
}

/* The system calls: look up the fd, then hand off. */
static struct vperfctr *vperfctr_from_file(struct file *filp)
{
	if (!filp)
		return ERR_PTR(-EBADF);
	if (!is_vperfctr_file(filp))
		return ERR_PTR(-EINVAL);
	return filp->private_data;
}

SYSCALL_DEFINE2(vperfctr_open, int, tid, int, creat)
{
	return do_vperfctr_open(tid, creat);
}

SYSCALL_DEFINE2(vperfctr_control, int, fd, const struct vperfctr_control __user *, control)
{
	CLASS(fd, f)(fd);
	struct vperfctr *perfctr = vperfctr_from_file(fd_file(f));

	if (IS_ERR(perfctr))
		return PTR_ERR(perfctr);
	return do_vperfctr_control(perfctr, control);
}

SYSCALL_DEFINE1(vperfctr_unlink, int, fd)
{
	CLASS(fd, f)(fd);
	struct vperfctr *perfctr = vperfctr_from_file(fd_file(f));

	if (IS_ERR(perfctr))
		return PTR_ERR(perfctr);
	return do_vperfctr_unlink(perfctr);
}

SYSCALL_DEFINE1(vperfctr_iresume, int, fd)
{
	CLASS(fd, f)(fd);
	struct vperfctr *perfctr = vperfctr_from_file(fd_file(f));

	if (IS_ERR(perfctr))
		return PTR_ERR(perfctr);
	return do_vperfctr_iresume(perfctr);
}

SYSCALL_DEFINE1(vperfctr_suspend, int, fd)
{
	CLASS(fd, f)(fd);
	struct vperfctr *perfctr = vperfctr_from_file(fd_file(f));

	if (IS_ERR(perfctr))
		return PTR_ERR(perfctr);
	return do_vperfctr_suspend(perfctr);
}

SYSCALL_DEFINE1(vperfctr_resume, int, fd)
{
	CLASS(fd, f)(fd);
	struct vperfctr *perfctr = vperfctr_from_file(fd_file(f));

	if (IS_ERR(perfctr))
		return PTR_ERR(perfctr);
	return do_vperfctr_resume(perfctr);
}

SYSCALL_DEFINE4(vperfctr_read, int, fd, struct perfctr_sum_ctrs __user *, sum,
		struct vperfctr_control __user *, control,
		struct vperfctr_children __user *, children)
{
	CLASS(fd, f)(fd);
	struct vperfctr *perfctr = vperfctr_from_file(fd_file(f));

	if (IS_ERR(perfctr))
		return PTR_ERR(perfctr);
	return do_vperfctr_read(perfctr, sum, control, children);
}

int __init vperfctr_init(void)
{
	vperfctr_mnt = kern_mount(&vperfctrfs_type);
	if (IS_ERR(vperfctr_mnt))
		return PTR_ERR(vperfctr_mnt);
	register_sysctl_init("kernel", vperfctr_sysctls);
	proc_create_single("perfctr_pmu", 0400, NULL, vperfctr_pmu_show);
	return 0;
}
