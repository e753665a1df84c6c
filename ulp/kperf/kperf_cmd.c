// SPDX-License-Identifier: GPL-2.0-only
/* ib_kperf: parsing and validating one command line of key=value pairs. */

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/inet.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "kperf.h"

#define QPT(t) BIT(IB_QPT_##t)

static const struct kperf_op_info kperf_ops[KPERF_OP_COUNT] = {
	[KPERF_OP_SEND] = { "send", IB_WR_SEND, QPT(RC) | QPT(UC) | QPT(UD),
			    .recv = true },
	[KPERF_OP_SEND_IMM] = { "send_imm", IB_WR_SEND_WITH_IMM,
				QPT(RC) | QPT(UC) | QPT(UD),
				.recv = true, .imm = true },
	[KPERF_OP_SEND_INV] = { "send_inv", IB_WR_SEND_WITH_INV, QPT(RC),
				.recv = true },
	[KPERF_OP_WRITE] = { "write", IB_WR_RDMA_WRITE, QPT(RC) | QPT(UC),
			     .remote = true },
	[KPERF_OP_WRITE_IMM] = { "write_imm", IB_WR_RDMA_WRITE_WITH_IMM,
				 QPT(RC) | QPT(UC), .recv = true,
				 .remote = true, .imm = true },
	[KPERF_OP_READ] = { "read", IB_WR_RDMA_READ, QPT(RC), .remote = true },
	[KPERF_OP_CAS] = { "cas", IB_WR_ATOMIC_CMP_AND_SWP, QPT(RC),
			   .remote = true, .atomic = true },
	[KPERF_OP_FAA] = { "faa", IB_WR_ATOMIC_FETCH_AND_ADD, QPT(RC),
			   .remote = true, .atomic = true },
};

static const char *const kperf_wc_names[] = {
	[IB_WC_SUCCESS] = "SUCCESS",
	[IB_WC_LOC_LEN_ERR] = "LOC_LEN_ERR",
	[IB_WC_LOC_QP_OP_ERR] = "LOC_QP_OP_ERR",
	[IB_WC_LOC_EEC_OP_ERR] = "LOC_EEC_OP_ERR",
	[IB_WC_LOC_PROT_ERR] = "LOC_PROT_ERR",
	[IB_WC_WR_FLUSH_ERR] = "WR_FLUSH_ERR",
	[IB_WC_MW_BIND_ERR] = "MW_BIND_ERR",
	[IB_WC_BAD_RESP_ERR] = "BAD_RESP_ERR",
	[IB_WC_LOC_ACCESS_ERR] = "LOC_ACCESS_ERR",
	[IB_WC_REM_INV_REQ_ERR] = "REM_INV_REQ_ERR",
	[IB_WC_REM_ACCESS_ERR] = "REM_ACCESS_ERR",
	[IB_WC_REM_OP_ERR] = "REM_OP_ERR",
	[IB_WC_RETRY_EXC_ERR] = "RETRY_EXC_ERR",
	[IB_WC_RNR_RETRY_EXC_ERR] = "RNR_RETRY_EXC_ERR",
	[IB_WC_LOC_RDD_VIOL_ERR] = "LOC_RDD_VIOL_ERR",
	[IB_WC_REM_INV_RD_REQ_ERR] = "REM_INV_RD_REQ_ERR",
	[IB_WC_REM_ABORT_ERR] = "REM_ABORT_ERR",
	[IB_WC_INV_EECN_ERR] = "INV_EECN_ERR",
	[IB_WC_INV_EEC_STATE_ERR] = "INV_EEC_STATE_ERR",
	[IB_WC_FATAL_ERR] = "FATAL_ERR",
	[IB_WC_RESP_TIMEOUT_ERR] = "RESP_TIMEOUT_ERR",
	[IB_WC_GENERAL_ERR] = "GENERAL_ERR",
};

