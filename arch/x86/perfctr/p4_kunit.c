// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the perfctr x86 driver on its simulated PMU (sim_kunit.c):
 * the Pentium 4: CCCRs and ESCRs, replay tagging, i-mode.
 */
#include "kunit.h"

/* ---- Pentium 4 ---- */

/* A P4 state with @n counters: pmc_map[i] = maps[i], CCCR cccrs[i], ESCR escrs[i]. */
static struct perfctr_cpu_state *p4_state(struct kunit *test, const struct perfctr_x86_model *m,
					  unsigned int n, const u32 *maps, const u32 *cccrs,
					  const u32 *escrs)
{
	struct perfctr_cpu_state *st;
	unsigned int i;

	simx_setup(test, m, 40);
	st = sim_state(test, n, maps, cccrs);
	for (i = 0; i < n; i++)
		st->control.p4.escr[i] = escrs[i];
	return st;
}

static int p4_check1(struct kunit *test, const struct perfctr_x86_model *m,
		     u32 map, u32 cccr, u32 escr)
{
	return perfctr_cpu_update_control(p4_state(test, m, 1, &map, &cccr, &escr), 0);
}

static void p4_escr_map_matches_the_manual(struct kunit *test)
{
	unsigned int pmc, sel, bad = 0;

	perfctr_x86_use_model(P4);
	for (pmc = 0; pmc < 18; pmc++)
		for (sel = 0; sel < 8; sel++)
			if (perfctr_x86_p4_escr_msr(pmc, C_SEL(sel)) != sim_sdm_escr[pmc][sel]) {
				kunit_info(test, "counter %u select %u: %#x, not %#x", pmc, sel,
					   perfctr_x86_p4_escr_msr(pmc, C_SEL(sel)),
					   sim_sdm_escr[pmc][sel]);
				bad++;
			}
	KUNIT_EXPECT_EQ(test, 0U, bad);
	KUNIT_EXPECT_EQ(test, 0U, perfctr_x86_p4_escr_msr(18, C_SEL(0)));
}

static void p4_accepts_a_counter_with_fast_rdpmc(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 0, p4_check1(test, P4, FAST | 12, IQ_CCCR, IQ_ESCR));
	KUNIT_EXPECT_EQ(test, 0, p4_check1(test, P4M3, 0, C_ENABLE | C_ACTIVE | C_SEL(0),
					   E_EV(3) | E_T0_OS));
}

static void p4_pmc_map_rules(struct kunit *test)
{
	u32 maps[] = { 12, FAST | 12 }, cccrs[] = { IQ_CCCR, IQ_CCCR };
	u32 escrs[] = { IQ_ESCR, IQ_ESCR };

	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4, 18, IQ_CCCR, IQ_ESCR));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4, BIT(30) | 12, IQ_CCCR, IQ_ESCR));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			perfctr_cpu_update_control(p4_state(test, P4, 2, maps, cccrs, escrs), 0));
	maps[1] = FAST | 13;
	KUNIT_EXPECT_EQ(test, 0,
			perfctr_cpu_update_control(p4_state(test, P4, 2, maps, cccrs, escrs), 0));
}

static void p4_rejects_reserved_cccr_bits(struct kunit *test)
{
	static const u32 bits[] = { C_OVF, C_PMI_T1, BIT(28), BIT(29), BIT(0), BIT(10) };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bits); i++)
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
				    p4_check1(test, P4M2, 12, IQ_CCCR | bits[i], IQ_ESCR),
				    "bit %#x", bits[i]);
	/* Compare, complement, threshold and edge are the user's. */
	KUNIT_EXPECT_EQ(test, 0, p4_check1(test, P4M2, 12, IQ_CCCR | BIT(18) | BIT(19) |
					   (5 << 20) | BIT(24), IQ_ESCR));
}

