"""The control plane beyond notify/list: every method of docs/protocol.md
(dismiss last/group, invoke, history, restore, mode, status, version),
perchctl's verbs (--json and human text, usage errors), `perchctl watch`
(plain and --waybar), do-not-disturb as a user sees it, and a control socket
under abuse (bad input, huge lines, many connections, a flood with a stuck
subscriber, another user)."""

import json
import os
import pwd
import queue
import stat
import subprocess
import threading
import time

from harness import (BG, SCREEN_W, check, find_card, poll, python3, run_as_root, test)
from harness import ALL, SWAY17

# Which compositors these tests run on (harness.test).
COMPOSITORS = SWAY17
COMPOSITORS_WHY = "control-socket protocol and perchctl only"


# --------------------------------------------------------------------------
# Helpers

def rpc(p, method, params=None, rid=1):
    """One request on a fresh connection; the parsed reply."""
    req = {"id": rid, "method": method}
    if params is not None:
        req["params"] = params
    return p.raw([json.dumps(req)])[0]


def ok(p, method, params=None):
    """The result of a request that must succeed."""
    r = rpc(p, method, params)
    check(isinstance(r, dict) and "result" in r and r.get("id") == 1,
          "%s %s should succeed with {\"id\":1,\"result\":...}, got %r"
          % (method, json.dumps(params) if params is not None else "", r))
    return r["result"]


def err_code(reply):
    if isinstance(reply, dict) and isinstance(reply.get("error"), dict):
        return reply["error"].get("code")
    return None


def notify(p, title, **params):
    params["title"] = title
    res = ok(p, "notify", params)
    check(isinstance(res, dict) and isinstance(res.get("id"), int) and res["id"] > 0,
          "notify should give {\"id\": N}, gave %r" % (res,))
    return res["id"]


def ids_of(items):
    return [n.get("id") for n in items if isinstance(n, dict)]


def history(p):
    h = ok(p, "history")
    check(isinstance(h, list), "history's result should be an array, is %r" % (h,))
    return h


def history_ids(p):
    return [e.get("notification", {}).get("id") for e in history(p)]


def wait_in_history(p, nid, timeout=3.0):
    """Waits until nid is in history (it leaves the board after its exit
    animation); returns its entry."""
    def find():
        return next((e for e in history(p) if e.get("notification", {}).get("id") == nid), None)
    entry, waited = poll(find, timeout, 0.1)
    check(entry is not None, "id %d not in history %.1f s after it was dismissed; history: %s"
          % (nid, waited, json.dumps(history(p))))
    return entry


