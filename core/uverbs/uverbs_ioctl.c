// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioctl() on a uverbs file: RDMA_VERBS_IOCTL's header and attribute checks, the
 * dispatch, commit and abort.
 */
/*
 * One ioctl is a header (object, method, driver id, attribute count) and an
 * array of attributes. Steps, each with 6.1's errno, which libibverbs
 * reads: an ioctl number other than RDMA_VERBS_IOCTL is -ENOTTY ("no ioctl
 * framework": write() for everything); a header whose length disagrees
 * with its attribute count or exceeds a page is -EINVAL, reserved fields
 * -EPROTONOSUPPORT; then inside the SRCU read side a driver id other than
 * the device's is -EINVAL, an object or method we do not have (or whose
 * driver op the device lacks) -EPROTONOSUPPORT ("use write() for this
 * verb"), a device being removed -EIO. The attribute array (at most a
 * page, so the copy is bounded) is checked against the method's specs:
 * an attribute the method does not know is skipped unless it is flagged
 * mandatory (-EPROTONOSUPPORT); one sent twice, or one that fails its
 * spec, stops the ioctl; a mandatory spec not sent is -EINVAL. Then
 * objects named for destruction go, the handler runs, and what the method
 * created is committed (handles published, descriptors installed) when it
 * succeeded and destroyed when it did not.
 */

#include <kunit/visibility.h>
#include <linux/file.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <rdma/ib_verbs.h>
#include <uapi/rdma/ib_user_ioctl_cmds.h>

#include "uverbs/uverbs_ioctl.h"

/**
 * uverbs_ioctl_hdr_check() - Check an ioctl header's own fields
 * @hdr: the header as copied from user space
 *
 * Context: Any context.
 * Return: 0; -EINVAL when @hdr->length is over a page or is not the
 * header plus @hdr->num_attrs attributes; -EPROTONOSUPPORT when a
 * reserved field is set.
 */
int uverbs_ioctl_hdr_check(const struct ib_uverbs_ioctl_hdr *hdr)
{
	if (hdr->length > PAGE_SIZE ||
	    hdr->length != struct_size(hdr, attrs, hdr->num_attrs))
		return -EINVAL;
	if (hdr->reserved1 || hdr->reserved2)
		return -EPROTONOSUPPORT;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_ioctl_hdr_check);

/* Inline data (len <= 8): are bytes @from..len zero? */
static bool uverbs_ia_inline_cleared(const struct ib_uverbs_attr *uattr,
				     u16 from)
{
	return !memchr_inv((const u8 *)&uattr->data + from, 0,
			   uattr->len - from);
}

/* The size rules of a PTR attribute, with @val its (element) spec. */
static int uverbs_ia_check_size(const struct uverbs_ia_spec *val,
				const struct ib_uverbs_attr *uattr, bool in,
				bool (*cleared)(const struct ib_uverbs_attr *,
						u16))
{
	bool zero;

	if (in && val->zero_trailing && uattr->len > val->max_len) {
		zero = uattr->len > sizeof(uattr->data) ?
			cleared(uattr, val->max_len) :
			uverbs_ia_inline_cleared(uattr, val->max_len);
		if (!zero)
			return -EOPNOTSUPP;
	}
	if (uattr->len < val->min_len ||
	    (!val->zero_trailing && uattr->len > val->max_len))
		return -EINVAL;
	return 0;
}

/* CONST_IN and FLAGS_IN carry their value inline: check it. */
static int uverbs_ia_check_value(const struct uverbs_ia_spec *spec,
				 const struct ib_uverbs_attr *uattr)
{
	u64 v = uattr->data;

	if (spec->type == UVERBS_IA_CONST_IN)
		return v > spec->max_val ? -EINVAL : 0;
	if (spec->type != UVERBS_IA_FLAGS_IN)
		return 0;
	if (uattr->len != sizeof(u32) && uattr->len != sizeof(u64))
		return -EINVAL;
	if (uattr->len == sizeof(u32))
		v = *(const u32 *)&uattr->data;
	return v & ~spec->max_val ? -EINVAL : 0;
}

