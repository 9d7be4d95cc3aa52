#!/usr/bin/env python3
"""kept_icons.py — what icons that outlive their files cost (issue 43).

Starts Perch as compare.py does (the same headless sway, session bus and
config; BENCH_PERCH_BEFORE=DIR adds an earlier build), and reads its Pss:
idle, after 100 Notify with no icon (compare.py's "after 100 posts"),
after 100 more with no icon, and after 100 more whose icon is a file of its own — a 96×96 PNG, each a
different picture, as Chromium's avatars are — deleted once the burst is
answered; then the bytes of the kept copies on disk (`icons/` beside the
state file). All notifications stay live (expire 0), so every kept icon
is held. Asserts nothing.

Usage: python3 bench/kept_icons.py
"""

import glob
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import compare  # noqa: E402
import harness  # noqa: E402

N = 100
SIZE = 96


def icon_png(i):
    """A SIZE² picture of its own: a gradient whose colours depend on i,
    with grain, so that it compresses as a photo does, not as a flat
    drawing."""
    rows = bytearray()
    for y in range(SIZE):
        for x in range(SIZE):
            grain = ((x * 7919 + y * 104729 + i * 1299709) * 2654435761 >> 16) & 63
            rows += bytes(((x * 191 // SIZE + i * 37 + grain) % 256, (y * 191 // SIZE + i * 91 + grain) % 256,
                           (i * 53 + grain) % 256))
    return harness.Image(SIZE, SIZE, bytes(rows))


def measure(b, d):
    proc, _, _, _ = b.start(d)
    out = {}
    try:
        compare.wait_idle(proc.pid, timeout=10)
        time.sleep(0.5)
        compare.wait_idle(proc.pid, timeout=10)
        out["idle"] = compare.memory_kb(proc.pid)[1]
        b.call("notify", n=N, expire=0, timeout=30)
        compare.wait_idle(proc.pid, timeout=30)
        out["100 plain"] = compare.memory_kb(proc.pid)[1]
        # 100 more of the same: what another 100 cost once the first have
        # set the heap and the caches up.
        b.call("notify", n=N, expire=0, timeout=30)
        compare.wait_idle(proc.pid, timeout=30)
        out["100 more plain"] = compare.memory_kb(proc.pid)[1]
        paths = []
        for i in range(N):
            path = b.share_path("tmp-icon-%d.png" % i)
            icon_png(i).save_png(path)
            os.chmod(path, 0o644)
            paths.append(path)
        for path in paths:
            b.call("notify", n=1, expire=0, timeout=10, icon=path)
        for path in paths:
            os.remove(path)
        compare.wait_idle(proc.pid, timeout=30)
        out["100 icons"] = compare.memory_kb(proc.pid)[1]
        # The daemon's idle check (10 s without a turn) gives the heap's
        # free pages back: what is left is what is held.
        time.sleep(11)
        out["idle check"] = compare.memory_kb(proc.pid)[1]
        copies = glob.glob(os.path.join(b.work, "**", "perch", "icons", "*.png"), recursive=True)
        out["disk"] = sum(os.path.getsize(c) for c in copies) // 1024
        out["copies"] = len(copies)
        for c in copies:
            os.remove(c)
        return out
    finally:
        b.stop(proc)


def main():
    os.environ.setdefault("PERCH_TEST_USER", "perch-bench")
    os.environ["BENCH_PEERS"] = ""
    daemons = [d for d in compare.chosen_host_daemons(default="") if d.name.startswith("perch")]
    b = compare.Bench()
    results = {}
    try:
        for d in daemons:
            compare.log("kept icons: %s" % d.name)
            results[d.label] = measure(b, d)
    finally:
        b.close()
    print("Pss (kB) of Perch with icons whose files are deleted, %s" % time.strftime("%Y-%m-%d %H:%M"))
    print("| daemon | idle | +%d plain | +%d more plain | then +%d with a deleted %d² PNG each | 11 s later "
          "(the idle check) | copies on disk |" % (N, N, N, SIZE))
    print("|---|---|---|---|---|---|---|")
    for label, r in results.items():
        print("| %s | %d | %d | %d (%+d) | %d (%+d) | %d (%+d) | %d files, %d KiB |"
              % (label, r["idle"], r["100 plain"], r["100 more plain"], r["100 more plain"] - r["100 plain"],
                 r["100 icons"], r["100 icons"] - r["100 more plain"], r["idle check"],
                 r["idle check"] - r["100 more plain"], r["copies"], r["disk"]))


if __name__ == "__main__":
    main()
