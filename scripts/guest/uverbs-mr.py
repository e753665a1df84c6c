#!/usr/bin/python3
# scripts/guest/uverbs-mr.py MODE ARGS - user memory regions on ib_uverbs
# by hand (write() ABI, helpers from uverbs-write.py) and through
# libibverbs (ctypes). Prints one line per check; exit status 0 when all
# held. Modes:
#   abi DEVFILE        REG_MR/DEREG_MR of sizes and access flags, VmPin
#                      rising and falling by the pages, every bad input's
#                      errno; leaves one MR for close to free
#   limit DEVFILE KB   run under "ulimit -l KB" without CAP_IPC_LOCK:
#                      registrations within the limit work, beyond it ENOMEM
#                      (or EPERM for a limit of 0)
#   hold DEVFILE PAGES GO  register PAGES pages, print "held", wait until
#                      the file GO exists (or a kill), exit without dereg
#   ibv IBDEV          ibv_open_device, ibv_alloc_pd, ibv_reg_mr,
#                      ibv_dereg_mr through the unmodified rxe provider
#   rereg DEVFILE IBDEV  REREG_MR: ACCESS and PD in place (same keys),
#                      TRANS and a read-only MR made writable as a new MR
#                      (new keys, same handle, old keys gone from
#                      "rdma res show mr", pins moved), and 6.1's errnos
import ctypes
import errno
import importlib.util
import json
import mmap
import os
import struct
import subprocess
import sys
import time

import abi_check
from abi_check import buf, check, write
from abi_check import errname as name

_spec = importlib.util.spec_from_file_location(
    "uverbs_write", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                 "uverbs-write.py"))
uw = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(uw)
legacy = uw.legacy

REG_MR, REREG_MR, DEREG_MR, ALLOC_MW, DEALLOC_MW = 9, 11, 13, 14, 16
# IB_MR_REREG_*
TRANS, NEWPD, ACCESS = 1, 2, 4
PAGE = mmap.PAGESIZE
# IB_ACCESS_*
LW, RW, RR, RA, MWB, ODP = 1, 2, 4, 8, 16, 64
ALL_RIGHTS = LW | RW | RR | RA | MWB