static const char *const kperf_mode_names[] = {
	[KPERF_PING] = "ping", [KPERF_BW] = "bw", [KPERF_LAT] = "lat",
	[KPERF_MEMCPY] = "memcpy", [KPERF_MAD] = "mad",
	[KPERF_RPING] = "rping", [KPERF_UDADDY] = "udaddy",
	[KPERF_MCKEY] = "mckey",
};

static const char *const kperf_mad_names[] = {
	[KPERF_MAD_ECHO] = "echo", [KPERF_MAD_UNMATCHED] = "unmatched",
	[KPERF_MAD_TIMEOUT] = "timeout", [KPERF_MAD_CANCEL] = "cancel",
};

static const char *const kperf_fault_names[] = {
	[KPERF_FAULT_NONE] = "none", [KPERF_FAULT_BAD_RKEY] = "bad_rkey",
	[KPERF_FAULT_NO_RECV] = "no_recv", [KPERF_FAULT_QP_ERR] = "qp_err",
};

static const char *const kperf_mr_names[] = {
	[KPERF_MR_DMA] = "dma", [KPERF_MR_FRWR] = "frwr",
};

/**
 * kperf_op_info() - the facts about an operation
 * @op: a valid enum kperf_op
 *
 * Return: its entry in the operation table.
 */
const struct kperf_op_info *kperf_op_info(enum kperf_op op)
{
	return &kperf_ops[op];
}

/**
 * kperf_wc_name() - the short name of a completion status, as in expect=
 * @status: any value
 *
 * Return: e.g. "REM_ACCESS_ERR", or "UNKNOWN".
 */
const char *kperf_wc_name(enum ib_wc_status status)
{
	if ((unsigned int)status < ARRAY_SIZE(kperf_wc_names) &&
	    kperf_wc_names[status])
		return kperf_wc_names[status];
	return "UNKNOWN";
}

/**
 * kperf_mode_name() - the name of a mode in commands and results
 * @mode: a valid mode
 *
 * Return: "ping", "bw", "lat", "memcpy", "mad", "rping", "udaddy" or
 * "mckey".
 */
const char *kperf_mode_name(enum kperf_mode mode)
{
	return kperf_mode_names[mode];
}

/**
 * kperf_qp_name() - the name of a QP type in commands and results
 * @type: IB_QPT_RC, IB_QPT_UC or IB_QPT_UD
 *
 * Return: "rc", "uc" or "ud".
 */
const char *kperf_qp_name(enum ib_qp_type type)
{
	return type == IB_QPT_RC ? "rc" : type == IB_QPT_UC ? "uc" : "ud";
}

/* Index of @val in @names (NULL entries skipped), or -1. */
static int kperf_lookup(const char *const *names, int n, const char *val)
{
	int i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcasecmp(names[i], val))
			return i;
	return -1;
}

/* A byte count with an optional K or M suffix (binary). */
static int kperf_parse_size(const char *val, u32 *out)
{
	char num[16];
	size_t len = strlen(val);
	unsigned int shift = 0;
	u32 v;

	if (!len || len >= sizeof(num))
		return -EINVAL;
	strscpy(num, val, sizeof(num));
	if (num[len - 1] == 'K' || num[len - 1] == 'k')
		shift = 10;
	else if (num[len - 1] == 'M' || num[len - 1] == 'm')
		shift = 20;
	if (shift)
		num[len - 1] = '\0';
	if (kstrtou32(num, 0, &v) || v > (KPERF_MAX_SIZE >> shift))
		return -EINVAL;
	*out = v << shift;
	return 0;
}

static int kperf_key_mode(struct kperf_params *p, const char *v)
{
	int i = kperf_lookup(kperf_mode_names, ARRAY_SIZE(kperf_mode_names), v);

	p->mode = i;
	return i < 0 ? -EINVAL : 0;
}

static int kperf_key_dev(struct kperf_params *p, const char *v)
{
	return strscpy(p->dev, v, sizeof(p->dev)) < 1 ? -EINVAL : 0;
}

