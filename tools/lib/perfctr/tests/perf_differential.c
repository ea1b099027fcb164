// SPDX-License-Identifier: GPL-2.0
/*
 * perf-differential: the same loops counted by mainline perf
 * (perf_event_open, instructions:u) and by perfctr (a user-mode
 * instructions counter), at N and 2N iterations.  Each side's difference
 * must be exactly N times the loop's length, so the two agree to the
 * instruction: a-mode and i-mode, a general and (Intel architectural
 * perfmon) a fixed counter, and a thread that migrates between CPUs and
 * yields between its pieces of work.  A wrong event select is run too,
 * and the comparison must catch it.  TAP output.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "libperfctr.h"
#include "tap.h"

#define N 20000UL
#define PIECES 8

struct loop {
	const char *name;
	void (*fn)(unsigned long n);
	unsigned long per_iter;
};

static void loop_plain(unsigned long n)
{
	asm volatile("1: dec %0; jnz 1b" : "+r"(n) : : "cc");
}

static void loop_indirect(unsigned long n)
{
	void *target;

	asm volatile(""
#ifdef __x86_64__
		     "lea 2f(%%rip), %1\n"
#else
		     "call 3f\n"		/* position-independent: no text relocation */
		     "3: pop %1\n"
		     "add $2f-3b, %1\n"
#endif
		     "1: dec %0\n"
		     "jmp *%1\n"
		     "2: jnz 1b"
		     : "+r"(n), "=&r"(target) : : "cc");
}

static const struct loop loops[] = {
	{ "plain", loop_plain, 2 },
	{ "indirect", loop_indirect, 3 },
};

static int ncpus;

/* The loop in PIECES pieces, migrating and yielding between them. */
static void run(const struct loop *l, unsigned long n, int migrate)
{
	cpu_set_t set;
	int i;

	if (!migrate) {
		l->fn(n);
		return;
	}
	for (i = 0; i < PIECES; i++) {
		CPU_ZERO(&set);
		CPU_SET(i % ncpus, &set);
		sched_setaffinity(0, sizeof(set), &set);
		sched_yield();
		l->fn(n / PIECES);
	}
}

/* perf's user-mode instructions of n iterations; -1 on failure. */
static long long perf_count(const struct loop *l, unsigned long n, int migrate)
{
	struct perf_event_attr attr;
	uint64_t v[3];
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		return -1;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	run(l, n, migrate);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, v, sizeof(v)) != sizeof(v) || v[1] != v[2])
		v[0] = -1;
	close(fd);
	return v[0];
}

struct setup {
	const char *name;
	unsigned int pmc_map, evntsel, imode;
};

/* perfctr's count of n iterations, by its fast reads; -1 on failure. */
static long long perfctr_count(const struct setup *s, const struct loop *l,
			       unsigned long n, int migrate)
{
	struct vperfctr_control c;
	struct vperfctr *v = vperfctr_open();
	unsigned long long a, b;

	if (!v)
		return -1;
	memset(&c, 0, sizeof(c));
	c.cpu_control.tsc_on = 1;
	c.cpu_control.pmc_map[0] = s->pmc_map;
	c.cpu_control.evntsel[0] = s->evntsel;
	if (s->imode) {
		c.cpu_control.nrictrs = 1;
		c.cpu_control.ireset[0] = -(1 << 30);	/* far from an overflow */
		c.si_signo = SIGIO;
	} else {
		c.cpu_control.nractrs = 1;
	}
	if (vperfctr_control(v, &c)) {
		vperfctr_close(v);
		return -1;
	}
	a = vperfctr_read_pmc(v, 0);
	run(l, n, migrate);
	b = vperfctr_read_pmc(v, 0);
	vperfctr_unlink(v);
	vperfctr_close(v);
	return b - a;
}

#define GENERAL(name, sel, imode) { name, 0, sel, imode }
#define FIXED0(name, field, imode) { name, 0x40000000, field, imode }

static const struct setup setups[] = {
	GENERAL("general a-mode", 0x4100c0, 0),
	GENERAL("general i-mode", 0x5100c0, 1),
	FIXED0("fixed a-mode", 0x2, 0),
	FIXED0("fixed i-mode", 0xa, 1),
};

static struct perfctr_info info;

/* perfctr under setup @s against perf's difference @perf for loop @l. */
static void check_setup(const struct setup *s, const struct loop *l, int m, long long perf)
{
	long long want = l->per_iter * N, c1, c2;
	char name[160];

	snprintf(name, sizeof(name), "%s%s: perfctr %s equals perf", l->name,
		 m ? ", migrating" : "", s->name);
	if (s->pmc_map && info.cpu_type != PERFCTR_X86_INTEL_ARCH) {
		skip(name, "no fixed counters on this CPU type");
		return;
	}
	if (s->imode && !(info.cpu_features & PERFCTR_FEATURE_PCINT)) {
		skip(name, "no overflow interrupt");
		return;
	}
	c1 = perfctr_count(s, l, N, m);
	c2 = perfctr_count(s, l, 2 * N, m);
	CHECK(c1 >= 0 && c2 >= 0 && c2 - c1 == perf && c2 - c1 == want, name,
	      "perfctr %lld and %lld: differ by %lld; perf by %lld; want %lld (%s)",
	      c1, c2, c2 - c1, perf, want, strerror(errno));
}

int main(void)
{
	const struct setup wrong = GENERAL("a wrong event select (0x2e, LLC)", 0x41002e, 0);
	long long p1, p2, c1, c2, want;
	struct vperfctr *v;
	unsigned int i, j, m;
	char name[160];

	setvbuf(stdout, NULL, _IOLBF, 0);
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	v = vperfctr_open();
	if (!v || vperfctr_info(v, &info)) {
		printf("Bail out! vperfctr_open: %s\n", strerror(errno));
		return 1;
	}
	vperfctr_close(v);
	printf("1..%zu\n", 2 * 2 * (1 + ARRAY_SIZE(setups)) + 1);
	for (m = 0; m < 2; m++) {
		for (i = 0; i < ARRAY_SIZE(loops); i++) {
			want = loops[i].per_iter * N;
			p1 = perf_count(&loops[i], N, m);
			p2 = perf_count(&loops[i], 2 * N, m);
			snprintf(name, sizeof(name), "%s%s: perf instructions:u", loops[i].name,
				 m ? ", migrating" : "");
			CHECK(p1 >= 0 && p2 >= 0 && p2 - p1 == want, name,
			      "%lld and %lld: differ by %lld, not %lld", p1, p2, p2 - p1, want);
			for (j = 0; j < ARRAY_SIZE(setups); j++)
				check_setup(&setups[j], &loops[i], m, p2 - p1);
		}
	}
	/* The comparison can fail: a wrong event select counts nothing here. */
	c1 = perfctr_count(&wrong, &loops[0], N, 0);
	c2 = perfctr_count(&wrong, &loops[0], 2 * N, 0);
	p1 = perf_count(&loops[0], 2 * N, 0) - perf_count(&loops[0], N, 0);
	CHECK(c1 >= 0 && c2 >= 0 && c2 - c1 != p1, "the comparison catches a wrong event select",
	      "perfctr %lld, perf %lld", c2 - c1, p1);
	return nr_fail != 0;
}
