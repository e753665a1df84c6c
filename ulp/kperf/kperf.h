/* SPDX-License-Identifier: GPL-2.0-only */
/* ib_kperf: the types and functions every part of the verbs test tool shares. */
#ifndef KPERF_H
#define KPERF_H

#include <linux/completion.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/scatterlist.h>
#include <linux/seq_buf.h>
#include <linux/socket.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

/* Limits of a command. */
#define KPERF_MAX_SIZE		(16U << 20)
#define KPERF_MAX_QPS		128
#define KPERF_MAX_MEM		(256ULL << 20)	/* qps * size */
#define KPERF_MAX_DEPTH		4096
#define KPERF_MAX_LAT_ITERS	1000000
#define KPERF_UD_GRH		40	/* a UD receive starts with the GRH */
#define KPERF_UD_QKEY		0x1111beefU
#define KPERF_MCAST_QPN		0xffffffU	/* UD: to the group of the AH */
#define KPERF_MCAST_IP4		0xef4d0101	/* mcast=1's group, 239.77.1.1 */
#define KPERF_WHO_LEN		96	/* "udaddy to <IPv6 address:port>" */
#define KPERF_OUT_SIZE		PAGE_SIZE
#define KPERF_STASH		32	/* WCs kept aside while waiting for one */

/* RC QPs, however connected (directly, cm=ib, cm=rdma). */
#define KPERF_RETRY_CNT		7
#define KPERF_RNR_INFINITE	7
#define KPERF_MIN_RNR_TIMER	1	/* 0.01 ms */
#define KPERF_MAX_RD_ATOMIC	16
/* ACK timeout of cm=none and cm=ib without ack_timeout=: 4.096 us * 2^14 = 67 ms. */
#define KPERF_ACK_TIMEOUT	14

/* cm=rdma: the port the peer side listens on unless port= says. */
#define KPERF_RDMA_CM_PORT	18515
/* mode=rping: rping's port and ping size unless port= and size= say. */
#define KPERF_RPING_PORT	7174
#define KPERF_RPING_SIZE	64
/* mode=udaddy: udaddy's message size and count unless size= and iters= say. */
#define KPERF_UDADDY_SIZE	100
#define KPERF_UDADDY_COUNT	10
/* How long a CM's event may take unless the command says (cm=ib, cm=rdma). */
#define KPERF_CM_WAIT_MS	30000

enum kperf_mode { KPERF_PING, KPERF_BW, KPERF_LAT, KPERF_MEMCPY, KPERF_MAD,
		  KPERF_RPING, KPERF_UDADDY, KPERF_MCKEY };

/* mode=rping: which end of rping's protocol the command is (kperf_rping.c). */
enum kperf_rping_role { KPERF_RPING_NONE, KPERF_RPING_CLIENT,
			KPERF_RPING_SERVER };

/*
 * cm=rdma abort=: where connection setup or teardown stops and its ids are
 * destroyed (kperf_rdma_cm_abort.c), in the order a connection passes them.
 */
enum kperf_abort { KPERF_ABORT_NONE, KPERF_ABORT_ADDR, KPERF_ABORT_ROUTE,
		   KPERF_ABORT_CONNECT, KPERF_ABORT_REP,
		   KPERF_ABORT_ESTABLISHED, KPERF_ABORT_DISCONNECT,
		   KPERF_ABORT_TIMEWAIT, KPERF_ABORT_COUNT };

/* What mode=mad does with its requests (kperf_mad.c). */
enum kperf_mad_case { KPERF_MAD_ECHO, KPERF_MAD_UNMATCHED, KPERF_MAD_TIMEOUT,
		      KPERF_MAD_CANCEL };

enum kperf_op {
	KPERF_OP_SEND, KPERF_OP_SEND_IMM, KPERF_OP_SEND_INV, KPERF_OP_WRITE,
	KPERF_OP_WRITE_IMM, KPERF_OP_READ, KPERF_OP_CAS, KPERF_OP_FAA,
	KPERF_OP_COUNT
};

enum kperf_fault { KPERF_FAULT_NONE, KPERF_FAULT_BAD_RKEY,
		   KPERF_FAULT_NO_RECV, KPERF_FAULT_QP_ERR };