static int kperf_key_peer(struct kperf_params *p, const char *v)
{
	return strscpy(p->peer, v, sizeof(p->peer)) < 1 ? -EINVAL : 0;
}

static int kperf_key_qp(struct kperf_params *p, const char *v)
{
	static const char *const names[] = {
		[IB_QPT_RC] = "rc", [IB_QPT_UC] = "uc", [IB_QPT_UD] = "ud",
	};
	int i = kperf_lookup(names, ARRAY_SIZE(names), v);

	p->qp_type = i;
	return i < 0 ? -EINVAL : 0;
}

static int kperf_key_op(struct kperf_params *p, const char *v)
{
	int i;

	for (i = 0; i < KPERF_OP_COUNT; i++) {
		if (!strcasecmp(kperf_ops[i].name, v)) {
			p->op = i;
			return 0;
		}
	}
	return -EINVAL;
}

static int kperf_key_size(struct kperf_params *p, const char *v)
{
	return kperf_parse_size(v, &p->size);
}

/* 0 (mode=rping role=server: any number) is checked with the mode. */
static int kperf_key_iters(struct kperf_params *p, const char *v)
{
	return kstrtou32(v, 0, &p->iters) || p->iters == U32_MAX ? -EINVAL : 0;
}

static int kperf_key_qps(struct kperf_params *p, const char *v)
{
	return kstrtou32(v, 0, &p->qps) || !p->qps ||
	       p->qps > KPERF_MAX_QPS ? -EINVAL : 0;
}

static int kperf_key_depth(struct kperf_params *p, const char *v)
{
	return kstrtou32(v, 0, &p->depth) || !p->depth ||
	       p->depth > KPERF_MAX_DEPTH ? -EINVAL : 0;
}

static int kperf_key_sig(struct kperf_params *p, const char *v)
{
	return kstrtou32(v, 0, &p->sig) || !p->sig ? -EINVAL : 0;
}

static int kperf_key_mtu(struct kperf_params *p, const char *v)
{
	u32 bytes;

	if (kstrtou32(v, 0, &bytes))
		return -EINVAL;
	p->mtu = ib_mtu_int_to_enum(bytes);
	return ib_mtu_enum_to_int(p->mtu) == bytes ? 0 : -EINVAL;
}

static int kperf_key_gid(struct kperf_params *p, const char *v)
{
	return kstrtoint(v, 0, &p->gid) || p->gid < 0 ? -EINVAL : 0;
}

static int kperf_key_mr(struct kperf_params *p, const char *v)
{
	int i = kperf_lookup(kperf_mr_names, ARRAY_SIZE(kperf_mr_names), v);

	p->mr = i;
	p->mr_given = true;
	return i < 0 ? -EINVAL : 0;
}

static int kperf_key_inline(struct kperf_params *p, const char *v)
{
	return kstrtobool(v, &p->inline_data);
}

static int kperf_key_expect(struct kperf_params *p, const char *v)
{
	p->expect = kperf_lookup(kperf_wc_names, ARRAY_SIZE(kperf_wc_names), v);
	return p->expect < 0 ? -EINVAL : 0;
}

static int kperf_key_fault(struct kperf_params *p, const char *v)
{
	int i = kperf_lookup(kperf_fault_names, ARRAY_SIZE(kperf_fault_names),
			     v);

	p->fault = i;
	return i < 0 ? -EINVAL : 0;
}

static int kperf_key_ip(struct kperf_params *p, const char *v)
{
	if (!strcmp(v, "4") || !strcmp(v, "6")) {
		p->ip_family = v[0] - '0';
		return 0;
	}
	return -EINVAL;
}

static int kperf_key_srq(struct kperf_params *p, const char *v)
{
	return kstrtobool(v, &p->srq);
}

static int kperf_key_mcast(struct kperf_params *p, const char *v)
{
	return kstrtobool(v, &p->mcast);
}

