#!/usr/bin/env python3
"""Run Perch's end-to-end tests.

    python3 Tests/e2e/run.py [--compositor sway17|sway110|labwc|sway112|labwc020|all]
                             [-k SUBSTRING]... [-v] [--list] [--jobs N]

Binaries come from $PERCH_BIN_DIR (default .build/release). Each test runs
in its own headless compositor (scripts/headless-sway) with its own perch,
once per compositor it is marked for (harness.test): the compositor-facing
tests on all five, those that never look at the compositor on sway17 only,
the ones against the test compositor (testcomp.py) once, in the sway17 pass.
The compositors' suites run at once, each in a run.py of its own (--jobs,
default 3: $E2E_JOBS): sway17 (the host's sway 1.7), sway110 and labwc from
the Debian 13 root (scripts/trixie-root make), sway112 and labwc020 from the
Debian unstable root (scripts/debian-root make sid). The roots need root:
without root, or without a root made (unstable's archive could not be
reached), its compositors are skipped with a line saying so. --jobs 1 runs
them one after the other in this process.

Prints `PASS name [compositor]` / `FAIL name [compositor]: reason` per test,
then the time each compositor took and `N passed, N failed`; exits 1 if any
test failed. Screenshots of failing tests go to test-out/e2e/.
"""

import argparse
import importlib
import os
import re
import selectors
import shutil
import subprocess
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness  # noqa: E402
import processes  # noqa: E402

MODULES = ["test_lifecycle", "test_control", "test_toast", "test_protocol_doc", "test_stack", "test_actions", "test_testcomp", "test_input", "test_faults", "test_controlplane", "test_persistence", "test_hooks", "test_dbus", "test_config", "test_durability", "test_icons", "test_activation", "test_compositors", "test_center_panel", "test_reply", "test_center", "test_makoctl", "test_completion", "test_fault_suite", "test_reliability", "test_sound", "test_keyboard_focus", "test_accessibility", "test_markup", "test_flood", "test_replace", "test_bad_days", "test_attack_run", "test_sandbox", "test_nested_touch", "test_layer_namespaces", "test_dunstctl", "test_dunstrc", "test_makoctl_real", "test_waybar", "test_quiet", "test_inhibit", "test_sharing", "test_focus_sender", "test_copy", "test_portal", "test_kde_hints", "test_kept_icons"]


def plan(tests, chosen):
    """[(compositor, [test...])] in run order; TESTCOMP tests in the sway17
    pass, labelled testcomp."""
    out = []
    for comp in harness.ALL:
        if comp not in chosen:
            continue
        mine = []
        for fn in tests:
            comps, _ = harness.compositors_of(fn)
            if comp in comps or (comp == "sway17" and harness.TESTCOMP in comps):
                mine.append(fn)
        out.append((comp, mine))
    return out


