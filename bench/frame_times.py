#!/usr/bin/env python3
"""Client time per animated frame, from perch's own trace (PERCH_TRACE).

Starts a headless sway and perch (release build from $PERCH_BIN_DIR, default
.build/release), then measures how long perch spends answering each frame
callback: during a single slide in, during a reflow where five toasts
glide down while a sixth slides in, and while the notification center
scrolls through 200 entries (wheel notches, each a 150 ms glide). Prints
median and p99 in microseconds.
Also counts perch's context switches over a few idle seconds (expected 0).
"""

import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "e2e"))

import harness  # noqa: E402
from compare import ctx_switches  # noqa: E402  (the same count, read the same way)


def frame_durations(path, since_ns):
    out = []
    with open(path) as f:
        for line in f:
            # A kind may have spaces in it ("give back"): the numbers are
            # the last two fields.
            kind, start, duration = line.rsplit(None, 2)
            if kind == "frame" and int(start) >= since_ns:
                out.append(int(duration) / 1000.0)
    return out


def stats(values):
    values = sorted(values)
    if not values:
        return "no frames"
    median = values[len(values) // 2]
    p99 = values[min(len(values) - 1, int(round(0.99 * (len(values) - 1))))]
    return "%3d frames, median %6.1f us, p99 %6.1f us, max %6.1f us" % (len(values), median, p99, values[-1])


def main():
    src = os.environ.get("PERCH_BIN_DIR", os.path.join(harness.REPO, ".build", "release"))
    bindir = harness.prepare_bindir(src)
    work = os.path.join("/tmp", "perch-bench-%d" % os.getpid())
    os.makedirs(work, mode=0o755)
    session = harness.Session(work)
    try:
        trace = os.path.join(session.env()["XDG_RUNTIME_DIR"], "trace")
        env = session.env(PERCH_TRACE=trace)
        perch = harness.Perch(session, bindir, os.path.join(work, "perch.log"), env=env,
                              args=["--max-visible", "6", "--max-history", "300"])
        perch.wait_ready()
        now_ns = lambda: time.clock_gettime_ns(time.CLOCK_MONOTONIC)

        t = now_ns()
        perch.post("Slide", "one toast sliding in", timeout=0)
        time.sleep(1.2)
        slide = frame_durations(trace, t)

        for i in range(4):
            perch.post("Toast %d" % i, "a body line", timeout=0)
        time.sleep(1.5)
        t = now_ns()
        perch.post("Newest", "five toasts glide down for me", timeout=0)
        time.sleep(1.2)
        reflow = frame_durations(trace, t)

        before = ctx_switches(perch.proc.pid)
        time.sleep(5)
        idle = ctx_switches(perch.proc.pid) - before

        # The center, scrolled through 200 entries of history.
        perch.ctl_ok("dismiss", "--all")
        for i in range(200):
            perch.post("Entry %d" % i, "a line of body text", timeout=0.01, app="App%d" % (i % 4))
        deadline = time.monotonic() + 30
        while perch.list() and time.monotonic() < deadline:
            time.sleep(0.2)
        perch.ctl_ok("center", "open")
        time.sleep(0.6)   # slid in, its visible pieces drawn
        from pointer import pointer
        t = now_ns()
        pointer(session, bindir, "sleep", "0.3", "move", 1100, 400, "sleep", "0.1",
                *sum((["wheel", "3", "sleep", "0.2"] for _ in range(10)), []))
        time.sleep(0.5)   # at rest again: perch writes its trace out then
        scroll = frame_durations(trace, t)

        print("perch client time per frame (wl_callback.done -> stage committed)")
        print("  slide in of 1 toast:          %s" % stats(slide))
        print("  reflow of 5 toasts + 1 entry: %s" % stats(reflow))
        print("  idle, 6 toasts shown, 5 s:    %d context switches" % idle)
        print("  center scrolling, 200 entries: %s" % stats(scroll))
    finally:
        session.stop()


if __name__ == "__main__":
    main()
