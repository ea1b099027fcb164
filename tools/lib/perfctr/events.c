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

/* The header of perfex -l: perfctr's CPU model, if there is perfctr. */
static void list_cpu(FILE *out, const struct perfctr_info *info)
{
	if (info)
		fprintf(out, "CPU: %s (cpu_type %u), %u counters\n", perfctr_info_cpu_name(info),
			info->cpu_type, perfctr_info_nrctrs(info));
	else
		fprintf(out, "CPU: unknown (perfctr_info failed: perfex -i says why)\n");
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

static int pfm_encode(const char *name, unsigned long long *code, char **fstr,
		      unsigned int *core, char *err, size_t errlen)
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
		*core = perfex_pmu_core(pinfo.name, pinfo.desc);
	}
	return 0;
}

void perfex_list_events(FILE *out, const struct perfctr_info *info)
{
	pfm_pmu_info_t pinfo;
	pfm_event_info_t einfo;
	char err[128];
	int pmu, idx;

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
		      unsigned int *core, char *err, size_t errlen)
{
	(void)code;
	(void)fstr;
	(void)core;
	return fail(err, errlen, "%s: event names need libpfm4 (perfex was built with LIBPFM=0); "
		    "give a raw encoding", name);
}

void perfex_list_events(FILE *out, const struct perfctr_info *info)
{
	list_cpu(out, info);
	fprintf(out, "perfex was built without libpfm4: raw events only,\n%s\n",
		perfex_event_syntax());
}
#endif

/*
 * Hybrid Intel CPUs.  libpfm4 has a core PMU per core type (adl_glc for
 * Alder Lake's P-cores, adl_grt for its E-cores) but no field of
 * pfm_pmu_info_t says which core type a PMU is for.  The description
 * does ("... (P-core)", "... (E-core)"); failing that, the name ends in
 * the abbreviation of the core's microarchitecture, and this table
 * knows those of libpfm4's hybrid PMUs and their likely successors.  A
 * PMU that is in neither counts on every core type.  On a CPU that is
 * not hybrid the answer does not matter: nothing is restricted.
 */
static const struct {
	const char *suffix;
	unsigned int core;
} hybrid_pmus[] = {
	{ "_glc", PERFEX_CORE_P },	/* Golden Cove */
	{ "_rpc", PERFEX_CORE_P },	/* Raptor Cove */
	{ "_rwc", PERFEX_CORE_P },	/* Redwood Cove */
	{ "_lnc", PERFEX_CORE_P },	/* Lion Cove */
	{ "_cgc", PERFEX_CORE_P },	/* Cougar Cove */
	{ "_grt", PERFEX_CORE_E },	/* Gracemont */
	{ "_cmt", PERFEX_CORE_E },	/* Crestmont */
	{ "_skt", PERFEX_CORE_E },	/* Skymont */
	{ "_dkt", PERFEX_CORE_E },	/* Darkmont */
};

unsigned int perfex_pmu_core(const char *pmu_name, const char *pmu_desc)
{
	size_t len, slen;
	unsigned int i;
	int p, e;

	if (pmu_desc) {
		p = !!strcasestr(pmu_desc, "p-core");
		e = !!strcasestr(pmu_desc, "e-core");
		if (p != e)
			return p ? PERFEX_CORE_P : PERFEX_CORE_E;
	}
	if (!pmu_name)
		return PERFEX_CORE_ANY;
	len = strlen(pmu_name);
	for (i = 0; i < ARRAY_SIZE(hybrid_pmus); i++) {
		slen = strlen(hybrid_pmus[i].suffix);
		if (len > slen && !strcmp(pmu_name + len - slen, hybrid_pmus[i].suffix))
			return hybrid_pmus[i].core;
	}
	return PERFEX_CORE_ANY;
}

/* The kernel's (perf's) PMU devices of the core types, as perf names them. */
#define PMU_DEVICES	"/sys/bus/event_source/devices/"

static const char *core_name(unsigned int core)
{
	return core == PERFEX_CORE_P ? "P-cores (cpu_core)" : "E-cores (cpu_atom)";
}

/*
 * Add the CPUs of the cpulist file @root@PMU_DEVICES@dev/cpus ("0-7,16")
 * to @set, and the list to @list; 1 if the file exists, 0 if not, -1.
 */
