// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ioctl spec table: per object, its methods; per method, its handler and
 * the specs of its attributes.
 */
/*
 * Ids are Linux 6.1's (<uapi/rdma/ib_user_ioctl_cmds.h>); sizes and value
 * ranges are what 6.1 accepts for each attribute. An object or method not
 * in the table answers -EPROTONOSUPPORT, which libibverbs takes as "use
 * write() for this verb": that is how the verbs whose ioctl methods we do
 * not have yet (CQ_CREATE, QP_CREATE, MR_DESTROY, ...) keep working.
 */

#include <kunit/visibility.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <rdma/ib_verbs.h>
#include <uapi/rdma/ib_user_ioctl_cmds.h>

#include "uverbs/uverbs_ioctl.h"

/* Attribute specs, one line each. */
#define IA_CONST(i, max, m)						\
	{ .id = i, .type = UVERBS_IA_CONST_IN, .min_len = sizeof(u64),	\
	  .max_len = sizeof(u64), .max_val = max, .mandatory = m }
#define IA_FLAGS(i, bits, m)						\
	{ .id = i, .type = UVERBS_IA_FLAGS_IN, .min_len = sizeof(u32),	\
	  .max_len = sizeof(u64), .max_val = bits, .mandatory = m }
/* bytes in or out, at least @lo; longer than @hi: see zero_trailing */
#define IA_IN(i, lo, hi, m)						\
	{ .id = i, .type = UVERBS_IA_PTR_IN, .min_len = lo,		\
	  .max_len = hi, .mandatory = m }
#define IA_OUT(i, lo, hi, m)						\
	{ .id = i, .type = UVERBS_IA_PTR_OUT, .min_len = lo,		\
	  .max_len = hi, .mandatory = m }
/* a struct that may grow: up to @last required, more must be zero */
#define IA_OUT_STRUCT(i, st, last, m)					\
	{ .id = i, .type = UVERBS_IA_PTR_OUT,				\
	  .min_len = offsetofend(st, last), .max_len = sizeof(st),	\
	  .zero_trailing = 1, .mandatory = m }
#define IA_IDR(i, kind, acc, m)						\
	{ .id = i, .type = UVERBS_IA_IDR, .obj = kind, .access = acc,	\
	  .mandatory = m }
#define IA_FD(i, acc, m)						\
	{ .id = i, .type = UVERBS_IA_FD, .access = acc, .mandatory = m }
/* the driver's data of a method with has_udata */
#define IA_UHW								\
	IA_IN(UVERBS_ATTR_UHW_IN, 0, U16_MAX, 0),			\
	IA_OUT(UVERBS_ATTR_UHW_OUT, 0, U16_MAX, 0)

#define IA_MANDATORY	1
#define IA_OPTIONAL	0

#define UVERBS_IOCTL_NEEDS(op)	offsetof(struct ib_device_ops, op)

#define METHOD(i, fn, specs, ...)					\
	{ .id = i, .handler = fn, .attrs = specs,			\
	  .num_attrs = ARRAY_SIZE(specs), __VA_ARGS__ }

/* ---- UVERBS_OBJECT_DEVICE ------------------------------------------------ */

static const struct uverbs_ia_spec uverbs_ia_invoke_write[] = {
	IA_CONST(UVERBS_ATTR_WRITE_CMD, U32_MAX, IA_MANDATORY),
	IA_IN(UVERBS_ATTR_CORE_IN, sizeof(u32), U16_MAX, IA_OPTIONAL),
	IA_OUT(UVERBS_ATTR_CORE_OUT, 0, U16_MAX, IA_OPTIONAL),
	IA_UHW,
};

static const struct uverbs_ia_spec uverbs_ia_info_handles[] = {
	IA_CONST(UVERBS_ATTR_INFO_OBJECT_ID, U16_MAX, IA_MANDATORY),
	IA_OUT(UVERBS_ATTR_INFO_TOTAL_HANDLES, sizeof(u32), sizeof(u32),
	       IA_OPTIONAL),
	IA_OUT(UVERBS_ATTR_INFO_HANDLES_LIST, sizeof(u32), U16_MAX,
	       IA_OPTIONAL),
};

static const struct uverbs_ia_spec uverbs_ia_query_port[] = {
	IA_CONST(UVERBS_ATTR_QUERY_PORT_PORT_NUM, U8_MAX, IA_MANDATORY),
	IA_OUT_STRUCT(UVERBS_ATTR_QUERY_PORT_RESP,
		      struct ib_uverbs_query_port_resp_ex, reserved,
		      IA_MANDATORY),
};

static const struct uverbs_ia_spec uverbs_ia_get_context[] = {
	IA_OUT(UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS, sizeof(u32),
	       sizeof(u32), IA_OPTIONAL),
	IA_OUT(UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT, sizeof(u64), sizeof(u64),
	       IA_OPTIONAL),
	IA_UHW,
};

static const struct uverbs_ia_spec uverbs_ia_query_context[] = {
	IA_OUT(UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS, sizeof(u32),
	       sizeof(u32), IA_OPTIONAL),
	IA_OUT(UVERBS_ATTR_QUERY_CONTEXT_CORE_SUPPORT, sizeof(u64),
	       sizeof(u64), IA_OPTIONAL),
};

static const struct uverbs_ia_spec uverbs_ia_query_gid_table[] = {
	IA_CONST(UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, U64_MAX, IA_MANDATORY),
	IA_FLAGS(UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, 0, IA_OPTIONAL),
	IA_OUT(UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES, 0, U16_MAX,
	       IA_MANDATORY),
	IA_OUT(UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES, sizeof(u64),
	       sizeof(u64), IA_MANDATORY),
};

