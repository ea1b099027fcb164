// SPDX-License-Identifier: GPL-2.0
/*
 * perfex - run a command with perfctr's virtual counters and print its
 * counts when it exits.
 *
 * The child creates and programs its counters before exec, so they
 * count the command (and the few instructions of the exec itself), and
 * hands the state's descriptor to perfex over a socketpair (SCM_RIGHTS).
 * The state survives exec; perfex reads the final sums through the
 * descriptor after the child has exited.  The command's children and
 * threads inherit the control (VPERFCTR_CONTROL_INHERIT, _INHERIT_THREAD;
 * not with --no-inherit) and their totals reach the command's state as
 * they exit: perfex prints the command's own counts, its descendants'
 * and the sum, as perfctr 2.7's perfex and perf stat count children.
 *
 * A failure of a perfctr call is explained by perfctr_strerror(); with
 * events asked for and the PMU held by another user (perfctr_info's
 * PERFCTR_FEATURE_PMU_BUSY) perfex refuses before it runs the command.
 *
 * On a hybrid Intel CPU an event of one core type's libpfm4 PMU counts
 * on that core type's CPUs only: the child binds itself to them first.
 *
 * The output file (-o) is opened once the command runs: a run that
 * fails before, or a command that cannot be executed, leaves an
 * existing file as it was.  output.c prints the counts.
 *
 * --marker: the command's marker API (perfctr_marker(3), likwid's
 * macros) writes its per-region table at exit to a temporary directory
 * perfex names in the environment, one file per process (PID), in
 * perfex's output format and with perfex's event names; perfex prints
 * them after the counts, in the order of the PIDs.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "compiler.h"
#include "events.h"
#include "output.h"

static const char *prog = "perfex";

/* -r: at most this many runs. */
#define PERFEX_MAX_RUNS	100000

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [options] [--] command [arguments]\n"
		"       %s -i | -l | --version\n"
		"  -e EVENT, --event=EVENT   count EVENT (repeatable, or a comma list): perf's\n"
		"                            generic names (cycles, instructions...), a\n"
		"                            libpfm4 name or raw; :u user (default), :k kernel,\n"
		"                            :uk both\n"
		"  -i, --info                print perfctr_info, the PMU's state, whether this\n"
		"                            user may program the PMCs (and why not), the CPUs\n"
		"  --no-inherit              count the command's own thread only, not its\n"
		"                            children and threads (counted by default)\n"
		"  --inherit                 the default; accepted for compatibility\n"
		"  -I MSECS                  perf stat's interval printing: refused (perfex\n"
		"                            reads the counters once, when the command exits)\n"
		"  -r N, --repeat=N          run the command N times: the counts' means and\n"
		"                            their spread (perf stat -r's, +- percent)\n"
		"  -a, -C, -p, -t            perf stat's: refused, each saying what to use\n"
		"  -l, --list                list the events of this CPU\n"
		"  --marker                  print the regions of the command's marker API\n"
		"                            (perfctr_marker(3), likwid's macros) after the counts\n"
		"  -o FILE, --output=FILE    write the counts to FILE (default: stderr),\n"
		"                            opened once the command runs\n"
		"  -j, --json, --json-output write the counts as perf stat -j's JSON lines\n"
		"  --json-perfctr            write the counts as one JSON object (format 1)\n"
		"  -x SEP, --field-separator=SEP\n"
		"                            write the counts as perf stat -x's CSV, fields\n"
		"                            separated by SEP, then self, children (perfex(1))\n"
		"  --version                 print the versions of perfex, libperfctr and the\n"
		"                            kernel's perfctr driver\n"
		"  -h, --help                this text\n"
		"Exit status: the command's (128+N: killed by signal N); 127 command not\n"
		"found, 126 not executable; 125 perfex failed (options, events, perfctr).\n"
		"Raw events: %s\n", prog, prog, perfex_event_syntax());
}

static __printf(1, 2) __noreturn void die(const char *fmt, ...);
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(125);
}