static int uverbs_ia_check_enum(const struct uverbs_ia_spec *spec,
				const struct ib_uverbs_attr *uattr,
				bool (*cleared)(const struct ib_uverbs_attr *,
						u16))
{
	u8 elem = uattr->attr_data.enum_data.elem_id;

	if (elem >= spec->num_elems)
		return -EOPNOTSUPP;
	if (uattr->attr_data.enum_data.reserved)
		return -EINVAL;
	if (spec->elems[elem].type != UVERBS_IA_PTR_IN)
		return -EOPNOTSUPP;
	return uverbs_ia_check_size(&spec->elems[elem], uattr, true, cleared);
}

/**
 * uverbs_ioctl_attr_check() - Check one attribute against its spec
 * @spec: the spec of the method's attribute with this id
 * @uattr: the attribute as copied from user space
 * @cleared: says whether bytes @from..len of a non-inline PTR_IN are zero
 *	     (reads user memory; KUnit passes its own)
 *
 * The rules are 6.1's: a PTR_IN longer than its struct passes only with
 * the spec's zero_trailing and zero excess bytes (-EOPNOTSUPP otherwise);
 * shorter than the spec's minimum, or longer without zero_trailing, is
 * -EINVAL; a set reserved field is -EINVAL; an ENUM_IN element we do not
 * have is -EOPNOTSUPP; IDR and FD attributes carry no length. CONST_IN
 * values above the spec's maximum and FLAGS_IN bits outside it are -EINVAL.
 *
 * Context: Process context when @cleared reads user memory.
 * Return: 0 or the negative errno.
 */
int uverbs_ioctl_attr_check(const struct uverbs_ia_spec *spec,
			    const struct ib_uverbs_attr *uattr,
			    bool (*cleared)(const struct ib_uverbs_attr *uattr,
					    u16 from))
{
	int ret;

	switch (spec->type) {
	case UVERBS_IA_ENUM_IN:
		return uverbs_ia_check_enum(spec, uattr, cleared);
	case UVERBS_IA_PTR_IN:
	case UVERBS_IA_CONST_IN:
	case UVERBS_IA_FLAGS_IN:
	case UVERBS_IA_PTR_OUT:
		ret = uverbs_ia_check_size(spec, uattr,
					   spec->type != UVERBS_IA_PTR_OUT,
					   cleared);
		if (!ret && uattr->attr_data.reserved)
			ret = -EINVAL;
		return ret ? ret : uverbs_ia_check_value(spec, uattr);
	case UVERBS_IA_IDR:
	case UVERBS_IA_FD:
		if (uattr->attr_data.reserved || uattr->len)
			return -EINVAL;
		if (spec->type == UVERBS_IA_IDR && uattr->data_s64 < 0)
			return -EINVAL;
		return 0;
	}
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_ioctl_attr_check);

/**
 * uverbs_ioctl_spec_index() - Where a method lists an attribute id
 * @method: the method's row
 * @attr_id: the id user space sent
 *
 * Context: Any context.
 * Return: the index in @method->attrs, or -ENOENT.
 */
int uverbs_ioctl_spec_index(const struct uverbs_ioctl_method *method,
			    u16 attr_id)
{
	unsigned int i;

	for (i = 0; i < method->num_attrs; i++)
		if (method->attrs[i].id == attr_id)
			return i;
	return -ENOENT;
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_ioctl_spec_index);

static bool uverbs_ia_user_cleared(const struct ib_uverbs_attr *uattr, u16 from)
{
	return ib_is_buffer_cleared(u64_to_user_ptr(uattr->data) + from,
				    uattr->len - from);
}

