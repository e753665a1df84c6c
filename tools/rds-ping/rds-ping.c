// SPDX-License-Identifier: GPL-2.0-only
/*
 * rds-ping: two RDS sockets of this host exchanging verified messages
 * through one RDS transport (rds_rdma by default), for the ULP tests.
 *
 *   rds-ping -a ADDR_A -b ADDR_B [-p PORT] [-n ROUNDS] [-m MAX] [-t SECS]
 *            [-T ib|tcp] [-s] [-r a|b]
 *
 * Socket A is bound to ADDR_A:PORT, socket B to ADDR_B:PORT+1. Each round
 * A sends one message of every size of the size list (1 byte to MAX) to
 * B, B checks each (length, sender, content) and sends it back with the
 * other direction's pattern, and A checks those. The content of a
 * message is a function of its sequence number, its direction and the
 * byte's offset, so a lost, repeated, reordered, truncated or corrupted
 * message is a mismatch. RDS delivers in order on one connection, so
 * messages are expected in the order they were sent.
 *
 * With -r the two sockets are on two hosts: this one plays A or B only,
 * the other end runs the same command with the other role. B must be
 * bound before A sends (RDS drops a message for a port nobody holds): B
 * prints "rds-ping: B bound" when it is, and the caller starts A then.
 *
 * After the exchange the program finds the two RDS connections between
 * the addresses in RDS_INFO_CONNECTIONS (with -r, the one leaving this
 * host) and requires the transport asked for; for ib it also requires
 * them in RDS_INFO_IB_CONNECTIONS. With -s
 * it prints the RDS counters whose name starts with "ib_" or is one of
 * the generic send/receive counts.
 *
 * At the end A sends B one more message, which B waits for: B must not
 * close its socket while its last messages to A are still on their way
 * (RDS drops them).
 *
 * Exit status: 0 when every message matched, 1 on a mismatch or an
 * error, 2 on a usage error, 3 when the time limit ran out.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/rds.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#ifndef AF_RDS
#define AF_RDS 21
#endif

/* Socket buffers: a whole round must fit in the receiver's half. */
#define RP_SOCKBUF	(32 << 20)
#define RP_MAX_MSG	(1024 * 1024)	/* RDS_MAX_MSG_SIZE in 6.1 */

enum rp_dir { RP_A_TO_B = 1, RP_B_TO_A = 2 };

struct rp_end {
	const char *name;
	int fd;			/* -1: the end is on the other host */
	struct sockaddr_in addr;
};

struct rp_cfg {
	struct rp_end a, b;
	unsigned int rounds;
	unsigned int max;
	unsigned int timeout;
	int trans;
	const char *trans_name;
	int stats;
	char role;		/* 'a' or 'b' with -r, 0: both ends here */
};

/* Sizes of one round, in sending order; those above -m are left out. */
static const unsigned int rp_sizes[] = {
	1, 2, 3, 7, 8, 63, 64, 65, 511, 512, 1000, 1023, 1024, 1025,
	4095, 4096, 4097, 8191, 8192, 8193, 16384, 32767, 65535, 65536,
	65537, 131072, 262143, 524288, 1048576,
};

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif
#define RP_NR_SIZES	ARRAY_SIZE(rp_sizes)

static unsigned char *rp_buf;
/* A socket to list RDS's connections from when giving up, or -1. */
static int rp_diag_fd = -1;

static void rp_conns_print(int fd);
static void rp_stats_print(int fd, FILE *out);
static size_t rp_info(int fd, int opt, void **buf, size_t *each);

static void rp_die(const char *fmt, ...)
{
	va_list ap;
	int fd = rp_diag_fd;

	va_start(ap, fmt);
	fputs("rds-ping: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	rp_diag_fd = -1;	/* no second listing if listing fails */
	if (fd >= 0) {
		rp_conns_print(fd);
		rp_stats_print(fd, stderr);
	}
	exit(1);
}

static void rp_alarm(int sig)
{
	static const char msg[] = "rds-ping: time limit reached\n";

	(void)sig;
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(3);
	_exit(3);
}

/* The byte at @off of message @seq going @dir. */
static unsigned char rp_pattern(uint32_t seq, enum rp_dir dir, size_t off)
{
	uint32_t x = seq * 2654435761u ^ (uint32_t)dir << 29 ^ (uint32_t)off;

	x ^= x >> 13;
	x *= 0x5bd1e995u;
	return (unsigned char)(x ^ x >> 15);
}

static void rp_fill(unsigned char *p, size_t len, uint32_t seq,
		    enum rp_dir dir)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = rp_pattern(seq, dir, i);
}

