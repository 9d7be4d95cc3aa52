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

Usage: python3 bench/instructions.py          (N = 100)
       BENCH_KEEP_DUMPS=DIR python3 bench/instructions.py   (dumps kept, for callgrind_annotate)
       BENCH_INSTRUCTIONS_N=300 BENCH_PEERS=mako-1.7,dunst python3 bench/instructions.py
Needs valgrind (scripts/ensure-deps installs it) and what compare.py needs.
"""

import glob
import os
import re
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


def total_of(path):
    """Instructions (Ir) in one callgrind dump."""
    with open(path, errors="replace") as f:
        m = TOTAL.search(f.read())
    return int(m.group(1)) if m else None


def measure(b, d, outdir):
    """(per Notify, per close) for daemon d, or raises."""
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
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        b.call("wait_released", timeout=30)
    dumps = sorted(glob.glob(out + ".*"), key=lambda p: int(p.rsplit(".", 1)[1]))
    if len(dumps) < 2:
        raise RuntimeError("callgrind wrote %d dumps, not 2 (log %s)" % (len(dumps), log_path))
    notify, close = total_of(dumps[-2]), total_of(dumps[-1])
    return notify / N, close / N


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
    try:
        for d in daemons:
            compare.log("instructions: %s under callgrind" % d.name)
            try:
                results[d.name] = measure(b, d, outdir)
            except Exception as e:  # a peer that fails under valgrind is left out, said
                compare.log("instructions: %s left out: %s" % (d.name, e))
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
            notify, close = results[d.name]
            print("| %s | %.0f | %.0f |" % (d.label, notify, close))
        else:
            print("| %s | failed | failed |" % d.label)


if __name__ == "__main__":
    main()
