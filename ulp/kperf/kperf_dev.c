// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf: the ib_client that holds devices for running commands. */

#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include "kperf.h"

/**
 * struct kperf_dev - the client's record of one device
 * @ibdev: the device; valid until remove() returns
 * @node: in kperf_devs
 * @users: commands holding the device
 * @gone: remove() has started; running commands abort
 *
 * kperf_devs_lock protects kperf_devs, @node and @users; @gone is set
 * under it and read locklessly by the commands' wait loops, @users
 * locklessly by remove() waiting for it to drop to 0.
 */
struct kperf_dev {
	struct ib_device *ibdev;
	struct list_head node;
	unsigned int users;
	bool gone;
};

static LIST_HEAD(kperf_devs);
static DEFINE_MUTEX(kperf_devs_lock);
static DECLARE_WAIT_QUEUE_HEAD(kperf_devs_idle);

static struct ib_client kperf_client;

static int kperf_dev_add(struct ib_device *ibdev)
{
	struct kperf_dev *kdev = kzalloc(sizeof(*kdev), GFP_KERNEL);

	if (!kdev)
		return -ENOMEM;
	kdev->ibdev = ibdev;
	ib_set_client_data(ibdev, &kperf_client, kdev);
	mutex_lock(&kperf_devs_lock);
	list_add_tail(&kdev->node, &kperf_devs);
	mutex_unlock(&kperf_devs_lock);
	return 0;
}

/* Lockless: it is a wait_event() condition (no sleeping in there). */
static bool kperf_dev_idle(struct kperf_dev *kdev)
{
	return !READ_ONCE(kdev->users);
}

/* The device goes away: stop new users, wait for running commands. */
static void kperf_dev_remove(struct ib_device *ibdev, void *data)
{
	struct kperf_dev *kdev = data;

	mutex_lock(&kperf_devs_lock);
	WRITE_ONCE(kdev->gone, true);
	list_del(&kdev->node);
	if (!kperf_dev_idle(kdev))
		pr_info("%s is going away: aborting the commands using it\n",
			dev_name(&ibdev->dev));
	mutex_unlock(&kperf_devs_lock);
	wait_event(kperf_devs_idle, kperf_dev_idle(kdev));
	kfree(kdev);
}

static struct ib_client kperf_client = {
	.name = "ib_kperf",
	.add = kperf_dev_add,
	.remove = kperf_dev_remove,
};

/* The record of the device @ibdev, else of the one named @name, held. */
static struct kperf_dev *kperf_dev_find(struct ib_device *ibdev,
					const char *name)
{
	struct kperf_dev *kdev, *found = NULL;

	mutex_lock(&kperf_devs_lock);
	list_for_each_entry(kdev, &kperf_devs, node) {
		if (ibdev ? kdev->ibdev == ibdev :
		    !strcmp(dev_name(&kdev->ibdev->dev), name)) {
			WRITE_ONCE(kdev->users, kdev->users + 1);
			found = kdev;
			break;
		}
	}
	mutex_unlock(&kperf_devs_lock);
	return found;
}

/**
 * kperf_dev_get() - hold a device by its current name for one command
 * @name: the RDMA device name
 *
 * Context: process context; takes kperf_devs_lock.
 * Return: the hold, or NULL when no such device is registered.
 */
struct kperf_dev *kperf_dev_get(const char *name)
{
	return kperf_dev_find(NULL, name);
}

/**
 * kperf_dev_hold() - hold a device another API handed out, for one command
 * @ibdev: the device (e.g. the one an rdma_cm id resolved to)
 *
 * Context: process context; takes kperf_devs_lock.
 * Return: the hold, or NULL when the client does not know @ibdev (not
 * added yet, or going away).
 */
struct kperf_dev *kperf_dev_hold(struct ib_device *ibdev)
{
	return kperf_dev_find(ibdev, NULL);
}

/**
 * kperf_dev_put() - release a hold from kperf_dev_get()
 * @kdev: the hold; everything the command made on the device is gone
 *
 * Context: process context; takes kperf_devs_lock. May let a pending
 * removal of the device proceed (and free @kdev).
 */
void kperf_dev_put(struct kperf_dev *kdev)
{
	mutex_lock(&kperf_devs_lock);
	WRITE_ONCE(kdev->users, kdev->users - 1);
	mutex_unlock(&kperf_devs_lock);
	wake_up_all(&kperf_devs_idle);
}

/**
 * kperf_dev_ib() - the device behind a hold
 * @kdev: a hold from kperf_dev_get()
 *
 * Return: the ib_device, valid while the hold is.
 */
struct ib_device *kperf_dev_ib(struct kperf_dev *kdev)
{
	return kdev->ibdev;
}

/**
 * kperf_dev_gone() - has the device started going away?
 * @kdev: a hold from kperf_dev_get()
 *
 * Context: any; lockless.
 * Return: true once the command should abort and release its hold.
 */
bool kperf_dev_gone(struct kperf_dev *kdev)
{
	return READ_ONCE(kdev->gone);
}

/**
 * kperf_dev_register() - start seeing RDMA devices
 *
 * Return: 0 or the error of ib_register_client().
 */
int kperf_dev_register(void)
{
	return ib_register_client(&kperf_client);
}

/**
 * kperf_dev_unregister() - forget every device
 *
 * Context: no command may be running (the debugfs file is gone).
 */
void kperf_dev_unregister(void)
{
	ib_unregister_client(&kperf_client);
}