enum kperf_mr_mode { KPERF_MR_DMA, KPERF_MR_FRWR };
/*
 * How connections are made: directly, by the IB CM (kperf_cm.c) or by the
 * RDMA CM (kperf_rdma_cm.c).
 */
enum kperf_cm_mode { KPERF_CM_NONE, KPERF_CM_IB, KPERF_CM_RDMA };

/* Tells apart the data patterns of a round (kperf_data_fill/word). */
enum kperf_salt { KPERF_SALT_DATA, KPERF_SALT_CMP, KPERF_SALT_SWAP,
		  KPERF_SALT_POISON };

/* What a work completion was for; the low bits of every wr_id. */
enum kperf_wr_kind { KPERF_WR_OP, KPERF_WR_RECV, KPERF_WR_REG, KPERF_WR_INV,
		     KPERF_WR_REPLY };

/**
 * struct kperf_op_info - the facts about one operation
 * @name: its name in commands and results
 * @wr: the send opcode
 * @qp_types: bit per enum ib_qp_type the operation is allowed on
 * @recv: consumes a receive at the target
 * @remote: addresses the target's memory (needs its rkey)
 * @atomic: an 8-byte atomic
 * @imm: carries immediate data
 */
struct kperf_op_info {
	const char *name;
	enum ib_wr_opcode wr;
	u32 qp_types;
	bool recv, remote, atomic, imm;
};

/**
 * struct kperf_params - one parsed command
 * @mode: what the command measures or exercises (mode=)
 * @dev: the device that initiates
 * @peer: the target device (the same as @dev for a loop)
 * @qp_type: RC, UC or UD
 * @op: the operation each message is
 * @size: bytes per message
 * @iters: messages per QP (pings for mode=rping)
 * @qps: connections run at once
 * @depth: work requests outstanding per QP
 * @sig: one signalled send in every @sig
 * @timeout_ms: how long without progress fails the command
 * @mtu: path MTU; 0 chooses the port's active one
 * @gid: source GID index; -1 chooses by @ip_family
 * @ip_family: 4 or 6, which RoCE v2 GID is chosen by default
 * @mr: how the data buffers are registered
 * @mr_given: @mr was named in the command
 * @inline_data: small sends carry their payload inline
 * @expect: the completion status the command must end in; -1: success
 * @fault: the fault injected into the run, if any
 * @srq: the targets receive through a shared receive queue (kperf_srq.c)
 * @mcast: UD sends to a multicast group (kperf_mcast.c)
 * @mad: mode=mad, the MAD exchange exercised (kperf_mad.c)
 * @mad_resp_ms: mode=mad, response timeout of each send
 * @mad_retries: mode=mad, retries of each send
 * @mad_rmpp: mode=mad, RMPP messages of a vendor class
 * @ack_timeout: RC local ACK timeout, 4.096 us * 2^n; 0 leaves the CM's
 * @cm: which connection manager sets the QPs up (none, ib, rdma)
 * @addr: cm=rdma, mode=rping and mode=udaddy: the address to reach
 *	  (family 0: not given; port 0: @port); mode=mckey: the group
 * @bind: mode=mckey, the local address (family 0: not given)
 * @port: the port of @addr when it names none
 * @role: mode=rping, udaddy and mckey: client or server (sender, receiver)
 * @verify: mode=rping and udaddy: check the data of every message
 * @timewait: mode=rping and udaddy: wait out the QP's timewait at the end
 * @cycles: cm=rdma, connect/verify/disconnect cycles (0: not given)
 * @abort: cm=rdma, the step of the exchange at which the ids are destroyed
 * @abort_peer_first: cm=rdma, abort_first=peer
 * @hold: cm=rdma, keep the connected ids until their device goes away
 * @not_rping: a key given that mode=rping (udaddy, mckey) does not take
 * @rping_only: a key given that only mode=rping (udaddy, mckey) takes
 *
 * Sizes and counts are validated by kperf_cmd_parse().
 */
