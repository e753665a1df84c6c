// SPDX-License-Identifier: GPL-2.0-only
/* KUnit suite ib_core_addr: IP address resolution of core/roce/addr.c on the loopback device. */
/*
 * The test guest has only "lo" (127.0.0.1/8 and ::1), no route anywhere
 * else: loopback resolutions succeed, everything else is unroutable.
 * Waits are completions with timeouts; nothing is asserted on a sleep.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/module.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <rdma/ib.h>
#include <rdma/ib_addr.h>

/* Generous: the callback of a loopback resolution is due at once. */
#define ADDR_TEST_WAIT	msecs_to_jiffies(5000)

/**
 * struct addr_test_req - one rdma_resolve_ip() of a test
 * @dev_addr: what it resolves into
 * @done: completed by the callback
 * @calls: how often the callback ran
 * @status: status of the last callback
 * @src: source address the last callback reported
 * @gate: when set, the callback waits for it (to hold up the resolver)
 * @entered: completed when the callback starts
 */
struct addr_test_req {
	struct rdma_dev_addr dev_addr;
	struct completion done;
	atomic_t calls;
	int status;
	struct sockaddr_storage src;
	struct completion *gate;
	struct completion entered;
};

static void addr_test_cb(int status, struct sockaddr *src_addr,
			 struct rdma_dev_addr *addr, void *context)
{
	struct addr_test_req *req = context;

	complete(&req->entered);
	if (req->gate)
		wait_for_completion_timeout(req->gate, ADDR_TEST_WAIT);
	req->status = status;
	memcpy(&req->src, src_addr, rdma_addr_size(src_addr));
	atomic_inc(&req->calls);
	complete(&req->done);
}

static void addr_test_req_init(struct addr_test_req *req)
{
	memset(req, 0, sizeof(*req));
	req->dev_addr.net = &init_net;
	init_completion(&req->done);
	init_completion(&req->entered);
	atomic_set(&req->calls, 0);
}

static struct sockaddr_in addr_in4(u32 host_order)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(host_order),
	};

	return sin;
}

static struct sockaddr_in6 addr_in6(const struct in6_addr *ip)
{
	struct sockaddr_in6 sin6 = {
		.sin6_family = AF_INET6,
		.sin6_addr = *ip,
	};

	return sin6;
}

static int addr_test_resolve(struct addr_test_req *req,
			     struct sockaddr *src, struct sockaddr *dst)
{
	return rdma_resolve_ip(src, dst, &req->dev_addr, 1000, addr_test_cb,
			       false, req);
}

/* Wait for the callback; false on timeout (the request is then cancelled). */
static bool addr_test_wait(struct kunit *test, struct addr_test_req *req)
{
	if (wait_for_completion_timeout(&req->done, ADDR_TEST_WAIT))
		return true;
	rdma_addr_cancel(&req->dev_addr);
	KUNIT_FAIL(test, "no callback within %u ms",
		   jiffies_to_msecs(ADDR_TEST_WAIT));
	return false;
}

/* ---- Sizes --------------------------------------------------------------- */

static void size_test(struct kunit *test)
{
	struct __kernel_sockaddr_storage kss = {};
	struct sockaddr_in6 in6 = {};

	kss.ss_family = AF_INET;
	KUNIT_EXPECT_EQ(test, rdma_addr_size((struct sockaddr *)&kss),
			(int)sizeof(struct sockaddr_in));
	KUNIT_EXPECT_EQ(test, rdma_addr_size_kss(&kss),
			(int)sizeof(struct sockaddr_in));
	kss.ss_family = AF_INET6;
	KUNIT_EXPECT_EQ(test, rdma_addr_size((struct sockaddr *)&kss),
			(int)sizeof(struct sockaddr_in6));
	KUNIT_EXPECT_EQ(test, rdma_addr_size_kss(&kss),
			(int)sizeof(struct sockaddr_in6));
	kss.ss_family = AF_IB;
	KUNIT_EXPECT_EQ(test, rdma_addr_size((struct sockaddr *)&kss),
			(int)sizeof(struct sockaddr_ib));
	KUNIT_EXPECT_EQ(test, rdma_addr_size_kss(&kss),
			(int)sizeof(struct sockaddr_ib));
	kss.ss_family = AF_UNIX;
	KUNIT_EXPECT_EQ(test, rdma_addr_size((struct sockaddr *)&kss), 0);
	KUNIT_EXPECT_EQ(test, rdma_addr_size_kss(&kss), 0);

	/* a sockaddr_in6 cannot hold an AF_IB address */
	in6.sin6_family = AF_INET6;
	KUNIT_EXPECT_EQ(test, rdma_addr_size_in6(&in6),
			(int)sizeof(struct sockaddr_in6));
	in6.sin6_family = AF_INET;
	KUNIT_EXPECT_EQ(test, rdma_addr_size_in6(&in6),
			(int)sizeof(struct sockaddr_in));
	in6.sin6_family = AF_IB;
	KUNIT_EXPECT_EQ(test, rdma_addr_size_in6(&in6), 0);
	in6.sin6_family = AF_UNSPEC;
	KUNIT_EXPECT_EQ(test, rdma_addr_size_in6(&in6), 0);
}