/*
 * The perfctr call @call failed with @err: what the error is and, on the
 * next line, what it means here (perfctr_strerror()).
 */
static void explain(const char *call, int err, const struct perfctr_info *info)
{
	const char *why = perfctr_strerror(err, info);

	fprintf(stderr, "%s: %s: %s\n", prog, call, strerror(err));
	if (strcmp(why, strerror(err)))
		fprintf(stderr, "%s: %s\n", prog, why);
}

/*
 * x86: put each event on a counter that can count it, as the kernel says
 * (VPERFCTR_CONTROL_VALIDATE, which asks perf's event constraints), and
 * name the event the kernel would refuse.  POWER's events name their PMC;
 * the other x86 models (P5, P6, P4) are placed as given.  On a kernel
 * without VPERFCTR_CONTROL_VALIDATE nothing is learnt: the control goes
 * as it is, and the kernel's answer is explained in the child.
 */
#ifndef _ARCH_PPC
static void place_events(struct vperfctr_control *control, struct perfex_events *ev)
{
	struct perfctr_cpu_control *cc = &control->cpu_control;
	unsigned int ok[PERFCTR_NRCTRS] = { 0 }, i, k;
	struct vperfctr_control c;
	char errbuf[512];
	int fd;

	if (!cc->nractrs || ev->pmu.model < PERFEX_MODEL_INTEL_ARCH ||
	    ev->pmu.model > PERFEX_MODEL_AMD_ZEN4)
		return;
	fd = perfctr_sys_vopen(0, VPERFCTR_OPEN_CREAT);
	if (fd < 0)
		return;
	c = *control;
	c.flags |= VPERFCTR_CONTROL_VALIDATE;
	if (!perfctr_sys_vcontrol(fd, &c) || (errno != EINVAL && errno != EOPNOTSUPP))
		goto out;
	memset(&c, 0, sizeof(c));
	c.cpu_control.tsc_on = 1;
	c.flags = VPERFCTR_CONTROL_VALIDATE;
	if (perfctr_sys_vcontrol(fd, &c))
		goto out;		/* no VPERFCTR_CONTROL_VALIDATE */
	c.cpu_control.nractrs = 1;
	for (i = 0; i < cc->nractrs; i++) {
		if (cc->pmc_map[i] >= 32)
			continue;	/* a fixed counter: its own event */
		c.cpu_control.evntsel[0] = cc->evntsel[i];
		c.cpu_control.evntsel_high[0] = cc->evntsel_high[i];
		for (k = 0; k < ev->pmu.ngeneral && k < 32; k++) {
			c.cpu_control.pmc_map[0] = k;
			if (!perfctr_sys_vcontrol(fd, &c))
				ok[i] |= 1U << k;
			else if (errno == EOPNOTSUPP)
				die("%s: %s", ev->name[i],
				    "needs more than its counter (an extra register such as OFFCORE_RSP's or the load-latency threshold, an AMD counter pair, or the sibling hyperthread kept idle), which perfctr does not program");
		}
	}
	if (perfex_place_events(cc, ev, ok, errbuf, sizeof(errbuf)))
		die("%s", errbuf);
out:
	perfctr_sys_vunlink(fd);
	close(fd);
}
#else
static void place_events(struct vperfctr_control *control, struct perfex_events *ev)
{
	(void)control;
	(void)ev;
}
#endif

/* The child's failed call it explained itself (send_state()'s what). */
#define EXPLAINED	"(explained)"

/* Child side: a status (0 or an errno) and, on success, the descriptor. */
static int send_state(int sock, int err, int fd, const char *what)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct msghdr msg = { 0 };
	struct cmsghdr *cmsg;
	struct {
		int err;
		char what[60];
	} payload = { err, "" };
	struct iovec iov = { &payload, sizeof(payload) };

	snprintf(payload.what, sizeof(payload.what), "%s", what);
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	if (fd >= 0) {
		memset(cbuf, 0, sizeof(cbuf));
		msg.msg_control = cbuf;
		msg.msg_controllen = sizeof(cbuf);
		cmsg = CMSG_FIRSTHDR(&msg);
		cmsg->cmsg_level = SOL_SOCKET;
		cmsg->cmsg_type = SCM_RIGHTS;
		cmsg->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
	}
	return sendmsg(sock, &msg, 0) < 0 ? -1 : 0;
}