struct kperf_params {
	enum kperf_mode mode;
	char dev[IB_DEVICE_NAME_MAX];
	char peer[IB_DEVICE_NAME_MAX];
	enum ib_qp_type qp_type;
	enum kperf_op op;
	u32 size, iters, qps, depth, sig, timeout_ms;
	enum ib_mtu mtu;
	int gid;
	u8 ip_family;
	enum kperf_mr_mode mr;
	bool mr_given, inline_data;
	int expect;
	enum kperf_fault fault;
	bool srq, mcast;
	enum kperf_mad_case mad;
	u32 mad_resp_ms, mad_retries;
	bool mad_rmpp;
	u8 ack_timeout;
	enum kperf_cm_mode cm;
	struct sockaddr_storage addr, bind;
	u16 port;
	enum kperf_rping_role role;
	bool verify, timewait;
	u32 cycles;
	enum kperf_abort abort;
	bool abort_peer_first;
	bool hold;
	const char *not_rping, *rping_only;
};

struct kperf_dev;
struct seq_file;
struct kperf_cm;
struct kperf_cm_ops;
struct kperf_rdma_cm;
struct kperf_rping;
struct kperf_udaddy;

/**
 * struct kperf_buf - a data buffer and how the device reaches it
 * @va: kernel mapping of the whole buffer
 * @len: bytes allocated (a multiple of PAGE_SIZE)
 * @pages: the pages behind @va
 * @npages: how many pages @pages holds
 * @contig: @va came from one physically contiguous allocation
 * @sgt: the pages as a scatterlist, DMA-mapped
 * @nents: entries of @sgt the DMA mapping produced
 * @mr: the FRWR MR when mr=frwr, else NULL
 * @lkey: local key of the data
 * @rkey: what a peer uses to reach it
 * @addr: the address a local SGE or a remote WR gives for byte 0
 * @key: the consumer key byte of the next registration
 */
struct kperf_buf {
	void *va;
	size_t len;
	struct page **pages;
	unsigned int npages;
	bool contig;
	struct sg_table sgt;
	int nents;
	struct ib_mr *mr;
	u32 lkey, rkey;
	u64 addr;
	u8 key;
};

/**
 * struct kperf_end - one end of a connection
 * @qp: the QP
 * @ah: UD only, the address handle of the other end
 * @qkey: UD only, the Q_Key of the other end's QP (0: kperf's own,
 *	  KPERF_UD_QKEY; cm=rdma: what rdma_cm gave it)
 * @psn: the first PSN this end sends with
 * @buf: its data buffer
 */
struct kperf_end {
	struct ib_qp *qp;
	struct ib_ah *ah;
	u32 qkey;
	u32 psn;
	struct kperf_buf buf;
};

/* One connection: end[0] on the dev side initiates, end[1] is the target. */
struct kperf_conn {
	struct kperf_end end[2];
};

/**
 * struct kperf_side - what one command holds on one device
 * @kdev: the client's hold on the device
 * @ibdev: the device
 * @port: the port used
 * @sgid_attr: the source GID (held), NULL on an InfiniBand port w/o GID
 * @lid: the port's LID (InfiniBand link layer)
 * @active_mtu: the port's active MTU
 * @mac: MAC of the GID's net device (RoCE)
 * @pd: protection domain of everything below
 * @cq: the one CQ of all QPs of this side (polled directly)
 * @stash: completions polled while another one was awaited
 * @nstash: how many @stash holds
 * @srq: srq=1, the target side: the receive queue its QPs share
 * @srq_limit_hit: IB_EVENT_SRQ_LIMIT_REACHED arrived for @srq
 */
struct kperf_side {
	struct kperf_dev *kdev;
	struct ib_device *ibdev;
	u32 port;
	const struct ib_gid_attr *sgid_attr;
	u32 lid;
	enum ib_mtu active_mtu;
	u8 mac[ETH_ALEN];
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_wc stash[KPERF_STASH];
	unsigned int nstash;
	struct ib_srq *srq;
	bool srq_limit_hit;
};

/**
 * struct kperf_result - what a command measured
 * @msgs: operations completed
 * @bytes: payload bytes moved
 * @ns: wall time of the measurement
 * @cpu_ns: CPU time of the writer
 * @lat: lat mode: min, median, p99, max round trip in ns
 * @wc: the completion status a fault ended in (IB_WC_SUCCESS otherwise)
 */
struct kperf_result {
	u64 msgs, bytes, ns, cpu_ns;
	u64 lat[4];
	enum ib_wc_status wc;
};