def vm_pin():
    """The process's pinned_vm in pages (VmPin in /proc/self/status)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmPin:"):
                return int(line.split()[1]) * 1024 // PAGE
    return -1


def pages_of(addr, length):
    first = addr // PAGE
    last = (addr + length - 1) // PAGE
    return last - first + 1


class Dev:
    def __init__(self, path):
        self.fd = os.open(path, os.O_RDWR)
        r, addr = buf(8)
        err = write(self.fd, legacy(uw.GET_CONTEXT, struct.pack("<Q", addr), 8))
        if err:
            raise OSError(err, "GET_CONTEXT")
        self.async_fd = struct.unpack("<I", r.raw[:4])[0]
        self.pd = self.alloc_pd()

    def alloc_pd(self):
        r, addr = buf(4)
        err = write(self.fd, legacy(uw.ALLOC_PD, struct.pack("<Q", addr), 4))
        if err:
            raise OSError(err, "ALLOC_PD")
        return struct.unpack("<I", r.raw)[0]

    def reg_mr(self, start, length, access, pd=None, hca_va=None):
        """(errno, handle, lkey, rkey)"""
        r, addr = buf(12)
        body = struct.pack("<QQQQII", addr, start, length,
                           start if hca_va is None else hca_va,
                           self.pd if pd is None else pd, access)
        err = write(self.fd, legacy(REG_MR, body, 12))
        return (err,) + struct.unpack("<III", r.raw)

    def rereg_mr(self, handle, flags, start=0, length=0, hca_va=None,
                 pd=0, access=0):
        """(errno, lkey, rkey)"""
        r, addr = buf(8)
        body = struct.pack("<QIIQQQII", addr, handle, flags, start, length,
                           start if hca_va is None else hca_va, pd, access)
        err = write(self.fd, legacy(REREG_MR, body, 8))
        return (err,) + struct.unpack("<II", r.raw)

    def dereg_mr(self, handle):
        return write(self.fd, legacy(DEREG_MR, struct.pack("<I", handle), 0))

    def alloc_mw(self, mw_type, pd=None):
        """(errno, handle, rkey)"""
        r, addr = buf(8)
        body = struct.pack("<QIB3x", addr, self.pd if pd is None else pd,
                           mw_type)
        err = write(self.fd, legacy(ALLOC_MW, body, 8))
        return (err,) + struct.unpack("<II", r.raw)

    def dealloc_mw(self, handle):
        return write(self.fd, legacy(DEALLOC_MW, struct.pack("<I", handle),
                                     0))

    def dealloc_pd(self, handle):
        return write(self.fd, legacy(uw.DEALLOC_PD, struct.pack("<I", handle),
                                     0))

    def close(self):
        os.close(self.async_fd)
        os.close(self.fd)


def sizes_and_rights(dev, base):
    """Register ranges of several sizes and rights; VmPin follows."""
    cases = [  # (offset, length, access)
        (0, 1, 0), (0, PAGE, LW), (100, PAGE, LW | RR),
        (PAGE - 1, 2, LW | RW), (PAGE + 7, 5 * PAGE + 3, LW | RA),
        (0, 64 * PAGE, ALL_RIGHTS), (3 * PAGE, 4097, MWB | LW),
        (0, 256 * PAGE, LW | RW | RR),
    ]
    pin0 = vm_pin()
    regs = []
    want = 0
    for off, length, access in cases:
        err, handle, lkey, rkey = dev.reg_mr(base + off, length, access)
        want += pages_of(base + off, length)
        check(f"REG_MR {length} bytes at +{off} access {access:#x}",
              err == 0 and lkey != 0 and lkey == rkey and
              vm_pin() - pin0 == want,
              f"(errno {name(err)}, handle {handle}, lkey {lkey:#x}, "
              f"VmPin +{vm_pin() - pin0} pages, want +{want})")
        regs.append((handle, lkey, pages_of(base + off, length)))
    check("MR handles and keys differ",
          len({h for h, _, _ in regs}) == len(regs) and
          len({k for _, k, _ in regs}) == len(regs))
    check("DEALLOC_PD with MRs on it", dev.dealloc_pd(dev.pd) == errno.EBUSY)
    for handle, lkey, npages in regs:
        err = dev.dereg_mr(handle)
        want -= npages
        check(f"DEREG_MR {handle}", err == 0 and vm_pin() - pin0 == want,
              f"(errno {name(err)}, VmPin +{vm_pin() - pin0}, want +{want})")
    check("DEREG_MR twice", dev.dereg_mr(regs[0][0]) == errno.EINVAL)
    check("VmPin back where it was", vm_pin() == pin0, f"({vm_pin()} pages)")


def windows(dev):
    """ALLOC_MW and DEALLOC_MW: types 1 and 2, bad types and handles."""
    mws = []
    for t in (1, 2, 1):
        err, handle, rkey = dev.alloc_mw(t)
        check(f"ALLOC_MW type {t}", err == 0 and rkey != 0,
              f"(errno {name(err)}, handle {handle}, rkey {rkey:#x})")
        mws.append((handle, rkey))
    check("MW handles and rkeys differ",
          len({h for h, _ in mws}) == 3 and len({k for _, k in mws}) == 3)
    for t in (0, 3, 255):
        err = dev.alloc_mw(t)[0]
        check(f"ALLOC_MW type {t}", err == errno.EINVAL, f"({name(err)})")
    err = dev.alloc_mw(1, pd=4321)[0]
    check("ALLOC_MW on no PD", err == errno.EINVAL, f"({name(err)})")
    check("DEALLOC_PD with MWs on it", dev.dealloc_pd(dev.pd) == errno.EBUSY)
    check("DEREG_MR of an MW's handle", dev.dereg_mr(mws[0][0]) == errno.EINVAL)
    check("DEALLOC_MW", dev.dealloc_mw(mws[0][0]) == 0)
    check("DEALLOC_MW twice", dev.dealloc_mw(mws[0][0]) == errno.EINVAL)
    check("DEALLOC_MW of the PD's handle", dev.dealloc_mw(dev.pd) == errno.EINVAL)
    check("DEALLOC_MW", dev.dealloc_mw(mws[1][0]) == 0)
    # the third stays for close to free


def read_only(dev):
    """Read-only memory: 6.1 pins with FOLL_WRITE always, adding FOLL_FORCE
    for a read-only registration, which breaks COW on a private mapping
    and is refused on a shared one."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    maps = []
    for kind, flags, ro_ok in (
            ("private", mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, 0),
            ("shared", mmap.MAP_SHARED | mmap.MAP_ANONYMOUS, errno.EFAULT)):
        m = mmap.mmap(-1, 4 * PAGE, flags=flags)
        addr = ctypes.addressof(ctypes.c_char.from_buffer(m))
        maps.append(m)
        check(f"mprotect PROT_READ ({kind})",
              libc.mprotect(addr, 4 * PAGE, mmap.PROT_READ) == 0)
        err, handle, _, _ = dev.reg_mr(addr, 4 * PAGE, RR)
        check(f"REG_MR of read-only {kind} memory, remote read",
              err == ro_ok, f"(errno {name(err)}, want {name(ro_ok)})")
        if not err:
            check("DEREG_MR of it", dev.dereg_mr(handle) == 0)
        err, _, _, _ = dev.reg_mr(addr, 4 * PAGE, LW)
        check(f"REG_MR of read-only {kind} memory, local write",
              err == errno.EFAULT, f"(errno {name(err)})")
        libc.mprotect(addr, 4 * PAGE, mmap.PROT_READ | mmap.PROT_WRITE)
    return maps


