/* SPDX-License-Identifier: GPL-2.0 */
/* The perfctr selftests' access to the sysctls they change. */
#ifndef _PERFCTR_SYSCTL_UTIL_H
#define _PERFCTR_SYSCTL_UTIL_H

#include <stdio.h>

#define ACCESS_SYSCTL	"/proc/sys/kernel/perfctr_access"
#define PARANOID_SYSCTL	"/proc/sys/kernel/perf_event_paranoid"
#define SYSCTL_ABSENT	-1000

/* The integer in @path, or SYSCTL_ABSENT. */
static inline int read_int(const char *path)
{
	FILE *f = fopen(path, "r");
	int v = SYSCTL_ABSENT;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = SYSCTL_ABSENT;
		fclose(f);
	}
	return v;
}

/* 0, or -1 if @path cannot be written (or the kernel refuses @v). */
static inline int write_int(const char *path, int v)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	ok = fprintf(f, "%d\n", v) > 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/*
 * For a test that drops to user nobody: perf_event_paranoid 2 (where it
 * exists) and kernel.perfctr_access @access, the values found kept in
 * *@old and *@paranoid for sysctls_restore().  0, or -1.
 */
static inline int sysctls_for_nobody(int access, int *old, int *paranoid)
{
	*old = read_int(ACCESS_SYSCTL);
	*paranoid = read_int(PARANOID_SYSCTL);
	if (*old < 0)
		return -1;
	if (*paranoid != SYSCTL_ABSENT && write_int(PARANOID_SYSCTL, 2))
		return -1;
	return write_int(ACCESS_SYSCTL, access);
}

static inline int sysctls_restore(int old, int paranoid)
{
	if (write_int(ACCESS_SYSCTL, old))
		return -1;
	return paranoid == SYSCTL_ABSENT ? 0 : write_int(PARANOID_SYSCTL, paranoid);
}

#endif