static void p4_extended_cascade(struct kunit *test)
{
	static const unsigned int ok[] = { 12, 15, 16, 17 }, bad[] = { 0, 4, 8, 13, 14 };
	unsigned int i;

	/* Counters 12, 15-17 on models 2+ only; 14, 15, 17 use select 4 too. */
	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		KUNIT_EXPECT_EQ_MSG(test, 0, p4_check1(test, P4M2, ok[i], IQ_CCCR | C_EXT_CASCADE,
						       IQ_ESCR), "counter %u", ok[i]);
		KUNIT_EXPECT_EQ_MSG(test, 0, p4_check1(test, P4M3, ok[i], IQ_CCCR | C_EXT_CASCADE,
						       IQ_ESCR), "counter %u", ok[i]);
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
				    p4_check1(test, P4, ok[i], IQ_CCCR | C_EXT_CASCADE, IQ_ESCR),
				    "counter %u on model < 2", ok[i]);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
				    p4_check1(test, P4M2, bad[i], C_ENABLE | C_ACTIVE | C_SEL(0) |
					      C_EXT_CASCADE, IQ_ESCR), "counter %u", bad[i]);
	/* EXTENDED_CASCADE alone is enough to be on. */
	KUNIT_EXPECT_EQ(test, 0, p4_check1(test, P4M2, 16, C_ACTIVE | C_SEL(4) | C_EXT_CASCADE,
					   IQ_ESCR));
}

static void p4_active_thread_rule(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4, 12, IQ_CCCR & ~BIT(17), IQ_ESCR));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4, 12, IQ_CCCR & ~BIT(16), IQ_ESCR));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4, 12, IQ_CCCR & ~C_ACTIVE, IQ_ESCR));
	perfctr_x86_p4_ht = true;	/* on HT the user chooses the thread */
	KUNIT_EXPECT_EQ(test, 0, p4_check1(test, P4, 12, IQ_CCCR & ~BIT(17), IQ_ESCR));
}

static void p4_needs_enable_or_cascade(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4M3, 12, IQ_CCCR & ~C_ENABLE, IQ_ESCR));
	KUNIT_EXPECT_EQ(test, 0, p4_check1(test, P4M3, 12, (IQ_CCCR & ~C_ENABLE) | C_CASCADE,
					   IQ_ESCR));
}

static int p4_check_imode(struct kunit *test, u32 cccr, s32 ireset)
{
	u32 map = 12, escr = IQ_ESCR;
	struct perfctr_cpu_state *st = p4_state(test, P4, 1, &map, &cccr, &escr);

	st->control.nractrs = 0;
	st->control.nrictrs = 1;
	st->control.ireset[0] = ireset;
	return perfctr_cpu_update_control(st, 0);
}

static void p4_ovf_pmi_rules(struct kunit *test)
{
	/* a-mode: OVF_PMI_T0 clear. */
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4, 12, IQ_CCCR | C_PMI_T0, IQ_ESCR));
	/* Without the overflow interrupt, no i-mode counter at all ... */
	perfctr_x86_no_lapic = true;
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check_imode(test, IQ_CCCR | C_PMI_T0, -100));
	perfctr_x86_no_lapic = false;
	if (!IS_ENABLED(CONFIG_PERFCTR_INTERRUPT_SUPPORT) || !boot_cpu_has(X86_FEATURE_APIC))
		kunit_skip(test, "no overflow interrupt without a local APIC");
	/* ... and with it, perfctr 2.7's rules. */
	KUNIT_EXPECT_EQ(test, 0, p4_check_imode(test, IQ_CCCR | C_PMI_T0, -100));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check_imode(test, IQ_CCCR, -100));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check_imode(test, IQ_CCCR | C_PMI_T0, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check_imode(test, IQ_CCCR | C_PMI_T0 | C_FORCE_OVF, -2));
	KUNIT_EXPECT_EQ(test, 0, p4_check_imode(test, IQ_CCCR | C_PMI_T0 | C_FORCE_OVF, -1));
}

static void p4_escr_rules(struct kunit *test)
{
	u32 map = 12, cccr = IQ_CCCR, escr = IQ_ESCR | E_T1_USR;

	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4, 12, IQ_CCCR, IQ_ESCR | BIT(31)));
	KUNIT_EXPECT_EQ(test, 0, p4_check1(test, P4, 12, IQ_CCCR, IQ_ESCR | BIT(30)));
	/* CPL_T1: only on HT, and only for global-mode counters. */
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4, 12, IQ_CCCR, IQ_ESCR | E_T1_USR));
	perfctr_x86_p4_ht = true;
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4, 12, IQ_CCCR, IQ_ESCR | E_T1_USR));
	KUNIT_EXPECT_EQ(test, 0,
			perfctr_cpu_update_control(p4_state(test, P4, 1, &map, &cccr, &escr), 1));
	perfctr_x86_p4_ht = false;
	KUNIT_EXPECT_EQ(test, -EINVAL,
			perfctr_cpu_update_control(p4_state(test, P4, 1, &map, &cccr, &escr), 1));
}

