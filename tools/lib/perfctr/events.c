// SPDX-License-Identifier: GPL-2.0
/*
 * perfex: event specifiers to a perfctr control.
 *
 * An event is a name libpfm4 knows (when built with it) or a raw
 * encoding in perfctr 2.7 perfex's syntax, evntsel[/escr][@pmc] on x86
 * and code[@pmc] on powerpc.  Counters go to the first free hardware
 * counter unless @pmc names one; the kernel refuses (EINVAL) what the
 * model cannot count.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LIBPFM
#include <perfmon/pfmlib.h>
#endif

#include "events.h"

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int parse_num(const char **p, unsigned long long *v)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return -1;
	errno = 0;
	*v = strtoull(*p, &end, 0);
	if (errno)
		return -1;
	*p = end;
	return 0;
}

/* The lowest counter below @nr that no earlier counter of @cc uses. */
static int free_pmc(const struct perfctr_cpu_control *cc, unsigned int nr, unsigned int first)
{
	unsigned int pmc, i;

	for (pmc = first; pmc < nr; pmc++) {
		for (i = 0; i < cc->nractrs; i++)
			if (cc->pmc_map[i] == pmc)
				break;
		if (i == cc->nractrs)
			return pmc;
	}
	return -1;
}

#ifndef _ARCH_PPC	/* x86 */
#define X86_INT		0x00100000U	/* evntsel bit 20: interrupt on overflow */

const char *perfex_event_syntax(void)
{
	return "evntsel[/escr][@pmc]: numbers, decimal or 0x-hex; evntsel's bits 32-63 go\n"
	       "to evntsel_high (AMD).  pmc is the RDPMC index (fixed counters 0x40000000+N).";
}

static int encode(const struct perfctr_info *info, struct perfctr_cpu_control *cc,
		  unsigned int i, unsigned long long code, unsigned long long escr,
		  long pmc, int from_pfm, char *err, size_t errlen)
{
	unsigned int nr = perfctr_info_nrctrs(info);

	if (from_pfm) {
		/* Counting only: no overflow interrupt for a-mode counters. */
		code &= ~(unsigned long long)X86_INT;
	}
	if (pmc < 0) {
		pmc = free_pmc(cc, nr, 0);
		if (pmc < 0)
			return fail(err, errlen, "no free counter: the CPU has %u", nr);
	}
	cc->evntsel[i] = (__u32)code;
	cc->evntsel_high[i] = (__u32)(code >> 32);
	cc->p4.escr[i] = (__u32)escr;
	cc->pmc_map[i] = pmc;
	return 0;
}
#else
/*
 * powerpc.  ppc64 (POWER8-10): code is the ISA 2.07/3.0 raw event code
 * that perf and libpfm4 use: PMCxSEL in bits 0-7, unit 12-15, combine
 * bit 11 (POWER8) or bits 10-11 (POWER9+), PMC (1-based, 0 = any of
 * PMC1-4) in 16-19; the unit and combine fields go to MMCR1's upper
 * word.  PMC5 and PMC6 count instructions and cycles, evntsel 0.
 * ppc32: code is the counter's PMCnSEL.
 */
const char *perfex_event_syntax(void)
{
	return "code[@pmc]: ppc64: the ISA 2.07/3.0 raw event code (as perf's rNNNN), its\n"
	       "PMC field choosing the counter; ppc32: the PMCnSEL value.  pmc is 0 for PMC1.";
}

static int is_ppc64(const struct perfctr_info *info)
{
	return info->cpu_type >= PERFCTR_PPC64_POWER8;
}

