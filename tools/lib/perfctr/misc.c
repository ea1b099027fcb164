// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * libperfctr: perfctr_info(), the perfctr 2.7 printing helpers, and
 * perfctr_strerror().
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "libperfctr.h"
#include "marker.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define libperfctr_attribute(x)	__attribute__((x))

int _perfctr_abi_check_fd(int fd, unsigned int user_abi_version)
{
	struct perfctr_info info;

	if (perfctr_info(fd, &info)) {
		perror("perfctr_abi_check");
		return -1;
	}
	if ((info.abi_version ^ user_abi_version) & 0xff00ff00) {
		fprintf(stderr,
			"perfctr: ABI major version mismatch: kernel 0x%08x, library 0x%08x\n",
			info.abi_version, user_abi_version);
		errno = EPROTO;
		return -1;
	}
	return 0;
}

int perfctr_info(int fd, struct perfctr_info *info)
{
	(void)fd;
	return perfctr_sys_info(info, NULL, NULL);
}

struct perfctr_cpus_info *perfctr_cpus_info(int fd)
{
	struct perfctr_cpu_mask probe = { .nrwords = 0 };
	struct perfctr_cpus_info *ci;
	size_t bytes;
	unsigned int n;

	(void)fd;
	if (!perfctr_sys_info(NULL, &probe, NULL) || errno != EOVERFLOW || !probe.nrwords) {
		if (!errno || errno == EOVERFLOW)
			errno = EPROTO;
		return NULL;
	}
	n = probe.nrwords;
	bytes = sizeof(struct perfctr_cpu_mask) + n * sizeof(__u32);
	ci = calloc(1, sizeof(*ci) + 2 * bytes);
	if (!ci)
		return NULL;
	ci->cpus = (struct perfctr_cpu_mask *)(ci + 1);
	ci->cpus_forbidden = (struct perfctr_cpu_mask *)((char *)ci->cpus + bytes);
	ci->cpus->nrwords = n;
	ci->cpus_forbidden->nrwords = n;
	if (perfctr_sys_info(NULL, ci->cpus, ci->cpus_forbidden)) {
		free(ci);
		return NULL;
	}
	return ci;
}

#ifndef _ARCH_PPC	/* x86 */
#include <cpuid.h>

/*
 * Architectural perfmon (CPUID 0xA): the general counters and, in
 * *@fixed, the fixed counters.
 */
static unsigned int x86_arch_nrctrs(unsigned int *fixed)
{
	unsigned int eax, ebx, ecx, edx, version;

	*fixed = 0;
	if (!__get_cpuid_count(0xa, 0, &eax, &ebx, &ecx, &edx))
		return 0;
	version = eax & 0xff;
	if (version >= 2)
		*fixed = edx & 0x1f;
	if (version >= 5 && __builtin_popcount(ecx) > (int)*fixed)
		*fixed = __builtin_popcount(ecx);
	return (eax >> 8) & 0xff;
}

/* Intel's architectural perfmon models (CPUID 0xA): general plus fixed counters. */
int perfctr_info_intel_arch(const struct perfctr_info *info)
{
	switch (info->cpu_type) {
	case PERFCTR_X86_INTEL_CORE:
	case PERFCTR_X86_INTEL_CORE2:
	case PERFCTR_X86_INTEL_ATOM:
	case PERFCTR_X86_INTEL_NHLM:
	case PERFCTR_X86_INTEL_WSTMR:
	case PERFCTR_X86_INTEL_SNB:
	case PERFCTR_X86_INTEL_ARCH:
	case PERFCTR_X86_INTEL_HYBRID:	/* this CPU's; other core types may differ */
		return 1;
	default:
		return 0;
	}
}

unsigned int perfctr_info_nrfixed(const struct perfctr_info *info)
{
	unsigned int general, fixed;

	if (!perfctr_info_intel_arch(info))
		return 0;
	general = x86_arch_nrctrs(&fixed);
	if (general >= PERFCTR_NRCTRS)
		return 0;
	return general + fixed > PERFCTR_NRCTRS ? PERFCTR_NRCTRS - general : fixed;
}