/* Parent side: 0, or the child's failure as a negative errno. */
static int recv_state(int sock, int *fd, char *what, size_t whatlen)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct msghdr msg = { 0 };
	struct cmsghdr *cmsg;
	struct {
		int err;
		char what[60];
	} payload;
	struct iovec iov = { &payload, sizeof(payload) };
	ssize_t n;

	*fd = -1;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cbuf;
	msg.msg_controllen = sizeof(cbuf);
	n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	if (n != (ssize_t)sizeof(payload)) {
		snprintf(what, whatlen, "the child died before it set up its counters");
		return -EPIPE;
	}
	for (cmsg = CMSG_FIRSTHDR(&msg); cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg))
		if (cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS)
			memcpy(fd, CMSG_DATA(cmsg), sizeof(int));
	payload.what[sizeof(payload.what) - 1] = 0;
	snprintf(what, whatlen, "%s", payload.what);
	return -payload.err;
}

/*
 * May this user program the PMCs here?  Asked of the kernel: a control
 * counting perfex's "instructions" on a state of perfex's own, unlinked
 * at once.  The answer is perfctr_strerror()'s: the sysctl, the
 * capability, perf_event_paranoid, or the PMU held by someone else.
 */
static void print_pmc_permission(const struct perfctr_info *info)
{
	const char *inst = "instructions";
	struct vperfctr_control control;
	struct perfex_events ev;
	char err[256];
	unsigned int i;
	int fd, e = 0;

	if (!perfctr_info_nrctrs(info))
		return;
	memset(&control, 0, sizeof(control));
	memset(&ev, 0, sizeof(ev));
	if (perfex_add_events(info, &control.cpu_control, &ev, &inst, 1, err, sizeof(err))) {
		printf("PMCs for this user: not asked (%s)\n", err);
		return;
	}
	for (i = 0; i < ev.n; i++)
		free(ev.name[i]);
	fd = perfctr_sys_vopen(0, VPERFCTR_OPEN_CREAT);
	if (fd < 0 || perfctr_sys_vcontrol(fd, &control))
		e = errno;
	if (fd >= 0) {
		perfctr_sys_vunlink(fd);
		close(fd);
	}
	if (!e)
		printf("PMCs for this user: yes (a control counting instructions was accepted)\n");
	else
		printf("PMCs for this user: no: %s\n", perfctr_strerror(e, info));
}

static void print_info(const struct perfctr_info *info)
{
	struct perfctr_cpus_info *ci;
	struct perfex_pmu pmu;
	char desc[160];

	perfctr_info_print(info);
	if (perfctr_info_nrctrs(info)) {
		perfex_pmu_detect(info, &pmu);
		perfex_pmu_describe(&pmu, desc, sizeof(desc));
		printf("counters\t\t%s\n", desc);
	}
	if (!perfctr_info_nrctrs(info))
		printf("PMU: none (the CPU model has no programmable counters: the TSC only)\n");
	else if (info->cpu_features & PERFCTR_FEATURE_PMU_BUSY)
		printf("PMU: busy (held by perf_events, the NMI watchdog or a KVM guest)\n");
	else
		printf("PMU: free\n");
	print_pmc_permission(info);
	ci = perfctr_cpus_info(-1);
	if (ci) {
		perfctr_cpus_info_print(ci);
		free(ci);
	} else {
		printf("cpus\t\t\t(unknown: %s)\n", strerror(errno));
	}
	fflush(stdout);
}

/*
 * --marker: the environment of the command's marker (perfctr_marker(3)):
 * where it writes its table at exit, in which format, and the events' names.
 */
