#!/usr/bin/python3
# scripts/guest/uverbs-cq.py DEVFILE MODE [GOFILE] - completion channels and
# CQs through ib_uverbs' write() ABI by hand, with rdma_rxe's user rings
# mapped as rdma-core's rxe provider maps them (<rdma/rdma_user_rxe.h>).
#   basic:   channels (read, poll, O_NONBLOCK), CQs of several sizes, the
#            ring header, resize and remap, REQ_NOTIFY_CQ, POLL_CQ, destroy,
#            the errnos of bad input, a channel closed before its CQ
#   events:  prints "ready", then waits for the port's ERR and ACTIVE on the
#            async event file while the caller takes the netdev down and up
#   removal: maps a CQ ring, prints "mapped", waits for GOFILE (the caller
#            deletes the device meanwhile), then reads the ring and expects
#            EIO from commands
#   verbs:   DEVFILE is the ibdev name: libibverbs and its unmodified rxe
#            provider through ctypes (comp channel, CQs, resize, destroy)
# One line per check; exit status 0 when all held.
import errno
import fcntl
import importlib.util
import mmap
import os
import select
import struct
import sys
import time

import abi_check
from abi_check import buf, check, expect_errno, write

_spec = importlib.util.spec_from_file_location(
    "uvw", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "uverbs-write.py"))
uvw = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(uvw)
legacy, hdr = uvw.legacy, uvw.hdr
create_cq, destroy_cq, map_ring, ring_header = (uvw.create_cq, uvw.destroy_cq,
                                                uvw.map_ring, uvw.ring_header)
get_context = uvw.open_context

EXT = 0x80000000
GET_CONTEXT, QUERY_DEVICE = 0, 1
CREATE_COMP_CHANNEL, CREATE_CQ, RESIZE_CQ, DESTROY_CQ = 17, 18, 19, 20
POLL_CQ, REQ_NOTIFY_CQ = 21, 23
EX_CREATE_CQ = EXT | CREATE_CQ
PAGE = mmap.PAGESIZE
HDR_BYTES = 384          # sizeof(struct rxe_queue_buf)
PORT_ACTIVE, PORT_ERR = 9, 10


def max_cqe(fd):
    r, addr = buf(176)
    write(fd, legacy(QUERY_DEVICE, struct.pack("<Q", addr), 176))
    # struct ib_uverbs_query_device_resp: max_cqe after max_cq
    return struct.unpack_from("<I", r.raw, 76)[0]


def comp_channel(fd):
    r, addr = buf(4)
    err = write(fd, legacy(CREATE_COMP_CHANNEL, struct.pack("<Q", addr), 4))
    return err, struct.unpack("<i", r.raw)[0]