/* 6.1's errnos for a handle: -ENOENT when absent, -EINVAL for another kind. */
static int uverbs_ia_handle_errno(struct ib_uverbs_file *file,
				  const struct uverbs_api_object *kind, s64 id)
{
	struct ib_uobject *uobj;
	int ret = 0;

	if (id > U32_MAX)
		return -ENOENT;
	xa_lock(&file->uobjs);
	uobj = xa_load(&file->uobjs, id);
	if (!uobj)
		ret = -ENOENT;
	else if (uobj->uapi_object != kind)
		ret = -EINVAL;
	xa_unlock(&file->uobjs);
	return ret;
}

/*
 * The object side of an IDR or FD attribute: hold what it names, or make
 * the handle or descriptor of what it will create and tell user space
 * its number (in the attribute's data, as 6.1 does).
 */
static int uverbs_ia_obj_get(struct uverbs_ioctl_ctx *ctx,
			     const struct uverbs_ia_spec *spec,
			     struct uverbs_ia_val *v)
{
	struct ib_uverbs_file *file = ctx->cmd.file;
	s64 __user *where = &ctx->uattrs_user[v->uidx].data_s64;
	struct ib_uobject *uobj;
	int ret;

	if (spec->access == UVERBS_IA_NEW && !ctx->cmd.ucontext)
		return -EINVAL;
	if (spec->type == UVERBS_IA_FD) {
		if (spec->access != UVERBS_IA_NEW)
			return -EOPNOTSUPP;
		ret = get_unused_fd_flags(O_CLOEXEC);
		if (ret < 0)
			return ret;
		v->fd = ret;
		return put_user((s64)v->fd, where) ? -EFAULT : 0;
	}
	if (spec->access == UVERBS_IA_NEW) {
		uobj = uverbs_uobj_alloc(file, spec->obj);
		if (IS_ERR(uobj))
			return PTR_ERR(uobj);
		v->uobj = uobj;
		uobj->context = ctx->cmd.ucontext;
		return put_user((s64)uobj->id, where) ? -EFAULT : 0;
	}
	ret = uverbs_ia_handle_errno(file, spec->obj, v->data);
	if (ret || spec->access == UVERBS_IA_DESTROY)
		return ret;
	uobj = uverbs_uobj_get_read(file, spec->obj, v->data);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	v->uobj = uobj;
	return 0;
}

/* Parse the user's attribute @uidx into its spec's slot. */
static int uverbs_ia_set(struct uverbs_ioctl_ctx *ctx, u16 uidx)
{
	const struct ib_uverbs_attr *uattr = &ctx->uattrs[uidx];
	int i = uverbs_ioctl_spec_index(ctx->method, uattr->attr_id);
	const struct uverbs_ia_spec *spec;
	struct uverbs_ia_val *v;
	int ret;

	if (i < 0)
		return uattr->flags & UVERBS_ATTR_F_MANDATORY ?
			-EPROTONOSUPPORT : 0;
	if (ctx->present & BIT(i))
		return -EINVAL;
	spec = &ctx->method->attrs[i];
	ret = uverbs_ioctl_attr_check(spec, uattr, uverbs_ia_user_cleared);
	if (ret)
		return ret;
	v = &ctx->val[i];
	v->uidx = uidx;
	v->len = uattr->len;
	v->enum_id = uattr->attr_data.enum_data.elem_id;
	v->data = uattr->data;
	if (spec->type == UVERBS_IA_IDR || spec->type == UVERBS_IA_FD) {
		ret = uverbs_ia_obj_get(ctx, spec, v);
		if (ret)
			return ret;
	}
	ctx->present |= BIT(i);
	return 0;
}

static bool uverbs_ia_mandatory_sent(const struct uverbs_ioctl_ctx *ctx)
{
	unsigned int i;

	for (i = 0; i < ctx->method->num_attrs; i++)
		if (ctx->method->attrs[i].mandatory && !(ctx->present & BIT(i)))
			return false;
	return true;
}

