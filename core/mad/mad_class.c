// SPDX-License-Identifier: GPL-2.0-only
/* What the MAD layer knows about management classes and methods: header sizes, RMPP, responses. */

#include <kunit/visibility.h>
#include <linux/export.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>

#include "mad/mad.h"

/*
 * The classes whose layout differs from the plain 24-byte MAD header: how
 * long their headers are and whether their messages may span several MADs
 * (RMPP). The vendor classes of range 2 all behave alike and are handled
 * by ib_mad_class_is_vendor2() instead of rows here.
 */
struct mad_class_row {
	u8	mgmt_class;
	u8	hdr_len;
	bool	rmpp;
};

static const struct mad_class_row mad_class_rows[] = {
	{ IB_MGMT_CLASS_SUBN_ADM,	IB_MGMT_SA_HDR,		true },
	{ IB_MGMT_CLASS_DEVICE_MGMT,	IB_MGMT_DEVICE_HDR,	true },
	{ IB_MGMT_CLASS_DEVICE_ADM,	IB_MGMT_DEVICE_HDR,	true },
	{ IB_MGMT_CLASS_BIS,		IB_MGMT_DEVICE_HDR,	true },
};

static const struct mad_class_row mad_class_vendor2 = {
	0, IB_MGMT_VENDOR_HDR, true
};

static const struct mad_class_row mad_class_plain = {
	0, IB_MGMT_MAD_HDR, false
};

bool ib_mad_class_is_vendor2(u8 mgmt_class)
{
	return mgmt_class >= IB_MGMT_CLASS_VENDOR_RANGE2_START &&
	       mgmt_class <= IB_MGMT_CLASS_VENDOR_RANGE2_END;
}
EXPORT_SYMBOL_IF_KUNIT(ib_mad_class_is_vendor2);

static const struct mad_class_row *mad_class_row(u8 mgmt_class)
{
	unsigned int i;

	if (ib_mad_class_is_vendor2(mgmt_class))
		return &mad_class_vendor2;
	for (i = 0; i < ARRAY_SIZE(mad_class_rows); i++)
		if (mad_class_rows[i].mgmt_class == mgmt_class)
			return &mad_class_rows[i];
	return &mad_class_plain;
}

/**
 * ib_get_mad_data_offset() - Where the class data of a MAD begins
 * @mgmt_class: management class of the MAD
 *
 * The length of all headers of the class: the common MAD header, plus the
 * RMPP and class headers for SA, device management, BIS and vendor range 2.
 *
 * Context: any.
 * Return: the offset in bytes.
 */
int ib_get_mad_data_offset(u8 mgmt_class)
{
	return mad_class_row(mgmt_class)->hdr_len;
}
EXPORT_SYMBOL(ib_get_mad_data_offset);

/**
 * ib_is_mad_class_rmpp() - Whether a class uses RMPP
 * @mgmt_class: management class
 *
 * Context: any.
 * Return: 1 if messages of @mgmt_class may be carried by RMPP, else 0.
 */
int ib_is_mad_class_rmpp(u8 mgmt_class)
{
	return mad_class_row(mgmt_class)->rmpp;
}
EXPORT_SYMBOL(ib_is_mad_class_rmpp);

/**
 * ib_mad_kernel_rmpp_agent() - Whether ib_mad performs RMPP for an agent
 * @agent: a registered agent
 *
 * True when the agent registered with an RMPP version and did not ask to
 * handle RMPP itself (IB_MAD_USER_RMPP, the umad users that do).
 *
 * Context: any.
 * Return: 1 or 0.
 */
int ib_mad_kernel_rmpp_agent(const struct ib_mad_agent *agent)
{
	return agent->rmpp_version && !(agent->flags & IB_MAD_USER_RMPP);
}
EXPORT_SYMBOL(ib_mad_kernel_rmpp_agent);

/**
 * ib_response_mad() - Whether a MAD answers a request
 * @hdr: the MAD's common header
 *
 * Responses are the methods with the response bit, TrapRepress, and
 * baseboard management MADs whose attribute modifier says response.
 * Responses are routed to the agent whose hi_tid their TID carries.
 *
 * Context: any.
 * Return: 1 for a response, else 0.
 */
int ib_response_mad(const struct ib_mad_hdr *hdr)
{
	if (hdr->method & IB_MGMT_METHOD_RESP)
		return 1;
	if (hdr->method == IB_MGMT_METHOD_TRAP_REPRESS)
		return 1;
	return hdr->mgmt_class == IB_MGMT_CLASS_BM &&
	       (hdr->attr_mod & IB_BM_ATTR_MOD_RESP);
}
EXPORT_SYMBOL(ib_response_mad);

static bool mad_class_is_smp(u8 mgmt_class)
{
	return mgmt_class == IB_MGMT_CLASS_SUBN_LID_ROUTED ||
	       mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
}

bool ib_mad_hdr_acceptable(const struct ib_mad_hdr *hdr, u32 qp_num)
{
	if (hdr->base_version != IB_MGMT_BASE_VERSION)
		return false;
	/* Subnet management lives on QP0 and nowhere else. */
	if (mad_class_is_smp(hdr->mgmt_class))
		return qp_num == 0;
	if (qp_num == 0)
		return false;
	/* Connection management speaks only in SENDs, but for ClassPortInfo. */
	if (hdr->mgmt_class == IB_MGMT_CLASS_CM &&
	    hdr->attr_id != IB_MGMT_CLASSPORTINFO_ATTR_ID &&
	    hdr->method != IB_MGMT_METHOD_SEND)
		return false;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(ib_mad_hdr_acceptable);

bool ib_mad_make_unsupported_reply(struct ib_mad_hdr *hdr)
{
	u16 status = IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;

	if (hdr->method != IB_MGMT_METHOD_GET &&
	    hdr->method != IB_MGMT_METHOD_SET)
		return false;
	hdr->method = IB_MGMT_METHOD_GET_RESP;
	/* A directed-route answer travels back: the D bit of its status. */
	if (hdr->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		status |= be16_to_cpu(IB_SMP_DIRECTION);
	hdr->status = cpu_to_be16(status);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(ib_mad_make_unsupported_reply);
