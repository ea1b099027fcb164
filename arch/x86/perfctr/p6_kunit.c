// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the perfctr x86 driver on its simulated PMU (sim_kunit.c):
 * the P6 family: Intel P6, AMD K7/K8, architectural perfmon,
 * AMD family 15h+, their interrupt-mode counters.
 */
#include "kunit.h"

/* ---- P6 validation: each rule of the x86 driver's documentation ---- */

static void p6_accepts_counter0(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 0, sim_check1(test, &perfctr_x86_p6, 0, EN | USR | EVENT));
}

static void p6_accepts_both_counters(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 0, sim_check2(test, &perfctr_x86_p6, 0, EN | USR | EVENT,
					    1, OS | 0x79));
}

static void p6_rejects_enable_in_evntsel1(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check2(test, &perfctr_x86_p6, 0, EN | USR | EVENT,
						  1, EN | OS | 0x79));
}

static void p6_rejects_evntsel0_without_enable(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check1(test, &perfctr_x86_p6, 0, USR | EVENT));
}

static void p6_rejects_counter1_alone(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check1(test, &perfctr_x86_p6, 1, USR | EVENT));
}

static void p6_rejects_reserved_bit21(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check1(test, &perfctr_x86_p6, 0,
						  BIT(21) | EN | USR | EVENT));
}

static void p6_rejects_reserved_bit19(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check1(test, &perfctr_x86_p6, 0,
						  BIT(19) | EN | USR | EVENT));
}

static void p6_rejects_int_in_amode(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check1(test, &perfctr_x86_p6, 0,
						  INT | EN | USR | EVENT));
}

static void p6_rejects_imode_without_interrupts(struct kunit *test)
{
	struct perfctr_cpu_state *st;

	perfctr_x86_no_lapic = true;		/* no local APIC: no interrupt */
	st = sim_one_counter(test, &perfctr_x86_p6, 0, INT | EN | USR | EVENT);
	st->control.nractrs = 0;
	st->control.nrictrs = 1;
	st->control.ireset[0] = -100;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
}

static void p6_rejects_no_cpl(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check1(test, &perfctr_x86_p6, 0, EN | EVENT));
}

static void p6_accepts_os_only(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 0, sim_check1(test, &perfctr_x86_p6, 0, EN | OS | EVENT));
}

static void p6_rejects_duplicate_map(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check2(test, &perfctr_x86_p6, 0, EN | USR | EVENT,
						  0, EN | USR | EVENT));
}

static void p6_rejects_map_out_of_range(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check1(test, &perfctr_x86_p6, 2, EN | USR | EVENT));
}

static void p6_rejects_too_many_counters(struct kunit *test)
{
	u32 maps[] = { 0, 1, 0 }, sels[] = { EN | USR | EVENT, USR | EVENT, USR | EVENT };

	sim_setup(test, &perfctr_x86_p6, 40);
	KUNIT_EXPECT_EQ(test, -EINVAL,
			perfctr_cpu_update_control(sim_state(test, 3, maps, sels), 0));
}

static void p6_rejects_evntsel_high(struct kunit *test)
{
	struct perfctr_cpu_state *st = sim_one_counter(test, &perfctr_x86_p6, 0, EN | USR | EVENT);

	st->control.evntsel_high[0] = 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
}

static void p6_rejects_p4_fields(struct kunit *test)
{
	struct perfctr_cpu_state *st = sim_one_counter(test, &perfctr_x86_p6, 0, EN | USR | EVENT);

	st->control.p4.escr[0] = 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
}

/* ---- K7/K8 validation ---- */

static void k7_accepts_four_counters(struct kunit *test)
{
	u32 maps[] = { 3, 2, 1, 0 };
	u32 sels[] = { EN | USR | 0x76, EN | OS | 0xc0, EN | USR | OS | 0xc2, EN | USR | 0x40 };

	sim_setup(test, &perfctr_x86_k7, 48);
	KUNIT_EXPECT_EQ(test, 0, perfctr_cpu_update_control(sim_state(test, 4, maps, sels), 0));
}

static void k7_rejects_counter_without_enable(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check2(test, &perfctr_x86_k7, 0, EN | USR | EVENT,
						  1, USR | EVENT));
}

static void k7_accepts_counter1_alone(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 0, sim_check1(test, &perfctr_x86_k7, 1, EN | USR | EVENT));
}

static void k7_rejects_map_4(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check1(test, &perfctr_x86_k7, 4, EN | USR | EVENT));
}

static void k7_rejects_reserved_bits(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check1(test, &perfctr_x86_k7, 0,
						  BIT(21) | EN | USR | EVENT));
}

/* ---- Intel architectural perfmon v2+ ---- */

static int check3(struct kunit *test, const struct perfctr_x86_model *m,
		  const u32 *maps, const u32 *sels)
{
	sim_setup(test, m, 48);
	return perfctr_cpu_update_control(sim_state(test, 3, maps, sels), 0);
}

static void arch_accepts_general_and_fixed(struct kunit *test)
{
	u32 maps[] = { 0, FIXED(0), FIXED(1) };
	u32 sels[] = { EN | USR | EVENT, F_USR, F_OS | F_USR };

	KUNIT_EXPECT_EQ(test, 0, check3(test, ARCH, maps, sels));
}

static void arch_rejects_counter_without_enable(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check2(test, ARCH, 0, EN | USR | EVENT, 1, USR | EVENT));
}

static void arch_rejects_anythread(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check1(test, ARCH, 0, BIT(21) | EN | USR | EVENT));
}

static void arch_rejects_fixed_anythread(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check1(test, ARCH, FIXED(0), F_ANY | F_USR));
}

static void arch_rejects_fixed_pmi_in_amode(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check1(test, ARCH, FIXED(1), F_PMI | F_USR));
}

static void arch_rejects_fixed_counting_nothing(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check1(test, ARCH, FIXED(2), 0));
}

static void arch_rejects_fixed_out_of_range(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check1(test, ARCH, FIXED(3), F_USR));
}

static void arch_rejects_duplicate_fixed(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check2(test, ARCH, FIXED(1), F_USR, FIXED(1), F_OS));
}

static void arch_rejects_evntsel_high(struct kunit *test)
{
	struct perfctr_cpu_state *st = sim_one_counter(test, ARCH, 0, EN | USR | EVENT);

	st->control.evntsel_high[0] = 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
}

static void arch_rejects_map_beyond_counters(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check1(test, ARCH, 4, EN | USR | EVENT));
}

static void arch_accepts_fixed_alone(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 0, sim_check1(test, ARCH, FIXED(2), F_OS));
}

static struct perfctr_cpu_state *arch_three(struct kunit *test)
{
	u32 maps[] = { 1, FIXED(0), FIXED(2) };
	u32 sels[] = { EN | USR | EVENT, F_USR, F_OS | F_USR };
	struct perfctr_cpu_state *st;

	sim_setup(test, ARCH, 48);
	st = sim_state(test, 3, maps, sels);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	return st;
}

static void arch_programs_fixed_ctrl_and_global(struct kunit *test)
{
	struct perfctr_cpu_state *st = arch_three(test);

	sim_run(st, 10);
	KUNIT_EXPECT_EQ(test, (u64)(F_USR | (F_OS | F_USR) << 8), sim_hw.run_fixed_ctrl);
	KUNIT_EXPECT_EQ(test, BIT_ULL(1) | BIT_ULL(32) | BIT_ULL(34), sim_hw.run_global);
	KUNIT_EXPECT_EQ(test, 0ULL, sim_hw.global);	/* stopped at the suspend */
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.stray);
}

static void arch_counts_general_and_fixed(struct kunit *test)
{
	struct perfctr_cpu_state *st = arch_three(test);

	sim_hw.fixed_ctr[0] = 0xfffffff0ULL;	/* wraps the low 32 bits */
	sim_run(st, 1234);
	sim_run(st, 66);
	KUNIT_EXPECT_EQ(test, 1300ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 1300ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, 1300ULL, st->pmc[2].sum);
	KUNIT_EXPECT_EQ(test, 0ULL, sim_hw.fixed_ctr[1]);	/* not ours: never enabled */
}

/*
 * With a global control, a switch costs two writes of it: off at the
 * suspend, on at the resume; the event selects and the fixed counters'
 * control stay cached.
 */
static void arch_second_resume_writes_only_global_ctrl(struct kunit *test)
{
	struct perfctr_cpu_state *st = arch_three(test);
	unsigned int n;

	sim_run(st, 1);
	n = sim_hw.wrmsrs;
	/* EVNTSEL1, FIXED_CTR_CTRL, GLOBAL_CTRL; GLOBAL_CTRL at the suspend. */
	KUNIT_EXPECT_EQ(test, 4U, n);
	sim_run(st, 1);
	KUNIT_EXPECT_EQ(test, n + 2, sim_hw.wrmsrs);
	KUNIT_EXPECT_EQ(test, (int)n, sim_written(ARCH->global_ctrl_msr, n));
	KUNIT_EXPECT_EQ(test, (int)n + 1, sim_written(ARCH->global_ctrl_msr, n + 1));
	KUNIT_EXPECT_EQ(test, 2ULL, st->pmc[0].sum);
}

