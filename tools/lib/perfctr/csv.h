/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* A CSV field as perfex and the marker write it; not installed. */
#ifndef PERFCTR_CSV_H
#define PERFCTR_CSV_H

#include <stdio.h>
#include <string.h>

/* @s as a CSV field: quoted (and its quotes doubled) if it holds @sep, a quote or a newline. */
static inline void perfctr_csv_field(FILE *f, const char *s, const char *sep)
{
	if (!strstr(s, sep) && !strpbrk(s, "\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

#endif /* PERFCTR_CSV_H */
