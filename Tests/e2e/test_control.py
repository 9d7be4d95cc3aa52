"""The control socket: perchctl and the raw newline-delimited JSON protocol."""

import json
import os
import stat

from harness import check, poll, test
from harness import SWAY17
from harness import write_config

# Which compositors these tests run on (harness.test).
COMPOSITORS = SWAY17
COMPOSITORS_WHY = "control-socket protocol only"


def find(items, nid):
    return next((n for n in items if isinstance(n, dict) and n.get("id") == nid), None)


@test
def list_reflects_posts_and_dismissals(t):
    p = t.start_perch()
    check(p.list() == [], "list --json before any post should be [], is %r" % p.list())
    a = p.post("Build finished", "all green", timeout=30, app="ci", urgency="low")
    b = p.post("Second", "another one", timeout=30)
    check(b != a, "two posts returned the same id %d" % a)
    items = p.list()
    na, nb = find(items, a), find(items, b)
    check(na is not None and nb is not None,
          "list --json should contain ids %d and %d, is %s" % (a, b, json.dumps(items)))
    for key in ("id", "title", "body", "app", "urgency"):
        check(key in na, "list entry lacks %r: %s" % (key, json.dumps(na)))
    check(na["title"] == "Build finished" and na["body"] == "all green",
          "entry %d has title/body %r/%r" % (a, na["title"], na["body"]))
    check(na["app"] == "ci", "entry %d has app %r, expected 'ci'" % (a, na["app"]))
    check(na["urgency"] == "low", "entry %d has urgency %r, expected 'low'" % (a, na["urgency"]))
    check(nb["urgency"] == "normal", "entry %d (no --urgency) has urgency %r, expected 'normal'"
          % (b, nb["urgency"]))
    p.ctl_ok("dismiss", str(a))
    gone, _ = poll(lambda: find(p.list(), a) is None, 2.0, 0.1)
    items = p.list()
    check(gone, "id %d still listed 2 s after `perchctl dismiss %d`: %s" % (a, a, json.dumps(items)))
    check(find(items, b) is not None, "id %d vanished when %d was dismissed: %s"
          % (b, a, json.dumps(items)))


def error_code(reply):
    if isinstance(reply, dict) and isinstance(reply.get("error"), dict):
        return reply["error"].get("code")
    return None


BAD_REQUESTS = [
    # (line, expected code, expected reply id, what)
    ("this is not json", -32700, None, "a non-JSON line"),
    ("42", -32600, None, "a JSON value that is not a request object"),
    ('{"id":2,"method":"frobnicate","params":{}}', -32601, 2, "an unknown method"),
    ('{"id":3,"method":"notify","params":{"body":"no title"}}', -32602, 3, "notify without a title"),
]

GOOD = '{"id":9,"method":"notify","params":{"title":"T","body":"B","timeout":5}}'


def check_good(reply, where):
    check(isinstance(reply, dict) and isinstance(reply.get("result"), dict)
          and isinstance(reply["result"].get("id"), int) and reply["result"]["id"] > 0
          and reply.get("id") == 9,
          "%s, a good notify request should get {\"id\":9,\"result\":{\"id\":N}}, got %r"
          % (where, reply))


@test
def bad_requests_get_error_replies(t):
    p = t.start_perch()
    problems = []
    for line, code, rid, what in BAD_REQUESTS:
        replies = p.raw([line])
        r = replies[0]
        if error_code(r) != code or not isinstance(r, dict) or r.get("id") != rid:
            problems.append("%s (%s) should get an error with code %d and id %s, got %r"
                            % (what, line, code, json.dumps(rid), r))
    check(not problems, "; ".join(problems))
    # The daemon still answers on a new connection.
    check_good(p.raw([GOOD])[0], "after the bad requests, on a new connection")
    check(p.proc.poll() is None, "perch exited (%s) after bad requests" % p.proc.poll())


@test
def connection_survives_bad_requests(t):
    p = t.start_perch()
    lines = [l for l, _, _, _ in BAD_REQUESTS] + [GOOD, '{"id":10,"method":"list"}']
    replies = p.raw(lines)
    got = [error_code(r) for r in replies[:len(BAD_REQUESTS)]]
    want = [c for _, c, _, _ in BAD_REQUESTS]
    check(got == want, "on one connection the bad requests should get codes %s, got %s "
          "(replies %r)" % (want, got, replies))
    check(len(replies) == len(lines), "replies stopped after %d of %d requests: %r"
          % (len(replies), len(lines), replies))
    check_good(replies[len(BAD_REQUESTS)], "on the same connection after the bad requests")
    last = replies[-1]
    check(isinstance(last, dict) and last.get("id") == 10 and isinstance(last.get("result"), list),
          "list should get {\"id\":10,\"result\":[...]}, got %r" % (last,))