static void arch_stops_before_reprogramming(struct kunit *test)
{
	u32 maps[] = { 0, 1 }, a[] = { EN | USR | EVENT, EN | USR | 0x3c };
	u32 map = 1, b = EN | OS | 0x2e;
	struct perfctr_cpu_state *sa, *sb;
	int g, e;

	sim_setup(test, ARCH, 48);
	sa = sim_state(test, 2, maps, a);
	sb = sim_state(test, 1, &map, &b);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(sa, 0));
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(sb, 0));
	sim_resume(sa);
	sim_advance(5);
	sim_hw.wrmsrs = 0;
	sim_suspend(sa);
	sim_resume(sb);
	/* Counter 0 is disabled globally before its event select changes. */
	g = sim_written(ARCH->global_ctrl_msr, 0);
	e = sim_written(ARCH->evntsel_msr, 0);
	KUNIT_EXPECT_GE(test, g, 0);
	KUNIT_EXPECT_GT(test, e, g);
	KUNIT_EXPECT_EQ(test, BIT_ULL(1), sim_hw.global);
	sim_advance(5);
	sim_suspend(sb);
	KUNIT_EXPECT_EQ(test, 5ULL, sb->pmc[0].sum);
}

static void arch_wraps_at_48_bits(struct kunit *test)
{
	u32 map = 2, sel = EN | USR | EVENT;
	struct perfctr_cpu_state *st;

	sim_setup(test, ARCH, 48);
	st = sim_state(test, 1, &map, &sel);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	sim_hw.ctr[2] = GENMASK_ULL(47, 0) - 9;
	sim_run(st, 20);
	KUNIT_EXPECT_EQ(test, 20ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 10ULL, sim_hw.ctr[2]);
}

/* ---- AMD family 15h+ core counters ---- */

static void amd_accepts_high_event_bits(struct kunit *test)
{
	struct perfctr_cpu_state *st = sim_one_counter(test, AMD, 0, EN | USR | 0xc0);

	st->control.evntsel_high[0] = 0xf;
	KUNIT_EXPECT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
}

static void amd_rejects_host_guest_bits(struct kunit *test)
{
	struct perfctr_cpu_state *st = sim_one_counter(test, AMD, 0, EN | USR | 0xc0);

	st->control.evntsel_high[0] = 0x100;	/* GuestOnly */
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st->control.evntsel_high[0] = 0x200;	/* HostOnly */
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
}

static void amd_rejects_counter_without_enable(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check1(test, AMD, 3, USR | 0xc0));
}

static void amd_rejects_map_6(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check1(test, AMD, 6, EN | USR | 0xc0));
}

static void amd_rejects_fixed_maps(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check1(test, AMD, FIXED(0), F_USR));
}

static void amd_writes_64bit_event_select_at_stride_2(struct kunit *test)
{
	u32 sel = EN | OS | 0x76;
	struct perfctr_cpu_state *st = sim_one_counter(test, AMD, 5, sel);

	st->control.evntsel_high[0] = 0x3;
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	sim_run(st, 7);
	KUNIT_EXPECT_EQ(test, (u64)sel | 0x3ULL << 32, sim_hw.evntsel[5]);
	KUNIT_EXPECT_GE(test, sim_written(AMD->evntsel_msr + 10, 0), 0);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.stray);
	KUNIT_EXPECT_EQ(test, 7ULL, st->pmc[0].sum);
}

static void amd_counts_six_counters(struct kunit *test)
{
	u32 maps[] = { 0, 1, 2, 3, 4, 5 }, sels[6];
	struct perfctr_cpu_state *st;
	unsigned int i;

	for (i = 0; i < 6; i++)
		sels[i] = EN | USR | (0x40 + i);
	sim_setup(test, AMD, 48);
	st = sim_state(test, 6, maps, sels);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	sim_run(st, 99);
	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_EQ(test, 99ULL, st->pmc[i].sum);
	KUNIT_EXPECT_EQ(test, GENMASK_ULL(5, 0), sim_hw.run_global);
}

static void amd_rejects_seven_counters(struct kunit *test)
{
	u32 maps[] = { 0, 1, 2, 3, 4, 5, 0 }, sels[7];
	unsigned int i;

	for (i = 0; i < 7; i++)
		sels[i] = EN | USR | 0x40;
	sim_setup(test, AMD, 48);
	KUNIT_EXPECT_EQ(test, -EINVAL,
			perfctr_cpu_update_control(sim_state(test, 7, maps, sels), 0));
}

/* ---- P6-family interrupt-mode counters ---- */

static const struct perfctr_x86_model *const p6_family[] = {
	&perfctr_x86_p6, &perfctr_x86_k7, ARCH, AMD,
};

static void p6_family_desc(const struct perfctr_x86_model *const *m, char *desc)
{
	strscpy(desc, (*m)->name, KUNIT_PARAM_DESC_SIZE);
}

/* The cases run on each model of p6_family[]: test->param_value points at one. */
KUNIT_ARRAY_PARAM(p6_family, p6_family, p6_family_desc);

static const struct perfctr_x86_model *p6_model(struct kunit *test)
{
	return *(const struct perfctr_x86_model *const *)test->param_value;
}

/*
 * While the owner is switched out, whoever runs next on the CPU (another
 * user's task, a KVM guest at CPL 3) must not be counted: the counters
 * stop at the suspend, and neither the sums nor the start that the next
 * resume publishes in the mapped page show the foreign events.
 */
static void suspended_counters_count_no_foreign_events(struct kunit *test)
{
	const struct perfctr_x86_model *m = p6_model(test);
	u32 maps[] = { 0, 1 }, sels[2];
	struct perfctr_cpu_state *st;
	u64 ctr0, ctr1;

	sels[0] = EN | USR | EVENT;
	sels[1] = sim_sel1(m, EN | USR | 0x79);
	sim_setup(test, m, 40);
	st = sim_state(test, 2, maps, sels);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	sim_run(st, 100);
	ctr0 = sim_hw.ctr[0];
	ctr1 = sim_hw.ctr[1];
	sim_advance(1000);			/* the next task's events */
	KUNIT_EXPECT_EQ(test, ctr0, sim_hw.ctr[0]);
	KUNIT_EXPECT_EQ(test, ctr1, sim_hw.ctr[1]);
	sim_resume(st);
	KUNIT_EXPECT_EQ(test, ctr0, st->pmc[0].start);
	KUNIT_EXPECT_EQ(test, ctr1, st->pmc[1].start);
	sim_advance(5);
	sim_suspend(st);
	KUNIT_EXPECT_EQ(test, 105ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 105ULL, st->pmc[1].sum);
	/* And it counts again after a resume on the cached control. */
	sim_run(st, 7);
	KUNIT_EXPECT_EQ(test, 112ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 112ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.stray);
}

/*
 * Another control's state on the same CPU starts from zero counters:
 * nothing of the last state's counts shows in its start (its mapped
 * page) or by RDPMC of any counter, general or fixed
 * (perfctr_x86_claim_ctrs()); the last state, back, counts on whole.
 */
static void next_control_sees_no_counts_of_the_last(struct kunit *test)
{
	const struct perfctr_x86_model *m = p6_model(test);
	u32 maps[] = { 0, 1 }, sels[2];
	struct perfctr_cpu_state *a, *b;
	unsigned int i;

	sels[0] = EN | USR | EVENT;
	sels[1] = sim_sel1(m, EN | USR | 0x79);
	sim_setup(test, m, 40);
	a = sim_state(test, 2, maps, sels);
	b = sim_state(test, 1, maps, sels);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(a, 0));
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(b, 0));
	for (i = 0; i < m->nr_fixed; i++)
		sim_hw.fixed_ctr[i] = 1000 + i;	/* left by the last state too */
	sim_run(a, 1000);
	sim_resume(b);
	KUNIT_EXPECT_EQ(test, 0ULL, b->pmc[0].start);
	for (i = 0; i < m->nr_ctrs; i++)
		KUNIT_EXPECT_EQ_MSG(test, 0ULL, perfctr_x86_rdpmc(i), "PMC%u", i);
	for (i = 0; i < m->nr_fixed; i++)
		KUNIT_EXPECT_EQ_MSG(test, 0ULL, perfctr_x86_rdpmc(FIXED(i)), "fixed %u", i);
	sim_advance(5);
	sim_suspend(b);
	KUNIT_EXPECT_EQ(test, 5ULL, b->pmc[0].sum);
	sim_run(a, 7);
	KUNIT_EXPECT_EQ(test, 1007ULL, a->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 1007ULL, a->pmc[1].sum);
	/* The same control again on this CPU: no counter written. */
	sim_hw.ctr_writes = 0;
	sim_run(a, 1);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.ctr_writes);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.stray);
}

