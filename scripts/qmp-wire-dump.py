#!/usr/bin/env python3
"""qmp-wire-dump.py LABEL=SOCKET ... - what each QEMU of the interop pair
says about its end of the virtual wire, asked over its QMP socket.

For every virtio-net device of a guest: the device's status and, for each of
its queues (0 receive, 1 transmit), QEMU's own indices (last_avail, used,
shadow avail) next to the indices the guest wrote in the rings (avail idx and
flags, used idx and flags): a receive queue whose avail idx is ahead of
last_avail while nothing moves is a device waiting for a kick it missed; one
with avail idx == last_avail is a guest that stopped refilling. Then QEMU's
'info network'. The last line per guest is a one-line summary for verdicts.
Used by scripts/interop.sh when the guest asks (Documentation/testing.rst).
"""
import json
import socket
import sys


class Qmp:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(10)
        self.sock.connect(path)
        self.buf = b""
        self._reply()                   # the greeting
        self.cmd("qmp_capabilities")

    def _reply(self):
        while True:
            while b"\n" not in self.buf:
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise EOFError("QMP socket closed")
                self.buf += chunk
            line, self.buf = self.buf.split(b"\n", 1)
            msg = json.loads(line)
            if "event" not in msg:
                return msg

    def cmd(self, name, **args):
        req = {"execute": name}
        if args:
            req["arguments"] = args
        self.sock.sendall(json.dumps(req).encode() + b"\n")
        msg = self._reply()
        if "error" in msg:
            raise RuntimeError("%s: %s" % (name, msg["error"].get("desc")))
        return msg["return"]


def queue_lines(q, path, idx):
    """(a full line, a short one) on queue IDX of the device at PATH."""
    st = q.cmd("x-query-virtio-queue-status", path=path, queue=idx)
    try:
        el = q.cmd("x-query-virtio-queue-element", path=path, queue=idx)
    except RuntimeError as err:      # an empty ring has no element to show
        el = {"error": str(err)}
    avail = el.get("avail", {})
    used = el.get("used", {})
    full = ("queue %d (%s, %s entries): last_avail %s shadow_avail %s used_idx %s inuse %s"
            " signalled_used %s/%s | guest avail idx %s flags %s, used idx %s"
            " flags %s%s" % (
                idx, st.get("name"), st.get("vring-num"), st.get("last-avail-idx"),
                st.get("shadow-avail-idx"), st.get("used-idx"), st.get("inuse"),
                st.get("signalled-used"), st.get("signalled-used-valid"),
                avail.get("idx"), avail.get("flags"), used.get("idx"),
                used.get("flags"), " (%s)" % el["error"] if "error" in el else ""))
    short = "q%d last_avail %s/avail %s used %s" % (
        idx, st.get("last-avail-idx"), avail.get("idx"), st.get("used-idx"))
    return full, short


def dump(label, path):
    out = []
    try:
        q = Qmp(path)
        summary = []
        for dev in q.cmd("x-query-virtio"):
            if dev.get("name") != "virtio-net":
                continue
            st = q.cmd("x-query-virtio-status", path=dev["path"])
            out.append("%s: %s status %s broken %s vm_running %s" % (
                label, dev["path"], st.get("status", {}).get("statuses"),
                st.get("broken"), st.get("vm-running")))
            for idx in (0, 1):
                full, short = queue_lines(q, dev["path"], idx)
                out.append("%s: %s" % (label, full))
                summary.append(short)
        net = q.cmd("human-monitor-command", **{"command-line": "info network"})
        out += ["%s: info network: %s" % (label, l) for l in net.splitlines()]
        out.append("SUMMARY %s: %s" % (label, "; ".join(summary) or "no virtio-net"))
    except (OSError, EOFError, RuntimeError, ValueError) as err:
        out.append("SUMMARY %s: QMP failed: %s" % (label, err))
    return out


def main():
    for arg in sys.argv[1:]:
        label, path = arg.split("=", 1)
        print("\n".join(dump(label, path)))


if __name__ == "__main__":
    main()
