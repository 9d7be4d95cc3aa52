#!/usr/bin/env python3
"""icons.py — does an SVG icon stall the loop? `perchctl status` latency
sampled throughout (a client on the control socket asking every 10 ms):

- a burst of 50 toasts, each with an SVG icon of its own (distinct files,
  each rendered once), posted one after the other with a 1 s timeout, and
  sampled until the last has gone;
- one hostile SVG (nested patterns: librsvg renders it for many seconds;
  the helper is stopped at its 1 s deadline), sampled for 3 s.

Then the memory the warm helper costs while it waits for the next icon
(its Pss, beside the daemon's), and whether it is gone after its 30 s idle
(BENCH_ICONS_IDLE=1, slow); and, first of all, the CPU of the first toast
and of the first toast with an SVG icon (the helper's included). The target is a status answer under 20 ms
throughout. With BENCH_PERCH_BEFORE=DIR the earlier build is measured in
the same run. Starts the session compare.py starts (headless sway 1.7,
a private bus, the session user). Prints one table; asserts nothing.
"""

import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "e2e"))

import compare  # noqa: E402  (Bench, the daemons, wait_idle, memory_kb)
from harness import STATUS_PROBER  # noqa: E402

BURST = 50



def log(msg):
    print("icons: " + msg, file=sys.stderr, flush=True)


def square(i):
    colour = "#%02x%02x%02x" % ((i * 37) % 256, (i * 91) % 256, (i * 53) % 256)
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48">'
            '<rect width="48" height="48" rx="8" fill="%s"/><circle cx="24" cy="24" r="%d" fill="#fff"/></svg>\n'
            % (colour, 4 + i % 16))


def hostile():
    patterns = ('<pattern id="p0" width="1" height="1" patternUnits="userSpaceOnUse">'
                '<rect width="1" height="1" fill="red"/></pattern>')
    for level in range(1, 9):
        patterns += ('<pattern id="p%d" width="10" height="10" patternUnits="userSpaceOnUse">' % level
                     + "".join('<rect x="%d" width="1" height="10" fill="url(#p%d)"/>' % (x, level - 1)
                               for x in range(10))
                     + "</pattern>")
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="32" height="32">'
            '<defs>%s</defs><rect width="10" height="10" fill="url(#p8)"/></svg>\n' % patterns)


def children(pid, name):
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                head, tail = f.read().rsplit(")", 1)
            if int(tail.split()[1]) == pid and head.split("(", 1)[1] == name:
                found.append(int(entry))
        except (OSError, IndexError, ValueError):
            pass
    return found


