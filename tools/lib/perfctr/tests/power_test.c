// SPDX-License-Identifier: GPL-2.0
/*
 * perfctr_power_encode() and perfctr_power_check() on the host: POWER8
 * (ISA 2.07), POWER9 (3.0) and POWER10 (3.1) raw event codes, most of
 * them libpfm4's (power8_events.h, power9_events.h, power10_events.h),
 * to pmc_map, PMCxSEL and MMCR1, and the combinations the kernel's perf
 * (isa207_get_constraint()) refuses, refused with a reason.  The same
 * translation perfex and PAPI's perfctr component use.  TAP output.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <libperfctr.h>

#include "tap.h"

#define ISA207	PERFCTR_POWER_ISA207
#define ISA300	PERFCTR_POWER_ISA300
#define ISA310	PERFCTR_POWER_ISA310
#define L2L3	PERFCTR_POWER_L2L3

static struct perfctr_power_event ev[8];
static unsigned long long mmcr1;
static char why[512];

/* Encode @n codes (@pmc -1 each): 0, or -1 with errno and why[]. */
static int enc(unsigned int isa, unsigned int flags, unsigned int n, ...)
{
	va_list ap;
	unsigned int i;

	va_start(ap, n);
	memset(ev, 0, sizeof(ev));
	for (i = 0; i < n; i++) {
		ev[i].code = va_arg(ap, unsigned long long);
		ev[i].pmc = -1;
	}
	va_end(ap);
	why[0] = 0;
	mmcr1 = ~0ULL;
	errno = 0;
	return perfctr_power_encode(isa, flags, ev, n, &mmcr1, why, sizeof(why));
}

/* Refused with errno @err and @text in the reason. */
static int refused(int r, int err, const char *text)
{
	return r == -1 && errno == err && strstr(why, text);
}

#define C(x)	((unsigned long long)(x))

