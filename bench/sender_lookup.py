#!/usr/bin/env python3
"""sender_lookup.py — what finding out a D-Bus caller's sandbox costs
(issue 38, item 4): the first Notify on a connection now waits for the bus
to say which process sent it (GetConnectionUnixProcessID, asynchronous)
and for a look at /proc/PID/root/.flatpak-info; later calls on the same
connection find the answer kept.

Starts the session compare.py starts (headless sway 1.7, a private bus,
the session user), then Perch (and, with BENCH_PERCH_BEFORE, the build
before it, started the same way, in turn). One client process
(dbus-python) opens BENCH_LOOKUP_N (200) private connections to the bus,
one after the other, and on each times two Notify calls (the monotonic
time around the blocking call): the first on the connection, then a
second. Each notification is closed right after (not timed), so the
screen holds one toast at a time. The same client is run again under
bwrap with a .flatpak-info bound in (the sandboxed path: the file is read
and parsed), when bwrap can make a sandbox for the session user.

Prints one table: the median and 90th percentile of each kind of call,
in microseconds. Asserts nothing.

Usage: python3 bench/sender_lookup.py
       BENCH_PERCH_BEFORE=/work/baseline-bin python3 bench/sender_lookup.py
"""

import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import compare  # noqa: E402  (Bench, Daemon, log)

N = int(os.environ.get("BENCH_LOOKUP_N", "200"))

CLIENT = r'''
import json, sys, time
import dbus
address, n = sys.argv[1], int(sys.argv[2])
NAME, PATH, IFACE = "org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.Notifications"
def notify(bus, i, k):
    args = ("lookup-%d" % i, dbus.UInt32(0), "", "call %d" % k, "", dbus.Array([], signature="s"),
            dbus.Dictionary({}, signature="sv"), dbus.Int32(-1))
    t = time.monotonic_ns()
    nid = bus.call_blocking(NAME, PATH, IFACE, "Notify", "susssasa{sv}i", args, timeout=10)
    return (time.monotonic_ns() - t) // 1000, nid
first, later = [], []
for i in range(n):
    bus = dbus.bus.BusConnection(address)
    us, a = notify(bus, i, 1)
    first.append(us)
    us, b = notify(bus, i, 2)
    later.append(us)
    for nid in (a, b):
        bus.call_blocking(NAME, PATH, IFACE, "CloseNotification", "u", (dbus.UInt32(nid),), timeout=10)
    bus.close()
print(json.dumps({"first": first, "later": later}))
'''

FLATPAK_INFO = "[Application]\nname=org.example.Bench\nruntime=runtime/org.freedesktop.Platform/x86_64/23.08\n"


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100.0 * (len(ordered) - 1))))]


def bwrap_prefix(b):
    """bwrap with the host's /usr and /etc, the bus's directory and a
    .flatpak-info; None when bwrap is missing or cannot run here."""
    if not shutil.which("bwrap"):
        return None
    info = b.share_path("flatpak-info")
    b.write_share("flatpak-info", FLATPAK_INFO)
    argv = ["bwrap", "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64",
            "/lib64", "--symlink", "usr/bin", "/bin", "--ro-bind", "/etc", "/etc", "--proc", "/proc",
            "--dev", "/dev", "--tmpfs", "/tmp", "--unshare-pid", "--die-with-parent",
            "--ro-bind", info, "/.flatpak-info"]
    for part in b.address.split(","):
        if "path=" in part:
            directory = os.path.dirname(part.split("path=", 1)[1])
            argv += ["--bind", directory, directory]
    argv += ["--ro-bind", b.work, b.work, "--"]
    r = subprocess.run(argv + ["/bin/true"], capture_output=True, text=True,
                       **b.session.user_kwargs(), env=b.env)
    if r.returncode != 0:
        compare.log("no sandboxed run: bwrap fails for the session user: %s" % r.stderr.strip())
        return None
    return argv


def measure(b, prefix):
    script = b.path("lookup_client.py")
    with open(script, "w") as f:
        f.write(CLIENT)
    os.chmod(script, 0o644)
    r = subprocess.run(prefix + [compare.PY, script, b.address, str(N)], capture_output=True, text=True,
                       env=b.env, cwd=b.work, timeout=600, **b.session.user_kwargs())
    if r.returncode != 0:
        raise RuntimeError("the client failed: %s" % r.stderr.strip()[-500:])
    return json.loads(r.stdout)


def main():
    os.environ.setdefault("PERCH_TEST_USER", "perch-bench")
    b = compare.Bench()
    daemons = [compare.Daemon("perch", "Perch", "host", None)]
    if b.before_bindir:
        daemons.insert(0, compare.Daemon("perch-before", "Perch before", "host", None))
    results = []
    try:
        sandbox = bwrap_prefix(b)
        for d in daemons:
            compare.log(d.label)
            proc, _, _, _ = b.start(d)
            try:
                for label, prefix in (("ordinary", []), ("sandboxed", sandbox)):
                    if prefix is None:
                        continue
                    calls = measure(b, prefix)
                    results.append((d.label, label, calls))
            finally:
                b.stop(proc)
    finally:
        b.close()
    print("Notify on a new connection, then again on it (%d connections; µs, median / p90)" % N)
    print("| daemon | sender | first call | later call |")
    print("|---|---|---|---|")
    for label, sender, calls in results:
        first, later = calls["first"], calls["later"]
        print("| %s | %s | %d / %d | %d / %d |" % (label, sender, percentile(first, 50), percentile(first, 90),
                                               percentile(later, 50), percentile(later, 90)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
