// SPDX-License-Identifier: GPL-2.0
/*
 * Virtual per-thread performance counters: the vperfctrfs files that name
 * the states, their read-only mapping, and the system calls.
 */
#include <linux/cpumask.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/mount.h>
#include <linux/perfctr.h>
#include <linux/pid.h>
#include <linux/ptrace.h>
#include <linux/pseudo_fs.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/syscalls.h>
#include <linux/uaccess.h>
#include <linux/wait_bit.h>
#include <uapi/linux/magic.h>

#include "internal.h"

/*
 * The virtual counters' part of the user ABI: one layout for 32- and
 * 64-bit user space, as init.c checks for the rest (and
 * tools/testing/selftests/perfctr/abi_layout.h in user space).
 */
static_assert(offsetof(struct vperfctr_state, cpu_state) == 8);
static_assert(offsetof(struct vperfctr_state, children) ==
	      8 + sizeof(struct perfctr_cpu_state));
static_assert(offsetof(struct vperfctr_children, sum) == 16);
static_assert(sizeof(struct vperfctr_children) == 24 + 8 * PERFCTR_NRCTRS);
static_assert(offsetof(struct vperfctr_state, stops) ==
	      offsetof(struct vperfctr_state, children) + sizeof(struct vperfctr_children));
static_assert(offsetof(struct vperfctr_control, cpu_control) == 16);
static_assert(sizeof(struct vperfctr_control) % 8 == 0);
static_assert(sizeof(struct vperfctr_state) <= PAGE_SIZE);
#ifdef CONFIG_X86
static_assert(sizeof(struct vperfctr_control) == 432);
#endif
#ifdef CONFIG_PPC
static_assert(sizeof(struct vperfctr_control) == 184);
#endif

static struct vfsmount *vperfctr_mnt __ro_after_init;

static atomic64_t vperfctr_control_ids;	/* the last control_id given */

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
	int err, access_needed, old_access;

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
	old_access = perfctr->access_needed;
	if (perfctr_cstatus_nrctrs(next->cstatus)) {
		err = vperfctr_get_pmu(perfctr, access_needed);
		if (err)
			goto out;
	}
	if (forbidden_on) {
		err = vperfctr_exclude_cpus(tsk, forbidden);
		if (err) {
			if (!had_pmu)
				vperfctr_put_pmu(perfctr);
			WRITE_ONCE(perfctr->access_needed, old_access);
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
	/* Sums kept keep the reason they stopped short. */
	if (!ctl->preserve)
		WRITE_ONCE(perfctr->state->stops, 0);
	vperfctr_write_end(perfctr);
	cpumask_copy(perfctr->forbidden, forbidden);
	perfctr->forbidden_on = forbidden_on;
	perfctr->own_control = tsk == current;
	WRITE_ONCE(perfctr->own_move, false);
	perfctr->si_signo = ctl->si_signo;
	perfctr->flags = ctl->flags;
	WRITE_ONCE(perfctr->access_needed, access_needed);
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
	vperfctr_pmu_init();
	return 0;
}
