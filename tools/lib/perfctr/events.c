// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
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
#include <sys/stat.h>

#ifdef HAVE_LIBPFM
#include <perfmon/pfmlib.h>
#endif

#include "compiler.h"
#include "events.h"

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * A number at *@p: @hex, an event code, hexadecimal with or without 0x
 * (perfctr 2.7 perfex's); else decimal or 0x-hex, and a leading zero
 * before a digit refused (-2): never octal.
 */
static int parse_num_base(const char **p, unsigned long long *v, int hex)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return -1;
	if (!hex && (*p)[0] == '0' && isdigit((unsigned char)(*p)[1]))
		return -2;
	errno = 0;
	*v = strtoull(*p, &end, hex ? 16 : 0);
	if (errno)
		return -1;
	*p = end;
	return 0;
}

static int parse_num(const char **p, unsigned long long *v)
{
	return parse_num_base(p, v, 0);
}

static int parse_hex(const char **p, unsigned long long *v)
{
	return parse_num_base(p, v, 1);
}

/* The bad counter after '@' of @spec, with the reason for @r (parse_num()). */
static int bad_pmc(const char *spec, int r, char *err, size_t errlen)
{
	if (r == -2)
		return fail(err, errlen,
			    "%s: a counter with a leading zero: perfex reads decimal or 0x-hex, never octal",
			    spec);
	return fail(err, errlen, "%s: bad counter after '@'", spec);
}

/* The lowest counter from @first below @nr that no earlier counter of @cc uses. */
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

/* The earlier counter of @cc on hardware counter @pmc, or -1. */
static int pmc_user(const struct perfctr_cpu_control *cc, unsigned int pmc)
{
	unsigned int i;

	for (i = 0; i < cc->nractrs; i++)
		if (cc->pmc_map[i] == pmc)
			return i;
	return -1;
}

/* An event's failure for want of a general counter: perfex_add_events() counts them. */
#define NO_GENERAL	-2

/* The kind of event a specifier names, for encode(): raw, libpfm4's, or perf's generic. */
#define KIND_RAW	0
#define KIND_PFM	1
#define KIND_GENERIC	2
#define KIND_PERF	3	/* perf's rNNNN or pmu/event=...,umask=.../ */

/* perf's generic hardware events (perf list: "Hardware event"). */
enum {
	G_CYCLES, G_INSTRUCTIONS, G_BRANCHES, G_BRANCH_MISSES, G_CACHE_REFERENCES,
	G_CACHE_MISSES, G_REF_CYCLES, G_NR
};

static const struct {
	const char *name, *alias;
} generic_names[G_NR] = {
	[G_CYCLES] = { "cycles", "cpu-cycles" },
	[G_INSTRUCTIONS] = { "instructions", NULL },
	[G_BRANCHES] = { "branches", "branch-instructions" },
	[G_BRANCH_MISSES] = { "branch-misses", NULL },
	[G_CACHE_REFERENCES] = { "cache-references", NULL },
	[G_CACHE_MISSES] = { "cache-misses", NULL },
	[G_REF_CYCLES] = { "ref-cycles", NULL },
};

static int generic_index(const char *name)
{
	int g;

	for (g = 0; g < G_NR; g++)
		if (!strcmp(name, generic_names[g].name) ||
		    (generic_names[g].alias && !strcmp(name, generic_names[g].alias)))
			return g;
	return -1;
}

/* The kernel's (perf's) PMU devices. */
#define PMU_DEVICES	"/sys/bus/event_source/devices/"

/*
 * The running kernel's encoding of generic event @g, as perf reads it:
 * the file cpu/events/NAME (perf's name: cpu-cycles, branch-instructions,
 * ...) under PERFEX_SYSFS_ROOT (default "") + PMU_DEVICES, or on a hybrid
 * CPU cpu_core's and cpu_atom's when both say the same.  Its terms,
 * "event=0x3c,umask=0x01", become the raw config (x86: event bits 0-7
 * and 8-11 at 32-35, umask 8-15, edge 18, inv 23, cmask 24-31; powerpc:
 * the event code).  0 and *@config, or -1: no such file, or a term or
 * value perfex does not know (the caller's table then serves).
 */
static int sysfs_read_event(const char *dev, const char *name, unsigned long long *config)
{
	char path[4096], buf[256], *p, *end;
	const char *root = getenv("PERFEX_SYSFS_ROOT");
	unsigned long long v, c = 0;
	size_t len, n;
	FILE *f;

	snprintf(path, sizeof(path), "%s" PMU_DEVICES "%s/events/%s", root ? root : "", dev, name);
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	if (!buf[0])
		return -1;
	for (p = buf; *p; p = *end ? end + 1 : end) {
		len = strcspn(p, "=,");
		if (p[len] != '=')
			return -1;
		errno = 0;
		v = strtoull(p + len + 1, &end, 0);
		if (errno || end == p + len + 1 || (*end && *end != ','))
			return -1;
#ifndef _ARCH_PPC
		if (len == 5 && !strncmp(p, "event", 5) && v <= 0xfff)
			c |= (v & 0xff) | (v >> 8) << 32;
		else if (len == 5 && !strncmp(p, "umask", 5) && v <= 0xff)
			c |= v << 8;
		else if (len == 4 && !strncmp(p, "edge", 4) && v <= 1)
			c |= v << 18;
		else if (len == 3 && !strncmp(p, "inv", 3) && v <= 1)
			c |= v << 23;
		else if (len == 5 && !strncmp(p, "cmask", 5) && v <= 0xff)
			c |= v << 24;
#else
		if (len == 5 && !strncmp(p, "event", 5))
			c = v;
#endif
		else
			return -1;
	}
	*config = c;
	return 0;
}

static int sysfs_generic(int g, unsigned long long *config)
{
	const char *name = generic_names[g].alias ? generic_names[g].alias : generic_names[g].name;
	unsigned long long core, atom;

	if (!sysfs_read_event("cpu", name, config))
		return 0;
	if (sysfs_read_event("cpu_core", name, &core) ||
	    sysfs_read_event("cpu_atom", name, &atom) || core != atom)
		return -1;
	*config = core;
	return 0;
}

/*
 * A generic event on a model: the event select of a general counter (0:
 * none), the fixed counter that counts it (-1: none), and on Intel the
 * architectural event (CPUID 0xA EBX) the general counter needs (-1:
 * none).
 */
struct generic_event {
	unsigned long long code;
	int fixed;
	int arch;
};

static const char *const fixed_names_x86[] = {
	"instructions", "cycles", "ref-cycles", "topdown-slots"
};

static const char *const fixed_names_power[] = { "instructions", "cycles" };

/* The event fixed counter @n of @pmu counts. */
static const char *fixed_name(const struct perfex_pmu *pmu, unsigned int n)
{
	if (pmu->model >= PERFEX_MODEL_POWER8)
		return n < ARRAY_SIZE(fixed_names_power) ? fixed_names_power[n] : "?";
	return n < ARRAY_SIZE(fixed_names_x86) ? fixed_names_x86[n] : "model-specific";
}

void perfex_pmu_describe(const struct perfex_pmu *pmu, char *buf, size_t len)
{
	unsigned int n, nfixed = __builtin_popcount(pmu->fixed);
	size_t used;

	snprintf(buf, len, "%u general", pmu->ngeneral);
	if (!nfixed)
		return;
	used = strlen(buf);
	snprintf(buf + used, len - used, " + %u fixed (fixed:", nfixed);
	for (n = 0; n < 32; n++) {
		if (!(pmu->fixed & (1U << n)))
			continue;
		used = strlen(buf);
		snprintf(buf + used, len - used, "%s %s",
			 n == (unsigned int)__builtin_ctz(pmu->fixed) ? "" : ",",
			 fixed_name(pmu, n));
	}
	used = strlen(buf);
	snprintf(buf + used, len - used, ")");
}

static int no_general(const struct perfex_pmu *pmu, const char *name, char *err, size_t errlen)
{
	char desc[160];

	perfex_pmu_describe(pmu, desc, sizeof(desc));
	fail(err, errlen, "%s: too many events: no general counter left; this CPU has %s", name,
	     desc);
	return NO_GENERAL;
}

#ifndef _ARCH_PPC	/* x86 */
#include <cpuid.h>

#define X86_USR		0x00010000U	/* evntsel bit 16: user mode */
#define X86_OS		0x00020000U	/* evntsel bit 17: kernel mode */
#define X86_INT		0x00100000U	/* evntsel bit 20: interrupt on overflow */
#define X86_EN		0x00400000U	/* evntsel bit 22: enable */
#define PMC_FIXED	0x40000000U	/* pmc_map of Intel's fixed counter 0 */
#define FIXED_OS	1U		/* a fixed counter's field: kernel mode */
#define FIXED_USR	2U		/* user mode */