def bad_inputs(dev, base, fence):
    pin0 = vm_pin()
    cases = [
        ("zero length", dict(start=base, length=0, access=LW), errno.EINVAL),
        ("start + length wraps",
         dict(start=(1 << 64) - PAGE, length=2 * PAGE, access=LW),
         errno.EINVAL),
        ("page-aligned end wraps",
         dict(start=(1 << 64) - 100, length=50, access=0), errno.EINVAL),
        ("length 2^64-1", dict(start=base, length=(1 << 64) - 1, access=0),
         errno.EINVAL),
        ("iova offset differs from start's",
         dict(start=base, length=PAGE, access=LW, hca_va=base + 8),
         errno.EINVAL),
        ("unknown access bit", dict(start=base, length=PAGE,
                                    access=LW | (1 << 12)), errno.EINVAL),
        ("remote write without local write",
         dict(start=base, length=PAGE, access=RW), errno.EINVAL),
        ("remote atomic without local write",
         dict(start=base, length=PAGE, access=RA), errno.EINVAL),
        ("on-demand paging (rxe has none)",
         dict(start=base, length=PAGE, access=LW | ODP), errno.EINVAL),
        ("no such PD", dict(start=base, length=PAGE, access=LW, pd=777),
         errno.EINVAL),
        ("unmapped memory", dict(start=PAGE, length=PAGE, access=LW),
         errno.EFAULT),
        ("2^34 pages", dict(start=base, length=1 << 46, access=LW),
         errno.EINVAL),
        # with CAP_IPC_LOCK the limit does not apply: pinning stops at
        # the PROT_NONE page
        ("2^40 bytes over a mapping that ends",
         dict(start=fence, length=1 << 40, access=LW), errno.EFAULT),
    ]
    for what, kw, want in cases:
        err = dev.reg_mr(**kw)[0]
        check(f"REG_MR {what}", err == want,
              f"(errno {name(err)}, want {name(want)})")
    check("nothing stayed pinned", vm_pin() == pin0, f"({vm_pin()} pages)")
    # bits of the optional range (IB_ACCESS_OPTIONAL) are ignored
    err, handle, _, _ = dev.reg_mr(base, PAGE, LW | (1 << 29))
    check("REG_MR with an optional access bit", err == 0 and
          dev.dereg_mr(handle) == 0, f"(errno {name(err)})")
    err = dev.dereg_mr(12345)
    check("DEREG_MR of no handle", err == errno.EINVAL, f"({name(err)})")
    check("DEREG_MR of the PD's handle", dev.dereg_mr(dev.pd) == errno.EINVAL)
    r, addr = buf(12)
    short = legacy(REG_MR, struct.pack("<QQQQ", addr, base, PAGE, base), 12)
    check("REG_MR request without pd_handle and access",
          write(dev.fd, short) == errno.ENOSPC)
    check("REG_MR response room of 8 bytes",
          write(dev.fd, legacy(REG_MR, struct.pack("<QQQQII", addr, base,
                                                   PAGE, base, dev.pd, LW),
                               8)) == errno.ENOSPC)
    err = dev.reg_mr(base, PAGE, LW, pd=dev.pd)[0]
    check("REG_MR with a response address outside memory",
          write(dev.fd, legacy(REG_MR, struct.pack("<QQQQII", 8, base, PAGE,
                                                   base, dev.pd, LW), 12))
          == errno.EFAULT and err == 0)
    # the one above that worked stays for close to free
    check("one MR left pinned for close", vm_pin() == pin0 + 1,
          f"({vm_pin() - pin0})")


