// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the perfctr x86 driver on its simulated PMU (sim_kunit.c):
 * the driver core: the generic model, counting and folds, the
 * control cache, detection and the static calls, the reservation of the
 * PMU, the overflow interrupt vector, privilege bits and unused entries.
 */
#include "kunit.h"

/* ---- Counting ---- */

static struct perfctr_cpu_state *counting_state(struct kunit *test,
						const struct perfctr_x86_model *m,
						unsigned int width)
{
	struct perfctr_cpu_state *st;
	u32 map = 0, sel = EN | USR | EVENT;

	sim_setup(test, m, width);
	st = sim_state(test, 1, &map, &sel);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	return st;
}

static u64 tsc_after_2_33(void)
{
	return 0x1fffffff0ULL + BIT_ULL(33) + 0x10;
}

static void counts_accumulate_over_periods(struct kunit *test)
{
	struct perfctr_cpu_state *st = counting_state(test, &perfctr_x86_p6, 40);

	sim_run(st, 1000);
	KUNIT_EXPECT_EQ(test, 1000ULL, st->pmc[0].sum);
	sim_advance(777);	/* another thread's events: not ours */
	sim_run(st, 500);
	KUNIT_EXPECT_EQ(test, 1500ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.stray);
}

static void wraps(struct kunit *test, unsigned int width)
{
	struct perfctr_cpu_state *st = counting_state(test, &perfctr_x86_k7, width);

	sim_hw.ctr[0] = GENMASK_ULL(width - 1, 0) - 40;	/* 41 events before the wrap */
	sim_run(st, 100);
	KUNIT_EXPECT_EQ(test, 100ULL, st->pmc[0].sum);
	KUNIT_EXPECT_LT(test, sim_hw.ctr[0], 100ULL);
	sim_hw.ctr[0] = 0xffffff00ULL;			/* the low 32 bits wrap */
	sim_run(st, 0x200);
	KUNIT_EXPECT_EQ(test, 100ULL + 0x200, st->pmc[0].sum);
}

/*
 * Full-width folding: a 48-bit counter advancing more than 2^33 events
 * between two folds (a 5 GHz core retiring four instructions a cycle
 * does it in under half a second), at a suspend and at a tick's sample,
 * and then across the counter's own wrap by more than 2^32.  A fold of
 * the low 32 bits would lose every whole 2^32.
 */
static void counts_beyond_2_33_between_folds_48(struct kunit *test)
{
	struct perfctr_cpu_state *st = counting_state(test, &perfctr_x86_k7, 48);
	u64 want = BIT_ULL(33) + 5;
	unsigned long flags;

	KUNIT_EXPECT_EQ(test, 48U, st->pmc[0].width);
	sim_run(st, BIT_ULL(33) + 5);
	KUNIT_EXPECT_EQ(test, want, st->pmc[0].sum);

	local_irq_save(flags);
	perfctr_cpu_resume(st);
	sim_advance(BIT_ULL(34) + 3);
	perfctr_cpu_sample(st);
	sim_advance(BIT_ULL(33) + 1);
	perfctr_cpu_suspend(st);
	local_irq_restore(flags);
	want += BIT_ULL(34) + 3 + BIT_ULL(33) + 1;
	KUNIT_EXPECT_EQ(test, want, st->pmc[0].sum);

	sim_hw.ctr[0] = GENMASK_ULL(47, 0) - 100;
	sim_run(st, BIT_ULL(35) + 7);
	want += BIT_ULL(35) + 7;
	KUNIT_EXPECT_EQ(test, want, st->pmc[0].sum);
	KUNIT_EXPECT_LT(test, sim_hw.ctr[0], BIT_ULL(36));
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.stray);
}

/* A 40-bit counter (the P6) wrapping while it advances by more than 2^32. */
static void counts_across_a_40_bit_wrap_beyond_2_32(struct kunit *test)
{
	struct perfctr_cpu_state *st = counting_state(test, &perfctr_x86_p6, 40);

	KUNIT_EXPECT_EQ(test, 40U, st->pmc[0].width);
	sim_hw.ctr[0] = GENMASK_ULL(39, 0) - 9;
	sim_run(st, BIT_ULL(32) * 3 + 11);
	KUNIT_EXPECT_EQ(test, BIT_ULL(32) * 3 + 11, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, BIT_ULL(32) * 3 + 1, sim_hw.ctr[0]);
}

/* The TSC folds whole: a period longer than 2^32 cycles (under a second). */
static void tsc_folds_64_bits(struct kunit *test)
{
	struct perfctr_cpu_state *st = test->priv;

	st->tsc_start = 0x1fffffff0ULL;
	st->cstatus = perfctr_mk_cstatus(1, 0, 0);
	st->tsc_sum = 0;
	perfctr_tsc_refresh(st);
	perfctr_tsc_suspend(st, tsc_after_2_33);
	KUNIT_EXPECT_EQ(test, BIT_ULL(33) + 0x10, st->tsc_sum);
}

static u64 sim_tsc;

static u64 read_sim_tsc(void)
{
	return sim_tsc;
}

/* What the owner's base read finds: tsc_base + (TSC & tsc_mask). */
static u64 base_read(const struct perfctr_cpu_state *st)
{
	return st->tsc_base + (sim_tsc & st->tsc_mask);
}

/*
 * The TSC's base and mask give the virtual TSC wherever the owner runs:
 * after a resume, across samples, across a wrap of the 64-bit TSC, and
 * after perfctr_tsc_refresh() with the TSC on and off.
 */
static void tsc_base_follows_resume_sample_and_refresh(struct kunit *test)
{
	struct perfctr_cpu_state *st = test->priv;

	st->cstatus = perfctr_mk_cstatus(1, 0, 0);
	st->tsc_sum = 100;
	perfctr_tsc_refresh(st);
	KUNIT_EXPECT_EQ(test, ~0ULL, st->tsc_mask);
	sim_tsc = 5000;
	perfctr_tsc_resume(st, read_sim_tsc);
	sim_tsc = 5600;
	KUNIT_EXPECT_EQ(test, 700ULL, base_read(st));
	perfctr_tsc_sample(st, read_sim_tsc);
	sim_tsc = 6000;
	KUNIT_EXPECT_EQ(test, 1100ULL, base_read(st));
	/* Out for 3000 ticks: not counted. */
	perfctr_tsc_suspend(st, read_sim_tsc);
	sim_tsc = 9000;
	perfctr_tsc_resume(st, read_sim_tsc);
	sim_tsc = 9050;
	KUNIT_EXPECT_EQ(test, 1150ULL, base_read(st));
	/* Across the TSC's wrap. */
	perfctr_tsc_suspend(st, read_sim_tsc);
	sim_tsc = -10ULL;
	perfctr_tsc_resume(st, read_sim_tsc);
	sim_tsc = 5;
	KUNIT_EXPECT_EQ(test, 1165ULL, base_read(st));
	/* Off: the sum, whatever the TSC reads. */
	perfctr_tsc_suspend(st, read_sim_tsc);
	st->cstatus = 0;
	perfctr_tsc_refresh(st);
	KUNIT_EXPECT_EQ(test, 0ULL, st->tsc_mask);
	sim_tsc = 123456;
	KUNIT_EXPECT_EQ(test, 1165ULL, base_read(st));
	/* A resume with the TSC off leaves them. */
	perfctr_tsc_resume(st, read_sim_tsc);
	KUNIT_EXPECT_EQ(test, 1165ULL, base_read(st));
	/* On again, by a refresh then the resume. */
	st->cstatus = perfctr_mk_cstatus(1, 0, 0);
	perfctr_tsc_refresh(st);
	perfctr_tsc_resume(st, read_sim_tsc);
	sim_tsc += 35;
	KUNIT_EXPECT_EQ(test, 1200ULL, base_read(st));
}

static void counts_across_wrap_32(struct kunit *test)
{
	wraps(test, 32);
}

static void counts_across_wrap_40(struct kunit *test)
{
	wraps(test, 40);
}

static void counts_across_wrap_48(struct kunit *test)
{
	wraps(test, 48);
}

static void sample_keeps_counting(struct kunit *test)
{
	struct perfctr_cpu_state *st = counting_state(test, &perfctr_x86_p6, 40);
	unsigned long flags;

	local_irq_save(flags);
	perfctr_cpu_resume(st);
	sim_advance(300);
	perfctr_cpu_sample(st);
	KUNIT_EXPECT_EQ(test, 300ULL, st->pmc[0].sum);
	sim_advance(200);
	perfctr_cpu_suspend(st);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, 500ULL, st->pmc[0].sum);
}

static void two_counters_count_separately(struct kunit *test)
{
	u32 maps[] = { 1, 0 }, sels[] = { USR | 0x79, EN | USR | EVENT };
	struct perfctr_cpu_state *st;

	sim_setup(test, &perfctr_x86_p6, 40);
	st = sim_state(test, 2, maps, sels);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	sim_hw.ctr[1] = 5000;
	sim_run(st, 42);
	KUNIT_EXPECT_EQ(test, 42ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 42ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, 1U, st->pmc[0].map);
	KUNIT_EXPECT_EQ(test, 0U, st->pmc[1].map);
}

/* ---- The control register cache ---- */

/*
 * The P6 (an enable bit, no global control): the first resume writes
 * EVNTSEL0, the suspend clears its enable bit (nothing counts for the
 * next thread), and each later resume on the same CPU sets it again --
 * two writes a switch, the other event selects cached.
 */