static const struct uverbs_ia_spec uverbs_ia_query_gid_entry[] = {
	IA_CONST(UVERBS_ATTR_QUERY_GID_ENTRY_PORT, U32_MAX, IA_MANDATORY),
	IA_CONST(UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, U32_MAX, IA_MANDATORY),
	IA_FLAGS(UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, 0, IA_MANDATORY),
	IA_OUT_STRUCT(UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY,
		      struct ib_uverbs_gid_entry, netdev_ifindex, IA_MANDATORY),
};

static const struct uverbs_ioctl_method uverbs_methods_device[] = {
	METHOD(UVERBS_METHOD_INVOKE_WRITE, uverbs_ioctl_invoke_write,
	       uverbs_ia_invoke_write, .has_udata = 1),
	METHOD(UVERBS_METHOD_INFO_HANDLES, uverbs_ioctl_info_handles,
	       uverbs_ia_info_handles),
	METHOD(UVERBS_METHOD_QUERY_PORT, uverbs_ioctl_query_port,
	       uverbs_ia_query_port, .needs_ucontext = 1),
	METHOD(UVERBS_METHOD_GET_CONTEXT, uverbs_ioctl_get_context,
	       uverbs_ia_get_context, .has_udata = 1),
	METHOD(UVERBS_METHOD_QUERY_CONTEXT, uverbs_ioctl_query_context,
	       uverbs_ia_query_context, .needs_ucontext = 1),
	METHOD(UVERBS_METHOD_QUERY_GID_TABLE, uverbs_ioctl_query_gid_table,
	       uverbs_ia_query_gid_table, .needs_ucontext = 1),
	METHOD(UVERBS_METHOD_QUERY_GID_ENTRY, uverbs_ioctl_query_gid_entry,
	       uverbs_ia_query_gid_entry, .needs_ucontext = 1),
};

/* ---- UVERBS_OBJECT_ASYNC_EVENT ------------------------------------------- */

static const struct uverbs_ia_spec uverbs_ia_async_event_alloc[] = {
	IA_FD(UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE, UVERBS_IA_NEW,
	      IA_MANDATORY),
};

static const struct uverbs_ioctl_method uverbs_methods_async_event[] = {
	METHOD(UVERBS_METHOD_ASYNC_EVENT_ALLOC, uverbs_ioctl_async_event_alloc,
	       uverbs_ia_async_event_alloc, .needs_ucontext = 1),
};

/* ---- UVERBS_OBJECT_PD ---------------------------------------------------- */

static const struct uverbs_ia_spec uverbs_ia_pd_destroy[] = {
	IA_IDR(UVERBS_ATTR_DESTROY_PD_HANDLE, &uverbs_obj_pd,
	       UVERBS_IA_DESTROY, IA_MANDATORY),
};

static const struct uverbs_ioctl_method uverbs_methods_pd[] = {
	METHOD(UVERBS_METHOD_PD_DESTROY, uverbs_ioctl_destroy_done,
	       uverbs_ia_pd_destroy, .needs_ucontext = 1,
	       .needs = UVERBS_IOCTL_NEEDS(dealloc_pd)),
};

#define OBJECT(i, m, ...)						\
	{ .id = i, .methods = m, .num_methods = ARRAY_SIZE(m), __VA_ARGS__ }

/*
 * Objects without methods are listed so INFO_HANDLES knows them (6.1's
 * object ids); @handles says which handle-table kind backs them.
 */
const struct uverbs_ioctl_object uverbs_ioctl_objects[] = {
	OBJECT(UVERBS_OBJECT_DEVICE, uverbs_methods_device),
	OBJECT(UVERBS_OBJECT_PD, uverbs_methods_pd, .handles = &uverbs_obj_pd),
	OBJECT(UVERBS_OBJECT_ASYNC_EVENT, uverbs_methods_async_event),
};
EXPORT_SYMBOL_IF_KUNIT(uverbs_ioctl_objects);

const unsigned int uverbs_ioctl_num_objects = ARRAY_SIZE(uverbs_ioctl_objects);
EXPORT_SYMBOL_IF_KUNIT(uverbs_ioctl_num_objects);

/**
 * uverbs_ioctl_object_find() - The table row of an object id
 * @object_id: as user space sent it
 *
 * Context: Any context.
 * Return: the row, or NULL when we have no such object.
 */
const struct uverbs_ioctl_object *uverbs_ioctl_object_find(u16 object_id)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(uverbs_ioctl_objects); i++)
		if (uverbs_ioctl_objects[i].id == object_id)
			return &uverbs_ioctl_objects[i];
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_ioctl_object_find);

/**
 * uverbs_ioctl_method_find() - The table row of a method
 * @object_id: the object id of the ioctl header
 * @method_id: its method id
 *
 * Context: Any context.
 * Return: the row, or NULL (the ioctl answers -EPROTONOSUPPORT).
 */
const struct uverbs_ioctl_method *uverbs_ioctl_method_find(u16 object_id,
							   u16 method_id)
{
	const struct uverbs_ioctl_object *obj = uverbs_ioctl_object_find(object_id);
	unsigned int i;

	for (i = 0; obj && i < obj->num_methods; i++)
		if (obj->methods[i].id == method_id)
			return &obj->methods[i];
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_ioctl_method_find);