static void test_common(void)
{
	static const unsigned int isas[] = { ISA207, ISA300, ISA310 };
	unsigned int k, isa;
	char name[160];
	int r;

	for (k = 0; k < 3; k++) {
		isa = isas[k];
#define N(what)	(snprintf(name, sizeof(name), "ISA %u: %s", isa, what), name)
		r = enc(isa, 0, 2, C(0x500fa), C(0x600f4));
		CHECK(!r && ev[0].pmc == 4 && ev[0].evntsel == 0 && ev[1].pmc == 5 &&
		      ev[1].evntsel == 0 && mmcr1 == 0,
		      N("PM_RUN_INST_CMPL on PMC5, PM_RUN_CYC on PMC6, nothing in MMCR1"),
		      "%s", why);
		r = enc(isa, 0, 1, C(0x500f0));
		CHECK(refused(r, EINVAL,
			      "PMC5 and PMC6 count only instructions (0x500fa) and cycles"),
		      N("PMC5: its one event only"), "%s", why);
		r = enc(isa, 0, 2, C(0x600f4), C(0x600f4));
		CHECK(refused(r, EBUSY, "0x600f4: PMC6 is taken by 0x600f4"),
		      N("PMC6 twice refused"), "%s", why);
		r = enc(isa, 0, 1, C(0x700f0));
		CHECK(refused(r, EINVAL, "PMC field 7: POWER has PMC1-6"), N("PMC field 7 refused"),
		      "%s", why);
		/* PM_MRK_INST_CMPL: marked, MMCRA. */
		r = enc(isa, 0, 1, C(0x401e0));
		CHECK(refused(r, EOPNOTSUPP,
			      "0x401e0 (0x401e0): needs the marking or sampling fields (MMCRA)"),
		      N("a marked event refused (MMCRA)"), "%s", why);
		r = enc(isa, 0, 1, C(0x1e) | 1ULL << 30);
		CHECK(refused(r, EOPNOTSUPP, "which perfctr does not program"),
		      N("a threshold event refused (MMCRA)"), "%s", why);
		r = enc(isa, 0, 1, C(0x1e) | 1ULL << 63);
		CHECK(refused(r, EOPNOTSUPP, "perf's EBB, BHRB or instruction filtering bits"),
		      N("perf's EBB bit refused"), "%s", why);
		/* One event a PMC; an event's own PMC first, the others after. */
		r = enc(isa, 0, 2, C(0x1e), C(0x100f0));
		CHECK(!r && ev[0].pmc == 1 && ev[1].pmc == 0 && ev[0].evntsel == 0x1e &&
		      ev[1].evntsel == 0xf0,
		      N("0x1e (any PMC) moves to PMC2 for 0x100f0 (PMC1's)"), "%s", why);
		r = enc(isa, 0, 2, C(0x100f0), C(0x100fe));
		CHECK(refused(r, EBUSY, "0x100fe counts on PMC1 only, which 0x100f0 takes"),
		      N("two events of PMC1 refused"), "%s", why);
		r = enc(isa, 0, 5, C(0x1e), C(0x2), C(0x1e), C(0x2), C(0x1e));
		CHECK(refused(r, ENOSPC, "PMC1-4 are all taken"),
		      N("five events for PMC1-4: ENOSPC"), "%s", why);
		r = enc(isa, 0, 6, C(0x1e), C(0x2), C(0x1e), C(0x2), C(0x500fa), C(0x600f4));
		CHECK(!r, N("six events: PMC1-4 and PMC5-6"), "%s", why);
		/* A PMC asked for. */
		enc(isa, 0, 0);
		ev[0].code = 0x3e054;
		ev[0].pmc = 0;
		ev[0].name = "PM_LD_MISS_L1";
		r = perfctr_power_encode(isa, 0, ev, 1, &mmcr1, why, sizeof(why));
		CHECK(refused(r, EINVAL, "PM_LD_MISS_L1: the event counts on PMC3 only"),
		      N("an event asked for on another PMC refused, by its name"), "%s", why);
		ev[0].code = 0x2;
		ev[0].pmc = 4;
		ev[0].name = NULL;
		r = perfctr_power_encode(isa, 0, ev, 1, &mmcr1, why, sizeof(why));
		CHECK(refused(r, EINVAL, "0x2: PMC5 counts instructions only"),
		      N("PMC5 asked for 0x2 refused"), "%s", why);
		ev[0].code = 0x1e;
		ev[0].pmc = 2;
		r = perfctr_power_encode(isa, 0, ev, 1, &mmcr1, why, sizeof(why));
		CHECK(!r && ev[0].pmc == 2 && ev[0].evntsel == 0x1e, N("0x1e asked for on PMC3"),
		      "%s", why);
		/* The L2/L3 units: refused as by perfctr's kernel. */
		r = enc(isa, 0, 1, C(0x16880));
		CHECK(refused(r, EOPNOTSUPP,
			      "0x16880 (0x16880): an L2/L3 event (unit 6) counts for every thread"),
		      N("an L2/L3 unit (6) refused"), "%s", why);
		r = enc(isa, 0, 1, C(0x29080));
		CHECK(refused(r, EOPNOTSUPP, "an L2/L3 event (unit 9)"), N("unit 9 refused"),
		      "%s", why);
		r = enc(isa, 0, 1, C(0x2a080));
		CHECK(!r && mmcr1 == 0xaULL << 56, N("unit 10 (0xa) is not an L2/L3 unit"),
		      "%s", why);
		CHECK(perfctr_power_check(isa, 0, 0x2d880, "x", why, sizeof(why)) == 0 &&
		      perfctr_power_check(isa, 0, 0x401e0, "PM_MRK_INST_CMPL", why,
					  sizeof(why)) == -1 &&
		      strstr(why, "PM_MRK_INST_CMPL (0x401e0)"),
		      N("perfctr_power_check(): one code alone"), "%s", why);
#undef N
	}
	r = enc(0, 0, 1, C(0x1e));
	CHECK(refused(r, EINVAL, "ISA level 0"), "ISA level 0 refused", "%s", why);
	CHECK(enc(ISA300, 0, 0) == 0 && mmcr1 == 0, "no events: MMCR1 0", "%s", why);
}