def ex_create_cq(fd, cqe, comp_mask=0, channel=-1):
    r, addr = buf(32)
    ex = struct.pack("<QHHI", addr, 0, 2, 0)
    body = struct.pack("<QIIiIII", 0x55, cqe, 0, channel, comp_mask, 0, 0)
    err = write(fd, hdr(EX_CREATE_CQ, len(body) // 8, 2) + ex + body)
    h, n, _, rlen = struct.unpack_from("<IIII", r.raw)
    off, size = struct.unpack_from("<QI", r.raw, 16)
    return err, (h, n, off, size, rlen)


def resize_cq(fd, handle, cqe):
    r, addr = buf(24)
    err = write(fd, legacy(RESIZE_CQ, struct.pack("<QII", addr, handle, cqe), 24))
    n = struct.unpack_from("<I", r.raw)[0]
    off, size = struct.unpack_from("<QI", r.raw, 8)
    return err, (n, off, size)


def req_notify(fd, handle, solicited=0):
    return write(fd, legacy(REQ_NOTIFY_CQ, struct.pack("<II", handle, solicited), 0))


def poll_cq(fd, handle, ne):
    r, addr = buf(8 + 48 * ne)
    err = write(fd, legacy(POLL_CQ, struct.pack("<QII", addr, handle, ne), 8))
    return err, struct.unpack_from("<I", r.raw)[0]


def page_align(n):
    return (n + PAGE - 1) // PAGE * PAGE


def slots_for(cqe):
    s = 1
    while s < cqe + 1:
        s <<= 1
    return s


def check_ring(what, fd, cqe, got_cqe, off, size):
    """Map a CQ's ring and check its header against the size asked for."""
    slots = slots_for(cqe)
    err, m = map_ring(fd, off, size)
    check(f"{what}: mmap", err == 0, f"(offset {off:#x}, size {size}, errno {err})")
    if not m:
        return None
    log2, mask, prod, cons = ring_header(m)
    check(f"{what}: header", mask == slots - 1 and got_cqe == slots - 1 and
          log2 >= 6 and (1 << log2) >= 48 and prod == 0 and cons == 0 and
          size == page_align(HDR_BYTES + (slots << log2)) and off % PAGE == 0,
          f"(cqe {cqe} -> {got_cqe}, log2_elem_size {log2}, index_mask "
          f"{mask:#x}, producer {prod}, consumer {cons}, size {size})")
    return m


def channels(fd):
    err, ch = comp_channel(fd)
    check("CREATE_COMP_CHANNEL", err == 0 and ch >= 0, f"(errno {err}, fd {ch})")
    link = os.readlink(f"/proc/self/fd/{ch}")
    check("channel is an [infinibandevent] file", "infinibandevent" in link, link)
    fl = fcntl.fcntl(ch, fcntl.F_GETFL)
    fcntl.fcntl(ch, fcntl.F_SETFL, fl | os.O_NONBLOCK)
    try:
        os.read(ch, 8)
        check("empty channel, O_NONBLOCK read: EAGAIN", False, "(read succeeded)")
    except OSError as e:
        check("empty channel, O_NONBLOCK read: EAGAIN", e.errno == errno.EAGAIN,
              f"(errno {e.errno})")
    try:
        os.read(ch, 4)
        check("read shorter than an event: EINVAL", False)
    except OSError as e:
        check("read shorter than an event: EINVAL", e.errno == errno.EINVAL)
    r, _, _ = select.select([ch], [], [], 0)
    check("empty channel does not poll readable", not r)
    return ch


def sizes(fd, ch, top):
    rings, offs = [], set()
    for cqe in (1, 2, 7, 100, 4095, top):
        err, (h, n, off, size) = create_cq(fd, cqe, channel=ch, handle=cqe)
        check(f"CREATE_CQ cqe {cqe}", err == 0, f"(errno {err})")
        if err:
            continue
        check(f"cqe {cqe}: fresh mmap offset", off not in offs, f"({off:#x})")
        offs.add(off)
        m = check_ring(f"cqe {cqe}", fd, cqe, n, off, size)
        rings.append((h, m, off, size))
        err, cnt = poll_cq(fd, h, 4)
        check(f"cqe {cqe}: POLL_CQ finds nothing (user CQs poll their ring)",
              err == 0 and cnt == 0, f"(errno {err}, count {cnt})")
    return rings


def remaps(fd, rings):
    h, m, off, size = rings[1]
    err, _ = map_ring(fd, off, size)
    check("a ring mapped twice: EINVAL", err == errno.EINVAL, f"(errno {err})")
    err, (n, noff, nsize) = resize_cq(fd, h, 300)
    check("RESIZE_CQ 300", err == 0 and n == 511 and noff != off,
          f"(errno {err}, cqe {n}, offset {noff:#x})")
    m2 = check_ring("resized", fd, 300, n, noff, nsize)
    check("the old mapping still reads", ring_header(m)[1] == 3)
    m.close()
    err, (n, _, _) = resize_cq(fd, h, 0)
    check("RESIZE_CQ 0: EINVAL", err == errno.EINVAL, f"(errno {err})")
    err, _ = resize_cq(fd, 0x7777, 8)
    check("RESIZE_CQ of no CQ: EINVAL", err == errno.EINVAL, f"(errno {err})")
    rings[1] = (h, m2, noff, nsize)


def bad_mmaps(fd):
    err, (h, n, off, size) = create_cq(fd, 16)
    err1, _ = map_ring(fd, off + 1000 * PAGE, size)
    check("mmap at an offset nobody has: EINVAL", err1 == errno.EINVAL, f"(errno {err1})")
    err1, _ = map_ring(fd, off, size + PAGE)
    check("mmap larger than the ring: EINVAL", err1 == errno.EINVAL, f"(errno {err1})")
    err1, m = map_ring(fd, off, PAGE)
    check("mmap of the ring's first page", err1 == 0, f"(errno {err1})")
    if m:
        check("first page has the header", ring_header(m)[1] == slots_for(16) - 1)
        m.close()
    destroy_cq(fd, h)


def bad_creates(fd, top, ncomp):
    want = expect_errno
    want("CREATE_CQ cqe 0: EINVAL", create_cq(fd, 0)[0], errno.EINVAL)
    want(f"CREATE_CQ cqe {top + 1}: EINVAL", create_cq(fd, top + 1)[0], errno.EINVAL)
    want("CREATE_CQ cqe -1: EINVAL", create_cq(fd, 0xffffffff)[0], errno.EINVAL)
    want("CREATE_CQ with fd 9999 as channel: EBADF",
         create_cq(fd, 4, channel=9999)[0], errno.EBADF)
    want("CREATE_CQ with the uverbs fd as channel: EBADF",
         create_cq(fd, 4, channel=fd)[0], errno.EBADF)
    want(f"CREATE_CQ comp_vector {ncomp}: EINVAL",
         create_cq(fd, 4, vector=ncomp)[0], errno.EINVAL)
    want("CREATE_CQ without room for rxe's response: EINVAL",
         create_cq(fd, 4, out=8)[0], errno.EINVAL)
    want("EX_CREATE_CQ comp_mask 1: EINVAL", ex_create_cq(fd, 4, comp_mask=1)[0],
         errno.EINVAL)
    err, (h, n, off, size, rlen) = ex_create_cq(fd, 9)
    check("EX_CREATE_CQ", err == 0 and n == 15 and rlen == 16 and size > 0,
          f"(errno {err}, cqe {n}, response_length {rlen})")
    if not err:
        want("DESTROY_CQ of the EX_CREATE_CQ one", destroy_cq(fd, h)[0], 0)
    want("REQ_NOTIFY_CQ of no CQ: EINVAL", req_notify(fd, 0x7777), errno.EINVAL)
    want("POLL_CQ of no CQ: EINVAL", poll_cq(fd, 0x7777, 1)[0], errno.EINVAL)


def channel_closed_first(fd):
    err, ch = comp_channel(fd)
    err, (h, n, off, size) = create_cq(fd, 8, channel=ch)
    check("CQ on a second channel", err == 0, f"(errno {err})")
    os.close(ch)
    check("REQ_NOTIFY_CQ after its channel's fd closed", req_notify(fd, h) == 0)
    err, counts = destroy_cq(fd, h)
    check("DESTROY_CQ after its channel's fd closed", err == 0 and counts == (0, 0),
          f"(errno {err}, events {counts})")


def basic(fd):
    async_fd, ncomp = get_context(fd)
    top = max_cqe(fd)
    check("QUERY_DEVICE max_cqe", top >= 4096, f"({top})")
    ch = channels(fd)
    rings = sizes(fd, ch, top)
    remaps(fd, rings)
    bad_mmaps(fd)
    bad_creates(fd, top, ncomp)
    h = rings[0][0]
    check("REQ_NOTIFY_CQ next", req_notify(fd, h, 0) == 0)
    check("REQ_NOTIFY_CQ solicited", req_notify(fd, h, 1) == 0)
    for i, (h, m, off, size) in enumerate(rings):
        if i == len(rings) - 1:
            continue        # the last stays: closing the file frees it
        err, counts = destroy_cq(fd, h)
        check(f"DESTROY_CQ {h}", err == 0 and counts == (0, 0),
              f"(errno {err}, events {counts})")
        check(f"ring of CQ {h} reads after destroy", ring_header(m)[3] == 0)
        m.close()
    err, _ = destroy_cq(fd, rings[0][0])
    check("DESTROY_CQ twice: EINVAL", err == errno.EINVAL, f"(errno {err})")
    channel_closed_first(fd)
    os.close(ch)
    os.close(async_fd)


def events(fd):
    async_fd, _ = get_context(fd)
    print("ready", flush=True)
    want, seen, deadline = {PORT_ERR, PORT_ACTIVE}, [], time.time() + 60
    while want and time.time() < deadline:
        r, _, _ = select.select([async_fd], [], [], 1)
        if not r:
            continue
        element, ev, _ = struct.unpack("<QII", os.read(async_fd, 16))
        seen.append((ev, element))
        if element == 1:
            want.discard(ev)
    check("async event file: port 1 ERR and ACTIVE", not want, f"(events {seen})")
    os.close(async_fd)


def removal(fd, go):
    async_fd, _ = get_context(fd)
    _, ch = comp_channel(fd)
    err, (h, n, off, size) = create_cq(fd, 64, channel=ch)
    err1, m = map_ring(fd, off, size)
    check("ring mapped", err == 0 and err1 == 0, f"(errno {err}/{err1})")
    print("mapped", flush=True)
    deadline = time.time() + 120
    while not os.path.exists(go) and time.time() < deadline:
        time.sleep(0.2)
    log2, mask, prod, cons = ring_header(m)
    check("ring reads after the device went", mask == 127 and prod == 0,
          f"(index_mask {mask:#x}, producer {prod})")
    struct.pack_into("<I", m, 256, 5)
    check("ring writable after the device went", ring_header(m)[3] == 5)
    check("REQ_NOTIFY_CQ after removal: EIO", req_notify(fd, h) == errno.EIO)
    err, _ = create_cq(fd, 4)
    check("CREATE_CQ after removal: EIO", err == errno.EIO, f"(errno {err})")
    err, _ = map_ring(fd, off, size)
    check("mmap after removal: EIO", err == errno.EIO, f"(errno {err})")
    try:
        os.read(ch, 8)
        check("channel read after removal: EIO", False, "(read succeeded)")
    except OSError as e:
        check("channel read after removal: EIO", e.errno == errno.EIO,
              f"(errno {e.errno})")
    m.close()
    os.close(ch)
    os.close(async_fd)


def verbs(ibdev):
    """The unmodified rxe provider through libibverbs (ctypes)."""
    import ctypes as C
    lib = C.CDLL("libibverbs.so.1", use_errno=True)
    lib.ibv_get_device_list.restype = C.POINTER(C.c_void_p)
    lib.ibv_get_device_list.argtypes = [C.POINTER(C.c_int)]
    lib.ibv_get_device_name.restype = C.c_char_p
    lib.ibv_get_device_name.argtypes = [C.c_void_p]
    for f in ("ibv_open_device", "ibv_create_comp_channel"):
        getattr(lib, f).restype = C.c_void_p
        getattr(lib, f).argtypes = [C.c_void_p]
    lib.ibv_create_cq.restype = C.c_void_p
    lib.ibv_create_cq.argtypes = [C.c_void_p, C.c_int, C.c_void_p, C.c_void_p,
                                  C.c_int]
    lib.ibv_resize_cq.argtypes = [C.c_void_p, C.c_int]
    for f in ("ibv_destroy_cq", "ibv_destroy_comp_channel", "ibv_close_device"):
        getattr(lib, f).argtypes = [C.c_void_p]
    n = C.c_int()
    devs = lib.ibv_get_device_list(C.byref(n))
    dev = next((devs[i] for i in range(n.value)
                if lib.ibv_get_device_name(devs[i]).decode() == ibdev), None)
    check(f"libibverbs lists {ibdev}", dev is not None)
    if not dev:
        return
    ctx = lib.ibv_open_device(dev)
    check("ibv_open_device", bool(ctx), f"(errno {C.get_errno()})")
    ch = lib.ibv_create_comp_channel(ctx)
    check("ibv_create_comp_channel", bool(ch), f"(errno {C.get_errno()})")
    cqs = []
    for cqe in (1, 31, 1000):
        cq = lib.ibv_create_cq(ctx, cqe, None, ch, 0)
        # struct ibv_cq: context, channel, cq_context, handle, cqe
        got = C.c_int.from_address(cq + 28).value if cq else -1
        check(f"ibv_create_cq {cqe}", bool(cq) and got == slots_for(cqe) - 1,
              f"(cqe {got}, errno {C.get_errno()})")
        if cq:
            cqs.append(cq)
    if cqs:
        ret = lib.ibv_resize_cq(cqs[0], 100)
        got = C.c_int.from_address(cqs[0] + 28).value
        check("ibv_resize_cq 100", ret == 0 and got == 127, f"(ret {ret}, cqe {got})")
    for cq in cqs:
        ret = lib.ibv_destroy_cq(cq)
        check("ibv_destroy_cq", ret == 0, f"(ret {ret})")
    check("ibv_destroy_comp_channel", lib.ibv_destroy_comp_channel(ch) == 0)
    check("ibv_close_device", lib.ibv_close_device(ctx) == 0)


def main():
    mode = sys.argv[2]
    if mode == "verbs":
        verbs(sys.argv[1])
        print(f"result: {'FAILED' if abi_check.failed else 'passed'}", flush=True)
        sys.exit(1 if abi_check.failed else 0)
    fd = os.open(sys.argv[1], os.O_RDWR)
    if mode == "basic":
        basic(fd)
    elif mode == "events":
        events(fd)
    elif mode == "removal":
        removal(fd, sys.argv[3])
    os.close(fd)
    print(f"result: {'FAILED' if abi_check.failed else 'passed'}", flush=True)
    sys.exit(1 if abi_check.failed else 0)


if __name__ == "__main__":
    main()