/**
 * struct kperf_run - one command while it runs
 * @p: the command
 * @op: facts about @p.op
 * @side: side[0] is dev, side[1] is peer (maybe the same device)
 * @conns: @p.qps connections
 * @res: measurements
 * @out: result lines
 * @last_progress: when a completion or datum last arrived (timeouts)
 * @t0: when the measurement started
 * @cpu0: the writer's CPU time at @t0
 * @reason: why the command failed, for the result line
 * @mcast_joined: mcast=1: the target's net device joined the group
 * @mcast_attached: mcast=1: targets (conns[0..n-1].end[1]) in the group
 * @cm_ops: the connection manager of cm=, NULL for cm=none
 * @cm: cm=ib: the IB CM ids of the connections (kperf_cm.c)
 * @rdma_cm: cm=rdma: the RDMA CM ids of the connections (kperf_rdma_cm.c)
 * @rdma_mcast: mcast=1 cm=rdma: the group's ids (kperf_rdma_mcast.c)
 * @rping: mode=rping: its one connection (kperf_rping.c); side[0] is the
 *	   device rdma_cm chose, side[1] is unused
 * @udaddy: mode=udaddy: its one exchange (kperf_udaddy.c); sides as rping's
 * @t_start: when the command started (cycles=: connections per second)
 * @cycles_done: cycles=: connect, verify, disconnect cycles completed
 * @cycles_ns: cycles=: from @t_start to the end of the last cycle
 * @removal_ids: hold=1: ids that were on a device that went away
 * @removals: hold=1: how many of them heard DEVICE_REMOVAL
 * @addr_changes: cm=rdma: ADDR_CHANGE events the command's ids heard
 */
struct kperf_run {
	struct kperf_params p;
	const struct kperf_op_info *op;
	struct kperf_side side[2];
	struct kperf_conn *conns;
	struct kperf_result res;
	struct seq_buf *out;
	ktime_t last_progress;
	ktime_t t0;
	u64 cpu0;
	char reason[160];
	bool mcast_joined;
	unsigned int mcast_attached;
	const struct kperf_cm_ops *cm_ops;
	struct kperf_cm *cm;
	struct kperf_rdma_cm *rdma_cm;
	struct kperf_rdma_mcast *rdma_mcast;
	struct kperf_rping *rping;
	struct kperf_udaddy *udaddy;
	ktime_t t_start;
	u64 cycles_done, cycles_ns;
	unsigned int removal_ids, removals;
	atomic_t addr_changes;
};

/* Where one end of a connection is in a CM's exchange (cm=, mode=rping). */
enum kperf_cm_state {
	KPERF_CM_IDLE,
	KPERF_CM_ADDR,		/* cm=rdma, dev side: address resolved */
	KPERF_CM_ROUTE,		/* cm=rdma, dev side: route resolved */
	KPERF_CM_REQUESTED,	/* abort=connect, peer side: request held */
	KPERF_CM_REPLIED,	/* abort=rep, dev side: REP heard, no RTU */
	KPERF_CM_UP,		/* connected: both ends may send */
	KPERF_CM_DOWN,		/* the disconnect exchange reached this end */
	KPERF_CM_FAILED,
};

struct ib_cm_id;
struct rdma_cm_id;

/**
 * struct kperf_cm_end - one end of a connection a CM makes
 * @run: the command
 * @index: the connection's index
 * @ib: cm=ib: its IB CM id (the peer side's comes with the REQ), or NULL
 * @rdma: cm=rdma: its RDMA CM id (the peer side's comes with the
 *	  CONNECT_REQUEST), or NULL
 * @state: how far it got; read it with kperf_cm_end_state()
 * @err: why it failed (KPERF_CM_FAILED), a negative errno
 * @what: the event or step that made it fail
 * @detail: more about it (the name of a reject reason), or NULL
 * @status: the reject reason, the failed event's status or step's errno
 * @done: completed at every change of @state, and at @timewait_over
 * @timewait_over: cm=rdma: the id heard TIMEWAIT_EXIT (its QP may be
 *	reused); apart from @state, which stays DOWN
 * @ud: cm=rdma, qp=ud, the dev side: ESTABLISHED's answer to the SIDR
 *	REQ (@ud.ah_attr holds a GID entry until kperf_rdma_cm_stop())
 * @ud_set: @ud was filled in
 * @removed: cm=rdma: the id heard DEVICE_REMOVAL (@state is FAILED)
 *
 * The CM's handlers write @state (last) and the failure fields (first,
 * kperf_cm_end_fail()); the command reads them in process context.
 */