static int read_cpulist(const char *root, const char *dev, cpu_set_t *set,
			char *list, size_t listlen, char *err, size_t errlen)
{
	char path[4096], buf[1024], *p, *end;
	unsigned long lo, hi;
	size_t n, used;
	FILE *f;

	snprintf(path, sizeof(path), "%s" PMU_DEVICES "%s/cpus", root, dev);
	f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT)
			return 0;
		return fail(err, errlen, "%s: %s", path, strerror(errno));
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	used = strlen(list);
	snprintf(list + used, listlen - used, "%s%s", used && *buf ? "," : "", buf);
	for (p = buf; *p; p = end + (*end == ',')) {
		errno = 0;
		lo = strtoul(p, &end, 10);
		hi = lo;
		if (end != p && *end == '-') {
			p = end + 1;
			hi = strtoul(p, &end, 10);
		}
		if (end == p || errno || hi < lo || (*end && *end != ','))
			return fail(err, errlen, "%s: not a CPU list: %s", path, buf);
		if (hi >= CPU_SETSIZE)
			return fail(err, errlen, "%s: CPU %lu: perfex handles CPUs below %d",
				    path, hi, CPU_SETSIZE);
		for (; lo <= hi; lo++)
			CPU_SET(lo, set);
	}
	return 1;
}

int perfex_events_cpus(const struct perfex_events *ev, const char *root,
		       const cpu_set_t *allowed, cpu_set_t *cpus, char *err, size_t errlen)
{
	char path[4096], list[1024] = "";
	unsigned int need = PERFEX_CORE_ANY, i, p_ev = 0, e_ev = 0;
	cpu_set_t type_cpus;
	struct stat st;
	int r;

	if (!root)
		root = getenv("PERFEX_SYSFS_ROOT");
	if (!root)
		root = "";
	for (i = 0; i < ev->n; i++) {
		need &= ev->core[i];
		if (ev->core[i] == PERFEX_CORE_P)
			p_ev = i;
		else if (ev->core[i] == PERFEX_CORE_E)
			e_ev = i;
	}
	if (need == PERFEX_CORE_ANY)
		return 0;
	/* A hybrid CPU: the kernel's PMU for the P-cores is cpu_core, not cpu. */
	snprintf(path, sizeof(path), "%s" PMU_DEVICES "cpu_core", root);
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return 0;
	if (!need)
		return fail(err, errlen,
			    "%s counts on %s only and %s on %s only: a hybrid CPU's core types have different events; count them in separate runs",
			    ev->name[p_ev], core_name(PERFEX_CORE_P),
			    ev->name[e_ev], core_name(PERFEX_CORE_E));
	CPU_ZERO(&type_cpus);
	if (need == PERFEX_CORE_P) {
		r = read_cpulist(root, "cpu_core", &type_cpus, list, sizeof(list), err, errlen);
	} else {
		r = read_cpulist(root, "cpu_atom", &type_cpus, list, sizeof(list), err, errlen);
		/* Low-power E-cores (Arrow Lake-H...) have a PMU of their own. */
		if (r >= 0 && read_cpulist(root, "cpu_lowpower", &type_cpus, list,
					   sizeof(list), err, errlen) < 0)
			r = -1;
	}
	if (r < 0)
		return -1;
	i = need == PERFEX_CORE_P ? p_ev : e_ev;
	if (!CPU_COUNT(&type_cpus))
		return fail(err, errlen, "%s counts on %s only, and the kernel lists none",
			    ev->name[i], core_name(need));
	if (allowed)
		*cpus = *allowed;
	else if (sched_getaffinity(0, sizeof(*cpus), cpus))
		return fail(err, errlen, "sched_getaffinity: %s", strerror(errno));
	CPU_AND(cpus, cpus, &type_cpus);
	if (!CPU_COUNT(cpus))
		return fail(err, errlen,
			    "%s counts on %s only, CPUs %s, and perfex may run on none of them (its CPU affinity; see taskset(1))",
			    ev->name[i], core_name(need), list);
	return 1;
}

int perfex_add_event(const struct perfctr_info *info, struct perfctr_cpu_control *cc,
		     struct perfex_events *ev, const char *spec, char *err, size_t errlen)
{
	unsigned long long code = 0, escr = 0, v;
	unsigned int i = cc->nractrs;
	const char *p = spec, *at;
	char *name = NULL, *fstr = NULL;
	unsigned int core = PERFEX_CORE_ANY;
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
		if (pfm_encode(name, &code, &fstr, &core, err, errlen))
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
	ev->core[i] = core;
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

	memset(in, 0, sizeof(*in));
#ifdef _ARCH_PPC
	/* POWER8-10: PMC5 counts instructions completed, PMC6 cycles. */
	if (is_ppc64(info) && cc->pmc_map[i] >= 4)
		return cc->pmc_map[i] == 4 ? PERFEX_COUNTS_INSTRUCTIONS : PERFEX_COUNTS_CYCLES;
#endif
	counts = name_counts(ev->name[i], in);
#ifndef _ARCH_PPC
	/* A general counter, and a real event select (not a fixed counter's). */
	if (cc->pmc_map[i] >= 0x40000000 || !(ev->code[i] & 0xff))
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
			if (event_counts(info, cc, ev, j, &b) != PERFEX_COUNTS_CYCLES ||
			    strcmp(a.pmu, b.pmu) || strcmp(a.u, b.u) || strcmp(a.k, b.k))
				continue;
			*inst = i;
			*cyc = j;
			return 1;
		}
	}
	return 0;
}