unsigned int perfctr_info_nrctrs(const struct perfctr_info *info)
{
	unsigned int n, fixed;

	if (perfctr_info_intel_arch(info)) {
		n = x86_arch_nrctrs(&fixed) + fixed;
		return n > PERFCTR_NRCTRS ? PERFCTR_NRCTRS : n;
	}
	switch (info->cpu_type) {
	case PERFCTR_X86_INTEL_P5:
	case PERFCTR_X86_INTEL_P5MMX:
	case PERFCTR_X86_INTEL_P6:
	case PERFCTR_X86_INTEL_PII:
	case PERFCTR_X86_INTEL_PIII:
	case PERFCTR_X86_INTEL_PENTM:
	case PERFCTR_X86_CYRIX_MII:
	case PERFCTR_X86_WINCHIP_C6:
	case PERFCTR_X86_WINCHIP_2:
		return 2;
	case PERFCTR_X86_VIA_C3:
		return 1;
	case PERFCTR_X86_AMD_K7:
	case PERFCTR_X86_AMD_K8:
	case PERFCTR_X86_AMD_K8C:
	case PERFCTR_X86_AMD_FAM10H:
		return 4;
	case PERFCTR_X86_AMD_FAM15H:
		return 6;
	case PERFCTR_X86_INTEL_P4:
	case PERFCTR_X86_INTEL_P4M2:
	case PERFCTR_X86_INTEL_P4M3:
		return 18;
	default:
		return 0;
	}
}

static const char *const cpu_names[] = {
	[PERFCTR_X86_GENERIC] = "Generic x86 with TSC",
	[PERFCTR_X86_INTEL_P5] = "Intel Pentium",
	[PERFCTR_X86_INTEL_P5MMX] = "Intel Pentium MMX",
	[PERFCTR_X86_INTEL_P6] = "Intel Pentium Pro",
	[PERFCTR_X86_INTEL_PII] = "Intel Pentium II",
	[PERFCTR_X86_INTEL_PIII] = "Intel Pentium III",
	[PERFCTR_X86_CYRIX_MII] = "Cyrix 6x86MX/MII/III",
	[PERFCTR_X86_WINCHIP_C6] = "WinChip C6",
	[PERFCTR_X86_WINCHIP_2] = "WinChip 2/3",
	[PERFCTR_X86_AMD_K7] = "AMD K7",
	[PERFCTR_X86_VIA_C3] = "VIA C3",
	[PERFCTR_X86_INTEL_P4] = "Intel Pentium 4",
	[PERFCTR_X86_INTEL_P4M2] = "Intel Pentium 4 Model 2",
	[PERFCTR_X86_AMD_K8] = "AMD K8",
	[PERFCTR_X86_INTEL_PENTM] = "Intel Pentium M",
	[PERFCTR_X86_AMD_K8C] = "AMD K8 Revision C",
	[PERFCTR_X86_INTEL_P4M3] = "Intel Pentium 4 Model 3",
	[PERFCTR_X86_INTEL_CORE] = "Intel Core",
	[PERFCTR_X86_INTEL_CORE2] = "Intel Core 2",
	[PERFCTR_X86_AMD_FAM10H] = "AMD Family 10h",
	[PERFCTR_X86_INTEL_ATOM] = "Intel Atom",
	[PERFCTR_X86_INTEL_NHLM] = "Intel Nehalem",
	[PERFCTR_X86_INTEL_WSTMR] = "Intel Westmere",
	[PERFCTR_X86_INTEL_SNB] = "Intel Sandy Bridge",
	[PERFCTR_X86_INTEL_ARCH] = "Intel architectural perfmon v2+",
	[PERFCTR_X86_AMD_FAM15H] = "AMD Family 15h+",
	[PERFCTR_X86_INTEL_HYBRID] = "Intel hybrid",
};

