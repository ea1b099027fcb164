// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * POWER8-10 (ppc64): perf's and libpfm4's raw event codes to what a
 * perfctr control programs, for perfex and PAPI's perfctr component
 * alike.  Architecture-independent: host tools and tests call it too.
 *
 * The raw code's layout (ISA 2.07, POWER8; 3.0, POWER9; 3.1, POWER10),
 * bit 0 the least significant:
 *
 *   0-7    PMCxSEL: the event selector of PMC1-4
 *   8      marked: a sampled instruction (MMCRA)
 *   9      POWER10: radix scope qualifier (one MMCR1 bit for all PMCs)
 *   10-11  combine (MMCR1, per PMC; POWER8 has bit 11 only)
 *   12-15  unit (MMCR1, per PMC); 6-9 are the L2/L3 units
 *   16-19  the PMC, 1-6; 0: any of PMC1-4
 *   20-23  cache selector: the L1 I/D qualifier in bits 20-21 (MMCR1,
 *          one for all PMCs; POWER8 only with bit 22 set), or POWER8's
 *          L2/L3 selector (MMCRC, hypervisor only); POWER10: bits 20-21,
 *          22-23 are the SDAR mode
 *   24-28  sampling mode and eligibility (MMCRA)
 *   29-49  threshold (MMCRA); POWER10: 29-39, then 40-44 the L2/L3
 *          event group of unit 6 (MMCR2) and 45-59 MMCR3
 *   50-51  POWER9: the SDAR mode (sampling only: ignored)
 *   60-63  perf's own: instruction filtering, BHRB, EBB
 *
 * The rules are those of the kernel's perf (isa207_get_constraint() in
 * arch/powerpc/perf/isa207-common.c): PMC5 and PMC6 count only 0x500fa
 * and 0x600f4; PMC1-4 one event each; every event with an L1 qualifier
 * shares one (POWER8: the events with bit 22; POWER9 and POWER10: every
 * event of PMC1-4 outside the L2/L3 units); POWER10's events share the
 * radix scope; the L2/L3 units' events share POWER9's cache event group
 * (their PMCxSEL, none on PMC4 beside another) and POWER10's unit-6 group.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "libperfctr.h"

#define PMC5_INST	0x500faULL	/* the one event of PMC5 */
#define PMC6_CYC	0x600f4ULL	/* the one event of PMC6 */

static int refuse(int err, char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (why && whylen) {
		va_start(ap, fmt);
		vsnprintf(why, whylen, fmt, ap);
		va_end(ap);
	}
	errno = err;
	return -1;
}

unsigned int perfctr_power_isa(unsigned int cpu_type)
{
#ifdef PERFCTR_PPC64_POWER8
	switch (cpu_type) {
	case PERFCTR_PPC64_POWER8:
		return PERFCTR_POWER_ISA207;
	case PERFCTR_PPC64_POWER9:
		return PERFCTR_POWER_ISA300;
	case PERFCTR_PPC64_POWER10:
		return PERFCTR_POWER_ISA310;
	}
#endif
	(void)cpu_type;
	return 0;
}

/* The bits perfctr can program (or may ignore) on @isa. */
static unsigned long long countable_bits(unsigned int isa)
{
	unsigned long long m = 0xffULL | 0xfULL << 12 | 0xfULL << 16;

	if (isa == PERFCTR_POWER_ISA207)
		return m | 1ULL << 11 | 0xfULL << 20;
	m |= 3ULL << 10;
	if (isa == PERFCTR_POWER_ISA310)
		return m | 1ULL << 9 | 3ULL << 20 | 3ULL << 22;
	return m | 0xfULL << 20 | 3ULL << 50;
}

static int is_l2l3(unsigned long long code)
{
	unsigned int unit = (code >> 12) & 0xf;

	return unit >= 6 && unit <= 9;
}

/* The name of an event in a reason: its own, else its code. */
static const char *ev_name(const struct perfctr_power_event *e, char *buf, size_t len)
{
	if (e->name)
		return e->name;
	snprintf(buf, len, "0x%llx", e->code);
	return buf;
}

