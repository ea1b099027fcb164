// SPDX-License-Identifier: GPL-2.0
/*
 * perfctr_demo: virtual counters at work.  A sleeping and a spinning
 * thread each run their own TSC (the timebase on powerpc) and, on ppc64
 * where QEMU's PMU counts, an instructions counter (PMC5); every 100 ms
 * the main thread prints them, the TSC as a share of the wall time.  Each
 * thread reads its own counters, through its mapped state (no system
 * call) and through vperfctr_read(), and publishes both: only the owner,
 * or a tracer of a stopped owner, may read a live state.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../../../perfctr/libperfctr.h"

/* ppc64: a PMC counting instructions too (no x86 PMU counts under QEMU). */
#ifdef _ARCH_PPC64
#define DEMO_PMC	1
#else
#define DEMO_PMC	0
#endif

struct demo_thread {
	const char *name;
	int spin;
	int fd;
	const struct vperfctr_state *map;
	unsigned long long fast;	/* published by the thread */
	unsigned long long slow;	/* the same through vperfctr_read() */
	unsigned long long insns;	/* ppc64: instructions, fast read */
	int stop;		/* 1: asked to stop, 2: failed */
};

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void *run(void *arg)
{
	struct demo_thread *t = arg;
	struct vperfctr_control c;
	struct timespec ms = { 0, 1000000 };
	struct perfctr_sum_ctrs sum;
	unsigned long long until;

	t->fd = vperfctr_open(0, VPERFCTR_OPEN_CREAT);
	vperfctr_control_tsc(&c, 1);
#ifdef _ARCH_PPC64
	c.cpu_control.nractrs = 1;	/* PMC5: completed instructions */
	c.cpu_control.pmc_map[0] = 4;
#endif
	if (t->fd >= 0 && !vperfctr_control(t->fd, &c))
		t->map = vperfctr_map(t->fd);
	if (!t->map) {
		perror("perfctr");
		t->stop = 2;
		return NULL;
	}
	while (!__atomic_load_n(&t->stop, __ATOMIC_RELAXED)) {
		if (t->spin) {
			until = now_ns() + 1000000;
			while (now_ns() < until)
				;
		} else {
			nanosleep(&ms, NULL);
		}
		__atomic_store_n(&t->fast, vperfctr_read_tsc_base(t->map), __ATOMIC_RELAXED);
#ifdef _ARCH_PPC64
		__atomic_store_n(&t->insns, vperfctr_read_pmc_seq(t->map, 0), __ATOMIC_RELAXED);
#endif
		if (vperfctr_read(t->fd, &sum, NULL)) {
			perror("vperfctr_read");
			__atomic_store_n(&t->stop, 2, __ATOMIC_RELAXED);
			return NULL;
		}
		__atomic_store_n(&t->slow, sum.tsc, __ATOMIC_RELAXED);
	}
	return NULL;
}

int main(void)
{
	struct demo_thread th[2] = { { .name = "sleeper" }, { .name = "spinner", .spin = 1 } };
	struct perfctr_info info;
	struct perfctr_sum_ctrs sum;
	unsigned long long t0, wall_ms, tsc0;
	double khz;
	pthread_t tid[2];
	int i, round;

	if (perfctr_info(&info, NULL, NULL)) {
		perror("perfctr_info");
		return 1;
	}
	printf("perfctr %s, abi %#x, cpu type %u, %u kHz, features %#x\n",
	       info.driver_version, info.abi_version, info.cpu_type,
	       info.cpu_khz, info.cpu_features);
	/* The TSC's rate, measured: cpu_khz / tsc_to_cpu_mult is rounded. */
	{
		struct timespec tick = { 0, 100000000 };

		t0 = now_ns();
		tsc0 = perfctr_rdtsc();
		nanosleep(&tick, NULL);
		khz = (double)(perfctr_rdtsc() - tsc0) * 1e6 / (now_ns() - t0);
		printf("TSC rate %.0f kHz\n", khz);
	}
	t0 = now_ns();
	for (i = 0; i < 2; i++)
		pthread_create(&tid[i], NULL, run, &th[i]);
	printf("%8s  %-8s %14s %14s %8s %14s\n",
	       "wall ms", "thread", "fast read", "vperfctr_read", "% wall", "instructions");
	for (round = 1; round <= 10; round++) {
		struct timespec tick = { 0, 100000000 };

		nanosleep(&tick, NULL);
		wall_ms = (now_ns() - t0) / 1000000;
		for (i = 0; i < 2; i++) {
			unsigned long long slow;

			if (__atomic_load_n(&th[i].stop, __ATOMIC_RELAXED) == 2)
				return 1;
			slow = __atomic_load_n(&th[i].slow, __ATOMIC_RELAXED);
			printf("%8llu  %-8s %14llu %14llu %7.1f%%", wall_ms, th[i].name,
			       __atomic_load_n(&th[i].fast, __ATOMIC_RELAXED), slow,
			       100.0 * slow / (khz * wall_ms));
			if (DEMO_PMC)
				printf(" %14llu\n",
				       __atomic_load_n(&th[i].insns, __ATOMIC_RELAXED));
			else
				printf(" %14s\n", "-");
		}
	}
	for (i = 0; i < 2; i++) {
		__atomic_store_n(&th[i].stop, 1, __ATOMIC_RELAXED);
		pthread_join(tid[i], NULL);
		/* The thread has exited: its state is detached, anyone may read. */
		if (vperfctr_read(th[i].fd, &sum, NULL)) {
			perror("vperfctr_read");
			return 1;
		}
		printf("final %-8s %llu TSC ticks (%.1f ms of CPU)", th[i].name,
		       (unsigned long long)sum.tsc, (double)sum.tsc / khz);
		if (DEMO_PMC)
			printf(", %llu instructions", (unsigned long long)sum.pmc[0]);
		printf("\n");
	}
	return 0;
}