static void p4_iq_escr_only_up_to_model_2(struct kunit *test)
{
	u32 iq0 = C_ENABLE | C_ACTIVE | C_SEL(0);

	KUNIT_EXPECT_EQ(test, 0, p4_check1(test, P4, 12, iq0, IQ_ESCR));
	KUNIT_EXPECT_EQ(test, 0, p4_check1(test, P4M2, 14, iq0, IQ_ESCR));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4M3, 12, iq0, IQ_ESCR));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4M3, 17, iq0, IQ_ESCR));
	KUNIT_EXPECT_EQ(test, 0, p4_check1(test, P4M3, 17, C_ENABLE | C_ACTIVE | C_SEL(1),
					   IQ_ESCR));
}

static void p4_rejects_escr_select_out_of_domain(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4, 15, C_ENABLE | C_ACTIVE | C_SEL(3),
						 IQ_ESCR));
	KUNIT_EXPECT_EQ(test, 0, p4_check1(test, P4, 13, C_ENABLE | C_ACTIVE | C_SEL(3), IQ_ESCR));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4, 4, C_ENABLE | C_ACTIVE | C_SEL(3),
						 IQ_ESCR));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4, 8, C_ENABLE | C_ACTIVE | C_SEL(7),
						 IQ_ESCR));
}

static int p4_check_pebs(struct kunit *test, u32 pe, u32 pmv)
{
	u32 map = 12, cccr = IQ_CCCR, escr = IQ_ESCR;
	struct perfctr_cpu_state *st = p4_state(test, P4, 1, &map, &cccr, &escr);

	st->control.p4.pebs_enable = pe;
	st->control.p4.pebs_matrix_vert = pmv;
	return perfctr_cpu_update_control(st, 0);
}

static void p4_replay_tagging_rules(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 0, p4_check_pebs(test, BIT(24) | BIT(0), BIT(0)));
	KUNIT_EXPECT_EQ(test, 0, p4_check_pebs(test, BIT(24) | 0x607, 0x3));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check_pebs(test, 0, BIT(0)));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check_pebs(test, BIT(25) | BIT(24) | BIT(0), BIT(0)));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check_pebs(test, BIT(24) | BIT(3), BIT(0)));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check_pebs(test, BIT(9), BIT(0)));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check_pebs(test, BIT(24), BIT(0)));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check_pebs(test, BIT(24) | BIT(10), BIT(2) | BIT(1)));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check_pebs(test, BIT(24) | BIT(10), 0));
}

static void p4_rejects_escr_of_unused_counter(struct kunit *test)
{
	u32 map = 12, cccr = IQ_CCCR, escr = IQ_ESCR;
	struct perfctr_cpu_state *st = p4_state(test, P4, 1, &map, &cccr, &escr);

	st->control.p4.escr[1] = IQ_ESCR;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st->control.p4.escr[1] = 0;
	st->control.evntsel_high[0] = 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
}

static struct perfctr_cpu_state *p4_two(struct kunit *test)
{
	/* Counter 12 on CRU_ESCR0, counter 0 on BPU_ESCR0. */
	u32 maps[] = { FAST | 12, 0 };
	u32 cccrs[] = { IQ_CCCR, C_ENABLE | C_ACTIVE | C_SEL(0) };
	u32 escrs[] = { IQ_ESCR, E_EV(3) | BIT(9) | E_T0_OS };
	struct perfctr_cpu_state *st = p4_state(test, P4, 2, maps, cccrs, escrs);

	st->control.p4.pebs_enable = BIT(24) | BIT(0);
	st->control.p4.pebs_matrix_vert = BIT(0);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	return st;
}