static int icheck(struct kunit *test, const struct perfctr_x86_model *m,
		  unsigned int na, unsigned int ni, const u32 *maps,
		  const u32 *sels, const int *iresets)
{
	sim_imode_setup(test, m, 48);
	return perfctr_cpu_update_control(sim_mkistate(test, na, ni, maps, sels, iresets), 0);
}

static void irun(struct perfctr_cpu_state *st, u64 events)
{
	sim_run(st, events);
}

static void imode_accepts_int_with_negative_ireset(struct kunit *test)
{
	struct perfctr_cpu_state *st;
	u32 map = 0, sel = ISEL;
	int ireset = -1;

	sim_imode_setup(test, p6_model(test), 48);
	st = sim_mkistate(test, 0, 1, &map, &sel, &ireset);
	KUNIT_EXPECT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	KUNIT_EXPECT_TRUE(test, perfctr_cstatus_has_ictrs(st->cstatus));
	KUNIT_EXPECT_EQ(test, (u64)(s64)-1, st->pmc[0].start);
}

static void imode_rejects_evntsel_without_int(struct kunit *test)
{
	u32 map = 0, sel = EN | USR | EVENT;
	int ireset = -100;

	KUNIT_EXPECT_EQ(test, -EINVAL, icheck(test, p6_model(test), 0, 1, &map, &sel, &ireset));
}

static void amode_rejects_int_beside_imode(struct kunit *test)
{
	const struct perfctr_x86_model *m = p6_model(test);
	u32 maps[] = { 0, 1 }, sels[2];
	int ireset = -100;

	sels[0] = EN | USR | EVENT;
	sels[1] = sim_sel1(m, ISEL);
	KUNIT_EXPECT_EQ(test, 0, icheck(test, m, 1, 1, maps, sels, &ireset));
	sels[0] = ISEL;		/* the a-mode counter with INT */
	KUNIT_EXPECT_EQ(test, -EINVAL, icheck(test, m, 1, 1, maps, sels, &ireset));
}

static void imode_rejects_nonnegative_ireset(struct kunit *test)
{
	static const int bad[] = { 0, 1, 0x7fffffff }, good[] = { -1, S32_MIN };
	const struct perfctr_x86_model *m = p6_model(test);
	u32 map = 0, sel = ISEL;
	unsigned int j;

	for (j = 0; j < ARRAY_SIZE(bad); j++)
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL, icheck(test, m, 0, 1, &map, &sel, &bad[j]),
				    "ireset %d", bad[j]);
	for (j = 0; j < ARRAY_SIZE(good); j++)
		KUNIT_EXPECT_EQ_MSG(test, 0, icheck(test, m, 0, 1, &map, &sel, &good[j]),
				    "ireset %d", good[j]);
}

static void arch_fixed_imode_needs_pmi(struct kunit *test)
{
	u32 maps[] = { FIXED(0), FIXED(1) }, sels[2];
	int ireset = -10;

	sels[0] = F_USR;
	sels[1] = F_USR | F_PMI;
	KUNIT_EXPECT_EQ(test, 0, icheck(test, ARCH, 1, 1, maps, sels, &ireset));
	sels[1] = F_USR;		/* i-mode without PMI */
	KUNIT_EXPECT_EQ(test, -EINVAL, icheck(test, ARCH, 1, 1, maps, sels, &ireset));
	sels[1] = F_PMI;		/* counting nothing */
	KUNIT_EXPECT_EQ(test, -EINVAL, icheck(test, ARCH, 1, 1, maps, sels, &ireset));
	sels[0] = F_OS | F_PMI;		/* a-mode with PMI */
	sels[1] = F_USR | F_PMI;
	KUNIT_EXPECT_EQ(test, -EINVAL, icheck(test, ARCH, 1, 1, maps, sels, &ireset));
}

static void imode_needs_a_local_apic(struct kunit *test)
{
	const struct perfctr_x86_model *m = p6_model(test);
	u32 map = 0, sel = ISEL;
	int ireset = -100;

	KUNIT_EXPECT_EQ(test, 0, icheck(test, m, 0, 1, &map, &sel, &ireset));
	perfctr_x86_no_lapic = true;
	KUNIT_EXPECT_EQ(test, -EINVAL, icheck(test, m, 0, 1, &map, &sel, &ireset));
	perfctr_x86_no_lapic = false;
}

static bool reports_pcint(const struct perfctr_x86_model *m)
{
	struct perfctr_info info = {};

	perfctr_x86_use_model(m);
	perfctr_cpu_fill_info(&info);
	return info.cpu_features & PERFCTR_FEATURE_PCINT;
}

static void pcint_reported_only_where_it_should(struct kunit *test)
{
	static const struct perfctr_x86_model *const others[] = {
		NULL, P5, P5MMX, MII, C6, WC2, VC3,
	};
	static const struct perfctr_x86_model *const p4s[] = { P4, P4M2, P4M3 };
	bool can = IS_ENABLED(CONFIG_PERFCTR_INTERRUPT_SUPPORT) &&
		   boot_cpu_has(X86_FEATURE_APIC);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(p6_family); i++)
		KUNIT_EXPECT_EQ_MSG(test, can, reports_pcint(p6_family[i]),
				    "%s", p6_family[i]->name);
	for (i = 0; i < ARRAY_SIZE(p4s); i++)
		KUNIT_EXPECT_EQ_MSG(test, can, reports_pcint(p4s[i]), "%s", p4s[i]->name);
	for (i = 0; i < ARRAY_SIZE(others); i++)
		KUNIT_EXPECT_FALSE_MSG(test, reports_pcint(others[i]), "%s",
				       others[i] ? others[i]->name : "generic");
	perfctr_x86_no_lapic = true;
	for (i = 0; i < ARRAY_SIZE(p6_family); i++)
		KUNIT_EXPECT_FALSE_MSG(test, reports_pcint(p6_family[i]),
				       "%s without a local APIC", p6_family[i]->name);
	perfctr_x86_no_lapic = false;
	if (!can)
		kunit_skip(test, "no overflow interrupt on this kernel or CPU");
}

/* At each model's own width: 40 bits on the P6, 48 on the others. */
static void imode_resume_writes_start_values(struct kunit *test)
{
	const struct perfctr_x86_model *m = p6_model(test);
	struct perfctr_cpu_state *st;
	int ctr, sel;

	st = sim_istate(test, m, m->ctr_width, -1000);
	sim_hw.ctr[1] = 0x1234;		/* what another thread left */
	sim_resume(st);
	KUNIT_EXPECT_EQ(test, sim_sext(-1000), sim_hw.ctr[1]);
	KUNIT_EXPECT_EQ(test, 1U, sim_hw.ctr_writes);
	/* Written before its event select starts it. */
	ctr = sim_written(m->perfctr_msr + m->evntsel_stride, 0);
	sel = sim_written(m->evntsel_msr + m->evntsel_stride, 0);
	KUNIT_EXPECT_GE(test, ctr, 0);
	KUNIT_EXPECT_LT(test, ctr, sel);
	KUNIT_EXPECT_EQ(test, (u64)sim_sel1(m, ISEL), sim_hw.evntsel[1]);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.stray);
	sim_suspend(st);
}

static void arch_fixed_imode_resume_writes_start_value(struct kunit *test)
{
	u32 maps[] = { 2, FIXED(2) }, sels[] = { ISEL, F_OS | F_USR | F_PMI };
	int iresets[] = { -5, -7 };
	struct perfctr_cpu_state *st;

	sim_imode_setup(test, ARCH, 48);
	st = sim_mkistate(test, 0, 2, maps, sels, iresets);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	sim_resume(st);
	KUNIT_EXPECT_EQ(test, sim_sext(-5), sim_hw.ctr[2]);
	KUNIT_EXPECT_EQ(test, sim_sext(-7), sim_hw.fixed_ctr[2]);
	KUNIT_EXPECT_EQ(test, (u64)(F_OS | F_USR | F_PMI) << 8, sim_hw.fixed_ctrl);
	KUNIT_EXPECT_LT(test, sim_written(FIXED_CTR_MSR(2), 0), sim_written(FIXED_CTRL_MSR, 0));
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.stray);
	sim_suspend(st);
}

