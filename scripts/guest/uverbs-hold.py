#!/usr/bin/python3
# scripts/guest/uverbs-hold.py DEV GO_FILE - hold an RDMA device open from
# user space (a verbs context and a PD, through libibverbs via pyverbs)
# until GO_FILE exists, then check what the device's removal did to us:
# every command fails with EIO, the async event file says DEVICE_FATAL,
# and closing works. Destroys fail with EIO too after a removal (as on
# 6.1); libibverbs turns those into success when the environment has
# RDMAV_ALLOW_DISASSOC_DESTROY=1, which the caller sets so that the PD and
# the context can be closed. Prints one "result:" line per check; exit
# status 0 when all of them held.
import os
import sys
import time

import pyverbs.enums as e
from pyverbs.device import Context
from pyverbs.pd import PD
from pyverbs.pyverbs_error import PyverbsError, PyverbsRDMAError

EIO = 5


def fails(what, fn):
    try:
        fn()
    except PyverbsRDMAError as err:
        ok = err.error_code == EIO
        print(f"result: {what} failed (EIO: {ok}): {err}", flush=True)
        return ok
    except PyverbsError as err:
        print(f"result: {what} failed without an errno: {err}", flush=True)
        return False
    print(f"result: {what} still works after removal", flush=True)
    return False


def main():
    dev, go = sys.argv[1], sys.argv[2]
    ctx = Context(name=dev)
    pd = PD(ctx)
    attr = ctx.query_port(1)
    print(f"open: {dev} port 1 state {attr.state}, pd handle {pd.handle}",
          flush=True)
    while not os.path.exists(go):
        time.sleep(0.1)

    ok = fails("query_device", ctx.query_device)
    ok &= fails("query_port", lambda: ctx.query_port(1))
    ok &= fails("alloc_pd", lambda: PD(ctx))
    ev = ctx.get_async_event()
    fatal = ev.event_type == e.IBV_EVENT_DEVICE_FATAL
    print(f"result: async event {ev.event_type}, fatal {fatal}", flush=True)
    ok &= fatal
    pd.close()
    ctx.close()
    print("result: closed", flush=True)
    return 0 if ok else 1


sys.exit(main())