/* ---- rdma_translate_ip() ------------------------------------------------- */

static void expect_loopback_dev(struct kunit *test,
				const struct rdma_dev_addr *dev_addr)
{
	KUNIT_EXPECT_EQ(test, dev_addr->dev_type, (unsigned short)ARPHRD_LOOPBACK);
	KUNIT_EXPECT_EQ(test, dev_addr->bound_dev_if,
			init_net.loopback_dev->ifindex);
}

static void translate_loopback_test(struct kunit *test)
{
	struct sockaddr_in6 in6 = addr_in6(&in6addr_loopback);
	struct sockaddr_in in4 = addr_in4(INADDR_LOOPBACK);
	struct rdma_dev_addr dev_addr = { .net = &init_net };

	KUNIT_EXPECT_EQ(test, rdma_translate_ip((struct sockaddr *)&in4,
						&dev_addr), 0);
	expect_loopback_dev(test, &dev_addr);

	memset(&dev_addr, 0, sizeof(dev_addr));
	dev_addr.net = &init_net;
	KUNIT_EXPECT_EQ(test, rdma_translate_ip((struct sockaddr *)&in6,
						&dev_addr), 0);
	expect_loopback_dev(test, &dev_addr);
}

static void translate_errors_test(struct kunit *test)
{
	struct sockaddr_in in4 = addr_in4(0xc0000201);	/* 192.0.2.1 */
	struct rdma_dev_addr dev_addr = { .net = &init_net };

	/* not an address of ours */
	KUNIT_EXPECT_EQ(test, rdma_translate_ip((struct sockaddr *)&in4,
						&dev_addr), -EADDRNOTAVAIL);
	/* a bound interface decides, whatever the address */
	dev_addr.bound_dev_if = init_net.loopback_dev->ifindex;
	KUNIT_EXPECT_EQ(test, rdma_translate_ip((struct sockaddr *)&in4,
						&dev_addr), 0);
	expect_loopback_dev(test, &dev_addr);
	dev_addr.bound_dev_if = 0x7fff0000;
	KUNIT_EXPECT_EQ(test, rdma_translate_ip((struct sockaddr *)&in4,
						&dev_addr), -ENODEV);
}

/* ---- rdma_resolve_ip() --------------------------------------------------- */

static void resolve_loopback4_test(struct kunit *test)
{
	struct sockaddr_in dst = addr_in4(INADDR_LOOPBACK);
	struct addr_test_req *req = kunit_kzalloc(test, sizeof(*req),
						  GFP_KERNEL);
	struct sockaddr_in *src;

	KUNIT_ASSERT_NOT_NULL(test, req);
	addr_test_req_init(req);
	KUNIT_ASSERT_EQ(test, addr_test_resolve(req, NULL,
						(struct sockaddr *)&dst), 0);
	if (!addr_test_wait(test, req))
		return;
	KUNIT_EXPECT_EQ(test, req->status, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&req->calls), 1);
	src = (struct sockaddr_in *)&req->src;
	KUNIT_EXPECT_EQ(test, src->sin_family, (sa_family_t)AF_INET);
	KUNIT_EXPECT_EQ(test, ntohl(src->sin_addr.s_addr), (u32)INADDR_LOOPBACK);
	expect_loopback_dev(test, &req->dev_addr);
	KUNIT_EXPECT_EQ(test, req->dev_addr.network, RDMA_NETWORK_IB);
	KUNIT_EXPECT_EQ(test, memcmp(req->dev_addr.dst_dev_addr,
				     req->dev_addr.src_dev_addr, MAX_ADDR_LEN),
			0);
	KUNIT_EXPECT_GT(test, req->dev_addr.hoplimit, 0);
	/* nothing is left to cancel */
	rdma_addr_cancel(&req->dev_addr);
}

