// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * libperfctr: system-call wrappers and the perfctr 2.7 handle interface
 * (struct vperfctr, struct rvperfctr) on today's perfctr system calls.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "marker.h"
#include "libperfctr.h"

/*
 * perfctr's system-call numbers are not reserved upstream: on a kernel
 * without perfctr they may one day be another call's.  The kernel
 * publishes them in /sys/kernel/perfctr/syscalls/ (one file a call, the
 * per-thread ones with CONFIG_PERFCTR_VIRTUAL), and the library calls
 * the numbers it reads there, never its own: a call the kernel does not
 * name fails with ENOSYS, and so does every call on a kernel without the
 * directory.  A kernel that has perfctr but publishes no numbers (the
 * sysctl kernel.perfctr_access, or CONFIG_PERFCTR=y in its
 * /boot/config-RELEASE, with no /sys/kernel/perfctr: sysfs not mounted,
 * or a kernel from before the numbers were published) is refused the
 * same way, and perfctr_strerror() says which.  Read once per process
 * (racing threads read twice, to the same answer), with
 * async-signal-safe calls only: a child may call the library between
 * fork() and exec().  PERFCTR_SYSFS_ROOT, for the tests, names another
 * directory to read in place of /sys/kernel/perfctr.
 */
#define PERFCTR_SYSFS		"/sys/kernel/perfctr"
#define PERFCTR_ACCESS_SYSCTL	"/proc/sys/kernel/perfctr_access"
#define KERNEL_CONFIG_PREFIX	"/boot/config-"

enum {
	NR_INFO, NR_VOPEN, NR_VCONTROL, NR_VUNLINK, NR_VIRESUME, NR_VREAD, NR_VSUSPEND, NR_VRESUME,
	NR_CALLS
};

static const char *const call_names[NR_CALLS] = {
	[NR_INFO] = "perfctr_info",
	[NR_VOPEN] = "vperfctr_open",
	[NR_VCONTROL] = "vperfctr_control",
	[NR_VUNLINK] = "vperfctr_unlink",
	[NR_VIRESUME] = "vperfctr_iresume",
	[NR_VREAD] = "vperfctr_read",
	[NR_VSUSPEND] = "vperfctr_suspend",
	[NR_VRESUME] = "vperfctr_resume",
};

static long call_nr[NR_CALLS];	/* as published; -1: not there */