void perfctr_cpu_control_print(const struct perfctr_cpu_control *control)
{
	unsigned int i, nractrs = control->nractrs, nrctrs = nractrs + control->nrictrs;

	printf("tsc_on\t\t\t%u\n", control->tsc_on);
	printf("nractrs\t\t\t%u\n", nractrs);
	if (control->nrictrs)
		printf("nrictrs\t\t\t%u\n", control->nrictrs);
	for (i = 0; i < nrctrs && i < PERFCTR_NRCTRS; i++) {
		if (control->pmc_map[i] >= 18)
			printf("pmc_map[%u]\t\t0x%08X\n", i, control->pmc_map[i]);
		else
			printf("pmc_map[%u]\t\t%u\n", i, control->pmc_map[i]);
		printf("evntsel[%u]\t\t0x%08X\n", i, control->evntsel[i]);
		if (control->evntsel_high[i])
			printf("evntsel_high[%u]\t\t0x%08X\n", i, control->evntsel_high[i]);
		if (control->p4.escr[i])
			printf("escr[%u]\t\t\t0x%08X\n", i, control->p4.escr[i]);
		if (i >= nractrs)
			printf("ireset[%u]\t\t%d\n", i, control->ireset[i]);
	}
	if (control->p4.pebs_enable)
		printf("pebs_enable\t\t0x%08X\n", control->p4.pebs_enable);
	if (control->p4.pebs_matrix_vert)
		printf("pebs_matrix_vert\t0x%08X\n", control->p4.pebs_matrix_vert);
}

#else	/* powerpc */

unsigned int perfctr_info_nrctrs(const struct perfctr_info *info)
{
	switch (info->cpu_type) {
	case PERFCTR_PPC_604:
		return 2;
	case PERFCTR_PPC_604e:
	case PERFCTR_PPC_750:
	case PERFCTR_PPC_7400:
		return 4;
	case PERFCTR_PPC_7450:
	case PERFCTR_PPC64_POWER8:
	case PERFCTR_PPC64_POWER9:
	case PERFCTR_PPC64_POWER10:
		return 6;
	default:
		return 0;
	}
}

/* POWER8-10's PMC5 (instructions completed) and PMC6 (cycles). */
unsigned int perfctr_info_nrfixed(const struct perfctr_info *info)
{
	switch (info->cpu_type) {
	case PERFCTR_PPC64_POWER8:
	case PERFCTR_PPC64_POWER9:
	case PERFCTR_PPC64_POWER10:
		return 2;
	default:
		return 0;
	}
}

/* Intel's architectural perfmon is x86's. */
int perfctr_info_intel_arch(const struct perfctr_info *info)
{
	(void)info;
	return 0;
}

static const char *const cpu_names[] = {
	[PERFCTR_PPC_GENERIC] = "Generic PowerPC with timebase",
	[PERFCTR_PPC_604] = "PowerPC 604",
	[PERFCTR_PPC_604e] = "PowerPC 604e",
	[PERFCTR_PPC_750] = "PowerPC 750",
	[PERFCTR_PPC_7400] = "PowerPC 7400",
	[PERFCTR_PPC_7450] = "PowerPC 7450",
	[PERFCTR_PPC64_POWER8] = "POWER8",
	[PERFCTR_PPC64_POWER9] = "POWER9",
	[PERFCTR_PPC64_POWER10] = "POWER10",
};

