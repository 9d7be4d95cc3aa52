"""--on-appear / --on-dismiss / --on-action: hooks get the notification in
PERCH_* environment variables, byte for byte and never through a shell; a
hook that hangs is killed after --hook-timeout; a failing hook is logged
and never fatal."""

import glob
import json
import os
import time

from harness import check, poll, python3, test
from harness import SWAY17

# Which compositors these tests run on (harness.test).
COMPOSITORS = SWAY17
COMPOSITORS_WHY = "hooks: processes, not the compositor"

# Records the hook's PERCH_* variables (raw bytes, hex) in OUTDIR, one file
# per run, written atomically.
RECORDER = r'''
import json, os, sys
kind, outdir = sys.argv[1], sys.argv[2]
env = {k.decode(): v.hex() for k, v in os.environb.items() if k.startswith(b"PERCH_")}
name = "%s-%s-%d" % (kind, os.environb.get(b"PERCH_ID", b"x").decode(errors="replace"), os.getpid())
tmp = os.path.join(outdir, "." + name)
with open(tmp, "w") as f:
    json.dump(env, f)
os.rename(tmp, os.path.join(outdir, name + ".json"))
'''

# Starts a child that would outlive the hook, records both pids, waits.
HANGER = r'''#!/bin/sh
sleep 60 &
echo "$$ $!" > "$1/.pids.$$"
mv "$1/.pids.$$" "$1/pids.$$"
wait
'''


def script(t, name, text):
    d = os.path.join(t.tmp, "hooks")
    os.makedirs(d, exist_ok=True)
    os.chmod(d, 0o755)
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)
    return path


def recorder(t):
    """(script path, output directory the session user can write)."""
    return script(t, "record.py", RECORDER), t.user_dir()


def runs(outdir, kind, nid):
    out = []
    for path in sorted(glob.glob(os.path.join(outdir, "%s-%d-*.json" % (kind, nid)))):
        with open(path) as f:
            out.append({k: bytes.fromhex(v).decode("utf-8", "surrogateescape") for k, v in json.load(f).items()})
    return out


def wait_run(outdir, kind, nid, timeout=5.0):
    got, waited = poll(lambda: runs(outdir, kind, nid), timeout, 0.05)
    check(got, "the %s hook did not run for notification %d within %.1f s (files: %r)"
          % (kind, nid, waited, sorted(os.listdir(outdir))))
    return got[0]


def notify(p, **params):
    r = p.raw([json.dumps({"id": 1, "method": "notify", "params": params})])[0]
    check(isinstance(r, dict) and isinstance(r.get("result"), dict), "notify %r answered %r" % (params, r))
    return r["result"]["id"]


def call(p, method, params):
    r = p.raw([json.dumps({"id": 1, "method": method, "params": params})])[0]
    check(isinstance(r, dict) and "result" in r, "%s %r answered %r" % (method, params, r))
    return r["result"]


def expect_env(env, want, absent, what):
    problems = []
    for k, v in want.items():
        if env.get(k) != v:
            problems.append("%s should be %r, is %r" % (k, v, env.get(k)))
    for k in absent:
        if k in env:
            problems.append("%s should not be set, is %r" % (k, env[k]))
    check(not problems, "%s hook environment: %s" % (what, "; ".join(problems)))


