// SPDX-License-Identifier: GPL-2.0
/*
 * The example of the README ("Using it on a real machine"), as a user
 * builds it: run-tests.sh compiles it against the installed library
 * with nothing but pkg-config's flags and the C library's headers.
 */
/* cc t.c $(pkg-config --cflags --libs libperfctr) */
#include <errno.h>
#include <stdio.h>
#include <libperfctr.h>

int main(void)
{
	struct vperfctr *v = vperfctr_open();
	struct vperfctr_control c = { 0 };

	if (!v)
		return 1;
	c.cpu_control.tsc_on = 1;
	c.cpu_control.nractrs = 1;		/* one counting PMC */
	c.cpu_control.pmc_map[0] = 0;
	c.cpu_control.evntsel[0] = 0x4100c0;	/* x86: instructions, user */
	if (vperfctr_control(v, &c)) {
		fprintf(stderr, "%s\n", perfctr_strerror(errno, NULL));
		return 1;
	}
	/* ... work ... then the fast reads: no system call */
	printf("%llu TSC ticks, %llu instructions\n",
	       vperfctr_read_tsc(v), vperfctr_read_pmc(v, 0));
	vperfctr_unlink(v);
	vperfctr_close(v);
	return 0;
}