void perfctr_cpu_control_print(const struct perfctr_cpu_control *control)
{
	unsigned int i, nractrs = control->nractrs, nrctrs = nractrs + control->nrictrs;

	printf("tsc_on\t\t\t%u\n", control->tsc_on);
	printf("nractrs\t\t\t%u\n", nractrs);
	if (control->nrictrs)
		printf("nrictrs\t\t\t%u\n", control->nrictrs);
	for (i = 0; i < nrctrs && i < PERFCTR_NRCTRS; i++) {
		printf("pmc_map[%u]\t\t%u\n", i, control->pmc_map[i]);
		printf("evntsel[%u]\t\t0x%08X\n", i, control->evntsel[i]);
		if (i >= nractrs)
			printf("ireset[%u]\t\t%d\n", i, control->ireset[i]);
	}
	if (control->ppc.mmcr0)
		printf("mmcr0\t\t\t0x%08X\n", control->ppc.mmcr0);
	if (control->ppc.mmcr1)
		printf("mmcr1\t\t\t0x%016llX\n", (unsigned long long)control->ppc.mmcr1);
	if (control->ppc.mmcr2)
		printf("mmcr2\t\t\t0x%08X\n", control->ppc.mmcr2);
}

#endif

const char *perfctr_info_cpu_name(const struct perfctr_info *info)
{
	if (info->cpu_type < ARRAY_SIZE(cpu_names) && cpu_names[info->cpu_type])
		return cpu_names[info->cpu_type];
	return "?";
}

void perfctr_info_print(const struct perfctr_info *info)
{
	static const char *const features[] = {
		"rdpmc", "rdtsc", "pcint", "tsc_constant", "pmu_busy"
	};
	unsigned int i, comma = 0;

	printf("abi_version\t\t0x%08X\n", info->abi_version);
	printf("driver_version\t\t%.*s\n", (int)sizeof(info->driver_version),
	       info->driver_version);
	printf("cpu_type\t\t%u (%s)\n", info->cpu_type, perfctr_info_cpu_name(info));
	printf("cpu_features\t\t%#x (", info->cpu_features);
	for (i = 0; i < ARRAY_SIZE(features); i++) {
		if (info->cpu_features & (1U << i)) {
			printf("%s%s", comma ? "," : "", features[i]);
			comma = 1;
		}
	}
	printf(")\n");
	printf("cpu_khz\t\t\t%u\n", info->cpu_khz);
	printf("tsc_to_cpu_mult\t\t%u%s\n", info->tsc_to_cpu_mult,
	       info->tsc_to_cpu_mult ? "" : " (unspecified, assume 1)");
	printf("cpu_nrctrs\t\t%u\n", perfctr_info_nrctrs(info));
}

static void print_cpus(const struct perfctr_cpu_mask *cpus)
{
	unsigned int i, bit, n = 0;

	printf("[");
	for (i = 0; i < cpus->nrwords; i++)
		for (bit = 0; bit < 32; bit++)
			if (cpus->mask[i] & (1U << bit))
				printf("%s%u", n++ ? "," : "", i * 32 + bit);
	printf("], total: %u\n", n);
}

void perfctr_cpus_info_print(const struct perfctr_cpus_info *info)
{
	printf("cpus\t\t\t");
	print_cpus(info->cpus);
	printf("cpus_forbidden\t\t");
	print_cpus(info->cpus_forbidden);
}

unsigned int perfctr_linux_version_code(void)
{
	unsigned int v, p, s;
	struct utsname u;

	if (uname(&u) < 0)
		return 0;
	s = 0;
	if (sscanf(u.release, "%u.%u.%u", &v, &p, &s) < 2)
		return 0;
	return PERFCTR_KERNEL_VERSION(v, p, s);
}

/*
 * perfctr_strerror(): what a perfctr error means on this system and what
 * to do about it.  It reads a few sysctls and the caller's credentials;
 * it makes no perfctr system call.
 */
#define STRERROR_LEN	1024
static __thread char strerror_buf[STRERROR_LEN];

/* A sysctl's integer value in *@val: 0, or -1 if it cannot be read. */
static int read_sysctl(const char *path, int *val)
{
	char buf[32], *end;
	ssize_t n;
	long v;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	v = strtol(buf, &end, 10);
	if (end == buf)
		return -1;
	*val = v;
	return 0;
}

#define CAP_SYS_ADMIN_BIT	21
#define CAP_PERFMON_BIT		38

