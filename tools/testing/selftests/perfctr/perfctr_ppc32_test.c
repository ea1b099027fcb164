// SPDX-License-Identifier: GPL-2.0
/*
 * perfctr selftests of the 32-bit PowerPC models: 604, 604e, 750, 7400
 * and 745x.
 *
 * Under QEMU (mac99) the PMU registers of these CPUs are plain storage:
 * they hold what the kernel writes, but never count.  So what is tested
 * is what the driver writes, read back from problem state where the CPU
 * allows it (UMMCR0/1/2, UPMC1-6 on 750 and 74xx; the 604s have no user
 * mirrors): the control rules of each model, the packing of evntsel[]
 * into MMCR0 and MMCR1, MMCR2, the freeze at every suspend, the per-CPU
 * control cache across context switches, the timebase-only mode.  On
 * real hardware the same tests hold, and the counts they log are real.
 *
 * Elsewhere the program says so and exits; it is not run there.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(_ARCH_PPC) && !defined(_ARCH_PPC64)

#include "../../../perfctr/libperfctr.h"
#include "../kselftest_harness.h"

/* MMCR0 (32-bit Book3S) */
#define MMCR0_FC	0x80000000U
#define MMCR0_FCS	0x40000000U
#define MMCR0_FCP	0x20000000U
#define MMCR0_FCM1	0x10000000U
#define MMCR0_FCM0	0x08000000U
#define MMCR0_PMXE	0x04000000U
#define MMCR0_FCECE	0x02000000U
#define MMCR0_TBEE	0x00400000U
#define MMCR0_THRESH(n)	((n) << 16)
#define MMCR0_PMC1CE	0x00008000U
#define MMCR0_PMCNCE	0x00004000U
#define MMCR0_TRIGGER	0x00002000U
#define MMCR2_THRESHMULT 0x80000000U

/* Problem-state mirrors (750, 74xx). */
#define SPR_UMMCR2	928
#define SPR_UMMCR0	936
#define SPR_UPMC1	937
#define SPR_UMMCR1	940

#define MFSPR(spr) ({							\
	unsigned long __v;						\
	__asm__ __volatile__("mfspr %0, %1" : "=r"(__v) : "i"(spr));	\
	(__u32)__v;							\
})

/* Where evntsel[] goes for PMC1..PMC6 (MMCR0 for PMC1-2, else MMCR1). */
static const unsigned int sel_shift[6] = { 6, 0, 27, 22, 17, 11 };
static const unsigned int sel_max[6] = { 0x7f, 0x3f, 0x1f, 0x1f, 0x1f, 0x3f };

static struct perfctr_info info;

/* The ppc32 model the driver chose, or 0. */
static unsigned int model(void)
{
	if (perfctr_info(&info, NULL, NULL) ||
	    info.cpu_type < PERFCTR_PPC_604 || info.cpu_type > PERFCTR_PPC_7450)
		return 0;
	return info.cpu_type;
}

static unsigned int nr_pmcs(unsigned int type)
{
	return type == PERFCTR_PPC_604 ? 2 : type == PERFCTR_PPC_7450 ? 6 : 4;
}

static const char *model_name(void)
{
	static const char * const names[] = {
		"generic", "604", "604e", "750", "7400", "7450"
	};

	return info.cpu_type < 6 ? names[info.cpu_type] : "?";
}

static int is_74xx(unsigned int type)
{
	return type == PERFCTR_PPC_7400 || type == PERFCTR_PPC_7450;
}

static int has_rdpmc(void)
{
	return model() && (info.cpu_features & PERFCTR_FEATURE_RDPMC);
}

static int pin_to_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* A control counting on n PMCs in the order of @map, with selectors @sel. */
static void amode(struct vperfctr_control *c, unsigned int n, const unsigned int *map,
		  const unsigned int *sel, unsigned int mmcr0, unsigned int mmcr2)
{
	unsigned int i;

	memset(c, 0, sizeof(*c));
	c->cpu_control.tsc_on = 1;
	c->cpu_control.nractrs = n;
	for (i = 0; i < n; i++) {
		c->cpu_control.pmc_map[i] = map[i];
		c->cpu_control.evntsel[i] = sel[i];
	}
	c->cpu_control.ppc.mmcr0 = mmcr0;
	c->cpu_control.ppc.mmcr2 = mmcr2;
}