static int kperf_key_mad(struct kperf_params *p, const char *v)
{
	int i = kperf_lookup(kperf_mad_names, ARRAY_SIZE(kperf_mad_names), v);

	p->mad = i;
	return i < 0 ? -EINVAL : 0;
}

static int kperf_key_rmpp(struct kperf_params *p, const char *v)
{
	return kstrtobool(v, &p->mad_rmpp);
}

static int kperf_key_resp_ms(struct kperf_params *p, const char *v)
{
	return kstrtou32(v, 0, &p->mad_resp_ms) || !p->mad_resp_ms ||
	       p->mad_resp_ms > 60000 ? -EINVAL : 0;
}

static int kperf_key_retries(struct kperf_params *p, const char *v)
{
	return kstrtou32(v, 0, &p->mad_retries) || p->mad_retries > 100 ?
	       -EINVAL : 0;
}

static int kperf_key_timeout(struct kperf_params *p, const char *v)
{
	return kstrtou32(v, 0, &p->timeout_ms) || !p->timeout_ms ? -EINVAL : 0;
}

/* 0 would turn the retransmit timer off: a lost packet would hang the QP. */
static int kperf_key_ack_timeout(struct kperf_params *p, const char *v)
{
	return kstrtou8(v, 0, &p->ack_timeout) || !p->ack_timeout ||
	       p->ack_timeout > 31 ? -EINVAL : 0;
}

static int kperf_key_cm(struct kperf_params *p, const char *v)
{
	if (!strcmp(v, "none"))
		p->cm = KPERF_CM_NONE;
	else if (!strcmp(v, "ib"))
		p->cm = KPERF_CM_IB;
	else if (!strcmp(v, "rdma"))
		p->cm = KPERF_CM_RDMA;
	else
		return -EINVAL;
	return 0;
}

/* An address, "IPV4[:PORT]" or "[IPV6][:PORT]", into @ss. */
static int kperf_parse_addr(struct sockaddr_storage *ss, const char *v)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;
	const char *end;
	u16 port = 0;

	memset(ss, 0, sizeof(*ss));
	if (v[0] == '[') {
		if (!in6_pton(v + 1, -1, sin6->sin6_addr.s6_addr, ']', &end) ||
		    *end++ != ']')
			return -EINVAL;
	} else if (!in4_pton(v, -1, (u8 *)&sin->sin_addr.s_addr, ':', &end)) {
		return -EINVAL;
	}
	if (*end == ':') {
		if (kstrtou16(end + 1, 10, &port) || !port)
			return -EINVAL;
	} else if (*end) {
		return -EINVAL;
	}
	if (v[0] == '[') {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(port);
	} else {
		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
	}
	return 0;
}

/* cm=rdma: where the dev side connects; mode=mckey: the group. */
static int kperf_key_addr(struct kperf_params *p, const char *v)
{
	return kperf_parse_addr(&p->addr, v);
}

/* mode=mckey: the address its id binds (mckey's -b). */
static int kperf_key_bind(struct kperf_params *p, const char *v)
{
	return kperf_parse_addr(&p->bind, v);
}

static int kperf_key_port(struct kperf_params *p, const char *v)
{
	return kstrtou16(v, 0, &p->port) || !p->port ? -EINVAL : 0;
}

static int kperf_key_role(struct kperf_params *p, const char *v)
{
	if (!strcmp(v, "client"))
		p->role = KPERF_RPING_CLIENT;
	else if (!strcmp(v, "server"))
		p->role = KPERF_RPING_SERVER;
	else
		return -EINVAL;
	return 0;
}

static int kperf_key_verify(struct kperf_params *p, const char *v)
{
	return kstrtobool(v, &p->verify);
}

static int kperf_key_timewait(struct kperf_params *p, const char *v)
{
	return kstrtobool(v, &p->timewait);
}

