/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * perfctr_marker.h - named regions of code measured by libperfctr's
 * fast reads: per thread and per region, the sums of the TSC and of
 * every PMC of the thread's control, and the number of start/stop
 * pairs.  After a region's first use in a thread, its start and stop
 * make no system call where the kernel grants the fast reads
 * (PERFCTR_FEATURE_RDTSC, and PERFCTR_FEATURE_RDPMC with PMCs).
 * perfctr_marker(3) describes the calls and the environment.
 */
#ifndef __PERFCTR_MARKER_H
#define __PERFCTR_MARKER_H

#include <stdio.h>
#include <libperfctr.h>

#ifdef __cplusplus
extern "C" {
#endif

/* perfctr_marker_write()'s formats. */
#define PERFCTR_MARKER_TEXT	0
#define PERFCTR_MARKER_CSV	1
#define PERFCTR_MARKER_JSON	2
#define PERFCTR_MARKER_CSV_LINES 3	/* data lines only, perf stat -x's fields */

/* The longest region name, without its NUL. */
#define PERFCTR_MARKER_NAME_MAX	255

/* A region's sums in one thread (perfctr_marker_get()). */
struct perfctr_marker_counts {
	unsigned long long count;	/* completed start/stop pairs */
	unsigned long long tsc;		/* TSC ticks (powerpc: timebase) */
	unsigned int nrpmcs;		/* PMCs of the control: pmc[0..nrpmcs-1] */
	unsigned long long pmc[PERFCTR_NRCTRS];
};

int perfctr_marker_init(void);
int perfctr_marker_thread_init(void);
int perfctr_marker_register(const char *name);
int perfctr_marker_start(const char *name);
int perfctr_marker_stop(const char *name);
int perfctr_marker_get(const char *name, struct perfctr_marker_counts *counts);
int perfctr_marker_reset(const char *name);
int perfctr_marker_write(FILE *f, int format, const char *sep);
int perfctr_marker_close(void);
/* LIKWID_MARKER_GET (likwid-marker.h): the sums as likwid returns them. */
void perfctr_marker_get_likwid(const char *name, int *nevents, double *events, double *time,
			       int *count);

#ifdef __cplusplus
}
#endif

#endif /* __PERFCTR_MARKER_H */