def mode_abi(path):
    dev = Dev(path)
    m = mmap.mmap(-1, 512 * PAGE)
    base = ctypes.addressof(ctypes.c_char.from_buffer(m))
    f = mmap.mmap(-1, 4 * PAGE)
    fence = ctypes.addressof(ctypes.c_char.from_buffer(f))
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    libc.mprotect(fence + 3 * PAGE, PAGE, 0)  # PROT_NONE
    sizes_and_rights(dev, base)
    windows(dev)
    ro = read_only(dev)
    bad_inputs(dev, base, fence)
    # the MR left and its PD go with the file
    dev.close()
    for _ in range(20):
        if vm_pin() == 0:
            break
        time.sleep(0.1)
    check("VmPin 0 after close", vm_pin() == 0, f"({vm_pin()})")
    del ro


def mode_limit(path, kb):
    dev = Dev(path)
    limit = kb * 1024 // PAGE
    m = mmap.mmap(-1, (limit + 8) * PAGE)
    base = ctypes.addressof(ctypes.c_char.from_buffer(m))
    if limit == 0:
        err = dev.reg_mr(base, PAGE, LW)[0]
        check("REG_MR with RLIMIT_MEMLOCK 0", err == errno.EPERM,
              f"(errno {name(err)})")
        return
    half = limit // 2
    err, h1, _, _ = dev.reg_mr(base, half * PAGE, LW)
    check(f"REG_MR {half} pages within {limit}", err == 0 and
          vm_pin() == half, f"(errno {name(err)}, VmPin {vm_pin()})")
    err = dev.reg_mr(base, (limit - half + 1) * PAGE, LW)[0]
    check(f"REG_MR {limit - half + 1} more pages: over the limit",
          err == errno.ENOMEM and vm_pin() == half,
          f"(errno {name(err)}, VmPin {vm_pin()})")
    err, h2, _, _ = dev.reg_mr(base, (limit - half) * PAGE, LW)
    check("REG_MR up to the limit exactly", err == 0 and vm_pin() == limit,
          f"(errno {name(err)}, VmPin {vm_pin()})")
    err = dev.reg_mr(base, 1, 0)[0]
    check("one byte more", err == errno.ENOMEM, f"(errno {name(err)})")
    err = dev.reg_mr(base, 1 << 40, LW)[0]
    check("REG_MR of a terabyte", err == errno.ENOMEM, f"(errno {name(err)})")
    check("DEREG_MR both", dev.dereg_mr(h1) == 0 and dev.dereg_mr(h2) == 0
          and vm_pin() == 0, f"(VmPin {vm_pin()})")
    dev.close()