int perfctr_power_check(unsigned int isa, unsigned int flags, unsigned long long code,
			const char *name, char *why, size_t whylen)
{
	unsigned int pmc = (code >> 16) & 0xf, unit = (code >> 12) & 0xf;
	char buf[24];

	if (!name) {
		snprintf(buf, sizeof(buf), "0x%llx", code);
		name = buf;
	}
	if (isa != PERFCTR_POWER_ISA207 && isa != PERFCTR_POWER_ISA300 &&
	    isa != PERFCTR_POWER_ISA310)
		return refuse(EINVAL, why, whylen,
			      "%s: ISA level %u is not POWER8's, POWER9's or POWER10's", name, isa);
	if (code >> 60)
		return refuse(EOPNOTSUPP, why, whylen,
			      "%s (0x%llx): needs perf's EBB, BHRB or instruction filtering bits, which perfctr does not program",
			      name, code);
	if (code & (1ULL << 8 | 0x1fULL << 24))
		return refuse(EOPNOTSUPP, why, whylen,
			      "%s (0x%llx): needs the marking or sampling fields (MMCRA), which perfctr does not program",
			      name, code);
	if (pmc > 6)
		return refuse(EINVAL, why, whylen, "%s (0x%llx): PMC field %u: POWER has PMC1-6",
			      name, code, pmc);
	if (unit >= 6 && unit <= 9 && !(flags & PERFCTR_POWER_L2L3))
		return refuse(EOPNOTSUPP, why, whylen,
			      "%s (0x%llx): an L2/L3 event (unit %u) counts for every thread of the core, not the thread's own: perfctr refuses it (perf stat -a counts it system-wide)",
			      name, code, unit);
	if (code & ~countable_bits(isa)) {
		if (isa == PERFCTR_POWER_ISA310 && (code >> 45))
			return refuse(EOPNOTSUPP, why, whylen,
				      "%s (0x%llx): needs MMCR3 or the threshold fields (MMCRA), which perfctr does not program",
				      name, code);
		if (isa == PERFCTR_POWER_ISA310 && unit == 6 && (code >> 40 & 0x1f))
			return refuse(EOPNOTSUPP, why, whylen,
				      "%s (0x%llx): needs POWER10's L2/L3 event group (MMCR2), which perfctr does not program",
				      name, code);
		return refuse(EOPNOTSUPP, why, whylen,
			      "%s (0x%llx): needs the threshold fields (MMCRA), which perfctr does not program",
			      name, code);
	}
	if ((pmc == 5 && (code & 0xffffffffULL) != PMC5_INST) ||
	    (pmc == 6 && (code & 0xffffffffULL) != PMC6_CYC))
		return refuse(EINVAL, why, whylen,
			      "%s (0x%llx): PMC5 and PMC6 count only instructions (0x500fa) and cycles (0x600f4)",
			      name, code);
	if (isa == PERFCTR_POWER_ISA207 && unit >= 6 && unit <= 9 && (code >> 20 & 7))
		return refuse(EOPNOTSUPP, why, whylen,
			      "%s (0x%llx): needs POWER8's L2/L3 cache selector (MMCRC, hypervisor only), which perfctr does not program",
			      name, code);
	return 0;
}

/* The L1 qualifier @code carries (bits 20-21), or -1 for none. */
static int l1_qualifier(unsigned int isa, unsigned long long code)
{
	if (isa == PERFCTR_POWER_ISA207)
		return code >> 22 & 1 ? (int)(code >> 20 & 3) : -1;
	return is_l2l3(code) ? -1 : (int)(code >> 20 & 3);
}

/*
 * Why two L2/L3 events (units 6-9) of PMC1-4 cannot count together:
 * POWER9's cache event group (their PMCxSEL, none on PMC4 beside
 * another), POWER10's unit-6 group (bits 40-44); 0, they can.
 */
static const char *const l2l3_rules[] = {
	NULL,
	"POWER9 counts L2/L3 events (units 6-9) of one cache event group at a time (their PMCxSEL differ, or one is on PMC4)",
	"POWER10 counts unit 6's L2/L3 events of one group (bits 40-44) at a time",
};

static int l2l3_conflict(unsigned int isa, const struct perfctr_power_event *a,
			 const struct perfctr_power_event *b)
{
	if (a->pmc >= 4 || b->pmc >= 4 || !is_l2l3(a->code) || !is_l2l3(b->code))
		return 0;
	if (isa == PERFCTR_POWER_ISA300 &&
	    ((a->code & 0xff) != (b->code & 0xff) || a->pmc == 3 || b->pmc == 3))
		return 1;
	if (isa == PERFCTR_POWER_ISA310 && ((a->code >> 12) & 0xf) == 6 &&
	    ((b->code >> 12) & 0xf) == 6 && ((a->code ^ b->code) >> 40 & 0x1f))
		return 2;
	return 0;
}