const char *perfex_event_syntax(void)
{
	return "evntsel[/escr][@pmc]: evntsel and escr hexadecimal, 0x optional (perfctr\n"
	       "2.7's); evntsel's bits 32-63 go to evntsel_high (AMD).  pmc is the RDPMC\n"
	       "index, decimal or 0x-hex (fixed counters 0x40000000+N, whose evntsel is the\n"
	       "4-bit field: 1 kernel, 2 user).  perf's rNNNN and cpu/event=0x..,umask=0x../\n"
	       "(enable and privilege bits from :u, :k; user mode by default).";
}

static int is_fixed_pmc(const struct perfex_pmu *pmu, unsigned int pmc)
{
	return pmc >= PMC_FIXED;
}

/* AMD family 15h and later: before Zen, Zen 1-3, Zen 4 and later. */
static unsigned int amd_model(void)
{
	unsigned int eax, ebx, ecx, edx, family, model;

	if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
		return PERFEX_MODEL_AMD;
	family = (eax >> 8) & 0xf;
	model = (eax >> 4) & 0xf;
	if (family == 0xf) {
		family += (eax >> 20) & 0xff;
		model |= (eax >> 12) & 0xf0;
	}
	if (family < 0x17)
		return PERFEX_MODEL_AMD;
	/* Zen 4: family 19h models 10h-1fh, 60h-7fh, a0h-afh (Linux's X86_FEATURE_ZEN4). */
	if (family > 0x19 || (family == 0x19 && ((model >= 0x10 && model <= 0x1f) ||
						 (model >= 0x60 && model <= 0x7f) ||
						 (model >= 0xa0 && model <= 0xaf))))
		return PERFEX_MODEL_AMD_ZEN4;
	return PERFEX_MODEL_AMD_ZEN;
}

void perfex_pmu_detect(const struct perfctr_info *info, struct perfex_pmu *pmu)
{
	unsigned int eax, ebx, ecx, edx, version, len, nfixed = perfctr_info_nrfixed(info);

	memset(pmu, 0, sizeof(*pmu));
	pmu->known = 1;
	pmu->ngeneral = perfctr_info_nrctrs(info) - nfixed;
	switch (info->cpu_type) {
	case PERFCTR_X86_INTEL_P6:
	case PERFCTR_X86_INTEL_PII:
	case PERFCTR_X86_INTEL_PIII:
	case PERFCTR_X86_INTEL_PENTM:
		pmu->p6_enable = 1;
		return;
	case PERFCTR_X86_AMD_K7:
	case PERFCTR_X86_AMD_K8:
	case PERFCTR_X86_AMD_K8C:
	case PERFCTR_X86_AMD_FAM10H:
		pmu->model = PERFEX_MODEL_AMD;
		return;
	case PERFCTR_X86_AMD_FAM15H:
		pmu->model = amd_model();
		return;
	}
	if (!perfctr_info_intel_arch(info) || !pmu->ngeneral ||
	    !__get_cpuid_count(0xa, 0, &eax, &ebx, &ecx, &edx))
		return;
	pmu->model = PERFEX_MODEL_INTEL_ARCH;
	version = eax & 0xff;
	len = (eax >> 24) & 0xff;
	pmu->arch_events = ~ebx & (len >= 32 ? ~0U : (1U << len) - 1);
	if (version >= 2)
		pmu->fixed = (1U << (edx & 0x1f)) - 1;
	if (version >= 5)
		pmu->fixed |= ecx;
	/* As many as perfctr_info_nrfixed() counts, the lowest. */
	while ((unsigned int)__builtin_popcount(pmu->fixed) > nfixed)
		pmu->fixed &= ~(1U << (31 - __builtin_clz(pmu->fixed)));
}

/*
 * perf's generic events on x86, from Linux's event maps: Intel's
 * architectural events (intel_perfmon_event_map, arch/x86/events/intel/
 * core.c; the Intel SDM's "Pre-defined Architectural Performance
 * Events", CPUID 0xA EBX bits 0-6), with ref-cycles on fixed counter 2
 * only, as perf counts it (0x013c counts at the bus clock on some
 * models); AMD's (amd_perfmon_event_map, amd_zen1/2/4_perfmon_event_map,
 * arch/x86/events/amd/core.c).  libpfm4 names the AMD events
 * CYCLES_NOT_IN_HALT (0x76), RETIRED_INSTRUCTIONS (0xc0),
 * RETIRED_BRANCH_INSTRUCTIONS (0xc2) and
 * RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED (0xc3).
 */
static int generic_event(const struct perfex_pmu *pmu, int g, struct generic_event *e)
{
	static const struct generic_event intel[G_NR] = {
		[G_CYCLES] = { 0x003c, 1, 0 },
		[G_INSTRUCTIONS] = { 0x00c0, 0, 1 },
		[G_REF_CYCLES] = { 0, 2, -1 },
		[G_CACHE_REFERENCES] = { 0x4f2e, -1, 3 },
		[G_CACHE_MISSES] = { 0x412e, -1, 4 },
		[G_BRANCHES] = { 0x00c4, -1, 5 },
		[G_BRANCH_MISSES] = { 0x00c5, -1, 6 },
	};
	static const unsigned long long amd[][G_NR] = {
		[PERFEX_MODEL_AMD - PERFEX_MODEL_AMD] = {
			[G_CYCLES] = 0x0076, [G_INSTRUCTIONS] = 0x00c0,
			[G_CACHE_REFERENCES] = 0x077d, [G_CACHE_MISSES] = 0x077e,
			[G_BRANCHES] = 0x00c2, [G_BRANCH_MISSES] = 0x00c3,
		},
		[PERFEX_MODEL_AMD_ZEN - PERFEX_MODEL_AMD] = {
			[G_CYCLES] = 0x0076, [G_INSTRUCTIONS] = 0x00c0,
			[G_CACHE_REFERENCES] = 0xff60, [G_CACHE_MISSES] = 0x0964,
			[G_BRANCHES] = 0x00c2, [G_BRANCH_MISSES] = 0x00c3,
		},
		[PERFEX_MODEL_AMD_ZEN4 - PERFEX_MODEL_AMD] = {
			[G_CYCLES] = 0x0076, [G_INSTRUCTIONS] = 0x00c0,
			[G_CACHE_REFERENCES] = 0xff60, [G_CACHE_MISSES] = 0x0964,
			[G_BRANCHES] = 0x00c2, [G_BRANCH_MISSES] = 0x00c3,
			[G_REF_CYCLES] = 0x100000120ULL,
		},
	};

	unsigned long long c;

	switch (pmu->model) {
	case PERFEX_MODEL_INTEL_ARCH:
		*e = intel[g];
		break;
	case PERFEX_MODEL_AMD:
	case PERFEX_MODEL_AMD_ZEN:
	case PERFEX_MODEL_AMD_ZEN4:
		e->code = amd[pmu->model - PERFEX_MODEL_AMD][g];
		e->fixed = -1;
		e->arch = -1;
		break;
	default:
		/* No table: the kernel's encoding alone, on a general counter. */
		if (sysfs_generic(g, &c) || !(c & 0xff))
			return -1;
		e->code = c;
		e->fixed = -1;
		e->arch = -1;
		return 0;
	}
	/*
	 * The running kernel's encoding where it publishes one: event 0x00
	 * is Intel's fixed-counter pseudo-encoding (umask N + 1: fixed
	 * counter N, ref-cycles's 0x0300); the table keeps the fixed counter
	 * and the architectural event of the others.
	 */
	if (!sysfs_generic(g, &c)) {
		if (c & 0xff) {
			e->code = c;
		} else if (pmu->model == PERFEX_MODEL_INTEL_ARCH && !(c & ~0xff00ULL) && c) {
			e->code = 0;
			e->fixed = (int)(c >> 8) - 1;
		}
	}
	return 0;
}

/* Intel's fixed-counter pseudo-encodings: event select 0x00, umask N + 1 (as perf's). */
static int is_pseudo(const struct perfex_pmu *pmu, unsigned long long code, unsigned long long escr)
{
	return pmu->model == PERFEX_MODEL_INTEL_ARCH && !(code & 0xff) && !escr;
}

static int fixed_field(const struct perfex_pmu *pmu, const char *name, unsigned long long code,
		       unsigned int n, __u32 *field, char *err, size_t errlen)
{
	unsigned long long allowed = 0xff00 | X86_USR | X86_OS | X86_INT | X86_EN;

	if (code & ~allowed)
		return fail(err, errlen,
			    "%s: fixed counter %u (%s) takes no modifier but :u and :k (no edge, invert, cmask or any-thread)",
			    name, n, fixed_name(pmu, n));
	*field = (code & X86_USR ? FIXED_USR : 0) | (code & X86_OS ? FIXED_OS : 0);
	if (!*field)
		return fail(err, errlen, "%s counts neither user nor kernel mode", name);
	return 0;
}