def mode_hold(path, npages, go):
    dev = Dev(path)
    m = mmap.mmap(-1, npages * PAGE)
    base = ctypes.addressof(ctypes.c_char.from_buffer(m))
    err = dev.reg_mr(base, npages * PAGE, LW | RW | RR)[0]
    check(f"REG_MR {npages} pages", err == 0 and vm_pin() == npages,
          f"(errno {name(err)}, VmPin {vm_pin()})")
    print(f"held {os.getpid()}", flush=True)
    while not os.path.exists(go):
        time.sleep(0.2)
    os._exit(0)


class IbvMr(ctypes.Structure):
    _fields_ = [("context", ctypes.c_void_p), ("pd", ctypes.c_void_p),
                ("addr", ctypes.c_void_p), ("length", ctypes.c_size_t),
                ("handle", ctypes.c_uint32), ("lkey", ctypes.c_uint32),
                ("rkey", ctypes.c_uint32)]


def mode_ibv(ibdev):
    ibv = ctypes.CDLL("libibverbs.so.1", use_errno=True)
    ibv.ibv_get_device_list.restype = ctypes.POINTER(ctypes.c_void_p)
    ibv.ibv_get_device_list.argtypes = [ctypes.POINTER(ctypes.c_int)]
    ibv.ibv_get_device_name.restype = ctypes.c_char_p
    ibv.ibv_get_device_name.argtypes = [ctypes.c_void_p]
    ibv.ibv_open_device.restype = ctypes.c_void_p
    ibv.ibv_open_device.argtypes = [ctypes.c_void_p]
    ibv.ibv_alloc_pd.restype = ctypes.c_void_p
    ibv.ibv_alloc_pd.argtypes = [ctypes.c_void_p]
    ibv.ibv_reg_mr.restype = ctypes.POINTER(IbvMr)
    ibv.ibv_reg_mr.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                               ctypes.c_size_t, ctypes.c_int]
    for fn in ("ibv_dereg_mr", "ibv_dealloc_pd", "ibv_close_device"):
        getattr(ibv, fn).argtypes = [ctypes.c_void_p]
    n = ctypes.c_int(0)
    devs = ibv.ibv_get_device_list(ctypes.byref(n))
    dev = next((devs[i] for i in range(n.value)
                if ibv.ibv_get_device_name(devs[i]).decode() == ibdev), None)
    check(f"libibverbs lists {ibdev}", dev is not None)
    if dev is None:
        return
    ctx = ibv.ibv_open_device(dev)
    check("ibv_open_device", bool(ctx), f"(errno {ctypes.get_errno()})")
    pd = ibv.ibv_alloc_pd(ctx)
    check("ibv_alloc_pd", bool(pd), f"(errno {ctypes.get_errno()})")
    m = mmap.mmap(-1, 16 * PAGE)
    base = ctypes.addressof(ctypes.c_char.from_buffer(m))
    mrs = []
    for off, length, access in ((0, 16 * PAGE, LW | RW | RR),
                                (123, 3000, 0), (PAGE, 2 * PAGE, LW | RA)):
        mr = ibv.ibv_reg_mr(pd, base + off, length, access)
        ok = bool(mr) and mr.contents.addr == base + off and \
            mr.contents.length == length and mr.contents.lkey != 0
        check(f"ibv_reg_mr {length} bytes access {access:#x}", ok,
              f"(errno {ctypes.get_errno()}"
              + (f", lkey {mr.contents.lkey:#x} rkey {mr.contents.rkey:#x})"
                 if mr else ")"))
        if mr:
            mrs.append(mr)
    check("VmPin with the MRs", vm_pin() == 16 + 1 + 2, f"({vm_pin()})")
    ctypes.set_errno(0)
    bad = ibv.ibv_reg_mr(pd, base, 0, LW)
    check("ibv_reg_mr of 0 bytes fails with EINVAL",
          not bad and ctypes.get_errno() == errno.EINVAL,
          f"(errno {ctypes.get_errno()})")
    for mr in mrs:
        check("ibv_dereg_mr", ibv.ibv_dereg_mr(mr) == 0)
    check("VmPin 0 after ibv_dereg_mr", vm_pin() == 0, f"({vm_pin()})")
    check("ibv_dealloc_pd", ibv.ibv_dealloc_pd(pd) == 0)
    check("ibv_close_device", ibv.ibv_close_device(ctx) == 0)
    ibv.ibv_free_device_list(devs)