/* The first offset where @p differs from its pattern, or @len. */
static size_t rp_check(const unsigned char *p, size_t len, uint32_t seq,
		       enum rp_dir dir)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != rp_pattern(seq, dir, i))
			break;
	return i;
}

static void rp_setsockopt(int fd, int level, int opt, int val,
			  const char *what)
{
	if (setsockopt(fd, level, opt, &val, sizeof(val)) < 0)
		rp_die("setsockopt %s: %s", what, strerror(errno));
}

static void rp_end_open(struct rp_end *e, const struct rp_cfg *cfg)
{
	struct timeval tv = { .tv_sec = cfg->timeout };

	e->fd = socket(AF_RDS, SOCK_SEQPACKET, 0);
	if (e->fd < 0)
		rp_die("socket(AF_RDS): %s", strerror(errno));
	rp_setsockopt(e->fd, SOL_SOCKET, SO_SNDBUFFORCE, RP_SOCKBUF,
		      "SO_SNDBUFFORCE");
	rp_setsockopt(e->fd, SOL_SOCKET, SO_RCVBUFFORCE, RP_SOCKBUF,
		      "SO_RCVBUFFORCE");
	if (setsockopt(e->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    setsockopt(e->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0)
		rp_die("setsockopt timeouts: %s", strerror(errno));
	/* Before bind: the transport is chosen there. */
	rp_setsockopt(e->fd, SOL_RDS, SO_RDS_TRANSPORT, cfg->trans,
		      "SO_RDS_TRANSPORT");
	if (bind(e->fd, (struct sockaddr *)&e->addr, sizeof(e->addr)) < 0)
		rp_die("bind %s to %s:%u: %s", e->name,
		       inet_ntoa(e->addr.sin_addr), ntohs(e->addr.sin_port),
		       strerror(errno));
}

static void rp_send(struct rp_end *from, const struct rp_end *to,
		    size_t len, uint32_t seq, enum rp_dir dir)
{
	ssize_t n;

	rp_fill(rp_buf, len, seq, dir);
	n = sendto(from->fd, rp_buf, len, 0, (const struct sockaddr *)&to->addr,
		   sizeof(to->addr));
	if (n < 0)
		rp_die("%s: send of message %u (%zu bytes): %s", from->name,
		       seq, len, strerror(errno));
	if ((size_t)n != len)
		rp_die("%s: message %u: sent %zd of %zu bytes", from->name, seq,
		       n, len);
}

static void rp_recv(struct rp_end *at, const struct rp_end *from,
		    size_t len, uint32_t seq, enum rp_dir dir)
{
	struct sockaddr_in src;
	struct iovec iov = { .iov_base = rp_buf, .iov_len = RP_MAX_MSG + 1 };
	struct msghdr msg = {
		.msg_name = &src, .msg_namelen = sizeof(src),
		.msg_iov = &iov, .msg_iovlen = 1,
	};
	ssize_t n;
	size_t bad;

	n = recvmsg(at->fd, &msg, 0);
	if (n < 0)
		rp_die("%s: waiting for message %u (%zu bytes): %s", at->name,
		       seq, len, strerror(errno));
	if (msg.msg_flags & MSG_TRUNC)
		rp_die("%s: message %u truncated", at->name, seq);
	if ((size_t)n != len)
		rp_die("%s: message %u: %zd bytes, expected %zu", at->name, seq,
		       n, len);
	if (src.sin_addr.s_addr != from->addr.sin_addr.s_addr ||
	    src.sin_port != from->addr.sin_port)
		rp_die("%s: message %u from %s:%u, expected %s's port",
		       at->name, seq, inet_ntoa(src.sin_addr),
		       ntohs(src.sin_port), from->name);
	bad = rp_check(rp_buf, len, seq, dir);
	if (bad != len)
		rp_die("%s: message %u (%zu bytes) differs at byte %zu: 0x%02x, expected 0x%02x",
		       at->name, seq, len, bad, rp_buf[bad],
		       rp_pattern(seq, dir, bad));
}

/*
 * One round: every size from A to B, all sent before any is received (the
 * round fits in B's receive buffer), then the same back. Each step runs
 * where its end is.
 */
static unsigned long rp_round(struct rp_cfg *cfg, uint32_t *seq)
{
	struct rp_end *a = &cfg->a, *b = &cfg->b;
	unsigned long bytes = 0;
	uint32_t first = *seq, last;
	unsigned int i;
	uint32_t s;

	for (i = 0, s = first; i < RP_NR_SIZES; i++) {
		if (rp_sizes[i] > cfg->max)
			continue;
		if (a->fd >= 0)
			rp_send(a, b, rp_sizes[i], s, RP_A_TO_B);
		s++;
		bytes += rp_sizes[i];
	}
	last = s;
	for (i = 0, s = first; b->fd >= 0 && i < RP_NR_SIZES; i++)
		if (rp_sizes[i] <= cfg->max)
			rp_recv(b, a, rp_sizes[i], s++, RP_A_TO_B);
	for (i = 0, s = first; b->fd >= 0 && i < RP_NR_SIZES; i++)
		if (rp_sizes[i] <= cfg->max)
			rp_send(b, a, rp_sizes[i], s++, RP_B_TO_A);
	for (i = 0, s = first; a->fd >= 0 && i < RP_NR_SIZES; i++)
		if (rp_sizes[i] <= cfg->max)
			rp_recv(a, b, rp_sizes[i], s++, RP_B_TO_A);
	*seq = last;
	return bytes;
}

/* Whether a message of @e is still on a connection's send queue. */
static int rp_queued(const struct rp_end *e)
{
	struct rds_info_message *m;
	void *buf = NULL;
	size_t i, nr, each;
	int found = 0;

	nr = rp_info(e->fd, RDS_INFO_SEND_MESSAGES, &buf, &each);
	for (i = 0; i < nr && !found; i++) {
		m = (void *)((char *)buf + i * each);
		found = m->laddr == e->addr.sin_addr.s_addr &&
			m->lport == e->addr.sin_port;
	}
	free(buf);
	return found;
}

/*
 * The last word: A tells B it has every message. Closing an RDS socket
 * drops its messages that have not gone out (a long one may be half
 * sent), so B closes only once A has said it has B's last message, and
 * A only once its own last message has left the send queue (one
 * fragment: it is then wholly posted). The time limit bounds the wait.
 */
static void rp_finish(struct rp_cfg *cfg, uint32_t seq)
{
	if (cfg->a.fd >= 0)
		rp_send(&cfg->a, &cfg->b, 1, seq, RP_A_TO_B);
	if (cfg->b.fd >= 0)
		rp_recv(&cfg->b, &cfg->a, 1, seq, RP_A_TO_B);
	while (cfg->a.fd >= 0 && rp_queued(&cfg->a))
		usleep(10000);
}

/*
 * rp_info() - one RDS_INFO_* table into a buffer grown to fit it
 * Return: the number of entries; *@each is an entry's size.
 */
static size_t rp_info(int fd, int opt, void **buf, size_t *each)
{
	socklen_t len = 0;
	int ret;

	for (;;) {
		ret = getsockopt(fd, SOL_RDS, opt, *buf, &len);
		if (ret >= 0)
			break;
		if (errno != ENOSPC)
			rp_die("getsockopt RDS_INFO %d: %s", opt,
			       strerror(errno));
		free(*buf);
		*buf = malloc(len + 1);
		if (!*buf)
			rp_die("out of memory");
	}
	*each = ret;
	return ret ? len / ret : 0;
}

/* Every RDS connection, on stderr (when giving up). */
static void rp_conns_print(int fd)
{
	struct rds_info_connection *c;
	char l[INET_ADDRSTRLEN], f[INET_ADDRSTRLEN];
	void *buf = NULL;
	size_t i, nr, each;

	nr = rp_info(fd, RDS_INFO_CONNECTIONS, &buf, &each);
	fprintf(stderr, "rds-ping: %zu RDS connections\n", nr);
	for (i = 0; i < nr; i++) {
		c = (void *)((char *)buf + i * each);
		inet_ntop(AF_INET, &c->laddr, l, sizeof(l));
		inet_ntop(AF_INET, &c->faddr, f, sizeof(f));
		fprintf(stderr,
			"rds-ping:   %s -> %s %s flags 0x%x next_tx_seq %llu next_rx_seq %llu\n",
			l, f, (char *)c->transport, c->flags,
			(unsigned long long)c->next_tx_seq,
			(unsigned long long)c->next_rx_seq);
	}
	free(buf);
}

/* The RDS connection LADDR -> FADDR must use the transport asked for. */
static void rp_conn_check(int fd, const struct rp_cfg *cfg,
			  const struct rp_end *l, const struct rp_end *f)
{
	struct rds_info_connection *c;
	void *buf = NULL;
	size_t i, nr, each;

	nr = rp_info(fd, RDS_INFO_CONNECTIONS, &buf, &each);
	for (i = 0; i < nr; i++) {
		c = (void *)((char *)buf + i * each);
		if (c->laddr != l->addr.sin_addr.s_addr ||
		    c->faddr != f->addr.sin_addr.s_addr)
			continue;
		fprintf(stdout,
			"rds-ping: connection %s -> %s: transport %s, flags 0x%x, next_tx_seq %llu, next_rx_seq %llu\n",
			l->name, f->name, (char *)c->transport, c->flags,
			(unsigned long long)c->next_tx_seq,
			(unsigned long long)c->next_rx_seq);
		if (strcmp((char *)c->transport, cfg->trans_name))
			rp_die("connection %s -> %s uses %s, not %s", l->name,
			       f->name, (char *)c->transport, cfg->trans_name);
		if (!(c->flags & RDS_INFO_CONNECTION_FLAG_CONNECTED))
			rp_die("connection %s -> %s is not connected", l->name,
			       f->name);
		free(buf);
		return;
	}
	rp_die("no RDS connection %s -> %s among %zu", l->name, f->name, nr);
}

/*
 * The directions in @need (1: X -> Y, 2: Y -> X) must be RDS/IB
 * connections with their QPs.
 */
static void rp_ib_check(int fd, const struct rp_end *x, const struct rp_end *y,
			int need)
{
	struct rds_info_rdma_connection *c;
	void *buf = NULL;
	size_t i, nr, each;
	int seen = 0;

	nr = rp_info(fd, RDS_INFO_IB_CONNECTIONS, &buf, &each);
	for (i = 0; i < nr; i++) {
		c = (void *)((char *)buf + i * each);
		if (c->src_addr == x->addr.sin_addr.s_addr &&
		    c->dst_addr == y->addr.sin_addr.s_addr)
			seen |= 1;
		else if (c->src_addr == y->addr.sin_addr.s_addr &&
			 c->dst_addr == x->addr.sin_addr.s_addr)
			seen |= 2;
		else
			continue;
		printf("rds-ping: ib connection: max_send_wr %u, max_recv_wr %u, max_send_sge %u\n",
		       c->max_send_wr, c->max_recv_wr, c->max_send_sge);
	}
	free(buf);
	if ((seen & need) != need)
		rp_die("RDS_INFO_IB_CONNECTIONS lacks %s (%zu entries)",
		       (need & ~seen) & 1 ? "A -> B" : "B -> A", nr);
}

/* The RDS counters that are not zero, on @out. */
static void rp_stats_print(int fd, FILE *out)
{
	struct rds_info_counter *c;
	void *buf = NULL;
	size_t i, nr, each;

	nr = rp_info(fd, RDS_INFO_COUNTERS, &buf, &each);
	for (i = 0; i < nr; i++) {
		c = (void *)((char *)buf + i * each);
		if (!c->value)
			continue;
		fprintf(out, "rds-ping: counter %.*s %llu\n",
			(int)sizeof(c->name), (char *)c->name,
			(unsigned long long)c->value);
	}
	free(buf);
}

static void rp_usage(void)
{
	fprintf(stderr,
		"usage: rds-ping -a ADDR_A -b ADDR_B [-p PORT] [-n ROUNDS] [-m MAX] [-t SECS] [-T ib|tcp] [-s] [-r a|b]\n");
	exit(2);
}

static void rp_addr_set(struct rp_end *e, const char *name, const char *ip,
			unsigned int port)
{
	e->name = name;
	e->addr.sin_family = AF_INET;
	e->addr.sin_port = htons(port);
	if (inet_pton(AF_INET, ip, &e->addr.sin_addr) != 1)
		rp_usage();
}

static void rp_args_parse(struct rp_cfg *cfg, int argc, char **argv)
{
	const char *ipa = NULL, *ipb = NULL;
	unsigned int port = 18700;
	int opt;

	cfg->rounds = 10;
	cfg->max = RP_MAX_MSG;
	cfg->timeout = 30;
	cfg->trans = RDS_TRANS_IB;
	cfg->trans_name = "infiniband";
	while ((opt = getopt(argc, argv, "a:b:p:n:m:t:T:sr:")) != -1) {
		switch (opt) {
		case 'a':
			ipa = optarg;
			break;
		case 'b':
			ipb = optarg;
			break;
		case 'p':
			port = strtoul(optarg, NULL, 0);
			break;
		case 'n':
			cfg->rounds = strtoul(optarg, NULL, 0);
			break;
		case 'm':
			cfg->max = strtoul(optarg, NULL, 0);
			break;
		case 't':
			cfg->timeout = strtoul(optarg, NULL, 0);
			break;
		case 's':
			cfg->stats = 1;
			break;
		case 'r':
			if (strcmp(optarg, "a") && strcmp(optarg, "b"))
				rp_usage();
			cfg->role = optarg[0];
			break;
		case 'T':
			if (!strcmp(optarg, "tcp")) {
				cfg->trans = RDS_TRANS_TCP;
				cfg->trans_name = "tcp";
			} else if (strcmp(optarg, "ib")) {
				rp_usage();
			}
			break;
		default:
			rp_usage();
		}
	}
	if (!ipa || !ipb || !port || port > 65534 || !cfg->rounds ||
	    !cfg->max || cfg->max > RP_MAX_MSG || !cfg->timeout)
		rp_usage();
	rp_addr_set(&cfg->a, "A", ipa, port);
	rp_addr_set(&cfg->b, "B", ipb, port + 1);
	cfg->a.fd = -1;
	cfg->b.fd = -1;
}

int main(int argc, char **argv)
{
	struct rp_cfg cfg = { 0 };
	unsigned long bytes = 0;
	uint32_t seq = 0;
	unsigned int r;
	int fd;

	rp_args_parse(&cfg, argc, argv);
	rp_buf = malloc(RP_MAX_MSG + 1);
	if (!rp_buf)
		rp_die("out of memory");
	/* The whole run, connection setup included, gets 4 timeouts. */
	signal(SIGALRM, rp_alarm);
	alarm(cfg.timeout * 4);
	if (cfg.role != 'b')
		rp_end_open(&cfg.a, &cfg);
	if (cfg.role != 'a')
		rp_end_open(&cfg.b, &cfg);
	if (cfg.role == 'b') {
		printf("rds-ping: B bound\n");
		fflush(stdout);
	}
	fd = cfg.a.fd >= 0 ? cfg.a.fd : cfg.b.fd;
	rp_diag_fd = fd;
	for (r = 0; r < cfg.rounds; r++)
		bytes += rp_round(&cfg, &seq);
	rp_finish(&cfg, seq);
	printf("rds-ping: %u messages, %lu bytes each way, all verified\n",
	       seq, bytes);
	if (cfg.role != 'b')
		rp_conn_check(fd, &cfg, &cfg.a, &cfg.b);
	if (cfg.role != 'a')
		rp_conn_check(fd, &cfg, &cfg.b, &cfg.a);
	if (cfg.trans == RDS_TRANS_IB)
		rp_ib_check(fd, &cfg.a, &cfg.b,
			    cfg.role == 'a' ? 1 : cfg.role == 'b' ? 2 : 3);
	if (cfg.stats)
		rp_stats_print(fd, stdout);
	if (cfg.b.fd >= 0)
		close(cfg.b.fd);
	if (cfg.a.fd >= 0)
		close(cfg.a.fd);
	return 0;
}