static int encode(const struct perfctr_info *info, struct perfctr_cpu_control *cc,
		  unsigned int i, unsigned long long code, unsigned long long escr,
		  long pmc, int from_pfm, char *err, size_t errlen)
{
	unsigned int nr = perfctr_info_nrctrs(info);

	(void)from_pfm;
	if (escr)
		return fail(err, errlen, "/escr is for the Pentium 4 only");
	if (is_ppc64(info)) {
		unsigned int field = (code >> 16) & 0xf, psel = code & 0xff;
		unsigned int unit = (code >> 12) & 0xf, comb;
		int shift;

		if (field > 6)
			return fail(err, errlen, "PMC field %u: POWER has PMC1-6", field);
		if (field && pmc >= 0 && pmc != (long)field - 1)
			return fail(err, errlen, "the event counts on PMC%u only", field);
		if (pmc < 0)
			pmc = field ? (long)field - 1 : free_pmc(cc, 4, 0);
		if (pmc < 0)
			return fail(err, errlen, "PMC1-4 are all taken");
		if (free_pmc(cc, pmc + 1, pmc) != pmc)
			return fail(err, errlen, "PMC%ld is taken", pmc + 1);
		if (pmc >= 4) {
			/* PMC5: instructions, PMC6: cycles; nothing to select. */
			cc->evntsel[i] = 0;
		} else {
			cc->evntsel[i] = psel;
			cc->ppc.mmcr1 |= (__u64)unit << (60 - 4 * pmc);
			if (info->cpu_type == PERFCTR_PPC64_POWER8) {
				comb = (code >> 11) & 1;
				shift = 35 - pmc;
			} else {
				comb = (code >> 10) & 3;
				shift = 38 - 2 * pmc;
			}
			cc->ppc.mmcr1 |= (__u64)comb << shift;
		}
	} else {
		if (pmc < 0)
			pmc = free_pmc(cc, nr, 0);
		if (pmc < 0)
			return fail(err, errlen, "no free counter: the CPU has %u", nr);
		cc->evntsel[i] = (__u32)code;
	}
	cc->pmc_map[i] = pmc;
	return 0;
}
#endif

#ifdef HAVE_LIBPFM
static int pfm_ready(char *err, size_t errlen)
{
	static int ret = -2;

	if (ret == -2)
		ret = pfm_initialize();
	if (ret != PFM_SUCCESS)
		return fail(err, errlen, "libpfm4: %s", pfm_strerror(ret));
	return 0;
}

static int pfm_encode(const char *name, unsigned long long *code, char **fstr,
		      char *err, size_t errlen)
{
	pfm_pmu_encode_arg_t arg;
	uint64_t *codes = NULL;
	int ret;

	if (pfm_ready(err, errlen))
		return -1;
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.codes = NULL;
	arg.fstr = fstr;
	/* User mode only unless the name says otherwise (":k"). */
	ret = pfm_get_os_event_encoding(name, PFM_PLM3, PFM_OS_NONE, &arg);
	if ((ret == PFM_ERR_NOTFOUND || ret == PFM_ERR_ATTR) && strchr(name, '.')) {
		/* perf's and Intel's EVENT.UMASK is libpfm4's EVENT:UMASK. */
		char *alt = strdup(name), *dot;

		if (!alt)
			return fail(err, errlen, "out of memory");
		while ((dot = strchr(alt, '.')))
			*dot = ':';
		memset(&arg, 0, sizeof(arg));
		arg.size = sizeof(arg);
		arg.fstr = fstr;
		ret = pfm_get_os_event_encoding(alt, PFM_PLM3, PFM_OS_NONE, &arg);
		free(alt);
	}
	if (ret != PFM_SUCCESS)
		return fail(err, errlen, "%s: %s", name, pfm_strerror(ret));
	codes = arg.codes;
	if (arg.count < 1) {
		free(codes);
		return fail(err, errlen, "%s: libpfm4 gave no encoding", name);
	}
	if (arg.count > 1) {
		/* Extra registers (offcore response, PEBS...): not in perfctr. */
		free(codes);
		return fail(err, errlen, "%s needs %d registers; perfctr programs one per counter",
			    name, arg.count);
	}
	*code = codes[0];
	free(codes);
	/* Only a core PMU's encodings are event selects (not perf's generic events). */
	{
		pfm_event_info_t einfo = { .size = sizeof(einfo) };
		pfm_pmu_info_t pinfo = { .size = sizeof(pinfo) };

		if (pfm_get_event_info(arg.idx, PFM_OS_NONE, &einfo) != PFM_SUCCESS ||
		    pfm_get_pmu_info(einfo.pmu, &pinfo) != PFM_SUCCESS ||
		    pinfo.type != PFM_PMU_TYPE_CORE) {
			free(*fstr);
			*fstr = NULL;
			return fail(err, errlen, "%s: not an event of the CPU's core PMU (%s)",
				    name, pinfo.name ? pinfo.name : "unknown PMU");
		}
	}
	return 0;
}