static void p4_programs_escrs_cccrs_and_replay_tagging(struct kunit *test)
{
	struct perfctr_cpu_state *st = p4_two(test);
	int e, c;

	sim_run(st, 9);
	/* Two ESCRs, two CCCRs, the replay tagging; both CCCRs at the suspend. */
	KUNIT_EXPECT_EQ(test, 8U, sim_hw.wrmsrs);
	KUNIT_EXPECT_EQ(test, (u64)IQ_CCCR, sim_hw.run_evntsel[12]);
	KUNIT_EXPECT_EQ(test, IQ_ESCR, sim_hw.escr[MSR_P4_CRU_ESCR0 - 0x3a0]);
	KUNIT_EXPECT_EQ(test, (u32)(E_EV(3) | BIT(9) | E_T0_OS),
			sim_hw.escr[MSR_P4_BPU_ESCR0 - 0x3a0]);
	KUNIT_EXPECT_EQ(test, (u32)(BIT(24) | BIT(0)), sim_hw.pebs_enable);
	KUNIT_EXPECT_EQ(test, (u32)BIT(0), sim_hw.pebs_matrix_vert);
	/* Each ESCR is loaded before its CCCR enables the counter. */
	e = sim_written(MSR_P4_CRU_ESCR0, 0);
	c = sim_written(CCCR_MSR(12), 0);
	KUNIT_EXPECT_GE(test, e, 0);
	KUNIT_EXPECT_GT(test, c, e);
	KUNIT_EXPECT_EQ(test, 9ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 9ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, FAST | 12, st->pmc[0].map);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.stray);
}

static void p4_counts_across_wrap_40(struct kunit *test)
{
	struct perfctr_cpu_state *st = p4_two(test);

	sim_hw.ctr[12] = GENMASK_ULL(39, 0) - 2;	/* 40-bit wrap */
	sim_hw.ctr[0] = 0xfffffff0ULL;		/* the low 32 bits wrap */
	sim_run(st, 100);
	sim_advance(50);			/* not ours: stopped */
	sim_run(st, 28);
	KUNIT_EXPECT_EQ(test, 128ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 128ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, 125ULL, sim_hw.ctr[12]);
}

/*
 * The a-mode counters stop at every suspend (their CCCRs cleared): what
 * runs next on the CPU is not counted, and the owner's next start (its
 * mapped page, RDPMC) shows nothing of it.
 */
static void p4_suspended_counters_count_no_foreign_events(struct kunit *test)
{
	struct perfctr_cpu_state *st = p4_two(test);
	u64 ctr12, ctr0;

	sim_run(st, 100);
	ctr12 = sim_hw.ctr[12];
	ctr0 = sim_hw.ctr[0];
	sim_advance(1000);			/* the next task's events */
	KUNIT_EXPECT_EQ(test, ctr12, sim_hw.ctr[12]);
	KUNIT_EXPECT_EQ(test, ctr0, sim_hw.ctr[0]);
	sim_resume(st);
	KUNIT_EXPECT_EQ(test, ctr12, st->pmc[0].start);
	KUNIT_EXPECT_EQ(test, ctr0, st->pmc[1].start);
	sim_advance(5);
	sim_suspend(st);
	KUNIT_EXPECT_EQ(test, 105ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 105ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.stray);
}

/* Another control starts from zero counters, all eighteen (claim_ctrs). */
static void p4_next_control_sees_no_counts_of_the_last(struct kunit *test)
{
	struct perfctr_cpu_state *a = p4_two(test), *b;
	u32 map = 12, cccr = IQ_CCCR, escr = IQ_ESCR;
	unsigned int i;

	b = sim_state(test, 1, &map, &cccr);
	b->control.p4.escr[0] = escr;
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(b, 0));
	sim_hw.ctr[5] = 77;		/* a counter neither uses */
	sim_run(a, 100);
	sim_resume(b);
	KUNIT_EXPECT_EQ(test, 0ULL, b->pmc[0].start);
	for (i = 0; i < 18; i++)
		KUNIT_EXPECT_EQ_MSG(test, 0ULL, perfctr_x86_rdpmc(i), "counter %u", i);
	sim_advance(5);
	sim_suspend(b);
	KUNIT_EXPECT_EQ(test, 5ULL, b->pmc[0].sum);
	sim_run(a, 7);
	KUNIT_EXPECT_EQ(test, 107ULL, a->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 107ULL, a->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.stray);
}

