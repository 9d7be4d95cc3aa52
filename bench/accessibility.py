#!/usr/bin/env python3
"""accessibility.py — what the accessibility tree costs in memory: Perch's
Pss with one toast on screen, accessibility off, auto (off) and on.

Starts the session compare.py starts (headless sway 1.7, a private bus,
the session user) and on that bus the session's AT-SPI stack
(at-spi-bus-launcher, which starts the accessibility bus; the registry is
activated there by Perch's first call), as Tests/e2e/a11y.py does. Then,
BENCH_A11Y_ROUNDS (3) times, alternating: Perch with `accessibility=off`,
with `auto` while the session's switch is off (the launcher's default
here: Perch only watches org.a11y.Status), and with `on`, each posting one
toast and measured when idle again (for `on`, once the registry lists
Perch). Each measured start
is a second start (compare.py's Bench.start). The cells are the median
(min-max) in kB.

Prints one table. Asserts nothing. Without at-spi2-core it says so and
exits 0.
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

LAUNCHER = "/usr/libexec/at-spi-bus-launcher"
ROUNDS = max(1, int(os.environ.get("BENCH_A11Y_ROUNDS", "3")))
STATUS = ["--dest", "org.a11y.Bus", "--object-path", "/org/a11y/bus"]


def log(msg):
    print("accessibility: " + msg, file=sys.stderr, flush=True)


def gdbus(b, args, env):
    return b.session.run(["gdbus", "call"] + args, env=env, timeout=10)


def start_stack(b, env):
    b.spawn([LAUNCHER, "--launch-immediately"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        r = gdbus(b, ["--session"] + STATUS + ["--method", "org.a11y.Bus.GetAddress"], env)
        if r.returncode == 0 and "unix:" in r.stdout:
            return r.stdout.strip().strip("(),'")
        time.sleep(0.1)
    raise SystemExit("at-spi-bus-launcher did not serve org.a11y.Bus")


def registered(b, address, env):
    """How many applications the registry's desktop lists."""
    r = gdbus(b, ["--address", address, "--dest", "org.a11y.atspi.Registry", "--object-path",
                  "/org/a11y/atspi/accessible/root", "--method", "org.a11y.atspi.Accessible.GetChildren"], env)
    return r.stdout.count("/org/a11y/atspi/accessible/root") if r.returncode == 0 else 0


def measure(b, d, env, address, on):
    proc, logp, _, _ = b.start(d)
    try:
        compare.wait_idle(proc.pid, timeout=10)
        r = b.session.run([os.path.join(b.bindir, "perchctl"), "post", "Build finished", "all tests passed",
                           "--timeout", "0"], env=b.env)
        if r.returncode != 0:
            raise SystemExit("perchctl post failed: %s" % r.stderr)
        if on:
            deadline = time.monotonic() + 10
            while registered(b, address, env) == 0:
                if time.monotonic() > deadline:
                    raise SystemExit("Perch never registered; log: %s" % compare.log_tail(logp))
                time.sleep(0.1)
        compare.wait_idle(proc.pid, timeout=10)
        time.sleep(0.5)
        compare.wait_idle(proc.pid, timeout=10)
        return compare.memory_kb(proc.pid)[1]
    finally:
        b.stop(proc)


def cell(values):
    if not values:
        return "—"
    values = sorted(values)
    return "%d (%d-%d)" % (values[len(values) // 2], values[0], values[-1])


def main():
    if not os.access(LAUNCHER, os.X_OK):
        print("accessibility: skipped, not installed: at-spi2-core (scripts/ensure-deps installs it)")
        return 0
    os.environ.setdefault("PERCH_TEST_USER", "perch-bench")
    b = compare.Bench()
    perch = compare.DAEMONS[0]
    with open(b.share_path("perch.conf")) as f:
        base = f.read()
    b.write_share("perch-a11y-off.conf", base + "\naccessibility=off\n")
    b.write_share("perch-a11y-on.conf", base + "\naccessibility=on\n")
    b.write_share("perch-a11y-auto.conf", base + "\naccessibility=auto\n")
    env = dict(b.env, GSETTINGS_BACKEND="memory", NO_AT_BRIDGE="1")
    results = {"off": [], "auto": [], "on": []}
    t0 = time.monotonic()
    try:
        address = start_stack(b, env)
        for round in range(ROUNDS):
            for key in ("off", "auto", "on"):
                log("round %d: %s" % (round + 1, key))
                results[key].append(measure(b, compare.WithConfig(perch, "perch-a11y-%s.conf" % key), env, address,
                                            key == "on"))
    finally:
        b.close()
    print("Accessibility: Perch's Pss with one toast on screen, %d rounds, %s; %d s"
          % (ROUNDS, time.strftime("%Y-%m-%d %H:%M"), time.monotonic() - t0))
    print("| accessibility | Pss kB, median (min-max) |")
    print("|---|---|")
    print("| off | %s |" % cell(results["off"]))
    print("| auto, the session's switch off | %s |" % cell(results["auto"]))
    print("| on, registered | %s |" % cell(results["on"]))
    if results["off"] and results["on"]:
        print("on − off: %+d kB (medians)" % (sorted(results["on"])[len(results["on"]) // 2]
                                              - sorted(results["off"])[len(results["off"]) // 2]))
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