/* MMCR0 and MMCR1 the driver must load for @c. */
static void expected_mmcrs(const struct vperfctr_control *c, __u32 *mmcr0, __u32 *mmcr1)
{
	unsigned int i, pmc;

	*mmcr0 = c->cpu_control.ppc.mmcr0;
	*mmcr1 = 0;
	for (i = 0; i < c->cpu_control.nractrs; i++) {
		pmc = c->cpu_control.pmc_map[i];
		if (pmc < 2)
			*mmcr0 |= c->cpu_control.evntsel[i] << sel_shift[pmc];
		else
			*mmcr1 |= c->cpu_control.evntsel[i] << sel_shift[pmc];
	}
}

/* Counters in a scrambled order, with distinct selectors. */
static const unsigned int map_a[6] = { 2, 0, 3, 1, 5, 4 };
static const unsigned int sel_a[6] = { 0x13, 0x55, 0x0c, 0x2a, 0x26, 0x19 };
static const unsigned int map_b[6] = { 1, 0, 2, 3, 4, 5 };
static const unsigned int sel_b[6] = { 0x15, 0x6a, 0x1e, 0x01, 0x0a, 0x31 };

/* The map entries of @map below @nr (a model with fewer PMCs). */
static unsigned int fit(const unsigned int *map, unsigned int *out, const unsigned int *sel,
			unsigned int *osel, unsigned int nr)
{
	unsigned int i, n = 0;

	for (i = 0; i < 6; i++) {
		if (map[i] < nr) {
			out[n] = map[i];
			osel[n++] = sel[i];
		}
	}
	return n;
}

/* ---------------------------------------------------- control validation */

FIXTURE(ppc32_control) {
	int fd;
	unsigned int type;
	struct vperfctr_control good;
};

FIXTURE_SETUP(ppc32_control)
{
	static const unsigned int map[] = { 0 }, sel[] = { 0 };

	self->type = model();
	if (!self->type)
		SKIP(return, "no ppc32 PMC model on this CPU");
	self->fd = vperfctr_open(0, VPERFCTR_OPEN_CREAT);
	ASSERT_LE(0, self->fd);
	amode(&self->good, 1, map, sel, 0, 0);
	ASSERT_EQ(0, vperfctr_control(self->fd, &self->good));
}

FIXTURE_TEARDOWN(ppc32_control)
{
	if (self->type) {
		vperfctr_unlink(self->fd);
		close(self->fd);
	}
}

enum {
	A_ALWAYS,	/* every ppc32 model accepts it */
	A_NEVER,	/* every ppc32 model refuses it */
	A_4PMCS,	/* accepted with PMC3-4 (not the 604) */
	A_6PMCS,	/* accepted with PMC5-6 (745x) */
	A_74XX,		/* accepted with MMCR2 (7400, 745x) */
};

FIXTURE_VARIANT(ppc32_control) {
	int what;
	int accept;
};

enum {
	C_SEL_MAX, C_SEL_WIDE, C_ALL_PMCS, C_ONE_TOO_MANY, C_DUP_MAP,
	C_MMCR0_PMC1SEL, C_MMCR0_PMC2SEL, C_MMCR0_PMXE, C_MMCR0_REST,
	C_MMCR0_QUIRK, C_MMCR2_THRESHMULT, C_MMCR2_OTHER, C_MMCR1, C_MMCR1_HIGH,
	C_MMCRA, C_IMODE, C_AMODE_IRESET, C_TIMEBASE_ONLY, C_NO_TSC,
};

FIXTURE_VARIANT_ADD(ppc32_control, pmc1_widest_selector) {
	.what = C_SEL_MAX | 0 << 8, .accept = A_ALWAYS };
FIXTURE_VARIANT_ADD(ppc32_control, pmc1_selector_too_wide) {
	.what = C_SEL_WIDE | 0 << 8, .accept = A_NEVER };