@test
def dismiss_over_raw_socket(t):
    p = t.start_perch()
    r = p.raw(['{"id":1,"method":"notify","params":{"title":"Raw","timeout":30}}'])[0]
    check(isinstance(r, dict) and isinstance(r.get("result"), dict), "notify reply %r" % (r,))
    nid = r["result"]["id"]
    r = p.raw(['{"id":2,"method":"list"}'])[0]
    check(isinstance(r, dict) and find(r.get("result") or [], nid) is not None,
          "list over the socket should contain id %d, got %r" % (nid, r))
    r = p.raw(['{"id":3,"method":"dismiss","params":{"id":%d}}' % nid])[0]
    check(isinstance(r, dict) and "result" in r and r.get("id") == 3,
          "dismiss reply should have a result and id 3, got %r" % (r,))
    gone, _ = poll(lambda: find(p.raw(['{"id":4,"method":"list"}'])[0].get("result") or [], nid)
                   is None, 2.0, 0.1)
    check(gone, "id %d still listed 2 s after dismiss over the socket" % nid)
    r = p.raw(['{"id":5,"method":"dismiss","params":{"all":true}}'])[0]
    check(isinstance(r, dict) and "result" in r, "dismiss all reply %r" % (r,))


@test
def control_socket_is_owner_only(t):
    p = t.start_perch()
    s = t.sway()
    d = os.path.dirname(p.socket_path)
    dst, sst = os.stat(d), os.stat(p.socket_path)
    check(stat.S_ISSOCK(sst.st_mode), "%s is not a socket" % p.socket_path)
    check(stat.S_IMODE(dst.st_mode) == 0o700, "%s has mode %o, expected 700"
          % (d, stat.S_IMODE(dst.st_mode)))
    check(stat.S_IMODE(sst.st_mode) == 0o600, "%s has mode %o, expected 600"
          % (p.socket_path, stat.S_IMODE(sst.st_mode)))
    check(sst.st_uid == s.pw.pw_uid, "%s is owned by uid %d, expected %d"
          % (p.socket_path, sst.st_uid, s.pw.pw_uid))


@test
def list_longer_than_a_request_line_is_read_whole(t):
    """A reply may be longer than the 1 MiB a request may be: 24 bodies of
    60 kB make a list of about 1.4 MB, which perchctl must print, not wait
    on for ever."""
    # All 24 live: no burst collapses, and 21 may wait behind the 3 shown.
    p = t.start_perch(args=["--max-visible", "3", "--max-burst", "0", "--max-queued", "24"])
    body = "x" * 60_000
    lines = [json.dumps({"id": i, "method": "notify", "params": {"title": "long %d" % i, "body": body,
                                                                 "timeout": 0}})
             for i in range(24)]
    for line in lines:  # one at a time: the lines go to the client on its command line
        r = p.raw([line], timeout=10)[0]
        check(isinstance(r, dict) and "result" in r, "post failed: %r" % r)
    r = p.ctl("list", "--json", timeout=10)
    check(r.returncode == 0, "perchctl list --json exit %d: %s" % (r.returncode, r.stderr[-300:]))
    items = json.loads(r.stdout)
    check(len(items) == 24 and all(len(n["body"]) == 60_000 for n in items),
          "perchctl list --json gave %d notifications" % len(items))


@test
def list_reports_the_timeout_in_force(t):
    """A critical notification's own timeout is not used (it stays until
    dismissed), a section's default-timeout is (even for critical): what
    `list` says is what the timer does."""
    path = write_config(t, "[urgency=critical app-name=alarm]\ndefault-timeout=2000\n")
    p = t.start_perch(args=["-c", path])
    stays = p.post("Disk almost full", timeout=2, urgency="critical")
    goes = p.post("Wake up", timeout=60, urgency="critical", app="alarm")
    items = p.list()
    check(find(items, stays).get("timeout") == 0,
          "a critical post with --timeout 2 stays until dismissed, so list should say timeout 0: %s"
          % json.dumps(find(items, stays)))
    check(find(items, goes).get("timeout") == 2,
          "the [urgency=critical] section's default-timeout=2000 is in force, so list should say 2: %s"
          % json.dumps(find(items, goes)))
    gone, _ = poll(lambda: find(p.list(), goes) is None, 6.0, 0.2)
    check(gone, "the critical notification under default-timeout=2000 was still listed 6 s on: %s"
          % json.dumps(p.list()))
    check(find(p.list(), stays) is not None,
          "the critical notification with its own --timeout 2 expired; it should stay: %s"
          % json.dumps(p.list()))
