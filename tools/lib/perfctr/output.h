/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfex's output: the counts as text, JSON or CSV.  Apart from perfex.c
 * so that tests/perfex_output_test can print fake counts on any host.
 */
#ifndef PERFEX_OUTPUT_H
#define PERFEX_OUTPUT_H

#include <stdio.h>
#include <libperfctr.h>

#include "events.h"

/* The version of the JSON object's layout ("format"): raised when it changes. */
#define PERFEX_JSON_FORMAT	1

/*
 * The final counts: the command's own and, unless --no-inherit, its
 * descendants'; and what the output derives from them.
 */
struct perfex_counts {
	struct perfctr_sum_ctrs self;
	struct vperfctr_children children;	/* zero with --no-inherit */
	int inherit;
	double elapsed;			/* wall-clock seconds */
	int ipc;			/* events ipc_inst and ipc_cyc give the IPC */
	unsigned int ipc_inst, ipc_cyc;
	unsigned int runs;		/* -r: the counts are the runs' means */
	double noise[PERFCTR_NRCTRS + 1];	/* their spread in percent; 0: the TSC */
};

/* Everything an output needs: what ran, how it was counted, and the counts. */
struct perfex_report {
	const struct perfctr_info *info;
	const struct perfctr_cpu_control *cc;
	const struct perfex_events *ev;
	const struct perfex_counts *counts;
	char *const *argv;		/* the command, NULL-terminated */
	int status;			/* its wait status */
};

void perfex_print_text(FILE *f, const struct perfex_report *r);
/* perfctr's JSON object (--json-perfctr), PERFEX_JSON_FORMAT. */
void perfex_print_json(FILE *f, const struct perfex_report *r);
/* perf stat -j's objects, one a line, and perfctr's keys (perfex(1)). */
void perfex_print_json_perf(FILE *f, const struct perfex_report *r);
/* perf stat -x's fields, then perfctr's, one line per count (perfex(1)). */
void perfex_print_csv(FILE *f, const struct perfex_report *r, const char *sep);

#endif