static void resume_writes_control_once(struct kunit *test)
{
	struct perfctr_cpu_state *st = counting_state(test, &perfctr_x86_p6, 40);

	sim_run(st, 1);
	KUNIT_EXPECT_EQ(test, 2U, sim_hw.wrmsrs);
	KUNIT_EXPECT_EQ(test, (u64)(EN | USR | EVENT), sim_hw.run_evntsel[0]);
	KUNIT_EXPECT_EQ(test, (u64)(USR | EVENT), sim_hw.evntsel[0]);	/* stopped */
	sim_run(st, 1);
	sim_run(st, 1);
	KUNIT_EXPECT_EQ(test, 6U, sim_hw.wrmsrs);	/* the enable bit, on and off */
	KUNIT_EXPECT_EQ(test, -1, sim_written(MSR_P6_EVNTSEL0 + 1, 0));
	KUNIT_EXPECT_EQ(test, 3ULL, st->pmc[0].sum);
}

static void resume_writes_only_what_differs(struct kunit *test)
{
	u32 maps[] = { 0, 1 };
	u32 a[] = { EN | USR | EVENT, USR | 0x79 }, b[] = { EN | USR | EVENT, OS | 0x79 };
	struct perfctr_cpu_state *sa, *sb;

	sim_setup(test, &perfctr_x86_p6, 40);
	sa = sim_state(test, 2, maps, a);
	sb = sim_state(test, 2, maps, b);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(sa, 0));
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(sb, 0));
	KUNIT_EXPECT_NE(test, sa->k1.id, sb->k1.id);
	sim_run(sa, 1);
	KUNIT_EXPECT_EQ(test, 3U, sim_hw.wrmsrs);	/* both, then EVNTSEL0's enable */
	sim_run(sb, 1);
	/*
	 * Another control: both counters zeroed (perfctr_x86_claim_ctrs()),
	 * then EVNTSEL0's enable on, EVNTSEL1 (the one that differs),
	 * enable off.
	 */
	KUNIT_EXPECT_EQ(test, 8U, sim_hw.wrmsrs);
	KUNIT_EXPECT_EQ(test, 3, sim_written(MSR_P6_PERFCTR0, 3));
	KUNIT_EXPECT_EQ(test, 4, sim_written(MSR_P6_PERFCTR0 + 1, 3));
	KUNIT_EXPECT_EQ(test, 6, sim_written(MSR_P6_EVNTSEL0 + 1, 5));
	KUNIT_EXPECT_EQ(test, (u64)(OS | 0x79), sim_hw.run_evntsel[1]);
	sim_run(sb, 1);
	KUNIT_EXPECT_EQ(test, 10U, sim_hw.wrmsrs);
	KUNIT_EXPECT_EQ(test, -1, sim_written(MSR_P6_EVNTSEL0 + 1, 8));
	KUNIT_EXPECT_EQ(test, -1, sim_written(MSR_P6_PERFCTR0, 8));
}

static void unused_counters_are_disabled(struct kunit *test)
{
	u32 maps[] = { 0, 1 }, sels[] = { EN | USR | EVENT, USR | 0x79 };
	u32 map0 = 0, sel0 = EN | OS | EVENT;
	struct perfctr_cpu_state *two, *one;

	sim_setup(test, &perfctr_x86_p6, 40);
	two = sim_state(test, 2, maps, sels);
	one = sim_state(test, 1, &map0, &sel0);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(two, 0));
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(one, 0));
	sim_run(two, 10);
	sim_run(one, 10);
	KUNIT_EXPECT_EQ(test, 0ULL, sim_hw.run_evntsel[1]);
	KUNIT_EXPECT_EQ(test, (u64)sel0, sim_hw.run_evntsel[0]);
	KUNIT_EXPECT_EQ(test, 10ULL, one->pmc[0].sum);
}

static void new_control_gets_new_id(struct kunit *test)
{
	struct perfctr_cpu_state *st = counting_state(test, &perfctr_x86_p6, 40);
	u64 id = st->k1.id;

	KUNIT_EXPECT_NE(test, 0ULL, id);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	KUNIT_EXPECT_NE(test, id, st->k1.id);
	sim_resume(st);
	KUNIT_EXPECT_EQ(test, st->k1.id, perfctr_x86_this_cache()->id);
	sim_suspend(st);
}

/*
 * The control id is the per-CPU cache key: a new control whose id matched
 * the one a CPU's cache holds would run with the registers loaded for
 * another control (another user's, a privileged one's OS and INT bits).
 * Ids are 64 random bits (perfctr_new_control_id()): two that share
 * their low 32 bits are still two controls to the cache.
 */
static void control_id_past_2_32_is_not_a_cached_id(struct kunit *test)
{
	u32 maps[] = { 0 };
	u32 priv[] = { EN | OS | USR | EVENT }, user[] = { EN | USR | 0x79 };
	struct perfctr_cpu_state *sa, *sb;

	/* A global control: the cache's id outlives the suspend (p6_astop()). */
	sim_setup(test, ARCH, 48);
	sa = sim_state(test, 1, maps, priv);
	sb = sim_state(test, 1, maps, user);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(sa, 1));
	sim_run(sa, 1);
	KUNIT_EXPECT_EQ(test, (u64)priv[0], sim_hw.run_evntsel[0]);
	/* The next control's id: sa's plus 2^32 (as if drawn so). */
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(sb, 0));
	sb->k1.id = sa->k1.id + (1ULL << 32);
	KUNIT_EXPECT_EQ(test, (u32)sa->k1.id, (u32)sb->k1.id);
	sim_resume(sb);
	KUNIT_EXPECT_EQ(test, sb->k1.id, perfctr_x86_this_cache()->id);
	sim_advance(1);
	sim_suspend(sb);
	KUNIT_EXPECT_EQ(test, (u64)user[0], sim_hw.run_evntsel[0]);
	/* And back: sa's registers again, not sb's. */
	sim_run(sa, 1);
	KUNIT_EXPECT_EQ(test, (u64)priv[0], sim_hw.run_evntsel[0]);
}

/* ---- Model selection and the static calls ---- */

static void static_calls_follow_the_model(struct kunit *test)
{
	struct perfctr_x86_ops g, p, k;

	perfctr_x86_use_model(NULL);
	perfctr_x86_get_ops(&g);
	perfctr_x86_use_model(&perfctr_x86_p6);
	perfctr_x86_get_ops(&p);
	perfctr_x86_use_model(&perfctr_x86_k7);
	perfctr_x86_get_ops(&k);
	KUNIT_EXPECT_PTR_NE(test, g.check, p.check);
	KUNIT_EXPECT_PTR_NE(test, g.suspend, p.suspend);
	KUNIT_EXPECT_PTR_NE(test, g.resume, p.resume);
	KUNIT_EXPECT_PTR_NE(test, g.write_control, p.write_control);
	/* P6 and K7 share the P6-family code, parametrised by data. */
	KUNIT_EXPECT_PTR_EQ(test, p.check, k.check);
	KUNIT_EXPECT_PTR_EQ(test, p.write_control, k.write_control);
	perfctr_x86_use_model(NULL);
	perfctr_x86_get_ops(&p);
	KUNIT_EXPECT_PTR_EQ(test, g.check, p.check);
	KUNIT_EXPECT_PTR_EQ(test, g.resume, p.resume);
}

static void model_sets_type_and_features(struct kunit *test)
{
	struct perfctr_info info = {};

	perfctr_x86_use_model(&perfctr_x86_k7);
	perfctr_cpu_fill_info(&info);
	KUNIT_EXPECT_EQ(test, (u32)PERFCTR_X86_AMD_K7, info.cpu_type);
	KUNIT_EXPECT_TRUE(test, info.cpu_features & PERFCTR_FEATURE_RDPMC);
	perfctr_x86_use_model(NULL);
	perfctr_cpu_fill_info(&info);
	KUNIT_EXPECT_EQ(test, (u32)PERFCTR_X86_GENERIC, info.cpu_type);
	KUNIT_EXPECT_FALSE(test, info.cpu_features & PERFCTR_FEATURE_RDPMC);
}

static bool pce_on(void)
{
	return cr4_read_shadow() & X86_CR4_PCE;
}

/*
 * User RDPMC follows the mm, on this (emulated) CPU's real CR4: the mm
 * switches are the kernel's own (kthread_use_mm() runs
 * switch_mm_irqs_off(), as exec_mmap(), use_temporary_mm() and the
 * context switch do), and CR4.PCE must be set exactly while the loaded
 * mm holds a count.  The exec sequence: the new mm is loaded with no
 * count (PCE clear), then the exec hook counts it (the IPI reaches this
 * CPU, so PCE is set before the program's first instruction) and
 * uncounts the old mm.
 */
