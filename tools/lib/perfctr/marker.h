/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Declarations the library's files share; not installed. */
#ifndef __PERFCTR_MARKER_INTERNAL_H
#define __PERFCTR_MARKER_INTERNAL_H

#include <stddef.h>

/* The results to the file @name ("-": standard error), in PERFCTR_MARKER_FORMAT. */
int marker_write_file(const char *name) __attribute__((visibility("hidden")));

/*
 * For perfctr_strerror()'s ENOSYS: whether the kernel has perfctr but
 * publishes no system call numbers (libperfctr.c).
 */
__attribute__((visibility("hidden"))) int perfctr_unnumbered(void);

/*
 * libperfctr.c's fork handlers, registered now if they are not yet: a
 * later fork handler that closes a vperfctr must run after them.
 */
__attribute__((visibility("hidden"))) void mapped_register_once(void);

/* likwid.c's entry points for Fortran (gfortran's names): exported, no public header. */
void likwid_markerinit_(void);
void likwid_markerthreadinit_(void);
void likwid_markernextgroup_(void);
void likwid_markerclose_(void);
void likwid_markerwritefile_(const char *markerfile, size_t len);
void likwid_markerregisterregion_(const char *regionTag, size_t len);
void likwid_markerstartregion_(const char *regionTag, size_t len);
void likwid_markerstopregion_(const char *regionTag, size_t len);
void likwid_markerresetregion_(const char *regionTag, size_t len);
void likwid_markergetregion_(const char *regionTag, int *nr_events, double *events, double *time,
			     int *count, size_t len);

#endif /* __PERFCTR_MARKER_INTERNAL_H */