/* Is @cap in the caller's effective set?  Without capget(), euid 0. */
static int have_cap(unsigned int cap)
{
	struct {
		__u32 version;
		int pid;
	} hdr = { 0x20080522, 0 };	/* _LINUX_CAPABILITY_VERSION_3 */
	struct {
		__u32 effective, permitted, inheritable;
	} data[2];

	if (syscall(SYS_capget, &hdr, data))
		return geteuid() == 0;
	return !!(data[cap / 32].effective & (1U << (cap % 32)));
}

static libperfctr_attribute(format(printf, 3, 4))
void add(char *buf, size_t len, const char *fmt, ...);
static void add(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used >= len - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

/*
 * The calling thread's last control (perfctr_sys_vcontrol()), none after
 * an open (perfctr_sys_vopen()): what the EACCES advice goes by.
 */
static __thread struct vperfctr_control last_control;
static __thread int last_control_valid;

__attribute__((visibility("hidden"))) void perfctr_note_control(const struct vperfctr_control *c);
void perfctr_note_control(const struct vperfctr_control *c)
{
	last_control_valid = !!c;
	if (c)
		last_control = *c;
}

/*
 * Whether the thread's last control counts programmable counters (*@pmcs)
 * and events of kernel mode: 1, 0, or -1 when not known (no control,
 * no @info, or a model whose privilege bits the library does not read:
 * the WinChips and the VIA C3 count at every level).  As the drivers
 * read them: x86 the OS bit (17) of an event select, bit 0 of a fixed
 * counter's field, the Pentium 4's ESCR T0_OS/T1_OS, the Pentium's CPL
 * field (bit 6: CPL 0-2); powerpc MMCR0's FCS clear.
 */
static int last_counts_kernel(const struct perfctr_info *info, int *pmcs)
{
	const struct perfctr_cpu_control *cc = &last_control.cpu_control;
	unsigned int i, n = cc->nractrs + cc->nrictrs;

	*pmcs = last_control_valid ? n != 0 : -1;
	if (!last_control_valid || !info || n > PERFCTR_NRCTRS)
		return -1;
	if (!n)
		return 0;
#ifdef _ARCH_PPC
	(void)i;
	return !(cc->ppc.mmcr0 & 0x40000000U);	/* MMCR0[FCS] */
#else
	for (i = 0; i < n; i++) {
		switch (info->cpu_type) {
		case PERFCTR_X86_INTEL_P4:
		case PERFCTR_X86_INTEL_P4M2:
		case PERFCTR_X86_INTEL_P4M3:
			if (cc->p4.escr[i] & (1U << 3 | 1U << 1))
				return 1;
			break;
		case PERFCTR_X86_INTEL_P5:
		case PERFCTR_X86_INTEL_P5MMX:
		case PERFCTR_X86_CYRIX_MII:
			if (cc->evntsel[i] & 1U << 6)
				return 1;
			break;
		case PERFCTR_X86_WINCHIP_C6:
		case PERFCTR_X86_WINCHIP_2:
		case PERFCTR_X86_VIA_C3:
			return -1;
		default:
			if ((cc->pmc_map[i] & 0xc0000000) == 0x40000000 ? cc->evntsel[i] & 1 :
			    cc->evntsel[i] & 1U << 17)
				return 1;
		}
	}
	return 0;
#endif
}

/*
 * EACCES: which of kernel.perfctr_access and perf_event_paranoid refuses
 * the caller (Documentation/userspace-api/perfctr/virtual.rst,
 * "Privileges").  The settings that refuse only programmable counters or
 * kernel-mode events are said to when the thread's last control asked
 * for them, or when it is not known.
 */
static void explain_eacces(char *buf, size_t len, const struct perfctr_info *info)
{
	int access = -1, paranoid = -1;
	int have_access = !read_sysctl("/proc/sys/kernel/perfctr_access", &access);
	int have_paranoid = !read_sysctl("/proc/sys/kernel/perf_event_paranoid", &paranoid);
	int admin = have_cap(CAP_SYS_ADMIN_BIT);
	int perfmon = admin || have_cap(CAP_PERFMON_BIT);
	int root = geteuid() == 0, refused = 0, pmcs;
	int kernel = last_counts_kernel(info, &pmcs);

	if (!have_access) {
		add(buf, len,
		    "/proc/sys/kernel/perfctr_access cannot be read (is /proc mounted?): kernel.perfctr_access (0-3) may forbid it. ");
	} else if (access == 0) {
		add(buf, len,
		    "kernel.perfctr_access is 0: perfctr is off for every user, root included; an administrator can turn it on with sysctl kernel.perfctr_access=2 (the TSC for every user) or 3 (the programmable counters too). ");
		refused = 1;
	} else if (access == 1 && !perfmon) {
		add(buf, len,
		    "kernel.perfctr_access is 1: perfctr needs CAP_PERFMON or root; an administrator can allow every user the TSC with sysctl kernel.perfctr_access=2, and the programmable counters too with 3. ");
		refused = 1;
	} else if (access == 2 && !perfmon && pmcs) {
		add(buf, len,
		    "kernel.perfctr_access is 2: programmable counters need CAP_PERFMON or root (every user may count the TSC); an administrator can allow all users with sysctl kernel.perfctr_access=3. ");
	}
	if (have_paranoid && paranoid > 2 && !admin) {
		add(buf, len,
		    "kernel.perf_event_paranoid is %d (above 2): only CAP_SYS_ADMIN may use perfctr; an administrator can allow other users with sysctl kernel.perf_event_paranoid=2. ",
		    paranoid);
		refused = 1;
	}
	if (have_paranoid && paranoid > 1 && !perfmon && kernel)
		add(buf, len,
		    "%s kernel-mode event (:k or the OS bit) needs perf_event_paranoid <= 1 (it is %d) or CAP_PERFMON: count user mode only. ",
		    *buf ? "And a" : "A", paranoid);
	if (!*buf) {
		add(buf, len, "neither kernel.perfctr_access (%d) nor kernel.perf_event_paranoid ",
		    access);
		if (have_paranoid)
			add(buf, len, "(%d) ", paranoid);
		add(buf, len,
		    "refuses this caller: a security module (SELinux, AppArmor) refused it as it would perf_event_open(); see the audit log. ");
	} else if (!refused && have_access) {
		add(buf, len,
		    "Otherwise a security module (SELinux, AppArmor) refused it as it would perf_event_open(); see the audit log. ");
	}
	add(buf, len, "(The caller is %s%s.)", root ? "root" : "not root",
	    admin ? ", with CAP_SYS_ADMIN" : perfmon ? ", with CAP_PERFMON" :
	    root ? ", without CAP_PERFMON (a container?)" : ", without CAP_PERFMON");
}

/* EBUSY: who may hold the PMU. */
static void explain_ebusy(char *buf, size_t len, const struct perfctr_info *info)
{
	int watchdog;

	if (read_sysctl("/proc/sys/kernel/nmi_watchdog", &watchdog))
		watchdog = -1;

	if (info && info->cpu_features & PERFCTR_FEATURE_PMU_BUSY)
		add(buf, len, "perfctr_info shows the PMU busy: ");
	add(buf, len,
	    "another user holds the performance counters: perf events (a running perf, PAPI's perf_event component, a profiler), ");
	if (watchdog > 0)
		add(buf, len,
		    "the NMI watchdog (kernel.nmi_watchdog is %d: sysctl kernel.nmi_watchdog=0 frees the PMU), ",
		    watchdog);
	else if (watchdog < 0)
		add(buf, len, "the NMI watchdog (sysctl kernel.nmi_watchdog=0 frees the PMU), ");
	else
		add(buf, len, "the NMI watchdog (off here: kernel.nmi_watchdog is 0), ");
	add(buf, len, "or a KVM guest with a mediated vPMU. ");
	add(buf, len, "Stop it and retry, or count the TSC alone.");
}

/* EPERM: another thread's state, or a kernel locked down for perf. */
static void explain_eperm(char *buf, size_t len)
{
	char mode[128] = "";
	ssize_t n;
	int fd;

	fd = open("/sys/kernel/security/lockdown", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, mode, sizeof(mode) - 1);
		mode[n > 0 ? n : 0] = 0;
		close(fd);
	}
	if (strstr(mode, "[confidentiality]"))
		add(buf, len,
		    "the kernel is locked down (lockdown=confidentiality), which refuses kernel-mode events: count user mode only. ");
	add(buf, len,
	    "An operation on another thread's state needs that thread stopped under ptrace(2) by the caller.");
}

