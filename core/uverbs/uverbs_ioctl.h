/* SPDX-License-Identifier: GPL-2.0-only */
/* core/uverbs/: the RDMA_VERBS_IOCTL engine as its table, parser and handlers see it. */
#ifndef RDMAOOT_CORE_UVERBS_UVERBS_IOCTL_H
#define RDMAOOT_CORE_UVERBS_UVERBS_IOCTL_H

#include <rdma/ib_verbs.h>
#include <uapi/rdma/rdma_user_ioctl_cmds.h>

#include "uverbs.h"

/*
 * An ioctl names an object and a method; the method's row in the spec
 * table (uverbs_ioctl_table.c) lists the attributes it understands, each
 * with a spec saying what kind it is and which sizes and values pass. The
 * parser (uverbs_ioctl.c) checks the user's attribute array against those
 * specs and hands the handler a context with one parsed slot per spec;
 * the dispatcher runs the handler and then commits or aborts what the
 * method created. Everything a method may do is in its row: nothing is
 * looked up anywhere else.
 */

/* What kind of value an attribute carries (the spec's @type). */
enum uverbs_ia_type {
	UVERBS_IA_PTR_IN = 1,	/* bytes from user space, inline up to 8 */
	UVERBS_IA_PTR_OUT,	/* room in user space for an answer */
	UVERBS_IA_CONST_IN,	/* a u64 inline, at most @max_val */
	UVERBS_IA_FLAGS_IN,	/* a u32 or u64 inline, bits within @max_val */
	UVERBS_IA_ENUM_IN,	/* one of @num_elems PTR_IN specs by elem_id */
	UVERBS_IA_IDR,		/* a handle of the file's table */
	UVERBS_IA_FD,		/* a file descriptor the method makes */
};

/* What an IDR or FD attribute does to its object (the spec's @access). */
enum uverbs_ia_access {
	UVERBS_IA_READ,		/* uses it: the handle is held for reading */
	UVERBS_IA_NEW,		/* creates it: committed only on success */
	UVERBS_IA_DESTROY,	/* destroys it, before the handler runs */
};

/**
 * struct uverbs_ia_spec - what one attribute of a method may be
 * @id: the attribute id user space sends
 * @type: enum uverbs_ia_type
 * @access: enum uverbs_ia_access, for IDR and FD
 * @mandatory: the method fails with -EINVAL without it
 * @zero_trailing: PTR_IN longer than @max_len passes when the excess
 *		   bytes are zero (-EOPNOTSUPP otherwise); without it a
 *		   longer one is -EINVAL
 * @min_len: PTR_IN/PTR_OUT: the least length that passes
 * @max_len: PTR_IN/PTR_OUT: the struct's full length
 * @max_val: CONST_IN: the largest value; FLAGS_IN: the bits allowed
 * @obj: IDR: the kind of object the handle must name
 * @num_elems: ENUM_IN: how many element ids exist
 * @elems: ENUM_IN: per element id, the PTR_IN spec its data follows
 */
struct uverbs_ia_spec {
	u16 id;
	u8 type;
	u8 access;
	u8 mandatory:1;
	u8 zero_trailing:1;
	u16 min_len;
	u16 max_len;
	u64 max_val;
	const struct uverbs_api_object *obj;
	u8 num_elems;
	const struct uverbs_ia_spec *elems;
};

/* The most attributes one method's row may list (one parsed slot each). */
#define UVERBS_IOCTL_MAX_ATTRS	8

/**
 * struct uverbs_ia_val - one attribute as the parser found it
 * @uidx: its index in the user's array (to set its output flag)
 * @len: its length
 * @enum_id: ENUM_IN: the element id
 * @data: the inline value, or the user address of the bytes
 * @uobj: IDR READ/NEW: the object's handle-table entry
 * @fd: FD NEW: the descriptor reserved for the new file
 * @filp: FD NEW: the file the handler made, installed on success
 */
struct uverbs_ia_val {
	u16 uidx;
	u16 len;
	u8 enum_id;
	u64 data;
	struct ib_uobject *uobj;
	int fd;
	struct file *filp;
};

struct uverbs_ioctl_ctx;

/**
 * struct uverbs_ioctl_method - one row of the spec table
 * @id: the method id
 * @handler: runs the method once every attribute passed its spec
 * @attrs: the attributes it understands
 * @num_attrs: how many (at most UVERBS_IOCTL_MAX_ATTRS)
 * @needs_ucontext: -EINVAL on a file without a ucontext
 * @has_udata: UVERBS_ATTR_UHW_IN/OUT are the driver's data
 * @needs: offset in struct ib_device_ops of the driver op without which
 *	   the method does not exist for the device (-EPROTONOSUPPORT), or 0
 */