static void rdpmc_permission_follows_the_mm(struct kunit *test)
{
	struct mm_struct *old, *new;

	if (static_branch_unlikely(&rdpmc_always_available_key) ||
	    static_branch_unlikely(&rdpmc_never_available_key))
		kunit_skip(test, "perf's rdpmc sysfs knob is not 1 (the default)");
	old = mm_alloc();
	KUNIT_ASSERT_NOT_NULL(test, old);
	new = mm_alloc();
	if (!new)
		mmput(old);
	KUNIT_ASSERT_NOT_NULL(test, new);
	perfctr_x86_use_model(&perfctr_x86_k7);

	/* A state with counters in the old mm: PCE there, not elsewhere. */
	KUNIT_EXPECT_TRUE(test, perfctr_cpu_rdpmc_get(old));
	kthread_use_mm(old);
	KUNIT_EXPECT_TRUE(test, pce_on());
	kthread_unuse_mm(old);
	kthread_use_mm(new);
	KUNIT_EXPECT_FALSE(test, pce_on());

	/* exec: the hook moves the count while the new mm is loaded. */
	KUNIT_EXPECT_TRUE(test, perfctr_cpu_rdpmc_get(new));
	KUNIT_EXPECT_TRUE(test, pce_on());
	perfctr_cpu_rdpmc_put(old);
	KUNIT_EXPECT_TRUE(test, pce_on());
	kthread_unuse_mm(new);

	/* A temporary switch away and back (use_temporary_mm()). */
	kthread_use_mm(old);
	KUNIT_EXPECT_FALSE(test, pce_on());
	kthread_unuse_mm(old);
	kthread_use_mm(new);
	KUNIT_EXPECT_TRUE(test, pce_on());

	/* The last count goes (detach, exit): PCE clear at once. */
	perfctr_cpu_rdpmc_put(new);
	KUNIT_EXPECT_FALSE(test, pce_on());
	kthread_unuse_mm(new);

	/* No count on a model without RDPMC, nor on the generic one. */
	perfctr_x86_use_model(NULL);
	KUNIT_EXPECT_FALSE(test, perfctr_cpu_rdpmc_get(new));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&new->context.perf_rdpmc_allowed));
	mmput(old);
	mmput(new);
}

/*
 * fork(): dup_mm() copies the parent's mm_struct whole, RDPMC count
 * included, then mm_init() runs init_new_context().  The child's mm must
 * start at zero: no event or state of its own is mapped there, and the
 * parent's unmap would never balance a copied count (CR4.PCE would stay
 * set for the child until it execs).
 */
static void forked_mm_starts_without_rdpmc(struct kunit *test)
{
	struct mm_struct *parent, *child;

	if (static_branch_unlikely(&rdpmc_always_available_key) ||
	    static_branch_unlikely(&rdpmc_never_available_key))
		kunit_skip(test, "perf's rdpmc sysfs knob is not 1 (the default)");
	parent = mm_alloc();
	KUNIT_ASSERT_NOT_NULL(test, parent);
	child = mm_alloc();
	if (!child)
		mmput(parent);
	KUNIT_ASSERT_NOT_NULL(test, child);
	perfctr_x86_use_model(&perfctr_x86_k7);
	KUNIT_EXPECT_TRUE(test, perfctr_cpu_rdpmc_get(parent));
	/* What dup_mm()'s memcpy() leaves, then what mm_init() does. */
	atomic_set(&child->context.perf_rdpmc_allowed,
		   atomic_read(&parent->context.perf_rdpmc_allowed));
	KUNIT_EXPECT_EQ(test, 0, init_new_context(current, child));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&child->context.perf_rdpmc_allowed));
	kthread_use_mm(child);
	KUNIT_EXPECT_FALSE(test, pce_on());
	kthread_unuse_mm(child);
	kthread_use_mm(parent);
	KUNIT_EXPECT_TRUE(test, pce_on());
	kthread_unuse_mm(parent);
	perfctr_cpu_rdpmc_put(parent);
	mmput(parent);
	mmput(child);
}

/*
 * The virtual counters' grant of user reads takes vperfctr_reserve_mutex
 * and then the mm's mmap_lock for writing, in fork (no lock held around
 * perfctr_fork()) and in exec, where begin_new_exec() holds
 * cred_guard_mutex and exec_update_lock around the exec hook: run both
 * with a model that has RDPMC (the generic model has nothing to grant,
 * and QEMU's x86 CPUs have no PMU, so no selftest reaches it), under
 * lockdep in the debug kernels, which must find nothing.
 */
/*
 * A model with RDPMC whose counters the PMU allocator of the CPU running
 * the suite maps to its own bits, or does not arbitrate at all: another
 * vendor's MSRs would all map to bit 0 there (nmi_perfctr_msr_to_bit()),
 * and the reservation of the second counter would fail.
 */
static const struct perfctr_x86_model *grant_model(void)
{
	switch (boot_cpu_data.x86_vendor) {
	case X86_VENDOR_AMD:
	case X86_VENDOR_HYGON:
		return &perfctr_x86_k7;
	case X86_VENDOR_INTEL:
		if (boot_cpu_data.x86 == 6)
			return &perfctr_x86_p6;
		break;
	}
	return &perfctr_x86_p5mmx;
}

static void rdpmc_grant_in_fork_and_exec(struct kunit *test)
{
	struct signal_struct *sig = current->signal;
	struct mm_struct *mm;
	int err;

	/* Before the virtual counters' patch the call is compiled out. */
	if (!IS_ENABLED(CONFIG_PERFCTR_VIRTUAL)) {
		kunit_skip(test, "no virtual counters (CONFIG_PERFCTR_VIRTUAL)");
		return;
	}
	if (static_branch_unlikely(&rdpmc_always_available_key) ||
	    static_branch_unlikely(&rdpmc_never_available_key))
		kunit_skip(test, "perf's rdpmc sysfs knob is not 1 (the default)");
	mm = mm_alloc();
	KUNIT_ASSERT_NOT_NULL(test, mm);
	perfctr_x86_use_model(grant_model());
	kthread_use_mm(mm);

	/* fork: the child's state granted on the child's mm. */
	err = vperfctr_kunit_grant_rdpmc(current);
	KUNIT_EXPECT_EQ(test, 0, err);
	KUNIT_EXPECT_FALSE(test, pce_on());

	/* exec: granted on the new mm with exec's locks held. */
	mutex_lock(&sig->cred_guard_mutex);
	down_write(&sig->exec_update_lock);
	KUNIT_EXPECT_EQ(test, 0, vperfctr_kunit_grant_rdpmc(current));
	up_write(&sig->exec_update_lock);
	mutex_unlock(&sig->cred_guard_mutex);

	KUNIT_EXPECT_FALSE(test, pce_on());
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&mm->context.perf_rdpmc_allowed));
	/* Lockdep turns itself off at the first report. */
	KUNIT_EXPECT_TRUE(test, debug_locks);
	kthread_unuse_mm(mm);

	/* The generic model: nothing to grant, no lock taken. */
	perfctr_x86_use_model(NULL);
	kthread_use_mm(mm);
	KUNIT_EXPECT_EQ(test, -ENOENT, vperfctr_kunit_grant_rdpmc(current));
	kthread_unuse_mm(mm);
	mmput(mm);
}

/* perf's rdpmc knob at 0 takes PERFCTR_FEATURE_RDPMC out of perfctr_info(). */
static void rdpmc_knob_off_hides_the_feature(struct kunit *test)
{
	struct perfctr_info info = {};

	if (static_branch_unlikely(&rdpmc_never_available_key))
		kunit_skip(test, "perf's rdpmc sysfs knob is 0 already");
	perfctr_x86_use_model(&perfctr_x86_k7);
	static_branch_enable(&rdpmc_never_available_key);
	perfctr_cpu_fill_info(&info);
	static_branch_disable(&rdpmc_never_available_key);
	KUNIT_EXPECT_FALSE(test, info.cpu_features & PERFCTR_FEATURE_RDPMC);
	perfctr_cpu_fill_info(&info);
	KUNIT_EXPECT_TRUE(test, info.cpu_features & PERFCTR_FEATURE_RDPMC);
}

/* PERFCTR_FEATURE_TSC_CONSTANT is the CPU's CONSTANT_TSC, on any model. */
static void tsc_constant_follows_the_cpu(struct kunit *test)
{
	struct perfctr_info info = {};

	perfctr_x86_use_model(NULL);
	perfctr_cpu_fill_info(&info);
	KUNIT_EXPECT_EQ(test, boot_cpu_has(X86_FEATURE_CONSTANT_TSC),
			!!(info.cpu_features & PERFCTR_FEATURE_TSC_CONSTANT));
	KUNIT_EXPECT_EQ(test, 1U, info.tsc_to_cpu_mult);
}

/*
 * Detection by feature, not family, on CPUID values in the layouts the
 * vendors document: Intel's leaf 0xA (SDM vol. 3, "Architectural
 * Performance Monitoring": EAX version, counters, width; EDX fixed
 * counters and width; ECX the fixed-counter bitmap from version 5) and
 * AMD's leaf 0x80000022 (APM vol. 3 / the family 1Ah PPR: EBX[3:0]
 * NumPerfCtrCore, [9:4] LbrV2StackSz, [15:10] NumPerfCtrNB).
 */