static void test_power8(void)
{
	int r;

	/* PM_LD_MISS_L1 0x3e054 (unit 0xe, PMC3), raw 0x2d880 (combine bit 11, PMC2). */
	r = enc(ISA207, 0, 2, C(0x3e054), C(0x2d880));
	CHECK(!r && ev[0].pmc == 2 && ev[0].evntsel == 0x54 && ev[1].pmc == 1 &&
	      ev[1].evntsel == 0x80 && mmcr1 == (0xeULL << 52 | 0xdULL << 56 | 1ULL << 34),
	      "POWER8: units at 60 - 4(n - 1), combine bit 11 at 35 - (n - 1)",
	      "%s %#llx", why, mmcr1);
	/* Bit 10 is POWER9's second combine bit: not POWER8's. */
	r = enc(ISA207, 0, 1, C(0x2d480));
	CHECK(refused(r, EOPNOTSUPP, "0x2d480"), "POWER8: bit 10 refused", "%s", why);
	/*
	 * L1 events (bit 22): one qualifier (bits 20-21) for all.
	 * PM_ALL_CHIP_PUMP_CPRED 0x610050 (qualifier 2) with
	 * PM_ALL_GRP_PUMP_MPRED 0x620052 (2): MMCR1 46-47; with
	 * PM_ALL_GRP_PUMP_CPRED 0x520050 (1): refused.
	 */
	r = enc(ISA207, 0, 2, C(0x610050), C(0x620052));
	CHECK(!r && ev[0].pmc == 0 && ev[1].pmc == 1 && mmcr1 == 2ULL << 46,
	      "POWER8: L1 events of one qualifier: MMCR1's qualifier", "%s %#llx", why, mmcr1);
	r = enc(ISA207, 0, 2, C(0x610050), C(0x520050));
	CHECK(refused(r, EBUSY, "0x520050: its L1 cache qualifier (1) is not 0x610050's (2)"),
	      "POWER8: L1 events of two qualifiers refused", "%s", why);
	/* Bits 20-21 without bit 22: not an L1 event, no qualifier (the kernel's rule). */
	r = enc(ISA207, 0, 2, C(0x20001e), C(0x610050));
	CHECK(!r && mmcr1 == 2ULL << 46, "POWER8: an event without bit 22 has no L1 qualifier",
	      "%s %#llx", why, mmcr1);
	/* L2/L3 with the flag: perf's rules (no group on POWER8), the cache selector refused. */
	r = enc(ISA207, L2L3, 2, C(0x16082), C(0x26086));
	CHECK(!r && mmcr1 == (6ULL << 60 | 6ULL << 56),
	      "POWER8, L2/L3 accepted: PM_CO0_BUSY with PM_L1PF_L2MEMACC (no groups)", "%s", why);
	r = enc(ISA207, L2L3, 1, C(0x517082));
	CHECK(refused(r, EOPNOTSUPP, "L2/L3 cache selector (MMCRC, hypervisor only)"),
	      "POWER8, L2/L3 accepted: PM_CO_DISP_FAIL (cache selector 1) refused", "%s", why);
}

static void test_power9(void)
{
	int r;

	r = enc(ISA300, 0, 1, C(0x2d880));
	CHECK(!r && ev[0].pmc == 1 && mmcr1 == (0xdULL << 56 | 2ULL << 36),
	      "POWER9: raw 0x2d880: unit 0xd, combine 2 of PMC2 at 38 - 2(n - 1)", "%s", why);
	/* Every event of PMC1-4 has an L1 qualifier (bits 20-21). */
	r = enc(ISA300, 0, 2, C(0x10001e), C(0x2));
	CHECK(refused(r, EBUSY, "0x2: its L1 cache qualifier (0) is not 0x10001e's (1)"),
	      "POWER9: qualifiers 1 and 0 refused", "%s", why);
	r = enc(ISA300, 0, 3, C(0x10001e), C(0x100002), C(0x500fa));
	CHECK(!r && mmcr1 == 1ULL << 46, "POWER9: one qualifier: MMCR1 46-47; PMC5 has none",
	      "%s %#llx", why, mmcr1);
	/* The SDAR mode (50-51) is sampling's: ignored. */
	r = enc(ISA300, 0, 1, C(0x1e) | 3ULL << 50);
	CHECK(!r, "POWER9: the SDAR mode ignored", "%s", why);
	/* The L2/L3 units with the flag: one cache event group (PMCxSEL), none on PMC4. */
	r = enc(ISA300, 0, 1, C(0x26080));
	CHECK(refused(r, EOPNOTSUPP, "an L2/L3 event (unit 6)"),
	      "POWER9: PM_L2_LD_MISS (unit 6) refused", "%s", why);
	r = enc(ISA300, L2L3, 2, C(0x26080), C(0x36080));
	CHECK(!r && ev[0].pmc == 1 && ev[1].pmc == 2,
	      "POWER9, L2/L3 accepted: PM_L2_LD_MISS with PM_L2_INST (group 0x80)", "%s", why);
	r = enc(ISA300, L2L3, 2, C(0x26080), C(0x16082));
	CHECK(refused(r, EBUSY,
		      "POWER9 counts L2/L3 events (units 6-9) of one cache event group") &&
	      strstr(why, "0x26080 and 0x16082: POWER9"),
	      "POWER9, L2/L3 accepted: PM_L2_LD_MISS with PM_L2_CASTOUT_MOD (0x82) refused", "%s",
	      why);
	r = enc(ISA300, L2L3, 2, C(0x26080), C(0x46080));
	CHECK(refused(r, EBUSY, "or one is on PMC4"),
	      "POWER9, L2/L3 accepted: group 0x80 on PMC2 and PMC4 refused", "%s", why);
	r = enc(ISA300, L2L3, 2, C(0x46080), C(0x1e));
	CHECK(!r, "POWER9, L2/L3 accepted: one on PMC4 beside an event of another unit", "%s", why);
}