/* The fixed counter @pmc (0x40000000 + N) for the event @name: 0 if free, or -1. */
static int fixed_free(const struct perfex_pmu *pmu, const struct perfctr_cpu_control *cc,
		      const struct perfex_events *ev, const char *name, unsigned int n,
		      char *err, size_t errlen)
{
	char desc[160];
	int j;

	if (n >= 32 || !(pmu->fixed & (1U << n))) {
		perfex_pmu_describe(pmu, desc, sizeof(desc));
		return fail(err, errlen,
			    "%s counts only on fixed counter %u, which this CPU does not have (it has %s)",
			    name, n, desc);
	}
	j = pmc_user(cc, PMC_FIXED + n);
	if (j >= 0)
		return fail(err, errlen,
			    "%s counts only on fixed counter %u (%s), which %s already takes",
			    name, n, fixed_name(pmu, n), ev->name[j]);
	return 0;
}

/*
 * Place event @name (@code, @escr; @pmc if the user chose the counter)
 * as counter @i of @cc.  An Intel fixed-counter pseudo-encoding goes to
 * its fixed counter and nowhere else; @prefer_fixed (-1: none) is the
 * fixed counter a generic event takes when it is there and free.
 */
static int encode(const struct perfex_pmu *pmu, struct perfctr_cpu_control *cc,
		  struct perfex_events *ev, unsigned int i, const char *name,
		  unsigned long long code, unsigned long long escr, long pmc, int kind,
		  int prefer_fixed, char *err, size_t errlen)
{
	__u32 field = 0;
	unsigned int n;

	if (kind != KIND_RAW) {
		/* Counting only: no overflow interrupt for a-mode counters. */
		code &= ~(unsigned long long)X86_INT;
	}
	if (pmc >= (long)PMC_FIXED) {
		n = pmc - PMC_FIXED;
		if (fixed_free(pmu, cc, ev, name, n, err, errlen))
			return -1;
		if (kind == KIND_RAW) {
			/* perfctr 2.7's syntax: the field itself. */
			field = code;
		} else if (!is_pseudo(pmu, code, escr) || ((code >> 8) & 0xff) != n + 1) {
			return fail(err, errlen, "%s: fixed counter %u counts %s only", name, n,
				    fixed_name(pmu, n));
		} else if (fixed_field(pmu, name, code, n, &field, err, errlen)) {
			return -1;
		}
		cc->evntsel[i] = field;
		cc->evntsel_high[i] = 0;
		cc->pmc_map[i] = pmc;
		return 0;
	}
	if (is_pseudo(pmu, code, escr)) {
		n = (code >> 8) & 0xff;
		if (!n)
			return fail(err, errlen,
				    "%s: event code 0x00, umask 0x00: no counter counts it", name);
		n--;
		if (pmc >= 0)
			return fail(err, errlen,
				    "%s: event code 0x00 is fixed counter %u's (%s): it counts on no general counter",
				    name, n, fixed_name(pmu, n));
		if (fixed_free(pmu, cc, ev, name, n, err, errlen) ||
		    fixed_field(pmu, name, code, n, &field, err, errlen))
			return -1;
		cc->evntsel[i] = field;
		cc->evntsel_high[i] = 0;
		cc->pmc_map[i] = PMC_FIXED + n;
		return 0;
	}
	if (prefer_fixed >= 0 && pmc < 0 && (pmu->fixed & (1U << prefer_fixed)) &&
	    pmc_user(cc, PMC_FIXED + prefer_fixed) < 0) {
		if (fixed_field(pmu, name, code & ~0xffffULL, prefer_fixed, &field, err, errlen))
			return -1;
		cc->evntsel[i] = field;
		cc->evntsel_high[i] = 0;
		cc->pmc_map[i] = PMC_FIXED + prefer_fixed;
		return 0;
	}
	if (pmc < 0) {
		pmc = free_pmc(cc, pmu->ngeneral, 0);
		if (pmc < 0)
			return no_general(pmu, name, err, errlen);
	} else if (pmc >= (long)pmu->ngeneral) {
		return fail(err, errlen, "%s: counter %ld: this CPU has %u general counters (0-%u)",
			    name, pmc, pmu->ngeneral, pmu->ngeneral - 1);
	} else if (pmc_user(cc, pmc) >= 0) {
		return fail(err, errlen,
			    "event %u (%s): counter %ld is event %d's (%s): one event a counter",
			    i + 1, name, pmc, pmc_user(cc, pmc) + 1, ev->name[pmc_user(cc, pmc)]);
	}
	cc->evntsel[i] = (__u32)code;
	cc->evntsel_high[i] = (__u32)(code >> 32);
	cc->p4.escr[i] = (__u32)escr;
	cc->pmc_map[i] = pmc;
	return 0;
}

/* A generic event's encoding on x86: @prefer_fixed as for encode(). */
static int generic_encode(const struct perfex_pmu *pmu, const struct perfctr_cpu_control *cc,
			  const char *name, int g, unsigned int plm, long pmc,
			  unsigned long long *code, int *prefer_fixed, char *err, size_t errlen)
{
	unsigned long long bits = X86_EN | (plm & PERFEX_PLM_USER ? X86_USR : 0) |
				  (plm & PERFEX_PLM_KERNEL ? X86_OS : 0);
	struct generic_event e;
	int general;

	if (generic_event(pmu, g, &e))
		return fail(err, errlen,
			    "%s: perfex has no table of perf's generic events for this CPU model: name a libpfm4 event or give a raw one",
			    name);
	general = e.code && (e.arch < 0 || (pmu->arch_events & (1U << e.arch)));
	*prefer_fixed = -1;
	if (e.fixed >= 0 && (!general || pmc >= (long)PMC_FIXED)) {
		/* Fixed only (ref-cycles), or chosen: the pseudo-encoding. */
		*code = ((unsigned long long)(e.fixed + 1) << 8) | bits;
		return 0;
	}
	if (!general) {
		if (e.arch >= 0 && e.code)
			return fail(err, errlen,
				    "%s: this CPU does not have the architectural event (CPUID 0xA EBX bit %d)",
				    name, e.arch);
		return fail(err, errlen, "%s: this CPU model has no such event", name);
	}
	*prefer_fixed = e.fixed;
	*code = e.code | bits;
	return 0;
}

/* The privilege levels counter @i of @cc counts at. */
static unsigned int counter_plm(const struct perfctr_cpu_control *cc, unsigned int i)
{
	if (cc->pmc_map[i] >= PMC_FIXED)
		return (cc->evntsel[i] & FIXED_USR ? PERFEX_PLM_USER : 0) |
		       (cc->evntsel[i] & FIXED_OS ? PERFEX_PLM_KERNEL : 0);
	return (cc->evntsel[i] & X86_USR ? PERFEX_PLM_USER : 0) |
	       (cc->evntsel[i] & X86_OS ? PERFEX_PLM_KERNEL : 0);
}

/*
 * A raw x86 event select that counts nothing, named before the kernel
 * is asked: no enable bit, or neither USR nor OS; a fixed counter's
 * field (@pmc 0x40000000 + N) with neither level.  The Pentium 4's
 * (with an ESCR) are the kernel's to judge.
 */
static int raw_counts_nothing(unsigned long long code, unsigned long long escr, long pmc,
			      unsigned int i, const char *name, char *err, size_t errlen)
{
	if (escr)
		return 0;
	if (pmc >= (long)PMC_FIXED) {
		if (!(code & (FIXED_USR | FIXED_OS)))
			return fail(err, errlen,
				    "event %u (%s): a fixed counter's field without 2 (user) or 1 (kernel): counts nothing",
				    i + 1, name);
		return 0;
	}
	if (!(code & 0xff) && (code & 0xff00))
		return 0;	/* Intel's fixed-counter pseudo-encoding: encode() checks it */
	if (!(code & X86_EN))
		return fail(err, errlen,
			    "event %u (%s): no enable bit (EN, bit 22, 0x400000): counts nothing",
			    i + 1, name);
	if (!(code & (X86_USR | X86_OS)))
		return fail(err, errlen,
			    "event %u (%s): no USR/OS bit (bits 16, 17: 0x10000 user, 0x20000 kernel): counts nothing",
			    i + 1, name);
	return 0;
}
#else
/*
 * powerpc.  ppc64 (POWER8-10): code is the ISA 2.07/3.0/3.1 raw event
 * code that perf and libpfm4 use (PMCxSEL in bits 0-7, unit 12-15,
 * combine, PMC 16-19, L1 qualifier 20-21, ...): libperfctr's
 * perfctr_power_encode() places the events and makes MMCR1's upper
 * word, as for PAPI's perfctr component.  PMC5 and PMC6 count
 * instructions and cycles, evntsel 0.  ppc32: code is the counter's
 * PMCnSEL.
 */