int perfctr_power_encode(unsigned int isa, unsigned int flags, struct perfctr_power_event *ev,
			 unsigned int n, unsigned long long *mmcr1, char *why, size_t whylen)
{
	const struct perfctr_power_event *owner[6] = { NULL };
	char b1[24], b2[24];
	unsigned long long m = 0, code;
	unsigned int i, j, pmc, unit, comb;
	int want, q, qual = -1, qual_ev = -1, radix_ev = -1, pass;

	for (i = 0; i < n; i++)
		if (perfctr_power_check(isa, flags, ev[i].code, ev[i].name, why, whylen))
			return -1;
	if (n > 6)
		return refuse(ENOSPC, why, whylen, "%u events: POWER has 6 PMCs", n);
	/* Events with a PMC of their own first, then the others on PMC1-4. */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < n; i++) {
			code = ev[i].code;
			pmc = (code >> 16) & 0xf;
			want = ev[i].pmc;
			if (want > 5)
				return refuse(EINVAL, why, whylen, "%s: PMC%d: POWER has PMC1-6",
					      ev_name(&ev[i], b1, sizeof(b1)), want + 1);
			if (pass == 0 && !pmc && want < 0)
				continue;
			if (pass == 1 && (pmc || want >= 0))
				continue;
			if (pmc && want >= 0 && want != (int)pmc - 1)
				return refuse(EINVAL, why, whylen,
					      "%s: the event counts on PMC%u only",
					      ev_name(&ev[i], b1, sizeof(b1)), pmc);
			if (!pmc && want >= 4 && (code & 0xffff))
				return refuse(EINVAL, why, whylen, "%s: PMC%d counts %s only",
					      ev_name(&ev[i], b1, sizeof(b1)), want + 1,
					      want == 4 ? "instructions" : "cycles");
			if (pmc)
				want = (int)pmc - 1;
			if (want < 0) {
				for (want = 0; want < 4 && owner[want]; want++)
					;
				if (want == 4)
					return refuse(ENOSPC, why, whylen,
						      "%s: PMC1-4 are all taken",
						      ev_name(&ev[i], b1, sizeof(b1)));
			}
			if (owner[want]) {
				if (want < 4)
					return refuse(EBUSY, why, whylen,
						      "%s counts on PMC%d only, which %s takes",
						      ev_name(&ev[i], b1, sizeof(b1)), want + 1,
						      ev_name(owner[want], b2, sizeof(b2)));
				return refuse(EBUSY, why, whylen, "%s: PMC%d is taken by %s",
					      ev_name(&ev[i], b1, sizeof(b1)), want + 1,
					      ev_name(owner[want], b2, sizeof(b2)));
			}
			owner[want] = &ev[i];
			ev[i].pmc = want;
		}
	}
	/* What the events of PMC1-4 share, and their MMCR1 fields. */
	for (i = 0; i < n; i++) {
		code = ev[i].code;
		if (ev[i].pmc >= 4) {
			ev[i].evntsel = 0;	/* PMC5: instructions, PMC6: cycles */
			continue;
		}
		pmc = (unsigned int)ev[i].pmc;
		ev[i].evntsel = code & 0xff;
		unit = (code >> 12) & 0xf;
		m |= (unsigned long long)unit << (60 - 4 * pmc);
		if (isa == PERFCTR_POWER_ISA207) {
			comb = (code >> 11) & 1;
			m |= (unsigned long long)comb << (35 - pmc);
		} else {
			comb = (code >> 10) & 3;
			m |= (unsigned long long)comb << (38 - 2 * pmc);
		}
		q = l1_qualifier(isa, code);
		if (q >= 0 && qual_ev >= 0 && q != qual)
			return refuse(EBUSY, why, whylen,
				      "%s: its L1 cache qualifier (%d) is not %s's (%d): MMCR1 has one for all PMCs",
				      ev_name(&ev[i], b1, sizeof(b1)), q,
				      ev_name(&ev[qual_ev], b2, sizeof(b2)), qual);
		if (q >= 0) {
			qual = q;
			qual_ev = (int)i;
		}
		if (isa == PERFCTR_POWER_ISA310) {
			if (radix_ev >= 0 && ((code ^ ev[radix_ev].code) >> 9 & 1))
				return refuse(EBUSY, why, whylen,
					      "%s: its radix scope qualifier (bit 9) is not %s's: MMCR1 has one for all PMCs",
					      ev_name(&ev[i], b1, sizeof(b1)),
					      ev_name(&ev[radix_ev], b2, sizeof(b2)));
			radix_ev = (int)i;
			m |= (code >> 9 & 1) << 45;
		}
		if (!is_l2l3(code))
			continue;
		for (j = 0; j < i; j++)
			if (l2l3_conflict(isa, &ev[j], &ev[i]))
				return refuse(EBUSY, why, whylen, "%s and %s: %s",
					      ev_name(&ev[j], b2, sizeof(b2)),
					      ev_name(&ev[i], b1, sizeof(b1)),
					      l2l3_rules[l2l3_conflict(isa, &ev[j], &ev[i])]);
	}
	if (qual > 0)
		m |= (unsigned long long)qual << 46;
	if (mmcr1)
		*mmcr1 = m;
	return 0;
}