static const struct {
	const char *name;
	struct perfctr_x86_cpuid c;
	u32 cpu_type;		/* 0: the generic model (NULL) */
	unsigned int nr_ctrs, nr_fixed, width;
	bool global;
} detect_cases[] = {
	{ "Intel family 19, perfmon v6: 8 general, 4 fixed, 48 bits",
	  { .vendor = X86_VENDOR_INTEL, .family = 19, .model = 1, .arch_perfmon = true,
	    .eax10 = 0x08300806, .ecx10 = 0xf, .edx10 = (48 << 5) | 4 },
	  PERFCTR_X86_INTEL_ARCH, 8, 4, 48, true },
	{ "Intel family 18, counters in CPUID 0x23 (10 general, fixed 0-2 and 5)",
	  { .vendor = X86_VENDOR_INTEL, .family = 18, .model = 1, .arch_perfmon = true,
	    .eax10 = 0x08300806, .edx10 = (48 << 5) | 3,
	    .ext = true, .gp23 = 0x3ff, .fixed23 = 0x27 },
	  PERFCTR_X86_INTEL_ARCH, 10, 4, 48, true },
	{ "Intel family 19 without architectural perfmon: generic",
	  { .vendor = X86_VENDOR_INTEL, .family = 19, .model = 1 }, 0 },
	{ "Intel family 6 without architectural perfmon: the P6",
	  { .vendor = X86_VENDOR_INTEL, .family = 6, .model = 8 },
	  PERFCTR_X86_INTEL_P6, 2, 0, 40, false },
	{ "AMD Zen 5 (family 1Ah): PerfMonV2, 6 core counters",
	  { .vendor = X86_VENDOR_AMD, .family = 0x1a, .model = 0x44, .perfctr_core = true,
	    .perfmon_v2 = true, .ebx_80000022 = (16 << 10) | (16 << 4) | 6 },
	  PERFCTR_X86_AMD_FAM15H, 6, 0, 48, true },
	{ "AMD, PerfMonV2 with NumPerfCtrCore 4: the field, not a constant",
	  { .vendor = X86_VENDOR_AMD, .family = 0x1a, .model = 0x44, .perfctr_core = true,
	    .perfmon_v2 = true, .ebx_80000022 = 4 },
	  PERFCTR_X86_AMD_FAM15H, 4, 0, 48, true },
	{ "AMD Zen 2 (family 17h): core counters, no PerfMonV2",
	  { .vendor = X86_VENDOR_AMD, .family = 0x17, .model = 0x31, .perfctr_core = true },
	  PERFCTR_X86_AMD_FAM15H, 6, 0, 48, false },
	{ "Hygon family 18h: as AMD",
	  { .vendor = X86_VENDOR_HYGON, .family = 0x18, .perfctr_core = true },
	  PERFCTR_X86_AMD_FAM15H, 6, 0, 48, false },
	{ "AMD family 10h: the K7's four counters, EventSelect[11:8] too",
	  { .vendor = X86_VENDOR_AMD, .family = 0x10, .model = 2 },
	  PERFCTR_X86_AMD_FAM10H, 4, 0, 48, false },
	{ "AMD K8 (family 0Fh): the K7's",
	  { .vendor = X86_VENDOR_AMD, .family = 0xf, .model = 0x21 },
	  PERFCTR_X86_AMD_K7, 4, 0, 48, false },
	/*
	 * What KVM presents to a guest booted with -cpu host (make try):
	 * its vPMU's CPUID, the host's family and model.  Intel: version 2
	 * (KVM's cap), the host's general counters up to 8, three fixed
	 * counters, full-width writes when the host has them.  AMD: the
	 * core counters with PerfMonV2 on a Zen 4 host, or only the legacy
	 * four (no PERFCTR_CORE in the guest's CPUID).
	 */
	{ "KVM guest, Intel host: perfmon v2, 8 general, 3 fixed, 48 bits",
	  { .vendor = X86_VENDOR_INTEL, .family = 6, .model = 0x6a, .arch_perfmon = true,
	    .fw_writes = true, .eax10 = 0x07300802, .edx10 = (48 << 5) | 3 },
	  PERFCTR_X86_INTEL_ARCH, 8, 3, 48, true },
	{ "KVM guest, Intel host with 4 general counters (hyper-threads on)",
	  { .vendor = X86_VENDOR_INTEL, .family = 6, .model = 0x55, .arch_perfmon = true,
	    .eax10 = 0x07300402, .edx10 = (48 << 5) | 3 },
	  PERFCTR_X86_INTEL_ARCH, 4, 3, 48, true },
	{ "KVM guest, AMD Zen 4 host: PerfMonV2, 6 core counters",
	  { .vendor = X86_VENDOR_AMD, .family = 0x19, .model = 0x11, .perfctr_core = true,
	    .perfmon_v2 = true, .ebx_80000022 = 6 },
	  PERFCTR_X86_AMD_FAM15H, 6, 0, 48, true },
	{ "KVM guest, AMD host, legacy vPMU (no PERFCTR_CORE): the four K7 MSRs",
	  { .vendor = X86_VENDOR_AMD, .family = 0x19, .model = 0x01 },
	  PERFCTR_X86_AMD_FAM10H, 4, 0, 48, false },
	{ "Intel Skylake with TSX force-abort, TFA clear: PMC3 is TSX's",
	  { .vendor = X86_VENDOR_INTEL, .family = 6, .model = 0x5e, .arch_perfmon = true,
	    .eax10 = 0x07300404, .edx10 = (48 << 5) | 3, .tsx_owns_pmc3 = true },
	  PERFCTR_X86_INTEL_ARCH, 3, 3, 48, true },
};

KUNIT_ARRAY_PARAM_DESC(detect_cases, detect_cases, name);

/*
 * A driver model against its manual's registers (sim_manual_regs()),
 * which the simulated PMU decodes: a model that programmed other MSRs,
 * more counters than they address, or another width would otherwise be
 * tested against registers it does not program.
 */
static void expect_manual_regs(struct kunit *test, const struct perfctr_x86_model *m)
{
	const struct sim_regs *r = sim_manual_regs(m);
	unsigned int nr_gp = m->gp_mask ? fls(m->gp_mask) : m->nr_ctrs;
	unsigned int nr_fixed = m->fixed_mask ? fls(m->fixed_mask) : m->nr_fixed;

	KUNIT_ASSERT_NOT_NULL_MSG(test, r, "%s: no manual's registers", m->name);
	KUNIT_EXPECT_EQ_MSG(test, r->evntsel0, m->evntsel_msr, "%s: %s", m->name, r->manual);
	KUNIT_EXPECT_EQ_MSG(test, r->ctr0, m->perfctr_msr, "%s: %s", m->name, r->manual);
	KUNIT_EXPECT_EQ_MSG(test, r->stride, m->evntsel_stride, "%s: %s", m->name, r->manual);
	if (r->from_cpuid)
		KUNIT_EXPECT_LE_MSG(test, nr_gp, r->nr_gp, "%s: %s", m->name, r->manual);
	else
		KUNIT_EXPECT_EQ_MSG(test, r->nr_gp, nr_gp, "%s: %s", m->name, r->manual);
	KUNIT_EXPECT_LE_MSG(test, nr_fixed, r->nr_fixed, "%s: %s", m->name, r->manual);
	if (m->ctr_width && r->width)
		KUNIT_EXPECT_EQ_MSG(test, r->width, m->ctr_width, "%s: %s", m->name, r->manual);
	KUNIT_EXPECT_EQ_MSG(test, r->en0_only, m->global_enable, "%s: %s", m->name, r->manual);
	KUNIT_EXPECT_EQ_MSG(test, r->global_ctrl, m->global_ctrl_msr, "%s: %s", m->name,
			    r->manual);
	KUNIT_EXPECT_EQ_MSG(test, r->ovf_ctrl, m->ovf_ctrl_msr, "%s: %s", m->name, r->manual);
	if (m->ctr_write_msr)
		KUNIT_EXPECT_EQ_MSG(test, r->full_width0, m->ctr_write_msr, "%s: %s", m->name,
				    r->manual);
	/* The fixed counters' registers are the kernel's constants: the manual's too. */
	if (nr_fixed) {
		KUNIT_EXPECT_EQ(test, r->fixed0, MSR_CORE_PERF_FIXED_CTR0);
		KUNIT_EXPECT_EQ(test, r->fixed_ctrl, MSR_CORE_PERF_FIXED_CTR_CTRL);
	}
}

/* One CPU of detect_cases[] (a parameterised case). */
static void detect_by_feature_not_family(struct kunit *test)
{
	const typeof(detect_cases[0]) *t = test->param_value;
	const struct perfctr_x86_model *m = perfctr_x86_detect_cpu(&t->c, sim_model_buf(test));

	if (!t->cpu_type) {
		KUNIT_EXPECT_NULL(test, m);
		return;
	}
	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_EXPECT_EQ(test, t->cpu_type, m->cpu_type);
	KUNIT_EXPECT_EQ(test, t->nr_ctrs, m->gp_mask ? hweight32(m->gp_mask) : m->nr_ctrs);
	KUNIT_EXPECT_EQ(test, t->nr_fixed,
			m->fixed_mask ? hweight32(m->fixed_mask) : m->nr_fixed);
	KUNIT_EXPECT_EQ(test, t->width, m->ctr_width);
	KUNIT_EXPECT_EQ(test, t->global, !!m->global_ctrl_msr);
	/* And the registers it programs are the manual's. */
	expect_manual_regs(test, m);
}

/* Every model the driver has built in, against the manuals. */
static void driver_models_match_the_manuals(struct kunit *test)
{
	static const struct perfctr_x86_model *const models[] = {
		&perfctr_x86_p6, &perfctr_x86_k7, &perfctr_x86_fam10h,
		&perfctr_x86_amd_core, &perfctr_x86_amd_core_v1,
		&perfctr_x86_p5, &perfctr_x86_p5mmx, &perfctr_x86_mii,
		&perfctr_x86_winchip_c6, &perfctr_x86_winchip_2, &perfctr_x86_vc3,
		&perfctr_x86_p4, &perfctr_x86_p4m2, &perfctr_x86_p4m3,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(models); i++)
		expect_manual_regs(test, models[i]);
}