FIXTURE_VARIANT_ADD(ppc32_control, pmc2_widest_selector) {
	.what = C_SEL_MAX | 1 << 8, .accept = A_ALWAYS };
FIXTURE_VARIANT_ADD(ppc32_control, pmc2_selector_too_wide) {
	.what = C_SEL_WIDE | 1 << 8, .accept = A_NEVER };
FIXTURE_VARIANT_ADD(ppc32_control, pmc3_widest_selector) {
	.what = C_SEL_MAX | 2 << 8, .accept = A_4PMCS };
FIXTURE_VARIANT_ADD(ppc32_control, pmc3_selector_too_wide) {
	.what = C_SEL_WIDE | 2 << 8, .accept = A_NEVER };
FIXTURE_VARIANT_ADD(ppc32_control, pmc4_widest_selector) {
	.what = C_SEL_MAX | 3 << 8, .accept = A_4PMCS };
FIXTURE_VARIANT_ADD(ppc32_control, pmc4_selector_too_wide) {
	.what = C_SEL_WIDE | 3 << 8, .accept = A_NEVER };
FIXTURE_VARIANT_ADD(ppc32_control, pmc5_widest_selector) {
	.what = C_SEL_MAX | 4 << 8, .accept = A_6PMCS };
FIXTURE_VARIANT_ADD(ppc32_control, pmc5_selector_too_wide) {
	.what = C_SEL_WIDE | 4 << 8, .accept = A_NEVER };
FIXTURE_VARIANT_ADD(ppc32_control, pmc6_widest_selector) {
	.what = C_SEL_MAX | 5 << 8, .accept = A_6PMCS };
FIXTURE_VARIANT_ADD(ppc32_control, pmc6_selector_too_wide) {
	.what = C_SEL_WIDE | 5 << 8, .accept = A_NEVER };
FIXTURE_VARIANT_ADD(ppc32_control, every_pmc) { .what = C_ALL_PMCS, .accept = A_ALWAYS };
FIXTURE_VARIANT_ADD(ppc32_control, one_pmc_too_many) { .what = C_ONE_TOO_MANY, .accept = A_NEVER };
FIXTURE_VARIANT_ADD(ppc32_control, two_counters_one_pmc) { .what = C_DUP_MAP, .accept = A_NEVER };
FIXTURE_VARIANT_ADD(ppc32_control, mmcr0_pmc1sel) { .what = C_MMCR0_PMC1SEL, .accept = A_NEVER };
FIXTURE_VARIANT_ADD(ppc32_control, mmcr0_pmc2sel) { .what = C_MMCR0_PMC2SEL, .accept = A_NEVER };
FIXTURE_VARIANT_ADD(ppc32_control, mmcr0_pmxe_no_interrupts) {
	.what = C_MMCR0_PMXE, .accept = A_NEVER };
FIXTURE_VARIANT_ADD(ppc32_control, mmcr0_every_other_bit) {
	.what = C_MMCR0_REST, .accept = A_ALWAYS };
FIXTURE_VARIANT_ADD(ppc32_control, mmcr0_fcece_trigger) {
	.what = C_MMCR0_QUIRK, .accept = A_ALWAYS };
FIXTURE_VARIANT_ADD(ppc32_control, mmcr2_threshmult) {
	.what = C_MMCR2_THRESHMULT, .accept = A_74XX };
FIXTURE_VARIANT_ADD(ppc32_control, mmcr2_beyond_threshmult) {
	.what = C_MMCR2_OTHER, .accept = A_NEVER };
