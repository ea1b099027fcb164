// SPDX-License-Identifier: GPL-2.0
/*
 * perfctr top level: initialisation and sys_perfctr_info().
 */
#define pr_fmt(fmt) "perfctr: " fmt

#include <linux/build_bug.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/mutex.h>
#include <linux/perfctr.h>
#include <linux/seq_file.h>
#include <linux/stddef.h>
#include <linux/syscalls.h>
#include <linux/uaccess.h>

#include "virtual.h"

struct perfctr_info perfctr_info __ro_after_init;

/*
 * The user ABI has one layout for 32- and 64-bit user space (x86: i386,
 * x32 and x86_64; powerpc: ppc32 and ppc64).  These are the sizes and
 * offsets every one of them must see; tools/testing/selftests/perfctr/
 * abi_layout.h checks the same numbers in user space compiled each way.
 * The virtual counters check theirs in syscalls.c.
 */
static_assert(sizeof(struct perfctr_info) == 64);
static_assert(offsetof(struct perfctr_info, cpu_type) == 36);
static_assert(sizeof(struct perfctr_cpu_mask) == 4);
static_assert(sizeof(struct perfctr_sum_ctrs) == 8 + 8 * PERFCTR_NRCTRS);
static_assert(sizeof(struct perfctr_pmc_state) == 24);
static_assert(offsetof(struct perfctr_cpu_state, tsc_sum) == 32);
static_assert(offsetof(struct perfctr_cpu_state, tsc_mask) == 48);
static_assert(offsetof(struct perfctr_cpu_state, pmc) == 56);
static_assert(sizeof(struct perfctr_cpu_control) % 8 == 0);
#ifdef CONFIG_X86
static_assert(sizeof(struct perfctr_cpu_control) == 400);
static_assert(sizeof(struct perfctr_cpu_state) == 56 + 24 * 18 + 400);
#endif
#ifdef CONFIG_PPC
static_assert(offsetof(struct perfctr_cpu_control, ppc) == 112);
static_assert(sizeof(struct perfctr_cpu_control) == 152);
static_assert(sizeof(struct perfctr_cpu_state) == 56 + 24 * 8 + 152);
#endif

static unsigned int perfctr_mask_words(void)
{
	return DIV_ROUND_UP(nr_cpu_ids, 32);
}

static int perfctr_get_nrwords(struct perfctr_cpu_mask __user *argp, u32 *nrwords)
{
	if (!argp)
		return 0;
	return get_user(*nrwords, &argp->nrwords) ? -EFAULT : 0;
}

/*
 * The cpu mask protocol of overview.rst: the number of words needed is
 * always written back; EOVERFLOW when the caller's mask is too small.
 */
static int perfctr_put_cpumask(struct perfctr_cpu_mask __user *argp,
			       u32 nrwords, const struct cpumask *mask)
{
	u32 need = perfctr_mask_words(), i, word;
	unsigned int cpu;

	if (put_user(need, &argp->nrwords))
		return -EFAULT;
	if (nrwords < need)
		return -EOVERFLOW;
	for (i = 0; i < need; i++) {
		word = 0;
		for (cpu = i * 32; cpu < min(nr_cpu_ids, (i + 1) * 32); cpu++)
			if (cpumask_test_cpu(cpu, mask))
				word |= 1U << (cpu % 32);
		if (put_user(word, &argp->mask[i]))
			return -EFAULT;
	}
	return 0;
}

SYSCALL_DEFINE3(perfctr_info, struct perfctr_info __user *, info,
		struct perfctr_cpu_mask __user *, cpus,
		struct perfctr_cpu_mask __user *, forbidden)
{
	u32 cpus_words = 0, forbidden_words = 0;
	struct perfctr_info now;
	int err;

	if (!perfctr_ready())
		return -ENODEV;
	err = perfctr_get_nrwords(cpus, &cpus_words);
	if (!err)
		err = perfctr_get_nrwords(forbidden, &forbidden_words);
	if (err)
		return err;

	/*
	 * The driver's part again: its status (PERFCTR_FEATURE_PMU_BUSY) and
	 * what perf's rdpmc knob allows are as of this call, not of boot.
	 */
	now = perfctr_info;
	perfctr_cpu_fill_info(&now);
	if (info && copy_to_user(info, &now, sizeof(*info)))
		return -EFAULT;
	if (cpus) {
		err = perfctr_put_cpumask(cpus, cpus_words, cpu_online_mask);
		if (err)
			return err;
	}
	if (forbidden)
		return perfctr_put_cpumask(forbidden, forbidden_words,
					   &perfctr_cpus_forbidden_mask);
	return 0;
}

#ifdef CONFIG_PERFCTR_DEBUG_FORBIDDEN
/*
 * debugfs "perfctr/forbidden": perfctr_cpus_forbidden_mask as a CPU list.
 * A write forbids the CPUs it lists besides those the driver forbids
 * (a hyper-threaded P4's second threads, perfctr_forbidden_driver):
 * injected faults never lift a rule of the hardware.
 */
static DEFINE_MUTEX(perfctr_forbidden_mutex);
static cpumask_t perfctr_forbidden_driver;

static int perfctr_forbidden_show(struct seq_file *m, void *unused)
{
	mutex_lock(&perfctr_forbidden_mutex);
	seq_printf(m, "%*pbl\n", cpumask_pr_args(&perfctr_cpus_forbidden_mask));
	mutex_unlock(&perfctr_forbidden_mutex);
	return 0;
}

static int perfctr_forbidden_open(struct inode *inode, struct file *file)
{
	return single_open(file, perfctr_forbidden_show, NULL);
}

static ssize_t perfctr_forbidden_write(struct file *file, const char __user *ubuf,
				       size_t len, loff_t *ppos)
{
	cpumask_var_t mask;
	int err;

	if (!alloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	err = cpumask_parselist_user(ubuf, len, mask);
	if (!err) {
		mutex_lock(&perfctr_forbidden_mutex);
		cpumask_or(&perfctr_cpus_forbidden_mask, &perfctr_forbidden_driver, mask);
		mutex_unlock(&perfctr_forbidden_mutex);
	}
	free_cpumask_var(mask);
	return err ? err : len;
}

static const struct file_operations perfctr_forbidden_fops = {
	.owner		= THIS_MODULE,
	.open		= perfctr_forbidden_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
	.write		= perfctr_forbidden_write,
};

static void __init perfctr_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("perfctr", NULL);

	cpumask_copy(&perfctr_forbidden_driver, &perfctr_cpus_forbidden_mask);

	debugfs_create_file("forbidden", 0600, dir, NULL, &perfctr_forbidden_fops);
}
#else
static inline void perfctr_debugfs_init(void) { }
#endif

static int __init perfctr_init(void)
{
	int err;

	err = perfctr_cpu_init();
	if (err) {
		pr_info("no usable counters on this CPU (%d)\n", err);
		return err;
	}
	strscpy(perfctr_info.driver_version, PERFCTR_DRIVER_VERSION,
		sizeof(perfctr_info.driver_version));
	perfctr_cpu_fill_info(&perfctr_info);

	err = vperfctr_init();
	if (err) {
		perfctr_cpu_exit();
		return err;
	}
	perfctr_info.abi_version = PERFCTR_ABI_VERSION;
	perfctr_debugfs_init();
	pr_info("driver %s, cpu type %u (%s), %u kHz\n",
		perfctr_info.driver_version, perfctr_info.cpu_type,
		perfctr_cpu_name, perfctr_info.cpu_khz);
	return 0;
}

/* After perf_events has probed the PMU (early_initcall). */
device_initcall(perfctr_init);