/*
 * Family 10h-16h without the core counters take EventSelect[11:8] in
 * evntsel_high, as the user ABI says (family 10h and later); the K7/K8
 * refuse it.  And where TSX owns PMC3 a control naming it is refused.
 */
static void fam10h_event_select_high_and_tsx_pmc3(struct kunit *test)
{
	u32 map = 0, sel = EN | USR | 0xc0;
	struct perfctr_cpu_state *st;

	sim_setup(test, &perfctr_x86_fam10h, 48);
	st = sim_state(test, 1, &map, &sel);
	st->control.evntsel_high[0] = 0x1;
	KUNIT_EXPECT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	sim_setup(test, &perfctr_x86_k7, 48);
	st = sim_state(test, 1, &map, &sel);
	st->control.evntsel_high[0] = 0x1;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));

	sim_setup(test, perfctr_x86_detect_cpu(&detect_cases[ARRAY_SIZE(detect_cases) - 1].c,
					       sim_model_buf(test)), 48);
	KUNIT_EXPECT_EQ(test, 0, sim_check_on(test, 2, EN | USR | EVENT));
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check_on(test, 3, EN | USR | EVENT));
}

/*
 * Architectural perfmon v6's per-counter user-RDPMC disable (event select
 * bit 37, fixed control bit 33 + 4n) stays clear: evntsel_high is refused
 * on Intel, and a fixed counter's control is its 4-bit field only.
 */
static void v6_rdpmc_user_disable_stays_clear(struct kunit *test)
{
	const struct perfctr_x86_model *m = perfctr_x86_detect_cpu(&detect_cases[0].c,
								   sim_model_buf(test));
	struct perfctr_cpu_state *st;
	u32 map = 0, sel = EN | USR | EVENT, fmap = FIXED(0), fsel = F_USR;
	unsigned long flags;

	KUNIT_ASSERT_NOT_NULL(test, m);
	sim_setup(test, m, 48);
	st = sim_state(test, 1, &map, &sel);
	st->control.evntsel_high[0] = ARCH_PERFMON_EVENTSEL_RDPMC_USER_DISABLE >> 32;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st = sim_state(test, 1, &fmap, &fsel);
	st->control.evntsel[0] = F_USR | (INTEL_FIXED_0_RDPMC_USER_DISABLE >> 32) << 4;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st = sim_state(test, 1, &fmap, &fsel);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	local_irq_save(flags);
	perfctr_cpu_resume(st);
	perfctr_cpu_suspend(st);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, 0ULL, sim_hw.fixed_ctrl & INTEL_FIXED_0_RDPMC_USER_DISABLE);
	KUNIT_EXPECT_EQ(test, (u64)F_USR, sim_hw.fixed_ctrl);
}

static void generic_rejects_pmcs(struct kunit *test)
{
	struct perfctr_cpu_state *st;
	u32 map = 0, sel = EN | USR | EVENT;

	perfctr_x86_use_model(NULL);
	st = sim_state(test, 1, &map, &sel);
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	/* The TSC alone, with nothing left in the counter entries. */
	st->control.nractrs = 0;
	st->control.pmc_map[0] = 0;
	st->control.evntsel[0] = 0;
	KUNIT_EXPECT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	KUNIT_EXPECT_EQ(test, perfctr_mk_cstatus(1, 0, 0), st->cstatus);
}

static void cstatus_encoding(struct kunit *test)
{
	unsigned int c = perfctr_mk_cstatus(1, 3, 2);

	KUNIT_EXPECT_TRUE(test, perfctr_cstatus_has_tsc(c));
	KUNIT_EXPECT_EQ(test, 3U, perfctr_cstatus_nractrs(c));
	KUNIT_EXPECT_EQ(test, 5U, perfctr_cstatus_nrctrs(c));
	KUNIT_EXPECT_TRUE(test, perfctr_cstatus_has_ictrs(c));
	KUNIT_EXPECT_FALSE(test, perfctr_cstatus_enabled(perfctr_mk_cstatus(0, 0, 0)));
	KUNIT_EXPECT_FALSE(test, perfctr_cstatus_has_ictrs(perfctr_mk_cstatus(1, 2, 0)));
}

#ifdef CONFIG_X86_LOCAL_APIC
/* ---- Arbitration with perf_events, through the kernel's PMU allocator ---- */

static const char test_service[] = "perfctr KUnit";

/*
 * Reserve the PMU for a case that needs it, or skip the case where
 * perf_events holds it -- on a real machine, the NMI watchdog's cycles
 * event: that is the machine's state, not a fault of the driver.
 */
static void reserve_or_skip(struct kunit *test)
{
	const char *holder = perfctr_cpu_reserve(test_service);

	if (holder && strstr(holder, "perf_events"))
		kunit_skip(test, "the PMU is held by %s", holder);
	KUNIT_ASSERT_NULL(test, holder);
}

static const struct perfctr_x86_model *boot_vendor_model(struct kunit *test)
{
	switch (boot_cpu_data.x86_vendor) {
	case X86_VENDOR_INTEL:
		/* Family 15 (P4) maps other MSRs, family 5 none. */
		if (boot_cpu_data.x86 == 6)
			return &perfctr_x86_p6;
		break;
	case X86_VENDOR_AMD:
	case X86_VENDOR_HYGON:
		return &perfctr_x86_k7;
	}
	kunit_skip(test, "the PMU allocator's MSR map is for Intel family 6 and AMD only here");
	return NULL;
}

/*
 * PERFCTR_FEATURE_PMU_BUSY is read, not taken: perf_events' hold is
 * played by reserving counter 0 in the PMU allocator as perf does.
 */
static void pmu_busy_reported_without_taking_it(struct kunit *test)
{
	const struct perfctr_x86_model *m = boot_vendor_model(test);
	struct perfctr_info info = {};

	perfctr_x86_use_model(m);
	perfctr_cpu_fill_info(&info);
	if (info.cpu_features & PERFCTR_FEATURE_PMU_BUSY)
		kunit_skip(test, "the PMU is held by perf_events already");
	KUNIT_ASSERT_TRUE(test, reserve_perfctr_nmi(m->perfctr_msr));
	perfctr_cpu_fill_info(&info);
	KUNIT_EXPECT_TRUE(test, info.cpu_features & PERFCTR_FEATURE_PMU_BUSY);
	/* Asking took nothing: the next counter is still free. */
	KUNIT_EXPECT_TRUE(test, reserve_perfctr_nmi(m->perfctr_msr + m->evntsel_stride));
	release_perfctr_nmi(m->perfctr_msr + m->evntsel_stride);
	release_perfctr_nmi(m->perfctr_msr);
	perfctr_cpu_fill_info(&info);
	KUNIT_EXPECT_FALSE(test, info.cpu_features & PERFCTR_FEATURE_PMU_BUSY);
	/*
	 * perf with full-width counter writes: its counters' IA32_A_PMCx
	 * addresses reserve nothing, its event selects do.
	 */
	KUNIT_ASSERT_TRUE(test, reserve_evntsel_nmi(m->evntsel_msr));
	perfctr_cpu_fill_info(&info);
	release_evntsel_nmi(m->evntsel_msr);
	KUNIT_EXPECT_TRUE(test, info.cpu_features & PERFCTR_FEATURE_PMU_BUSY);
	/* perfctr's own hold is not another user's. */
	reserve_or_skip(test);
	perfctr_cpu_fill_info(&info);
	perfctr_cpu_release(test_service);
	KUNIT_EXPECT_FALSE(test, info.cpu_features & PERFCTR_FEATURE_PMU_BUSY);
}

static void reserve_takes_the_pmu_from_perf(struct kunit *test)
{
	const struct perfctr_x86_model *m = boot_vendor_model(test);

	perfctr_x86_use_model(m);
	reserve_or_skip(test);
	/* perf_events' reserve_pmc_hardware() would now fail. */
	KUNIT_EXPECT_FALSE(test, reserve_perfctr_nmi(m->perfctr_msr));
	KUNIT_EXPECT_FALSE(test, reserve_evntsel_nmi(m->evntsel_msr + m->nr_ctrs - 1));
	/* And a second service is refused, naming the first. */
	KUNIT_EXPECT_PTR_EQ(test, (const char *)test_service, perfctr_cpu_reserve("other"));
	perfctr_cpu_release(test_service);
	/* Released: perf_events could take it again. */
	KUNIT_EXPECT_TRUE(test, reserve_perfctr_nmi(m->perfctr_msr));
	release_perfctr_nmi(m->perfctr_msr);
}

static void reserve_refused_while_perf_holds(struct kunit *test)
{
	const struct perfctr_x86_model *m = boot_vendor_model(test);
	const char *holder;

	perfctr_x86_use_model(m);
	/* As perf_events holds a counter (the NMI watchdog holds one). */
	KUNIT_ASSERT_TRUE(test, reserve_perfctr_nmi(m->perfctr_msr + 1));
	holder = perfctr_cpu_reserve(test_service);
	KUNIT_EXPECT_NOT_NULL(test, holder);
	if (holder)
		KUNIT_EXPECT_NOT_NULL(test, strstr(holder, "perf_events"));
	/* The partial reservation was undone. */
	KUNIT_EXPECT_TRUE(test, reserve_perfctr_nmi(m->perfctr_msr));
	release_perfctr_nmi(m->perfctr_msr);
	release_perfctr_nmi(m->perfctr_msr + 1);
	reserve_or_skip(test);
	perfctr_cpu_release(test_service);
}

