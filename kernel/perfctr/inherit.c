// SPDX-License-Identifier: GPL-2.0
/*
 * Virtual per-thread performance counters: inheritance.  A child forked
 * under an inheriting control gets a state of its own with the parent's
 * control; its totals go to its parent's children's sums when it ends
 * (Documentation/userspace-api/perfctr/virtual.rst, "Inheritance").
 */
#include <linux/perfctr.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "internal.h"

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
void vperfctr_get_children(struct vperfctr *perfctr, struct vperfctr_children *children)
{
	spin_lock(&perfctr->children_lock);
	*children = perfctr->state->children;
	spin_unlock(&perfctr->children_lock);
}

/*
 * @child's owner is gone (exit, exec, unlink) or its fork failed: its
 * totals go to its parent state now.  Its own sums and its children's
 * so far are added if it exited (not unlinked, not detached at exec),
 * neither it nor its parent changed control since the fork, and its
 * counters did not stop short (stops) -- else the counters may count
 * other events, or less, and it is counted as not merged.  A
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
struct vperfctr *vperfctr_merge_up(struct vperfctr *child)
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
	ok = !child->aborted && child->exited && child->control_id == child->inherited_id &&
	     !READ_ONCE(child->state->stops);
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
		err = vperfctr_get_pmu(perfctr, perfctr->access_needed);
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
	perfctr->own_control = parent->own_control;
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