FIXTURE_VARIANT_ADD(ppc32_control, mmcr1_is_ppc64s) { .what = C_MMCR1, .accept = A_NEVER };
FIXTURE_VARIANT_ADD(ppc32_control, mmcr1_high_word) { .what = C_MMCR1_HIGH, .accept = A_NEVER };
FIXTURE_VARIANT_ADD(ppc32_control, mmcra_is_ppc64s) { .what = C_MMCRA, .accept = A_NEVER };
FIXTURE_VARIANT_ADD(ppc32_control, imode_no_interrupts) { .what = C_IMODE, .accept = A_NEVER };
FIXTURE_VARIANT_ADD(ppc32_control, ireset_on_amode) { .what = C_AMODE_IRESET, .accept = A_NEVER };
FIXTURE_VARIANT_ADD(ppc32_control, timebase_only) { .what = C_TIMEBASE_ONLY, .accept = A_ALWAYS };
FIXTURE_VARIANT_ADD(ppc32_control, pmcs_without_timebase) {
	.what = C_NO_TSC, .accept = A_ALWAYS };

TEST_F(ppc32_control, accepted_or_refused_per_model)
{
	struct vperfctr_control c = self->good, back;
	struct perfctr_cpu_control *cc = &c.cpu_control;
	unsigned int i, nr = nr_pmcs(self->type), pmc = (variant->what >> 8) & 7;
	int accept, ret;

	switch (variant->accept) {
	case A_ALWAYS:
		accept = 1;
		break;
	case A_4PMCS:
		accept = nr >= 4;
		break;
	case A_6PMCS:
		accept = nr == 6;
		break;
	case A_74XX:
		accept = is_74xx(self->type);
		break;
	default:
		accept = 0;
		break;
	}
	switch (variant->what & 0xff) {
	case C_SEL_MAX:
		cc->pmc_map[0] = pmc;
		cc->evntsel[0] = sel_max[pmc];
		break;
	case C_SEL_WIDE:
		cc->pmc_map[0] = pmc;
		cc->evntsel[0] = sel_max[pmc] + 1;
		break;
	case C_ALL_PMCS:
	case C_ONE_TOO_MANY:
		cc->nractrs = variant->what == C_ALL_PMCS ? nr : nr + 1;
		for (i = 0; i < cc->nractrs; i++) {
			cc->pmc_map[i] = i;
			cc->evntsel[i] = i < 6 ? sel_max[i] : 0;
		}
		break;
	case C_DUP_MAP:
		cc->nractrs = 2;
		cc->pmc_map[1] = 0;
		break;
	case C_MMCR0_PMC1SEL:
		cc->ppc.mmcr0 = 0x00001000;
		break;
	case C_MMCR0_PMC2SEL:
		cc->ppc.mmcr0 = 0x00000001;
		break;
	case C_MMCR0_PMXE:
		cc->ppc.mmcr0 = MMCR0_PMXE;
		break;
	case C_MMCR0_REST:
		cc->ppc.mmcr0 = ~(0x00001fffU | MMCR0_PMXE);
		break;
	case C_MMCR0_QUIRK:
		cc->ppc.mmcr0 = MMCR0_FCECE | MMCR0_TRIGGER | MMCR0_PMC1CE;
		break;
	case C_MMCR2_THRESHMULT:
		cc->ppc.mmcr2 = MMCR2_THRESHMULT;
		break;
	case C_MMCR2_OTHER:
		cc->ppc.mmcr2 = 0x40000000;
		break;
	case C_MMCR1:
		cc->ppc.mmcr1 = 0x01;
		break;
	case C_MMCR1_HIGH:
		cc->ppc.mmcr1 = 1ULL << 32;
		break;
	case C_MMCRA:
		cc->ppc.mmcra = 1;
		break;
	case C_IMODE:
		cc->nractrs = 0;
		cc->nrictrs = 1;
		cc->ireset[0] = 0x7fff0000;
		c.si_signo = SIGIO;
		break;
	case C_AMODE_IRESET:
		cc->ireset[0] = 1;
		break;
	case C_TIMEBASE_ONLY:
		cc->nractrs = 0;
		cc->pmc_map[0] = 0;
		cc->evntsel[0] = 0;
		break;
	case C_NO_TSC:
		cc->tsc_on = 0;
		break;
	}
	ret = vperfctr_control(self->fd, &c);
	ASSERT_EQ(0, vperfctr_read(self->fd, NULL, &back));
	if (accept) {
		EXPECT_EQ(0, ret);
		EXPECT_EQ(0, memcmp(&back.cpu_control, cc, sizeof(*cc)));
	} else {
		EXPECT_EQ(-1, ret);
		EXPECT_EQ(EINVAL, errno);
		EXPECT_EQ(0, memcmp(&back.cpu_control, &self->good.cpu_control,
				    sizeof(back.cpu_control)));
	}
}