/*
 * A CPU that comes online (AMD's amd_pmu_cpu_starting() zeroes the global
 * control), or the boot CPU resuming from S3/S4, holds registers the
 * cache does not know: perfctr_x86_cpu_forget(), the hotplug and syscore
 * callback, makes the next resume write them all.  Without it the state
 * resumes on its cached id and counts nothing, with no error.
 */
static void cpu_online_forgets_the_cached_controls(struct kunit *test)
{
	const struct perfctr_x86_model *models[] = { &perfctr_x86_p6, ARCH };
	u32 map = 0, sel = EN | USR | EVENT;
	struct perfctr_cpu_state *st;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(models); i++) {
		sim_setup(test, models[i], 40);
		st = sim_state(test, 1, &map, &sel);
		KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
		sim_run(st, 10);
		/* Offline, online: the registers come back zeroed. */
		memset(sim_hw.evntsel, 0, sizeof(sim_hw.evntsel));
		sim_hw.fixed_ctrl = 0;
		sim_hw.global = 0;
		KUNIT_EXPECT_EQ(test, 0, perfctr_x86_cpu_forget(raw_smp_processor_id()));
		sim_run(st, 20);
		KUNIT_EXPECT_EQ_MSG(test, 30ULL, st->pmc[0].sum, "%s", models[i]->name);
		KUNIT_EXPECT_EQ(test, (u64)(sel & ~EN), sim_hw.evntsel[0] & ~(u64)EN);
		KUNIT_EXPECT_EQ(test, 0U, sim_hw.stray);
	}
}

/* perf_events may have reprogrammed the PMU: a reservation forgets the cache. */
static void reserve_forgets_the_cached_controls(struct kunit *test)
{
	const struct perfctr_x86_model *m = boot_vendor_model(test);
	struct perfctr_cpu_state *st;
	unsigned int n;

	st = counting_state(test, m, 40);
	sim_run(st, 1);
	n = sim_hw.wrmsrs;
	KUNIT_EXPECT_LT(test, 0U, n);
	sim_run(st, 1);
	/* Cached: only the enable bit, on at the resume and off at the suspend. */
	KUNIT_EXPECT_EQ(test, n + 2, sim_hw.wrmsrs);
	n = sim_hw.wrmsrs;
	reserve_or_skip(test);
	sim_run(st, 1);
	KUNIT_EXPECT_LT(test, n + 2, sim_hw.wrmsrs);	/* everything written again */
	KUNIT_EXPECT_EQ(test, (u64)(EN | USR | EVENT), sim_hw.run_evntsel[0]);
	perfctr_cpu_release(test_service);
}

/* The release leaves nothing counting: perf_events takes a quiet PMU. */
static void release_stops_the_counters(struct kunit *test)
{
	const struct perfctr_x86_model *m = boot_vendor_model(test);
	struct perfctr_cpu_state *st = counting_state(test, m, 40);

	reserve_or_skip(test);
	sim_run(st, 10);
	/* Suspended: stopped, the event kept in the select. */
	KUNIT_EXPECT_EQ(test, 0ULL, sim_hw.evntsel[0] & EN);
	KUNIT_EXPECT_NE(test, 0ULL, sim_hw.evntsel[0]);
	perfctr_cpu_release(test_service);
	KUNIT_EXPECT_EQ(test, 0ULL, sim_hw.evntsel[0]);
	/* And the cache trusts nothing: the next resume writes it again. */
	reserve_or_skip(test);
	sim_run(st, 10);
	KUNIT_EXPECT_EQ(test, (u64)(EN | USR | EVENT), sim_hw.run_evntsel[0]);
	KUNIT_EXPECT_EQ(test, 20ULL, st->pmc[0].sum);
	perfctr_cpu_release(test_service);
}

/*
 * A suspended state's counts stay in the counters for its next resume;
 * once the CPU goes to something that claims none (perfctr_cpu_unclaim()
 * after the switch), they are zeroed, so no RDPMC there reads them.
 * While a state counts, the unclaim leaves its counters alone.
 */
static void unclaim_zeroes_what_a_stopped_state_left(struct kunit *test)
{
	struct perfctr_cpu_state *st = counting_state(test, &perfctr_x86_p6, 40);
	unsigned long flags;

	sim_run(st, 10);
	KUNIT_EXPECT_EQ(test, 10ULL, sim_hw.ctr[0]);
	local_irq_save(flags);
	perfctr_cpu_unclaim();
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, 0ULL, sim_hw.ctr[0]);
	/* Counting again from zero, and the sum goes on. */
	sim_run(st, 5);
	KUNIT_EXPECT_EQ(test, 15ULL, st->pmc[0].sum);
	local_irq_save(flags);
	perfctr_cpu_resume(st);
	sim_advance(7);
	perfctr_cpu_unclaim();
	KUNIT_EXPECT_EQ(test, 12ULL, sim_hw.ctr[0]);
	perfctr_cpu_suspend(st);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, 22ULL, st->pmc[0].sum);
}

#ifdef CONFIG_PERF_GUEST_MEDIATED_PMU
/*
 * KVM's mediated vPMU and perfctr exclude each other like perf and
 * perfctr: whoever comes first keeps the PMU, and perfctr names KVM.
 */
static void reserve_and_mediated_vpmu_exclude_each_other(struct kunit *test)
{
	const struct perfctr_x86_model *m;
	const char *holder;

	m = boot_vendor_model(test);
	perfctr_x86_use_model(m);
	/* A VM with a mediated vPMU exists: perfctr is refused, naming KVM. */
	KUNIT_ASSERT_EQ(test, 0, perf_create_mediated_pmu());
	holder = perfctr_cpu_reserve(test_service);
	KUNIT_EXPECT_NOT_NULL(test, holder);
	if (holder)
		KUNIT_EXPECT_NOT_NULL(test, strstr(holder, "KVM"));
	else
		perfctr_cpu_release(test_service);
	/* The refusal took nothing: perf could have the counters. */
	KUNIT_EXPECT_TRUE(test, reserve_perfctr_nmi(m->perfctr_msr));
	release_perfctr_nmi(m->perfctr_msr);
	perf_release_mediated_pmu();
	/* perfctr holds the PMU: no VM gets a mediated vPMU until it is released. */
	reserve_or_skip(test);
	KUNIT_EXPECT_EQ(test, -EBUSY, perf_create_mediated_pmu());
	perfctr_cpu_release(test_service);
	KUNIT_ASSERT_EQ(test, 0, perf_create_mediated_pmu());
	perf_release_mediated_pmu();
}
#endif

static void generic_model_reserves_no_pmc(struct kunit *test)
{
	const struct perfctr_x86_model *m = boot_vendor_model(test);

	perfctr_x86_use_model(NULL);
	KUNIT_ASSERT_TRUE(test, reserve_perfctr_nmi(m->perfctr_msr));
	/* The TSC needs no PMU: perf_events holding it does not matter. */
	KUNIT_EXPECT_NULL(test, perfctr_cpu_reserve(test_service));
	perfctr_cpu_release(test_service);
	release_perfctr_nmi(m->perfctr_msr);
}
#endif

#ifdef CONFIG_PERFCTR_INTERRUPT_SUPPORT
/* ---- The overflow interrupt vector, on the real (emulated) local APIC ---- */

static unsigned long ihandler_calls, ihandler_pc;

/* The overflow interrupts taken: /proc/interrupts' PCT row. */
static unsigned long perfctr_interrupts(void)
{
	unsigned long sum = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(irq_stat, cpu).counts[IRQ_COUNT_PERFCTR];
	return sum;
}

static void test_ihandler(unsigned long pc)
{
	ihandler_calls++;
	ihandler_pc = pc;
}

static bool wait_interrupts(unsigned long n)
{
	int i;

	for (i = 0; i < 100000 && perfctr_interrupts() < n; i++)
		cpu_relax();
	return perfctr_interrupts() >= n;
}

static void self_ipi_reaches_the_handler(struct kunit *test)
{
	unsigned long before = perfctr_interrupts();

	ihandler_calls = 0;
	perfctr_cpu_set_ihandler(test_ihandler);
	__apic_send_IPI_self(LOCAL_PERFCTR_VECTOR);
	KUNIT_EXPECT_TRUE(test, wait_interrupts(before + 1));
	perfctr_cpu_set_ihandler(NULL);
	KUNIT_EXPECT_EQ(test, 1UL, ihandler_calls);
	KUNIT_EXPECT_NE(test, 0UL, ihandler_pc);
	/* Without a handler the interrupt is still ACKed and counted. */
	__apic_send_IPI_self(LOCAL_PERFCTR_VECTOR);
	KUNIT_EXPECT_TRUE(test, wait_interrupts(before + 2));
	KUNIT_EXPECT_EQ(test, 1UL, ihandler_calls);
}
#endif

/* ---- Detection and the static calls of each family ---- */

