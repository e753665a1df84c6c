/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The ib_cm suites' fixture: a fake wire that records what the engine sends, a
 * fake device and port, an owner that records its events, received MADs.
 */
#ifndef RDMAOOT_KUNIT_CM_CM_FIXTURE_H
#define RDMAOOT_KUNIT_CM_CM_FIXTURE_H

#include <kunit/test.h>
#include <rdma/ib_mad.h>

#include "core/cm/cm.h"

/*
 * No device and no MADs behind it: the engine runs against struct
 * cm_wire_ops of its own (cm_wire_set()), messages come in through
 * cm_recv_mad(), the function ib_cm's MAD agent hands every receive to.
 * A suite's init and exit are cm_test_init() and cm_test_exit(); each
 * module that includes this has its own copy of the state below.
 */

/* ---- The fake wire ------------------------------------------------------- */

static struct {
	int sent, last_kind, ret;
	struct cm_out last;
	bool reply_irqs_off;	/* the last reply went with IRQs off */
} wire;

static inline int fake_send(struct cm_id_priv *priv, struct cm_out *out)
{
	if (wire.ret)
		return wire.ret;
	wire.sent++;
	wire.last_kind = out->kind;
	wire.last = *out;
	return 0;
}

static inline int fake_reply(const struct cm_in *in, struct cm_out *out)
{
	wire.reply_irqs_off = irqs_disabled();
	return fake_send(NULL, out);
}

static inline void fake_cancel(struct cm_id_priv *priv)
{
}

static inline int fake_extend(struct cm_id_priv *priv,
			      unsigned int timeout_ms)
{
	return 0;
}

static inline int fake_av_from_path(struct cm_av *av,
				    struct ib_device *device,
				    struct sa_path_rec *path,
				    const struct ib_gid_attr *sgid_attr)
{
	return 0;
}

static inline int fake_av_from_wc(struct cm_av *av, const struct cm_in *in)
{
	av->port = in->port;
	return 0;
}

static const struct cm_wire_ops fake_wire = {
	.send = fake_send, .reply = fake_reply, .cancel = fake_cancel,
	.extend = fake_extend, .av_from_path = fake_av_from_path,
	.av_from_wc = fake_av_from_wc,
};

/* ---- The device, its port and an owner ----------------------------------- */

static struct ib_device fake_dev = { .node_guid = cpu_to_be64(0x1122334455667788ULL) };

/* The port messages arrive on; its counters start at zero in every case. */
static struct cm_device *fake_cm_dev;
static struct cm_port fake_port;

static inline void expect_count(struct kunit *test,
				enum cm_count_group group,
				enum cm_msg_kind kind, long want)
{
	KUNIT_EXPECT_EQ_MSG(test, atomic_long_read(&fake_port.counts[group][kind]),
			    want, "counter group %d, %s", group,
			    cm_input_name((enum cm_input)kind));
}

static inline long port_sum(enum cm_count_group group)
{
	long sum = 0;
	unsigned int k;

	for (k = 0; k < CM_MSG_KINDS; k++)
		sum += atomic_long_read(&fake_port.counts[group][k]);
	return sum;
}

/*
 * What an owner saw: events, the last one's type, the id a REQ or SIDR
 * REQ made (valid while @ret is 0: a non-zero @ret, returned from every
 * event, makes ib_cm destroy the id itself).
 */
struct events {
	int count;
	int last;
	int ret;
	struct ib_cm_id *new_id;
	const struct ib_gid_attr *sgid_attr;	/* of the REQ_RECEIVED */
	/* of the last REQ_RECEIVED or REP_RECEIVED */
	u8 responder_resources;
	u8 initiator_depth;
};