def unavailable(comp):
    """Why compositor comp cannot run here, or None."""
    root = harness.ROOT_OF.get(comp)
    if root is None:
        return None
    if root == harness.TRIXIE_ROOT_DIR:
        name, make = "Debian 13 root", "scripts/trixie-root make"
    else:
        name, make = "Debian unstable root", "scripts/debian-root make sid"
    if not harness.run_as_root():
        return "runs in the %s (%s), which needs root; not root here" % (name, make)
    if not os.path.exists(os.path.join(root, ".perch-root-ready")):
        return "no %s at %s (make it: %s)" % (name, root, make)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compositor", default="all", choices=list(harness.ALL) + ["all"],
                    help="run the tests marked for this compositor (default: all of them)")
    ap.add_argument("-k", action="append", default=[], help="run tests whose name contains this")
    ap.add_argument("-v", action="store_true", help="show diagnostics of passing tests too")
    ap.add_argument("--list", action="store_true",
                    help="list the tests with their compositors (and why not the others) and exit")
    ap.add_argument("--shard", default=None, metavar="K/N",
                    help="run only every Nth of the chosen tests, from the Kth (0-based): a part of a suite, "
                         "as the parallel run hands them out")
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("E2E_JOBS", "3")),
                    help="compositors whose suites run at once (default 3, or $E2E_JOBS); 1 runs them "
                         "one after the other in this process")
    args = ap.parse_args()

    for m in MODULES:
        importlib.import_module(m)
    tests = [fn for fn in harness.TESTS if not args.k or any(k in fn.__name__ for k in args.k)]
    chosen = harness.ALL if args.compositor == "all" else (args.compositor,)
    if args.list:
        for fn in tests:
            comps, why = harness.compositors_of(fn)
            print("%s [%s]%s" % (fn.__name__, " ".join(comps), " (%s)" % why if why else ""))
        for comp, mine in plan(tests, chosen):
            print("%s: %d tests" % (comp, len(mine)), file=sys.stderr)
        return 0

    shard = None
    if args.shard:
        try:
            k, n = (int(x) for x in args.shard.split("/"))
            assert 0 <= k < n
        except (ValueError, AssertionError):
            ap.error("--shard takes K/N with 0 <= K < N")
        shard = (k, n)
    runs, skipped = [], {}
    for comp, mine in plan(tests, chosen):
        if shard:
            mine = mine[shard[0]::shard[1]]
        why = unavailable(comp)
        if why is None:
            runs.append((comp, mine))
        else:
            skipped.setdefault(why, []).append("%s (%d tests)" % (comp, len(mine)))
    for why, what in skipped.items():
        # One line, not silence: a run without root tests less.
        print("SKIP %s: %s" % (" and ".join(what), why.replace("runs", "they run" if len(what) > 1 else "runs")),
              flush=True)

    if args.jobs > 1 and len(runs) > 1:
        return run_in_parallel(runs, args)

    # Orphans of the tests' programs come back here to be reaped and, if
    # still running after their test, ended (processes.sweep).
    processes.become_subreaper()
    src = os.environ.get("PERCH_BIN_DIR", ".build/release")
    if not os.path.isabs(src) and not os.path.exists(src):
        src = os.path.join(harness.REPO, src)
    bindir = harness.prepare_bindir(src)
    outdir = os.path.join(harness.REPO, "test-out", "e2e")

    passed = failed = 0
    timings = []
    t_all = time.monotonic()
    try:
        for comp, mine in runs:
            t_comp = time.monotonic()
            for fn in mine:
                name = fn.__name__
                comps, _ = harness.compositors_of(fn)
                label = harness.TESTCOMP if harness.TESTCOMP in comps else comp
                ctx = harness.Ctx(name, bindir, outdir, compositor=label)
                t0 = time.monotonic()
                reason = None
                try:
                    fn(ctx)
                except harness.TestFailure as e:
                    reason = str(e)
                except Exception as e:  # a harness or environment error
                    reason = "%s: %s\n%s" % (type(e).__name__, e, traceback.format_exc().rstrip())
                except BaseException:
                    ctx.close()   # interrupted: nothing the test started may outlive it
                    raise
                took = time.monotonic() - t0
                try:
                    diag = ctx.diagnostics(reason is not None) if (reason or args.v) else []
                finally:
                    ctx.close()
                if reason is None:
                    passed += 1
                    print("PASS %s [%s]" % (name, label), flush=True)
                else:
                    failed += 1
                    print("FAIL %s [%s]: %s" % (name, label, reason), flush=True)
                if args.v:
                    diag.insert(0, "took %.1fs (compositor started in %.2fs)" % (
                        took, ctx.session.start_time if ctx.session else 0))
                for line in diag:
                    print("    " + line, flush=True)
            timings.append("%s%s %d tests %.1fs" % (comp, " " + args.shard if args.shard else "", len(mine),
                                                     time.monotonic() - t_comp))
    finally:
        shutil.rmtree(bindir, ignore_errors=True)
    print("e2e: %.1fs in total (%s)" % (time.monotonic() - t_all, ", ".join(timings)), file=sys.stderr)
    print("%d passed, %d failed" % (passed, failed), flush=True)
    return 1 if failed else 0


