/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* marker.c's calls for likwid.c: in the library, not exported. */
#ifndef __PERFCTR_MARKER_INTERNAL_H
#define __PERFCTR_MARKER_INTERNAL_H

/* The results to the file @name ("-": standard error), in PERFCTR_MARKER_FORMAT. */
int marker_write_file(const char *name) __attribute__((visibility("hidden")));

#endif /* __PERFCTR_MARKER_INTERNAL_H */
