/* SPDX-License-Identifier: GPL-2.0-only */
/* A fake RDMA driver for the KUnit suites: devices with no hardware behind them. */
#ifndef RDMAOOT_KUNIT_MOCK_IBDEV_H
#define RDMAOOT_KUNIT_MOCK_IBDEV_H

#include <linux/atomic.h>
#include <rdma/ib_verbs.h>

/*
 * ib_unregister_driver() acts on every device of a driver id, so the mock
 * borrows the id of a PCI driver that never has hardware in the test
 * guest, rather than rxe's or siw's.
 */
#define MOCK_IBDEV_DRIVER_ID	RDMA_DRIVER_MTHCA

struct mock_ibdev;

/**
 * struct mock_ibdev_cfg - how a mock device behaves
 * @nports: number of ports (phys_port_cnt), 1 or more
 * @fail_immutable_port: get_port_immutable fails with -EIO for this port;
 *			 0 for never
 * @no_kverbs: leave out the ops the kernel verbs need, so the device is
 *	       not a kverbs_provider
 * @dealloc_driver: use the dealloc_driver flow (unregistration frees)
 * @on_port_immutable: called from get_port_immutable, i.e. in the middle
 *		       of ib_register_device(); may be NULL
 * @priv: for the test's callbacks
 */
struct mock_ibdev_cfg {
	u32 nports;
	u32 fail_immutable_port;
	bool no_kverbs;
	bool dealloc_driver;
	void (*on_port_immutable)(struct mock_ibdev *mdev, u32 port);
	void *priv;
};

/**
 * struct mock_ibdev - a mock device
 * @ibdev: the RDMA device; first, as ib_alloc_device() wants
 * @cfg: a copy of the configuration it was made with
 * @query_port_calls: how often query_port ran
 */
struct mock_ibdev {
	struct ib_device ibdev;
	struct mock_ibdev_cfg cfg;
	atomic_t query_port_calls;
};

static inline struct mock_ibdev *to_mock_ibdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct mock_ibdev, ibdev);
}

/* What the mock's ops report, so tests can check the core passed it on. */
#define MOCK_IBDEV_LID(port)		(0x100 + (port))
#define MOCK_IBDEV_PKEY_TBL_LEN(port)	(16 * (port))
#define MOCK_IBDEV_GID_TBL_LEN(port)	(8 * (port))
#define MOCK_IBDEV_PKEY(port, index)	(0x8000 | ((port) << 8) | (index))
#define MOCK_IBDEV_FW			"1.2.3"

struct mock_ibdev *mock_ibdev_alloc(const struct mock_ibdev_cfg *cfg);
int mock_ibdev_register(struct mock_ibdev *mdev, const char *name);
void mock_ibdev_free(struct mock_ibdev *mdev);
void mock_ibdev_port_event(struct mock_ibdev *mdev, u32 port,
			   enum ib_event_type type);
int mock_ibdev_live(void);
void mock_ibdev_cleanup_all(void);

#endif /* RDMAOOT_KUNIT_MOCK_IBDEV_H */