/* cm=rdma: at most a million cycles (a 0 would be no command at all). */
static int kperf_key_cycles(struct kperf_params *p, const char *v)
{
	return kstrtou32(v, 0, &p->cycles) || !p->cycles ||
	       p->cycles > 1000000 ? -EINVAL : 0;
}

static int kperf_key_abort(struct kperf_params *p, const char *v)
{
	int i = kperf_abort_lookup(v);

	p->abort = i < 0 ? KPERF_ABORT_NONE : i;
	return i < 0 ? -EINVAL : 0;
}

static int kperf_key_abort_first(struct kperf_params *p, const char *v)
{
	if (!strcmp(v, "dev"))
		p->abort_peer_first = false;
	else if (!strcmp(v, "peer"))
		p->abort_peer_first = true;
	else
		return -EINVAL;
	return 0;
}

static int kperf_key_hold(struct kperf_params *p, const char *v)
{
	return kstrtobool(v, &p->hold);
}

/* Which keys mode=rping takes (RPING), and which only it takes (ONLY). */
#define RPING	1
#define ONLY	2

static const struct {
	const char *key;
	int (*set)(struct kperf_params *p, const char *val);
	unsigned int rping;
} kperf_keys[] = {
	{ "mode", kperf_key_mode, RPING }, { "dev", kperf_key_dev },
	{ "peer", kperf_key_peer }, { "qp", kperf_key_qp },
	{ "op", kperf_key_op }, { "size", kperf_key_size, RPING },
	{ "iters", kperf_key_iters, RPING }, { "qps", kperf_key_qps },
	{ "depth", kperf_key_depth }, { "sig", kperf_key_sig },
	{ "mtu", kperf_key_mtu }, { "gid", kperf_key_gid },
	{ "mr", kperf_key_mr }, { "inline", kperf_key_inline },
	{ "expect", kperf_key_expect }, { "fault", kperf_key_fault },
	{ "timeout_ms", kperf_key_timeout, RPING }, { "ip", kperf_key_ip },
	{ "srq", kperf_key_srq }, { "mcast", kperf_key_mcast },
	{ "mad", kperf_key_mad }, { "resp_ms", kperf_key_resp_ms },
	{ "rmpp", kperf_key_rmpp },
	{ "retries", kperf_key_retries }, { "ack_timeout", kperf_key_ack_timeout },
	{ "cm", kperf_key_cm }, { "addr", kperf_key_addr, RPING },
	{ "port", kperf_key_port, RPING },
	{ "role", kperf_key_role, RPING | ONLY },
	{ "bind", kperf_key_bind, RPING | ONLY },
	{ "verify", kperf_key_verify, RPING | ONLY },
	{ "timewait", kperf_key_timewait, RPING | ONLY },
	{ "cycles", kperf_key_cycles }, { "abort", kperf_key_abort },
	{ "abort_first", kperf_key_abort_first }, { "hold", kperf_key_hold },
};

/* Applies one key=value token; says what is wrong with it in @why. */
static int kperf_cmd_token(struct kperf_params *p, char *tok, char *why,
			   size_t whylen)
{
	char *val = strchr(tok, '=');
	unsigned int i;

	if (!val) {
		snprintf(why, whylen, "'%s' is not key=value", tok);
		return -EINVAL;
	}
	*val++ = '\0';
	for (i = 0; i < ARRAY_SIZE(kperf_keys); i++) {
		if (strcmp(kperf_keys[i].key, tok))
			continue;
		if (kperf_keys[i].set(p, val)) {
			snprintf(why, whylen, "bad value '%s' for %s", val, tok);
			return -EINVAL;
		}
		if (!(kperf_keys[i].rping & RPING))
			p->not_rping = kperf_keys[i].key;
		if (kperf_keys[i].rping & ONLY)
			p->rping_only = kperf_keys[i].key;
		return 0;
	}
	snprintf(why, whylen, "unknown key '%s'", tok);
	return -EINVAL;
}