def res_mrs(ibdev):
    """{rkey: (mrlen, pdn)} of this process's MRs, from rdma res show mr."""
    out = subprocess.run(["rdma", "-j", "res", "show", "mr", "dev", ibdev],
                         capture_output=True, text=True, check=False).stdout
    mrs = {}
    for mr in json.loads(out or "[]"):
        if mr.get("pid") == os.getpid():
            # iproute2 prints keys in hex, without 0x in its JSON
            rkey = mr["rkey"]
            rkey = rkey if isinstance(rkey, int) else int(rkey, 16)
            mrs[rkey] = (mr.get("mrlen"), mr.get("pdn"))
    return mrs


def rereg_in_place(dev, ibdev, base):
    """ACCESS and PD change the MR in place: keys, pins and handle stay."""
    pd2 = dev.alloc_pd()
    err, h, lkey, rkey = dev.reg_mr(base, 4 * PAGE, LW | RR)
    check("REG_MR for rereg", err == 0, f"({name(err)})")
    pin0 = vm_pin()
    err, lk, rk = dev.rereg_mr(h, ACCESS, access=LW | RW | RR | RA)
    check("REREG_MR ACCESS in place", err == 0 and (lk, rk) == (lkey, rkey)
          and vm_pin() == pin0, f"({name(err)}, keys {lk:#x} {rk:#x})")
    pdn0 = res_mrs(ibdev).get(rkey, (0, None))[1]
    err, lk, rk = dev.rereg_mr(h, NEWPD, pd=pd2)
    check("REREG_MR PD in place", err == 0 and (lk, rk) == (lkey, rkey),
          f"({name(err)}, keys {lk:#x} {rk:#x})")
    pdn1 = res_mrs(ibdev).get(rkey, (0, None))[1]
    check("rdma res shows the MR on its new PD",
          pdn0 is not None and pdn1 is not None and pdn0 != pdn1,
          f"(pdn {pdn0} -> {pdn1})")
    check("DEALLOC_PD of the MR's new PD", dev.dealloc_pd(pd2) == errno.EBUSY)
    err = dev.rereg_mr(h, NEWPD | ACCESS, pd=pd2, access=LW)[0]
    check("REREG_MR PD to the PD it is on", err == 0, f"({name(err)})")
    err = dev.rereg_mr(h, NEWPD, pd=dev.pd)[0]
    check("REREG_MR PD back", err == 0, f"({name(err)})")
    check("DEALLOC_PD of the PD left", dev.dealloc_pd(pd2) == 0)
    return h, lkey, rkey


