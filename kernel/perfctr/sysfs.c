// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/perfctr: the system call numbers and the ABI version.
 *
 * perfctr's numbers are not reserved upstream: on another kernel they
 * may be another call's.  User space reads them here before its first
 * perfctr system call, and a kernel without this directory has none.
 */
#define pr_fmt(fmt) "perfctr: " fmt

#include <linux/init.h>
#include <linux/kobject.h>
#include <linux/perfctr.h>
#include <linux/sysfs.h>
#include <asm/unistd.h>
#ifdef CONFIG_IA32_EMULATION
#include <asm/unistd_32_ia32.h>
#endif

static ssize_t abi_version_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%08x\n", PERFCTR_ABI_VERSION);
}

static struct kobj_attribute abi_version_attr = __ATTR_RO(abi_version);

static struct attribute *perfctr_attrs[] = {
	&abi_version_attr.attr,
	NULL
};

static const struct attribute_group perfctr_group = {
	.attrs = perfctr_attrs,
};

/*
 * syscalls/NAME: the number of NAME, the same for every ABI the kernel
 * runs (x86's ia32 emulation included; x32 adds __X32_SYSCALL_BIT).
 */
#define PERFCTR_SYSCALL(name)						\
static ssize_t name##_show(struct kobject *kobj, struct kobj_attribute *attr, \
			   char *buf)					\
{									\
	return sysfs_emit(buf, "%d\n", __NR_##name);			\
}									\
static struct kobj_attribute name##_attr = __ATTR_RO(name)

PERFCTR_SYSCALL(perfctr_info);
#ifdef CONFIG_PERFCTR_VIRTUAL
PERFCTR_SYSCALL(vperfctr_open);
PERFCTR_SYSCALL(vperfctr_control);
PERFCTR_SYSCALL(vperfctr_unlink);
PERFCTR_SYSCALL(vperfctr_iresume);
PERFCTR_SYSCALL(vperfctr_read);
PERFCTR_SYSCALL(vperfctr_suspend);
PERFCTR_SYSCALL(vperfctr_resume);
#endif

#ifdef CONFIG_IA32_EMULATION
static_assert(__NR_ia32_perfctr_info == __NR_perfctr_info);
static_assert(__NR_ia32_vperfctr_open == __NR_vperfctr_open);
static_assert(__NR_ia32_vperfctr_control == __NR_vperfctr_control);
static_assert(__NR_ia32_vperfctr_unlink == __NR_vperfctr_unlink);
static_assert(__NR_ia32_vperfctr_iresume == __NR_vperfctr_iresume);
static_assert(__NR_ia32_vperfctr_read == __NR_vperfctr_read);
static_assert(__NR_ia32_vperfctr_suspend == __NR_vperfctr_suspend);
static_assert(__NR_ia32_vperfctr_resume == __NR_vperfctr_resume);
#endif

/* The calls this kernel has: the per-thread ones with CONFIG_PERFCTR_VIRTUAL. */
static struct attribute *perfctr_syscall_attrs[] = {
	&perfctr_info_attr.attr,
#ifdef CONFIG_PERFCTR_VIRTUAL
	&vperfctr_open_attr.attr,
	&vperfctr_control_attr.attr,
	&vperfctr_unlink_attr.attr,
	&vperfctr_iresume_attr.attr,
	&vperfctr_read_attr.attr,
	&vperfctr_suspend_attr.attr,
	&vperfctr_resume_attr.attr,
#endif
	NULL
};

static const struct attribute_group perfctr_syscall_group = {
	.name = "syscalls",
	.attrs = perfctr_syscall_attrs,
};

static const struct attribute_group *perfctr_groups[] = {
	&perfctr_group,
	&perfctr_syscall_group,
	NULL
};

/*
 * Whether or not the driver initialised: a perfctr system call then
 * answers ENODEV itself, which is what user space should hear.
 */
static int __init perfctr_sysfs_init(void)
{
	struct kobject *kobj;
	int err;

	kobj = kobject_create_and_add("perfctr", kernel_kobj);
	if (!kobj)
		return -ENOMEM;
	err = sysfs_create_groups(kobj, perfctr_groups);
	if (err) {
		pr_err("no /sys/kernel/perfctr (%d)\n", err);
		kobject_put(kobj);
	}
	return err;
}
late_initcall(perfctr_sysfs_init);