# Tests a worker of the parallel run takes at most from one suite.
SHARD_SIZE = 100


def run_in_parallel(runs, args):
    """Each compositor's suite in a run.py of its own (`--compositor X
    --jobs 1`), up to args.jobs at once, the largest first. A test mostly
    waits (for animations, timers, a compositor starting), so two or three
    suites share two cores well; each worker has its own sessions, its own
    subreaper and its own copy of the binaries, and the suites share
    nothing but the test user. Their output is passed on a test at a time
    (a result line with the indented lines after it), never interleaved
    inside one; the counts are added up."""
    # A suite much larger than the others (sway 1.7's has every test that
    # does not look at the compositor) is cut in parts of about the size
    # of the others, so that it is not the one the whole run waits for.
    queue = []
    for comp, mine in runs:
        parts = max(1, -(-len(mine) // SHARD_SIZE))
        for k in range(parts):
            queue.append((comp, "%d/%d" % (k, parts) if parts > 1 else None, len(mine[k::parts])))
    queue.sort(key=lambda unit: -unit[2])
    units = len(queue)
    selector = selectors.DefaultSelector()
    children = {}
    passed = failed = 0
    timings = []
    t_all = time.monotonic()

    def start(unit):
        comp, part, _ = unit
        argv = [sys.executable, os.path.abspath(__file__), "--compositor", comp, "--jobs", "1"]
        if part:
            argv += ["--shard", part]
            comp = "%s %s" % (comp, part)
        for k in args.k:
            argv += ["-k", k]
        if args.v:
            argv.append("-v")
        child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        children[child.stdout.fileno()] = {"proc": child, "comp": comp, "partial": b"", "block": []}
        selector.register(child.stdout, selectors.EVENT_READ)

    def emit(block):
        if block:
            sys.stdout.write("".join(block))
            sys.stdout.flush()

    def take(state, line):
        nonlocal passed, failed
        text = line.decode(errors="replace")
        counts = re.match(r"^(\d+) passed, (\d+) failed$", text.strip())
        if counts:
            passed += int(counts.group(1))
            failed += int(counts.group(2))
            return
        if text.startswith("e2e: "):
            # "e2e: 10.4s in total (sway110 2 tests 10.4s)": the part in brackets.
            said = re.search(r"\((.*)\)\s*$", text)
            timings.append(said.group(1) if said else text.strip()[len("e2e: "):])
            return
        if not text.startswith((" ", "\t")):
            emit(state["block"])
            state["block"] = []
        state["block"].append(text if text.endswith("\n") else text + "\n")

    try:
        while queue and len(children) < args.jobs:
            start(queue.pop(0))
        while children:
            for key, _ in selector.select():
                state = children[key.fd]
                chunk = os.read(key.fd, 65536)
                if chunk:
                    lines = (state["partial"] + chunk).split(b"\n")
                    state["partial"] = lines.pop()
                    for line in lines:
                        take(state, line + b"\n")
                    continue
                if state["partial"]:
                    take(state, state["partial"])
                emit(state["block"])
                selector.unregister(key.fileobj)
                key.fileobj.close()
                code = state["proc"].wait()
                del children[key.fd]
                if code not in (0, 1):
                    failed += 1
                    print("FAIL the %s suite ended with exit status %d" % (state["comp"], code), flush=True)
                if queue:
                    start(queue.pop(0))
    finally:
        for state in children.values():
            state["proc"].terminate()
            state["proc"].wait()
    print("e2e: %.1fs in total, %d suites in %d parts, at most %d at once (%s)"
          % (time.monotonic() - t_all, len(runs), units, args.jobs, "; ".join(timings)), file=sys.stderr)
    print("%d passed, %d failed" % (passed, failed), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