/* Objects the method destroys go before its handler runs. */
static int uverbs_ia_destroy(struct uverbs_ioctl_ctx *ctx)
{
	const struct uverbs_ia_spec *spec;
	unsigned int i;
	int ret;

	for (i = 0; i < ctx->method->num_attrs; i++) {
		spec = &ctx->method->attrs[i];
		if (spec->type != UVERBS_IA_IDR ||
		    spec->access != UVERBS_IA_DESTROY ||
		    !(ctx->present & BIT(i)))
			continue;
		ret = uverbs_uobj_destroy(ctx->cmd.file, spec->obj,
					  ctx->val[i].data);
		if (ret)
			return ret;
	}
	return 0;
}

/* A new handle: published on success, else its object destroyed and the handle returned. */
static void uverbs_ia_finish_new(struct uverbs_ioctl_ctx *ctx,
				 struct ib_uobject *uobj, bool commit)
{
	if (commit && uobj->object) {
		uverbs_uobj_publish(uobj);
		return;
	}
	if (uobj->object)
		uobj->uapi_object->type->destroy(uobj, ctx->cmd.file, true);
	uverbs_uobj_abort(uobj);
}

static void uverbs_ia_finish_fd(struct uverbs_ia_val *v, bool commit)
{
	if (commit && v->filp) {
		fd_install(v->fd, v->filp);
		return;
	}
	put_unused_fd(v->fd);
	if (v->filp)
		fput(v->filp);
}

/**
 * uverbs_ioctl_finish() - Release what parsing took; commit or abort
 * @ctx: the ioctl after uverbs_ioctl_parse() (and the handler)
 * @commit: the method succeeded: publish new handles and install new
 *	    descriptors; otherwise destroy what the method created and
 *	    give back the handles and descriptors reserved for it
 *
 * Context: Process context, may sleep.
 */
void uverbs_ioctl_finish(struct uverbs_ioctl_ctx *ctx, bool commit)
{
	const struct uverbs_ia_spec *spec;
	struct uverbs_ia_val *v;
	unsigned int i;

	for (i = 0; i < ctx->method->num_attrs; i++) {
		spec = &ctx->method->attrs[i];
		v = &ctx->val[i];
		if (v->fd >= 0)
			uverbs_ia_finish_fd(v, commit);
		if (!v->uobj)
			continue;
		if (spec->access == UVERBS_IA_NEW)
			uverbs_ia_finish_new(ctx, v->uobj, commit);
		else
			uverbs_uobj_put_read(v->uobj);
	}
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_ioctl_finish);

/**
 * uverbs_ioctl_parse() - Check the attribute array against the method's specs
 * @ctx: the ioctl: @ctx->method set, @ctx->uattrs copied in, every
 *	 @ctx->val[].fd -1
 * @num_attrs: how many attributes @ctx->uattrs holds
 *
 * Attributes the method does not list are skipped unless flagged
 * UVERBS_ATTR_F_MANDATORY; each listed one is checked and parsed into its
 * slot (IDR and FD attributes take or reserve their object: the caller
 * must run uverbs_ioctl_finish() whatever this returns).
 *
 * Context: Process context, may sleep.
 * Return: 0; -EPROTONOSUPPORT for an unknown mandatory attribute;
 * -EINVAL for one sent twice or a mandatory spec not sent; the errno of
 * the first attribute that fails its spec or its object lookup.
 */
int uverbs_ioctl_parse(struct uverbs_ioctl_ctx *ctx, u16 num_attrs)
{
	u16 i;
	int ret;

	for (i = 0; i < num_attrs; i++) {
		ret = uverbs_ia_set(ctx, i);
		if (ret)
			return ret;
	}
	return uverbs_ia_mandatory_sent(ctx) ? 0 : -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_ioctl_parse);

