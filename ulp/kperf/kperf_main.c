// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf: module entry and the debugfs file commands are written to. */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "kperf.h"

#define KPERF_CMD_MAX	512

/**
 * struct kperf_file - one open of the run file
 * @lock: serializes writes and reads through this open file; protects
 *	  @out and @len
 * @out: result lines of the last command written through this file
 * @len: bytes in @out; 0 before the first command
 */
struct kperf_file {
	struct mutex lock;	/* guards out and len */
	char *out;
	size_t len;
};

/* The last command's result lines, whoever wrote it; protected by kperf_last_lock. */
static DEFINE_MUTEX(kperf_last_lock);
static char kperf_last[KPERF_OUT_SIZE];
static size_t kperf_last_len;

static struct dentry *kperf_dir;

static int kperf_open(struct inode *inode, struct file *file)
{
	struct kperf_file *kf = kzalloc(sizeof(*kf), GFP_KERNEL);

	if (!kf)
		return -ENOMEM;
	kf->out = kzalloc(KPERF_OUT_SIZE, GFP_KERNEL);
	if (!kf->out) {
		kfree(kf);
		return -ENOMEM;
	}
	mutex_init(&kf->lock);
	file->private_data = kf;
	return 0;
}

static int kperf_release(struct inode *inode, struct file *file)
{
	struct kperf_file *kf = file->private_data;

	kfree(kf->out);
	kfree(kf);
	return 0;
}

/* Publishes this file's result as the global "last result". */
static void kperf_last_set(const struct kperf_file *kf)
{
	mutex_lock(&kperf_last_lock);
	memcpy(kperf_last, kf->out, kf->len);
	kperf_last_len = kf->len;
	mutex_unlock(&kperf_last_lock);
}

/* Runs @line; result lines land in kf->out. */
static int kperf_exec(struct kperf_file *kf, char *line)
{
	struct kperf_params *p;
	struct seq_buf out;
	char why[160];
	int ret;

	kf->len = 0;
	seq_buf_init(&out, kf->out, KPERF_OUT_SIZE);
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	ret = kperf_cmd_parse(line, p, why, sizeof(why));
	if (ret) {
		pr_info("invalid command: %s\n", why);
		seq_buf_printf(&out, "result status=fail errno=%d reason=\"invalid command: %s\"\n",
			       ret, why);
	} else if (p->mode == KPERF_MEMCPY) {
		ret = kperf_memcpy_run(p, &out);
	} else if (p->mode == KPERF_RPING) {
		ret = kperf_rping_run(p, &out);
	} else if (p->mode == KPERF_UDADDY) {
		ret = kperf_udaddy_run(p, &out);
	} else if (p->mode == KPERF_MCKEY) {
		ret = kperf_mckey_run(p, &out);
	} else {
		ret = kperf_run_command(p, &out);
	}
	if (!seq_buf_used(&out))
		seq_buf_printf(&out,
			       "result status=fail errno=%d reason=\"no memory for the command\"\n",
			       ret);
	kf->len = seq_buf_used(&out);
	kfree(p);
	return ret;
}

/*
 * A write is one command. It runs to completion in the writer's context
 * and rewinds the file position, so the same open file reads the result
 * from its start right after.
 */
static ssize_t kperf_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct kperf_file *kf = file->private_data;
	char *line;
	int ret;

	if (!count || count >= KPERF_CMD_MAX)
		return -EINVAL;
	line = memdup_user_nul(ubuf, count);
	if (IS_ERR(line))
		return PTR_ERR(line);
	mutex_lock(&kf->lock);
	ret = kperf_exec(kf, line);
	kperf_last_set(kf);
	*ppos = 0;
	mutex_unlock(&kf->lock);
	kfree(line);
	return ret ? ret : count;
}

/* This file's last result, or the global one if it ran no command. */
static ssize_t kperf_read(struct file *file, char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	struct kperf_file *kf = file->private_data;
	ssize_t ret;

	mutex_lock(&kf->lock);
	if (!kf->len && !*ppos) {
		mutex_lock(&kperf_last_lock);
		memcpy(kf->out, kperf_last, kperf_last_len);
		kf->len = kperf_last_len;
		mutex_unlock(&kperf_last_lock);
	}
	ret = simple_read_from_buffer(ubuf, count, ppos, kf->out, kf->len);
	mutex_unlock(&kf->lock);
	return ret;
}

static const struct file_operations kperf_fops = {
	.owner = THIS_MODULE,
	.open = kperf_open,
	.release = kperf_release,
	.write = kperf_write,
	.read = kperf_read,
	.llseek = default_llseek,
};

/* The listening file: one line per rping or udaddy server, mckey receiver. */
static int kperf_listening_show(struct seq_file *m, void *unused)
{
	return kperf_listener_show(m, unused);
}
DEFINE_SHOW_ATTRIBUTE(kperf_listening);

/* The hold file: read, the hold=1 commands holding; written, they end. */
static int kperf_hold_open(struct inode *inode, struct file *file)
{
	return single_open(file, kperf_hold_show, NULL);
}

static ssize_t kperf_hold_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	kperf_hold_release_all();
	return count;
}

static const struct file_operations kperf_hold_fops = {
	.owner = THIS_MODULE,
	.open = kperf_hold_open,
	.read = seq_read,
	.write = kperf_hold_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static int __init kperf_init(void)
{
	int ret;

	ret = kperf_dev_register();
	if (ret)
		return ret;
	kperf_dir = debugfs_create_dir("ib_kperf", NULL);
	debugfs_create_file("run", 0600, kperf_dir, NULL, &kperf_fops);
	debugfs_create_file("listening", 0400, kperf_dir, NULL,
			    &kperf_listening_fops);
	debugfs_create_file("hold", 0600, kperf_dir, NULL, &kperf_hold_fops);
	return 0;
}

static void __exit kperf_exit(void)
{
	debugfs_remove(kperf_dir);
	kperf_dev_unregister();
}

module_init(kperf_init);
module_exit(kperf_exit);

MODULE_DESCRIPTION("In-kernel RDMA verbs test and benchmark tool");
MODULE_LICENSE("GPL");