static void resolve_loopback6_test(struct kunit *test)
{
	struct sockaddr_in6 dst = addr_in6(&in6addr_loopback);
	struct sockaddr_in6 src = addr_in6(&in6addr_any);
	struct addr_test_req *req = kunit_kzalloc(test, sizeof(*req),
						  GFP_KERNEL);
	struct sockaddr_in6 *got;

	KUNIT_ASSERT_NOT_NULL(test, req);
	addr_test_req_init(req);
	KUNIT_ASSERT_EQ(test, addr_test_resolve(req, (struct sockaddr *)&src,
						(struct sockaddr *)&dst), 0);
	if (!addr_test_wait(test, req))
		return;
	KUNIT_EXPECT_EQ(test, req->status, 0);
	got = (struct sockaddr_in6 *)&req->src;
	KUNIT_EXPECT_EQ(test, got->sin6_family, (sa_family_t)AF_INET6);
	KUNIT_EXPECT_TRUE(test, ipv6_addr_loopback(&got->sin6_addr));
	expect_loopback_dev(test, &req->dev_addr);
	KUNIT_EXPECT_EQ(test, req->dev_addr.network, RDMA_NETWORK_IB);
}

/* Whatever way it fails, no callback reports success. */
static void expect_resolve_fails(struct kunit *test, struct sockaddr *dst)
{
	struct addr_test_req *req = kunit_kzalloc(test, sizeof(*req),
						  GFP_KERNEL);
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, req);
	addr_test_req_init(req);
	ret = addr_test_resolve(req, NULL, dst);
	if (ret) {
		KUNIT_EXPECT_LT(test, ret, 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&req->calls), 0);
		return;
	}
	if (addr_test_wait(test, req))
		KUNIT_EXPECT_LT(test, req->status, 0);
}

static void resolve_unroutable_test(struct kunit *test)
{
	struct in6_addr doc6 = { .s6_addr = { 0x20, 0x01, 0x0d, 0xb8,
					      [15] = 1 } };
	struct sockaddr_in6 dst6 = addr_in6(&doc6);
	struct sockaddr_in dst4 = addr_in4(0xc0000201);	/* 192.0.2.1 */

	expect_resolve_fails(test, (struct sockaddr *)&dst4);
	expect_resolve_fails(test, (struct sockaddr *)&dst6);
}

static void resolve_bad_args_test(struct kunit *test)
{
	struct sockaddr_in dst = addr_in4(INADDR_LOOPBACK);
	struct sockaddr_in6 src6 = addr_in6(&in6addr_loopback);
	struct sockaddr unspec = { .sa_family = AF_UNSPEC };
	struct addr_test_req *req = kunit_kzalloc(test, sizeof(*req),
						  GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, req);
	addr_test_req_init(req);
	/* families differ */
	KUNIT_EXPECT_EQ(test, addr_test_resolve(req, (struct sockaddr *)&src6,
						(struct sockaddr *)&dst),
			-EINVAL);
	/* not an IP destination */
	KUNIT_EXPECT_EQ(test, addr_test_resolve(req, NULL, &unspec), -EINVAL);
	/* no namespace */
	req->dev_addr.net = NULL;
	KUNIT_EXPECT_EQ(test, addr_test_resolve(req, NULL,
						(struct sockaddr *)&dst),
			-EINVAL);
	/* by GID entry, without one */
	req->dev_addr.net = &init_net;
	KUNIT_EXPECT_EQ(test, rdma_resolve_ip(NULL, (struct sockaddr *)&dst,
					      &req->dev_addr, 1000,
					      addr_test_cb, true, req),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&req->calls), 0);
}

/*
 * Cancel a request that is certainly still pending: the resolver's
 * workqueue is ordered, so while the callback of request @hold is kept
 * waiting, @victim's report cannot run. After rdma_addr_cancel() the gate
 * opens; a third request, queued behind everything, completing proves the
 * queue has moved past where @victim's report would have been.
 */