static void imode_suspend_stops_the_counters(struct kunit *test)
{
	struct perfctr_cpu_state *st = sim_istate(test, &perfctr_x86_k7, 48, -1000);
	struct perfctr_x86_cache *cache = perfctr_x86_this_cache();
	u64 ctr;

	irun(st, 10);
	KUNIT_EXPECT_EQ(test, 0ULL, sim_hw.evntsel[1]);
	KUNIT_EXPECT_EQ(test, 0ULL, cache->evntsel[1]);
	/* The a-mode counter is stopped too, its event kept. */
	KUNIT_EXPECT_EQ(test, (u64)(USR | EVENT), sim_hw.evntsel[0]);
	ctr = sim_hw.ctr[1];
	sim_advance(5000);		/* another thread runs */
	KUNIT_EXPECT_EQ(test, ctr, sim_hw.ctr[1]);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.pmis);
	KUNIT_EXPECT_EQ(test, 10ULL, st->pmc[1].sum);
}

static void arch_fixed_imode_suspend_stops_it(struct kunit *test)
{
	u32 maps[] = { FIXED(0), FIXED(1) }, sels[] = { F_USR, F_USR | F_PMI };
	struct perfctr_cpu_state *st;
	int ireset = -10;
	u64 ctr;

	sim_imode_setup(test, ARCH, 48);
	st = sim_mkistate(test, 1, 1, maps, sels, &ireset);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	irun(st, 3);
	KUNIT_EXPECT_EQ(test, (u64)F_USR, sim_hw.fixed_ctrl);
	KUNIT_EXPECT_EQ(test, (u64)F_USR, perfctr_x86_this_cache()->fixed_ctrl);
	ctr = sim_hw.fixed_ctr[1];
	sim_advance(100);
	KUNIT_EXPECT_EQ(test, ctr, sim_hw.fixed_ctr[1]);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.pmis);
}

static void imode_same_cpu_resume_writes_no_counter(struct kunit *test)
{
	struct perfctr_cpu_state *st = sim_istate(test, &perfctr_x86_k7, 48, -1000);
	unsigned long flags;

	irun(st, 100);
	KUNIT_EXPECT_EQ(test, (int)smp_processor_id(), st->k1.isuspend_cpu);
	sim_hw.ctr_writes = 0;
	local_irq_save(flags);
	perfctr_cpu_resume(st);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.ctr_writes);
	/* Its event select (stopped at the suspend) is written again. */
	KUNIT_EXPECT_EQ(test, (u64)ISEL, sim_hw.evntsel[1]);
	sim_advance(50);
	perfctr_cpu_suspend(st);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, 150ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, sim_sext(-1000 + 150), st->pmc[1].start);
}

static void imode_resume_elsewhere_rewrites(struct kunit *test)
{
	struct perfctr_cpu_state *st = sim_istate(test, &perfctr_x86_k7, 48, -1000);
	struct perfctr_cpu_state *other;
	u32 map = 1, sel = EN | USR | EVENT;

	irun(st, 100);
	/* Suspended on another CPU: this one's counter is not its. */
	st->k1.isuspend_cpu = smp_processor_id() + 1;
	sim_hw.ctr[1] = 77;
	sim_hw.ctr_writes = 0;
	irun(st, 100);
	KUNIT_EXPECT_EQ(test, 1U, sim_hw.ctr_writes);
	KUNIT_EXPECT_EQ(test, 200ULL, st->pmc[1].sum);
	/* Same CPU, but another state reprogrammed the counter meanwhile. */
	other = sim_state(test, 1, &map, &sel);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(other, 0));
	irun(other, 5);
	KUNIT_EXPECT_EQ(test, 5ULL, other->pmc[0].sum);
	sim_hw.ctr_writes = 0;
	sim_resume(st);
	/* The other control's counts zeroed (all four), then the reload. */
	KUNIT_EXPECT_EQ(test, 4U + 1, sim_hw.ctr_writes);
	KUNIT_EXPECT_EQ(test, sim_sext(-1000 + 200), sim_hw.ctr[1]);
	sim_suspend(st);
	KUNIT_EXPECT_EQ(test, 200ULL, st->pmc[1].sum);
}

static void ireload_forces_the_counters_rewritten(struct kunit *test)
{
	struct perfctr_cpu_state *st = sim_istate(test, &perfctr_x86_k7, 48, -1000);

	irun(st, 100);
	perfctr_cpu_ireload(st);
	KUNIT_EXPECT_EQ(test, -1, st->k1.isuspend_cpu);
	st->pmc[1].start = (u64)(s64)-40;	/* as identify_overflow sets it */
	sim_hw.ctr_writes = 0;
	sim_resume(st);
	KUNIT_EXPECT_EQ(test, 1U, sim_hw.ctr_writes);
	KUNIT_EXPECT_EQ(test, sim_sext(-40), sim_hw.ctr[1]);
	sim_suspend(st);
}

/*
 * A K7 state whose control order differs from counter order: a-mode
 * counter 2, then i-mode counters 0, 3 and 1 from @iresets.
 */
static struct perfctr_cpu_state *k7_three_imode(struct kunit *test, int *iresets)
{
	u32 maps[] = { 2, 0, 3, 1 }, sels[] = { EN | USR | EVENT, ISEL, ISEL, ISEL };
	struct perfctr_cpu_state *st;

	sim_imode_setup(test, &perfctr_x86_k7, 48);
	st = sim_mkistate(test, 1, 3, maps, sels, iresets);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	return st;
}

static void identify_overflow_finds_the_overflown(struct kunit *test)
{
	int iresets[] = { -100, -1000, -50 };
	struct perfctr_cpu_state *st = k7_three_imode(test, iresets);

	sim_hw.ctr[2] = GENMASK_ULL(47, 0) - 10;	/* the a-mode counter passes 0 too */
	irun(st, 150);
	KUNIT_EXPECT_EQ(test, (unsigned int)(BIT(1) | BIT(3)), perfctr_cpu_identify_overflow(st));
	/* Re-armed: called again, it finds none. */
	KUNIT_EXPECT_EQ(test, (u64)(s64)-100, st->pmc[1].start);
	KUNIT_EXPECT_EQ(test, sim_sext(-1000 + 150), st->pmc[2].start);
	KUNIT_EXPECT_EQ(test, (u64)(s64)-50, st->pmc[3].start);
	KUNIT_EXPECT_EQ(test, 0U, perfctr_cpu_identify_overflow(st));
	KUNIT_EXPECT_EQ(test, 2U, sim_hw.pmis);
	KUNIT_EXPECT_EQ(test, 150ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 150ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, 150ULL, st->pmc[3].sum);
	perfctr_cpu_ireload(st);
	sim_resume(st);
	KUNIT_EXPECT_EQ(test, sim_sext(-100), sim_hw.ctr[0]);
	KUNIT_EXPECT_EQ(test, sim_sext(-1000 + 150), sim_hw.ctr[3]);
	KUNIT_EXPECT_EQ(test, sim_sext(-50), sim_hw.ctr[1]);
	sim_suspend(st);
}

static void identify_overflow_returns_the_mask(struct kunit *test)
{
	int iresets[] = { -100, -1000, -150 };
	struct perfctr_cpu_state *st = k7_three_imode(test, iresets);

	sim_hw.ctr[2] = GENMASK_ULL(47, 0) - 10;
	irun(st, 99);			/* -1, -901, -51 */
	KUNIT_EXPECT_EQ(test, 0U, perfctr_cpu_identify_overflow(st));
	irun(st, 1);			/* 0: overflowed, -900, -50 */
	KUNIT_EXPECT_EQ(test, (unsigned int)BIT(1), perfctr_cpu_identify_overflow(st));
	perfctr_cpu_ireload(st);
	irun(st, 50);			/* -50, -850, 0 */
	KUNIT_EXPECT_EQ(test, (unsigned int)BIT(3), perfctr_cpu_identify_overflow(st));
	KUNIT_EXPECT_EQ(test, 150ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, 150ULL, st->pmc[3].sum);
}

static void identify_overflow_clears_the_status(struct kunit *test)
{
	u32 maps[] = { 1, FIXED(0), 2 }, sels[] = { ISEL, F_USR | F_PMI, ISEL };
	int iresets[] = { -10, -10, -1000 };
	struct perfctr_cpu_state *st;
	u32 map = 4, sel = ISEL;
	int ireset = -1;
	unsigned int n;

	sim_imode_setup(test, ARCH, 48);
	st = sim_mkistate(test, 0, 3, maps, sels, iresets);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	irun(st, 20);
	KUNIT_EXPECT_EQ(test, BIT_ULL(1) | BIT_ULL(32), sim_hw.status);
	KUNIT_EXPECT_EQ(test, 3U, perfctr_cpu_identify_overflow(st));
	KUNIT_EXPECT_EQ(test, BIT_ULL(1) | BIT_ULL(32), sim_hw.ovf_cleared);
	KUNIT_EXPECT_EQ(test, 0ULL, sim_hw.status);

	sim_imode_setup(test, AMD, 48);
	st = sim_mkistate(test, 0, 1, &map, &sel, &ireset);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	irun(st, 1);
	KUNIT_EXPECT_EQ(test, 1U, perfctr_cpu_identify_overflow(st));
	KUNIT_EXPECT_EQ(test, BIT_ULL(4), sim_hw.ovf_cleared);
	KUNIT_EXPECT_GE(test, sim_written(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR, 0), 0);

	/* The K7 has no overflow status: nothing written. */
	st = sim_istate(test, &perfctr_x86_k7, 48, -1);
	irun(st, 1);
	n = sim_hw.wrmsrs;
	KUNIT_EXPECT_EQ(test, 2U, perfctr_cpu_identify_overflow(st));
	KUNIT_EXPECT_EQ(test, n, sim_hw.wrmsrs);
}