static void kperf_cmd_defaults(struct kperf_params *p)
{
	memset(p, 0, sizeof(*p));
	p->mode = KPERF_PING;
	p->qp_type = IB_QPT_RC;
	p->op = KPERF_OP_SEND;
	p->size = U32_MAX;	/* unset: depends on the operation */
	p->iters = U32_MAX;	/* unset: depends on the mode */
	p->qps = 1;
	p->gid = -1;
	p->ip_family = 4;
	p->expect = -1;
	p->timeout_ms = 5000;
	p->mad_resp_ms = 1000;
	p->mad_retries = 3;
	p->verify = true;
}

/* mode=udaddy or mode=mckey: one end of a UD tool of rdmacm-utils. */
static bool kperf_cmd_ud_tool(const struct kperf_params *p)
{
	return p->mode == KPERF_UDADDY || p->mode == KPERF_MCKEY;
}

/* Defaults that depend on other keys. */
static void kperf_cmd_derive(struct kperf_params *p)
{
	const struct kperf_op_info *op = &kperf_ops[p->op];

	if (!p->peer[0])
		strscpy(p->peer, p->dev, sizeof(p->peer));
	/* UD messages must fit the smallest path MTU; rping's are 64 bytes */
	if (p->size == U32_MAX && p->mode == KPERF_RPING)
		p->size = KPERF_RPING_SIZE;
	/* udaddy's and mckey's message size and count are the same */
	if (p->size == U32_MAX && kperf_cmd_ud_tool(p))
		p->size = KPERF_UDADDY_SIZE;
	if (p->iters == U32_MAX && kperf_cmd_ud_tool(p))
		p->iters = KPERF_UDADDY_COUNT;
	/* they post a receive per message before they connect or join */
	if (kperf_cmd_ud_tool(p))
		p->depth = p->iters;
	if (p->size == U32_MAX)
		p->size = op->atomic ? 8 : p->qp_type == IB_QPT_UD ? 256 : 4096;
	if (p->iters == U32_MAX)
		p->iters = p->mode == KPERF_PING || p->mode == KPERF_RPING ?
			   16 : 1000;
	if (!p->depth)
		p->depth = p->mode == KPERF_BW ? 16 : 4;
	if (!p->sig)
		p->sig = max(1U, p->depth / 2);
	if (!p->mr_given && (op->atomic || p->op == KPERF_OP_SEND_INV))
		p->mr = KPERF_MR_FRWR;
	if (p->cm == KPERF_CM_RDMA && !p->port)
		p->port = KPERF_RDMA_CM_PORT;
	if ((p->mode == KPERF_RPING || p->mode == KPERF_UDADDY) && !p->port)
		p->port = KPERF_RPING_PORT;
	/* cm=rdma keeps the timeout rdma_cm derives, as a ULP's QP does */
	if (p->cm != KPERF_CM_RDMA && !p->ack_timeout)
		p->ack_timeout = KPERF_ACK_TIMEOUT;
}

/* Refusals too long for one line once indented; the words are the interface. */
#define KPERF_CMD_BAD_RKEY_OP \
	"fault=bad_rkey needs qp=rc and a remote op (write, write_imm, read, cas, faa)"
#define KPERF_CMD_RPING_ONLY \
	"role=, verify= and timewait= need mode=rping or mode=udaddy (role= and bind=: mode=mckey)"

/* The fault rules; @why says which one a command breaks. */
static const char *kperf_cmd_check_fault(const struct kperf_params *p)
{
	const struct kperf_op_info *op = &kperf_ops[p->op];

	if (p->fault != KPERF_FAULT_NONE && p->mode != KPERF_PING)
		return "fault= needs mode=ping";
	if (p->fault == KPERF_FAULT_BAD_RKEY &&
	    (!op->remote || p->qp_type != IB_QPT_RC))
		return KPERF_CMD_BAD_RKEY_OP;
	if (p->fault == KPERF_FAULT_NO_RECV &&
	    (!op->recv || p->qp_type != IB_QPT_RC))
		return "fault=no_recv needs qp=rc and an op that consumes a receive";
	return NULL;
}

