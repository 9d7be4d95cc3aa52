#!/usr/bin/env python3
"""instructions.py — the instructions a daemon executes per Notify and per
CloseNotification, under callgrind.

CPU time on this machine moves 2× over minutes; an instruction count does
not. Each daemon (Perch and mako 1.7.1 by default) runs under
`valgrind --tool=callgrind` in compare.py's session (the same headless
sway, session bus, user and configs) and is driven by the same fixed
sequence: start-up to rest; a warm-up of 10 posted and closed (the fonts,
surfaces and first layouts each daemon makes once); the counters zeroed;
a burst of N Notify calls
(never expiring: five shown, the rest queued, as each daemon's config
says) to rest, dumped; zeroed again; the N closed by CloseNotification to
rest, dumped. A figure is the dump's total divided by N: what one Notify,
or one close, costs the daemon's whole process, drawing and frames
included (`perch` stripped of its debug info, which valgrind 3.19 cannot
read).

And the animated frame, in instructions rather than in CPU time (which
moves with the hour more for a large process than for a small one): Perch,
still under callgrind, shows three more toasts one at a time, and each
slide is counted in a window that starts after its first frames and ends
before its last (zeroed, 0.4 s, dumped), divided by the frame callbacks
answered in it; the floor client (bench/floor-client.c) runs under
callgrind for 30 and for 90 frames, and its figure is the difference
divided by 60 (what it spends to start and stop cancels out).

Usage: python3 bench/instructions.py          (N = 100)
       BENCH_KEEP_DUMPS=DIR python3 bench/instructions.py   (dumps kept, for callgrind_annotate)
       BENCH_INSTRUCTIONS_N=300 BENCH_PEERS=mako-1.7,dunst python3 bench/instructions.py
Needs valgrind (scripts/ensure-deps installs it) and what compare.py needs.
"""

import glob
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import compare  # noqa: E402

N = int(os.environ.get("BENCH_INSTRUCTIONS_N", "100"))
TOTAL = re.compile(r"^(?:summary|totals):\s+(\d+)", re.M)
# The closure that takes a wl_callback.done on a stage surface: one call,
# one frame answered.
FRAME_DONE = "13frameListener"


def total_of(path):
    """Instructions (Ir) in one callgrind dump."""
    with open(path, errors="replace") as f:
        m = TOTAL.search(f.read())
    return int(m.group(1)) if m else None


def calls_into(path, needle):
    """How many calls a callgrind dump records into functions whose name
    contains needle (names are given once, then referred to by number)."""
    names, callee, count = {}, None, 0
    with open(path, errors="replace") as f:
        for line in f:
            m = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line)
            if m:
                if m.group(3):
                    names[m.group(2)] = m.group(3)
                callee = names.get(m.group(2)) if m.group(1) == "cfn" else None
                continue
            m = re.match(r"^calls=(\d+)", line)
            if m and callee and needle in callee:
                count += int(m.group(1))
    return count