/* ------------------------------------------- what the driver programs */

static int open_control(const struct vperfctr_control *c)
{
	int fd = vperfctr_open(0, VPERFCTR_OPEN_CREAT);

	if (fd < 0)
		return -1;
	if (vperfctr_control(fd, c)) {
		vperfctr_unlink(fd);
		close(fd);
		return -1;
	}
	return fd;
}

static void close_control(int fd)
{
	vperfctr_unlink(fd);
	close(fd);
}

/* Control A on this model: every PMC, scrambled, THRESHMULT on 74xx. */
static void control_a(struct vperfctr_control *c, unsigned int type, unsigned int mmcr0)
{
	unsigned int map[6], sel[6], n = fit(map_a, map, sel_a, sel, nr_pmcs(type));

	amode(c, n, map, sel, mmcr0, is_74xx(type) ? MMCR2_THRESHMULT : 0);
}

static void control_b(struct vperfctr_control *c, unsigned int type, unsigned int mmcr0)
{
	unsigned int map[6], sel[6], n = fit(map_b, map, sel_b, sel, nr_pmcs(type));

	amode(c, n, map, sel, mmcr0, 0);
}

TEST(selectors_reach_mmcr0_mmcr1_mmcr2)
{
	struct vperfctr_control c;
	__u32 mmcr0, mmcr1;
	int fd;

	if (!model())
		SKIP(return, "no ppc32 PMC model on this CPU");
	if (!has_rdpmc())
		SKIP(return, "%s: no problem-state PMU registers", model_name());
	control_a(&c, info.cpu_type, MMCR0_FCS | MMCR0_THRESH(5) | MMCR0_PMCNCE);
	expected_mmcrs(&c, &mmcr0, &mmcr1);
	fd = open_control(&c);
	ASSERT_LE(0, fd);
	EXPECT_EQ(mmcr0, MFSPR(SPR_UMMCR0));
	EXPECT_EQ(mmcr1, MFSPR(SPR_UMMCR1));
	if (is_74xx(info.cpu_type))
		EXPECT_EQ(MMCR2_THRESHMULT, MFSPR(SPR_UMMCR2));
	TH_LOG("%s: MMCR0 %08x MMCR1 %08x", model_name(), MFSPR(SPR_UMMCR0),
	       MFSPR(SPR_UMMCR1));
	close_control(fd);
}

TEST(timebase_only_leaves_the_pmu_frozen)
{
	struct vperfctr_control c;
	struct perfctr_sum_ctrs s1, s2;
	int fd;

	if (!model())
		SKIP(return, "no ppc32 PMC model on this CPU");
	if (!has_rdpmc())
		SKIP(return, "%s: no problem-state PMU registers", model_name());
	ASSERT_EQ(0, pin_to_cpu0());
	control_a(&c, info.cpu_type, 0);
	fd = open_control(&c);
	ASSERT_LE(0, fd);
	/* The new control suspends the old one: FC, and nothing else loaded. */
	vperfctr_control_tsc(&c, 1);
	ASSERT_EQ(0, vperfctr_control(fd, &c));
	EXPECT_EQ(MMCR0_FC, MFSPR(SPR_UMMCR0));
	ASSERT_EQ(0, vperfctr_read(fd, &s1, NULL));
	usleep(20000);
	ASSERT_EQ(0, vperfctr_read(fd, &s2, NULL));
	EXPECT_LT(s1.tsc, s2.tsc);
	EXPECT_EQ(0, s2.pmc[0]);
	EXPECT_EQ(MMCR0_FC, MFSPR(SPR_UMMCR0));
	close_control(fd);
}

/* A thread without counters, on the same CPU, finds the PMU frozen. */
static void *read_mmcr0(void *arg)
{
	*(__u32 *)arg = MFSPR(SPR_UMMCR0);
	return NULL;
}