void perfex_list_events(FILE *out, const struct perfctr_info *info)
{
	pfm_pmu_info_t pinfo;
	pfm_event_info_t einfo;
	char err[128];
	int pmu, idx;

	fprintf(out, "CPU: %s (cpu_type %u), %u counters\n", perfctr_info_cpu_name(info),
		info->cpu_type, perfctr_info_nrctrs(info));
	if (pfm_ready(err, sizeof(err))) {
		fprintf(out, "%s\n", err);
		return;
	}
	for (pmu = PFM_PMU_NONE; pmu < PFM_PMU_MAX; pmu++) {
		memset(&pinfo, 0, sizeof(pinfo));
		pinfo.size = sizeof(pinfo);
		if (pfm_get_pmu_info(pmu, &pinfo) != PFM_SUCCESS || !pinfo.is_present ||
		    pinfo.type != PFM_PMU_TYPE_CORE)
			continue;
		fprintf(out, "PMU %s (%s): %d events\n", pinfo.name, pinfo.desc, pinfo.nevents);
		for (idx = pinfo.first_event; idx != -1; idx = pfm_get_event_next(idx)) {
			memset(&einfo, 0, sizeof(einfo));
			einfo.size = sizeof(einfo);
			if (pfm_get_event_info(idx, PFM_OS_NONE, &einfo) != PFM_SUCCESS)
				continue;
			fprintf(out, "  %s::%s\t0x%llx\t%s\n", pinfo.name, einfo.name,
				(unsigned long long)einfo.code, einfo.desc ? einfo.desc : "");
		}
	}
}
#else
static int pfm_encode(const char *name, unsigned long long *code, char **fstr,
		      char *err, size_t errlen)
{
	(void)code;
	(void)fstr;
	return fail(err, errlen, "%s: event names need libpfm4 (perfex was built with LIBPFM=0); "
		    "give a raw encoding", name);
}

void perfex_list_events(FILE *out, const struct perfctr_info *info)
{
	fprintf(out, "CPU: %s (cpu_type %u), %u counters\n", perfctr_info_cpu_name(info),
		info->cpu_type, perfctr_info_nrctrs(info));
	fprintf(out, "perfex was built without libpfm4: raw events only,\n%s\n",
		perfex_event_syntax());
}
#endif

int perfex_add_event(const struct perfctr_info *info, struct perfctr_cpu_control *cc,
		     struct perfex_events *ev, const char *spec, char *err, size_t errlen)
{
	unsigned long long code = 0, escr = 0, v;
	unsigned int i = cc->nractrs;
	const char *p = spec, *at;
	char *name = NULL, *fstr = NULL;
	long pmc = -1;
	int from_pfm = 0;

	if (!perfctr_info_nrctrs(info))
		return fail(err, errlen,
			    "%s: the CPU model (%s) has no programmable counters: perfex counts the TSC only",
			    spec, perfctr_info_cpu_name(info));
	if (i >= PERFCTR_NRCTRS || i >= perfctr_info_nrctrs(info))
		return fail(err, errlen, "%s: too many events: the CPU (%s) has %u counters",
			    spec, perfctr_info_cpu_name(info), perfctr_info_nrctrs(info));
	/* A trailing @pmc applies to names and raw codes alike. */
	at = strrchr(spec, '@');
	if (at) {
		p = at + 1;
		if (parse_num(&p, &v) || *p || v > 0x7fffffff)
			return fail(err, errlen, "%s: bad counter after '@'", spec);
		pmc = v;
	}
	name = at ? strndup(spec, at - spec) : strdup(spec);
	if (!name)
		return fail(err, errlen, "out of memory");
	p = name;
	if (isdigit((unsigned char)*p)) {
		if (parse_num(&p, &code))
			goto bad;
		if (*p == '/') {
			p++;
			if (parse_num(&p, &escr))
				goto bad;
		}
		if (*p)
			goto bad;
	} else {
		if (pfm_encode(name, &code, &fstr, err, errlen))
			goto out;
		from_pfm = 1;
	}
	if (encode(info, cc, i, code, escr, pmc, from_pfm, err, errlen))
		goto out;
	cc->nractrs = i + 1;
	ev->name[i] = fstr ? fstr : name;
	if (fstr)
		free(name);
	ev->code[i] = code;
	ev->n = i + 1;
	return 0;
bad:
	fail(err, errlen, "%s: invalid event specifier; raw syntax %s", spec,
	     perfex_event_syntax());
out:
	free(fstr);
	free(name);
	return -1;
}