static const struct family_case {
	unsigned int vendor, family, model;
	bool mmx;
	const struct perfctr_x86_model *want;
} family_cases[] = {
	{ X86_VENDOR_INTEL, 5, 2, false, P5 },
	{ X86_VENDOR_INTEL, 5, 4, true, P5MMX },
	{ X86_VENDOR_INTEL, 15, 0, false, P4 },
	{ X86_VENDOR_INTEL, 15, 1, false, P4 },
	{ X86_VENDOR_INTEL, 15, 2, false, P4M2 },
	{ X86_VENDOR_INTEL, 15, 3, false, P4M3 },
	{ X86_VENDOR_INTEL, 15, 6, false, P4M3 },
	{ X86_VENDOR_INTEL, 6, 15, true, NULL },
	{ X86_VENDOR_CYRIX, 6, 0, true, MII },
	{ X86_VENDOR_CYRIX, 6, 5, true, MII },
	{ X86_VENDOR_CYRIX, 5, 2, false, NULL },
	{ X86_VENDOR_CENTAUR, 5, 4, true, C6 },
	{ X86_VENDOR_CENTAUR, 5, 8, true, WC2 },
	{ X86_VENDOR_CENTAUR, 5, 9, true, WC2 },
	{ X86_VENDOR_CENTAUR, 6, 6, true, VC3 },
	{ X86_VENDOR_CENTAUR, 6, 9, true, VC3 },
	{ X86_VENDOR_CENTAUR, 6, 15, true, NULL },
	{ X86_VENDOR_AMD, 5, 8, true, NULL },
	{ X86_VENDOR_AMD, 15, 2, true, NULL },
};

static void family_case_desc(const struct family_case *t, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "vendor %u family %u model %u%s",
		 t->vendor, t->family, t->model, t->mmx ? " MMX" : "");
}

KUNIT_ARRAY_PARAM(family_cases, family_cases, family_case_desc);

/* One CPUID identity of family_cases[] (a parameterised case). */
static void detect_each_family(struct kunit *test)
{
	const struct family_case *t = test->param_value;

	KUNIT_EXPECT_PTR_EQ(test, t->want,
			    perfctr_x86_detect(t->vendor, t->family, t->model, t->mmx));
}

static void static_calls_follow_each_family(struct kunit *test)
{
	struct perfctr_x86_ops p6, p5, mmx, mii, c6, vc3, p4, p4m3;

	perfctr_x86_use_model(&perfctr_x86_p6);
	perfctr_x86_get_ops(&p6);
	perfctr_x86_use_model(P5);
	perfctr_x86_get_ops(&p5);
	perfctr_x86_use_model(P5MMX);
	perfctr_x86_get_ops(&mmx);
	perfctr_x86_use_model(MII);
	perfctr_x86_get_ops(&mii);
	perfctr_x86_use_model(C6);
	perfctr_x86_get_ops(&c6);
	perfctr_x86_use_model(VC3);
	perfctr_x86_get_ops(&vc3);
	perfctr_x86_use_model(P4);
	perfctr_x86_get_ops(&p4);
	perfctr_x86_use_model(P4M3);
	perfctr_x86_get_ops(&p4m3);
	/* The P5 family shares its check and CESR write ... */
	KUNIT_EXPECT_PTR_EQ(test, p5.check, mmx.check);
	KUNIT_EXPECT_PTR_EQ(test, p5.check, c6.check);
	KUNIT_EXPECT_PTR_EQ(test, mmx.write_control, mii.write_control);
	KUNIT_EXPECT_PTR_NE(test, p5.check, p6.check);
	/* ... the P5 reads MSRs, the others RDPMC like the P6 family. */
	KUNIT_EXPECT_PTR_NE(test, p5.suspend, mmx.suspend);
	KUNIT_EXPECT_PTR_NE(test, p5.resume, mmx.resume);
	/* The P6 family stops its counters at the suspend too. */
	KUNIT_EXPECT_PTR_NE(test, mmx.suspend, p6.suspend);
	KUNIT_EXPECT_PTR_EQ(test, vc3.resume, p6.resume);
	/* Each family has its own check and control writer. */
	KUNIT_EXPECT_PTR_NE(test, vc3.check, p6.check);
	KUNIT_EXPECT_PTR_NE(test, vc3.write_control, p6.write_control);
	KUNIT_EXPECT_PTR_NE(test, vc3.write_control, mmx.write_control);
	KUNIT_EXPECT_PTR_NE(test, p4.check, p6.check);
	KUNIT_EXPECT_PTR_NE(test, p4.check, vc3.check);
	KUNIT_EXPECT_PTR_NE(test, p4.write_control, p6.write_control);
	KUNIT_EXPECT_PTR_NE(test, p4.write_control, mmx.write_control);
	KUNIT_EXPECT_PTR_EQ(test, p4.check, p4m3.check);
}

#if defined(CONFIG_PERFCTR_INTERRUPT_SUPPORT) && defined(CONFIG_X86_LOCAL_APIC)
/* ---- The overflow interrupt end to end: LVTPC, the vector, the handler ---- */

/*
 * LVTPC is taken per CPU at the first resume with PMCs there, not by an
 * IPI to every CPU at the reservation, and given back at the release by
 * the CPUs that took it.
 */
static void lvtpc_follows_the_reservation(struct kunit *test)
{
	const struct perfctr_x86_model *m;
	u32 map = 0, sel = EN | USR | EVENT;
	struct perfctr_cpu_state *st;
	u32 before;

	m = boot_vendor_model(test);
	before = apic_read(APIC_LVTPC);
	sim_imode_setup(test, m, 48);
	st = sim_state(test, 1, &map, &sel);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	/* Whatever was there (NMI delivery under perf) comes back at release. */
	apic_write(APIC_LVTPC, APIC_DM_NMI | APIC_LVT_MASKED);
	reserve_or_skip(test);
	KUNIT_EXPECT_EQ(test, (u32)(APIC_DM_NMI | APIC_LVT_MASKED),
			apic_read(APIC_LVTPC) & LVT_BITS);	/* not yet */
	sim_run(st, 1);
	KUNIT_EXPECT_EQ(test, (u32)LOCAL_PERFCTR_VECTOR, apic_read(APIC_LVTPC) & LVT_BITS);
	sim_run(st, 1);
	KUNIT_EXPECT_EQ(test, (u32)LOCAL_PERFCTR_VECTOR, apic_read(APIC_LVTPC) & LVT_BITS);
	perfctr_cpu_release(test_service);
	KUNIT_EXPECT_EQ(test, (u32)(APIC_DM_NMI | APIC_LVT_MASKED),
			apic_read(APIC_LVTPC) & LVT_BITS);
	/* Reserved and released with no resume here: never touched. */
	apic_write(APIC_LVTPC, APIC_DM_NMI);
	reserve_or_skip(test);
	perfctr_cpu_release(test_service);
	KUNIT_EXPECT_EQ(test, (u32)APIC_DM_NMI, apic_read(APIC_LVTPC) & LVT_BITS);
	/* Without PCINT (no local APIC) perfctr leaves LVTPC alone. */
	perfctr_x86_no_lapic = true;
	perfctr_x86_use_model(m);
	reserve_or_skip(test);
	sim_run(st, 1);
	KUNIT_EXPECT_EQ(test, (u32)APIC_DM_NMI, apic_read(APIC_LVTPC) & LVT_BITS);
	perfctr_cpu_release(test_service);
	apic_write(APIC_LVTPC, before);
}

static struct perfctr_cpu_state *pmi_state;
static unsigned int pmi_mask, pmi_calls;
static unsigned long pmi_pc;

/*
 * The part of vperfctr_ihandler() that follows the suspend: find the
 * overflown counters and have them reloaded.  The suspend itself runs in
 * the test, interrupts off, before the interrupt is taken: the simulated
 * PMU is not made for hard interrupt context.  On the P6 and the K7 (the
 * models the PMU allocator maps here) identify_overflow writes no MSR.
 */
static void pmi_ihandler(unsigned long pc)
{
	struct perfctr_cpu_state *st = pmi_state;

	pmi_calls++;
	pmi_pc = pc;
	pmi_mask |= perfctr_cpu_identify_overflow(st);
	if (pmi_mask)
		perfctr_cpu_ireload(st);
}

static void overflow_interrupt_end_to_end(struct kunit *test)
{
	const struct perfctr_x86_model *m;
	struct perfctr_cpu_state *st;
	unsigned long before, flags;
	u32 lvtpc;

	m = boot_vendor_model(test);
	st = sim_istate(test, m, m->ctr_width, -100);
	reserve_or_skip(test);
	pmi_state = st;
	pmi_mask = 0;
	pmi_calls = 0;
	pmi_pc = 0;
	perfctr_cpu_set_ihandler(pmi_ihandler);
	before = perfctr_interrupts();
	local_irq_save(flags);
	perfctr_cpu_resume(st);
	sim_advance(150);			/* counter 1 passes 0 ... */
	KUNIT_EXPECT_EQ(test, 1U, sim_hw.pmis);
	/* ... the CPU raises the interrupt, masking LVTPC (Intel) ... */
	apic_write(APIC_LVTPC, LOCAL_PERFCTR_VECTOR | APIC_LVT_MASKED);
	__apic_send_IPI_self(LOCAL_PERFCTR_VECTOR);
	/* ... taken once interrupts are on again, after this suspend. */
	perfctr_cpu_suspend(st);
	local_irq_restore(flags);
	KUNIT_EXPECT_TRUE(test, wait_interrupts(before + 1));
	lvtpc = apic_read(APIC_LVTPC) & LVT_BITS;
	/* The resume after the handler reloads the counter from ireset. */
	local_irq_save(flags);
	perfctr_cpu_resume(st);
	KUNIT_EXPECT_EQ(test, sim_sext(-100), sim_hw.ctr[1]);
	sim_advance(30);
	perfctr_cpu_suspend(st);
	local_irq_restore(flags);
	perfctr_cpu_set_ihandler(NULL);
	perfctr_cpu_release(test_service);

	KUNIT_EXPECT_EQ(test, 1U, pmi_calls);
	KUNIT_EXPECT_NE(test, 0UL, pmi_pc);
	KUNIT_EXPECT_EQ(test, (unsigned int)BIT(1), pmi_mask);
	KUNIT_EXPECT_EQ(test, (u32)LOCAL_PERFCTR_VECTOR, lvtpc);	/* re-armed */
	KUNIT_EXPECT_EQ(test, 180ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, sim_sext(-70), st->pmc[1].start);
	KUNIT_EXPECT_EQ(test, 180ULL, st->pmc[0].sum);
}
#endif