/* Periods of @period events, each overflow handled as vperfctr does. */
static void counts_across_overflow(struct kunit *test, const struct perfctr_x86_model *m,
				   unsigned int width)
{
	struct perfctr_cpu_state *st = sim_istate(test, m, width, -1000);
	unsigned int i, mask, overflows = 0;

	for (i = 0; i < 10; i++) {
		irun(st, 700);
		mask = perfctr_cpu_identify_overflow(st);
		if (mask) {
			KUNIT_EXPECT_EQ(test, (unsigned int)BIT(1), mask);
			overflows++;
			perfctr_cpu_ireload(st);
		}
	}
	/* -1000, -300, +400: overflow; again: every second period. */
	KUNIT_EXPECT_EQ_MSG(test, 5U, overflows, "%s", m->name);
	KUNIT_EXPECT_EQ(test, sim_hw.pmis, overflows);
	KUNIT_EXPECT_EQ(test, 7000ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, 7000ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.stray);
}

static void imode_counts_across_overflow(struct kunit *test)
{
	counts_across_overflow(test, &perfctr_x86_p6, 40);
	counts_across_overflow(test, &perfctr_x86_k7, 48);
	counts_across_overflow(test, ARCH, 48);
	counts_across_overflow(test, AMD, 48);
}

/* ---- Architectural perfmon as CPUID describes it ---- */

static const struct perfctr_x86_model *arch_from_cpuid(struct kunit *test, u32 eax,
						       u32 edx, bool full_width)
{
	struct perfctr_x86_pmu_caps caps;
	const struct perfctr_x86_model *m;

	perfctr_x86_parse_pmu_caps(&caps, eax, 0, edx, false, 0, 0);
	m = perfctr_x86_arch_model(&caps, eax & 0xff, full_width, sim_model_buf(test));
	KUNIT_ASSERT_NOT_NULL(test, m);
	sim_setup(test, m, m->ctr_width);
	return m;
}

/* Version 4, 8 general counters of 48 bits, 3 fixed (Skylake). */
static void arch_model_has_the_cpuid_counters(struct kunit *test)
{
	const struct perfctr_x86_model *m = arch_from_cpuid(test, 4 | 8 << 8 | 48 << 16, 3,
							    false);

	KUNIT_EXPECT_EQ(test, (unsigned int)PERFCTR_X86_INTEL_ARCH, m->cpu_type);
	KUNIT_EXPECT_EQ(test, 8U, m->nr_ctrs);
	KUNIT_EXPECT_EQ(test, 3U, m->nr_fixed);
	KUNIT_EXPECT_EQ(test, (u32)MSR_CORE_PERF_GLOBAL_CTRL, m->global_ctrl_msr);
	KUNIT_EXPECT_EQ(test, GENMASK_ULL(47, 0), perfctr_x86_width_mask);
	KUNIT_EXPECT_EQ(test, 0, sim_check_on(test, 7, EN | USR | EVENT));
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check_on(test, 8, EN | USR | EVENT));
	KUNIT_EXPECT_EQ(test, 0, sim_check_on(test, FIXED(2), F_USR));
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check_on(test, FIXED(3), F_USR));
	/* No architectural perfmon, or no counter: no model. */
	KUNIT_EXPECT_NULL(test, perfctr_x86_arch_model(&(struct perfctr_x86_pmu_caps){
		.gp = 0x3, .width = 40 }, 0, false, sim_model_buf(test)));
	KUNIT_EXPECT_NULL(test, perfctr_x86_arch_model(&(struct perfctr_x86_pmu_caps){
		.width = 40 }, 2, false, sim_model_buf(test)));
}

/*
 * CPUID 0xA EDX[12:5] gives the fixed counters' width, which need not be
 * the general counters' (EAX[23:16]): each counter folds at its own, or
 * a fixed counter's wrap would add 2^48 - 2^40 events to its sum.
 */
static void arch_fixed_counters_fold_at_their_own_width(struct kunit *test)
{
	const struct perfctr_x86_model *m = arch_from_cpuid(test, 4 | 8 << 8 | 48 << 16,
							    3 | 40 << 5, false);
	u32 maps[] = { 0, FIXED(1) }, sels[] = { EN | USR | EVENT, F_USR };
	struct perfctr_cpu_state *st;

	KUNIT_EXPECT_EQ(test, 48U, m->ctr_width);
	KUNIT_EXPECT_EQ(test, 40U, m->fixed_width);
	st = sim_state(test, 2, maps, sels);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	KUNIT_EXPECT_EQ(test, 48U, st->pmc[0].width);
	KUNIT_EXPECT_EQ(test, 40U, st->pmc[1].width);
	st->pmc[1].start = GENMASK_ULL(39, 0) - 4;
	perfctr_x86_fold(&st->pmc[1], 5);
	KUNIT_EXPECT_EQ(test, 10ULL, st->pmc[1].sum);
	/* Without a width in EDX: the general counters'. */
	m = arch_from_cpuid(test, 4 | 8 << 8 | 48 << 16, 3, false);
	KUNIT_EXPECT_EQ(test, 48U, m->fixed_width);
}

/* Version 1 (Core Solo/Duo): an enable bit per counter, nothing global. */
static void arch_v1_model(struct kunit *test)
{
	const struct perfctr_x86_model *m = arch_from_cpuid(test, 1 | 2 << 8 | 40 << 16, 0,
							    false);
	struct perfctr_cpu_state *st;
	u32 map = 1, sel = EN | USR | EVENT;

	KUNIT_EXPECT_EQ(test, (unsigned int)PERFCTR_X86_INTEL_CORE, m->cpu_type);
	KUNIT_EXPECT_STREQ(test, "Intel architectural perfmon v1", m->name);
	KUNIT_EXPECT_EQ(test, 0U, m->nr_fixed);
	KUNIT_EXPECT_EQ(test, 0U, m->global_ctrl_msr);
	/* Unlike the P6, counter 1 alone, enabled in its own event select. */
	KUNIT_EXPECT_EQ(test, 0, sim_check_on(test, 1, EN | USR | EVENT));
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check_on(test, 1, USR | EVENT));
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check_on(test, FIXED(0), F_USR));
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check_on(test, 2, EN | USR | EVENT));
	st = sim_state(test, 1, &map, &sel);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	sim_hw.ctr[1] = GENMASK_ULL(39, 0) - 2;
	sim_run(st, 10);
	KUNIT_EXPECT_EQ(test, 10ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.stray);
}

/* FW_WRITE: i-mode counters are loaded through IA32_A_PMCx. */
static void arch_full_width_writes(struct kunit *test)
{
	u32 maps[] = { 0, 3 }, sels[] = { EN | USR | EVENT, EN | INT | USR | EVENT };
	struct perfctr_cpu_state *st;
	int ireset = -5000;

	if (!IS_ENABLED(CONFIG_PERFCTR_INTERRUPT_SUPPORT) || !boot_cpu_has(X86_FEATURE_APIC))
		kunit_skip(test, "no overflow interrupt without a local APIC");
	arch_from_cpuid(test, 4 | 8 << 8 | 48 << 16, 3, true);
	st = sim_mkistate(test, 1, 1, maps, sels, &ireset);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	sim_irqs_off(perfctr_cpu_resume, st);
	KUNIT_EXPECT_GE(test, sim_written(MSR_IA32_PMC0 + 3, 0), 0);
	KUNIT_EXPECT_LT(test, sim_written(ARCH->perfctr_msr + 3, 0), 0);
	KUNIT_EXPECT_EQ(test, sim_sext(-5000), sim_hw.ctr[3]);
	sim_irqs_off(perfctr_cpu_suspend, st);
	/* Without FW_WRITE, the legacy counter MSR. */
	arch_from_cpuid(test, 4 | 8 << 8 | 48 << 16, 3, false);
	st = sim_mkistate(test, 1, 1, maps, sels, &ireset);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	sim_irqs_off(perfctr_cpu_resume, st);
	KUNIT_EXPECT_GE(test, sim_written(ARCH->perfctr_msr + 3, 0), 0);
	KUNIT_EXPECT_LT(test, sim_written(MSR_IA32_PMC0 + 3, 0), 0);
	sim_irqs_off(perfctr_cpu_suspend, st);
}