/* Cross-key rules; returns what is wrong or NULL. */
static const char *kperf_cmd_check(const struct kperf_params *p)
{
	const struct kperf_op_info *op = &kperf_ops[p->op];

	if (p->mode == KPERF_RPING)	/* one side, by address */
		return kperf_rping_check(p);
	if (p->mode == KPERF_UDADDY)
		return kperf_udaddy_check(p);
	if (p->mode == KPERF_MCKEY)
		return kperf_mckey_check(p);
	if (!p->iters)	/* as it was before mode=rping's iters=0 */
		return "bad value '0' for iters";
	if (p->mode == KPERF_MEMCPY)	/* no device; only size and iters */
		return NULL;
	if (p->rping_only)
		return KPERF_CMD_RPING_ONLY;
	if (!p->dev[0])
		return "dev= is required";
	if (p->mode == KPERF_MAD)	/* QP1s only; no op, qp or buffers */
		return kperf_mad_check(p);
	if (!(op->qp_types & BIT(p->qp_type)))
		return "op not allowed on this qp type";
	if (op->atomic && p->size != 8)
		return "atomics have size=8";
	if (p->sig > p->depth)
		return "sig must not exceed depth";
	if ((u64)p->qps * max_t(u32, p->size, PAGE_SIZE) > KPERF_MAX_MEM)
		return "qps * size exceeds 256 MiB (buffers are per QP and side)";
	if (p->qp_type == IB_QPT_UD && p->mr == KPERF_MR_FRWR)
		return "mr=frwr needs qp=rc or qp=uc";
	if ((op->atomic || p->op == KPERF_OP_SEND_INV) && p->mr != KPERF_MR_FRWR)
		return "atomics and send_inv need mr=frwr (the default for them)";
	if (p->op == KPERF_OP_SEND_INV && p->mode != KPERF_PING)
		return "send_inv is only supported in mode=ping";
	if (p->inline_data && (op->atomic || p->op == KPERF_OP_READ))
		return "inline=1 needs a send or write op";
	if (p->mode == KPERF_LAT && (op->atomic || p->op == KPERF_OP_READ ||
				     p->op == KPERF_OP_SEND_INV))
		return "mode=lat supports send, send_imm, write, write_imm";
	if (p->mode == KPERF_LAT && p->op == KPERF_OP_WRITE && !p->size)
		return "mode=lat op=write needs size >= 1";
	if (p->mode == KPERF_LAT && p->iters > KPERF_MAX_LAT_ITERS)
		return "mode=lat allows at most 1000000 iters";
	return kperf_cmd_check_fault(p) ?: kperf_srq_check(p) ?:
	       kperf_mcast_check(p) ?: kperf_cm_check(p) ?:
	       kperf_rdma_cm_check(p);
}

/**
 * kperf_cmd_parse() - parse and validate one command
 * @line: the command, modified in place (tokens are cut out of it)
 * @p: filled with the command and its defaults
 * @why: where the reason of a rejection is written
 * @whylen: size of @why
 *
 * Return: 0, or -EINVAL with @why saying what is wrong.
 */
int kperf_cmd_parse(char *line, struct kperf_params *p, char *why,
		    size_t whylen)
{
	char *tok;
	const char *bad;
	int ret;

	kperf_cmd_defaults(p);
	while ((tok = strsep(&line, " \t\n")) != NULL) {
		if (!*tok)
			continue;
		ret = kperf_cmd_token(p, tok, why, whylen);
		if (ret)
			return ret;
	}
	kperf_cmd_derive(p);
	bad = kperf_cmd_check(p);
	if (bad) {
		strscpy(why, bad, whylen);
		return -EINVAL;
	}
	return 0;
}
