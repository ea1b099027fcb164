// SPDX-License-Identifier: GPL-2.0
/*
 * Virtual per-thread performance counters: who may use them
 * (kernel.perfctr_access and perf's rules), the PMU reservation a state
 * with programmable counters holds, the user-space reads it grants, and
 * the list of its holders (/proc/perfctr_pmu).
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/init.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/perfctr.h>
#include <linux/proc_fs.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/sysctl.h>

#include "internal.h"

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
int sysctl_perfctr_access __read_mostly = VPERFCTR_ACCESS_USERS_TSC;

static DEFINE_MUTEX(vperfctr_reserve_mutex);

static unsigned int vperfctr_nr_pmu_users;	/* vperfctr_reserve_mutex */

/* The states holding the PMU (has_pmu): /proc/perfctr_pmu lists them. */
static LIST_HEAD(vperfctr_pmu_holders);	/* vperfctr_reserve_mutex */

/*
 * PMU reservation: held while at least one state has a control with
 * programmable counters, so that perf_events' hardware events and a
 * thread using only the TSC do not exclude each other.  @access is the
 * kernel.perfctr_access the control needs, checked again here: the
 * sysctl's revocation serialises with this on the mutex, so a control
 * validated before the sysctl was lowered is refused (-EACCES) or is
 * on the holders' list for the revocation to find.
 */
int vperfctr_get_pmu(struct vperfctr *perfctr, int access)
{
	const char *other = NULL;

	mutex_lock(&vperfctr_reserve_mutex);
	if (access > READ_ONCE(sysctl_perfctr_access)) {
		mutex_unlock(&vperfctr_reserve_mutex);
		return -EACCES;
	}
	if (access > perfctr->access_needed)
		WRITE_ONCE(perfctr->access_needed, access);
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
void vperfctr_grant_rdpmc(struct vperfctr *perfctr, struct task_struct *tsk)
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

void vperfctr_revoke_rdpmc(struct vperfctr *perfctr)
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

void vperfctr_put_pmu(struct vperfctr *perfctr)
{
	/* Only the sysctl's revocation clears it meanwhile (not sets it). */
	if (!READ_ONCE(perfctr->has_pmu))
		return;
	mutex_lock(&vperfctr_reserve_mutex);
	__vperfctr_put_pmu(perfctr);
	mutex_unlock(&vperfctr_reserve_mutex);
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
	list_for_each_entry_safe(perfctr, next, &vperfctr_pmu_holders, pmu_node) {
		if (!vperfctr_revoked(perfctr))
			continue;
		/* Said now: an owner that never runs again keeps it. */
		vperfctr_note_stop(perfctr, VPERFCTR_STOP_REVOKED);
		__vperfctr_put_pmu(perfctr);
	}
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

/* kernel.perfctr_access and /proc/perfctr_pmu. */
void __init vperfctr_pmu_init(void)
{
	register_sysctl_init("kernel", vperfctr_sysctls);
	proc_create_single("perfctr_pmu", 0400, NULL, vperfctr_pmu_show);
}

/*
 * May the caller create a state (@pmcs false) or program one with
 * programmable counters (@pmcs true)?  0 or -EACCES; *@needed (if not
 * NULL) is the lowest kernel.perfctr_access that allows it.
 */
int vperfctr_may_use(bool pmcs, int *needed)
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
int vperfctr_may_count_kernel(void)
{
	int err = perf_allow_kernel();

	return err ?: security_locked_down(LOCKDOWN_PERF);
}

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * vperfctr_kunit_grant_rdpmc - a state's RDPMC grant and revocation
 * @tsk: the task on whose mm user reads are granted
 *
 * What fork (vperfctr_inherit()'s child) and exec (the move to the new
 * mm) run, for the x86 driver's KUnit suite: the grant takes
 * vperfctr_reserve_mutex, then @tsk's mmap_lock for writing, from
 * wherever the caller stands -- the suite calls it with exec's locks
 * held, under lockdep.
 *
 * Return: 0 when the grant was on @tsk's mm; -ENOENT when the model has
 * no user reads to grant; an error of the PMU reservation.
 */
int vperfctr_kunit_grant_rdpmc(struct task_struct *tsk)
{
	struct vperfctr *perfctr = vperfctr_alloc();
	int err;

	if (IS_ERR(perfctr))
		return PTR_ERR(perfctr);
	err = vperfctr_get_pmu(perfctr, 0);
	if (!err) {
		vperfctr_grant_rdpmc(perfctr, tsk);
		err = perfctr->rdpmc_mm && perfctr->rdpmc_mm == tsk->mm ? 0 : -ENOENT;
		vperfctr_revoke_rdpmc(perfctr);
	}
	vperfctr_put(perfctr);
	return err;
}
#endif