#define MMCR0_FCS	0x40000000U	/* freeze counters in supervisor state */
#define MMCR0_FCP	0x20000000U	/* freeze counters in problem (user) state */

const char *perfex_event_syntax(void)
{
	return "code[@pmc]: ppc64: the ISA 2.07/3.0/3.1 raw event code (as perf's rNNNN, which\n"
	       "perfex takes too, as cpu/event=0x../), its PMC field choosing the counter;\n"
	       "ppc32: the PMCnSEL value.  code is hexadecimal, 0x optional; pmc decimal or\n"
	       "0x-hex, 0 for PMC1.";
}

static int is_ppc64(const struct perfctr_info *info)
{
	return info->cpu_type >= PERFCTR_PPC64_POWER8;
}

static int is_fixed_pmc(const struct perfex_pmu *pmu, unsigned int pmc)
{
	return pmu->fixed && pmc >= 4;
}

void perfex_pmu_detect(const struct perfctr_info *info, struct perfex_pmu *pmu)
{
	unsigned int nfixed = perfctr_info_nrfixed(info);

	memset(pmu, 0, sizeof(*pmu));
	pmu->known = 1;
	pmu->ngeneral = perfctr_info_nrctrs(info) - nfixed;
	pmu->fixed = (1U << nfixed) - 1;
	switch (info->cpu_type) {
	case PERFCTR_PPC64_POWER8:
		pmu->model = PERFEX_MODEL_POWER8;
		break;
	case PERFCTR_PPC64_POWER9:
		pmu->model = PERFEX_MODEL_POWER9;
		break;
	case PERFCTR_PPC64_POWER10:
		pmu->model = PERFEX_MODEL_POWER10;
		break;
	}
}

/*
 * perf's generic events on POWER8-10, from Linux's generic event
 * attributes and event lists (arch/powerpc/perf/power{8,9,10}-pmu.c,
 * power{8,9,10}-events-list.h; libpfm4's names): PM_RUN_CYC (0x600f4)
 * on PMC6 and PM_RUN_INST_CMPL (0x500fa) on PMC5 preferred, else cycles
 * PM_CYC and instructions PM_INST_CMPL: on POWER8 and POWER9 PMCxSEL
 * 0x1e and 0x02 on any of PMC1-4, on POWER10 libpfm4's PM_CYC (0x100f0)
 * and PM_INST_CMPL (0x100fe) on PMC1 (its 0x1e and 0x02 are on PMC2-4
 * only); POWER8 branches PM_BRU_FIN, cache-references PM_LD_REF_L1
 * (0x100ee), cache-misses PM_LD_MISS_L1; POWER9 branches PM_BR_CMPL,
 * cache-misses PM_LD_MISS_L1_FIN; POWER10 cache-misses PM_LD_MISS_L1.
 * No ref-cycles.
 */
static int generic_event(const struct perfex_pmu *pmu, int g, struct generic_event *e)
{
	static const unsigned long long power[][G_NR] = {
		[PERFEX_MODEL_POWER8 - PERFEX_MODEL_POWER8] = {
			[G_CYCLES] = 0x0001e, [G_INSTRUCTIONS] = 0x00002,
			[G_BRANCHES] = 0x10068, [G_BRANCH_MISSES] = 0x400f6,
			[G_CACHE_REFERENCES] = 0x100ee, [G_CACHE_MISSES] = 0x3e054,
		},
		[PERFEX_MODEL_POWER9 - PERFEX_MODEL_POWER8] = {
			[G_CYCLES] = 0x0001e, [G_INSTRUCTIONS] = 0x00002,
			[G_BRANCHES] = 0x4d05e, [G_BRANCH_MISSES] = 0x400f6,
			[G_CACHE_REFERENCES] = 0x100fc, [G_CACHE_MISSES] = 0x2c04e,
		},
		[PERFEX_MODEL_POWER10 - PERFEX_MODEL_POWER8] = {
			[G_CYCLES] = 0x100f0, [G_INSTRUCTIONS] = 0x100fe,
			[G_BRANCHES] = 0x4d05e, [G_BRANCH_MISSES] = 0x400f6,
			[G_CACHE_REFERENCES] = 0x100fc, [G_CACHE_MISSES] = 0x3e054,
		},
	};

	unsigned long long c;

	if (pmu->model < PERFEX_MODEL_POWER8 || pmu->model > PERFEX_MODEL_POWER10)
		return -1;
	e->code = power[pmu->model - PERFEX_MODEL_POWER8][g];
	/* The running kernel's event code where it publishes one. */
	if (e->code && !sysfs_generic(g, &c) && c)
		e->code = c;
	e->fixed = g == G_INSTRUCTIONS ? 0 : g == G_CYCLES ? 1 : -1;
	e->arch = -1;
	return 0;
}

/*
 * POWER8-10: libperfctr's translation (perfctr_power_encode()), shared
 * with PAPI's perfctr component, of the events so far and event @i,
 * placed anew, those named with @pmc where they were put.
 */
static int encode_ppc64(const struct perfex_pmu *pmu, struct perfctr_cpu_control *cc,
			struct perfex_events *ev, unsigned int i, const char *name,
			unsigned long long code, long pmc, int prefer_fixed, char *err,
			size_t errlen)
{
	struct perfctr_power_event pe[PERFCTR_NRCTRS];
	unsigned long long mmcr1;
	long fixed_pmc = 4 + prefer_fixed;
	unsigned int j, isa = PERFCTR_POWER_ISA310;

	if (pmu->model == PERFEX_MODEL_POWER8)
		isa = PERFCTR_POWER_ISA207;
	else if (pmu->model == PERFEX_MODEL_POWER9)
		isa = PERFCTR_POWER_ISA300;
	if (i >= PERFCTR_NRCTRS)
		return no_general(pmu, name, err, errlen);
	if (prefer_fixed >= 0 &&
	    (pmc < 0 ? free_pmc(cc, fixed_pmc + 1, fixed_pmc) == fixed_pmc : pmc == fixed_pmc)) {
		/* PMC5 (instructions) or PMC6 (cycles). */
		code = prefer_fixed ? 0x600f4 : 0x500fa;
		pmc = fixed_pmc;
	}
	for (j = 0; j < i; j++) {
		pe[j].code = ev->code[j];
		pe[j].name = ev->name[j];
		pe[j].pmc = ev->placed[j] ? (int)cc->pmc_map[j] : -1;
	}
	pe[i].code = code;
	pe[i].name = name;
	pe[i].pmc = pmc < 0 ? -1 : pmc > 5 ? 6 : (int)pmc;
	if (perfctr_power_encode(isa, 0, pe, i + 1, &mmcr1, err, errlen))
		return errno == ENOSPC ? no_general(pmu, name, err, errlen) : -1;
	for (j = 0; j <= i; j++) {
		cc->pmc_map[j] = pe[j].pmc;
		cc->evntsel[j] = pe[j].evntsel;
	}
	cc->ppc.mmcr1 = mmcr1;
	return 0;
}

static int encode(const struct perfex_pmu *pmu, struct perfctr_cpu_control *cc,
		  struct perfex_events *ev, unsigned int i, const char *name,
		  unsigned long long code, unsigned long long escr, long pmc, int kind,
		  int prefer_fixed, char *err, size_t errlen)
{
	(void)kind;
	if (escr)
		return fail(err, errlen, "/escr is for the Pentium 4 only");
	if (pmu->model >= PERFEX_MODEL_POWER8)
		return encode_ppc64(pmu, cc, ev, i, name, code, pmc, prefer_fixed, err, errlen);
	/* ppc32: the PMCnSEL value. */
	if (pmc < 0)
		pmc = free_pmc(cc, pmu->ngeneral, 0);
	if (pmc < 0)
		return no_general(pmu, name, err, errlen);
	if (pmc_user(cc, pmc) >= 0)
		return fail(err, errlen,
			    "event %u (%s): counter %ld is event %d's (%s): one event a counter",
			    i + 1, name, pmc, pmc_user(cc, pmc) + 1, ev->name[pmc_user(cc, pmc)]);
	cc->evntsel[i] = (__u32)code;
	cc->pmc_map[i] = pmc;
	return 0;
}

static int generic_encode(const struct perfex_pmu *pmu, const struct perfctr_cpu_control *cc,
			  const char *name, int g, unsigned int plm, long pmc,
			  unsigned long long *code, int *prefer_fixed, char *err, size_t errlen)
{
	struct generic_event e;

	(void)cc;
	(void)plm;
	(void)pmc;
	if (generic_event(pmu, g, &e))
		return fail(err, errlen,
			    "%s: perfex has no table of perf's generic events for this CPU model: give a raw event",
			    name);
	if (!e.code)
		return fail(err, errlen, "%s: POWER has no such event", name);
	*code = e.code;
	*prefer_fixed = e.fixed;
	return 0;
}