struct kperf_cm_end {
	struct kperf_run *run;
	unsigned int index;
	union {
		struct ib_cm_id *ib;
		struct rdma_cm_id *rdma;
	};
	enum kperf_cm_state state;
	int err;
	const char *what;
	const char *detail;
	int status;
	struct completion done;
	bool timewait_over;
	struct rdma_ud_param ud;
	bool ud_set;
	bool removed;
};

/* Both ends of one connection, as in struct kperf_conn: [0] dev, [1] peer. */
struct kperf_cm_conn {
	struct kperf_cm_end end[2];
};

/* The private data of a connection request, as both CMs send it. */
struct kperf_cm_priv {
	__be32 index;
};

/**
 * struct kperf_cm_ops - a connection manager making a command's connections
 * @listen: make the CM's state for the command; the peer side listens
 * @connect: connect connection @i, whose buffers exist (its QPs too,
 *	     unless @makes_qps); returns when both ends are connected, or
 *	     with the reason in @run
 * @disconnect: end every connection that came up; both ends must see it
 * @stop: end what is still connected, destroy the CM's ids (and QPs, if
 *	  @makes_qps) and free its state; before kperf destroys the QPs
 * @recycle: cycles=: destroy connection @i's ids (and QPs) after its
 *	     disconnect, so that @connect can make it again; NULL where the
 *	     CM cannot
 * @makes_qps: the CM creates and destroys the connections' QPs
 *
 * Every hook runs in the command's process context and may sleep.
 */
struct kperf_cm_ops {
	int (*listen)(struct kperf_run *run);
	int (*connect)(struct kperf_run *run, unsigned int i);
	int (*disconnect)(struct kperf_run *run);
	void (*stop)(struct kperf_run *run);
	void (*recycle)(struct kperf_run *run, unsigned int i);
	bool makes_qps;
};

/* kperf_cmd.c */
int kperf_cmd_parse(char *line, struct kperf_params *p, char *why,
		    size_t whylen);
const struct kperf_op_info *kperf_op_info(enum kperf_op op);
const char *kperf_wc_name(enum ib_wc_status status);
const char *kperf_mode_name(enum kperf_mode mode);
const char *kperf_qp_name(enum ib_qp_type type);

/* kperf_dev.c */
int kperf_dev_register(void);
void kperf_dev_unregister(void);
struct kperf_dev *kperf_dev_get(const char *name);
struct kperf_dev *kperf_dev_hold(struct ib_device *ibdev);
void kperf_dev_put(struct kperf_dev *kdev);
struct ib_device *kperf_dev_ib(struct kperf_dev *kdev);
bool kperf_dev_gone(struct kperf_dev *kdev);

/* kperf_run.c */
struct kperf_run *kperf_run_alloc(const struct kperf_params *p,
				  struct seq_buf *out);
int kperf_run_command(struct kperf_params *p, struct seq_buf *out);
int kperf_run_fail(struct kperf_run *run, int err, const char *fmt, ...)
	__printf(3, 4);
int kperf_run_check(struct kperf_run *run);
int kperf_run_gone(struct kperf_run *run, int ret);
int kperf_run_idle(struct kperf_run *run);
void kperf_run_progress(struct kperf_run *run);
void kperf_run_clock_start(struct kperf_run *run);
void kperf_run_clock_stop(struct kperf_run *run);

/* kperf_side.c */
int kperf_side_open(struct kperf_run *run, struct kperf_side *s,
		    const char *name);
int kperf_side_open_dev(struct kperf_run *run, struct kperf_side *s,
			struct ib_device *ibdev, u32 port);
struct net *kperf_side_net(const struct kperf_side *s);
void kperf_side_close(struct kperf_side *s);

/* kperf_conn.c */
int kperf_conn_ah(struct kperf_run *run, struct kperf_side *s,
		  struct kperf_end *e, struct kperf_side *ps);