/* Parse, check, run; the caller finishes. */
static int uverbs_ioctl_run(struct uverbs_ioctl_ctx *ctx, u16 num_attrs)
{
	const struct uverbs_ioctl_method *m = ctx->method;
	int ret;

	ret = uverbs_ioctl_parse(ctx, num_attrs);
	if (ret)
		return ret;
	if (m->needs_ucontext && !ctx->cmd.ucontext)
		return -EINVAL;
	if (m->has_udata)
		uverbs_ioctl_udata(ctx, &ctx->cmd.driver_udata,
				   UVERBS_ATTR_UHW_IN, UVERBS_ATTR_UHW_OUT);
	ret = uverbs_ia_destroy(ctx);
	if (ret)
		return ret;
	ret = m->handler(ctx);
	if (!ret && m->has_udata && uverbs_ioctl_val(ctx, UVERBS_ATTR_UHW_OUT))
		ret = uverbs_ioctl_mark_written(ctx, UVERBS_ATTR_UHW_OUT);
	/* that errno means "unknown method" to libibverbs: never from a handler */
	if (ret == -EPROTONOSUPPORT) {
		pr_warn_ratelimited("ioctl method %u answered EPROTONOSUPPORT\n",
				    m->id);
		ret = -EINVAL;
	}
	return ret;
}

static bool uverbs_ioctl_has_op(const struct uverbs_ioctl_method *m,
				const struct ib_device *ib_dev)
{
	const void *const *op;

	if (!m->needs)
		return true;
	op = (const void *const *)((const char *)&ib_dev->ops + m->needs);
	return *op;
}

/* Inside the SRCU read side: device, driver id, method, then the run. */
static int uverbs_ioctl_device(struct uverbs_ioctl_ctx *ctx,
			       const struct ib_uverbs_ioctl_hdr *hdr)
{
	struct ib_device *ib_dev = ctx->cmd.ib_dev;
	unsigned int i;
	int ret;

	if (ib_dev && hdr->driver_id != ib_dev->ops.driver_id)
		return -EINVAL;
	ctx->method = uverbs_ioctl_method_find(hdr->object_id, hdr->method_id);
	if (!ctx->method || (ib_dev && !uverbs_ioctl_has_op(ctx->method, ib_dev)))
		return -EPROTONOSUPPORT;
	if (!ib_dev)
		return -EIO;
	if (copy_from_user(ctx->uattrs, ctx->uattrs_user,
			   array_size(hdr->num_attrs, sizeof(*ctx->uattrs))))
		return -EFAULT;
	ctx->cmd.ucontext = uverbs_file_ucontext(ctx->cmd.file);
	for (i = 0; i < ARRAY_SIZE(ctx->val); i++)
		ctx->val[i].fd = -1;
	ret = uverbs_ioctl_run(ctx, hdr->num_attrs);
	uverbs_ioctl_finish(ctx, !ret);
	return ret;
}

/**
 * uverbs_ioctl() - ioctl() of a uverbs device file: one method
 * @filp: the file
 * @cmd: RDMA_VERBS_IOCTL; anything else is not ours (-ENOTTY)
 * @arg: the user address of struct ib_uverbs_ioctl_hdr and its attributes
 *
 * Context: Process context, may sleep.
 * Return: 0 or a negative errno (see the top of this file).
 */
long uverbs_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct ib_uverbs_ioctl_hdr __user *uhdr = (void __user *)arg;
	struct ib_uverbs_file *file = filp->private_data;
	struct ib_uverbs_ioctl_hdr hdr;
	struct uverbs_ioctl_ctx *ctx;
	int key, ret;

	if (cmd != RDMA_VERBS_IOCTL)
		return -ENOIOCTLCMD;
	if (copy_from_user(&hdr, uhdr, sizeof(hdr)))
		return -EFAULT;
	ret = uverbs_ioctl_hdr_check(&hdr);
	if (ret)
		return ret;
	/* bounded: the header check caps num_attrs at a page's worth */
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->uattrs = kmalloc_array(hdr.num_attrs, sizeof(*ctx->uattrs),
				    GFP_KERNEL);
	if (hdr.num_attrs && !ctx->uattrs) {
		kfree(ctx);
		return -ENOMEM;
	}
	ctx->cmd.file = file;
	ctx->uattrs_user = uhdr->attrs;
	key = srcu_read_lock(&file->udev->srcu);
	ctx->cmd.ib_dev = uverbs_dev_get_ibdev(file->udev);
	ret = uverbs_ioctl_device(ctx, &hdr);
	srcu_read_unlock(&file->udev->srcu, key);
	kfree(ctx->uattrs);
	kfree(ctx);
	return ret;
}