/* ---- KVM's vPMU: the guest of make try, booted with -cpu host ---- */

/*
 * The guest CPUID KVM builds for -cpu host (as core_kunit.c's
 * detect_cases): Intel perfmon v2 with and without full-width counter
 * writes, AMD with PerfMonV2, with the core counters only, and the
 * legacy four.  sim_kvm_setup() derives KVM's rules from the same CPUID.
 */
static const struct {
	const char *name;
	struct perfctr_x86_cpuid c;
} kvm_vpmus[] = {
	{ "KVM, Intel: v2, 8 general, 3 fixed, 48 bits, full-width writes",
	  { .vendor = X86_VENDOR_INTEL, .family = 6, .model = 0x6a, .arch_perfmon = true,
	    .fw_writes = true, .eax10 = 0x07300802, .edx10 = (48 << 5) | 3 } },
	{ "KVM, Intel: v2, 4 general, 3 fixed, 48 bits, no full-width writes",
	  { .vendor = X86_VENDOR_INTEL, .family = 6, .model = 0x55, .arch_perfmon = true,
	    .eax10 = 0x07300402, .edx10 = (48 << 5) | 3 } },
	{ "KVM, AMD: PerfMonV2, 6 core counters",
	  { .vendor = X86_VENDOR_AMD, .family = 0x19, .model = 0x11, .perfctr_core = true,
	    .perfmon_v2 = true, .ebx_80000022 = 6 } },
	{ "KVM, AMD: core counters without PerfMonV2",
	  { .vendor = X86_VENDOR_AMD, .family = 0x17, .model = 0x31, .perfctr_core = true } },
	{ "KVM, AMD: legacy vPMU, the four K7 counters",
	  { .vendor = X86_VENDOR_AMD, .family = 0x19, .model = 0x01 } },
};

KUNIT_ARRAY_PARAM_DESC(kvm_vpmus, kvm_vpmus, name);

/* The driver's model of the case's vPMU, on the simulated vPMU. */
static const struct perfctr_x86_model *kvm_setup(struct kunit *test)
{
	const typeof(kvm_vpmus[0]) *t = test->param_value;
	const struct perfctr_x86_model *m;

	if (!IS_ENABLED(CONFIG_PERFCTR_INTERRUPT_SUPPORT) || !boot_cpu_has(X86_FEATURE_APIC))
		kunit_skip(test, "no overflow interrupt without a local APIC");
	m = perfctr_x86_detect_cpu(&t->c, sim_model_buf(test));
	KUNIT_ASSERT_NOT_NULL(test, m);
	sim_kvm_setup(test, &t->c, m);
	return sim_hw.model;
}

/* Edge, invert, a counter mask and a unit mask: every bit a control may set. */
#define KVM_SEL	(EN | OS | USR | BIT(18) | BIT(23) | 0xff000000U | 0xff00U | EVENT)

/*
 * A validated state on every counter of @m with every bit the driver
 * accepts (AMD's EventSelect[11:8] too): a-mode counters, then the last
 * general and the last fixed counter in i-mode from @ireset.
 */
static struct perfctr_cpu_state *kvm_all_counters(struct kunit *test,
						  const struct perfctr_x86_model *m, int ireset)
{
	struct perfctr_cpu_state *st = sim_state(test, 0, NULL, NULL);
	struct perfctr_cpu_control *cc = &st->control;
	unsigned int i, n = 0;

	for (i = 0; i < m->nr_ctrs + m->nr_fixed; i++) {
		bool fixed = i >= m->nr_ctrs;
		unsigned int c = fixed ? i - m->nr_ctrs : i;
		bool imode = c + 1 == (fixed ? m->nr_fixed : m->nr_ctrs);

		if (imode)
			continue;
		cc->pmc_map[n] = fixed ? FIXED(c) : c;
		cc->evntsel[n] = fixed ? F_OS | F_USR : KVM_SEL;
		cc->evntsel_high[n++] = fixed ? 0 : m->high_allowed;
	}
	cc->nractrs = n;
	cc->pmc_map[n] = m->nr_ctrs - 1;
	cc->evntsel[n] = KVM_SEL | INT;
	cc->evntsel_high[n] = m->high_allowed;
	cc->ireset[n++] = ireset;
	if (m->nr_fixed) {
		cc->pmc_map[n] = FIXED(m->nr_fixed - 1);
		cc->evntsel[n] = F_OS | F_USR | F_PMI;
		cc->ireset[n++] = ireset;
	}
	cc->nrictrs = n - cc->nractrs;
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	return st;
}

static void kvm_expect_no_fault(struct kunit *test)
{
	KUNIT_EXPECT_EQ_MSG(test, 0U, sim_kvm.gps, "#GP: WRMSR %#x <- %#llx",
			    sim_kvm.gp_msr, sim_kvm.gp_val);
	KUNIT_EXPECT_EQ(test, 0U, sim_kvm.dropped);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.stray);
}

/*
 * Every MSR write of the driver is one KVM takes as written: a reserved
 * bit of an event select (AnyThread, IN_TX, Host/Guest-only), of
 * FIXED_CTR_CTRL, GLOBAL_CTRL or GLOBAL_OVF_CTRL, or an MSR the vPMU does
 * not have is a #GP on Intel; AMD drops such bits silently, and the
 * counter then counts something else.  Every counter, with every bit a
 * control may set, in a-mode and i-mode; overflow handling; other
 * controls on the same CPU.
 */
static void kvm_vpmu_takes_every_driver_write(struct kunit *test)
{
	const struct perfctr_x86_model *m = kvm_setup(test);
	struct perfctr_cpu_state *st = kvm_all_counters(test, m, -5);
	u32 map = 0, sel = EN | OS | EVENT;
	struct perfctr_cpu_state *one = sim_state(test, 1, &map, &sel);
	struct perfctr_cpu_state *tsc = sim_state(test, 0, NULL, NULL);
	unsigned int i;
	u64 want;

	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(one, 0));
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(tsc, 0));
	sim_run(st, 10);
	/* Programmed as asked: KVM refused and dropped nothing. */
	for (i = 0; i < m->nr_ctrs; i++) {
		want = KVM_SEL | (i + 1 == m->nr_ctrs ? INT : 0) | (u64)m->high_allowed << 32;
		KUNIT_EXPECT_EQ_MSG(test, want, sim_hw.run_evntsel[i], "PMC%u", i);
	}
	KUNIT_EXPECT_NE(test, 0U, perfctr_cpu_identify_overflow(st));
	perfctr_cpu_ireload(st);
	sim_run(st, 3);
	sim_run(one, 3);
	sim_run(tsc, 3);
	sim_run(st, 3);
	KUNIT_EXPECT_EQ(test, 16ULL, st->pmc[0].sum);
	kvm_expect_no_fault(test);
}

/*
 * The same after the per-CPU cache forgot the registers (all ones: a
 * reservation, a CPU coming online, the S3 resume): at the next resume,
 * and between a resume and its suspend (the syscore resume under a
 * running state).  What the cache holds then is no register value, and
 * no part of it may be written back.
 */
static void kvm_vpmu_takes_the_writes_after_the_cache_forgot(struct kunit *test)
{
	const struct perfctr_x86_model *m = kvm_setup(test);
	struct perfctr_cpu_state *st = kvm_all_counters(test, m, -1000);
	unsigned int cpu = raw_smp_processor_id();
	unsigned long flags;

	perfctr_x86_cpu_forget(cpu);
	sim_run(st, 10);
	local_irq_save(flags);
	perfctr_cpu_resume(st);
	sim_advance(20);
	perfctr_x86_cpu_forget(cpu);
	perfctr_cpu_suspend(st);
	local_irq_restore(flags);
	sim_advance(40);		/* stopped: counts nothing */
	sim_run(st, 5);
	KUNIT_EXPECT_EQ(test, 35ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 35ULL, st->pmc[st->control.nractrs].sum);
	kvm_expect_no_fault(test);
}

/* The counter of control entry @i, as the guest reads it. */
static u64 kvm_counter(const struct perfctr_cpu_state *st, unsigned int i)
{
	u32 map = st->control.pmc_map[i];

	return map >= FIXED(0) ? sim_hw.fixed_ctr[map - FIXED(0)] : sim_hw.ctr[map];
}

/*
 * An i-mode counter's period survives KVM's counter writes: the legacy
 * counter MSRs (Intel without FW_WRITE) sign-extend bit 31, the
 * full-width aliases refuse bits beyond the width, every write is cut to
 * 48 bits.  The counter holds the start -- at the first resume and when
 * reloaded mid-period -- and interrupts after exactly -ireset events.
 */