static int kernel_config_has_perfctr(void)
{
	static const char key[] = "\nCONFIG_PERFCTR=y\n";
	const size_t keep = sizeof(key) - 2;	/* a key cut by a read */
	char path[sizeof(KERNEL_CONFIG_PREFIX) + sizeof(((struct utsname *)0)->release)];
	char buf[4096];
	struct utsname u;
	size_t have;
	ssize_t n;
	int fd, found = 0;

	if (uname(&u))
		return 0;
	memcpy(path, KERNEL_CONFIG_PREFIX, sizeof(KERNEL_CONFIG_PREFIX) - 1);
	memcpy(path + sizeof(KERNEL_CONFIG_PREFIX) - 1, u.release, sizeof(u.release));
	path[sizeof(path) - 1] = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	buf[0] = '\n';		/* the first line is a line too */
	have = 1;
	while (!found) {
		n = read(fd, buf + have, sizeof(buf) - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		have += n;
		found = !!memmem(buf, have, key, sizeof(key) - 1);
		if (have > keep) {
			memmove(buf, buf + have - keep, keep);
			have = keep;
		}
	}
	close(fd);
	return found;
}

/* @path's decimal number, or -1. */
static long read_number(const char *path)
{
	char buf[24];
	long v = 0;
	ssize_t n;
	int fd, i;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	do
		n = read(fd, buf, sizeof(buf) - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n <= 0)
		return -1;
	for (i = 0; i < n && buf[i] >= '0' && buf[i] <= '9'; i++) {
		if (v > 100000000)
			return -1;
		v = v * 10 + (buf[i] - '0');
	}
	return i > 0 && (i == n || buf[i] == '\n') ? v : -1;
}

/* The directory the numbers are read from. */
static const char *sysfs_root(void)
{
	const char *root = secure_getenv("PERFCTR_SYSFS_ROOT");

	return root && *root ? root : PERFCTR_SYSFS;
}

/*
 * 0: not yet read; 1: perfctr, its numbers read; -1: no perfctr;
 * -2: perfctr without published numbers (perfctr_strerror() says so).
 */
static int perfctr_probed;

static int probe(void)
{
	const char *root = sysfs_root();
	char path[4096];
	struct stat st;
	size_t len = strlen(root);
	int i;

	if (len + sizeof("/syscalls/") + 32 > sizeof(path))
		return -1;
	memcpy(path, root, len);
	path[len] = 0;
	if (stat(path, &st)) {
		if (!stat(PERFCTR_ACCESS_SYSCTL, &st) || kernel_config_has_perfctr())
			return -2;
		return -1;
	}
	memcpy(path + len, "/syscalls/", sizeof("/syscalls/"));
	for (i = 0; i < NR_CALLS; i++) {
		strcpy(path + len + sizeof("/syscalls/") - 1, call_names[i]);
		__atomic_store_n(&call_nr[i], read_number(path), __ATOMIC_RELAXED);
	}
	return __atomic_load_n(&call_nr[NR_INFO], __ATOMIC_RELAXED) < 0 ? -2 : 1;
}

int perfctr_unnumbered(void)
{
	return __atomic_load_n(&perfctr_probed, __ATOMIC_ACQUIRE) == -2;
}

/* The number of system call @call, or -1 with errno ENOSYS. */
static long nr_of(int call)
{
	int probed = __atomic_load_n(&perfctr_probed, __ATOMIC_ACQUIRE);
	long nr;

	if (!probed) {
		probed = probe();
		__atomic_store_n(&perfctr_probed, probed, __ATOMIC_RELEASE);
	}
	nr = probed > 0 ? __atomic_load_n(&call_nr[call], __ATOMIC_RELAXED) : -1;
	if (nr < 0)
		errno = ENOSYS;
	return nr;
}

int perfctr_sys_info(struct perfctr_info *info, struct perfctr_cpu_mask *cpus,
		     struct perfctr_cpu_mask *forbidden)
{
	long nr = nr_of(NR_INFO);

	return nr < 0 ? -1 : syscall(nr, info, cpus, forbidden);
}

/* The calling thread's last control, for perfctr_strerror() (misc.c). */
__attribute__((visibility("hidden"))) void perfctr_note_control(const struct vperfctr_control *c);

int perfctr_sys_vopen(int tid, int creat)
{
	long nr;

	perfctr_note_control(NULL);
	nr = nr_of(NR_VOPEN);
	return nr < 0 ? -1 : syscall(nr, tid, creat);
}

int perfctr_sys_vcontrol(int fd, const struct vperfctr_control *control)
{
	long nr;

	perfctr_note_control(control);
	nr = nr_of(NR_VCONTROL);
	return nr < 0 ? -1 : syscall(nr, fd, control);
}

int perfctr_sys_vunlink(int fd)
{
	long nr = nr_of(NR_VUNLINK);

	return nr < 0 ? -1 : syscall(nr, fd);
}

int perfctr_sys_viresume(int fd)
{
	long nr = nr_of(NR_VIRESUME);

	return nr < 0 ? -1 : syscall(nr, fd);
}

int perfctr_sys_vsuspend(int fd)
{
	long nr = nr_of(NR_VSUSPEND);

	return nr < 0 ? -1 : syscall(nr, fd);
}

int perfctr_sys_vresume(int fd)
{
	long nr = nr_of(NR_VRESUME);

	return nr < 0 ? -1 : syscall(nr, fd);
}

int perfctr_sys_vread(int fd, struct perfctr_sum_ctrs *sum, struct vperfctr_control *control,
		      struct vperfctr_children *children)
{
	long nr = nr_of(NR_VREAD);

	return nr < 0 ? -1 : syscall(nr, fd, sum, control, children);
}

const struct vperfctr_state *perfctr_sys_vmap(int fd)
{
	long size = sysconf(_SC_PAGESIZE);
	const struct vperfctr_state *s;
	void *p;

	p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return NULL;
	s = p;
	if (s->magic != VPERFCTR_STATE_MAGIC ||
	    (s->abi_version ^ PERFCTR_ABI_VERSION) & 0xff00ff00) {
		munmap(p, size);
		errno = EPROTO;
		return NULL;
	}
	return s;
}

void perfctr_sys_vunmap(const struct vperfctr_state *state)
{
	if (state)
		munmap((void *)state, sysconf(_SC_PAGESIZE));
}

/*
 * perfctr 2.7's library-internal calls.
 */
int _sys_perfctr_info(int fd, struct perfctr_info *info, struct perfctr_cpu_mask *cpus,
		      struct perfctr_cpu_mask *forbidden)
{
	(void)fd;
	return perfctr_sys_info(info, cpus, forbidden);
}

/*
 * 2.7's vperfctr_open without creat gave, for a thread that had no
 * state, a descriptor of no state, on which the other calls failed with
 * EINVAL; PAPI opens one that way to call perfctr_info() without
 * creating a state.  The kernel now says ENOENT: the library returns
 * a descriptor of /dev/null instead, which those calls refuse alike
 * (EINVAL: not a perfctr descriptor).
 */
static int open_nostate(int tid)
{
	int fd = perfctr_sys_vopen(tid, 0);

	if (fd >= 0 || errno != ENOENT)
		return fd;
	return open("/dev/null", O_RDONLY | O_CLOEXEC);
}

int _sys_vperfctr_open(int fd, int tid, int creat)
{
	(void)fd;
	if (!creat)
		return open_nostate(tid);
	return perfctr_sys_vopen(tid, VPERFCTR_OPEN_CREAT);
}

/* 2.7's cpu_type told the kernel the caller's layout: there is one now. */
int _sys_vperfctr_write_control(int fd, unsigned int cpu_type,
				const struct vperfctr_control *control)
{
	(void)cpu_type;
	return perfctr_sys_vcontrol(fd, control);
}

int _sys_vperfctr_read_control(int fd, unsigned int cpu_type, struct vperfctr_control *control)
{
	(void)cpu_type;
	return perfctr_sys_vread(fd, NULL, control, NULL);
}

int _sys_vperfctr_unlink(int fd)
{
	return perfctr_sys_vunlink(fd);
}

int _sys_vperfctr_iresume(int fd)
{
	return perfctr_sys_viresume(fd);
}

int _sys_vperfctr_suspend(int fd)
{
	return perfctr_sys_vsuspend(fd);
}

int _sys_vperfctr_resume(int fd)
{
	return perfctr_sys_vresume(fd);
}

int _sys_vperfctr_read_sum(int fd, struct perfctr_sum_ctrs *sum)
{
	return perfctr_sys_vread(fd, sum, NULL, NULL);
}

int _sys_vperfctr_read_children(int fd, struct perfctr_sum_ctrs *sum)
{
	return _vperfctr_read_children(fd, sum);
}

/* Open @tid's state: create it (if @creat) or open the existing one. */
static int open_tid(int tid, int creat)
{
	int fd = -1;

	if (creat) {
		fd = perfctr_sys_vopen(tid, VPERFCTR_OPEN_CREAT);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return perfctr_sys_vopen(tid, 0);
}

/* 0: the existing state, or a descriptor of no state, as 2.7's. */
int _vperfctr_open(int creat)
{
	if (!creat)
		return open_nostate(0);
	return open_tid(0, creat);
}

int _vperfctr_control(int fd, const struct vperfctr_control *control)
{
	return perfctr_sys_vcontrol(fd, control);
}

int _vperfctr_read_control(int fd, struct vperfctr_control *control)
{
	return perfctr_sys_vread(fd, NULL, control, NULL);
}

int _vperfctr_read_sum(int fd, struct perfctr_sum_ctrs *sum)
{
	return perfctr_sys_vread(fd, sum, NULL, NULL);
}

/* 2.7's children's sums: those of VPERFCTR_CONTROL_INHERIT children. */
int _vperfctr_read_children(int fd, struct perfctr_sum_ctrs *sum)
{
	struct vperfctr_children children;

	if (perfctr_sys_vread(fd, NULL, NULL, &children))
		return -1;
	*sum = children.sum;
	return 0;
}

/*
 * Handles.
 */
struct rvperfctr {
	struct vperfctr v;
};

static int handle_init(struct vperfctr *self, int tid, int remote)
{
	struct perfctr_info info;

	memset(self, 0, sizeof(*self));
	self->fd = -1;
	self->tid = tid;
	self->remote = remote;
	if (perfctr_sys_info(&info, NULL, NULL))
		return -1;
	if ((info.abi_version ^ PERFCTR_ABI_VERSION) & 0xff00ff00) {
		errno = EPROTO;
		return -1;
	}
	self->cpu_type = info.cpu_type;
	self->cpu_features = info.cpu_features;
	return 0;
}

/*
 * fork() does not copy a state's mapping (the kernel marks it
 * VM_DONTCOPY: a state stays its thread's), so in a child a handle's
 * kstate points at nothing, and a fast read through it would fault.
 * The mapped handles are listed; a forked child forgets their mappings,
 * and reads through them go by the system call, which answers for the
 * parent's state as for another thread's: EPERM while the parent runs,
 * its final sums once it has exited.  The child's own counters, if it
 * inherited any, are its own vperfctr_open()'s.
 */
static pthread_mutex_t mapped_lock = PTHREAD_MUTEX_INITIALIZER;
static struct vperfctr *mapped_handles;
static pthread_once_t mapped_once = PTHREAD_ONCE_INIT;

static void mapped_atfork_prepare(void)
{
	pthread_mutex_lock(&mapped_lock);
}

static void mapped_atfork_parent(void)
{
	pthread_mutex_unlock(&mapped_lock);
}

static void mapped_atfork_child(void)
{
	struct vperfctr *h;

	for (h = mapped_handles; h; h = h->next_mapped)
		h->kstate = NULL;
	mapped_handles = NULL;
	pthread_mutex_unlock(&mapped_lock);
}

static void mapped_register(void)
{
	pthread_atfork(mapped_atfork_prepare, mapped_atfork_parent, mapped_atfork_child);
}

void mapped_register_once(void)
{
	pthread_once(&mapped_once, mapped_register);
}

static void mapped_add(struct vperfctr *self)
{
	mapped_register_once();
	pthread_mutex_lock(&mapped_lock);
	self->next_mapped = mapped_handles;
	mapped_handles = self;
	pthread_mutex_unlock(&mapped_lock);
}

static void mapped_remove(struct vperfctr *self)
{
	struct vperfctr **p;

	pthread_mutex_lock(&mapped_lock);
	for (p = &mapped_handles; *p; p = &(*p)->next_mapped) {
		if (*p == self) {
			*p = self->next_mapped;
			break;
		}
	}
	pthread_mutex_unlock(&mapped_lock);
}

/* Give @self a state: open or create it, and map it for the owner. */
static int handle_attach(struct vperfctr *self, int creat)
{
	int fd = open_tid(self->tid, creat);

	if (fd < 0)
		return -1;
	self->fd = fd;
	if (!self->remote) {
		self->kstate = perfctr_sys_vmap(fd);
		if (!self->kstate) {
			int err = errno;

			close(fd);
			self->fd = -1;
			errno = err;
			return -1;
		}
		mapped_add(self);
	}
	return 0;
}

/*
 * mode 0: open the thread's state, which must exist (ENOENT).
 * Otherwise: open it, creating it if the thread has none, as 2.7's
 * vperfctr_open() did.  Where creating is refused for lack of privilege
 * (EACCES, EPERM), the handle still serves the info calls and creates
 * the state at its first vperfctr_control(), which reports the error.
 */
struct vperfctr *vperfctr_open_mode(unsigned int mode)
{
	struct vperfctr *self = malloc(sizeof(*self));

	if (!self)
		return NULL;
	if (handle_init(self, 0, 0))
		goto fail;
	if (handle_attach(self, mode != 0)) {
		if (!mode || (errno != EACCES && errno != EPERM))
			goto fail;
	}
	return self;
fail:
	free(self);
	return NULL;
}

struct vperfctr *vperfctr_open(void)
{
	return vperfctr_open_mode(1);
}

int vperfctr_fd(const struct vperfctr *self)
{
	return self->fd;
}

int vperfctr_info(const struct vperfctr *self, struct perfctr_info *info)
{
	return perfctr_info(self->fd, info);
}

struct perfctr_cpus_info *vperfctr_cpus_info(const struct vperfctr *self)
{
	return perfctr_cpus_info(self->fd);
}

int vperfctr_read_ctrs_slow(const struct vperfctr *self, struct perfctr_sum_ctrs *sum)
{
	return vperfctr_read_state(self, sum, NULL);
}

int vperfctr_read_state(const struct vperfctr *self, struct perfctr_sum_ctrs *sum,
			struct vperfctr_control *control)
{
	if (self->fd < 0) {	/* no state yet: nothing has counted */
		if (sum)
			memset(sum, 0, sizeof(*sum));
		if (control)
			memset(control, 0, sizeof(*control));
		return 0;
	}
	return perfctr_sys_vread(self->fd, sum, control, NULL);
}

int vperfctr_read_children(const struct vperfctr *self, struct vperfctr_children *children)
{
	if (self->kstate) {	/* any thread may: no hardware counter is read */
		perfctr_state_read_children(self->kstate, children);
		return 0;
	}
	if (self->fd < 0) {
		memset(children, 0, sizeof(*children));
		return 0;
	}
	return perfctr_sys_vread(self->fd, NULL, NULL, children);
}

int vperfctr_control(struct vperfctr *self, struct vperfctr_control *control)
{
	if (self->fd < 0 && handle_attach(self, 1))
		return -1;
	return perfctr_sys_vcontrol(self->fd, control);
}

/* A control that enables nothing: as in 2.7, the sums are reset. */
int vperfctr_stop(struct vperfctr *self)
{
	struct vperfctr_control control;

	if (self->fd < 0)
		return 0;
	memset(&control, 0, sizeof(control));
	return perfctr_sys_vcontrol(self->fd, &control);
}

int vperfctr_is_running(const struct vperfctr *self)
{
	struct vperfctr_control control;

	if (self->kstate)
		return PERFCTR_LOAD(self->kstate->cpu_state.cstatus) != 0;
	if (vperfctr_read_state(self, NULL, &control))
		return 0;
	return control.cpu_control.tsc_on || control.cpu_control.nractrs ||
	       control.cpu_control.nrictrs;
}

int vperfctr_is_active(const struct vperfctr *self)
{
	return vperfctr_is_running(self);
}

int vperfctr_iresume(const struct vperfctr *self)
{
	if (self->fd < 0) {
		errno = EINVAL;
		return -1;
	}
	return perfctr_sys_viresume(self->fd);
}

/*
 * Pause and continue the control in force, its sums kept (perf_event's
 * IOC_DISABLE and IOC_ENABLE): the cheap pair for measuring a region
 * again and again.
 */
int vperfctr_suspend(const struct vperfctr *self)
{
	if (self->fd < 0)
		return 0;
	return perfctr_sys_vsuspend(self->fd);
}

int vperfctr_resume(const struct vperfctr *self)
{
	if (self->fd < 0) {
		errno = EINVAL;
		return -1;
	}
	return perfctr_sys_vresume(self->fd);
}

int vperfctr_unlink(const struct vperfctr *self)
{
	if (self->fd < 0)
		return 0;
	return perfctr_sys_vunlink(self->fd);
}

void vperfctr_close(struct vperfctr *self)
{
	if (!self)
		return;
	if (self->kstate) {
		mapped_remove(self);
		perfctr_sys_vunmap(self->kstate);
	}
	if (self->fd >= 0)
		close(self->fd);
	free(self);
}

/*
 * Another thread's counters: the caller must have it stopped under
 * ptrace (EPERM otherwise).  Values are always read by the system call.
 */
struct rvperfctr *rvperfctr_open(int pid)
{
	struct rvperfctr *self = malloc(sizeof(*self));

	if (!self)
		return NULL;
	if (pid <= 0) {
		errno = EINVAL;
		goto fail;
	}
	if (handle_init(&self->v, pid, 1) || handle_attach(&self->v, 1))
		goto fail;
	return self;
fail:
	free(self);
	return NULL;
}

int rvperfctr_pid(const struct rvperfctr *self)
{
	return self->v.tid;
}

int rvperfctr_info(const struct rvperfctr *self, struct perfctr_info *info)
{
	return vperfctr_info(&self->v, info);
}

int rvperfctr_read_ctrs(const struct rvperfctr *self, struct perfctr_sum_ctrs *sum)
{
	return vperfctr_read_state(&self->v, sum, NULL);
}

int rvperfctr_read_state(const struct rvperfctr *self, struct perfctr_sum_ctrs *sum,
			 struct vperfctr_control *control)
{
	return vperfctr_read_state(&self->v, sum, control);
}

int rvperfctr_control(struct rvperfctr *self, struct vperfctr_control *control)
{
	return vperfctr_control(&self->v, control);
}

int rvperfctr_stop(struct rvperfctr *self)
{
	return vperfctr_stop(&self->v);
}

int rvperfctr_unlink(const struct rvperfctr *self)
{
	return vperfctr_unlink(&self->v);
}

void rvperfctr_close(struct rvperfctr *self)
{
	if (self)
		vperfctr_close(&self->v);
}