/* ---- The privilege bits (perfctr_cpu_counts_kernel()) and unused entries ---- */

/* Does the one-counter control @sel (P4: CCCR IQ_CCCR, ESCR @escr) count kernel mode? */
static bool counts_kernel1(struct kunit *test, const struct perfctr_x86_model *m,
			   u32 map, u32 sel, u32 escr)
{
	struct perfctr_cpu_state *st;

	if (sim_family(m) == SIM_P6)
		sim_setup(test, m, 48);
	else
		simx_setup(test, m, 40);
	st = sim_state(test, 1, &map, &sel);
	st->control.tsc_on = !m->no_tsc;
	st->control.p4.escr[0] = escr;
	KUNIT_EXPECT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	return perfctr_cpu_counts_kernel(st);
}

static void counts_kernel_follows_the_os_bits(struct kunit *test)
{
	/* P6 family: EVNTSEL's OS bit; a fixed counter's OS field. */
	KUNIT_EXPECT_FALSE(test, counts_kernel1(test, &perfctr_x86_p6, 0, EN | USR | EVENT, 0));
	KUNIT_EXPECT_TRUE(test, counts_kernel1(test, &perfctr_x86_p6, 0, EN | OS | EVENT, 0));
	KUNIT_EXPECT_TRUE(test, counts_kernel1(test, &perfctr_x86_p6, 0,
					       EN | USR | OS | EVENT, 0));
	KUNIT_EXPECT_FALSE(test, counts_kernel1(test, ARCH, FIXED(1), F_USR, 0));
	KUNIT_EXPECT_TRUE(test, counts_kernel1(test, ARCH, FIXED(1), F_OS, 0));
	KUNIT_EXPECT_FALSE(test, counts_kernel1(test, AMD, 3, EN | USR | EVENT, 0));
	KUNIT_EXPECT_TRUE(test, counts_kernel1(test, AMD, 3, EN | OS | EVENT, 0));
	/* P5 family: CPL 3 only, or CPL 0-2 too; the WinChip cannot tell. */
	KUNIT_EXPECT_FALSE(test, counts_kernel1(test, P5, 0, CESR_CPL3 | P5EV, 0));
	KUNIT_EXPECT_TRUE(test, counts_kernel1(test, P5MMX, 1, CESR_CPL0 | P5EV, 0));
	KUNIT_EXPECT_TRUE(test, counts_kernel1(test, MII, 0, CESR_CPL0 | CESR_CPL3 | P5EV, 0));
	KUNIT_EXPECT_TRUE(test, counts_kernel1(test, C6, 0, 0x02, 0));
	/* VIA C3: no privilege bits at all. */
	KUNIT_EXPECT_TRUE(test, counts_kernel1(test, VC3, 1, 0x79, 0));
	/* P4: the ESCR's T0_OS. */
	KUNIT_EXPECT_FALSE(test, counts_kernel1(test, P4, 12, IQ_CCCR, IQ_ESCR));
	KUNIT_EXPECT_TRUE(test, counts_kernel1(test, P4, 12, IQ_CCCR, IQ_ESCR | E_T0_OS));
}

static void counts_kernel_false_without_pmcs(struct kunit *test)
{
	struct perfctr_cpu_state *st = test->priv;

	perfctr_x86_use_model(NULL);
	st->control.tsc_on = 1;
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	KUNIT_EXPECT_FALSE(test, perfctr_cpu_counts_kernel(st));
}

/* The rules powerpc has always had, on every x86 model too. */
static void unused_entries_must_be_zero(struct kunit *test)
{
	struct perfctr_cpu_state *st = test->priv;

	/* The generic model: no counters, so no evntsel_high either. */
	perfctr_x86_use_model(NULL);
	st->control.tsc_on = 1;
	st->control.evntsel_high[0] = 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st->control.evntsel_high[0] = 0;
	st->control.pmc_map[PERFCTR_NRCTRS - 1] = 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st->control.pmc_map[PERFCTR_NRCTRS - 1] = 0;
	st->control.ireset[3] = -5;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st->control.ireset[3] = 0;
	KUNIT_EXPECT_EQ(test, 0, perfctr_cpu_update_control(st, 0));

	/* A P6 control: garbage after its one counter, or an a-mode ireset. */
	st = sim_one_counter(test, &perfctr_x86_p6, 0, EN | USR | EVENT);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	st->control.evntsel[1] = EN | USR | EVENT;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st->control.evntsel[1] = 0;
	st->control.evntsel_high[5] = 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st->control.evntsel_high[5] = 0;
	st->control.ireset[0] = -100;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st->control.ireset[0] = 0;
	KUNIT_EXPECT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
}

static struct kunit_case perfctr_x86_cases[] = {
	KUNIT_CASE(counts_kernel_follows_the_os_bits),
	KUNIT_CASE(rdpmc_permission_follows_the_mm),
	KUNIT_CASE(forked_mm_starts_without_rdpmc),
	KUNIT_CASE(rdpmc_grant_in_fork_and_exec),
	KUNIT_CASE(rdpmc_knob_off_hides_the_feature),
	KUNIT_CASE(tsc_constant_follows_the_cpu),
	KUNIT_CASE_PARAM(detect_by_feature_not_family, detect_cases_gen_params),
	KUNIT_CASE(driver_models_match_the_manuals),
	KUNIT_CASE(fam10h_event_select_high_and_tsx_pmc3),
	KUNIT_CASE(v6_rdpmc_user_disable_stays_clear),
	KUNIT_CASE(counts_kernel_false_without_pmcs),
	KUNIT_CASE(unused_entries_must_be_zero),
	KUNIT_CASE(counts_accumulate_over_periods),
	KUNIT_CASE(counts_beyond_2_33_between_folds_48),
	KUNIT_CASE(counts_across_a_40_bit_wrap_beyond_2_32),
	KUNIT_CASE(tsc_folds_64_bits),
	KUNIT_CASE(tsc_base_follows_resume_sample_and_refresh),
	KUNIT_CASE(counts_across_wrap_32),
	KUNIT_CASE(counts_across_wrap_40),
	KUNIT_CASE(counts_across_wrap_48),
	KUNIT_CASE(sample_keeps_counting),
	KUNIT_CASE(two_counters_count_separately),
	KUNIT_CASE(resume_writes_control_once),
	KUNIT_CASE(resume_writes_only_what_differs),
	KUNIT_CASE(unused_counters_are_disabled),
	KUNIT_CASE(new_control_gets_new_id),
	KUNIT_CASE(control_id_past_2_32_is_not_a_cached_id),
	KUNIT_CASE(static_calls_follow_the_model),
	KUNIT_CASE(model_sets_type_and_features),
	KUNIT_CASE(generic_rejects_pmcs),
	KUNIT_CASE(cstatus_encoding),
	KUNIT_CASE_PARAM(detect_each_family, family_cases_gen_params),
	KUNIT_CASE(static_calls_follow_each_family),
#ifdef CONFIG_X86_LOCAL_APIC
	KUNIT_CASE(pmu_busy_reported_without_taking_it),
	KUNIT_CASE(reserve_takes_the_pmu_from_perf),
	KUNIT_CASE(reserve_refused_while_perf_holds),
	KUNIT_CASE(reserve_forgets_the_cached_controls),
	KUNIT_CASE(cpu_online_forgets_the_cached_controls),
	KUNIT_CASE(release_stops_the_counters),
	KUNIT_CASE(unclaim_zeroes_what_a_stopped_state_left),
#ifdef CONFIG_PERF_GUEST_MEDIATED_PMU
	KUNIT_CASE(reserve_and_mediated_vpmu_exclude_each_other),
#endif
	KUNIT_CASE(generic_model_reserves_no_pmc),
#endif
#ifdef CONFIG_PERFCTR_INTERRUPT_SUPPORT
	KUNIT_CASE(self_ipi_reaches_the_handler),
#endif
#if defined(CONFIG_PERFCTR_INTERRUPT_SUPPORT) && defined(CONFIG_X86_LOCAL_APIC)
	KUNIT_CASE(lvtpc_follows_the_reservation),
	KUNIT_CASE(overflow_interrupt_end_to_end),
#endif
	{}
};

static struct kunit_suite perfctr_x86_suite = {
	.name = "perfctr_x86",
	.suite_init = sim_suite_init,
	.init = sim_test_init,
	.exit = sim_test_exit,
	.test_cases = perfctr_x86_cases,
};

kunit_test_suite(perfctr_x86_suite);
