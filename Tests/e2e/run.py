#!/usr/bin/env python3
"""Run Perch's end-to-end tests.

    python3 Tests/e2e/run.py [-k SUBSTRING]... [-v] [--list]

Binaries come from $PERCH_BIN_DIR (default .build/release). Each test runs
in its own headless sway (scripts/headless-sway) with its own perch. Prints
`PASS name` / `FAIL name: reason` per test, then `N passed, N failed`; exits
1 if any test failed. Screenshots of failing tests go to test-out/e2e/.
"""

import argparse
import importlib
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness  # noqa: E402

MODULES = ["test_lifecycle", "test_control", "test_toast", "test_protocol_doc", "test_stack", "test_actions", "test_testcomp", "test_input", "test_faults", "test_controlplane", "test_persistence", "test_hooks", "test_dbus", "test_config", "test_durability", "test_icons", "test_activation"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-k", action="append", default=[], help="run tests whose name contains this")
    ap.add_argument("-v", action="store_true", help="show diagnostics of passing tests too")
    ap.add_argument("--list", action="store_true", help="list the tests and exit")
    args = ap.parse_args()

    for m in MODULES:
        importlib.import_module(m)
    tests = [fn for fn in harness.TESTS if not args.k or any(k in fn.__name__ for k in args.k)]
    if args.list:
        for fn in tests:
            print(fn.__name__)
        return 0

    src = os.environ.get("PERCH_BIN_DIR", ".build/release")
    if not os.path.isabs(src) and not os.path.exists(src):
        src = os.path.join(harness.REPO, src)
    bindir = harness.prepare_bindir(src)
    outdir = os.path.join(harness.REPO, "test-out", "e2e")

    passed = failed = 0
    t_all = time.monotonic()
    try:
        for fn in tests:
            name = fn.__name__
            ctx = harness.Ctx(name, bindir, outdir)
            t0 = time.monotonic()
            reason = None
            try:
                fn(ctx)
            except harness.TestFailure as e:
                reason = str(e)
            except Exception as e:  # a harness or environment error
                reason = "%s: %s\n%s" % (type(e).__name__, e, traceback.format_exc().rstrip())
            took = time.monotonic() - t0
            try:
                diag = ctx.diagnostics(reason is not None) if (reason or args.v) else []
            finally:
                ctx.close()
            if reason is None:
                passed += 1
                print("PASS %s" % name, flush=True)
            else:
                failed += 1
                print("FAIL %s: %s" % (name, reason), flush=True)
            if args.v:
                diag.insert(0, "took %.1fs (sway started in %.2fs)" % (
                    took, ctx.session.start_time if ctx.session else 0))
            for line in diag:
                print("    " + line, flush=True)
    finally:
        import shutil
        shutil.rmtree(bindir, ignore_errors=True)
    print("e2e: %.1fs in total" % (time.monotonic() - t_all), file=sys.stderr)
    print("%d passed, %d failed" % (passed, failed), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
