#!/usr/bin/env python3
"""sharing.py — what watching for screen shares costs an idle Perch
(issue 42): memory and wake-ups with `while-sharing=show` (nothing runs)
and `while-sharing=hold` (the default: perch starts its `perch-share`
helper, which loads libpipewire), nothing being shared.

Starts the session compare.py starts (headless sway 1.7, a private bus,
the session user). Each key is measured twice: first without a PipeWire
server (the helper finds no socket; it watches the runtime directory
and looks again every 10 s), then with the e2e tests' stack running in
the session (Tests/e2e/share.py: pipewire and wireplumber as the session
user; no portal, no stream). Each measured start is a second start
(compare.py's Bench.start). Perch is left until it is idle past its 10 s
idle release (HeapMoments.idle: the mapped files' pages given back),
then measured for BENCH_SHARING_SECONDS (20):

- Pss and Rss (/proc/PID/smaps_rollup) of perch and of its perch-share
  child, at the end of the window;
- wake-ups: voluntary plus involuntary context switches
  (/proc/PID/task/*/status), summed over every thread, over the window;
  with PipeWire, pipewire's and wireplumber's too, the same way.

BENCH_SHARING_ROUNDS (1) repeats the four, alternating show and hold;
cells are then the median (min-max). Prints one table. Asserts nothing.
Without the PipeWire packages it measures the rows without a server and
says which are missing.
"""

import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# Tests/e2e first: its share.py (the fixture) is the `share` imported here.
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "e2e"))

import compare  # noqa: E402  (Bench, the daemons, wait_idle, memory_kb)
import share  # noqa: E402  (the e2e tests' PipeWire and WirePlumber)
from harness import poll  # noqa: E402

ROUNDS = max(1, int(os.environ.get("BENCH_SHARING_ROUNDS", "1")))
WINDOW_S = float(os.environ.get("BENCH_SHARING_SECONDS", "20"))
IDLE_RELEASE_S = 10.0  # HeapMoments.idle
KEYS = ("show", "hold")


def log(msg):
    print("sharing: " + msg, file=sys.stderr, flush=True)


def _switches(task):
    """Voluntary plus involuntary context switches of one thread: every
    time it was taken off the CPU, whether it went to sleep or was
    preempted (either way it ran, so it was woken or still running)."""
    total = 0
    try:
        with open(task + "status") as f:
            for line in f:
                if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                    total += int(line.split()[1])
    except (OSError, ValueError):
        return None
    return total


class Switches:
    """Context switches of one process summed over its threads, those that
    exit counted with their last value (compare._over_threads)."""

    def __init__(self, pid):
        self.pid, self.table = pid, {}

    def read(self):
        return compare._over_threads(self.pid, self.table, _switches)


def threads(pid):
    try:
        return len(os.listdir("/proc/%d/task" % pid))
    except OSError:
        return None


class FakeTest:
    """What share.Stack asks of an e2e test: its session and a directory."""

    def __init__(self, b):
        self.b, self.notes = b, []

    def sway(self):
        return self.b.session

    def user_dir(self):
        return self.b.user_dir("share-home")


def wait_quiet(pid):
    """Idle, and past the idle release that comes IDLE_RELEASE_S after
    the last busy turn."""
    last, _ = compare.wait_idle(pid, timeout=15)
    rest = last / 1e9 + IDLE_RELEASE_S + 1.5 - compare.mono_ns() / 1e9
    if rest > 0:
        time.sleep(rest)
    compare.wait_idle(pid, timeout=15)