/* A switch rewrites the two CCCRs each way, never the ESCRs. */
static void p4_resume_writes_only_the_cccrs_when_cached(struct kunit *test)
{
	struct perfctr_cpu_state *st = p4_two(test);
	unsigned int n;

	sim_run(st, 1);
	n = sim_hw.wrmsrs;
	sim_run(st, 1);
	sim_run(st, 1);
	KUNIT_EXPECT_EQ(test, n + 8, sim_hw.wrmsrs);
	KUNIT_EXPECT_EQ(test, -1, sim_written(MSR_P4_CRU_ESCR0, n));
	KUNIT_EXPECT_EQ(test, -1, sim_written(MSR_P4_BPU_ESCR0, n));
	KUNIT_EXPECT_EQ(test, -1, sim_written(PERFCTR_P4_PEBS_ENABLE, n));
	KUNIT_EXPECT_EQ(test, 3ULL, st->pmc[0].sum);
}

static void p4_resume_writes_only_what_differs(struct kunit *test)
{
	u32 maps[] = { FAST | 12, 0 };
	u32 cccrs[] = { IQ_CCCR, C_ENABLE | C_ACTIVE | C_SEL(0) };
	u32 escrs[] = { IQ_ESCR | E_T0_OS, E_EV(3) | BIT(9) | E_T0_OS };
	struct perfctr_cpu_state *a = p4_two(test), *b;

	b = sim_state(test, 2, maps, cccrs);
	b->control.p4.escr[0] = escrs[0];
	b->control.p4.escr[1] = escrs[1];
	b->control.p4.pebs_enable = BIT(24) | BIT(0);
	b->control.p4.pebs_matrix_vert = BIT(0);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(b, 0));
	sim_run(a, 1);
	sim_hw.wrmsrs = 0;
	sim_run(b, 1);
	/*
	 * The eighteen counters zeroed (another control: claim_ctrs); of the
	 * ESCRs only CRU_ESCR0 differs; two CCCRs each way.
	 */
	KUNIT_EXPECT_EQ(test, 18U + 5, sim_hw.wrmsrs);
	KUNIT_EXPECT_EQ(test, (u32)P4_CTR_MSR(0), sim_hw.log[0]);
	KUNIT_EXPECT_EQ(test, (u32)MSR_P4_CRU_ESCR0, sim_hw.log[18]);
	KUNIT_EXPECT_EQ(test, -1, sim_written(MSR_P4_BPU_ESCR0, 0));
	sim_hw.wrmsrs = 0;
	sim_run(a, 1);
	KUNIT_EXPECT_EQ(test, 18U + 5, sim_hw.wrmsrs);
	KUNIT_EXPECT_EQ(test, IQ_ESCR, sim_hw.escr[MSR_P4_CRU_ESCR0 - 0x3a0]);
}

static void p4_stops_counters_the_next_control_does_not_use(struct kunit *test)
{
	struct perfctr_cpu_state *two = p4_two(test), *one;
	u32 map = 13, cccr = C_ENABLE | C_ACTIVE | C_SEL(5), escr = IQ_ESCR;
	int stop12, start13;

	one = sim_state(test, 1, &map, &cccr);
	one->control.p4.escr[0] = escr;
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(one, 0));
	sim_run(two, 1);
	/* two's suspend stopped its counters, before anything of one's. */
	stop12 = sim_written(CCCR_MSR(12), 0);
	sim_hw.wrmsrs = 0;
	sim_run(one, 7);
	KUNIT_EXPECT_EQ(test, 0ULL, sim_hw.run_evntsel[12]);
	KUNIT_EXPECT_EQ(test, 0ULL, sim_hw.run_evntsel[0]);
	KUNIT_EXPECT_EQ(test, (u64)cccr, sim_hw.run_evntsel[13]);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.pebs_enable);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.pebs_matrix_vert);
	KUNIT_EXPECT_EQ(test, IQ_ESCR, sim_hw.escr[MSR_P4_CRU_ESCR2 - 0x3a0]);
	start13 = sim_written(CCCR_MSR(13), 0);
	KUNIT_EXPECT_GE(test, stop12, 0);
	KUNIT_EXPECT_GE(test, start13, 0);
	KUNIT_EXPECT_EQ(test, 7ULL, one->pmc[0].sum);
}