/* The explanations that depend on the error alone. */
static const char *const constant_explanations[] = {
	[ENOSYS] =
		"this kernel has no perfctr (not patched, or CONFIG_PERFCTR off; the per-thread counters need CONFIG_PERFCTR_VIRTUAL too): boot a kernel with perfctr (in a chroot, mount /sys: the library reads the system call numbers in /sys/kernel/perfctr/syscalls)",
	[ENODEV] =
		"no perfctr driver for this CPU: the driver did not initialise (see the kernel log: dmesg | grep perfctr)",
	[ENOENT] = "the thread has no perfctr state (it is opened without creating one)",
	[ESRCH] =
		"no such thread, or the state is no longer attached to one (its thread exited or unlinked it)",
	[EOPNOTSUPP] =
		"the CPU model has no overflow interrupts (PERFCTR_FEATURE_PCINT clear: use a-mode counters only), or an event needs more than its counter, which perfctr does not program (x86: OFFCORE_RSP, load latency, FRONTEND, an AMD counter pair, an idle sibling hyperthread)",
	[EPROTO] =
		"the kernel's perfctr ABI differs from the library's (PERFCTR_ABI_VERSION): rebuild against this kernel's headers",
};

/* ENOSYS where the kernel has perfctr but publishes no numbers. */
static const char *const unnumbered_explanation[] = {
	"this kernel has perfctr but does not publish its system call numbers (no /sys/kernel/perfctr/syscalls: mount sysfs, or boot a kernel of the series that publishes them); the library makes no perfctr system call it cannot name",
};