void kperf_conn_av(struct rdma_ah_attr *ah, struct kperf_side *s,
		   struct kperf_side *peer);
int kperf_conn_qp_attr(struct kperf_run *run, struct kperf_side *s,
		       struct ib_qp_init_attr *attr);
int kperf_conn_create_all(struct kperf_run *run);
int kperf_conn_disconnect_all(struct kperf_run *run);
void kperf_conn_destroy_all(struct kperf_run *run);
int kperf_conn_to_err(struct kperf_run *run, struct kperf_end *e);
int kperf_conn_init(struct kperf_run *run, struct kperf_side *s,
		    struct kperf_end *e);

/* kperf_cm_end.c: what the connection managers share */
const char *kperf_cm_check(const struct kperf_params *p);
struct kperf_cm_conn *kperf_cm_conns_alloc(struct kperf_run *run);
void kperf_cm_end_set(struct kperf_cm_end *ce, enum kperf_cm_state state);
void kperf_cm_end_fail(struct kperf_cm_end *ce, int err, const char *what,
		       const char *detail, int status);
enum kperf_cm_state kperf_cm_end_state(const struct kperf_cm_end *ce);
int kperf_cm_end_why(struct kperf_run *run, const struct kperf_cm_end *ce,
		     int err, const char *who, const char *step);
int kperf_cm_end_wait(struct kperf_cm_end *ce, enum kperf_cm_state from,
		      unsigned int ms);
int kperf_cm_end_wait_timewait(struct kperf_cm_end *ce, unsigned int ms);
bool kperf_cm_end_wait_removal(struct kperf_cm_end *ce, unsigned long end);
void kperf_cm_end_reset(struct kperf_cm_end *ce);
int kperf_cm_priv_index(struct kperf_run *run, const void *data,
			unsigned int len, unsigned int *i);
u8 kperf_cm_rd_atom(struct kperf_run *run);
u8 kperf_cm_rnr_retry(struct kperf_run *run);

/* kperf_cm.c: cm=ib, connections through the IB CM */
extern const struct kperf_cm_ops kperf_cm_ib;

/**
 * struct kperf_rdma_cm - a command's RDMA CM state (cm=rdma)
 * @listen: the peer side's listening id
 * @listen_end: its context, and a CONNECT_REQUEST's new id's at first
 * @src: the dev side's address (its GID's IP, any port)
 * @dst: where the dev side connects (addr=, else @bind)
 * @bind: where the peer side listens (its GID's IP, port=)
 * @qp_attr: the peer side's QPs' creation attributes
 * @lock: serializes CONNECT_REQUESTs with kperf_rdma_cm_stop(); protects
 *	  @stopping and the peer ends' ids
 * @stopping: the command is ending: requests are refused
 * @conns: per connection, its two ends
 */
struct kperf_rdma_cm {
	struct rdma_cm_id *listen;
	struct kperf_cm_end listen_end;
	struct sockaddr_storage src, dst, bind;
	struct ib_qp_init_attr qp_attr;
	struct mutex lock;	/* @stopping, the peer ends' ids */
	bool stopping;
	struct kperf_cm_conn *conns;
};

/* kperf_rdma_cm.c: cm=rdma, connections through the RDMA CM */
extern const struct kperf_cm_ops kperf_cm_rdma;
struct rdma_conn_param;
struct rdma_cm_id *kperf_rdma_cm_id(struct kperf_run *run,
				    struct kperf_side *s,
				    struct kperf_cm_end *ce);
int kperf_rdma_cm_qp(struct kperf_run *run, struct rdma_cm_id *id,
		     struct kperf_side *s, struct kperf_end *e,
		     struct ib_qp_init_attr *attr, const char **what);
void kperf_rdma_cm_param(struct kperf_run *run,
			 struct rdma_conn_param *param);
int kperf_rdma_cm_fail(struct kperf_run *run, struct kperf_cm_end *ce,
		       int err, const char *step);
int kperf_rdma_cm_step(struct kperf_cm_end *ce, enum kperf_cm_state from,
		       enum kperf_cm_state to);
void kperf_rdma_cm_destroy(struct kperf_cm_end *ce, struct kperf_end *e);
const char *kperf_rdma_cm_check(const struct kperf_params *p);
struct rdma_cm_event;
bool kperf_rdma_cm_event(struct kperf_cm_end *ce, struct rdma_cm_id *id,
			 const struct rdma_cm_event *ev);