static void kvm_counter_writes_keep_the_overflow_period(struct kunit *test)
{
	static const int iresets[] = { -2, -1000, -0x7fffffff - 1 };
	struct perfctr_cpu_state *st;
	unsigned int i, j, n;
	int r;

	for (j = 0; j < ARRAY_SIZE(iresets); j++) {
		r = iresets[j];
		st = kvm_all_counters(test, kvm_setup(test), r);
		n = st->control.nrictrs;
		sim_resume(st);
		for (i = st->control.nractrs; i < st->control.nractrs + n; i++)
			KUNIT_EXPECT_EQ_MSG(test, sim_sext(r), kvm_counter(st, i), "ireset %d", r);
		sim_advance(1);
		sim_suspend(st);
		/* Reloaded as after a migration, over what another owner left. */
		perfctr_cpu_ireload(st);
		memset(sim_hw.ctr, 0, sizeof(sim_hw.ctr));
		memset(sim_hw.fixed_ctr, 0, sizeof(sim_hw.fixed_ctr));
		sim_resume(st);
		for (i = st->control.nractrs; i < st->control.nractrs + n; i++)
			KUNIT_EXPECT_EQ_MSG(test, sim_sext(r + 1), kvm_counter(st, i),
					    "ireset %d", r);
		sim_advance(-(s64)r - 2);
		KUNIT_EXPECT_EQ_MSG(test, 0U, sim_hw.pmis, "ireset %d", r);
		sim_advance(1);
		KUNIT_EXPECT_EQ_MSG(test, n, sim_hw.pmis, "ireset %d", r);
		sim_suspend(st);
		KUNIT_EXPECT_EQ(test, (u64)-(s64)r, st->pmc[st->control.nractrs].sum);
		kvm_expect_no_fault(test);
	}
}

/*
 * KVM resets GLOBAL_CTRL with every general counter enabled (as the
 * hardware does), not to the zero the driver's cache starts from: the
 * first resume sets it to the state's counters, the suspend clears it,
 * and no other counter counts meanwhile.
 */
static void kvm_reset_global_ctrl_is_not_trusted(struct kunit *test)
{
	const struct perfctr_x86_model *m = kvm_setup(test);
	u32 maps[] = { FIXED(0), 1 }, sels[] = { F_USR, EN | USR | EVENT };
	struct perfctr_cpu_state *st;
	unsigned int i;

	if (!m->global_ctrl_msr)
		kunit_skip(test, "no global control");
	KUNIT_EXPECT_EQ(test, BIT_ULL(sim_kvm.nr_gp) - 1, sim_hw.global);
	/* Fixed counter 0 where there is one, else general counter 1. */
	st = sim_state(test, 1, &maps[m->nr_fixed ? 0 : 1], &sels[m->nr_fixed ? 0 : 1]);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	sim_run(st, 10);
	KUNIT_EXPECT_EQ(test, 10ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, m->nr_fixed ? BIT_ULL(32) : BIT_ULL(1), sim_hw.run_global);
	KUNIT_EXPECT_EQ(test, 0ULL, sim_hw.global);
	for (i = 0; i < m->nr_ctrs; i++)
		if (m->nr_fixed || i != 1)
			KUNIT_EXPECT_EQ_MSG(test, 0ULL, sim_hw.ctr[i], "PMC%u", i);
	kvm_expect_no_fault(test);
}

/* ---- perf's event constraints (x86_perf_event_counters()) ---- */

/*
 * Haswell's perf (intel_hsw_event_constraints, intel_snbep_extra_regs,
 * the HT erratum's exclusive events): entries of its tables.
 */
static const struct sim_constraint sim_hsw[] = {
	{ SIM_UEVENT, 0x0148, BIT(2), 0, SIM_ANY_TYPE },	/* L1D_PEND_MISS.PENDING */
	{ SIM_UEVENT, 0x08a3, BIT(2), 0, SIM_ANY_TYPE }, /* CYCLE_ACTIVITY.CYCLES_L1D_PENDING */
	{ SIM_UEVENT, 0x0300, BIT_ULL(32 + 2), 0, SIM_ANY_TYPE },	/* CPU_CLK_UNHALTED.REF */
	{ SIM_UEVENT, 0x01b7, 0, -EOPNOTSUPP, SIM_ANY_TYPE },	/* OFFCORE_RESPONSE_0 */
	{ SIM_UEVENT, 0x01cd, 0, -EOPNOTSUPP, SIM_ANY_TYPE },	/* MEM_TRANS_RETIRED.LOAD_LATENCY */
	{ SIM_EVENT, 0xd0, 0, -EOPNOTSUPP, SIM_ANY_TYPE },	/* MEM_UOPS_RETIRED.*, HT on */
	{ }
};

/* Sky Lake's (intel_skl_event_constraints): PREC_DIST on counter 1 only. */
static const struct sim_constraint sim_skl[] = {
	{ SIM_UEVENT, 0x01c0, BIT(1), 0, SIM_ANY_TYPE },	/* INST_RETIRED.PREC_DIST */
	{ SIM_EVENT, 0xd0, 0xf, 0, SIM_ANY_TYPE },		/* MEM_INST_RETIRED.* */
	{ }
};

/* Ice Lake's, 8 general counters (intel_icl_event_constraints). */
static const struct sim_constraint sim_icl[] = {
	{ SIM_UEVENT, 0x04a3, 0xff, 0, SIM_ANY_TYPE },	/* CYCLE_ACTIVITY.STALLS_TOTAL */
	{ SIM_EVENT, 0xa3, 0xf, 0, SIM_ANY_TYPE },	/* CYCLE_ACTIVITY.* */
	{ }
};

static void constrained_event_only_on_its_counter(struct kunit *test)
{
	sim_use_perf(sim_hsw);
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check1(test, ARCH, 0, EN | USR | 0x0148));
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check1(test, ARCH, 3, EN | USR | 0x08a3));
	KUNIT_EXPECT_EQ(test, 0, sim_check1(test, ARCH, 2, EN | USR | 0x0148));
	/* Asked without the enable and interrupt bits, with the rest. */
	KUNIT_EXPECT_EQ(test, (u64)(USR | 0x0148), sim_perf_config);
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check2(test, ARCH, 2, EN | USR | EVENT,
						  0, EN | OS | 0x0148));
	KUNIT_EXPECT_EQ(test, 0, sim_check2(test, ARCH, 0, EN | USR | EVENT,
					    2, EN | OS | 0x0148));
}

static void skl_prec_dist_only_on_counter_1(struct kunit *test)
{
	sim_use_perf(sim_skl);
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check1(test, ARCH, 0, EN | USR | 0x01c0));
	KUNIT_EXPECT_EQ(test, 0, sim_check1(test, ARCH, 1, EN | USR | 0x01c0));
	KUNIT_EXPECT_EQ(test, 0, sim_check1(test, ARCH, 0, EN | USR | EVENT));
}

/* Version 4, 8 general counters, 3 fixed: the low four only for 0xa3. */
static void icl_cycle_activity_on_the_low_four(struct kunit *test)
{
	const u32 eax = 4 | 8 << 8 | 48 << 16, edx = 3 | 48 << 5;
	struct perfctr_x86_pmu_caps caps;
	const struct perfctr_x86_model *m;

	perfctr_x86_parse_pmu_caps(&caps, eax, 0, edx, false, 0, 0);
	m = perfctr_x86_arch_model(&caps, 4, false, sim_model_buf(test));
	KUNIT_ASSERT_NOT_NULL(test, m);
	sim_use_perf(sim_icl);
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check1(test, m, 4, EN | USR | 0x08a3));
	KUNIT_EXPECT_EQ(test, 0, sim_check1(test, m, 3, EN | USR | 0x08a3));
	KUNIT_EXPECT_EQ(test, 0, sim_check1(test, m, 7, EN | USR | 0x04a3));
}

/* CPU_CLK_UNHALTED.REF counts on fixed counter 2 only; fixed counters are not asked. */
static void fixed_only_event_refused_on_a_general_counter(struct kunit *test)
{
	sim_use_perf(sim_hsw);
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check1(test, ARCH, 0, EN | USR | 0x0300));
	sim_perf_asked = 0;
	KUNIT_EXPECT_EQ(test, 0, sim_check1(test, ARCH, FIXED(2), F_USR));
	KUNIT_EXPECT_EQ(test, 0U, sim_perf_asked);
}