TEST(pmu_frozen_while_the_owner_is_switched_out)
{
	struct vperfctr_control c;
	pthread_t t;
	__u32 seen = 0;
	int fd;

	if (!model())
		SKIP(return, "no ppc32 PMC model on this CPU");
	if (!has_rdpmc())
		SKIP(return, "%s: no problem-state PMU registers", model_name());
	ASSERT_EQ(0, pin_to_cpu0());
	control_a(&c, info.cpu_type, 0);
	fd = open_control(&c);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, MFSPR(SPR_UMMCR0) & MMCR0_FC);
	ASSERT_EQ(0, pthread_create(&t, NULL, read_mmcr0, &seen));
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(MMCR0_FC, seen);
	close_control(fd);
}

/* Two threads, two controls, one CPU: each always sees its own MMCRs. */
struct switcher {
	struct vperfctr_control c;
	int rounds, bad, ready;
	__u32 mmcr0, mmcr1, seen0, seen1;
};

static int check_rounds(struct switcher *s)
{
	int i;

	for (i = 0; i < s->rounds; i++) {
		sched_yield();
		s->seen0 = MFSPR(SPR_UMMCR0);
		s->seen1 = MFSPR(SPR_UMMCR1);
		if (s->seen0 != s->mmcr0 || s->seen1 != s->mmcr1)
			s->bad++;
	}
	return s->bad;
}

static void *switcher_thread(void *arg)
{
	struct switcher *s = arg;
	int fd = open_control(&s->c);

	if (fd < 0) {
		s->bad = -1;
		return NULL;
	}
	__atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
	check_rounds(s);
	close_control(fd);
	return NULL;
}

TEST(each_thread_keeps_its_control_across_switches)
{
	struct switcher a = { .rounds = 300 }, b = { .rounds = 300 };
	unsigned int quirk = 0;
	pthread_t t;
	int fd;

	if (!model())
		SKIP(return, "no ppc32 PMC model on this CPU");
	if (!has_rdpmc())
		SKIP(return, "%s: no problem-state PMU registers", model_name());
	ASSERT_EQ(0, pin_to_cpu0());
	/* On 74xx, A's MMCR0 is read back at each suspend (FCECE, TRIGGER). */
	if (is_74xx(info.cpu_type))
		quirk = MMCR0_FCECE | MMCR0_TRIGGER | MMCR0_PMC1CE;
	control_a(&a.c, info.cpu_type, MMCR0_FCP | quirk);
	control_b(&b.c, info.cpu_type, MMCR0_FCS | MMCR0_THRESH(9));
	expected_mmcrs(&a.c, &a.mmcr0, &a.mmcr1);
	expected_mmcrs(&b.c, &b.mmcr0, &b.mmcr1);
	ASSERT_NE(a.mmcr0, b.mmcr0);
	ASSERT_NE(a.mmcr1, b.mmcr1);
	fd = open_control(&a.c);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pthread_create(&t, NULL, switcher_thread, &b));
	while (!__atomic_load_n(&b.ready, __ATOMIC_ACQUIRE) && b.bad >= 0)
		sched_yield();
	check_rounds(&a);
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(0, a.bad);
	EXPECT_EQ(0, b.bad);
	if (a.bad || b.bad)
		TH_LOG("A saw %08x/%08x (want %08x/%08x), B saw %08x/%08x (want %08x/%08x)",
		       a.seen0, a.seen1, a.mmcr0, a.mmcr1, b.seen0, b.seen1, b.mmcr0, b.mmcr1);
	close_control(fd);
}

/* ------------------------------------------------------------ counting */

/* Some work between reads: a counted loop the compiler keeps. */
static void spin_loop(unsigned long n)
{
	while (n--)
		__asm__ __volatile__("" : : : "memory");
}