def rereg_new(dev, ibdev, base, h, lkey, rkey):
    """TRANS, and access that writes read-only pins: a new MR, same handle."""
    pin0 = vm_pin()
    err, lk, rk = dev.rereg_mr(h, TRANS, base + 8 * PAGE + 16, 2 * PAGE,
                               hca_va=0x10000010)
    mrs = res_mrs(ibdev)
    check("REREG_MR TRANS: new keys", err == 0 and lk != lkey and rk != rkey,
          f"({name(err)}, keys {lkey:#x} -> {lk:#x})")
    check("REREG_MR TRANS: pins moved", vm_pin() - pin0 == 3 - 4,
          f"(VmPin {pin0} -> {vm_pin()} pages)")
    check("rdma res: old rkey gone, new one 2 pages long",
          rkey not in mrs and mrs.get(rk, (0,))[0] == 2 * PAGE, f"({mrs})")
    err, h2, lkey2, rkey2 = dev.reg_mr(base + 16 * PAGE, PAGE, RR)
    err2, lk2, rk2 = dev.rereg_mr(h2, ACCESS, access=LW | RR)
    check("REREG_MR of a read-only MR to local write: re-pinned, new keys",
          err == 0 and err2 == 0 and lk2 != lkey2 and rk2 != rkey2,
          f"({name(err)} {name(err2)}, keys {lkey2:#x} -> {lk2:#x})")
    err, lk3, _ = dev.rereg_mr(h2, ACCESS, access=LW)
    check("REREG_MR to fewer rights: in place", err == 0 and lk3 == lk2,
          f"({name(err)})")
    check("DEREG_MR of the rereg'ed MRs",
          dev.dereg_mr(h) == 0 and dev.dereg_mr(h2) == 0)
    check("DEREG_MR of the rereg'ed MRs twice",
          dev.dereg_mr(h) == errno.EINVAL)
    check("no MR left in rdma res", not res_mrs(ibdev), f"({res_mrs(ibdev)})")


def rereg_errnos(dev, base):
    """6.1's errnos, and an MR a failed rereg leaves as it was."""
    err, h, lkey, rkey = dev.reg_mr(base, PAGE, LW)
    cases = [
        ("no flags", dict(flags=0), errno.EINVAL),
        ("flag 8", dict(flags=8), errno.EOPNOTSUPP),
        ("flags 9", dict(flags=TRANS | 8), errno.EOPNOTSUPP),
        ("TRANS with offsets differing", dict(flags=TRANS, start=base,
         length=PAGE, hca_va=base + 1), errno.EINVAL),
        ("PD of no handle", dict(flags=NEWPD, pd=4321), errno.EINVAL),
        ("PD that is an MR's handle", dict(flags=NEWPD, pd=h), errno.EINVAL),
        ("ACCESS remote write without local write",
         dict(flags=ACCESS, access=RW), errno.EINVAL),
        ("TRANS of unmapped memory", dict(flags=TRANS, start=PAGE,
         length=PAGE), errno.EFAULT),
        ("TRANS of no bytes", dict(flags=TRANS, start=base, length=0),
         errno.EINVAL),
    ]
    for what, kw, want in cases:
        got = dev.rereg_mr(h, **kw)[0]
        check(f"REREG_MR {what}", got == want, f"({name(got)})")
    got = dev.rereg_mr(dev.pd, ACCESS, access=LW)[0]
    check("REREG_MR of a PD's handle", got == errno.EINVAL, f"({name(got)})")
    got = dev.rereg_mr(4321, ACCESS, access=LW)[0]
    check("REREG_MR of no handle", got == errno.EINVAL, f"({name(got)})")
    got, lk, rk = dev.rereg_mr(h, ACCESS, access=LW | RR)
    check("the MR after the failed rereg", got == 0 and (lk, rk) == (lkey, rkey),
          f"({name(got)})")
    check("DEREG_MR of it", dev.dereg_mr(h) == 0)


def mode_rereg(path, ibdev):
    dev = Dev(path)
    m = mmap.mmap(-1, 32 * PAGE)
    base = ctypes.addressof(ctypes.c_char.from_buffer(m))
    h, lkey, rkey = rereg_in_place(dev, ibdev, base)
    rereg_new(dev, ibdev, base, h, lkey, rkey)
    rereg_errnos(dev, base)
    dev.close()
    check("VmPin 0 after close", vm_pin() == 0, f"({vm_pin()})")


def main():
    mode = sys.argv[1]
    if mode == "abi":
        mode_abi(sys.argv[2])
    elif mode == "limit":
        mode_limit(sys.argv[2], int(sys.argv[3]))
    elif mode == "hold":
        mode_hold(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    elif mode == "ibv":
        mode_ibv(sys.argv[2])
    elif mode == "rereg":
        mode_rereg(sys.argv[2], sys.argv[3])
    else:
        print(f"unknown mode {mode}")
        return 2
    return abi_check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