static void extra_register_and_exclusive_events_refused(struct kunit *test)
{
	sim_use_perf(sim_hsw);
	KUNIT_EXPECT_EQ(test, -EOPNOTSUPP, sim_check1(test, ARCH, 0, EN | USR | 0x01b7));
	KUNIT_EXPECT_EQ(test, -EOPNOTSUPP, sim_check1(test, ARCH, 1, EN | USR | 0x01cd));
	KUNIT_EXPECT_EQ(test, -EOPNOTSUPP, sim_check2(test, ARCH, 1, EN | USR | EVENT,
						      0, EN | USR | 0x01d0));
}

/* No perf PMU (QEMU TCG): nothing known, the event is accepted as before. */
static void without_perf_constraints_nothing_is_refused(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 0, sim_check1(test, ARCH, 0, EN | USR | 0x0148));
	KUNIT_EXPECT_EQ(test, 1U, sim_perf_asked);
}

/* AMD: asked with EventSelect[11:8] (bits 35:32), as perf's raw config has it. */
static void amd_asks_with_the_high_event_bits(struct kunit *test)
{
	static const struct sim_constraint pair[] = {
		{ 0xf000000ffULL, 0x100000003ULL, 0, -EOPNOTSUPP, SIM_ANY_TYPE },
		{ }
	};
	struct perfctr_cpu_state *st = sim_one_counter(test, AMD, 0, EN | USR | 0x03);

	sim_use_perf(pair);
	KUNIT_EXPECT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	st->control.evntsel_high[0] = 1;
	KUNIT_EXPECT_EQ(test, -EOPNOTSUPP, perfctr_cpu_update_control(st, 0));
	KUNIT_EXPECT_EQ(test, 0x100000003ULL | USR, sim_perf_config);
}

/*
 * The real perf of the machine the suite runs on: -ENODEV exactly when it
 * has no x86 PMU (QEMU TCG), else event 0xc0 on some general counter.
 */
static void perf_answers_for_this_cpu(struct kunit *test)
{
	struct x86_pmu_capability cap;
	u64 cntrs = 0;
	int err = x86_perf_event_counters(0xc0 | USR, raw_smp_processor_id(), &cntrs);

	if (err == -ENODEV) {
		perf_get_x86_pmu_capability(&cap);
		KUNIT_EXPECT_EQ(test, 0, cap.num_counters_gp);
		return;
	}
	KUNIT_EXPECT_EQ(test, 0, err);
	KUNIT_EXPECT_NE(test, 0ULL, cntrs & GENMASK_ULL(31, 0));
}

static struct kunit_case perfctr_x86_p6_cases[] = {
	KUNIT_CASE(p6_accepts_counter0),
	KUNIT_CASE(p6_accepts_both_counters),
	KUNIT_CASE(p6_rejects_enable_in_evntsel1),
	KUNIT_CASE(p6_rejects_evntsel0_without_enable),
	KUNIT_CASE(p6_rejects_counter1_alone),
	KUNIT_CASE(p6_rejects_reserved_bit21),
	KUNIT_CASE(p6_rejects_reserved_bit19),
	KUNIT_CASE(p6_rejects_int_in_amode),
	KUNIT_CASE(p6_rejects_imode_without_interrupts),
	KUNIT_CASE(p6_rejects_no_cpl),
	KUNIT_CASE(p6_accepts_os_only),
	KUNIT_CASE(p6_rejects_duplicate_map),
	KUNIT_CASE(p6_rejects_map_out_of_range),
	KUNIT_CASE(p6_rejects_too_many_counters),
	KUNIT_CASE(p6_rejects_evntsel_high),
	KUNIT_CASE(p6_rejects_p4_fields),
	KUNIT_CASE(k7_accepts_four_counters),
	KUNIT_CASE(k7_rejects_counter_without_enable),
	KUNIT_CASE(k7_accepts_counter1_alone),
	KUNIT_CASE(k7_rejects_map_4),
	KUNIT_CASE(k7_rejects_reserved_bits),
	KUNIT_CASE(arch_accepts_general_and_fixed),
	KUNIT_CASE(arch_rejects_counter_without_enable),
	KUNIT_CASE(arch_rejects_anythread),
	KUNIT_CASE(arch_rejects_fixed_anythread),
	KUNIT_CASE(arch_rejects_fixed_pmi_in_amode),
	KUNIT_CASE(arch_rejects_fixed_counting_nothing),
	KUNIT_CASE(arch_rejects_fixed_out_of_range),
	KUNIT_CASE(arch_rejects_duplicate_fixed),
	KUNIT_CASE(arch_rejects_evntsel_high),
	KUNIT_CASE(arch_rejects_map_beyond_counters),
	KUNIT_CASE(arch_accepts_fixed_alone),
	KUNIT_CASE(arch_programs_fixed_ctrl_and_global),
	KUNIT_CASE(arch_counts_general_and_fixed),
	KUNIT_CASE(arch_second_resume_writes_only_global_ctrl),
	KUNIT_CASE(arch_stops_before_reprogramming),
	KUNIT_CASE(arch_wraps_at_48_bits),
	KUNIT_CASE(amd_accepts_high_event_bits),
	KUNIT_CASE(amd_rejects_host_guest_bits),
	KUNIT_CASE(amd_rejects_counter_without_enable),
	KUNIT_CASE(amd_rejects_map_6),
	KUNIT_CASE(amd_rejects_fixed_maps),
	KUNIT_CASE(amd_writes_64bit_event_select_at_stride_2),
	KUNIT_CASE(amd_counts_six_counters),
	KUNIT_CASE(amd_rejects_seven_counters),
	KUNIT_CASE(arch_model_has_the_cpuid_counters),
	KUNIT_CASE(arch_fixed_counters_fold_at_their_own_width),
	KUNIT_CASE(arch_v1_model),
	KUNIT_CASE(arch_full_width_writes),
	KUNIT_CASE(constrained_event_only_on_its_counter),
	KUNIT_CASE(skl_prec_dist_only_on_counter_1),
	KUNIT_CASE(icl_cycle_activity_on_the_low_four),
	KUNIT_CASE(fixed_only_event_refused_on_a_general_counter),
	KUNIT_CASE(extra_register_and_exclusive_events_refused),
	KUNIT_CASE(without_perf_constraints_nothing_is_refused),
	KUNIT_CASE(amd_asks_with_the_high_event_bits),
	KUNIT_CASE(perf_answers_for_this_cpu),
	KUNIT_CASE_PARAM(imode_accepts_int_with_negative_ireset, p6_family_gen_params),
	KUNIT_CASE_PARAM(imode_rejects_evntsel_without_int, p6_family_gen_params),
	KUNIT_CASE_PARAM(amode_rejects_int_beside_imode, p6_family_gen_params),
	KUNIT_CASE_PARAM(imode_rejects_nonnegative_ireset, p6_family_gen_params),
	KUNIT_CASE(arch_fixed_imode_needs_pmi),
	KUNIT_CASE_PARAM(imode_needs_a_local_apic, p6_family_gen_params),
	KUNIT_CASE(pcint_reported_only_where_it_should),
	KUNIT_CASE_PARAM(imode_resume_writes_start_values, p6_family_gen_params),
	KUNIT_CASE_PARAM(suspended_counters_count_no_foreign_events, p6_family_gen_params),
	KUNIT_CASE_PARAM(next_control_sees_no_counts_of_the_last, p6_family_gen_params),
	KUNIT_CASE(arch_fixed_imode_resume_writes_start_value),
	KUNIT_CASE(imode_suspend_stops_the_counters),
	KUNIT_CASE(arch_fixed_imode_suspend_stops_it),
	KUNIT_CASE(imode_same_cpu_resume_writes_no_counter),
	KUNIT_CASE(imode_resume_elsewhere_rewrites),
	KUNIT_CASE(ireload_forces_the_counters_rewritten),
	KUNIT_CASE(identify_overflow_finds_the_overflown),
	KUNIT_CASE(identify_overflow_returns_the_mask),
	KUNIT_CASE(identify_overflow_clears_the_status),
	KUNIT_CASE(imode_counts_across_overflow),
	KUNIT_CASE_PARAM(kvm_vpmu_takes_every_driver_write, kvm_vpmus_gen_params),
	KUNIT_CASE_PARAM(kvm_vpmu_takes_the_writes_after_the_cache_forgot, kvm_vpmus_gen_params),
	KUNIT_CASE_PARAM(kvm_counter_writes_keep_the_overflow_period, kvm_vpmus_gen_params),
	KUNIT_CASE_PARAM(kvm_reset_global_ctrl_is_not_trusted, kvm_vpmus_gen_params),
	{}
};

static struct kunit_suite perfctr_x86_p6_suite = {
	.name = "perfctr_x86_p6",
	.suite_init = sim_suite_init,
	.init = sim_test_init,
	.exit = sim_test_exit,
	.test_cases = perfctr_x86_p6_cases,
};

kunit_test_suite(perfctr_x86_p6_suite);
