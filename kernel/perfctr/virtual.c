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
#include <linux/init.h>
#include <linux/irq_work.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/perfctr.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/signal.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <linux/tick.h>

#include "internal.h"

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

unsigned int vperfctr_sample_period(const struct perfctr_cpu_state *st)
{
	unsigned int i, nrctrs = perfctr_cstatus_nrctrs(st->cstatus);

	for (i = 0; i < nrctrs; i++)
		if (st->pmc[i].width <= 32)
			return 1;
	return VPERFCTR_SAMPLE_TICKS;
}

DEFINE_STATIC_KEY_FALSE(perfctr_switch_hooks);

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

static void vperfctr_add_signal_work(struct vperfctr *perfctr,
				     struct task_struct *owner, enum task_work_notify_mode mode)
{
	if (task_work_add(owner, &perfctr->signal_work, mode)) {
		/* The owner is past exit_task_work(): nothing to tell it. */
		clear_bit(VPERFCTR_PENDING_WORK, &perfctr->pending);
		refcount_dec(&perfctr->refcnt);	/* the owner holds one */
	}
}

/*
 * An NMI (ppc64) inside the context switch acted for next, not current:
 * task_work_add() for another task is not NMI-safe (KASAN records a
 * stack), so it is made from this hard irq_work once interrupts are on
 * again.  next cannot have run, let alone exited, meanwhile.
 */
static void vperfctr_signal_irq_work(struct irq_work *work)
{
	struct vperfctr *perfctr = container_of(work, struct vperfctr, signal_irq_work);

	vperfctr_add_signal_work(perfctr, READ_ONCE(perfctr->owner), TWA_RESUME);
}

/*
 * Queue signal_work on the owner, whose counters are being suspended or
 * resumed right now (it is current, or prev/next in the context switch):
 * task_work runs it in the owner's own context before it returns to user
 * space, so the signal is sent where sending may sleep (PREEMPT_RT), by
 * the owner itself (si_pid survives PID namespaces), and before the owner
 * runs another user instruction.  Lock-free; interrupts off.
 */
static void vperfctr_queue_signal(struct vperfctr *perfctr)
{
	struct task_struct *owner = READ_ONCE(perfctr->owner);

	if (!owner || test_and_set_bit(VPERFCTR_PENDING_WORK, &perfctr->pending))
		return;
	refcount_inc(&perfctr->refcnt);
	if (!in_nmi())
		vperfctr_add_signal_work(perfctr, owner, TWA_RESUME);
	else if (owner == current)
		vperfctr_add_signal_work(perfctr, owner, TWA_NMI_CURRENT);
	else
		irq_work_queue(&perfctr->signal_irq_work);
}

/*
 * Forget an overflow not yet signalled: the control that overflowed is
 * being replaced, stopped or unlinked, and its signal must not reach the
 * next one.  With the overflow interrupt off.
 */
void vperfctr_discard_overflow(struct vperfctr *perfctr)
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
void vperfctr_update_tick_dep(struct vperfctr *perfctr, struct task_struct *tsk)
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
bool vperfctr_new_tick(const struct vperfctr *perfctr)
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
 * kernel.perfctr_access went below what the state's control needs, or
 * the state has programmable counters to start and no reservation (the
 * sysctl took it while the owner did not run, and may have been raised
 * again since): stop the counters, keeping their sums (readers see them
 * stopped), and have the owner release the PMU in its own context
 * (vperfctr_signal_work()).  Inside a resume or a sample, interrupts off.
 */
bool vperfctr_revoked(const struct vperfctr *perfctr)
{
	if (unlikely(READ_ONCE(perfctr->access_needed) > READ_ONCE(sysctl_perfctr_access)))
		return true;
	return unlikely(!READ_ONCE(perfctr->has_pmu) &&
			(perfctr_cstatus_nrctrs(perfctr->state->cpu_state.cstatus) ||
			 perfctr_cstatus_nrctrs(perfctr->suspend_cstatus) ||
			 perfctr_cstatus_nrctrs(perfctr->iresume_cstatus)));
}

/*
 * The sums stopped short of what the control asked: the mapped state
 * keeps why (VPERFCTR_STOP_*) for readers after the owner is gone, and
 * the state is not merged into its parent's children's sums.
 */
