// SPDX-License-Identifier: GPL-2.0
/*
 * guest-init: /init of the test initramfs where there is no busybox for
 * the guest's architecture.  Mounts /proc, /sys and /dev, prints the
 * kernel's perfctr lines, runs each "PREFIX command args..." line of
 * /tests/run (lines "ENV NAME=VALUE" set the environment), prefixing the
 * command's output lines with "PREFIX: " (none for "raw-NAME"), then
 * powers off (x86: resets).  Each command's end is "PERFCTR-TIME PREFIX
 * SECONDS s" and "PERFCTR-EXIT PREFIX STATUS" (128: killed by a signal).
 * With PERFCTR_TIMEOUT=N in the environment a command runs in a process
 * group of its own, killed (SIGKILL, "PERFCTR-TIMEOUT PREFIX") after N
 * seconds, and what is left of the group when the command exits is
 * killed too: a stopped or looping descendant would otherwise hold the
 * output pipe open and the run would wait for it.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile pid_t child;		/* the group of the running command */
static volatile int child_status, child_done, timed_out;

static void on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
	kill(-child, SIGKILL);
}

/* The command exited: reap it, and end what it left behind. */
static void on_chld(int sig)
{
	int status;

	(void)sig;
	if (!child_done && waitpid(child, &status, WNOHANG) == child) {
		child_status = status;
		child_done = 1;
		kill(-child, SIGKILL);
	}
}

static void run(char *prefix, char *cmd)
{
	char *argv[16], line[4096], *timeout = getenv("PERFCTR_TIMEOUT");
	int n = 0, fds[2], status, raw, bol = 1;
	struct sigaction sa = { 0 };
	struct timespec t0, t1;
	FILE *out;
	pid_t pid;

	for (char *t = strtok(cmd, " \n"); t && n < 15; t = strtok(NULL, " \n"))
		argv[n++] = t;
	argv[n] = NULL;
	if (!n || pipe(fds))
		return;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	child_done = timed_out = 0;
	if (timeout) {
		/*
		 * SA_RESTART: without it the command's SIGCHLD could interrupt
		 * a write of its output to the console, and stdio then dropped
		 * the line (once, a ctest's last line).  The read below ends at
		 * EOF, which the handlers' kill of the group brings.
		 */
		sa.sa_flags = SA_RESTART;
		sa.sa_handler = on_alarm;
		sigaction(SIGALRM, &sa, NULL);
		sa.sa_handler = on_chld;
		sigaction(SIGCHLD, &sa, NULL);
	}
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		if (timeout) {
			setpgid(0, 0);
			signal(SIGALRM, SIG_DFL);
			signal(SIGCHLD, SIG_DFL);
		}
		execv(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	if (timeout) {
		setpgid(pid, pid);
		child = pid;
		on_chld(SIGCHLD);	/* it may have exited already */
		alarm(atoi(timeout));
	}
	close(fds[1]);
	out = fdopen(fds[0], "r");
	raw = !strncmp(prefix, "raw-", 4);
	/* Long lines come in pieces: the prefix goes at the start of a line only. */
	while (out && fgets(line, sizeof(line), out)) {
		if (!raw && bol)
			printf("%s: ", prefix);
		fputs(line, stdout);
		bol = strchr(line, '\n') != NULL;
	}
	if (!bol)
		putchar('\n');
	if (out)
		fclose(out);
	if (timeout) {
		alarm(0);
		while (!child_done) {
			/* ECHILD: on_chld has reaped it. */
			if (waitpid(pid, &status, 0) == pid) {
				child_status = status;
				child_done = 1;
				kill(-pid, SIGKILL);
			}
		}
		status = child_status;
		signal(SIGCHLD, SIG_DFL);
		if (timed_out)
			printf("PERFCTR-TIMEOUT %s\n", raw ? prefix + 4 : prefix);
	} else {
		waitpid(pid, &status, 0);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("PERFCTR-TIME %s %.1f s\n", raw ? prefix + 4 : prefix,
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	printf("PERFCTR-EXIT %s %d\n", raw ? prefix + 4 : prefix, WIFEXITED(status) ? WEXITSTATUS(status) : 128);
	fflush(stdout);
}

int main(void)
{
	static char buf[1 << 17];
	char line[512], *p, *nl;
	struct utsname u;
	FILE *f;
	int len;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sys", "/sys", "sysfs", 0, NULL);
	mount("dev", "/dev", "devtmpfs", 0, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	uname(&u);
	printf("PERFCTR-BOOTED %s\n", u.release);
	len = klogctl(3, buf, sizeof(buf) - 1);
	buf[len > 0 ? len : 0] = 0;
	for (p = buf; *p; p = nl + 1) {
		nl = strchrnul(p, '\n');
		if (memmem(p, nl - p, "perfctr", 7))
			printf("dmesg: %.*s\n", (int)(nl - p), p);
		if (!*nl)
			break;
	}
	if (chdir("/tests") == 0 && (f = fopen("run", "r"))) {
		while (fgets(line, sizeof(line), f)) {
			p = strchr(line, ' ');
			if (!p)
				continue;
			*p++ = 0;
			p[strcspn(p, "\n")] = 0;
			if (!strcmp(line, "ENV"))
				putenv(strdup(p));
			else
				run(line, p);
		}
		fclose(f);
	}
	printf("PERFCTR-DONE\n");
	sync();
#if defined(__i386__) || defined(__x86_64__)
	/*
	 * No ACPI power-off without PCI (the x86_64 test kernel halts
	 * instead): QEMU's -no-reboot ends at the reset.
	 */
	reboot(RB_AUTOBOOT);
#else
	reboot(RB_POWER_OFF);
#endif
	return 0;
}