static bool ht_odd_is_sibling(unsigned int cpu)
{
	return cpu & 1;
}

static void p4_ht_forbids_the_second_threads(struct kunit *test)
{
	unsigned int cpu, want = 0, got = 0;

	kunit_activate_static_stub(test, perfctr_x86_ht_sibling, ht_odd_is_sibling);
	perfctr_x86_p4_ht = true;
	perfctr_x86_use_model(P4M2);
	for_each_possible_cpu(cpu) {
		want += cpu & 1;
		got += cpumask_test_cpu(cpu, &perfctr_cpus_forbidden_mask) ? 1 : 0;
		KUNIT_EXPECT_EQ(test, (bool)(cpu & 1),
				cpumask_test_cpu(cpu, &perfctr_cpus_forbidden_mask));
	}
	KUNIT_EXPECT_EQ(test, want, got);
	/* Not on a P4 without HT, not with another model. */
	perfctr_x86_p4_ht = false;
	perfctr_x86_use_model(P4M2);
	KUNIT_EXPECT_TRUE(test, cpumask_empty(&perfctr_cpus_forbidden_mask));
	perfctr_x86_p4_ht = true;
	perfctr_x86_use_model(&perfctr_x86_p6);
	KUNIT_EXPECT_TRUE(test, cpumask_empty(&perfctr_cpus_forbidden_mask));
}

/* ---- P4 i-mode: OVF_PMI_T0, 40-bit counters, the CCCR cleared at suspend ---- */

/* A validated P4 state with one i-mode counter, IQ_COUNTER0 (12). */
static struct perfctr_cpu_state *p4_istate(struct kunit *test, int ireset)
{
	u32 map = 12, cccr = P4_ICCCR, escr = IQ_ESCR;
	struct perfctr_cpu_state *st;

	if (!IS_ENABLED(CONFIG_PERFCTR_INTERRUPT_SUPPORT) || !boot_cpu_has(X86_FEATURE_APIC))
		kunit_skip(test, "no overflow interrupt without a local APIC");
	st = p4_state(test, P4, 1, &map, &cccr, &escr);
	st->control.nractrs = 0;
	st->control.nrictrs = 1;
	st->control.ireset[0] = ireset;
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	return st;
}

static void p4_imode_resume_writes_start_value(struct kunit *test)
{
	struct perfctr_cpu_state *st = p4_istate(test, -1000);
	int ctr, cccr;

	sim_hw.ctr[12] = 0x1234;		/* what another thread left */
	sim_resume(st);
	KUNIT_EXPECT_EQ(test, sim_sext(-1000), sim_hw.ctr[12]);
	KUNIT_EXPECT_EQ(test, 1U, sim_hw.ctr_writes);
	ctr = sim_written(P4_CTR_MSR(12), 0);
	cccr = sim_written(CCCR_MSR(12), 0);
	KUNIT_EXPECT_GE(test, ctr, 0);
	KUNIT_EXPECT_LT(test, ctr, cccr);	/* loaded, then started */
	KUNIT_EXPECT_EQ(test, (u64)P4_ICCCR, sim_hw.evntsel[12]);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.stray);
	sim_suspend(st);
}

static void p4_imode_suspend_stops_it(struct kunit *test)
{
	struct perfctr_cpu_state *st = p4_istate(test, -1000);

	sim_run(st, 10);
	KUNIT_EXPECT_EQ(test, 0ULL, sim_hw.evntsel[12]);
	KUNIT_EXPECT_EQ(test, 10ULL, st->pmc[0].sum);
	sim_advance(10);			/* stopped: counts nothing */
	KUNIT_EXPECT_EQ(test, sim_sext(-990), sim_hw.ctr[12]);
}