class Lines:
    """Reads a pipe line by line on a thread, so a test can wait on it with
    a timeout."""

    def __init__(self, stream):
        self.q = queue.Queue()
        self.seen = []
        threading.Thread(target=self._pump, args=(stream,), daemon=True).start()

    def _pump(self, stream):
        for line in iter(stream.readline, b""):
            self.q.put(line.decode(errors="replace").rstrip("\n"))
        self.q.put(None)

    def until(self, pred, timeout):
        """Reads lines until pred(parsed JSON) is true; returns that value,
        or None on timeout / end of output. Every line read is in .seen."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                line = self.q.get(timeout=left)
            except queue.Empty:
                return None
            if line is None:
                self.q.put(None)
                return None
            self.seen.append(line)
            try:
                value = json.loads(line)
            except ValueError:
                continue
            try:
                hit = pred(value)
            except (AttributeError, TypeError):
                hit = False
            if hit:
                return value


def start_watch(t, p, *args):
    proc = t.sway().popen([os.path.join(t.bindir, "perchctl"), "watch"] + list(args), env=p.env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return proc, Lines(proc.stdout)


def stop(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(3)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def client(p, code, *args, timeout=30):
    """Runs a Python socket client as the session user: argv[1] is the
    socket path; it prints one JSON document, returned parsed."""
    r = p.session.run([python3(), "-c", code, p.socket_path] + [str(a) for a in args],
                      env=p.env, timeout=timeout)
    check(r.returncode == 0, "socket client failed (%d): %s" % (r.returncode, r.stderr[-2000:]))
    try:
        return json.loads(r.stdout)
    except ValueError:
        raise AssertionError("socket client printed %r" % r.stdout)


def top_right_is_background(img):
    good, bad = img.region_is((SCREEN_W - 400, 0, SCREEN_W - 1, 160), BG)
    return good, bad


# --------------------------------------------------------------------------
# Methods

@test
def dismiss_last_and_group_answer_per_the_doc(t):
    p = t.start_perch()
    a = notify(p, "Mail 1", app="mail", timeout=0)
    b = notify(p, "Chat", app="chat", timeout=0)
    c = notify(p, "Mail 2", app="mail", timeout=0)
    d = notify(p, "Build", app="make", timeout=0)
    res = ok(p, "dismiss", {"last": True})
    check(res == {"dismissed": [d]},
          "dismiss {last:true} should dismiss the newest (%d): {\"dismissed\":[%d]}, got %r" % (d, d, res))
    res = ok(p, "dismiss", {"group": c})
    check(isinstance(res, dict) and sorted(res.get("dismissed") or []) == sorted([a, c]),
          "dismiss {group:%d} should dismiss every 'mail' notification (%d, %d), got %r" % (c, a, c, res))
    left = ids_of(ok(p, "list"))
    check(left == [b], "after dismissing last and the mail group only %d should be listed, list is %r"
          % (b, left))
    # The last one still around is now b.
    res = ok(p, "dismiss", {"last": True})
    check(res == {"dismissed": [b]}, "dismiss {last:true} should now dismiss %d, got %r" % (b, res))
    r = rpc(p, "dismiss", {"last": True})
    check(err_code(r) == -32001, "dismiss {last:true} with nothing on screen should be error -32001, got %r"
          % (r,))
    r = rpc(p, "dismiss", {"group": 999})
    check(err_code(r) == -32001, "dismiss {group: 999} (no such id) should be error -32001, got %r" % (r,))
    for nid in (a, b, c, d):
        entry = wait_in_history(p, nid)
        check(entry.get("reason") == "dismissed-by-user",
              "id %d was dismissed by perchctl (the user); history says reason %r" % (nid, entry.get("reason")))


@test
def dismiss_last_after_restore_takes_the_restored_one(t):
    # "last" is the most recently posted notification still around; a
    # restored one is back on screen after the others, so it is the last.
    p = t.start_perch()
    old = notify(p, "Old", timeout=0)
    ok(p, "dismiss", {"id": old})
    wait_in_history(p, old)
    newer = notify(p, "Newer", timeout=0)
    check(ok(p, "restore") == {"id": old}, "restore should bring back %d" % old)
    res = ok(p, "dismiss", {"last": True})
    check(res == {"dismissed": [old]},
          "after posting %d and then restoring %d, dismiss {last:true} should take the restored %d (the "
          "newest on screen); got %r" % (newer, old, old, res))


@test
def invoke_with_and_without_an_action(t):
    p = t.start_perch()
    e = notify(p, "Question", timeout=0, actions=[{"id": "yes", "label": "Yes"}, {"id": "no", "label": "No"}])
    f = notify(p, "Clickable", timeout=0, actions=[{"id": "default", "label": "Open"}])
    res = ok(p, "invoke", {"id": e, "action": "yes"})
    check(res == {"invoked": "yes"}, "invoke {id:%d, action:yes} should give {\"invoked\":\"yes\"}, got %r"
          % (e, res))
    res = ok(p, "invoke", {"id": f})
    check(res == {"invoked": "default"},
          "invoke {id:%d} without an action should invoke \"default\", got %r" % (f, res))
    for nid in (e, f):
        entry = wait_in_history(p, nid)
        check(entry.get("reason") == "dismissed-by-user",
              "a non-resident notification leaves with reason dismissed-by-user after invoke; "
              "history says %r for %d" % (entry.get("reason"), nid))
    g = notify(p, "Other", timeout=0, actions=[{"id": "ok", "label": "OK"}])
    r = rpc(p, "invoke", {"id": g, "action": "nope"})
    check(err_code(r) == -32602, "invoke with an action the notification lacks should be -32602, got %r" % (r,))
    r = rpc(p, "invoke", {"id": 4242})
    check(err_code(r) == -32001, "invoke on an id not on screen should be -32001, got %r" % (r,))
    check(ids_of(ok(p, "list")) == [g], "the failed invokes must leave %d on screen; list %r"
          % (g, ok(p, "list")))


@test(compositors=ALL)
def history_is_newest_first_and_restore_brings_back_the_latest(t):
    p = t.start_perch()
    check(history(p) == [], "history of a fresh daemon should be [], is %r" % history(p))
    r = rpc(p, "restore")
    check(err_code(r) == -32001, "restore with an empty history should be error -32001, got %r" % (r,))
    first = notify(p, "First", body="one", app="a", timeout=0)
    second = notify(p, "Second", body="two", app="b", timeout=0, urgency="low")
    before = int(time.time())
    ok(p, "dismiss", {"id": first})
    wait_in_history(p, first)
    ok(p, "invoke", {"id": second})
    wait_in_history(p, second)
    after = int(time.time()) + 1
    h = history(p)
    check([e.get("notification", {}).get("id") for e in h] == [second, first],
          "history should be newest first [%d, %d], is %s" % (second, first, json.dumps(h)))
    for entry, nid, reason, title in ((h[0], second, "dismissed-by-user", "Second"),
                                      (h[1], first, "dismissed-by-user", "First")):
        check(set(entry) >= {"notification", "reason", "closed_at"},
              "a history entry should have notification, reason, closed_at: %s" % json.dumps(entry))
        check(entry["reason"] == reason, "history entry of %d has reason %r, expected %r"
              % (nid, entry["reason"], reason))
        check(entry["notification"].get("title") == title,
              "history entry of %d has title %r" % (nid, entry["notification"].get("title")))
        ca = entry["closed_at"]
        check(isinstance(ca, int) and before - 1 <= ca <= after,
              "closed_at of %d should be Unix seconds between %d and %d, is %r" % (nid, before, after, ca))
    check(h[0]["notification"].get("urgency") == "low" and h[0]["notification"].get("app") == "b",
          "history keeps the notification as list reports it: %s" % json.dumps(h[0]))

    res = ok(p, "restore")
    check(res == {"id": second}, "restore should bring back the latest dismissed (%d): {\"id\":%d}, got %r"
          % (second, second, res))
    items = ok(p, "list")
    check(ids_of(items) == [second] and items[0].get("title") == "Second" and items[0].get("body") == "two",
          "after restore, list should show %d (Second/two) again: %s" % (second, json.dumps(items)))
    check(history_ids(p) == [first], "restore takes the entry out of history; history ids %r, expected [%d]"
          % (history_ids(p), first))
    card, _ = poll(lambda: find_card(t.screenshot()), 3.0, 0.1)
    check(card is not None, "the restored notification should be on screen at the top right")


@test
def mode_set_add_remove_toggle_get(t):
    p = t.start_perch()
    steps = [
        (None, []),
        ({}, []),
        ({"set": ["work", "do-not-disturb"]}, ["do-not-disturb", "work"]),
        ({"add": "gaming"}, ["do-not-disturb", "gaming", "work"]),
        ({"add": "gaming"}, ["do-not-disturb", "gaming", "work"]),
        ({"remove": "work"}, ["do-not-disturb", "gaming"]),
        ({"remove": "absent"}, ["do-not-disturb", "gaming"]),
        ({"toggle": "do-not-disturb"}, ["gaming"]),
        ({"toggle": "do-not-disturb"}, ["do-not-disturb", "gaming"]),
        ({"set": []}, []),
        (None, []),
    ]
    for params, want in steps:
        res = ok(p, "mode", params)
        check(res == {"modes": want}, "mode %s should answer {\"modes\": %s}, got %r"
              % (json.dumps(params), json.dumps(want), res))
    for params in ({"add": "a", "remove": "b"}, {"add": "two words"}, {"add": ""}, {"set": "dnd"},
                   {"toggle": 1}, {"frob": "x"}):
        r = rpc(p, "mode", params)
        check(err_code(r) == -32602, "mode %s should be error -32602, got %r" % (json.dumps(params), r))
    check(ok(p, "mode") == {"modes": []}, "rejected mode changes must change nothing")
    # perchctl mode: human text and --json.
    out = p.ctl_ok("mode", "add", "do-not-disturb").strip()
    check(out == "do-not-disturb", "`perchctl mode add do-not-disturb` should print the modes, printed %r" % out)
    out = p.ctl_ok("mode", "toggle", "work", "--json")
    check(json.loads(out) == {"modes": ["do-not-disturb", "work"]},
          "`perchctl mode toggle work --json` printed %r" % out)
    out = p.ctl_ok("mode", "remove", "work").strip()
    check(out == "do-not-disturb", "`perchctl mode remove work` printed %r" % out)
    out = p.ctl_ok("mode", "set").strip()
    check(out == "(no modes)", "`perchctl mode set` (none) should print '(no modes)', printed %r" % out)
    out = p.ctl_ok("mode", "set", "x", "y", "--json")
    check(json.loads(out) == {"modes": ["x", "y"]}, "`perchctl mode set x y --json` printed %r" % out)
    out = p.ctl_ok("mode").strip()
    check(out == "x y", "`perchctl mode` should print the active modes 'x y', printed %r" % out)


@test(compositors=ALL)
def status_reports_counts_modes_and_outputs(t):
    p = t.start_perch(args=["--max-visible", "1"])
    st = ok(p, "status")
    for key in ("version", "shown", "queued", "history", "modes", "do_not_disturb", "outputs", "uptime"):
        check(key in st, "status lacks %r: %s" % (key, json.dumps(st)))
    check(st["shown"] == 0 and st["queued"] == 0 and st["history"] == 0 and st["modes"] == []
          and st["do_not_disturb"] is False,
          "a fresh daemon's status should have no notifications, history or modes: %s" % json.dumps(st))
    outs = st["outputs"]
    check(isinstance(outs, list) and len(outs) == 1, "status should list the one output: %r" % (outs,))
    o = outs[0]
    check(o.get("width") == 1280 and o.get("height") == 720 and o.get("scale") == 1
          and isinstance(o.get("name"), str) and o["name"],
          "the output should be named and 1280x720 at scale 1: %r" % (o,))
    check(isinstance(st["uptime"], (int, float)) and st["uptime"] >= 0, "uptime %r" % (st["uptime"],))
    check(st["version"] == ok(p, "version")["version"], "status and version disagree on the version")

    a = notify(p, "A", timeout=0)
    notify(p, "B", timeout=0)
    notify(p, "C", timeout=0)
    st = ok(p, "status")
    check(st["shown"] == 1 and st["queued"] == 2,
          "with --max-visible 1 and three posts, status should say shown 1, queued 2: %s" % json.dumps(st))
    ok(p, "dismiss", {"id": a})
    wait_in_history(p, a)
    st = ok(p, "status")
    check(st["history"] == 1 and st["shown"] + st["queued"] == 2,
          "after one was dismissed status should count history 1 and 2 left: %s" % json.dumps(st))
    ok(p, "mode", {"add": "do-not-disturb"})
    st = ok(p, "status")
    check(st["modes"] == ["do-not-disturb"] and st["do_not_disturb"] is True,
          "after mode add do-not-disturb, status should say so: %s" % json.dumps(st))
    # do-not-disturb takes the two normal ones off the screen, held until it ends.
    def all_held():
        s = ok(p, "status")
        return s if s["held"] == 2 else None
    st, _ = poll(all_held, 3.0, 0.1)
    check(st and st["shown"] == 0 and st["queued"] == 0 and st["history"] == 1,
          "do-not-disturb should hold the shown and queued ones (not send them to history): %s"
          % json.dumps(ok(p, "status")))
    # Text form.
    out = p.ctl_ok("status")
    lines = out.splitlines()
    check(lines and lines[0] == "perch %s" % st["version"], "`perchctl status` first line %r" % (lines[:1],))
    check(any(l.startswith("modes: do-not-disturb") for l in lines), "`perchctl status` lacks the modes: %r" % out)
    check(any("1280x720" in l for l in lines), "`perchctl status` lacks the output size: %r" % out)


@test
def version_answers_with_the_binary_version(t):
    p = t.start_perch()
    res = ok(p, "version")
    r = p.session.run([os.path.join(t.bindir, "perch"), "--version"])
    want = r.stdout.strip()
    check(want.startswith("perch "), "`perch --version` printed %r" % want)
    check(res == {"version": want[len("perch "):], "protocol": 1},
          "version should answer {\"version\": %r, \"protocol\": 1}, got %r" % (want[len("perch "):], res))
    check(p.ctl_ok("version").strip() == want, "`perchctl version` should print %r, printed %r"
          % (want, p.ctl_ok("version")))
    check(json.loads(p.ctl_ok("version", "--json")) == res, "`perchctl version --json` differs from the method")


# --------------------------------------------------------------------------
# perchctl

@test
def perchctl_verbs_print_json_with_json_and_text_without(t):
    p = t.start_perch()

    def js(*args):
        out = p.ctl_ok(*args)
        try:
            return json.loads(out)
        except ValueError as e:
            raise AssertionError("`perchctl %s` printed invalid JSON (%s): %r" % (" ".join(args), e, out))

    def text(*args):
        out = p.ctl_ok(*args)
        try:
            json.loads(out)
            is_json = True
        except ValueError:
            is_json = False
        check(not is_json or out.strip().isdigit(),
              "`perchctl %s` without --json should print text, printed %r" % (" ".join(args), out))
        return out

    posted = js("post", "--json", "--timeout", "0", "--app", "ci", "--action", "go=Go", "Build", "done")
    check(isinstance(posted, dict) and isinstance(posted.get("id"), int), "post --json printed %r" % (posted,))
    a = posted["id"]
    b = p.post("Second", timeout=0, app="ci")
    listed = js("list", "--json")
    check(ids_of(listed) == [a, b], "list --json ids %r, expected [%d, %d]" % (ids_of(listed), a, b))
    out = text("list").splitlines()
    check(out and out[0].split() == ["ID", "URGENCY", "APP", "TITLE"] and len(out) == 3
          and out[1].split()[0] == str(a) and out[1].split()[-1] == "Build",
          "`perchctl list` should print a table with a header and two rows, printed %r" % out)
    check(js("invoke", str(a), "go", "--json") == {"invoked": "go"}, "invoke --json")
    wait_in_history(p, a)
    check(text("invoke", str(b)) == "", "`perchctl invoke` without --json prints nothing")
    wait_in_history(p, b)
    h = js("history", "--json")
    check(isinstance(h, list) and [e["notification"]["id"] for e in h] == [b, a],
          "history --json should list %d then %d: %r" % (b, a, h))
    out = text("history").splitlines()
    check(out and out[0].split() == ["ID", "REASON", "APP", "TITLE"] and len(out) == 3
          and out[1].split()[:2] == [str(b), "dismissed-by-user"],
          "`perchctl history` should print a table, newest first: %r" % out)
    check(js("restore", "--json") == {"id": b}, "restore --json")
    check(text("restore").strip() == str(a), "`perchctl restore` should print the restored id %d" % a)
    check(text("dismiss", str(b)) == "", "`perchctl dismiss ID` prints nothing")
    got = js("dismiss", "--all", "--json")
    check(got == {"dismissed": [a]}, "`perchctl dismiss --all --json` should print {\"dismissed\": [%d]}, "
          "printed %r" % (a, got))
    r = p.ctl("dismiss", str(b))
    check(r.returncode == 1 and len(r.stderr.strip().splitlines()) == 1,
          "dismissing an id no longer on screen should exit 1 with one line, got %d %r"
          % (r.returncode, r.stderr))
    st = js("status", "--json")
    check(isinstance(st, dict) and "outputs" in st, "status --json printed %r" % (st,))
    check(text("status").startswith("perch "), "`perchctl status` text")
    check(js("mode", "--json") == {"modes": []}, "mode --json")
    check(text("mode").strip() == "(no modes)", "`perchctl mode` text")
    check("version" in js("version", "--json"), "version --json")


USAGE_ERRORS = [
    [],
    ["frobnicate"],
    ["post"],
    ["post", "a", "b", "c"],
    ["post", "--timeout", "soon", "T"],
    ["post", "--urgency", "loud", "T"],
    ["post", "--bogus", "T"],
    ["post", "--action", "noequals", "T"],
    ["post", "--timeout"],
    ["dismiss", "-n"],
    ["dismiss", "1", "--all"],
    ["dismiss", "abc"],
    ["dismiss", "0"],
    ["list", "extra"],
    ["list", "--bogus"],
    ["invoke", "-n"],
    ["invoke", "-n", "x"],
    ["invoke", "1", "a", "b"],
    ["menu"],
    ["menu", "-n"],
    ["history", "x"],
    ["restore", "x"],
    ["mode", "add"],
    ["mode", "-a"],
    ["mode", "flip", "x"],
    ["mode", "add", "a", "b"],
    ["status", "--bogus"],
    ["version", "x"],
    ["watch", "x"],
    ["watch", "--bogus"],
]


@test
def perchctl_usage_errors_exit_64_with_one_line(t):
    p = t.start_perch()
    problems = []
    for args in USAGE_ERRORS:
        r = p.ctl(*args)
        lines = r.stderr.strip().splitlines()
        if r.returncode != 64 or len(lines) != 1 or r.stdout.strip():
            problems.append("`perchctl %s`: exit %d, stdout %r, stderr %r"
                            % (" ".join(args), r.returncode, r.stdout, r.stderr))
    check(not problems, "usage errors should exit 64 with one line on stderr and nothing on stdout:\n  "
          + "\n  ".join(problems))
    check(p.list() == [], "no usage error may have posted anything: %r" % p.list())


@test
def watch_prints_every_event_of_a_post(t):
    p = t.start_perch()
    proc, lines = start_watch(t, p)
    try:
        # `watch` prints nothing until something happens: toggle a mode until
        # its `modes` event shows that the subscription is in place.
        subscribed = None
        for _ in range(20):
            p.ctl_ok("mode", "toggle", "probe")
            subscribed = lines.until(lambda v: v.get("event") == "modes", 0.5)
            if subscribed:
                break
        check(subscribed, "`perchctl watch` printed no modes event; output %r, stderr %r"
              % (lines.seen, proc.stderr.read1(4096) if proc.poll() is not None else b""))
        nid = p.post("Watched", "body", timeout=0.5, app="w")
        names = []

        def mine(v):
            if isinstance(v, dict) and v.get("notification", {}).get("id") == nid:
                names.append(v.get("event"))
                check(v["notification"].get("title") == "Watched",
                      "event notification should be the notification as list reports it: %r" % (v,))
                return v.get("event") == "dismissed"
            return False
        last = lines.until(mine, 6.0)
        check(names == ["queued", "will-appear", "appeared", "dismissed"],
              "`perchctl watch` should print queued, will-appear, appeared, dismissed for a post; "
              "printed %r (all lines %r)" % (names, lines.seen))
        check(last.get("reason") == "expired", "the dismissed event should say reason expired: %r" % (last,))
    finally:
        stop(proc)


@test
def watch_waybar_prints_objects_and_dnd_class(t):
    p = t.start_perch()
    proc, lines = start_watch(t, p, "--waybar")
    try:
        first = lines.until(lambda v: True, 5.0)
        check(isinstance(first, dict) and set(first) >= {"text", "tooltip", "class"},
              "`perchctl watch --waybar` should print an object with text/tooltip/class at once, "
              "printed %r" % lines.seen)
        check(first["class"] == "empty" and first["text"] == "",
              "with nothing on screen the class should be 'empty' and text '': %r" % (first,))
        p.post("One", timeout=0)
        active = lines.until(lambda v: v.get("class") == "active", 5.0)
        check(active is not None and active.get("text") == "1",
              "after a post the waybar object should say class 'active', text '1'; printed %r" % lines.seen)
        for line in lines.seen:
            obj = json.loads(line)
            check(isinstance(obj, dict) and set(obj) >= {"text", "tooltip", "class"}
                  and all(isinstance(obj[k], str) for k in ("text", "tooltip", "class")),
                  "every --waybar line should be an object with string text/tooltip/class: %r" % line)
        p.ctl_ok("mode", "add", "do-not-disturb")
        # (With the toast held off screen, class is ["dnd", "waiting"]:
        # test_waybar.)
        dnd = lines.until(lambda v: v.get("alt") == "dnd", 5.0)
        check(dnd is not None, "after `perchctl mode add do-not-disturb` the class should become 'dnd'; "
              "printed %r" % lines.seen)
    finally:
        stop(proc)


def waybar_count(obj):
    return int(obj["text"]) if obj.get("text") else 0


@test
def watch_waybar_prints_each_change_once_with_alt_and_percentage(t):
    # Twelve from one app: none may collapse (max-burst) for the count to reach 12.
    p = t.start_perch(args=["--max-burst", "0"])
    proc, lines = start_watch(t, p, "--waybar")
    try:
        check(lines.until(lambda v: True, 5.0) is not None,
              "`perchctl watch --waybar` printed nothing at start; printed %r" % lines.seen)

        def reach(what, pred):
            got = lines.until(pred, 5.0)
            check(got is not None, "`watch --waybar` never printed %s; printed %r" % (what, lines.seen))
        # Each post alone brings queued, will-appear and appeared (three
        # events, one change); twelve take the count past percentage's 100.
        ids = []
        for n in range(1, 13):
            ids.append(p.post("Pile %d" % n, timeout=0))
            reach("count %d" % n, lambda v, n=n: waybar_count(v) == n)
        p.ctl_ok("dismiss", str(ids[0]))
        reach("count 11 after a dismissal", lambda v: v.get("class") == "active" and waybar_count(v) == 11)
        p.ctl_ok("center", "open")
        reach("the center-open class", lambda v: isinstance(v.get("class"), list))
        p.ctl_ok("center", "close")
        reach("the center closed again", lambda v: isinstance(v.get("class"), str))
        p.ctl_ok("mode", "add", "do-not-disturb")
        reach("class dnd", lambda v: v.get("alt") == "dnd")
        p.ctl_ok("mode", "remove", "do-not-disturb")
        after = lines.until(lambda v: v.get("class") in ("active", "empty"), 5.0)
        check(after is not None, "`watch --waybar` never left class dnd after do-not-disturb ended; "
              "printed %r" % lines.seen)
        # Whether the toasts came back after do-not-disturb is not this
        # test's business; an empty board prints nothing more on dismiss.
        if after["class"] == "active":
            p.ctl_ok("dismiss", "--all")
            reach("class empty after dismiss --all", lambda v: v.get("class") == "empty")
        # Whatever else was on its way (exit animations end, the board
        # settles) is in by now.
        lines.until(lambda v: False, 1.5)

        seen = lines.seen
        repeats = [(i, a) for i, (a, b) in enumerate(zip(seen, seen[1:])) if a == b]
        check(not repeats, "`watch --waybar` printed the same line twice in a row at lines %s; all lines:\n  %s"
              % ([i for i, _ in repeats], "\n  ".join(seen)))
        for line in seen:
            obj = json.loads(line)
            check(isinstance(obj, dict) and set(obj) >= {"text", "alt", "tooltip", "class", "percentage"},
                  "every --waybar line should have text, alt, tooltip, class and percentage: %r" % line)
            cls = obj["class"][0] if isinstance(obj["class"], list) else obj["class"]
            check(obj["alt"] == cls and cls in ("empty", "active", "dnd"),
                  "alt should be the class (empty, active or dnd): %r" % line)
            count = waybar_count(obj)
            check(obj["percentage"] == min(count, 10) * 10,
                  "percentage should be 10 per notification, at most 100 (count %d): %r" % (count, line))
    finally:
        stop(proc)


# --------------------------------------------------------------------------
# Do not disturb

@test(compositors=ALL)
def do_not_disturb_keeps_normal_posts_off_screen_but_shows_critical(t):
    p = t.start_perch()
    p.ctl_ok("mode", "add", "do-not-disturb")
    nid = p.post("Quiet please", "should not show", timeout=30)
    # Longer than an entry animation: the corner must stay background.
    t0 = time.monotonic()
    while time.monotonic() - t0 < 1.5:
        good, bad = top_right_is_background(t.screenshot())
        check(good, "under do-not-disturb a normal post must not appear; pixel %s at the top right is not "
              "background" % (bad,))
        time.sleep(0.1)
    check(nid not in ids_of(p.list()), "a suppressed notification should not be listed: %r" % p.list())
    entry = wait_in_history(p, nid, 1.0)
    check(entry.get("reason") == "suppressed",
          "a post kept off screen by do-not-disturb should be in history with reason 'suppressed', got %r"
          % (entry,))
    crit = p.post("Fire", "critical gets through", urgency="critical")
    card, _ = poll(lambda: find_card(t.screenshot()), 3.0, 0.1)
    check(card is not None, "a critical notification should still appear under do-not-disturb")
    check(ids_of(p.list()) == [crit], "list should show only the critical one: %r" % p.list())


# --------------------------------------------------------------------------
# Bad input

WRONG = [
    # (line, code, what)
    ('{"id":1,"method":"notify","params":{"title":5}}', -32602, "a number as title"),
    ('{"id":2,"method":"notify","params":{"title":"T","timeout":"5"}}', -32602, "a string as timeout"),
    ('{"id":3,"method":"notify","params":{"title":"T","timeout":-1}}', -32602, "a negative timeout"),
    ('{"id":4,"method":"notify","params":{"title":"T","bounce":"yes"}}', -32602, "a string as bounce"),
    ('{"id":5,"method":"notify","params":{"title":"T","actions":[{"id":"a"}]}}', -32602, "an action without label"),
    ('{"id":6,"method":"notify","params":{"title":"T","actions":{"id":"a","label":"A"}}}', -32602,
     "actions as an object"),
    ('{"id":7,"method":"notify","params":{"title":"T","anchor":"middle"}}', -32602, "an unknown anchor"),
    ('{"id":8,"method":"notify","params":{"title":"T","replaces_id":-3}}', -32602, "a negative replaces_id"),
    ('{"id":9,"method":"dismiss","params":{"id":"1"}}', -32602, "a string as id"),
    ('{"id":10,"method":"dismiss","params":{"id":1.5}}', -32602, "a fractional id"),
    ('{"id":11,"method":"dismiss","params":{"id":0}}', -32602, "id 0"),
    ('{"id":12,"method":"dismiss","params":{}}', -32602, "dismiss without a target"),
    ('{"id":13,"method":"dismiss","params":{"all":true,"last":true}}', -32602, "dismiss with two targets"),
    ('{"id":14,"method":"dismiss","params":{"all":"yes"}}', -32602, "a string as all"),
    ('{"id":15,"method":"invoke","params":{"action":"x"}}', -32602, "invoke without an id"),
    ('{"id":16,"method":"invoke","params":{"id":1,"action":7}}', -32602, "a number as action"),
    ('{"id":17,"method":"list","params":[]}', -32602, "params as an array"),
    ('{"id":18,"method":"list","params":"x"}', -32602, "params as a string"),
    ('{"id":19,"method":"status","params":{"verbose":true}}', -32602, "an unknown param of status"),
    ('{"id":20,"method":"history","params":{"limit":3}}', -32602, "an unknown param of history"),
    ('{"id":21,"method":"list","extra":1}', -32600, "an unknown request member"),
    ('{"id":22,"method":5}', -32600, "a number as method"),
    ('{"id":23}', -32600, "no method"),
    ('{"id":24,"method":"notify","params":{"title":"T","colour":"red"}}', -32602, "an unknown notify param"),
    ('{"id":true,"method":"list"}', -32600, "a boolean id"),
    ('"list"', -32600, "a bare string"),
    ('null', -32600, "null"),
    ('{"id":25,"method":"notify","params":{"title":"T"', -32700, "truncated JSON"),
    ('{"id":26,"method":"notify","params":{"title":"T"}} trailing', -32700, "trailing garbage"),
]


@test
def wrong_types_and_unknown_fields_get_errors_and_the_connection_survives(t):
    p = t.start_perch()
    lines = [l for l, _, _ in WRONG] + ['{"id":"end","method":"list"}']
    replies = p.raw(lines)
    problems = []
    for (line, code, what), r in zip(WRONG, replies):
        if err_code(r) != code:
            problems.append("%s (%s): expected error %d, got %r" % (what, line, code, r))
            continue
        if code == -32700 or not line.startswith("{"):
            want_id = None          # no request object to take an id from
        else:
            want_id = json.loads(line).get("id")
            if isinstance(want_id, bool):
                want_id = r.get("id")  # not asserted: the id itself is what is wrong
        if r.get("id") != want_id:
            problems.append("%s (%s): reply id should be %r, is %r" % (what, line, want_id, r.get("id")))
        msg = r["error"].get("message")
        if not isinstance(msg, str) or not msg or "\n" in msg:
            problems.append("%s: the message should be one sentence, is %r" % (what, msg))
    check(len(replies) == len(lines), "replies stopped after %d of %d lines: %r" % (len(replies), len(lines),
                                                                                   replies[-3:]))
    check(not problems, "\n  ".join(["bad requests:"] + problems))
    last = replies[-1]
    check(last == {"id": "end", "result": []},
          "after the bad requests, list on the same connection should be {\"id\":\"end\",\"result\":[]}, "
          "got %r" % (last,))


@test
def invalid_utf8_gets_a_parse_error_and_the_connection_survives(t):
    p = t.start_perch()
    sent = [
        b'{"id":1,"method":"notify","params":{"title":"bad \xff\xfe bytes"}}',
        b'{"id":2,"method":"notify","params":{"title":"overlong \xc0\xaf"}}',
        b'{"id":3,"method":"notify","params":{"title":"cut \xe2\x82"}}',
        b'{"id":4,"method":"notify","params":{"title":"surrogate \xed\xa0\x80"}}',
        b'\xff\xff\xff',
        b'{"id":5,"method":"list"}',
    ]
    replies = p.raw(sent)
    check(len(replies) == len(sent), "replies stopped after %d of %d lines: %r" % (len(replies), len(sent), replies))
    for b, r in zip(sent[:-1], replies[:-1]):
        check(err_code(r) == -32700 and r.get("id") is None,
              "a line with invalid UTF-8 (%r) is not JSON text: expected error -32700 with id null, got %r"
              % (b, r))
    check(replies[-1] == {"id": 5, "result": []},
          "after the invalid lines, list should answer {\"id\":5,\"result\":[]} (nothing was posted), got %r"
          % (replies[-1],))
    # Escapes that name no Unicode scalar (lone surrogates) must not hurt
    # the daemon, whatever it answers.
    r = p.raw(['{"id":6,"method":"notify","params":{"title":"lone \\ud800 surrogate","timeout":1}}',
               '{"id":7,"method":"version"}'])
    check(isinstance(r[-1], dict) and r[-1].get("id") == 7 and "result" in r[-1],
          "after a lone surrogate escape the connection should still answer version; replies %r" % (r,))
    check(p.proc.poll() is None, "perch exited (%s)" % p.proc.poll())


LONG_CLIENT = r'''
import json, socket, sys
path, size = sys.argv[1], int(sys.argv[2])
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(20)
s.connect(path)
f = s.makefile("rb")
head = b'{"id":1,"method":"notify","params":{"title":"'
tail = b'"}}'
line = head + b"x" * (size - len(head) - len(tail)) + tail
assert len(line) == size
s.sendall(line + b"\n" + b'{"id":2,"method":"version"}\n')
out = []
for _ in range(2):
    try:
        reply = f.readline()
    except socket.timeout:
        out.append("<timeout>"); break
    if not reply:
        out.append("<closed>"); break
    out.append(json.loads(reply))
print(json.dumps(out))
'''


@test
def two_mib_line_gets_32002_and_the_connection_still_answers(t):
    p = t.start_perch()
    replies = client(p, LONG_CLIENT, 2 << 20)
    check(len(replies) == 2 and err_code(replies[0]) == -32002,
          "a 2 MiB request line should get error -32002, got %r" % (replies[:1],))
    check(replies[0].get("id") is None, "the -32002 reply's id should be null: %r" % (replies[0],))
    check(isinstance(replies[1], dict) and replies[1].get("id") == 2 and "result" in replies[1],
          "the next request on the same connection should be answered, got %r" % (replies[1:],))
    check(p.list() == [], "the over-long notify must not have been posted: %r" % p.list())


@test
def line_just_over_one_mib_is_rejected_and_one_mib_is_accepted(t):
    p = t.start_perch()
    limit = 1 << 20
    over = client(p, LONG_CLIENT, limit + 10)
    check(len(over) == 2 and err_code(over[0]) == -32002,
          "a request line of 1 MiB + 10 bytes is longer than 1 MiB and should get -32002, got %s"
          % json.dumps(over[:1])[:300])
    exact = client(p, LONG_CLIENT, limit)
    check(len(exact) == 2 and isinstance(exact[0], dict) and "result" in exact[0],
          "a request line of exactly 1 MiB should be accepted, got %s" % json.dumps(exact[:1])[:300])


MANY_CLIENT = r'''
import errno, json, socket, sys, time
path, count = sys.argv[1], int(sys.argv[2])
def connect():
    # A blocking connect waits while the listen backlog is full (a
    # non-blocking one would fail with EAGAIN); then reads time out.
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.settimeout(5)
    return s

socks = [connect() for i in range(count)]

REFUSED = b'{"id":null,"error":{"code":-32004,"message":"too many clients (256)"}}\n'
def ask(s):
    try:
        try:
            s.sendall(b'{"id":1,"method":"version"}\n')
        except OSError:
            pass  # refused and closed already: its reason is still there to read
        data = b""
        while not data.endswith(b"\n"):
            chunk = s.recv(4096)
            if not chunk:
                return "closed"
            data += chunk
        return "answered" if b'"result"' in data else "refused" if data == REFUSED else "other %r" % data
    except socket.timeout:
        return "timeout"
    except OSError as e:
        return "closed" if e.errno in (errno.EPIPE, errno.ECONNRESET) else "error %s" % e

outcomes = [ask(s) for s in socks]
# While they are all open, a newcomer is turned away too.
extra = connect()
newcomer = ask(extra)
extra.close()
# The accepted ones still answer a second time.
again = [ask(s) for s, o in zip(socks, outcomes) if o == "answered"]
for s in socks:
    s.close()
# Recovery: after they closed, a new connection is served.
recovered, t0 = None, time.monotonic()
while time.monotonic() - t0 < 5:
    s = connect()
    recovered = ask(s)
    s.close()
    if recovered == "answered":
        break
    time.sleep(0.05)
print(json.dumps({"outcomes": outcomes, "newcomer": newcomer, "again": again, "recovered": recovered,
                  "recovered_after": time.monotonic() - t0}))
'''


@test
def three_hundred_connections_256_served_the_rest_refused_then_recovers(t):
    p = t.start_perch()
    res = client(p, MANY_CLIENT, 300, timeout=60)
    outcomes = res["outcomes"]
    counts = {k: outcomes.count(k) for k in set(outcomes)}
    check(counts.get("answered") == 256 and counts.get("refused") == 44,
          "of 300 concurrent connections 256 should be served and 44 refused with the reason; got %r" % counts)
    check(res["newcomer"] == "refused", "a 301st connection while 300 are open should be refused with the "
          "reason, got %r" % res["newcomer"])
    check(all(a == "answered" for a in res["again"]),
          "the 256 served connections should keep answering: %r"
          % {k: res["again"].count(k) for k in set(res["again"])})
    check(res["recovered"] == "answered",
          "after the 300 connections closed a new one should be served, got %r" % res["recovered"])
    check(p.proc.poll() is None, "perch exited (%s)" % p.proc.poll())
    check("256 already connected" in p.log(), "perch should log that it refused clients over the limit")


FLOOD_CLIENT = r'''
import json, socket, sys, threading, time
path, n = sys.argv[1], int(sys.argv[2])

def connect():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(60)
    s.connect(path)
    return s

# A subscriber that never reads its events.
sub = connect()
sub.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
sub.sendall(b'{"id":0,"method":"subscribe"}\n')
got = b""
while not got.endswith(b"\n"):
    got += sub.recv(1)
subscribed = json.loads(got)

probe = connect()
pf = probe.makefile("rb")

def status():
    t = time.monotonic()
    probe.sendall(b'{"id":1,"method":"status"}\n')
    line = pf.readline()
    dt = time.monotonic() - t
    assert b'"result"' in line, line
    return dt

base = [status() for _ in range(3)]

flood = connect()
payload = b"".join(b'{"id":%d,"method":"notify","params":{"title":"Flood %d","body":"burst","timeout":60}}\n'
                   % (i, i) for i in range(n))
chunks = []
done = threading.Event()
def reader():
    # Replies only: the sender also hears its notifications' events (a
    # collapsed one's dismissed at once, see max-burst).
    replies, partial = 0, b""
    while replies < n:
        c = flood.recv(1 << 20)
        if not c:
            break
        chunks.append(c)
        lines = (partial + c).split(b"\n")
        partial = lines.pop()
        replies += sum(1 for l in lines if b'"event"' not in l)
    done.set()
threading.Thread(target=reader, daemon=True).start()
t0 = time.monotonic()
threading.Thread(target=lambda: flood.sendall(payload), daemon=True).start()

lat = []
while not done.is_set() and time.monotonic() - t0 < 120:
    lat.append((time.monotonic() - t0, status()))
    time.sleep(0.05)
flood_s = time.monotonic() - t0
after = [status() for _ in range(3)]

ids, errors = [], []
for line in b"".join(chunks).splitlines():
    r = json.loads(line)
    if "event" in r:
        continue
    if isinstance(r.get("result"), dict) and isinstance(r["result"].get("id"), int):
        ids.append(r["result"]["id"])
    else:
        errors.append(r)
# Is the silent subscriber still connected? (Peek without blocking.)
sub.setblocking(False)
try:
    sub_state = "open, %d bytes waiting" % len(sub.recv(1 << 16, socket.MSG_PEEK))
except BlockingIOError:
    sub_state = "open, nothing waiting"
except OSError as e:
    sub_state = "error %s" % e
print(json.dumps({"subscribed": subscribed, "replies": len(ids) + len(errors), "ids": len(ids),
                  "unique": len(set(ids)), "positive": all(i > 0 for i in ids), "errors": errors[:3],
                  "base": base, "lat": lat, "after": after, "flood_s": flood_s, "sub": sub_state}))
'''


@test
def flood_with_a_stuck_subscriber_keeps_status_fast(t):
    p = t.start_perch()
    n = 10000
    res = client(p, FLOOD_CLIENT, n, timeout=200)
    lats = [l for _, l in res["lat"]]
    worst = max(lats) if lats else None
    worst_at = max(res["lat"], key=lambda x: x[1])[0] if lats else None
    summary = ("%d notify replies (%d ids, %d unique) in %.2f s; %d status probes during the flood: max %.1f ms "
               "(at %.2f s), median %.1f ms; before %s ms, after %s ms; subscriber: %s"
               % (res["replies"], res["ids"], res["unique"], res["flood_s"], len(lats),
                  (worst or 0) * 1000, worst_at or 0, sorted(lats)[len(lats) // 2] * 1000 if lats else 0,
                  [round(x * 1000, 1) for x in res["base"]], [round(x * 1000, 1) for x in res["after"]],
                  res["sub"]))
    t.notes.append("flood: " + summary)
    print("    flood: " + summary, flush=True)
    check(res["subscribed"].get("result") == {"subscribed": True}, "subscribe answered %r" % res["subscribed"])
    check(res["ids"] == n and res["unique"] == n and res["positive"] and not res["errors"],
          "every one of %d notify requests should get its own id; %s; errors %r" % (n, summary, res["errors"]))
    check(lats, "no status request completed during the flood")
    check(worst < 0.1, "status should be answered within 100 ms throughout the flood: %s" % summary)
    check(p.proc.poll() is None, "perch exited (%s)" % p.proc.poll())


OTHER_CLIENT = r'''
import json, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(5)
try:
    s.connect(sys.argv[1])
except OSError as e:
    print(json.dumps({"connect": "failed: %s" % e})); sys.exit(0)
try:
    s.sendall(b'{"id":1,"method":"version"}\n')
except OSError:
    pass  # refused and closed already: what it said is still there to read
try:
    data = s.recv(4096)
    got = "closed" if not data else "reply %r" % data
except socket.timeout:
    got = "timeout"
except OSError as e:
    got = "closed (%s)" % e.strerror
print(json.dumps({"connect": "ok", "got": got}))
'''


@test
def another_uid_is_refused_even_through_a_world_writable_socket(t):
    p = t.start_perch()
    if not run_as_root():
        t.notes.append("not root: cannot act as another user; only checked the file modes")
        return
    try:
        pwd.getpwnam("perch-other")
    except KeyError:
        r = subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                            "perch-other"], capture_output=True, text=True)
        check(r.returncode == 0 or r.returncode == 9, "useradd perch-other failed: %s" % r.stderr)
    other = pwd.getpwnam("perch-other")
    # Open the way to the socket: the session directory and perch/ get o+x,
    # the socket 0666. The daemon's uid check is all that is left.
    sock = p.socket_path
    paths = [p.env["XDG_RUNTIME_DIR"], os.path.dirname(sock), sock]
    saved = [(q, stat.S_IMODE(os.stat(q).st_mode)) for q in paths]
    try:
        os.chmod(paths[0], saved[0][1] | 0o011)
        os.chmod(paths[1], saved[1][1] | 0o011)
        os.chmod(sock, 0o666)
        r = subprocess.run([python3(), "-c", OTHER_CLIENT, sock], capture_output=True, text=True, timeout=15,
                           user=other.pw_uid, group=other.pw_gid, extra_groups=[],
                           env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}, cwd="/")
        check(r.returncode == 0, "client as perch-other failed: %s" % r.stderr)
        res = json.loads(r.stdout)
        check(res["connect"] == "ok", "with the socket 0666 perch-other should reach it; %r" % res)
        # Told why in one error line (id null, code -32004), then closed:
        # never a reply to the request.
        refusal = ('{"id":null,"error":{"code":-32004,"message":"perch serves uid %d only, not uid %d"}}\n'
                   % (os.getuid() if not run_as_root() else t.sway().pw.pw_uid, other.pw_uid)).encode()
        check(res["got"] == "reply %r" % refusal,
              "perch must refuse a connection from another uid with its reason and nothing else; perch-other "
              "got %s" % res["got"])
        # root is another uid as well.
        import socket
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(5)
        s.connect(sock)
        try:
            s.sendall(b'{"id":1,"method":"version"}\n')
        except OSError:
            pass  # closed already: the refusal line is still there to read
        try:
            data = s.recv(4096)
        except OSError as e:
            data = ("<%s>" % e).encode()
        finally:
            s.close()
        check(data == ('{"id":null,"error":{"code":-32004,"message":"perch serves uid %d only, not uid 0"}}\n'
                       % t.sway().pw.pw_uid).encode(),
              "a connection from root (uid 0) must get only the refusal line, got %r" % data)
    finally:
        for q, mode in reversed(saved):
            try:
                os.chmod(q, mode)
            except OSError:
                pass
    check("refused a client of uid %d" % other.pw_uid in p.log(),
          "perch should log that it refused uid %d" % other.pw_uid)
    check(ok(p, "version").get("protocol") == 1, "the owner is still served")