static void cancel_test(struct kunit *test)
{
	struct sockaddr_in dst = addr_in4(INADDR_LOOPBACK);
	struct addr_test_req *reqs = kunit_kcalloc(test, 3, sizeof(*reqs),
						   GFP_KERNEL);
	struct addr_test_req *hold = &reqs[0], *victim = &reqs[1];
	struct addr_test_req *after = &reqs[2];
	struct completion gate;

	KUNIT_ASSERT_NOT_NULL(test, reqs);
	init_completion(&gate);
	addr_test_req_init(hold);
	addr_test_req_init(victim);
	addr_test_req_init(after);
	hold->gate = &gate;

	KUNIT_ASSERT_EQ(test, addr_test_resolve(hold, NULL,
						(struct sockaddr *)&dst), 0);
	if (!wait_for_completion_timeout(&hold->entered, ADDR_TEST_WAIT)) {
		complete_all(&gate);
		rdma_addr_cancel(&hold->dev_addr);
		KUNIT_FAIL(test, "the first callback never started");
		return;
	}
	KUNIT_EXPECT_EQ(test, addr_test_resolve(victim, NULL,
						(struct sockaddr *)&dst), 0);
	rdma_addr_cancel(&victim->dev_addr);
	KUNIT_EXPECT_EQ(test, atomic_read(&victim->calls), 0);
	complete_all(&gate);

	KUNIT_EXPECT_TRUE(test, addr_test_wait(test, hold));
	KUNIT_EXPECT_EQ(test, addr_test_resolve(after, NULL,
						(struct sockaddr *)&dst), 0);
	KUNIT_EXPECT_TRUE(test, addr_test_wait(test, after));
	KUNIT_EXPECT_EQ(test, atomic_read(&victim->calls), 0);
	/* cancelling again finds nothing */
	rdma_addr_cancel(&victim->dev_addr);
}

struct addr_test_opener {
	struct delayed_work work;
	struct completion *gate;
};

static void addr_test_open_gate(struct work_struct *work)
{
	struct addr_test_opener *o = container_of(to_delayed_work(work),
						  struct addr_test_opener,
						  work);

	complete_all(o->gate);
}

/*
 * Cancelling while the callback runs waits for it to return: the gate
 * opens only a while after rdma_addr_cancel() was called, so a cancel
 * that did not wait would return before the callback counted itself.
 */
static void cancel_waits_for_callback_test(struct kunit *test)
{
	struct sockaddr_in dst = addr_in4(INADDR_LOOPBACK);
	struct addr_test_req *req = kunit_kzalloc(test, sizeof(*req),
						  GFP_KERNEL);
	struct addr_test_opener opener;
	struct completion gate;

	KUNIT_ASSERT_NOT_NULL(test, req);
	init_completion(&gate);
	addr_test_req_init(req);
	req->gate = &gate;
	opener.gate = &gate;
	INIT_DELAYED_WORK(&opener.work, addr_test_open_gate);

	KUNIT_ASSERT_EQ(test, addr_test_resolve(req, NULL,
						(struct sockaddr *)&dst), 0);
	if (!wait_for_completion_timeout(&req->entered, ADDR_TEST_WAIT)) {
		complete_all(&gate);
		rdma_addr_cancel(&req->dev_addr);
		KUNIT_FAIL(test, "the callback never started");
		return;
	}
	schedule_delayed_work(&opener.work, msecs_to_jiffies(200));
	rdma_addr_cancel(&req->dev_addr);
	KUNIT_EXPECT_EQ(test, atomic_read(&req->calls), 1);
	KUNIT_EXPECT_TRUE(test, completion_done(&req->done));
	cancel_delayed_work_sync(&opener.work);
}

static struct kunit_case addr_test_cases[] = {
	KUNIT_CASE(size_test),
	KUNIT_CASE(translate_loopback_test),
	KUNIT_CASE(translate_errors_test),
	KUNIT_CASE(resolve_loopback4_test),
	KUNIT_CASE(resolve_loopback6_test),
	KUNIT_CASE(resolve_unroutable_test),
	KUNIT_CASE(resolve_bad_args_test),
	KUNIT_CASE(cancel_test),
	KUNIT_CASE(cancel_waits_for_callback_test),
	{}
};

static struct kunit_suite addr_test_suite = {
	.name = "ib_core_addr",
	.test_cases = addr_test_cases,
};

kunit_test_suite(addr_test_suite);

MODULE_DESCRIPTION("KUnit tests of RDMA IP address resolution");
MODULE_LICENSE("GPL");
