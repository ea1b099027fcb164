// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * likwid's marker functions (likwid.h, likwid_marker(3)) on libperfctr's
 * marker API, with likwid's prototypes and results (0 or -errno), and
 * the entry points of likwid's Fortran module (likwid.f90): gfortran's
 * names (lower case, a trailing underscore) and its hidden lengths of
 * the character arguments, after the others.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "likwid.h"
#include "marker.h"
#include "perfctr_marker.h"

void likwid_markerInit(void)
{
	perfctr_marker_init();	/* a failure is said on standard error */
}

void likwid_markerThreadInit(void)
{
	perfctr_marker_thread_init();
}

/* One event set: no group to switch to. */
void likwid_markerNextGroup(void)
{
}

void likwid_markerClose(void)
{
	perfctr_marker_close();
}

static int ret(int r)
{
	return r ? -(errno ? errno : EINVAL) : 0;
}

int likwid_markerWriteFile(const char *markerfile)
{
	if (!markerfile)
		return -EFAULT;
	return ret(marker_write_file(markerfile));
}

int likwid_markerRegisterRegion(const char *regionTag)
{
	return ret(perfctr_marker_register(regionTag));
}

int likwid_markerStartRegion(const char *regionTag)
{
	return ret(perfctr_marker_start(regionTag));
}

int likwid_markerStopRegion(const char *regionTag)
{
	return ret(perfctr_marker_stop(regionTag));
}

int likwid_markerResetRegion(const char *regionTag)
{
	return ret(perfctr_marker_reset(regionTag));
}

void likwid_markerGetRegion(const char *regionTag, int *nr_events, double *events, double *time,
			    int *count)
{
	perfctr_marker_get_likwid(regionTag, nr_events, events, time, count);
}

/*
 * Fortran.  A CHARACTER argument is its address and, after the other
 * arguments, its length (size_t since gfortran 8), blank-padded.
 */
#define FORTRAN_NAME_MAX	PERFCTR_MARKER_NAME_MAX

/* @s of length @len without its trailing blanks, as a C string in @buf. */
static const char *fstring(const char *s, size_t len, char *buf)
{
	while (len > 0 && s[len - 1] == ' ')
		len--;
	if (len > FORTRAN_NAME_MAX)
		len = FORTRAN_NAME_MAX + 1;	/* too long: the marker refuses it */
	memcpy(buf, s, len);
	buf[len] = 0;
	return buf;
}

void likwid_markerinit_(void)
{
	likwid_markerInit();
}

void likwid_markerthreadinit_(void)
{
	likwid_markerThreadInit();
}

void likwid_markernextgroup_(void)
{
}

void likwid_markerclose_(void)
{
	likwid_markerClose();
}

void likwid_markerwritefile_(const char *markerfile, size_t len)
{
	char *name = malloc(len + 1);

	if (!name)
		return;
	while (len > 0 && markerfile[len - 1] == ' ')
		len--;
	memcpy(name, markerfile, len);
	name[len] = 0;
	likwid_markerWriteFile(name);
	free(name);
}

void likwid_markerregisterregion_(const char *regionTag, size_t len)
{
	char buf[FORTRAN_NAME_MAX + 2];

	likwid_markerRegisterRegion(fstring(regionTag, len, buf));
}

void likwid_markerstartregion_(const char *regionTag, size_t len)
{
	char buf[FORTRAN_NAME_MAX + 2];

	likwid_markerStartRegion(fstring(regionTag, len, buf));
}

void likwid_markerstopregion_(const char *regionTag, size_t len)
{
	char buf[FORTRAN_NAME_MAX + 2];

	likwid_markerStopRegion(fstring(regionTag, len, buf));
}

void likwid_markerresetregion_(const char *regionTag, size_t len)
{
	char buf[FORTRAN_NAME_MAX + 2];

	likwid_markerResetRegion(fstring(regionTag, len, buf));
}

void likwid_markergetregion_(const char *regionTag, int *nr_events, double *events, double *time,
			     int *count, size_t len)
{
	char buf[FORTRAN_NAME_MAX + 2];

	likwid_markerGetRegion(fstring(regionTag, len, buf), nr_events, events, time, count);
}