void vperfctr_note_stop(struct vperfctr *perfctr, u32 why)
{
	u32 *stops = &perfctr->state->stops;
	u32 old = READ_ONCE(*stops);

	while (!(old & why) && !try_cmpxchg(stops, &old, old | why))
		;
}

static void vperfctr_revoke(struct vperfctr *perfctr)
{
	vperfctr_mark_stopped(perfctr);
	vperfctr_note_stop(perfctr, VPERFCTR_STOP_REVOKED);
	vperfctr_discard_overflow(perfctr);
	if (READ_ONCE(perfctr->has_pmu)) {
		set_bit(VPERFCTR_PENDING_REVOKE, &perfctr->pending);
		vperfctr_queue_signal(perfctr);
	} else {
		/* The sysctl took the PMU while the owner was off: the tick too. */
		vperfctr_update_tick_dep(perfctr, perfctr->owner);
	}
}

/* Called with interrupts (and the overflow interrupt) off on the owner's CPU. */
void vperfctr_suspend_locked(struct vperfctr *perfctr)
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
 * SIGILL if the owner's program moved itself there.  Inside the resume,
 * interrupts off.
 */
static void vperfctr_forbidden_cpu(struct vperfctr *perfctr)
{
	vperfctr_mark_stopped(perfctr);
	vperfctr_note_stop(perfctr, VPERFCTR_STOP_FORBIDDEN_CPU);
	if (!perfctr->own_control || !perfctr->own_move)
		return;
	set_bit(VPERFCTR_PENDING_SIGILL, &perfctr->pending);
	vperfctr_queue_signal(perfctr);
}

/*
 * sched_setaffinity() on itself by the owner of a state, before the
 * change: a resume on a forbidden CPU is the owner's doing while the
 * affinity it last asked for, granted or not, allows one.
 */
void __vperfctr_setaffinity(struct task_struct *tsk, const struct cpumask *mask)
{
	struct vperfctr *perfctr = tsk->thread.perfctrs;

	if (perfctr)
		WRITE_ONCE(perfctr->own_move, perfctr->forbidden_on &&
			   cpumask_intersects(mask, perfctr->forbidden));
}

void vperfctr_resume_locked(struct vperfctr *perfctr)
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

void vperfctr_sample_locked(struct vperfctr *perfctr)
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
void vperfctr_iresume_locked(struct vperfctr *perfctr, bool is_current)
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
void vperfctr_ihandler(unsigned long pc)
{
	struct vperfctr *perfctr = __this_cpu_read(vperfctr_running);

	if (!perfctr)
		return;
	vperfctr_suspend_locked(perfctr);
	vperfctr_resume_locked(perfctr);
}
#endif

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

/* Object lifetime: how many states exist (/proc/perfctr_pmu). */
atomic_t vperfctr_nr_states = ATOMIC_INIT(0);

void vperfctr_put(struct vperfctr *perfctr)
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

struct vperfctr *vperfctr_alloc(void)
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
	perfctr->signal_irq_work = IRQ_WORK_INIT_HARD(vperfctr_signal_irq_work);
	perfctr->state = page_address(perfctr->page);
	perfctr->state->magic = VPERFCTR_STATE_MAGIC;
	perfctr->state->abi_version = PERFCTR_ABI_VERSION;
	perfctr->state->cpu_state.k1.isuspend_cpu = -1;
	perfctr->sample_period = VPERFCTR_SAMPLE_TICKS;
	atomic_inc(&vperfctr_nr_states);
	return perfctr;
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
	/* No switch-out of this state will come to zero what it leaves. */
	if (is_current)
		perfctr_cpu_unclaim();
	perfctr_irq_restore(flags);
}

/*
 * Detach from the owner and drop the owner's reference.  The PMU goes
 * back with it: a state no thread runs needs no counters, even while
 * files of it stay open to read its sums.
 */
void vperfctr_detach(struct vperfctr *perfctr, struct task_struct *tsk)
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
		return;
	}
	/* The new program did not ask for counters: no SIGILL for it. */
	perfctr->own_control = false;
	if (perfctr->rdpmc_mm) {
		/*
		 * exec_mmap() switched to the new mm, whose count is 0 (x86:
		 * CR4.PCE clear): count the state there before the program
		 * runs, and uncount it on the mm it left.
		 */
		vperfctr_revoke_rdpmc(perfctr);
		vperfctr_grant_rdpmc(perfctr, tsk);
	}
}