int kperf_rdma_cm_wait(struct kperf_cm_end *ce, enum kperf_cm_state from,
		       enum kperf_cm_state to, unsigned int ms);

/* kperf_rdma_cm_abort.c: cm=rdma abort=, ids destroyed on the way */
int kperf_rdma_cm_abort(struct kperf_run *run, unsigned int i);
const char *kperf_abort_name(enum kperf_abort abort);
int kperf_abort_lookup(const char *name);

/* kperf_cycle.c: cm=rdma cycles=, connect, verify, disconnect, again */
int kperf_cycle_run(struct kperf_run *run);

/* kperf_hold.c: cm=rdma hold=1, connections kept until closed or removed */
int kperf_hold_run(struct kperf_run *run);
int kperf_hold_show(struct seq_file *m, void *unused);
void kperf_hold_release_all(void);

/* kperf_rping.c: mode=rping, one end of rping's protocol */
int kperf_rping_run(const struct kperf_params *p, struct seq_buf *out);
const char *kperf_rping_check(const struct kperf_params *p);
const char *kperf_rping_event_name(int event);

/* kperf_udaddy.c: mode=udaddy, one end of udaddy's protocol (UD, SIDR) */
int kperf_udaddy_run(const struct kperf_params *p, struct seq_buf *out);
const char *kperf_udaddy_check(const struct kperf_params *p);

/* A UD receive's room for the GRH ahead of the message (struct ib_grh). */
#define KPERF_UD_GRH		40

/**
 * struct kperf_ud_msg - a command's UD messages (mode=udaddy, mode=mckey)
 * @buf: @count receive slots of @slot bytes, then @count send slots of
 *	 @size bytes (local_dma_lkey)
 * @count: messages each way (iters=)
 * @size: bytes in a message (size=)
 * @slot: a receive slot: the GRH room, then a message
 * @tool: "udaddy" or "mckey", in failure reasons
 * @qp: the UD QP they go by
 * @received: receives completed and checked
 * @sent: sends completed
 * @recv: checks the message in receive slot @n (@wc its completion);
 *	  returns 0 or the failure, recorded
 * @ctx: @recv's first argument
 */
struct kperf_ud_msg {
	struct kperf_buf buf;
	u32 count, size, slot;
	const char *tool;
	struct ib_qp *qp;
	u32 received, sent;
	int (*recv)(void *ctx, const struct ib_wc *wc, u32 n);
	void *ctx;
};

/* kperf_ud_msg.c: the messages of udaddy's and mckey's protocols */
int kperf_ud_msg_alloc(struct kperf_run *run, struct kperf_side *s,
		       struct kperf_ud_msg *m, const char *tool);
u8 *kperf_ud_msg_in(struct kperf_ud_msg *m, u32 n);
u8 *kperf_ud_msg_out(struct kperf_ud_msg *m, u32 n, u64 *addr);
int kperf_ud_msg_post_recvs(struct kperf_run *run, struct kperf_ud_msg *m);
int kperf_ud_msg_send(struct kperf_run *run, struct kperf_ud_msg *m,
		      struct ib_ah *ah, u32 qpn, u32 qkey);
int kperf_ud_msg_check(struct kperf_run *run, struct kperf_ud_msg *m,
		       const struct ib_wc *wc, u32 *peer_qpn);
int kperf_ud_msg_wait(struct kperf_run *run, struct kperf_side *s,
		      struct kperf_ud_msg *m, u32 recvs, u32 sends);

/* kperf_mckey.c: mode=mckey, one end of mckey's protocol (RoCE multicast) */
int kperf_mckey_run(const struct kperf_params *p, struct seq_buf *out);
const char *kperf_mckey_check(const struct kperf_params *p);

/**
 * struct kperf_listener - a server in the debugfs file "listening"
 * @node: in kperf_listen.c's list while listed
 * @mode: the server's mode, the line's first word
 * @addr: where it listens
 */
struct kperf_listener {
	struct list_head node;
	const char *mode;
	struct sockaddr_storage addr;
};