def measure(b, d, outdir):
    """(per Notify, per close, per frame or None) for daemon d, or raises."""
    argv = d.argv(b)
    if d.is_perch:
        # A copy without debug info: valgrind 3.19 cannot read DWARF 5.
        stripped = os.path.join(outdir, d.name + "-perch")
        shutil.copy2(argv[0], stripped)
        subprocess.run([compare.objcopy(), "--strip-debug", stripped], check=True)
        os.chmod(stripped, 0o755)
        argv = [stripped] + argv[1:]
    out = os.path.join(outdir, d.name + ".out")
    env = dict(b.env)
    env["XDG_STATE_HOME"] = b.user_dir("state-instructions-" + d.name)
    log_path = os.path.join(outdir, d.name + ".log")
    with open(log_path, "wb") as log:
        proc = b.spawn(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + argv,
                       env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
    try:
        if not b.call("wait_owned", timeout=90)["owned"]:
            raise RuntimeError("did not own the name under valgrind (log %s)" % log_path)
        pid = proc.pid

        def settle():
            compare.wait_idle(pid, timeout=120, quiet=0.5, threshold_ns=2_000_000)
            time.sleep(1)

        def ctl(flag):
            b.session.run(["callgrind_control", flag, str(pid)], env=b.env, timeout=60)

        settle()
        # A warm-up, not counted: what a daemon does once (fonts loaded,
        # surfaces made, first layouts) is not a Notify's cost.
        warm = b.call("notify", n=10, expire=0, timeout=600)["ids"]
        settle()
        b.call("close", ids=warm, timeout=600)
        settle()
        ctl("-z")
        ids = b.call("notify", n=N, expire=0, timeout=600)["ids"]
        settle()
        ctl("-d")
        ctl("-z")
        b.call("close", ids=ids, timeout=600)
        settle()
        ctl("-d")
        frame_windows = 0
        if d.is_perch:
            # Three slides, each counted from shortly after its first frame
            # to before its last (a slide is 0.7 s; valgrind slows the
            # drawing, not the compositor's frame clock).
            for _ in range(3):
                b.call("notify", n=1, expire=0, timeout=600)
                time.sleep(0.05)
                ctl("-z")
                time.sleep(0.4)
                ctl("-d")
                settle()
                frame_windows += 1
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        b.call("wait_released", timeout=30)
    dumps = sorted(glob.glob(out + ".*"), key=lambda p: int(p.rsplit(".", 1)[1]))
    if len(dumps) < 2 + frame_windows:
        raise RuntimeError("callgrind wrote %d dumps, not %d (log %s)" % (len(dumps), 2 + frame_windows, log_path))
    windows = dumps[len(dumps) - frame_windows:]
    notify, close = dumps[len(dumps) - frame_windows - 2], dumps[len(dumps) - frame_windows - 1]
    per_frame = None
    if windows:
        frames = sum(calls_into(w, FRAME_DONE) for w in windows)
        if frames:
            per_frame = (sum(total_of(w) or 0 for w in windows) / frames, frames)
    return total_of(notify) / N, total_of(close) / N, per_frame


def floor_run(b, outdir, frames):
    """The floor client's instructions for `frames` frame callbacks, from
    "go" to its exit, under callgrind."""
    out = os.path.join(outdir, "floor-%d.out" % frames)
    p = b.spawn(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, b.floor_bin, str(frames)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        r, _, _ = select.select([p.stdout], [], [], 60)
        if not r or p.stdout.readline().strip() != b"ready":
            raise RuntimeError("floor-client did not map its surface under valgrind")
        time.sleep(0.5)
        b.session.run(["callgrind_control", "-z", str(p.pid)], env=b.env, timeout=60)
        p.stdin.write(b"go\n")
        p.stdin.flush()
        r, _, _ = select.select([p.stdout], [], [], 120)
        if not r:
            raise RuntimeError("floor-client answered no frames under valgrind")
        done = json.loads(p.stdout.readline())
        p.wait(60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    return total_of(out), done["frames"]


def floor_per_frame(b, outdir):
    """(instructions per frame, frames counted) of the floor client: 90
    frames less 30."""
    short, n_short = floor_run(b, outdir, 30)
    long_, n_long = floor_run(b, outdir, 90)
    if n_long <= n_short:
        raise RuntimeError("floor-client answered %d and %d frames" % (n_short, n_long))
    return (long_ - short) / (n_long - n_short), n_long - n_short


def main():
    os.environ.setdefault("PERCH_TEST_USER", "perch-bench")
    if not shutil.which("valgrind"):
        raise SystemExit("instructions.py: valgrind is needed (scripts/ensure-deps installs it)")
    daemons = compare.chosen_host_daemons()
    compare.ensure_host_packages(daemons)
    b = compare.Bench()
    outdir = tempfile.mkdtemp(prefix="perch-instructions-")
    os.chmod(outdir, 0o777)
    results = {}
    floor = None
    try:
        for d in daemons:
            compare.log("instructions: %s under callgrind" % d.name)
            try:
                results[d.name] = measure(b, d, outdir)
            except Exception as e:  # a peer that fails under valgrind is left out, said
                compare.log("instructions: %s left out: %s" % (d.name, e))
        compare.log("instructions: the floor client under callgrind")
        try:
            floor = floor_per_frame(b, outdir)
        except Exception as e:
            compare.log("instructions: the floor left out: %s" % e)
    finally:
        b.close()
        keep = os.environ.get("BENCH_KEEP_DUMPS")
        if keep:
            # For callgrind_annotate: where the instructions went.
            shutil.copytree(outdir, keep, dirs_exist_ok=True)
            compare.log("instructions: dumps kept in %s" % keep)
        shutil.rmtree(outdir, ignore_errors=True)
    print("Instructions per call under callgrind (burst of %d, then the %d closed), %s"
          % (N, N, time.strftime("%Y-%m-%d %H:%M")))
    print("| daemon | per Notify | per CloseNotification |")
    print("|---|---|---|")
    for d in daemons:
        if d.name in results:
            notify, close, _ = results[d.name]
            print("| %s | %.0f | %.0f |" % (d.label, notify, close))
        else:
            print("| %s | failed | failed |" % d.label)
    print()
    print("Instructions per animated frame under callgrind (a slide: Perch over three windows, the floor 90 frames less 30)")
    print("| client | per frame | frames counted |")
    print("|---|---|---|")
    for d in daemons:
        if d.is_perch and d.name in results:
            per_frame = results[d.name][2]
            if per_frame:
                print("| %s | %.0f | %d |" % (d.label, per_frame[0], per_frame[1]))
            else:
                print("| %s | no frame counted | 0 |" % d.label)
    if floor:
        print("| the floor (floor-client) | %.0f | %d |" % floor)
    else:
        print("| the floor (floor-client) | failed | 0 |")


if __name__ == "__main__":
    main()
