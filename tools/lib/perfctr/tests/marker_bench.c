// SPDX-License-Identifier: GPL-2.0
/*
 * make bench's rows for the marker API (scripts/bench.sh, mode
 * bench-marker of scripts/run-tests.sh): a region's start and stop
 * through perfctr_marker_start()/_stop() (the fast reads, TSC only)
 * against a read()-based pair of a perf_event counter (a read(2) at the
 * start and one at the stop, the difference summed), as code measuring
 * regions with perf_event does.  Nanoseconds per pair by
 * CLOCK_MONOTONIC, the median of BATCHES batches of PAIRS pairs; where
 * perf_event has a hardware instructions counter (ppc64 under QEMU; not
 * x86 under TCG), the instructions per pair too, user and kernel,
 * counted by it around a batch.  Prints "BENCH-JSON [rows]" and
 * "BENCH-NOTE ..." lines, as perfctr_bench does.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <libperfctr.h>
#include <perfctr_marker.h>

#define PAIRS		100000
#define BATCHES		11

static int perf_open(__u32 type, __u64 config, int user_only)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.exclude_kernel = user_only;
	a.exclude_hv = 1;
	return syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static unsigned long long read_count(int fd)
{
	unsigned long long v = 0;

	if (fd < 0 || read(fd, &v, sizeof(v)) != sizeof(v))
		return 0;
	return v;
}

/* One batch of the marker's pairs; 0, or -1 if a call failed. */
static int marker_batch(void)
{
	int i;

	for (i = 0; i < PAIRS; i++)
		if (perfctr_marker_start("bench") || perfctr_marker_stop("bench"))
			return -1;
	return 0;
}

/* One batch of read() pairs on @fd, the differences summed. */
static unsigned long long perf_batch(int fd)
{
	unsigned long long sum = 0, a, b;
	int i;

	for (i = 0; i < PAIRS; i++) {
		a = read_count(fd);
		b = read_count(fd);
		sum += b - a;
	}
	return sum;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct row {
	const char *what, *unit, *baseline;
	double v[BATCHES];
};

static double median(struct row *r)
{
	qsort(r->v, BATCHES, sizeof(r->v[0]), cmp);
	return r->v[BATCHES / 2];
}

static void print_row(const struct row *r, double base, int first)
{
	double m = r->v[BATCHES / 2];

	printf("%s{\"group\": \"marker regions\", \"what\": \"%s\"", first ? "" : ", ", r->what);
	printf(", \"median\": %.3f, \"min\": %.3f, \"max\": %.3f, \"unit\": \"%s\", \"baseline\": ",
	       m, r->v[0], r->v[BATCHES - 1], r->unit);
	if (r->baseline)
		printf("\"%s\", \"ratio\": %.4f}", r->baseline, base ? m / base : 0);
	else
		printf("null, \"ratio\": 1}");
}

int main(void)
{
	struct row t_marker = { .what = "region start+stop: perfctr marker (fast reads)",
				.unit = "ns" };
	struct row t_perf = { .what = "region start+stop: two read()s of a perf_event counter",
			      .unit = "ns", .baseline = t_marker.what };
	struct row i_marker = { .what = "region start+stop: perfctr marker, instructions",
				.unit = "instructions" };
	struct row i_perf = {
		.what = "region start+stop: two read()s of a perf_event counter, instructions",
		.unit = "instructions", .baseline = i_marker.what };
	int b, clk, insn, have_insn;
	static const char insn_note[] =
		"; instructions (user, kernel) by perf's counter around each batch, per pair";
	static const char no_insn_note[] = "; no instructions: perf's counter does not count";
	unsigned long long c0, c1;
	double t0;

	/* The perf_event counter read by the pairs: task-clock, which needs no PMU. */
	clk = perf_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 1);
	/* Instructions of user and kernel around a batch, where the PMU counts for perf. */
	insn = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0);
	if (clk < 0) {
		printf("BENCH-NOTE marker: no perf_event task-clock (%s): no rows\n",
		       strerror(errno));
		return 1;
	}
	/* The marker counts the TSC alone: a TSC-only state leaves the PMU to perf. */
	if (perfctr_marker_init() || perfctr_marker_register("bench") || marker_batch()) {
		printf("BENCH-NOTE marker: %s: no rows\n", perfctr_strerror(errno, NULL));
		return 1;
	}
	have_insn = insn >= 0;
	for (b = 0; b < BATCHES; b++) {
		c0 = read_count(insn);
		t0 = now_ns();
		if (marker_batch())
			return 1;
		t_marker.v[b] = (now_ns() - t0) / PAIRS;
		c1 = read_count(insn);
		i_marker.v[b] = (double)(c1 - c0) / PAIRS;
		c0 = read_count(insn);
		t0 = now_ns();
		perf_batch(clk);
		t_perf.v[b] = (now_ns() - t0) / PAIRS;
		c1 = read_count(insn);
		i_perf.v[b] = (double)(c1 - c0) / PAIRS;
		have_insn &= i_marker.v[b] > 0;
	}
	median(&t_marker);
	median(&t_perf);
	median(&i_marker);
	median(&i_perf);
	printf("BENCH-JSON [");
	print_row(&t_marker, 0, 1);
	print_row(&t_perf, t_marker.v[BATCHES / 2], 0);
	if (have_insn) {
		print_row(&i_marker, 0, 0);
		print_row(&i_perf, i_marker.v[BATCHES / 2], 0);
	}
	printf("]\n");
	printf("BENCH-NOTE marker regions: %d batches of %d pairs, %s%s\n", BATCHES, PAIRS,
	       "the marker's region used before; the perf pair reads a task-clock counter (read(2) twice)",
	       have_insn ? insn_note : no_insn_note);
	return 0;
}
