#!/usr/bin/env python3
"""image_peak.py — what one large image-data hint costs (issue 38, item
8): one Notify whose `image-data` is BENCH_IMAGE_SIDE² RGBA pixels (3872²:
60 MB, under the 4096 a side the specification's senders may send), and
the daemon's memory around it.

Each daemon (Perch, the peers compare.py runs that read image-data;
"Perch before" with BENCH_PERCH_BEFORE) is started the way compare.py
starts it, left to settle, sent the one Notify, and measured: VmHWM (the
high-water mark of resident memory) before and after the call, VmRSS
and Pss 3 s after, and the time the call took to be answered. The sender
builds the 60 MB message before it calls, so the time is the daemon's
reading and answering (and the bus's copying).

Usage: python3 bench/image_peak.py
       BENCH_IMAGE_SIDE=2048 BENCH_PEERS=mako-1.7 python3 bench/image_peak.py
       BENCH_PERCH_BEFORE=/tmp/old python3 bench/image_peak.py
Needs what compare.py needs. Prints one table to stdout, progress to
stderr.
"""

import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import compare  # noqa: E402  (Bench, the daemons, memory_kb, table)
import day  # noqa: E402  (chosen; vm_hwm)

SIDE = int(os.environ.get("BENCH_IMAGE_SIDE", "3872"))
AFTER_S = float(os.environ.get("BENCH_IMAGE_AFTER", "3"))


def rows():
    return [
        ("VmHWM before (kB)", "hwm_before", "%d", "all", "low"),
        ("VmHWM after one %d² image (kB)" % SIDE, "hwm_after", "%d", "all", "low"),
        ("VmHWM raised by (kB)", "hwm_raise", "%d", "all", "low"),
        ("VmRSS %g s after (kB)" % AFTER_S, "rss_after", "%d", "all", "low"),
        ("Pss %g s after (kB)" % AFTER_S, "pss_after", "%d", "all", "low"),
        ("Notify answered in (ms)", "answer_ms", "%.0f", "all", "low"),
    ]


def keys():
    return [k for _, k, _, _, _ in rows()] + ["crashes", "notes"]


def run_image(b, d, res):
    proc, _, _, _ = b.start(d)
    pid = proc.pid
    try:
        compare.wait_idle(pid, timeout=10)
        time.sleep(0.5)
        compare.wait_idle(pid, timeout=10)
        compare.alive(proc, "start-up")
        before = day.vm_hwm(pid)
        r = b.call("notify_image", width=SIDE, height=SIDE, timeout=60, wait=180)
        time.sleep(AFTER_S)
        compare.alive(proc, "the image")
        after = day.vm_hwm(pid)
        rss, pss = compare.memory_kb(pid)
        res["hwm_before"].append(before)
        res["hwm_after"].append(after)
        res["hwm_raise"].append(after - before)
        res["rss_after"].append(rss)
        res["pss_after"].append(pss)
        if r["ok"] and r.get("t_last"):
            res["answer_ms"].append((r["t_last"] - r["t_sent"]) / 1e6)
        if r["errors"] or r["missing"]:
            res["notes"].append("%d errors %s, %d unanswered" % (r["errors"], r["error_kinds"], r["missing"]))
        compare.log("  %s: VmHWM %d → %d kB; VmRSS %d kB 3 s after" % (d.name, before, after, rss))
    finally:
        b.stop(proc)


def main():
    os.environ.setdefault("PERCH_TEST_USER", "perch-bench")
    daemons, notes = day.chosen()
    daemons = compare.with_perch_defaults(daemons)
    t_start = time.monotonic()
    b = compare.b_of_run = compare.Bench()
    R = {d.name: {k: [] for k in keys()} for d in daemons}
    try:
        for d in daemons:
            compare.log("one %d² image-data hint: %s" % (SIDE, d.name))
            compare.guarded(R[d.name], [k for _, k, _, _, _ in rows()], "the image", lambda: run_image(b, d, R[d.name]))
    finally:
        b.close()
    print()
    print("One image-data hint of %d×%d RGBA (%.0f MB) — Perch vs %s; %s; %d cores; %.0f s in all"
          % (SIDE, SIDE, SIDE * SIDE * 4 / 1e6, ", ".join(d.label for d in daemons[1:]) or "no peer",
             time.strftime("%Y-%m-%d %H:%M"), os.cpu_count(), time.monotonic() - t_start))
    print(compare.table(daemons, R, {}, spec=rows()))
    for d in daemons:
        for c in R[d.name]["crashes"]:
            print("%-10s CRASHED %s" % (d.name, c))
        for n in sorted(set(R[d.name]["notes"])):
            print("%-10s %s" % (d.name, n))
    for n in notes:
        print("note: %s" % n)


if __name__ == "__main__":
    main()