/* kperf_listen.c: the servers listening now */
void kperf_listener_add(struct kperf_listener *l);
void kperf_listener_del(struct kperf_listener *l);
int kperf_listener_show(struct seq_file *m, void *unused);

/* kperf_buf.c */
int kperf_buf_alloc(struct kperf_run *run, struct kperf_side *s,
		    struct kperf_buf *b, size_t len);
int kperf_buf_alloc_mr(struct kperf_run *run, struct kperf_side *s,
		       struct kperf_buf *b, size_t len, enum kperf_mr_mode mr);
void kperf_buf_free(struct kperf_side *s, struct kperf_buf *b);
int kperf_buf_reg(struct kperf_run *run, struct kperf_side *s,
		  struct kperf_end *e);
int kperf_buf_inv(struct kperf_run *run, struct kperf_side *s,
		  struct kperf_end *e);

/* kperf_post.c */
int kperf_post_op(struct kperf_run *run, unsigned int qpi, u32 round,
		  u64 seq, bool signaled);
int kperf_post_reply(struct kperf_run *run, unsigned int qpi, u32 round);
int kperf_post_recv(struct kperf_run *run, struct kperf_end *e, u64 wr_id);
u64 kperf_wr_id(enum kperf_wr_kind kind, unsigned int qpi, u64 seq);
enum kperf_wr_kind kperf_wr_kind(u64 wr_id);
unsigned int kperf_wr_qpi(u64 wr_id);
u64 kperf_wr_seq(u64 wr_id);
__be32 kperf_imm(u32 round);

/* kperf_cq.c */
int kperf_cq_wait(struct kperf_run *run, struct kperf_side *s,
		  enum kperf_wr_kind kind, struct ib_wc *wc);
int kperf_cq_expect(struct kperf_run *run, struct kperf_side *s,
		    enum kperf_wr_kind kind, struct ib_wc *wc);
int kperf_cq_poll(struct kperf_run *run, struct kperf_side *s,
		  enum kperf_wr_kind kind, struct ib_wc *wc);
int kperf_cq_check(struct kperf_run *run, struct kperf_side *s,
		   enum kperf_wr_kind kind, const struct ib_wc *wc);

/* kperf_data.c */
void kperf_data_fill(void *buf, size_t len, u32 round, u32 salt);
int kperf_data_check(struct kperf_run *run, const void *buf, size_t len,
		     u32 round, u32 salt, const char *what);
u64 kperf_data_word(u32 round, u32 salt);
bool kperf_data_match(const void *buf, size_t len, u32 round, u32 salt);

/* The modes and the faults. */
int kperf_ping_run(struct kperf_run *run);
int kperf_bw_run(struct kperf_run *run);
int kperf_lat_run(struct kperf_run *run);
int kperf_fault_run(struct kperf_run *run);

/* kperf_mad.c: mode=mad, MADs between the QP1s of dev and peer */
int kperf_mad_run(struct kperf_run *run);
const char *kperf_mad_check(const struct kperf_params *p);

/* kperf_memcpy.c: mode=memcpy, no device */
int kperf_memcpy_run(const struct kperf_params *p, struct seq_buf *out);

/* kperf_srq.c: srq=1, the targets' QPs share one SRQ */
const char *kperf_srq_check(const struct kperf_params *p);
int kperf_srq_create(struct kperf_run *run);
int kperf_srq_limit(struct kperf_run *run);

/* kperf_mcast.c: mcast=1, UD sends to a group of the targets' QPs */
const char *kperf_mcast_check(const struct kperf_params *p);
int kperf_mcast_attach(struct kperf_run *run);
void kperf_mcast_detach(struct kperf_run *run);
int kperf_mcast_round(struct kperf_run *run, u32 round);
/* kperf_rdma_mcast.c: mcast=1 cm=rdma, the group joined through rdma_cm */
int kperf_rdma_mcast_attach(struct kperf_run *run);
void kperf_rdma_mcast_detach(struct kperf_run *run);

/* kperf_out.c */
void kperf_out_result(struct kperf_run *run, int err);
void kperf_out_info(struct kperf_run *run);
void kperf_out_fixed(struct seq_buf *out, const char *name, u64 num,
		     u64 scale, u64 den);
void kperf_out_status(struct kperf_run *run, int err);

#endif /* KPERF_H */