TEST(fast_read_agrees_with_syscall)
{
	const struct vperfctr_state *s;
	struct perfctr_sum_ctrs sum;
	struct vperfctr_control c;
	__u64 f1[6], f2[6];
	unsigned int i, n;
	int fd;

	if (!model())
		SKIP(return, "no ppc32 PMC model on this CPU");
	if (!has_rdpmc())
		SKIP(return, "%s: no problem-state PMU registers", model_name());
	control_a(&c, info.cpu_type, 0);
	n = c.cpu_control.nractrs;
	fd = open_control(&c);
	ASSERT_LE(0, fd);
	s = vperfctr_map(fd);
	ASSERT_TRUE(s);
	for (i = 0; i < n; i++)
		EXPECT_EQ(c.cpu_control.pmc_map[i], s->cpu_state.pmc[i].map);
	spin_loop(1000000);
	for (i = 0; i < n; i++)
		f1[i] = vperfctr_read_pmc_seq(s, i);
	ASSERT_EQ(0, vperfctr_read(fd, &sum, NULL));
	for (i = 0; i < n; i++)
		f2[i] = vperfctr_read_pmc_seq(s, i);
	for (i = 0; i < n; i++) {
		EXPECT_LE(f1[i], sum.pmc[i]);
		EXPECT_LE(sum.pmc[i], f2[i]);
		TH_LOG("counter %u (PMC%u, event %u): %llu", i, c.cpu_control.pmc_map[i] + 1,
		       c.cpu_control.evntsel[i], (unsigned long long)sum.pmc[i]);
	}
	vperfctr_unmap(s);
	close_control(fd);
}

/* -------------------------------------------------- problem-state access */

static sigjmp_buf sigill_jmp;

static void on_sigill(int sig)
{
	(void)sig;
	siglongjmp(sigill_jmp, 1);
}

/* The wrapper reads PMCs itself only where it may (not on the 604). */
TEST(wrapper_falls_back_to_the_syscall_without_rdpmc)
{
	const struct vperfctr_state *s;
	struct perfctr_sum_ctrs sum;
	struct vperfctr_control c;
	unsigned int i, n;
	int fd;

	if (!model())
		SKIP(return, "no ppc32 PMC model on this CPU");
	EXPECT_EQ(has_rdpmc(), perfctr_have_rdpmc());
	control_a(&c, info.cpu_type, 0);
	n = c.cpu_control.nractrs;
	fd = open_control(&c);
	ASSERT_LE(0, fd);
	s = vperfctr_map(fd);
	ASSERT_TRUE(s);
	/* On the 604 a fast read would raise SIGILL: this must not. */
	for (i = 0; i < n; i++) {
		__u64 v = vperfctr_read_pmc(fd, s, i);

		ASSERT_EQ(0, vperfctr_read(fd, &sum, NULL));
		EXPECT_LE(v, sum.pmc[i]);
	}
	EXPECT_EQ(~0ULL, vperfctr_read_pmc(fd, s, PERFCTR_NRCTRS));
	vperfctr_unmap(s);
	close_control(fd);
}

TEST(rdpmc_feature_matches_problem_state_access)
{
	struct sigaction sa = { .sa_handler = on_sigill }, old;
	int faulted = 0;

	if (!model())
		SKIP(return, "no ppc32 PMC model on this CPU");
	ASSERT_EQ(0, sigaction(SIGILL, &sa, &old));
	if (!sigsetjmp(sigill_jmp, 1))
		(void)MFSPR(SPR_UPMC1);
	else
		faulted = 1;
	sigaction(SIGILL, &old, NULL);
	TH_LOG("%s: UPMC1 %s from problem state", model_name(),
	       faulted ? "raises SIGILL" : "is readable");
	EXPECT_EQ(!!(info.cpu_features & PERFCTR_FEATURE_RDPMC), !faulted);
	EXPECT_EQ(0, info.cpu_features & PERFCTR_FEATURE_PCINT);
}

int main(int argc, char **argv)
{
	return test_harness_run(argc, argv);
}

#else /* !ppc32 */

#include "../kselftest.h"

/* The 32-bit PowerPC models only. */
int main(void)
{
	printf("1..0 # SKIP not 32-bit PowerPC\n");
	return KSFT_SKIP;
}

#endif