static void test_power10(void)
{
	int r;

	r = enc(ISA310, 0, 1, C(0x2d880));
	CHECK(!r && mmcr1 == (0xdULL << 56 | 2ULL << 36), "POWER10: unit and combine as POWER9's",
	      "%s", why);
	/* The radix scope qualifier (bit 9): one MMCR1 bit (45) for all PMCs. */
	r = enc(ISA310, 0, 2, C(0x21e), C(0x202));
	CHECK(!r && mmcr1 == 1ULL << 45, "POWER10: the radix scope qualifier in MMCR1 bit 45",
	      "%s %#llx", why, mmcr1);
	r = enc(ISA310, 0, 2, C(0x21e), C(0x2));
	CHECK(refused(r, EBUSY, "0x2: its radix scope qualifier (bit 9) is not 0x21e's"),
	      "POWER10: two radix scopes refused", "%s", why);
	r = enc(ISA310, 0, 2, C(0x10001e), C(0x2));
	CHECK(refused(r, EBUSY, "L1 cache qualifier"), "POWER10: two L1 qualifiers refused",
	      "%s", why);
	/* Bits 22-23: the SDAR mode, ignored; bit 9 is not POWER9's. */
	r = enc(ISA310, 0, 1, C(0x1e) | 3ULL << 22);
	CHECK(!r && mmcr1 == 0, "POWER10: the SDAR mode (22-23) ignored", "%s", why);
	r = enc(ISA300, 0, 1, C(0x21e));
	CHECK(refused(r, EOPNOTSUPP, "0x21e"), "POWER9: bit 9 refused", "%s", why);
	/* PM_DATA_FROM_L3MISS: an MMCR3 event. */
	r = enc(ISA310, 0, 1, C(0x7c0000001c040));
	CHECK(refused(r, EOPNOTSUPP, "needs MMCR3"), "POWER10: PM_DATA_FROM_L3MISS (MMCR3) refused",
	      "%s", why);
	/* Unit 6's L2/L3 group (bits 40-44) is MMCR2's: refused alone. */
	r = enc(ISA310, 0, 1, C(0x010000016080));
	CHECK(refused(r, EOPNOTSUPP, "an L2/L3 event (unit 6)"),
	      "POWER10: PM_L2_CASTOUT_MOD (unit 6) refused", "%s", why);
	r = enc(ISA310, L2L3, 1, C(0x010000016080));
	CHECK(refused(r, EOPNOTSUPP, "needs POWER10's L2/L3 event group (MMCR2)"),
	      "POWER10, L2/L3 accepted: PM_L2_CASTOUT_MOD's group (bits 40-44) refused", "%s", why);
	r = enc(ISA310, L2L3, 2, C(0x16880), C(0x26880));
	CHECK(!r && mmcr1 == (6ULL << 60 | 6ULL << 56 | 2ULL << 38 | 2ULL << 36),
	      "POWER10, L2/L3 accepted: unit 6 events of group 0 together", "%s %#llx", why, mmcr1);
}

/* The ISA level of perfctr_info's cpu_type: ppc64's numbers only. */
static void test_isa(void)
{
#ifdef PERFCTR_PPC64_POWER8
	CHECK(perfctr_power_isa(PERFCTR_PPC64_POWER8) == ISA207 &&
	      perfctr_power_isa(PERFCTR_PPC64_POWER9) == ISA300 &&
	      perfctr_power_isa(PERFCTR_PPC64_POWER10) == ISA310 && perfctr_power_isa(0) == 0,
	      "perfctr_power_isa(): POWER8 2.07, POWER9 3.0, POWER10 3.1, others 0", " ");
	(void)skip;
#else
	CHECK(perfctr_power_isa(6) == 0 && perfctr_power_isa(8) == 0,
	      "perfctr_power_isa(): 0 where cpu_type's numbers are not ppc64's", " ");
	skip("perfctr_power_isa() of POWER8-10's cpu_type", "not a ppc64 build");
#endif
}

int main(void)
{
	test_isa();
	test_common();
	test_power8();
	test_power9();
	test_power10();
	printf("1..%d\n", nr_test);
	return nr_fail != 0;
}