/*
 * The privilege levels belong to the whole control (MMCR0's FCS and
 * FCP): every event with levels must have the same ones.
 */
static int ppc_plm(struct perfctr_cpu_control *cc, const struct perfex_events *ev,
		   unsigned int i, const char *name, unsigned int plm, char *err, size_t errlen)
{
	unsigned int j;

	if (!plm)
		return 0;
	for (j = 0; j < i; j++)
		if (ev->plm[j] && ev->plm[j] != plm)
			return fail(err, errlen,
				    "%s: on powerpc the privilege levels belong to the whole control (MMCR0), and %s counts at others",
				    name, ev->name[j]);
	cc->ppc.mmcr0 &= ~(MMCR0_FCS | MMCR0_FCP);
	if (plm == PERFEX_PLM_USER)
		cc->ppc.mmcr0 |= MMCR0_FCS;
	else if (plm == PERFEX_PLM_KERNEL)
		cc->ppc.mmcr0 |= MMCR0_FCP;
	return 0;
}
#endif

/* The header of perfex -l: perfctr's CPU model, if there is perfctr. */
static void list_cpu(FILE *out, const struct perfctr_info *info)
{
	struct perfex_pmu pmu;
	char desc[160];

	if (info) {
		perfex_pmu_detect(info, &pmu);
		perfex_pmu_describe(&pmu, desc, sizeof(desc));
		fprintf(out, "CPU: %s (cpu_type %u), %s counters\n", perfctr_info_cpu_name(info),
			info->cpu_type, desc);
		fprintf(out, "perf's generic events: cycles (cpu-cycles), instructions, branches\n"
			"(branch-instructions), branch-misses, cache-references, cache-misses,\n"
			"ref-cycles, where this CPU model has them\n");
	} else {
		fprintf(out, "CPU: unknown (perfctr_info failed: perfex -i says why)\n");
	}
}

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

static int pfm_encode(const char *name, unsigned int plm, unsigned long long *code, char **fstr,
		      unsigned int *core, char *err, size_t errlen)
{
	pfm_pmu_encode_arg_t arg;
	uint64_t *codes = NULL;
	int ret, dfl_plm;

	if (pfm_ready(err, errlen))
		return -1;
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.codes = NULL;
	arg.fstr = fstr;
	/* The modifiers perfex took off the name (:u, :k, :uk); none: user mode only. */
	dfl_plm = (plm & PERFEX_PLM_USER ? PFM_PLM3 : 0) | (plm & PERFEX_PLM_KERNEL ? PFM_PLM0 : 0);
	if (!dfl_plm)
		dfl_plm = PFM_PLM3;
	ret = pfm_get_os_event_encoding(name, dfl_plm, PFM_OS_NONE, &arg);
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
		ret = pfm_get_os_event_encoding(alt, dfl_plm, PFM_OS_NONE, &arg);
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
		*core = perfex_pmu_core(pinfo.name, pinfo.desc);
	}
	return 0;
}

/* The unit masks of libpfm4's event @idx, one a line, the default marked. */
static void list_umasks(FILE *out, int idx, int nattrs)
{
	pfm_event_attr_info_t ainfo;
	int i;

	for (i = 0; i < nattrs; i++) {
		memset(&ainfo, 0, sizeof(ainfo));
		ainfo.size = sizeof(ainfo);
		if (pfm_get_event_attr_info(idx, i, PFM_OS_NONE, &ainfo) != PFM_SUCCESS ||
		    ainfo.type != PFM_ATTR_UMASK)
			continue;
		fprintf(out, "      :%s\t0x%llx\t%s%s\n", ainfo.name,
			(unsigned long long)ainfo.code, ainfo.is_dfl ? "(default) " : "",
			ainfo.desc ? ainfo.desc : "");
	}
}

void perfex_list_events(FILE *out, const struct perfctr_info *info)
{
	pfm_pmu_info_t pinfo;
	pfm_event_info_t einfo;
	char err[128];
	int pmu, idx, npmus = 0;

	list_cpu(out, info);
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
		npmus++;
		fprintf(out, "PMU %s (%s): %d events (unit masks below each, :UMASK)\n",
			pinfo.name, pinfo.desc, pinfo.nevents);
		for (idx = pinfo.first_event; idx != -1; idx = pfm_get_event_next(idx)) {
			memset(&einfo, 0, sizeof(einfo));
			einfo.size = sizeof(einfo);
			if (pfm_get_event_info(idx, PFM_OS_NONE, &einfo) != PFM_SUCCESS)
				continue;
			fprintf(out, "  %s::%s\t0x%llx\t%s\n", pinfo.name, einfo.name,
				(unsigned long long)einfo.code, einfo.desc ? einfo.desc : "");
			list_umasks(out, idx, einfo.nattrs);
		}
	}
	if (!npmus)
		fprintf(out, "%s\nRaw events: %s\n",
			"libpfm4 knows no core PMU of this CPU: raw events only (LIBPFM_FORCE_PMU=PMU lists that PMU's events)",
			perfex_event_syntax());
}
#else
static int pfm_encode(const char *name, unsigned int plm, unsigned long long *code, char **fstr,
		      unsigned int *core, char *err, size_t errlen)
{
	(void)plm;
	(void)code;
	(void)fstr;
	(void)core;
	return fail(err, errlen, "%s: event names need libpfm4 (perfex was built with LIBPFM=0); "
		    "give one of perf's generic names (cycles, instructions...) or a raw encoding",
		    name);
}

void perfex_list_events(FILE *out, const struct perfctr_info *info)
{
	list_cpu(out, info);
	fprintf(out, "perfex was built without libpfm4: raw events only,\n%s\n",
		perfex_event_syntax());
}
#endif

/*
 * Hybrid Intel CPUs: libperfctr's perfctr_pmu_core_type() and
 * perfctr_events_cpus(), shared with PAPI's perfctr component.
 */
unsigned int perfex_pmu_core(const char *pmu_name, const char *pmu_desc)
{
	return perfctr_pmu_core_type(pmu_name, pmu_desc);
}

int perfex_events_cpus(const struct perfex_events *ev, const char *root,
		       const cpu_set_t *allowed, cpu_set_t *cpus, char *err, size_t errlen)
{
	if (!root)
		root = getenv("PERFEX_SYSFS_ROOT");
	return perfctr_events_cpus(ev->n, ev->core, (const char *const *)ev->name, root, allowed,
				   cpus, err, errlen);
}

/*
 * Take perf's and libpfm4's privilege modifiers off the event name
 * @name, in place: the tokens u, k, uk and ku after the event (not after
 * a PMU's "::").  Their levels (PERFEX_PLM_*), or 0 if none.
 */
static unsigned int strip_plm(char *name)
{
	char *p = strstr(name, "::"), *tok, *t, *end, *out;
	unsigned int plm = 0;
	size_t len;

	p = strchr(p ? p + 2 : name, ':');
	if (!p)
		return 0;
	out = p;
	for (tok = p; *tok == ':'; tok = end) {
		t = tok + 1;
		end = strchr(t, ':');
		if (!end)
			end = t + strlen(t);
		len = end - t;
		if (len && len <= 2 && strspn(t, "uk") == len && (len == 1 || t[0] != t[1])) {
			plm |= (memchr(t, 'u', len) ? PERFEX_PLM_USER : 0) |
			       (memchr(t, 'k', len) ? PERFEX_PLM_KERNEL : 0);
		} else {
			memmove(out, tok, end - tok);
			out += end - tok;
		}
	}
	*out = 0;
	return plm;
}

/*
 * perf's software and cache events (perf list: "Software event",
 * "Hardware cache event"): not the CPU's counters of one thread.
 */
static const char *const perf_software[] = {
	"task-clock", "cpu-clock", "page-faults", "faults", "minor-faults", "major-faults",
	"context-switches", "cs", "cpu-migrations", "migrations", "alignment-faults",
	"emulation-faults", "dummy", "bpf-output", "cgroup-switches", "duration_time",
	"user_time", "system_time",
};

static const char *const perf_cache_prefixes[] = {
	"L1-dcache-", "L1-icache-", "LLC-", "dTLB-", "iTLB-", "branch-load", "node-",
};

/* @name (modifiers and all) is one of perf's software or cache events: why not. */
static int perf_not_hardware(const char *name, char *err, size_t errlen)
{
	size_t len = strcspn(name, ":");
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(perf_software); k++)
		if (strlen(perf_software[k]) == len && !strncmp(name, perf_software[k], len))
			return fail(err, errlen,
				    "%s: one of perf's software events, which the kernel counts in software: perfctr counts the hardware events of one thread (its TSC gives the thread's run time: tsc seconds)",
				    name);
	for (k = 0; k < ARRAY_SIZE(perf_cache_prefixes); k++)
		if (!strncmp(name, perf_cache_prefixes[k], strlen(perf_cache_prefixes[k])))
			return fail(err, errlen,
				    "%s: one of perf's generic cache events, which perfex does not map: name the CPU's own event (perfex -l) or give a raw one",
				    name);
	return 0;
}