@test
def hooks_get_the_notification_verbatim_in_their_environment(t):
    rec, out = recorder(t)
    marker = os.path.join(out, "substituted")
    py = python3()
    p = t.start_perch(args=["--on-appear", "%s %s appear %s" % (py, rec, out),
                            "--on-dismiss", "%s %s dismiss %s" % (py, rec, out),
                            "--on-action", "%s %s action %s" % (py, rec, out)])
    title = 'Say "hi" $(touch %s) `touch %s` \'single\' $HOME\nsecond line' % (marker, marker)
    body = "body; rm -rf / && echo $PATH | cat\ttab \\n not a newline, ünïcødé 🐦"
    app = "app with spaces & 'quotes' $(id)"
    a = notify(p, title=title, body=body, app=app, urgency="low", timeout=0,
               actions=[{"id": "yes", "label": "Yes"}])
    common = {"PERCH_ID": str(a), "PERCH_APP": app, "PERCH_TITLE": title, "PERCH_BODY": body,
              "PERCH_URGENCY": "low"}
    expect_env(wait_run(out, "appear", a), common, ["PERCH_REASON", "PERCH_ACTION"], "on-appear")

    call(p, "invoke", {"id": a, "action": "yes"})
    expect_env(wait_run(out, "action", a), dict(common, PERCH_ACTION="yes"), ["PERCH_REASON"], "on-action")
    expect_env(wait_run(out, "dismiss", a), dict(common, PERCH_REASON="dismissed-by-user"), ["PERCH_ACTION"],
               "on-dismiss after an action")

    b = notify(p, title="Critical", urgency="critical")
    expect_env(wait_run(out, "appear", b), {"PERCH_ID": str(b), "PERCH_URGENCY": "critical",
                                            "PERCH_APP": "", "PERCH_BODY": "", "PERCH_TITLE": "Critical"},
               ["PERCH_REASON"], "on-appear (critical, no app/body)")
    call(p, "dismiss", {"id": b})
    expect_env(wait_run(out, "dismiss", b), {"PERCH_ID": str(b), "PERCH_REASON": "dismissed-by-user",
                                             "PERCH_URGENCY": "critical"}, ["PERCH_ACTION"], "on-dismiss by perchctl")

    c = notify(p, title="Short", timeout=0.3)
    expect_env(wait_run(out, "dismiss", c, 6.0), {"PERCH_ID": str(c), "PERCH_REASON": "expired",
                                                  "PERCH_URGENCY": "normal"}, ["PERCH_ACTION"], "on-dismiss (expired)")

    time.sleep(0.3)
    for kind, nid in (("appear", a), ("action", a), ("dismiss", a), ("appear", b), ("dismiss", b)):
        n = len(runs(out, kind, nid))
        check(n == 1, "the %s hook should run once for %d, ran %d times" % (kind, nid, n))
    check(not os.path.exists(marker), "the title's $(...) / `...` was run by a shell: %s exists" % marker)


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@test
def hanging_hook_is_killed_and_perch_keeps_working(t):
    hang = script(t, "hang.sh", HANGER)
    out = t.user_dir()
    p = t.start_perch(args=["--on-appear", "/bin/sh %s %s" % (hang, out), "--hook-timeout", "1000"])
    nid = p.post("Hang", "the hook sleeps", timeout=0)

    def pids():
        found = []
        for path in glob.glob(os.path.join(out, "pids.*")):
            with open(path) as f:
                found += [int(x) for x in f.read().split()]
        return found
    started, _ = poll(pids, 5.0, 0.05)
    check(len(started) == 2, "the on-appear hook should have started (shell and its sleep); pids %r" % started)
    # While it hangs, perch answers.
    other = p.post("While the hook hangs", timeout=0)
    check(set([nid, other]) <= set(n["id"] for n in p.list()), "list while a hook hangs: %r" % p.list())
    gone, waited = poll(lambda: not any(alive(x) for x in pids()), 6.0, 0.1)
    check(gone, "with --hook-timeout 1000 (ms) the hanging hook and its child should be killed; after %.1f s "
          "still alive: %r" % (waited, [x for x in pids() if alive(x)]))
    logged, _ = poll(lambda: "killed after its time limit" in p.log(), 3.0, 0.1)
    check(logged, "perch should log that it killed the hook; log:\n%s" % p.log()[-1500:])
    check(any("on-appear" in l and "killed" in l for l in p.log().splitlines()),
          "the log line should name the hook (on-appear): %r" % p.log()[-800:])
    check(p.proc.poll() is None, "perch exited (%s)" % p.proc.poll())
    p.ctl_ok("dismiss", "--all")
    check(p.ctl_ok("status").startswith("perch "), "status after the hook was killed")


@test
def failing_hook_is_logged_and_never_fatal(t):
    p = t.start_perch(args=["--on-dismiss", "/bin/sh -c 'exit 3'",
                            "--on-appear", "/nonexistent/perch-hook --flag"])
    for i in range(2):
        nid = p.post("Round %d" % i, timeout=0)
        logged, _ = poll(lambda: p.log().count("on-appear") > 0, 4.0, 0.1)
        check(logged, "a hook that cannot start should be logged; log:\n%s" % p.log()[-1000:])
        p.ctl_ok("dismiss", str(nid))
        logged, _ = poll(lambda: p.log().count("exited with status 3") > 0, 4.0, 0.1)
        check(logged, "a hook exiting 3 should be logged with its status; log:\n%s" % p.log()[-1000:])
        check(p.proc.poll() is None, "a failing hook must not stop perch (it exited %s)" % p.proc.poll())
    # The same failure again within the log's window is counted, not
    # repeated (issue 38: a slow hook under a flood wrote 1 943 lines).
    time.sleep(0.5)
    check(p.log().count("exited with status 3") == 1 and p.log().count("on-appear") == 1,
          "a hook failing the same way twice should be one line each: %r"
          % [l for l in p.log().splitlines() if "hook" in l])
    lines = p.log().splitlines()
    check(any("on-dismiss" in l and "status 3" in l for l in lines),
          "the exit-3 log line should name the hook (on-dismiss): %r" % lines[-6:])
    appear = [l for l in lines if "on-appear" in l]
    check(all("/nonexistent/perch-hook" in l for l in appear),
          "the log line for a hook that cannot start should name the program: %r" % appear)
    nid = p.post("Still working", timeout=0)
    check(nid in [n["id"] for n in p.list()], "perch should keep working after failing hooks")