static inline int record_event(struct ib_cm_id *cm_id,
			       const struct ib_cm_event *ev)
{
	struct events *e = cm_id->context;

	if (!e)
		return 0;
	e->count++;
	e->last = ev->event;
	if (ev->event == IB_CM_REQ_RECEIVED) {
		e->new_id = cm_id;
		e->sgid_attr = ev->param.req_rcvd.ppath_sgid_attr;
		e->responder_resources = ev->param.req_rcvd.responder_resources;
		e->initiator_depth = ev->param.req_rcvd.initiator_depth;
	}
	if (ev->event == IB_CM_REP_RECEIVED) {
		e->responder_resources = ev->param.rep_rcvd.responder_resources;
		e->initiator_depth = ev->param.rep_rcvd.initiator_depth;
	}
	if (ev->event == IB_CM_SIDR_REQ_RECEIVED)
		e->new_id = cm_id;
	return e->ret;
}

static inline int cm_test_init(struct kunit *test)
{
	fake_cm_dev = kunit_kzalloc(test, sizeof(*fake_cm_dev), GFP_KERNEL);
	if (!fake_cm_dev)
		return -ENOMEM;
	fake_cm_dev->device = &fake_dev;
	memset(&fake_port, 0, sizeof(fake_port));
	fake_port.dev = fake_cm_dev;
	fake_port.port_num = 1;
	memset(&wire, 0, sizeof(wire));
	cm_wire_set(&fake_wire);
	return 0;
}

static inline void cm_test_exit(struct kunit *test)
{
	cm_wire_set(NULL);
}

/* ---- One id in a chosen state -------------------------------------------- */

static inline bool state_has_connection(enum ib_cm_state s)
{
	return s >= IB_CM_REQ_SENT && s <= IB_CM_DREQ_RCVD;
}

/*
 * An id of @ev put in state @s as if it had got there, with a connection
 * identity (not yet in the remote lookups) where @s has one. Not
 * published: cm_id_publish() lets received messages find it.
 */
static inline struct cm_id_priv *id_in_state(struct kunit *test,
					     enum ib_cm_state s,
					     struct events *ev)
{
	struct cm_id_priv *priv = cm_id_alloc(&fake_dev, record_event, ev);

	KUNIT_ASSERT_FALSE(test, IS_ERR(priv));
	priv->id.state = s;
	if (state_has_connection(s)) {
		priv->tw = cm_timewait_alloc(priv, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, priv->tw);
	}
	return priv;
}

/* ---- Received MADs -------------------------------------------------------- */

/* A receive of a MAD whose header says @class, @version, @method, @attr. */
static inline struct ib_mad_recv_wc *rwc_make(struct kunit *test, u8 class,
					      u8 version, u8 method, u16 attr)
{
	struct ib_mad_recv_wc *rwc = kunit_kzalloc(test, sizeof(*rwc),
						   GFP_KERNEL);
	struct ib_mad *mad = kunit_kzalloc(test, sizeof(*mad), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, rwc);
	KUNIT_ASSERT_NOT_NULL(test, mad);
	mad->mad_hdr.base_version = IB_MGMT_BASE_VERSION;
	mad->mad_hdr.mgmt_class = class;
	mad->mad_hdr.class_version = version;
	mad->mad_hdr.method = method;
	mad->mad_hdr.attr_id = cpu_to_be16(attr);
	rwc->recv_buf.mad = mad;
	rwc->mad_len = sizeof(*mad);
	return rwc;
}

/* A receive of the CM message @msg (struct cm_msg_<k>), TID 7. */
static inline struct ib_mad_recv_wc *cm_mad(struct kunit *test,
					    enum cm_msg_kind k, const void *msg)
{
	struct ib_mad_recv_wc *rwc = rwc_make(test, IB_MGMT_CLASS_CM, 2,
					      IB_MGMT_METHOD_SEND, 0);

	cm_msg_hdr_init(&rwc->recv_buf.mad->mad_hdr, k, cpu_to_be64(7));
	cm_msg_encode(k, msg, rwc->recv_buf.mad);
	return rwc;
}

#endif /* RDMAOOT_KUNIT_CM_CM_FIXTURE_H */