/* A term of perf's pmu/term=value,.../: its value (1 for a term without one). */
static int perf_term(const char *spec, const char *term, const char *eq, unsigned long long *v,
		     char *err, size_t errlen)
{
	const char *p = eq + 1;

	if (!*eq) {
		*v = 1;
		return 0;
	}
	if (parse_num(&p, v) || *p)
		return fail(err, errlen, "%s: %.*s: not a number (decimal or 0x-hex)", spec,
			    (int)(eq - term), term);
	return 0;
}

/*
 * perf's raw syntax in @spec (modifiers in place): rNNNN (hex: x86's
 * event select bits, event and umask, as perf's raw config; powerpc's
 * raw event code) and PMU/event=0x..,umask=0x../ (x86: event, umask,
 * edge, inv, any, cmask, or config; powerpc: event or config) for the
 * CPU's core PMU: cpu, or cpu_core and cpu_atom on a hybrid Intel CPU,
 * which choose the core type.  1 with the code (without the enable and
 * privilege bits), the levels of the modifiers and the core types; 0 if
 * @spec is not perf's syntax; -1 with the reason.
 */
static int perf_syntax(char *spec, unsigned long long *code, unsigned int *plm,
		       unsigned int *core, char *err, size_t errlen)
{
	char *slash = strchr(spec, '/'), *end, *term, *next, *eq;
	const char *p;
	unsigned long long v;
	size_t len;

	*code = 0;
	*core = PERFEX_CORE_ANY;
	if (perf_not_hardware(spec, err, errlen))
		return -1;
	if (spec[0] == 'r' && isxdigit((unsigned char)spec[1])) {
		p = spec + 1;
		len = strspn(p, "0123456789abcdefABCDEF");
		if (p[len] && p[len] != ':')
			return 0;	/* a name (libpfm4's) */
		*plm = strip_plm(spec);
		if (spec[1 + len])
			return fail(err, errlen,
				    "%s: perf's raw events take the modifiers :u, :k and :uk only",
				    spec);
		if (parse_hex(&p, code) || *p)
			return fail(err, errlen, "%s: a raw event's code is hexadecimal", spec);
		return 1;
	}
	if (!slash || !isalpha((unsigned char)spec[0]))
		return 0;	/* a name, or perfctr's evntsel/escr */
	end = strrchr(spec, '/');
	if (end == slash)
		return fail(err, errlen, "%s: perf's PMU/term=value,.../: no closing '/'", spec);
	len = slash - spec;
	if (len == 3 && !strncmp(spec, "cpu", 3))
		*core = PERFEX_CORE_ANY;
	else if (len == 8 && !strncmp(spec, "cpu_core", 8))
		*core = PERFEX_CORE_P;
	else if ((len == 8 && !strncmp(spec, "cpu_atom", 8)) ||
		 (len == 12 && !strncmp(spec, "cpu_lowpower", 12)))
		*core = PERFEX_CORE_E;
	else
		return fail(err, errlen,
			    "%s: %.*s is not the CPU's core PMU (cpu, or cpu_core and cpu_atom on a hybrid CPU): perfctr programs the core's counters only",
			    spec, (int)len, spec);
	*plm = 0;
	for (p = end + 1; *p; p++) {
		if (*p == 'u')
			*plm |= PERFEX_PLM_USER;
		else if (*p == 'k')
			*plm |= PERFEX_PLM_KERNEL;
		else
			return fail(err, errlen,
				    "%s: after the PMU's '/' perfex takes the modifiers u and k only",
				    spec);
	}
	*end = 0;
	for (term = slash + 1; term; term = next) {
		next = strchr(term, ',');
		if (next)
			*next++ = 0;
		eq = strchr(term, '=');
		if (!eq)
			eq = term + strlen(term);
		len = eq - term;
		if (perf_term(spec, term, eq, &v, err, errlen))
			return -1;
#ifndef _ARCH_PPC
		if (len == 5 && !strncmp(term, "event", 5) && v <= 0xfff)
			*code |= (v & 0xff) | (v >> 8) << 32;	/* AMD: bits 8-11 to 32-35 */
		else if (len == 5 && !strncmp(term, "umask", 5) && v <= 0xff)
			*code |= v << 8;
		else if (len == 4 && !strncmp(term, "edge", 4) && v <= 1)
			*code |= v << 18;
		else if (len == 3 && !strncmp(term, "any", 3) && v <= 1)
			*code |= v << 21;
		else if (len == 3 && !strncmp(term, "inv", 3) && v <= 1)
			*code |= v << 23;
		else if (len == 5 && !strncmp(term, "cmask", 5) && v <= 0xff)
			*code |= v << 24;
#else
		if (len == 5 && !strncmp(term, "event", 5))
			*code |= v;
#endif
		else if (len == 6 && !strncmp(term, "config", 6))
			*code |= v;
		else
			return fail(err, errlen,
				    "%s: %.*s: perfex takes the terms event, umask, edge, inv, any, cmask and config (x86), event and config (powerpc), in range",
				    spec, (int)len, term);
	}
	return 1;
}

/*
 * The end of the event at @tok in a comma list: the next comma outside
 * a perf PMU's /.../, or NULL.
 */
static char *event_end(char *tok)
{
	int inside = 0;

	for (; *tok; tok++) {
		if (*tok == '/')
			inside = !inside;
		else if (*tok == ',' && !inside)
			return tok;
	}
	return NULL;
}

/* perf's event groups, {a,b}: refused, with why. */
static int perf_group(const char *spec, char *err, size_t errlen)
{
	if (!strpbrk(spec, "{}"))
		return 0;
	return fail(err, errlen,
		    "%s: perf's event groups ({a,b}) are implicit in perfex: all the events of one run are one group, counting together for the whole run (no multiplexing)",
		    spec);
}

static int add_event(const struct perfctr_info *info, struct perfctr_cpu_control *cc,
		     struct perfex_events *ev, const char *spec, char *err, size_t errlen)
{
	unsigned long long code = 0, escr = 0, v;
	unsigned int i = cc->nractrs, plm = 0, counts = PERFEX_COUNTS_OTHER;
	const char *p = spec, *at;
	char *name = NULL, *work = NULL, *fstr = NULL, *colon;
	unsigned int core = PERFEX_CORE_ANY;
	int kind = KIND_RAW, prefer_fixed = -1, g, r = -1, user_dfl = 0;
	long pmc = -1;