/* ---- Helpers of the handlers --------------------------------------------- */

/**
 * uverbs_ioctl_val() - A sent attribute of the running method
 * @ctx: the ioctl
 * @attr_id: the attribute id
 *
 * Context: Any context.
 * Return: its parsed value, or NULL when user space did not send it.
 */
struct uverbs_ia_val *uverbs_ioctl_val(struct uverbs_ioctl_ctx *ctx, u16 attr_id)
{
	int i = uverbs_ioctl_spec_index(ctx->method, attr_id);

	return i >= 0 && (ctx->present & BIT(i)) ? &ctx->val[i] : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_ioctl_val);

/**
 * uverbs_ioctl_mark_written() - Set UVERBS_ATTR_F_VALID_OUTPUT on an output
 * @ctx: the ioctl
 * @attr_id: a PTR_OUT attribute the method wrote
 *
 * Context: Process context, may sleep.
 * Return: 0, -ENOENT when it was not sent, -EFAULT.
 */
int uverbs_ioctl_mark_written(struct uverbs_ioctl_ctx *ctx, u16 attr_id)
{
	const struct uverbs_ia_val *v = uverbs_ioctl_val(ctx, attr_id);
	u16 flags;

	if (!v)
		return -ENOENT;
	flags = ctx->uattrs[v->uidx].flags | UVERBS_ATTR_F_VALID_OUTPUT;
	return put_user(flags, &ctx->uattrs_user[v->uidx].flags) ? -EFAULT : 0;
}

/**
 * uverbs_ioctl_copy_to() - Answer in a PTR_OUT attribute
 * @ctx: the ioctl
 * @attr_id: the attribute
 * @from: the answer
 * @len: its size; as much as the attribute has room for is written
 * @zero_rest: zero the attribute's room beyond @len
 *
 * Marks the attribute written (UVERBS_ATTR_F_VALID_OUTPUT).
 *
 * Context: Process context, may sleep.
 * Return: 0, -ENOENT when user space did not send it, -EFAULT.
 */
int uverbs_ioctl_copy_to(struct uverbs_ioctl_ctx *ctx, u16 attr_id,
			 const void *from, size_t len, bool zero_rest)
{
	const struct uverbs_ia_val *v = uverbs_ioctl_val(ctx, attr_id);
	void __user *to;

	if (!v)
		return -ENOENT;
	to = u64_to_user_ptr(v->data);
	if (copy_to_user(to, from, min_t(size_t, v->len, len)))
		return -EFAULT;
	if (zero_rest && v->len > len && clear_user(to + len, v->len - len))
		return -EFAULT;
	return uverbs_ioctl_mark_written(ctx, attr_id);
}

/**
 * uverbs_ioctl_udata() - A udata of an input and an output attribute
 * @ctx: the ioctl
 * @udata: filled in; a side not sent is NULL and 0 long
 * @in_id: the PTR_IN attribute (inline data is read where user space
 *	   put it, in the attribute array)
 * @out_id: the PTR_OUT attribute
 *
 * Context: Any context.
 */
void uverbs_ioctl_udata(struct uverbs_ioctl_ctx *ctx, struct ib_udata *udata,
			u16 in_id, u16 out_id)
{
	const struct uverbs_ia_val *in = uverbs_ioctl_val(ctx, in_id);
	const struct uverbs_ia_val *out = uverbs_ioctl_val(ctx, out_id);

	*udata = (struct ib_udata) {};
	if (in && in->len) {
		udata->inlen = in->len;
		udata->inbuf = in->len > sizeof(in->data) ?
			u64_to_user_ptr(in->data) :
			(const void __user *)&ctx->uattrs_user[in->uidx].data;
	}
	if (out && out->len) {
		udata->outlen = out->len;
		udata->outbuf = u64_to_user_ptr(out->data);
	}
}