static void p4_imode_same_cpu_resume_writes_no_counter(struct kunit *test)
{
	struct perfctr_cpu_state *st = p4_istate(test, -1000);

	sim_run(st, 10);
	sim_hw.ctr_writes = 0;
	sim_resume(st);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.ctr_writes);
	KUNIT_EXPECT_EQ(test, (u64)P4_ICCCR, sim_hw.evntsel[12]);
	sim_advance(5);
	sim_suspend(st);
	KUNIT_EXPECT_EQ(test, 15ULL, st->pmc[0].sum);
	/* Elsewhere (or after an ireload) the counter is written again. */
	perfctr_cpu_ireload(st);
	sim_resume(st);
	KUNIT_EXPECT_EQ(test, 1U, sim_hw.ctr_writes);
	sim_suspend(st);
}

static void p4_imode_overflow_found_and_rearmed(struct kunit *test)
{
	struct perfctr_cpu_state *st = p4_istate(test, -100);

	sim_resume(st);
	sim_advance(150);
	KUNIT_EXPECT_EQ(test, 1U, sim_hw.pmis);
	KUNIT_EXPECT_TRUE(test, sim_hw.evntsel[12] & C_OVF);
	sim_suspend(st);
	/* The suspend cleared the CCCR, and with it the sticky OVF flag. */
	KUNIT_EXPECT_EQ(test, 0ULL, sim_hw.evntsel[12]);
	KUNIT_EXPECT_EQ(test, 1U, perfctr_cpu_identify_overflow(st));
	KUNIT_EXPECT_EQ(test, (u64)(s64)-100, st->pmc[0].start);
	KUNIT_EXPECT_EQ(test, 150ULL, st->pmc[0].sum);
	perfctr_cpu_ireload(st);
	sim_resume(st);
	KUNIT_EXPECT_EQ(test, sim_sext(-100), sim_hw.ctr[12]);
	sim_advance(40);
	sim_suspend(st);
	KUNIT_EXPECT_EQ(test, 0U, perfctr_cpu_identify_overflow(st));
	KUNIT_EXPECT_EQ(test, 190ULL, st->pmc[0].sum);
}

static struct kunit_case perfctr_x86_p4_cases[] = {
	KUNIT_CASE(p4_escr_map_matches_the_manual),
	KUNIT_CASE(p4_accepts_a_counter_with_fast_rdpmc),
	KUNIT_CASE(p4_pmc_map_rules),
	KUNIT_CASE(p4_rejects_reserved_cccr_bits),
	KUNIT_CASE(p4_extended_cascade),
	KUNIT_CASE(p4_active_thread_rule),
	KUNIT_CASE(p4_needs_enable_or_cascade),
	KUNIT_CASE(p4_ovf_pmi_rules),
	KUNIT_CASE(p4_escr_rules),
	KUNIT_CASE(p4_iq_escr_only_up_to_model_2),
	KUNIT_CASE(p4_rejects_escr_select_out_of_domain),
	KUNIT_CASE(p4_replay_tagging_rules),
	KUNIT_CASE(p4_rejects_escr_of_unused_counter),
	KUNIT_CASE(p4_programs_escrs_cccrs_and_replay_tagging),
	KUNIT_CASE(p4_counts_across_wrap_40),
	KUNIT_CASE(p4_suspended_counters_count_no_foreign_events),
	KUNIT_CASE(p4_next_control_sees_no_counts_of_the_last),
	KUNIT_CASE(p4_resume_writes_only_the_cccrs_when_cached),
	KUNIT_CASE(p4_resume_writes_only_what_differs),
	KUNIT_CASE(p4_stops_counters_the_next_control_does_not_use),
	KUNIT_CASE(p4_ht_forbids_the_second_threads),
	KUNIT_CASE(p4_imode_resume_writes_start_value),
	KUNIT_CASE(p4_imode_suspend_stops_it),
	KUNIT_CASE(p4_imode_same_cpu_resume_writes_no_counter),
	KUNIT_CASE(p4_imode_overflow_found_and_rearmed),
	{}
};

static struct kunit_suite perfctr_x86_p4_suite = {
	.name = "perfctr_x86_p4",
	.suite_init = sim_suite_init,
	.init = sim_test_init,
	.exit = sim_test_exit,
	.test_cases = perfctr_x86_p4_cases,
};

kunit_test_suite(perfctr_x86_p4_suite);