	if (!ev->pmu.known)
		perfex_pmu_detect(info, &ev->pmu);
	if (!ev->pmu.ngeneral && !ev->pmu.fixed)
		return fail(err, errlen,
			    "%s: the CPU model (%s) has no programmable counters, only the TSC: perfex counts nothing with -e here; without -e it counts the TSC",
			    spec, perfctr_info_cpu_name(info));
	if (i >= PERFCTR_NRCTRS)
		return fail(err, errlen, "%s: too many events: perfctr has room for %d",
			    spec, PERFCTR_NRCTRS);
	/* A trailing @pmc applies to names and raw codes alike. */
	at = strrchr(spec, '@');
	if (at) {
		p = at + 1;
		g = parse_num(&p, &v);
		if (g || *p || v > 0x7fffffff)
			return bad_pmc(spec, g, err, errlen);
		pmc = v;
	}
	name = at ? strndup(spec, at - spec) : strdup(spec);
	work = name ? strdup(name) : NULL;
	if (!work) {
		free(name);
		return fail(err, errlen, "out of memory");
	}
	p = name;
	g = perf_syntax(work, &code, &plm, &core, err, errlen);
	if (g < 0)
		goto out;
	if (g) {
		kind = KIND_PERF;
		user_dfl = !plm;
#ifndef _ARCH_PPC
		if (!plm)
			plm = PERFEX_PLM_USER;
		code |= X86_EN | (plm & PERFEX_PLM_USER ? X86_USR : 0) |
			(plm & PERFEX_PLM_KERNEL ? X86_OS : 0);
#endif
	} else if (isdigit((unsigned char)*p)) {
		if (parse_hex(&p, &code))
			goto bad;
		if (*p == '/') {
			p++;
			if (parse_hex(&p, &escr))
				goto bad;
		}
		if (*p)
			goto bad;
#ifndef _ARCH_PPC
		if (raw_counts_nothing(code, escr, pmc, i, name, err, errlen))
			goto out;
#endif
	} else {
		plm = strip_plm(work);
		colon = strchr(work, ':');
		if (colon && colon[1] != ':')
			*colon = 0;
		g = generic_index(work);
		if (g >= 0) {
			if (colon) {
				fail(err, errlen,
				     "%s: perf's generic events take the modifiers :u (user mode), :k (kernel mode) and :uk (both) only",
				     name);
				goto out;
			}
			user_dfl = !plm;
			if (!plm)
				plm = PERFEX_PLM_USER;
			if (generic_encode(&ev->pmu, cc, name, g, plm, pmc, &code, &prefer_fixed,
					   err, errlen))
				goto out;
			kind = KIND_GENERIC;
			if (g == G_CYCLES)
				counts = PERFEX_COUNTS_CYCLES;
			else if (g == G_INSTRUCTIONS)
				counts = PERFEX_COUNTS_INSTRUCTIONS;
		} else {
			if (colon)
				*colon = ':';
			if (pfm_encode(work, plm, &code, &fstr, &core, err, errlen))
				goto out;
			if (!plm)
				plm = PERFEX_PLM_USER;
			kind = KIND_PFM;
		}
	}
#ifdef _ARCH_PPC
	if (ppc_plm(cc, ev, i, name, plm, err, errlen))
		goto out;
#endif
	r = encode(&ev->pmu, cc, ev, i, name, code, escr, pmc, kind, prefer_fixed, err, errlen);
	if (r)
		goto out;
#ifdef _ARCH_PPC
	/* A generic name on PMC5 or PMC6: PM_RUN_INST_CMPL or PM_RUN_CYC. */
	if (kind == KIND_GENERIC && is_fixed_pmc(&ev->pmu, cc->pmc_map[i]))
		code = cc->pmc_map[i] == 4 ? 0x500fa : 0x600f4;
#endif
	/* Counted in user mode as no modifier was given: the name says so. */
	if (user_dfl && !fstr) {
		size_t len = strlen(name);
		char *un = realloc(name, len + 3);

		if (!un) {
			fail(err, errlen, "out of memory");
			goto out;
		}
		/* perf's spelling: instructions:u, cpu/event=0xc0/u. */
		memcpy(un + len, len && un[len - 1] == '/' ? "u" : ":u", 3);
		name = un;
	}
	cc->nractrs = i + 1;
	ev->placed[i] = !!at;
	ev->name[i] = fstr ? fstr : name;
	if (fstr)
		free(name);
	free(work);
	ev->code[i] = code;
	ev->core[i] = core;
	ev->counts[i] = counts;
#ifdef _ARCH_PPC
	ev->plm[i] = plm;
#else
	ev->plm[i] = counter_plm(cc, i);
#endif
	ev->n = i + 1;
	return 0;
bad:
	fail(err, errlen, "%s: invalid event specifier; raw syntax %s", spec,
	     perfex_event_syntax());
out:
	free(fstr);
	free(work);
	free(name);
	return r == NO_GENERAL ? NO_GENERAL : -1;
}

int perfex_add_event(const struct perfctr_info *info, struct perfctr_cpu_control *cc,
		     struct perfex_events *ev, const char *spec, char *err, size_t errlen)
{
	return add_event(info, cc, ev, spec, err, errlen) ? -1 : 0;
}

/*
 * Without perfctr_info (a kernel without perfctr): is @spec an event at
 * all?  Raw syntax, one of perf's generic names, or a name libpfm4 knows;
 * whether this CPU model takes it is for perfex_add_event() to say.
 */
static int check_event(const char *spec, char *err, size_t errlen)
{
	unsigned long long v;
	const char *p, *at = strrchr(spec, '@');
	char *work, *colon, *fstr = NULL;
	unsigned int core, plm;
	int r = 0;

	if (at) {
		p = at + 1;
		r = parse_num(&p, &v);
		if (r || *p || v > 0x7fffffff)
			return bad_pmc(spec, r, err, errlen);
	}
	work = at ? strndup(spec, at - spec) : strdup(spec);
	if (!work)
		return fail(err, errlen, "out of memory");
	p = work;
	r = perf_syntax(work, &v, &plm, &core, err, errlen);
	if (r) {
		free(work);
		return r < 0 ? -1 : 0;
	}
	if (isdigit((unsigned char)*p)) {
		r = parse_hex(&p, &v);
		if (!r && *p == '/') {
			p++;
			r = parse_hex(&p, &v);
		}
		if (r || *p)
			r = fail(err, errlen, "%s: invalid event specifier; raw syntax %s", spec,
				 perfex_event_syntax());
		free(work);
		return r;
	}
	plm = strip_plm(work);
	colon = strchr(work, ':');
	if (colon && colon[1] != ':')
		*colon = 0;
	if (generic_index(work) >= 0) {
		if (colon)
			r = fail(err, errlen,
				 "%s: perf's generic events take the modifiers :u (user mode), :k (kernel mode) and :uk (both) only",
				 spec);
	} else {
		if (colon)
			*colon = ':';
		r = pfm_encode(work, plm, &v, &fstr, &core, err, errlen);
		free(fstr);
	}
	free(work);
	return r;
}

int perfex_check_events(const char *const *specs, unsigned int n, char *err, size_t errlen)
{
	unsigned int k;
	char *list, *tok, *end;
	int r = 0;

	for (k = 0; k < n && !r; k++) {
		list = strdup(specs[k]);
		if (!list)
			return fail(err, errlen, "out of memory");
		if (perf_group(specs[k], err, errlen)) {
			free(list);
			return -1;
		}
		for (tok = list; tok && !r; tok = end) {
			end = event_end(tok);
			if (end)
				*end++ = 0;
			if (!*tok)
				r = fail(err, errlen, "%s: an empty event in the list", specs[k]);
			else
				r = check_event(tok, err, errlen);
		}
		free(list);
	}
	return r ? -1 : 0;
}

/* The counters of @mask in words: "2", "2 or 3", "0, 1 or 3". */
static void counter_list(unsigned int mask, char *buf, size_t len)
{
	unsigned int k, left = __builtin_popcount(mask);
	size_t at = 0;

	buf[0] = 0;
	for (k = 0; k < 32 && at < len; k++) {
		if (!(mask & (1U << k)))
			continue;
		left--;
		at += snprintf(buf + at, len - at, "%u%s", k,
			       !left ? "" : left == 1 ? " or " : ", ");
	}
}

/* Augmenting path: give event @i a counter of @ok[i], moving others. */
static int place_one(unsigned int i, const unsigned int *ok, int *owner, unsigned int *seen)
{
	unsigned int k;

	for (k = 0; k < 32; k++) {
		if (!(ok[i] & (1U << k)) || *seen & (1U << k))
			continue;
		*seen |= 1U << k;
		if (owner[k] < 0 || place_one(owner[k], ok, owner, seen)) {
			owner[k] = i;
			return 1;
		}
	}
	return 0;
}

/*
 * The P6's enable bit: EVNTSEL0's enables both counters and EVNTSEL1's
 * is reserved, so it goes with counter 0 only, wherever the events were
 * placed.
 */
static void p6_enable(const struct perfex_pmu *pmu, struct perfctr_cpu_control *cc)
{
#ifndef _ARCH_PPC
	unsigned int i;

	if (!pmu->p6_enable)
		return;
	for (i = 0; i < cc->nractrs + cc->nrictrs; i++) {
		if (cc->pmc_map[i])
			cc->evntsel[i] &= ~X86_EN;
		else
			cc->evntsel[i] |= X86_EN;
	}
#endif
}

int perfex_place_events(struct perfctr_cpu_control *cc, const struct perfex_events *ev,
			const unsigned int *ok, char *err, size_t errlen)
{
	unsigned int i, k, pinned = 0, seen, n = cc->nractrs;
	int owner[32];
	char can[128];

	for (k = 0; k < 32; k++)
		owner[k] = -1;
	for (i = 0; i < n; i++) {
		if (cc->pmc_map[i] >= 32 || !ev->placed[i])
			continue;
		counter_list(ok[i], can, sizeof(can));
		if (!ok[i])
			return fail(err, errlen,
				    "counter %u cannot count %s; no counter of this CPU can",
				    cc->pmc_map[i], ev->name[i]);
		if (!(ok[i] & (1U << cc->pmc_map[i])))
			return fail(err, errlen, "counter %u cannot count %s; it can use %s",
				    cc->pmc_map[i], ev->name[i], can);
		owner[cc->pmc_map[i]] = i;
		pinned |= 1U << cc->pmc_map[i];
	}
	for (i = 0; i < n; i++) {
		if (cc->pmc_map[i] >= 32 || ev->placed[i])
			continue;
		if (!ok[i])
			return fail(err, errlen, "%s: no general counter of this CPU can count it",
				    ev->name[i]);
		seen = pinned;
		if (!place_one(i, ok, owner, &seen)) {
			counter_list(ok[i], can, sizeof(can));
			return fail(err, errlen,
				    "%s: it can use counter %s only, which the other events need",
				    ev->name[i], can);
		}
	}
	for (k = 0; k < 32; k++)
		if (owner[k] >= 0)
			cc->pmc_map[owner[k]] = k;
	p6_enable(&ev->pmu, cc);
	return 0;
}

