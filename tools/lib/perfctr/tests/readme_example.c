// SPDX-License-Identifier: GPL-2.0
/*
 * The example of the README ("A first program"), as a user builds it:
 * run-tests.sh compiles it against the installed library with nothing
 * but pkg-config's flags and the C library's headers.
 */
/* cc t.c $(pkg-config --cflags --libs libperfctr) */
#include <errno.h>
#include <stdio.h>
#include <libperfctr.h>

int main(void)
{
	struct vperfctr_control c = { 0 };
	struct vperfctr *v = vperfctr_open();

	if (!v) {
		fprintf(stderr, "vperfctr_open: %s\n",
			perfctr_strerror(errno, NULL));
		return 1;
	}
	c.cpu_control.tsc_on = 1;	/* powerpc: the timebase */
	c.cpu_control.nractrs = 1;	/* one PMC, instructions: */
#ifdef _ARCH_PPC
	c.cpu_control.pmc_map[0] = 4;	/* POWER8-10's PMC5 */
	c.cpu_control.ppc.mmcr0 = 0x40000000;	/* FCS: user only */
#else
	c.cpu_control.pmc_map[0] = 0;
	c.cpu_control.evntsel[0] = 0x4100c0;	/* x86, user mode */
#endif
	if (vperfctr_control(v, &c)) {
		fprintf(stderr, "vperfctr_control: %s\n",
			perfctr_strerror(errno, NULL));
		return 1;
	}
	/* ... work ... then the fast reads: no system call */
	printf("%llu TSC ticks, %llu instructions\n",
	       vperfctr_read_tsc(v), vperfctr_read_pmc(v, 0));
	vperfctr_unlink(v);
	vperfctr_close(v);
	return 0;
}