struct uverbs_ioctl_method {
	u16 id;
	int (*handler)(struct uverbs_ioctl_ctx *ctx);
	const struct uverbs_ia_spec *attrs;
	u8 num_attrs;
	u8 needs_ucontext:1;
	u8 has_udata:1;
	u16 needs;
};

/**
 * struct uverbs_ioctl_object - an object of the spec table and its methods
 * @id: the object id
 * @methods: its methods
 * @num_methods: how many
 * @handles: the handle-table kind INFO_HANDLES lists for it, or NULL
 */
struct uverbs_ioctl_object {
	u16 id;
	const struct uverbs_ioctl_method *methods;
	u8 num_methods;
	const struct uverbs_api_object *handles;
};

/**
 * struct uverbs_ioctl_ctx - one ioctl as its handler sees it
 * @cmd: file, device, ucontext and udata as for a write() command (the
 *	 driver's data is UHW_IN/UHW_OUT for methods with @has_udata)
 * @method: the method's row
 * @uattrs_user: the user's attribute array
 * @uattrs: a copy of it
 * @present: bit i set when @method->attrs[i] was sent
 * @val: the parsed attributes, by spec index
 */
struct uverbs_ioctl_ctx {
	struct uverbs_cmd_ctx cmd;
	const struct uverbs_ioctl_method *method;
	struct ib_uverbs_attr __user *uattrs_user;
	struct ib_uverbs_attr *uattrs;
	unsigned long present;
	struct uverbs_ia_val val[UVERBS_IOCTL_MAX_ATTRS];
};

/* ---- The spec table (uverbs_ioctl_table.c) ------------------------------- */

extern const struct uverbs_ioctl_object uverbs_ioctl_objects[];
extern const unsigned int uverbs_ioctl_num_objects;
const struct uverbs_ioctl_object *uverbs_ioctl_object_find(u16 object_id);
const struct uverbs_ioctl_method *uverbs_ioctl_method_find(u16 object_id,
							   u16 method_id);

/* ---- The engine (uverbs_ioctl.c) ----------------------------------------- */

int uverbs_ioctl_hdr_check(const struct ib_uverbs_ioctl_hdr *hdr);
int uverbs_ioctl_attr_check(const struct uverbs_ia_spec *spec,
			    const struct ib_uverbs_attr *uattr,
			    bool (*cleared)(const struct ib_uverbs_attr *uattr,
					    u16 from));
int uverbs_ioctl_spec_index(const struct uverbs_ioctl_method *method,
			    u16 attr_id);
int uverbs_ioctl_parse(struct uverbs_ioctl_ctx *ctx, u16 num_attrs);
void uverbs_ioctl_finish(struct uverbs_ioctl_ctx *ctx, bool commit);
long uverbs_ioctl(struct file *filp, unsigned int cmd, unsigned long arg);

/* Helpers of the handlers. */
struct uverbs_ia_val *uverbs_ioctl_val(struct uverbs_ioctl_ctx *ctx, u16 attr_id);
int uverbs_ioctl_copy_to(struct uverbs_ioctl_ctx *ctx, u16 attr_id,
			 const void *from, size_t len, bool zero_rest);
int uverbs_ioctl_mark_written(struct uverbs_ioctl_ctx *ctx, u16 attr_id);
void uverbs_ioctl_udata(struct uverbs_ioctl_ctx *ctx, struct ib_udata *udata,
			u16 in_id, u16 out_id);

/* ---- The methods (uverbs_ioctl_device.c) --------------------------------- */

int uverbs_ioctl_invoke_write(struct uverbs_ioctl_ctx *ctx);
int uverbs_ioctl_info_handles(struct uverbs_ioctl_ctx *ctx);
int uverbs_ioctl_query_port(struct uverbs_ioctl_ctx *ctx);
int uverbs_ioctl_get_context(struct uverbs_ioctl_ctx *ctx);
int uverbs_ioctl_query_context(struct uverbs_ioctl_ctx *ctx);
int uverbs_ioctl_query_gid_table(struct uverbs_ioctl_ctx *ctx);
int uverbs_ioctl_query_gid_entry(struct uverbs_ioctl_ctx *ctx);
int uverbs_ioctl_async_event_alloc(struct uverbs_ioctl_ctx *ctx);
int uverbs_ioctl_destroy_done(struct uverbs_ioctl_ctx *ctx);

#endif /* RDMAOOT_CORE_UVERBS_UVERBS_IOCTL_H */