int perfex_add_events(const struct perfctr_info *info, struct perfctr_cpu_control *cc,
		      struct perfex_events *ev, const char *const *specs, unsigned int n,
		      char *err, size_t errlen)
{
	unsigned int k, i, events = 0, over = 0, general = 0;
	char *list, *tok, *end, desc[160];
	int r;

	for (k = 0; k < n; k++) {
		list = strdup(specs[k]);
		if (!list)
			return fail(err, errlen, "out of memory");
		if (perf_group(specs[k], err, errlen)) {
			free(list);
			return -1;
		}
		for (tok = list; tok; tok = end) {
			end = event_end(tok);
			if (end)
				*end++ = 0;
			if (!*tok) {
				fail(err, errlen, "%s: an empty event in the list", specs[k]);
				free(list);
				return -1;
			}
			events++;
			r = add_event(info, cc, ev, tok, err, errlen);
			if (r == NO_GENERAL) {
				over++;
			} else if (r) {
				free(list);
				return -1;
			}
		}
		free(list);
	}
	p6_enable(&ev->pmu, cc);
	if (!over)
		return 0;
	for (i = 0; i < cc->nractrs; i++)
		general += !is_fixed_pmc(&ev->pmu, cc->pmc_map[i]);
	perfex_pmu_describe(&ev->pmu, desc, sizeof(desc));
	return fail(err, errlen,
		    "too many events: %u event%s need %u general counters; this CPU has %s.  perfctr never multiplexes: count the others in another run",
		    events, events == 1 ? "" : "s", general + over, desc);
}

/*
 * The IPC.  libpfm4's full names (pmu::EVENT:UMASK:attr=value...) of
 * the events that count instructions retired and core cycles (not
 * reference cycles) on a general counter.  A name whose umask is a fixed
 * counter's pseudo-encoding on some models (INST_RETIRED:ANY, event
 * select 0x00 on Ice Lake and later) is checked by its encoding too.
 */
static const struct {
	const char *event;
	const char *umask;	/* NULL: the name has none */
	unsigned int counts;
} ipc_events[] = {
	{ "INST_RETIRED", "ANY_P", PERFEX_COUNTS_INSTRUCTIONS },
	{ "INST_RETIRED", "ANY", PERFEX_COUNTS_INSTRUCTIONS },
	{ "INST_RETIRED", NULL, PERFEX_COUNTS_INSTRUCTIONS },		/* P6 family */
	{ "INSTRUCTION_RETIRED", NULL, PERFEX_COUNTS_INSTRUCTIONS },	/* architectural */
	{ "INSTRUCTIONS_RETIRED", NULL, PERFEX_COUNTS_INSTRUCTIONS },
	{ "RETIRED_INSTRUCTIONS", NULL, PERFEX_COUNTS_INSTRUCTIONS },	/* AMD */
	{ "PM_INST_CMPL", NULL, PERFEX_COUNTS_INSTRUCTIONS },		/* POWER */
	{ "PM_RUN_INST_CMPL", NULL, PERFEX_COUNTS_INSTRUCTIONS },
	{ "UNHALTED_CORE_CYCLES", NULL, PERFEX_COUNTS_CYCLES },		/* architectural */
	{ "CPU_CLK_UNHALTED", "THREAD_P", PERFEX_COUNTS_CYCLES },
	{ "CPU_CLK_UNHALTED", "THREAD", PERFEX_COUNTS_CYCLES },
	{ "CPU_CLK_UNHALTED", "CORE_P", PERFEX_COUNTS_CYCLES },
	{ "CPU_CLK_UNHALTED", "CORE", PERFEX_COUNTS_CYCLES },
	{ "CPU_CLK_UNHALTED", NULL, PERFEX_COUNTS_CYCLES },		/* AMD, P6 family */
	{ "CPU_CLK_THREAD_UNHALTED", "THREAD_P", PERFEX_COUNTS_CYCLES },
	{ "CYCLES_NOT_IN_HALT", NULL, PERFEX_COUNTS_CYCLES },		/* AMD Zen */
	{ "PM_CYC", NULL, PERFEX_COUNTS_CYCLES },
	{ "PM_RUN_CYC", NULL, PERFEX_COUNTS_CYCLES },
};

struct ipc_name {
	char pmu[64];
	char u[8], k[8];	/* the privilege levels' values */
};

/* What the full libpfm4 name @name counts; @in gets its PMU and levels. */
static unsigned int name_counts(const char *name, struct ipc_name *in)
{
	char buf[256], *event, *umask = NULL, *tok, *next, *eq, *sep;
	unsigned int i;

	memset(in, 0, sizeof(*in));
	sep = strstr(name, "::");
	if (!sep || (size_t)(sep - name) >= sizeof(in->pmu) || strlen(sep) >= sizeof(buf))
		return PERFEX_COUNTS_OTHER;
	memcpy(in->pmu, name, sep - name);
	strcpy(buf, sep + 2);
	event = buf;
	next = strchr(buf, ':');
	if (next)
		*next++ = 0;
	for (tok = next; tok; tok = next) {
		next = strchr(tok, ':');
		if (next)
			*next++ = 0;
		eq = strchr(tok, '=');
		if (!eq) {
			if (umask)	/* two umasks */
				return PERFEX_COUNTS_OTHER;
			umask = tok;
		} else if (eq - tok == 1 && (*tok == 'u' || *tok == 'k')) {
			snprintf(*tok == 'u' ? in->u : in->k, sizeof(in->u), "%s", eq + 1);
		} else if (strspn(eq + 1, "0") != strlen(eq + 1) || !eq[1]) {
			return PERFEX_COUNTS_OTHER;	/* edge, invert, cmask... */
		}
	}
	for (i = 0; i < ARRAY_SIZE(ipc_events); i++)
		if (!strcmp(event, ipc_events[i].event) &&
		    (ipc_events[i].umask ? umask && !strcmp(umask, ipc_events[i].umask) : !umask))
			return ipc_events[i].counts;
	return PERFEX_COUNTS_OTHER;
}

static unsigned int event_counts(const struct perfctr_info *info,
				 const struct perfctr_cpu_control *cc,
				 const struct perfex_events *ev, unsigned int i,
				 struct ipc_name *in)
{
	unsigned int counts;

	counts = name_counts(ev->name[i], in);
#ifdef _ARCH_PPC
	/* POWER8-10: PMC5 counts instructions completed, PMC6 cycles. */
	if (is_ppc64(info) && cc->pmc_map[i] >= 4)
		return cc->pmc_map[i] == 4 ? PERFEX_COUNTS_INSTRUCTIONS : PERFEX_COUNTS_CYCLES;
#else
	/* Intel's fixed counters 0 (instructions retired) and 1 (core cycles). */
	if (cc->pmc_map[i] >= PMC_FIXED)
		return cc->pmc_map[i] == PMC_FIXED ? PERFEX_COUNTS_INSTRUCTIONS :
		       cc->pmc_map[i] == PMC_FIXED + 1 ? PERFEX_COUNTS_CYCLES : PERFEX_COUNTS_OTHER;
#endif
	if (ev->counts[i])	/* perf's generic names */
		return ev->counts[i];
#ifndef _ARCH_PPC
	/* A real event select (not a fixed counter's pseudo-encoding). */
	if (!(ev->code[i] & 0xff))
		return PERFEX_COUNTS_OTHER;
#endif
	return counts;
}

unsigned int perfex_event_counts(const struct perfctr_info *info,
				 const struct perfctr_cpu_control *cc,
				 const struct perfex_events *ev, unsigned int i)
{
	struct ipc_name in;

	return event_counts(info, cc, ev, i, &in);
}

int perfex_ipc_events(const struct perfctr_info *info, const struct perfctr_cpu_control *cc,
		      const struct perfex_events *ev, unsigned int *inst, unsigned int *cyc)
{
	struct ipc_name a, b;
	unsigned int i, j;

	for (i = 0; i < ev->n; i++) {
		if (event_counts(info, cc, ev, i, &a) != PERFEX_COUNTS_INSTRUCTIONS)
			continue;
		for (j = 0; j < ev->n; j++) {
			if (event_counts(info, cc, ev, j, &b) != PERFEX_COUNTS_CYCLES)
				continue;
			/* One PMU (when both names say), the same privilege levels. */
			if (a.pmu[0] && b.pmu[0] && strcmp(a.pmu, b.pmu))
				continue;
			if (ev->plm[i] && ev->plm[j] ? ev->plm[i] != ev->plm[j] :
			    strcmp(a.u, b.u) || strcmp(a.k, b.k))
				continue;
			*inst = i;
			*cyc = j;
			return 1;
		}
	}
	return 0;
}
