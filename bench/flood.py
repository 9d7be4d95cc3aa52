#!/usr/bin/env python3
"""flood.py — a flood that never ends (issue 29, item 4): BENCH_FLOOD_N
(20 000) Notify calls sent back to back through D-Bus, Pss and VmRSS at
rest before, at the peak during the flood, after it, and after
dismissing everything.

Each daemon (Perch, mako 1.7.1, and mako 1.10 from the Debian 13 root
when run as root; "Perch before" with BENCH_PERCH_BEFORE) is started the
way compare.py starts it (the same headless sway, session bus, user and
configs: at most 5 shown, 5 s display time) and flooded twice: once
from one app ("bench": a chat that will not stop), once with each call
from an app of its own (bench-0, bench-1, …: no app past Perch's
max-burst, so its max-queued is what acts). The notifications ask for
the daemon's own display time (expire_timeout -1), as a flood's senders
do.

Per flood: the memory at rest before it; the peak, from /proc sampled
every 20 ms while the calls are answered (Pss) and VmHWM (VmRSS); 3 s
after the last reply; and 3 s after the control tool dismissed all
(`perchctl dismiss --all`, `makoctl dismiss --all`). Besides: the calls
answered, the time to answer them all, the CPU from the first call to
3 s after the last reply, and, for Perch, what `perchctl status` counts
waiting right after.

Usage: python3 bench/flood.py                      Perch and both makos
       BENCH_FLOOD_N=5000 BENCH_PEERS=mako-1.7 python3 bench/flood.py
       BENCH_PERCH_BEFORE=/tmp/old python3 bench/flood.py   (and the build before)
Needs what compare.py needs. Prints one table per flood to stdout,
progress to stderr.
"""

import json
import os
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import compare  # noqa: E402  (Bench, the daemons, memory_kb, cpu_ns, table)
import day  # noqa: E402  (ctl: the control tools, in the root too; chosen; vm_hwm)

N = int(os.environ.get("BENCH_FLOOD_N", "20000"))
FLOODS = [("one app", 1), ("an app each", N)]
AFTER_S = 3.0


def rows():
    return [
        ("Pss at rest before (kB)", "pss_before", "%d", "all", "low"),
        ("VmRSS at rest before (kB)", "rss_before", "%d", "all", "low"),
        ("Pss at the peak (kB)", "pss_peak", "%d", "all", "low"),
        ("VmRSS at the peak, VmHWM (kB)", "rss_peak", "%d", "all", "low"),
        ("Pss 3 s after the flood (kB)", "pss_after", "%d", "all", "low"),
        ("VmRSS 3 s after the flood (kB)", "rss_after", "%d", "all", "low"),
        ("Pss after dismissing all (kB)", "pss_dismissed", "%d", "all", "low"),
        ("VmRSS after dismissing all (kB)", "rss_dismissed", "%d", "all", "low"),
        ("Notify answered with an id (of %d)" % N, "ok", "%d", "all", "high"),
        ("time to answer them all (s)", "answer_s", "%.2f", "all", "low"),
        ("CPU, first call to 3 s after the last reply (ms)", "cpu", "%.0f", "all", "low"),
        ("waiting after it: perchctl status queued + held", "waiting", "%d", "count", "low"),
        ("shown after it: perchctl status shown", "shown", "%d", "count", "low"),
    ]


def keys():
    return [k for _, k, _, _, _ in rows()] + ["crashes", "notes"]


def sample_peak(pid, stop, peak):
    """Pss every 20 ms until `stop` is set; the highest goes in peak[0]."""
    while not stop.is_set():
        try:
            peak[0] = max(peak[0], compare.memory_kb(pid)[1])
        except (OSError, TypeError):
            return
        stop.wait(0.02)