def helper_of(pid, timeout):
    """The pid of perch's perch-share child, or None after `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        found = [int(p) for p in os.listdir("/proc") if p.isdigit() and child_named(int(p), pid, "perch-share")]
        if found or time.monotonic() > deadline:
            return found[0] if found else None
        time.sleep(0.05)


def child_named(pid, parent, name):
    try:
        with open("/proc/%d/stat" % pid) as f:
            head, tail = f.read().rsplit(")", 1)
        return int(tail.split()[1]) == parent and head.split("(", 1)[1] == name
    except (OSError, IndexError, ValueError):
        return False


def measure(b, key, stack):
    d = compare.WithConfig(compare.DAEMONS[0], "perch-sharing-%s.conf" % key)
    proc, logp, _, _ = b.start(d)
    row = {}
    try:
        helper = helper_of(proc.pid, 3.0 if key != "show" else 0.5)
        if (helper is None) != (key == "show"):
            raise SystemExit("while-sharing=%s: perch-share %s; the log: %s"
                             % (key, "running" if helper else "not started", compare.log_tail(logp)))
        if stack is not None and helper is not None:
            connected, _ = poll(lambda: "perch-share" in stack.pw_cli("ls", "Client").stdout or None,
                                      5.0, 0.1)
            if not connected:
                raise SystemExit("perch-share is not among PipeWire's clients: %s" % compare.log_tail(logp))
        wait_quiet(proc.pid)
        watched = {"perch": proc.pid}
        if helper is not None:
            watched["perch-share"] = helper
        if stack is not None:
            watched["pipewire"] = stack.pipewire.pid
            watched["wireplumber"] = stack.wireplumber.pid
        counters = {name: Switches(pid) for name, pid in watched.items()}
        before = {name: c.read() for name, c in counters.items()}
        time.sleep(WINDOW_S)
        for name, c in counters.items():
            row[name + " wake-ups"] = c.read() - before[name]
        compare.alive(proc, "the window")
        if helper is not None and not child_named(helper, proc.pid, "perch-share"):
            raise SystemExit("perch-share %d went during the window: %s" % (helper, compare.log_tail(logp)))
        for name in ("perch", "perch-share"):
            if name in watched:
                rss, pss = compare.memory_kb(watched[name])
                row[name + " Pss"], row[name + " Rss"] = pss, rss
        if helper is not None:
            row["perch-share threads"] = threads(helper)
    finally:
        b.stop(proc)
    return row


def cell(values, unit=1.0, fmt="%.0f"):
    values = sorted(v / unit for v in values if v is not None)
    if not values:
        return "—"
    mid = fmt % values[len(values) // 2]
    return mid if len(values) == 1 or values[0] == values[-1] else "%s (%s–%s)" % (mid, fmt % values[0],
                                                                                  fmt % values[-1])


def total(row, what):
    return row.get("perch " + what, 0) + row.get("perch-share " + what, 0)


def main():
    os.environ.setdefault("PERCH_TEST_USER", "perch-bench")
    missing = share.available()
    b = compare.Bench()
    with open(b.share_path("perch-defaults.conf")) as f:
        base = f.read()
    for key in KEYS:
        b.write_share("perch-sharing-%s.conf" % key, base + "while-sharing=%s\n" % key)
    servers = ["none"] + ([] if missing else ["pipewire"])
    rows = {(server, key): [] for server in servers for key in KEYS}
    t0 = time.monotonic()
    try:
        for server in servers:
            stack = None
            if server == "pipewire":
                log("starting pipewire and wireplumber")
                stack = share.Stack(FakeTest(b), b.env)
            for round in range(ROUNDS):
                for key in (KEYS if round % 2 == 0 else KEYS[::-1]):
                    log("round %d: %s, while-sharing=%s" % (round + 1, server, key))
                    rows[(server, key)].append(measure(b, key, stack))
    finally:
        b.close()

    seconds = "%g s" % WINDOW_S
    print("Screen-share watching, idle and nothing shared: Pss kB at the end, wake-ups (voluntary + "
          "involuntary context switches, all threads) over %s; %d round%s; %s; %d cores; %.0f s"
          % (seconds, ROUNDS, "" if ROUNDS == 1 else "s", time.strftime("%Y-%m-%d %H:%M"),
             os.cpu_count(), time.monotonic() - t0))
    print("| PipeWire server | while-sharing | perch Pss | perch-share Pss | total Pss | perch wake-ups/%s "
          "| perch-share wake-ups/%s | perch Rss | perch-share Rss | pipewire + wireplumber wake-ups/%s |"
          % (seconds, seconds, seconds))
    print("|---|---|---|---|---|---|---|---|---|---|")
    for (server, key), runs in rows.items():
        helper = key != "show"

        def of(name):
            return cell([r.get(name) for r in runs]) if helper or not name.startswith("perch-share") else "none"
        server_cells = (cell([r["pipewire wake-ups"] + r["wireplumber wake-ups"] for r in runs])
                        if server == "pipewire" else "—")
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |"
              % ("none" if server == "none" else "pipewire + wireplumber", key, of("perch Pss"),
                 of("perch-share Pss"), cell([total(r, "Pss") for r in runs]), of("perch wake-ups"),
                 of("perch-share wake-ups"), of("perch Rss"), of("perch-share Rss"), server_cells))
    threads_seen = sorted({r.get("perch-share threads") for runs in rows.values() for r in runs} - {None})
    if threads_seen:
        print("perch-share threads: %s" % ", ".join(str(n) for n in threads_seen))
    if missing:
        print("note: no rows with PipeWire: not installed: %s (scripts/ensure-deps installs them)" % missing)
    print(json.dumps({"%s/%s" % k: v for k, v in rows.items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
