// SPDX-License-Identifier: GPL-2.0-only
/* RDMA device names: validation, "%d" templates, assignment and rename. */

#include <linux/ctype.h>
#include <linux/device.h>
#include <linux/string.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include "device/device.h"

/*
 * A device name is printable, 1 to IB_DEVICE_NAME_MAX - 1 characters, has
 * no '/' and no white space and is not "." or "..". A template for
 * ib_register_device() may also contain one "%d" (and no other '%').
 */
static int name_check(const char *name, bool template_ok)
{
	size_t len = strnlen(name, IB_DEVICE_NAME_MAX);
	const char *pct = strchr(name, '%');
	const char *p;

	if (!len || len == IB_DEVICE_NAME_MAX)
		return -EINVAL;
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return -EINVAL;
	for (p = name; *p; p++)
		if (*p == '/' || isspace(*p) || !isprint(*p))
			return -EINVAL;
	if (pct && (!template_ok || pct[1] != 'd' || strchr(pct + 1, '%')))
		return -EINVAL;
	return 0;
}

/**
 * ib_device_find_by_name() - Find a named device, registered or not
 * @name: the device name
 *
 * Context: The caller holds ib_devices_rwsem, which keeps the answer valid.
 * Return: the device (no reference taken), or NULL.
 */
struct ib_device *ib_device_find_by_name(const char *name)
{
	struct ib_device *dev;
	unsigned long index;

	lockdep_assert_held(&ib_devices_rwsem);
	xa_for_each(&ib_devices, index, dev)
		if (!strcmp(name, dev_name(&dev->dev)))
			return dev;
	return NULL;
}

/* Expand the "%d" of @tmpl to the lowest number that gives a free name. */
static int name_expand(const char *tmpl, char *buf)
{
	const char *pct = strchr(tmpl, '%');
	int i, len;

	lockdep_assert_held_write(&ib_devices_rwsem);
	for (i = 0; i < INT_MAX; i++) {
		len = snprintf(buf, IB_DEVICE_NAME_MAX, "%.*s%d%s",
			       (int)(pct - tmpl), tmpl, i, pct + 2);
		if (len >= IB_DEVICE_NAME_MAX)
			return -EINVAL;
		if (!ib_device_find_by_name(buf))
			return 0;
	}
	return -ENFILE;
}

/**
 * ib_device_name_assign() - Name a device and give it its index
 * @dev: the device, at the start of ib_register_device()
 * @name: a name, or a template with one "%d"
 *
 * Lists @dev in ib_devices (not marked registered) under a unique name;
 * ib_dealloc_device() takes it out again.
 *
 * Context: Process context, may sleep. Takes ib_devices_rwsem.
 * Return: 0, -EINVAL for a bad name, -ENFILE if the name is taken or no
 * number fits the template, or an allocation error.
 */
int ib_device_name_assign(struct ib_device *dev, const char *name)
{
	static u32 next_index;
	char buf[IB_DEVICE_NAME_MAX];
	int ret;

	ret = name_check(name, true);
	if (ret)
		return ret;

	down_write(&ib_devices_rwsem);
	if (strchr(name, '%')) {
		ret = name_expand(name, buf);
	} else {
		strscpy(buf, name, sizeof(buf));
		ret = ib_device_find_by_name(buf) ? -ENFILE : 0;
	}
	if (ret)
		goto out;
	ret = dev_set_name(&dev->dev, "%s", buf);
	if (ret)
		goto out;
	strscpy(dev->name, buf, IB_DEVICE_NAME_MAX);
	ret = xa_alloc_cyclic(&ib_devices, &dev->index, dev, xa_limit_31b,
			      &next_index, GFP_KERNEL);
	if (ret > 0)	/* the index wrapped: still a success */
		ret = 0;
out:
	up_write(&ib_devices_rwsem);
	return ret;
}

/**
 * ib_device_rename() - Rename a registered device
 * @ibdev: the device, held by the caller
 * @name: the new name (no template)
 *
 * Clients with a rename callback are told afterwards.
 *
 * Context: Process context, may sleep. Takes ib_devices_rwsem.
 * Return: 0 (also if @name is the current name), -EINVAL for a bad name,
 * -EEXIST if another device has it, or an error from device_rename().
 */
int ib_device_rename(struct ib_device *ibdev, const char *name)
{
	int ret;

	ret = name_check(name, false);
	if (ret)
		return ret;

	down_write(&ib_devices_rwsem);
	if (!strcmp(name, dev_name(&ibdev->dev))) {
		ret = 0;
		goto out_unlock;
	}
	if (ib_device_find_by_name(name)) {
		ret = -EEXIST;
		goto out_unlock;
	}
	ret = device_rename(&ibdev->dev, name);
	if (ret)
		goto out_unlock;
	strscpy(ibdev->name, name, IB_DEVICE_NAME_MAX);

	/* the name is settled; keep the device registered while telling */
	downgrade_write(&ib_devices_rwsem);
	ib_client_rename_all(ibdev);
	up_read(&ib_devices_rwsem);
	return 0;

out_unlock:
	up_write(&ib_devices_rwsem);
	return ret;
}