def run_flood(b, d, apps, res):
    proc, _, _, _ = b.start(d)
    pid = proc.pid
    try:
        compare.wait_idle(pid, timeout=10)
        time.sleep(0.5)  # past Perch's font warm-up, as memory.py waits
        compare.wait_idle(pid, timeout=10)
        compare.alive(proc, "start-up")
        rss0, pss0 = compare.memory_kb(pid)
        res["rss_before"].append(rss0)
        res["pss_before"].append(pss0)
        stop, peak = threading.Event(), [pss0]
        sampler = threading.Thread(target=sample_peak, args=(pid, stop, peak), daemon=True)
        c0 = compare.cpu_ns(pid)
        sampler.start()
        try:
            r = b.call("notify", n=N, expire=-1, timeout=60, apps=apps, wait=180)
        finally:
            time.sleep(AFTER_S)
            stop.set()
            sampler.join()
        compare.alive(proc, "the flood")
        res["cpu"].append((compare.cpu_ns(pid) - c0) / 1e6)
        res["ok"].append(r["ok"])
        if r.get("t_last"):
            res["answer_s"].append((r["t_last"] - r["t0"]) / 1e9)
        if r["errors"] or r["missing"]:
            res["notes"].append("%d errors %s, %d unanswered" % (r["errors"], r["error_kinds"], r["missing"]))
        res["pss_peak"].append(peak[0])
        res["rss_peak"].append(day.vm_hwm(pid))
        rss1, pss1 = compare.memory_kb(pid)
        res["rss_after"].append(rss1)
        res["pss_after"].append(pss1)
        if d.is_perch:
            # Read whole (day.ctl keeps only the tail of what a tool says).
            said = b.session.run(day.ctl_argv(b, d, "status", "--json"), env=b.env, timeout=15)
            try:
                st = json.loads(said.stdout)
                res["waiting"].append(st["queued"] + st.get("held", 0))
                res["shown"].append(st["shown"])
            except (ValueError, KeyError):
                res["notes"].append("status: %s" % (said.stdout + said.stderr)[:120])
        got = day.ctl(b, d, "dismiss", "--all")
        if got is not None and not got[0]:
            res["notes"].append("dismiss --all failed: %s" % got[1])
        time.sleep(AFTER_S)
        compare.alive(proc, "dismissing all")
        rss2, pss2 = compare.memory_kb(pid)
        res["rss_dismissed"].append(rss2)
        res["pss_dismissed"].append(pss2)
        compare.log("  %s: Pss %d → peak %d → %d → %d kB (dismissed); VmRSS %d → %d → %d kB; %d/%d answered"
                    % (d.name, pss0, peak[0], pss1, pss2, rss0, rss1, rss2, r["ok"], N))
    finally:
        b.stop(proc)


def main():
    os.environ.setdefault("PERCH_TEST_USER", "perch-bench")
    daemons, notes = day.chosen()
    daemons = compare.with_perch_defaults(daemons)
    t_start = time.monotonic()
    b = compare.b_of_run = compare.Bench()
    R = {name: {d.name: {k: [] for k in keys()} for d in daemons} for name, _ in FLOODS}
    try:
        for name, apps in FLOODS:
            for d in daemons:
                compare.log("flood from %s: %s (%d Notify calls)" % (name, d.name, N))
                res = R[name][d.name]
                compare.guarded(res, [k for _, k, _, _, _ in rows()], "flood from %s" % name,
                                lambda: run_flood(b, d, apps, res))
    finally:
        b.close()
    for name, _ in FLOODS:
        print()
        print("A flood of %d Notify calls from %s — Perch vs %s; %s; %d cores; %.0f s in all"
              % (N, name, ", ".join(d.label for d in daemons[1:]) or "no peer", time.strftime("%Y-%m-%d %H:%M"),
                 os.cpu_count(), time.monotonic() - t_start))
        print(compare.table(daemons, R[name], {}, spec=rows()))
        for d in daemons:
            for c in R[name][d.name]["crashes"]:
                print("%-10s CRASHED %s" % (d.name, c))
            for n in sorted(set(R[name][d.name]["notes"])):
                print("%-10s %s" % (d.name, n))
    for n in notes:
        print("note: %s" % n)


if __name__ == "__main__":
    main()