static int marker_env(const char *path, int json, const char *sep, const struct perfex_events *ev,
		      unsigned int n)
{
	char names[1024] = "";
	size_t len = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		len += snprintf(names + len, len < sizeof(names) ? sizeof(names) - len : 0,
				"%s%s", i ? "," : "", ev->name[i]);
	if (len >= sizeof(names))
		names[0] = 0;	/* too long: the marker says pmc0, pmc1... */
	return setenv("PERFCTR_MARKER_OUTPUT", path, 1) ||
	       setenv("PERFCTR_MARKER_FORMAT", json ? "json" : sep ? "csv-lines" : "text", 1) ||
	       (sep && setenv("PERFCTR_MARKER_SEP", sep, 1)) ||
	       setenv("PERFCTR_MARKER_NAMES", names, 1);
}

static int pid_order(const struct dirent **a, const struct dirent **b)
{
	long x = atol((*a)->d_name), y = atol((*b)->d_name);

	return x < y ? -1 : x > y;
}

static int pid_name(const struct dirent *d)
{
	return d->d_name[0] >= '0' && d->d_name[0] <= '9';
}

/*
 * --marker: the tables of the command's processes (their files in @dir,
 * by PID) into @tmp, and @dir removed.
 */
static void marker_collect(const char *dir, FILE *tmp)
{
	struct dirent **names;
	char path[4096], buf[4096];
	size_t n;
	FILE *f;
	int i, k;

	k = scandir(dir, &names, pid_name, pid_order);
	for (i = 0; i < k; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		f = fopen(path, "r");
		while (f && tmp && (n = fread(buf, 1, sizeof(buf), f)) > 0)
			fwrite(buf, 1, n, tmp);
		if (f)
			fclose(f);
		unlink(path);
		free(names[i]);
	}
	if (k >= 0)
		free(names);
	rmdir(dir);
}

/* --marker: the command's tables after the counts, or why there is none. */
static void marker_copy(FILE *out, FILE *tmp)
{
	char buf[4096];
	size_t n;
	int any = 0;

	if (!out || !tmp || fseek(tmp, 0, SEEK_SET))
		return;
	fflush(out);
	while ((n = fread(buf, 1, sizeof(buf), tmp)) > 0) {
		fwrite(buf, 1, n, out);
		any = 1;
	}
	if (!any)
		fprintf(stderr, "%s: --marker: %s\n", prog,
			"the command wrote no regions (no perfctr_marker_init(), or likwid's macros without -DLIKWID_PERFMON)");
}

/* perfex's and libperfctr's versions, and the kernel's perfctr driver's. */
static void print_version(void)
{
	struct perfctr_info info;

	printf("perfex %d.%d (libperfctr %d.%d)\n", LIBPERFCTR_VERSION_MAJOR,
	       LIBPERFCTR_VERSION_MINOR, LIBPERFCTR_VERSION_MAJOR, LIBPERFCTR_VERSION_MINOR);
	if (perfctr_sys_info(&info, NULL, NULL))
		printf("perfctr driver: none (%s)\n", perfctr_strerror(errno, NULL));
	else
		printf("perfctr driver %.*s, ABI 0x%08x\n", (int)sizeof(info.driver_version),
		       info.driver_version, info.abi_version);
}

static double seconds(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) + (b->tv_nsec - a->tv_nsec) / 1e9;
}

/* Is @what a perfctr call the child made (for its explanation)? */
static int perfctr_call(const char *what)
{
	return !strcmp(what, "vperfctr_open") || !strcmp(what, "vperfctr_control");
}

/*
 * The output file, opened once the command runs: a failure leaves the
 * counts on standard error and perfex's status 125.
 */
static FILE *open_output(const char *name, int *failed)
{
	FILE *f;

	if (!name)
		return stderr;
	f = fopen(name, "w");
	if (f)
		return f;
	fprintf(stderr, "%s: %s: %s (the counts go to standard error)\n", prog, name,
		strerror(errno));
	*failed = 1;
	return stderr;
}