class Prober:
    def __init__(self, b, n):
        self.b = b
        self.stopfile = b.path("stop-prober-%d" % n)
        socket_path = os.path.join(b.env["XDG_RUNTIME_DIR"], "perch", b.env.get("WAYLAND_DISPLAY", "") + ".sock")
        self.proc = b.spawn([compare.PY, "-c", STATUS_PROBER, socket_path, self.stopfile, "5"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def finish(self):
        with open(self.stopfile, "w"):
            pass
        out, err = self.proc.communicate(timeout=60)
        try:
            return json.loads(out)
        except ValueError:
            raise SystemExit("the status prober failed: %r %r" % (out, err))


def cell(lat):
    if not lat:
        return "—"
    ms = sorted(1000 * x for x in lat)
    return "%.1f / %.1f / %.1f (%d; %d over 20)" % (ms[len(ms) // 2], ms[min(len(ms) - 1, len(ms) * 99 // 100)],
                                                   ms[-1], len(ms), sum(1 for x in ms if x > 20))


def measure(b, d, svgs, slow):
    ctl = os.path.join(b.before_bindir if d.name == "perch-before" else b.bindir, "perchctl")
    proc, logp, _, _ = b.start(d)
    row = {}
    try:
        compare.wait_idle(proc.pid, timeout=10)
        # The first toast, then the first with an SVG icon (the helper is
        # started for it), each to rest: the daemon's CPU and its children's.
        for key, icon in (("plain", None), ("svg", b.share_path("first.svg"))):
            c0, h0 = compare.cpu_ns(proc.pid), compare.children_ns(proc.pid)
            args = [ctl, "post", "--timeout", "0"] + (["--icon", icon] if icon else []) + ["First", "a toast"]
            b.session.run(args, env=b.env, timeout=30)
            compare.wait_idle(proc.pid, timeout=10)
            row["cpu_" + key] = (compare.cpu_ns(proc.pid) - c0) / 1e6
            row["cpu_%s_children" % key] = (compare.children_ns(proc.pid) - h0) / 1e6
            b.session.run([ctl, "dismiss", "--all"], env=b.env, timeout=30)
            compare.wait_idle(proc.pid, timeout=10)
        prober = Prober(b, b.runs)
        time.sleep(0.3)
        t0 = time.monotonic()
        for i, path in enumerate(svgs):
            b.session.run([ctl, "post", "--icon", path, "--timeout", "1", "SVG %d" % i, "icon %d of a burst" % i],
                          env=b.env, timeout=30)
        posted = time.monotonic() - t0
        # Until the last has gone (the prober keeps the daemon from idling).
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            r = b.session.run([ctl, "status", "--json"], env=b.env, timeout=30)
            try:
                status = json.loads(r.stdout)
                if status.get("shown", 1) == 0 and status.get("queued", 1) == 0:
                    break
            except ValueError:
                pass
            time.sleep(0.2)
        row["burst"] = prober.finish()
        row["burst_s"] = time.monotonic() - t0
        row["posted_s"] = posted
        helpers = children(proc.pid, "perch-svg")
        row["helper_pss"] = sum(compare.memory_kb(pid)[1] or 0 for pid in helpers) if helpers else None
        row["daemon_pss"] = compare.memory_kb(proc.pid)[1]

        prober = Prober(b, b.runs + 1000)
        time.sleep(0.3)
        b.session.run([ctl, "post", "--icon", slow, "--timeout", "2", "Hostile", "a slow SVG"], env=b.env, timeout=30)
        time.sleep(3)
        row["hostile"] = prober.finish()
        if os.environ.get("BENCH_ICONS_IDLE"):
            time.sleep(32)
            row["helper_after_idle"] = len(children(proc.pid, "perch-svg"))
        if proc.poll() is not None:
            raise SystemExit("%s exited: %s" % (d.label, compare.log_tail(logp)))
    finally:
        b.stop(proc)
    return row


def main():
    os.environ.setdefault("PERCH_TEST_USER", "perch-bench")
    b = compare.Bench()
    svgs = []
    for i in range(BURST):
        b.write_share("burst-%02d.svg" % i, square(i))
        svgs.append(b.share_path("burst-%02d.svg" % i))
    b.write_share("hostile.svg", hostile())
    b.write_share("first.svg", compare.SVG_ICON)
    daemons = [d for d in compare.chosen_daemons() if d.is_perch]
    rows = {}
    t0 = time.monotonic()
    try:
        for d in daemons:
            log(d.label)
            rows[d.label] = measure(b, d, svgs, b.share_path("hostile.svg"))
    finally:
        b.close()
    print("SVG icons and the loop: `perchctl status` answer time, ms, median / p99 / max (samples; how many over 20 ms); %s; %d s"
          % (time.strftime("%Y-%m-%d %H:%M"), time.monotonic() - t0))
    print("| daemon | burst of %d distinct SVGs | one hostile SVG (3 s) | warm helper Pss kB | daemon Pss kB |" % BURST)
    print("|---|---|---|---|---|")
    for label, row in rows.items():
        print("| %s | %s | %s | %s | %s |" % (label, cell(row["burst"]), cell(row["hostile"]),
                                              row["helper_pss"] if row["helper_pss"] is not None else "none running",
                                              row["daemon_pss"]))
    print()
    print("| daemon | CPU, first toast, to rest (ms) | CPU, first toast with an SVG icon, to rest (ms) | of which child processes (ms) |")
    print("|---|---|---|---|")
    for label, row in rows.items():
        print("| %s | %.1f | %.1f | %.0f |" % (label, row["cpu_plain"], row["cpu_svg"], row["cpu_svg_children"]))
    for label, row in rows.items():
        extra = "" if "helper_after_idle" not in row else "; helpers after 32 s idle: %d" % row["helper_after_idle"]
        print("%s: the burst posted in %.1f s, at rest after %.1f s%s" % (label, row["posted_s"], row["burst_s"], extra))
    print(json.dumps({label: {k: (cell(v) if isinstance(v, list) else v) for k, v in row.items()}
                      for label, row in rows.items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
