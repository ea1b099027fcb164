/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TAP output of libperfctr's test programs: "ok N name", or "not ok N
 * name # why" on failure, and skips.
 */
#ifndef PERFCTR_TESTS_TAP_H
#define PERFCTR_TESTS_TAP_H

#include <stdarg.h>
#include <stdio.h>

#include "../compiler.h"

static int nr_test, nr_fail;

static __printf(3, 4) void result(int ok, const char *name, const char *fmt, ...);
static void result(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d %s", ok ? "" : "not ", ++nr_test, name);
	/* Diagnostics on failure only: errno is stale after a success. */
	if (!ok && fmt && fmt[0] && fmt[1]) {
		printf(" # ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	printf("\n");
	fflush(stdout);
	if (!ok)
		nr_fail++;
}

#define CHECK(cond, name, ...) result(!!(cond), name, " " __VA_ARGS__)

static void skip(const char *name, const char *why)
{
	printf("ok %d %s # SKIP %s\n", ++nr_test, name, why);
	fflush(stdout);
}

#endif