/* The explanation of @err in @buf, or a constant one. */
static const char *explain(int err, const struct perfctr_info *info, char *buf, size_t len)
{
	if (err == ENOSYS && perfctr_unnumbered())
		return unnumbered_explanation[0];
	if ((unsigned int)err < ARRAY_SIZE(constant_explanations) && constant_explanations[err])
		return constant_explanations[err];
	buf[0] = 0;
	switch (err) {
	case EACCES:
		explain_eacces(buf, len, info);
		break;
	case EBUSY:
		explain_ebusy(buf, len, info);
		break;
	case EPERM:
		explain_eperm(buf, len);
		break;
	case EINVAL:
		if (info && !perfctr_info_nrctrs(info))
			add(buf, len,
			    "the CPU model (%s) has no programmable counters (no usable PMU, as in most virtual machines): only the TSC counts",
			    perfctr_info_cpu_name(info));
		else if (info)
			add(buf, len,
			    "the kernel refused the control: a counter the CPU model (%s) lacks, an event select it does not take, an event on a counter that cannot count it (x86: perf's event constraints; name another with @pmc), or every CPU the thread may run on is forbidden to the control (perfctr_cpus_info())",
			    perfctr_info_cpu_name(info));
		else
			add(buf, len,
			    "the kernel refused the arguments: a counter or an event select the CPU model does not take, a bad flag, or a descriptor that is not a perfctr state's");
		break;
	default:
		return strerror(err);
	}
	return buf;
}

const char *perfctr_strerror(int err, const struct perfctr_info *info)
{
	int saved = errno;	/* it reads files: errno stays the caller's */
	const char *msg;

	msg = explain(err < 0 ? -err : err, info, strerror_buf, sizeof(strerror_buf));
	errno = saved;
	return msg;
}