/* One run of the command: its counts and how it ended. */
struct run_result {
	struct perfctr_sum_ctrs self;
	struct vperfctr_children children;
	double elapsed;
	int status;
	unsigned int stops;		/* the state's VPERFCTR_STOP_* bits */
	FILE *mtmp;			/* --marker: the command's tables */
};

/*
 * Run the command once with @control: -1 when it ran and *@res has its
 * counts, or perfex's exit status when it did not (perfex's failure,
 * 125; the command's exec failure, 126 or 127).
 */
static int run_once(const struct vperfctr_control *control, const struct perfctr_info *info,
		    const struct perfex_events *ev, const cpu_set_t *cpus, int marker, int json,
		    const char *sep, char *const *cmd, struct run_result *res)
{
	int inherit = !!(control->flags & VPERFCTR_CONTROL_INHERIT);
	char mdir[] = "/tmp/perfex-marker.XXXXXX", mpath[sizeof(mdir) + 3];
	const struct vperfctr_state *st;
	int sv[2], fd, err, status, exec_fd, exec_failed = 0;
	char what[64], exec_what[64];
	struct timespec t0, t1;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		die("socketpair: %s: perfex needs a kernel with CONFIG_NET and CONFIG_UNIX",
		    strerror(errno));
	/* The marker's tables: a directory the command's processes write in, removed below. */
	if (marker) {
		if (!mkdtemp(mdir))
			die("--marker: %s: %s", mdir, strerror(errno));
		snprintf(mpath, sizeof(mpath), "%s/%%p", mdir);
	}
	fflush(NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		if (marker)
			rmdir(mdir);
		die("fork: %s", strerror(errno));
	}
	if (pid == 0) {
		close(sv[0]);
		if (marker && marker_env(mpath, json, sep, ev, control->cpu_control.nractrs)) {
			send_state(sv[1], errno, -1, "setenv");
			_exit(127);
		}
		if (cpus && sched_setaffinity(0, sizeof(*cpus), cpus)) {
			send_state(sv[1], errno, -1, "sched_setaffinity");
			_exit(127);
		}
		fd = perfctr_sys_vopen(0, VPERFCTR_OPEN_CREAT);
		if (fd < 0) {
			send_state(sv[1], errno, -1, "vperfctr_open");
			_exit(127);
		}
		/*
		 * No VPERFCTR_CONTROL_CLOEXEC: the counters must survive exec.
		 * A failure is explained here, in the thread that asked:
		 * perfctr_strerror()'s EACCES advice goes by its control.
		 */
		if (perfctr_sys_vcontrol(fd, control)) {
			err = errno;
			explain("vperfctr_control", err, info);
			send_state(sv[1], err, -1, EXPLAINED);
			_exit(127);
		}
		if (send_state(sv[1], 0, fd, ""))
			_exit(127);
		close(fd);
		/* A successful exec closes sv[1] (close-on-exec): perfex sees its end. */
		execvp(cmd[0], cmd);
		err = errno;
		fprintf(stderr, "%s: %s: %s\n", prog, cmd[0], strerror(err));
		send_state(sv[1], err, -1, "exec");
		_exit(err == ENOENT ? 127 : 126);
	}
	close(sv[1]);
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	err = recv_state(sv[0], &fd, what, sizeof(what));
	/* Then the end of the stream at the exec, or the exec's failure. */
	if (!err && recv_state(sv[0], &exec_fd, exec_what, sizeof(exec_what)) != -EPIPE)
		exec_failed = 1;
	close(sv[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid: %s", strerror(errno));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	res->elapsed = seconds(&t0, &t1);
	res->status = status;
	res->mtmp = NULL;
	if (marker) {
		res->mtmp = tmpfile();
		marker_collect(mdir, res->mtmp);
	}
	if (err) {
		if (!strcmp(what, EXPLAINED))
			return 125;
		if (perfctr_call(what))
			explain(what, -err, info);
		else
			fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(-err));
		return 125;
	}
	if (fd < 0)
		die("no descriptor from the child");
	if (exec_failed) {
		/* The command did not run (the child said why): no counts. */
		close(fd);
		return WIFEXITED(status) ? WEXITSTATUS(status) : 127;
	}
	/* The command's threads and children are gone: the merges are done. */
	memset(&res->children, 0, sizeof(res->children));
	if (perfctr_sys_vread(fd, &res->self, NULL, inherit ? &res->children : NULL))
		die("vperfctr_read: %s", strerror(errno));
	/* Whether its counters stopped short (a kernel before the word leaves 0). */
	st = perfctr_sys_vmap(fd);
	res->stops = st ? st->stops : 0;
	perfctr_sys_vunmap(st);
	close(fd);
	return -1;
}

/* --repeat: the runs' counts, for their means and spread (Welford's sums). */
struct run_acc {
	double mean[PERFCTR_NRCTRS + 1], m2[PERFCTR_NRCTRS + 1];	/* 0: the TSC */
	double self[PERFCTR_NRCTRS + 1], children[PERFCTR_NRCTRS + 1], elapsed;
	unsigned int merged, unmerged, running, stops;
};

static void run_add(struct run_acc *a, const struct perfex_counts *c,
		    const struct run_result *r, unsigned int n)
{
	unsigned int i;
	double x, d;

	for (i = 0; i <= PERFCTR_NRCTRS; i++) {
		unsigned long long s = i ? r->self.pmc[i - 1] : r->self.tsc;
		unsigned long long k = i ? r->children.sum.pmc[i - 1] : r->children.sum.tsc;

		x = (double)s + (c->inherit ? (double)k : 0);
		d = x - a->mean[i];
		a->mean[i] += d / n;
		a->m2[i] += d * (x - a->mean[i]);
		a->self[i] += (double)s;
		a->children[i] += (double)k;
	}
	a->elapsed += r->elapsed;
	a->merged += r->children.nr_merged;
	a->unmerged += r->children.nr_unmerged;
	a->running += r->children.nr_running;
	a->stops |= r->stops;
}

/*
 * Counts that stopped short are printed as they are, and said so on
 * standard error: the command's own (the state's stops), and
 * descendants left out of the children's sums.
 */
static void short_counts(const struct run_acc *a, const struct perfex_counts *c)
{
	if (a->stops & VPERFCTR_STOP_FORBIDDEN_CPU)
		fprintf(stderr,
			"%s: warning: the command's counts stop short: it ran on a CPU its events cannot count on (its affinity was widened or moved after perfex set it)\n",
			prog);
	if (a->stops & VPERFCTR_STOP_REVOKED)
		fprintf(stderr,
			"%s: warning: the command's counts stop short: kernel.perfctr_access was lowered while it ran\n",
			prog);
	if (c->inherit && a->unmerged)
		fprintf(stderr,
			"%s: warning: %u of the command's threads and processes are not in the children's counts (they changed their control, got no counters, or their counters stopped short)\n",
			prog, a->unmerged);
}

/* The square root of @x >= 0 by Newton's method: perfex needs no libm. */
static double root(double x)
{
	double r = x > 1 ? x : 1, prev = 0;
	int i;

	if (x <= 0)
		return 0;
	for (i = 0; i < 2100 && r != prev; i++) {
		prev = r;
		r = (r + x / r) / 2;
	}
	return r;
}

/*
 * The counts of @n runs: each part's mean, and perf stat's spread, the
 * standard deviation of the mean in percent of it.
 */
static void run_mean(const struct run_acc *a, struct perfex_counts *c, unsigned int n)
{
	unsigned int i;

	c->runs = n;
	for (i = 0; i <= PERFCTR_NRCTRS; i++) {
		unsigned long long s = (unsigned long long)(a->self[i] / n + 0.5);
		unsigned long long k = (unsigned long long)(a->children[i] / n + 0.5);

		if (i) {
			c->self.pmc[i - 1] = s;
			c->children.sum.pmc[i - 1] = k;
		} else {
			c->self.tsc = s;
			c->children.sum.tsc = k;
		}
		c->noise[i] = n > 1 && a->mean[i] ?
			100.0 * root(a->m2[i] / (n - 1) / n) / a->mean[i] : 0;
	}
	c->elapsed = a->elapsed / n;
	c->children.nr_merged = a->merged;
	c->children.nr_unmerged = a->unmerged;
	c->children.nr_running = a->running;
}

int main(int argc, char **argv)
{
	enum { OPT_NO_INHERIT = 256, OPT_INHERIT, OPT_JSON_PERFCTR, OPT_VERSION, OPT_MARKER };
	static const struct option opts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "info", no_argument, NULL, 'i' },
		{ "inherit", no_argument, NULL, OPT_INHERIT },
		{ "interval-print", required_argument, NULL, 'I' },
		{ "no-inherit", no_argument, NULL, OPT_NO_INHERIT },
		{ "list", no_argument, NULL, 'l' },
		{ "marker", no_argument, NULL, OPT_MARKER },
		{ "output", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ "json-output", no_argument, NULL, 'j' },
		{ "json-perfctr", no_argument, NULL, OPT_JSON_PERFCTR },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct vperfctr_control control;
	struct perfex_counts counts = { 0 };
	struct perfex_events ev = { 0 };
	struct perfex_report report;
	struct perfctr_info info;
	int opt, info_opt = 0, list = 0, json = 0, err, status = 0, rc;
	const char *outname = NULL, *sep = NULL, **specs;
	int nspecs = 0, bind, out_failed = 0, marker = 0;
	unsigned int run, runs = 1;
	struct run_acc acc = { 0 };
	FILE *mtmp = NULL, *out = NULL;
	char errbuf[1024], *end;
	unsigned long v;
	cpu_set_t cpus;

	specs = calloc(argc, sizeof(*specs));
	if (!specs)
		die("out of memory");
	memset(&control, 0, sizeof(control));
	control.cpu_control.tsc_on = 1;
	counts.inherit = 1;
	while ((opt = getopt_long(argc, argv, "+e:iI:lo:jx:har:C:p:t:", opts, NULL)) != -1) {
		switch (opt) {
		case 'a':
		case 'C':
			fprintf(stderr,
				"%s: -%c: perfex counts a command's threads, not CPUs: for system-wide or per-CPU counts use perf stat -%c\n",
				prog, opt, opt);
			return 125;
		case 'p':
		case 't':
			fprintf(stderr,
				"%s: -%c %s: perfex counts a command it starts: a running thread's counters are set up in that thread (vperfctr_open(), the markers) or by its tracer; to attach, use perf stat -%c\n",
				prog, opt, optarg, opt);
			return 125;
		case 'r':
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || !v || v > PERFEX_MAX_RUNS) {
				fprintf(stderr,
					"%s: -r %s: the number of runs is 1 to %u (perf stat's -r 0, run until interrupted, is not perfex's)\n",
					prog, optarg, PERFEX_MAX_RUNS);
				return 125;
			}
			runs = v;
			break;
		case 'e':
			specs[nspecs++] = optarg;
			break;
		case 'i':
			info_opt = 1;
			break;
		case OPT_INHERIT:
			/* The default: kept for the scripts of perfex 2.7's users. */
			break;
		case 'I':
			fprintf(stderr,
				"%s: -I %s: perf stat's interval printing is not perfex's: perfex reads the counters once, when the command has exited (perfex's old -I is --inherit, the default)\n",
				prog, optarg);
			return 125;
		case OPT_NO_INHERIT:
			counts.inherit = 0;
			break;
		case 'l':
			list = 1;
			break;
		case OPT_MARKER:
			marker = 1;
			break;
		case 'o':
			outname = optarg;
			break;
		case 'j':
			json = 1;
			break;
		case OPT_JSON_PERFCTR:
			json = 2;
			break;
		case OPT_VERSION:
			print_version();
			return 0;
		case 'x':
			sep = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 125;
		}
	}
	if (sep && (!*sep || json)) {
		fprintf(stderr, "%s: %s\n", prog, *sep ? "-x and -j exclude each other" :
			"-x needs a separator (-x , for commas)");
		usage(stderr);
		return 125;
	}
	if (marker && runs > 1) {
		fprintf(stderr, "%s: %s\n", prog,
			"--marker and -r exclude each other: the regions are one run's");
		return 125;
	}
	if (optind >= argc && !info_opt && !list) {
		fprintf(stderr, "%s: %s\n", prog,
			"no command: perfex counts a command it runs (-i and -l need none)");
		usage(stderr);
		return 125;
	}
	if (counts.inherit)
		control.flags = VPERFCTR_CONTROL_INHERIT | VPERFCTR_CONTROL_INHERIT_THREAD;
	/* On a kernel without perfctr the library fails it without a system call. */
	if (perfctr_sys_info(&info, NULL, NULL)) {
		err = errno;
		/* -l alone lists libpfm4's events without perfctr. */
		if (list && !info_opt && !nspecs && optind >= argc) {
			perfex_list_events(stdout, NULL);
			return 0;
		}
		/* A misspelt event is worth knowing before one boots another kernel. */
		if (nspecs && perfex_check_events(specs, nspecs, errbuf, sizeof(errbuf)))
			fprintf(stderr, "%s: %s\n", prog, errbuf);
		explain("perfctr_info", err, NULL);
		return 125;
	}
	if (perfex_add_events(&info, &control.cpu_control, &ev, specs, nspecs, errbuf,
			      sizeof(errbuf)))
		die("%s", errbuf);
	if (info_opt && optind < argc)
		fprintf(stderr,
			"%s: -i with a command: the information first, then the command is counted\n",
			prog);
	if (info_opt)
		print_info(&info);
	if (list)
		perfex_list_events(stdout, &info);
	if (optind >= argc)
		return 0;
	place_events(&control, &ev);
	/* Events while another user holds the PMU: refused before the command runs. */
	if (control.cpu_control.nractrs && info.cpu_features & PERFCTR_FEATURE_PMU_BUSY) {
		explain("the PMU is busy (perfctr_info)", EBUSY, &info);
		return 125;
	}
	counts.ipc = perfex_ipc_events(&info, &control.cpu_control, &ev, &counts.ipc_inst,
				       &counts.ipc_cyc);
	/* The CPUs of the core type the events need (hybrid Intel CPUs). */
	bind = perfex_events_cpus(&ev, NULL, NULL, &cpus, errbuf, sizeof(errbuf));
	if (bind < 0)
		die("%s", errbuf);
	for (run = 0; run < runs; run++) {
		struct run_result r;

		rc = run_once(&control, &info, &ev, bind ? &cpus : NULL, marker, json, sep,
			      &argv[optind], &r);
		if (rc >= 0)
			return rc;
		if (!out)
			out = open_output(outname, &out_failed);
		status = r.status;
		mtmp = r.mtmp;
		run_add(&acc, &counts, &r, run + 1);
		/* A command killed by a signal (^C) ends the repeats. */
		if (WIFSIGNALED(status)) {
			run++;
			break;
		}
	}
	run_mean(&acc, &counts, run);
	report = (struct perfex_report){ &info, &control.cpu_control, &ev, &counts,
					 &argv[optind], status };
	if (json == 1)
		perfex_print_json_perf(out, &report);
	else if (json)
		perfex_print_json(out, &report);
	else if (sep)
		perfex_print_csv(out, &report, sep);
	else
		perfex_print_text(out, &report);
	if (marker)
		marker_copy(out, mtmp);
	short_counts(&acc, &counts);
	if (out != stderr && fclose(out))
		die("%s: %s", outname, strerror(errno));
	if (out_failed)
		return 125;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
