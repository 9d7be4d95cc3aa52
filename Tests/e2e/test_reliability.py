"""Hostile files and a crowded socket (issue 18, items 3-7): a FIFO where
the state or an included config file should be, a symbolic link at the
journal's name, a state directory others can write to, 256 clients and
then some, perchctl refused (another uid, too many clients), diagnostics
said once. Each test checks that the daemon keeps serving (`status`
answers) and that what it acknowledged is not lost. The figures they print
go to docs/reliability.md."""

import json
import os
import re
import signal
import stat
import subprocess
import time

from harness import SWAY17, TestFailure, check, poll, python3, run_as_root, test
from test_persistence import history, ids_of, restart, state_dir, wait_serving

COMPOSITORS = SWAY17
COMPOSITORS_WHY = "files, sockets and logs; nothing on screen"


def status_answers(p, what, timeout=5):
    """`perchctl status` answers (in the test's time, not a hang)."""
    r = p.ctl("status", "--json", timeout=timeout)
    check(r.returncode == 0, "%s: `perchctl status` exited %d: %r %r" % (what, r.returncode, r.stdout, r.stderr))
    return json.loads(r.stdout)


def chown_to_user(t, *paths):
    if run_as_root():
        pw = t.sway().pw
        for q in paths:
            os.lchown(q, pw.pw_uid, pw.pw_gid)


def log_lines(p, needle):
    return [line for line in p.log().splitlines() if needle in line]


# --------------------------------------------------------------------------
# Item 3: FIFOs

@test
def reliability_a_fifo_at_the_state_path_is_refused_and_perch_serves_and_keeps_what_it_acknowledged(t):
    d = t.user_dir()
    path = os.path.join(d, "state.json")
    os.mkfifo(path, 0o600)
    chown_to_user(t, path)
    p = t.start_perch(args=["--state", path])
    # Before the fix perch hung in open(2) here, after making its socket.
    status_answers(p, "a FIFO at --state")
    said = log_lines(p, "is a FIFO, not a regular file")
    check(len(said) == 1 and path in said[0], "perch should say once that %s is a FIFO; log:\n%s" % (path, p.log()))
    nid = p.post("Kept", timeout=0)
    q = restart(t, p, args=["--state", path])
    check(nid in ids_of(q.list()), "id %d was acknowledged; after a restart it should be listed: %r" % (nid, q.list()))
    check(stat.S_ISREG(os.stat(path).st_mode), "the state file should be a regular file now")
    check(any(n.startswith("state.json.corrupt-") for n in os.listdir(d)), "the FIFO should be set aside: %r"
          % os.listdir(d))


@test
def reliability_an_included_fifo_gives_a_config_error_and_sighup_does_not_hang_the_daemon(t):
    d = t.user_dir()
    fifo = os.path.join(d, "extra")
    os.mkfifo(fifo, 0o600)
    config = os.path.join(d, "config")
    with open(config, "w") as f:
        f.write("anchor=top-right\n")
    chown_to_user(t, fifo, config)
    # perch --check-config: an error naming the FIFO, within the time.
    with open(config, "a") as f:
        f.write("include=%s\n" % fifo)
    r = t.sway().run([os.path.join(t.bindir, "perch"), "--check-config", config], timeout=10)
    check(r.returncode == 1 and "cannot read include file '%s': it is a FIFO, not a regular file" % fifo in r.stdout,
          "--check-config should fail naming the FIFO; exit %d, %r %r" % (r.returncode, r.stdout, r.stderr))
    with open(config, "w") as f:
        f.write("anchor=top-right\n")
    p = t.start_perch(args=["-c", config])
    nid = p.post("Before the reload", timeout=0)
    with open(config, "a") as f:
        f.write("include=%s\n" % fifo)
    p.proc.send_signal(signal.SIGHUP)
    started = time.monotonic()
    status_answers(p, "after SIGHUP with an included FIFO")
    waited = time.monotonic() - started
    r = p.ctl("reload")
    check(r.returncode == 1 and "is a FIFO, not a regular file" in r.stderr,
          "`perchctl reload` should report the FIFO: exit %d, %r %r" % (r.returncode, r.stdout, r.stderr))
    check(nid in ids_of(p.list()), "the notification posted before the reload should still be there")
    print("    status after SIGHUP with an included FIFO: %.0f ms" % (waited * 1000), flush=True)


# --------------------------------------------------------------------------
# Item 4: links and shared state directories

@test
def reliability_a_symlink_at_the_journal_name_is_neither_read_nor_written_through(t):
    d = state_dir(t)
    os.makedirs(d)
    victim = os.path.join(t.user_dir(), "victim.txt")
    content = b'{"kind":"not perch\'s","secret":"keep me"}\n' * 3
    with open(victim, "wb") as f:
        f.write(content)
    journal = os.path.join(d, "state.json.journal")
    os.symlink(victim, journal)
    chown_to_user(t, os.path.dirname(d), d, victim, journal)
    os.chmod(d, 0o700)
    p = t.start_perch()
    status_answers(p, "a link at the journal")
    ids = [p.post("Journaled %d" % i, timeout=0) for i in range(3)]
    p.ctl_ok("dismiss", str(ids[0]))
    q = restart(t, p, how="kill")
    with open(victim, "rb") as f:
        check(f.read() == content, "the file the link points to must be left as it was")
    check(not os.path.islink(journal), "the link should have been set aside, not used")
    check(ids_of(q.list()) == ids[1:], "acknowledged ids should survive kill -9: listed %r, posted %r"
          % (ids_of(q.list()), ids))
    check(ids[0] in [e["notification"]["id"] for e in history(q)], "the dismissed one should be in history")
    check(log_lines(q, "is a symbolic link"), "perch should say the journal was a link; log:\n%s" % q.log())


@test
def reliability_a_state_directory_others_can_write_to_is_refused_and_perch_runs_without_persistence(t):
    d = state_dir(t)
    os.makedirs(d)
    planted = os.path.join(d, "state.json")
    with open(planted, "w") as f:
        f.write('{"planted": true}')
    chown_to_user(t, os.path.dirname(d), d, planted)
    os.chmod(d, 0o1777)
    p = t.start_perch()
    status_answers(p, "a world-writable state directory")
    errors = log_lines(p, "is writable by everyone")
    check(len(errors) == 1 and "not kept on disk" in errors[0] and errors[0].startswith("perch: error"),
          "one error line should say the directory is refused and state is not kept; log:\n%s" % p.log())
    nid = p.post("Served anyway", timeout=0)
    check(nid in ids_of(p.list()), "perch should serve without persistence")
    p.proc.send_signal(signal.SIGTERM)
    check(p.wait_exit(5) == 0, "perch should stop cleanly")
    with open(planted) as f:
        check(f.read() == '{"planted": true}', "nothing may be written into the refused directory")
    check(sorted(os.listdir(d)) == ["state.json"], "no journal or temp file in the refused directory: %r"
          % os.listdir(d))


# --------------------------------------------------------------------------
# Items 5 and 6: a full socket, refusals

CROWD_CLIENT = r"""
import json, socket, sys, time
path, keep, close, new = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
def connect():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)  # blocking: waits while the listener's backlog is full
    s.settimeout(10)
    return s
def send(s):
    try:
        s.sendall(b'{"id":1,"method":"version"}\n')
    except OSError:
        pass  # a refusal may be waiting to be read all the same
def answer(s):
    # 'ok', 'refused CODE: MESSAGE', or what went wrong.
    try:
        line = s.makefile("rb").readline()
    except OSError as e:
        return "error %s" % (e.strerror or e)
    if not line:
        return "closed"
    r = json.loads(line)
    if r.get("id") == 1 and "result" in r:
        return "ok"
    if r.get("id") is None and isinstance(r.get("error"), dict):
        return "refused %d: %s" % (r["error"]["code"], r["error"]["message"])
    return "other %r" % line
crowd = [connect() for _ in range(keep)]
for s in crowd:
    send(s)
first = [answer(s) for s in crowd]
extra = connect()
send(extra)
extra = answer(extra)
print("stop", flush=True)
sys.stdin.readline()  # the daemon is stopped now
for s in crowd[:close]:
    s.close()
# connect() completes in the listener's backlog while the daemon sleeps.
fresh = [connect() for _ in range(new)]
for s in fresh:
    send(s)
print("go on", flush=True)
sys.stdin.readline()  # the daemon runs again, and finds all of it in one poll
answers = [answer(s) for s in fresh]
print(json.dumps({"first": first.count("ok"), "extra": extra,
                  "fresh_ok": answers.count("ok"), "fresh": sorted(set(answers))}), flush=True)
"""


def crowd(t, p, keep, close, new):
    """`keep` clients connected, the next one refused; then, with the
    daemon stopped (so that it finds everything in one poll turn), `close`
    of them hang up and `new` connect and ask. Returns the client's report."""
    c = subprocess.Popen([python3(), "-c", CROWD_CLIENT, p.socket_path, str(keep), str(close), str(new)],
                         env=p.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, **t.sway().user_kwargs())
    try:
        def expect(word):
            # (The message is made only on failure: reading stderr waits
            # for the client to end.)
            if c.stdout.readline().strip() != word:
                raise TestFailure("the crowd client failed before %r: %s" % (word, c.stderr.read()[-800:]))
        expect("stop")
        p.proc.send_signal(signal.SIGSTOP)
        try:
            c.stdin.write("\n")
            c.stdin.flush()
            expect("go on")
        finally:
            p.proc.send_signal(signal.SIGCONT)
        c.stdin.write("\n")
        c.stdin.flush()
        out, err = c.communicate(timeout=60)
    finally:
        if c.poll() is None:
            c.kill()
            c.wait()
    check(c.returncode == 0, "crowd client failed: %s" % err[-800:])
    return json.loads(out)


@test
def reliability_a_freed_client_slot_is_usable_at_once_and_a_refused_client_is_told_why(t):
    p = t.start_perch()
    nid = p.post("Acknowledged before the crowd", timeout=0)
    for close in (200, 1):
        res = crowd(t, p, 256, close, 50)
        summary = ("256 connected (%d answered); the 257th: %s; %d closed and 50 connected in one poll turn: %d "
                   "served (%s)" % (res["first"], res["extra"], close, res["fresh_ok"], ", ".join(res["fresh"])))
        print("    crowd: " + summary, flush=True)
        t.notes.append(summary)
        check(res["first"] == 256, "all 256 clients should be served: " + summary)
        check(res["extra"] == "refused -32004: too many clients (256)",
              "the 257th client should be told why in one error line: " + summary)
        check(res["fresh_ok"] == min(close, 50), "each freed place should serve a new client: " + summary)
        if close < 50:
            check(res["fresh"] == ["ok", "refused -32004: too many clients (256)"],
                  "those that find no place should be told why: " + summary)
        status_answers(p, "after the crowd")
    check(nid in ids_of(p.list()), "what was acknowledged before the crowd is still there")


HOLD_CLIENT = r'''
import socket, sys, time
path, n = sys.argv[1], int(sys.argv[2])
crowd = []
for _ in range(n):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.sendall(b'{"id":1,"method":"version"}\n')
    s.makefile("rb").readline()
    crowd.append(s)
print("ready", flush=True)
sys.stdin.readline()
'''


@test
def reliability_perchctl_refused_for_too_many_clients_says_so_in_one_line_and_the_log_is_throttled(t):
    p = t.start_perch()
    holder = subprocess.Popen([python3(), "-c", HOLD_CLIENT, p.socket_path, "256"], env=p.env,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                              **t.sway().user_kwargs())
    try:
        check(holder.stdout.readline().strip() == "ready", "the holder could not connect 256 clients")
        outs = [p.ctl("status") for _ in range(20)]
        for r in outs:
            check(r.returncode == 1, "perchctl refused should exit 1, exited %d" % r.returncode)
            check(r.stderr == "perchctl: perch refused the connection: too many clients (256)\n" and r.stdout == "",
                  "perchctl should say in one line that perch refused it and why: stdout %r, stderr %r"
                  % (r.stdout, r.stderr))
        refused = log_lines(p, "refused a client, 256 already connected")
        check(len(refused) == 1, "20 refusals within seconds should be logged once (then counted), logged %d times"
              % len(refused))
    finally:
        holder.stdin.close()
        holder.wait(10)
    status_answers(p, "after the holder left")


@test
def reliability_perchctl_as_root_against_a_users_daemon_is_told_it_is_another_uid(t):
    p = t.start_perch()
    if not run_as_root():
        t.notes.append("not root: cannot be another uid")
        return
    uid = t.sway().pw.pw_uid
    r = t.sway().run([os.path.join(t.bindir, "perchctl"), "status"], env=p.env, as_user=False)
    check(r.returncode == 1, "perchctl as root should exit 1, exited %d" % r.returncode)
    check(r.stderr == "perchctl: perch refused the connection: perch serves uid %d only, not uid 0\n" % uid
          and r.stdout == "", "perchctl as root should say in one line that perch refused another uid: "
          "stdout %r, stderr %r" % (r.stdout, r.stderr))
    status_answers(p, "after root was refused")


# --------------------------------------------------------------------------
# Item 7: noise and bounds

@test
def reliability_a_notify_diagnostic_and_an_icon_warning_are_logged_once(t):
    from test_dbus import gdbus, start
    p, env = start(t)
    r = gdbus(t, env, "--method", "org.freedesktop.Notifications.Notify", "app", "0", "http://example.com/icon.png",
              "Odd", "", "['default', 'Open', 'orphan']", "{'urgency': <byte 7>}", "0")
    check(r.returncode == 0, "Notify failed: %r" % r.stderr)
    time.sleep(1.0)  # measured, drawn, slid in
    status_answers(p, "after the odd Notify")
    for needle in ("actions must come in pairs", "hint urgency 7", "is not a file:// URI"):
        lines = log_lines(p, needle)
        check(len(lines) == 1, "%r should be logged once, logged %d times:\n%s" % (needle, len(lines),
                                                                                   "\n".join(lines) or p.log()))
    for _ in range(5):
        gdbus(t, env, "--method", "org.freedesktop.Notifications.Notify", "app", "0", "", "Odd again", "",
              "[]", "{'urgency': <byte 7>}", "0")
    lines = log_lines(p, "hint urgency 7")
    check(len(lines) <= 6, "a sender repeating the same mistake is throttled: %d lines" % len(lines))


MODES_CLIENT = r'''
import json, socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(20)
s.connect(sys.argv[1])
line = json.dumps({"id": 1, "method": "mode", "params": {"set": ["m%d" % i for i in range(100000)]}})
started = time.monotonic()
s.sendall(line.encode() + b"\n")
reply = json.loads(s.makefile("rb").readline())
print(json.dumps({"bytes": len(line), "reply": reply, "ms": (time.monotonic() - started) * 1000}))
'''


@test
def reliability_mode_set_with_100000_modes_is_bounded(t):
    p = t.start_perch()
    r = t.sway().run([python3(), "-c", MODES_CLIENT, p.socket_path], env=p.env, timeout=30)
    check(r.returncode == 0, "modes client failed: %s" % r.stderr[-500:])
    res = json.loads(r.stdout)
    reply = res["reply"]
    check("result" in reply, "mode set should answer with a result: %r" % str(reply)[:300])
    modes = reply["result"]["modes"]
    check(len(modes) == 64, "at most 64 modes are kept, kept %d" % len(modes))
    status = status_answers(p, "after 100 000 modes")
    check(len(status["modes"]) == 64, "status should list the 64 kept modes")
    print("    mode set of 100 000 names (%d bytes): answered in %.0f ms, %d kept"
          % (res["bytes"], res["ms"], len(modes)), flush=True)


@test
def reliability_a_notify_with_many_wrong_hints_logs_eight_and_a_count(t):
    from test_dbus import gdbus, start
    p, env = start(t)
    keys = ["image-data", "image_data", "icon_data", "urgency", "category", "desktop-entry", "image-path",
            "image_path", "transient", "resident", "x-canonical-private-synchronous", "x-dunst-stack-tag",
            "x-kde-reply-placeholder-text"]
    hints = ", ".join("'%s': <int32 1>" % k for k in keys + ["suppress-me"]) + ", 'value': <'full'>"
    r = gdbus(t, env, "--method", "org.freedesktop.Notifications.Notify", "wrong", "0", "", "Wrong hints", "",
              "[]", "{%s}" % hints, "0")
    check(r.returncode == 0, "Notify with wrong hints should still post: %r" % r.stderr)
    status_answers(p, "after the wrong hints")
    lines = log_lines(p, '("wrong")')
    # (Eleven of them are problems: an unknown hint is no mistake, and
    # image data of the wrong type is not told apart from none.)
    check(len(lines) == 9 and re.search(r"\): and \d+ more problems$", lines[-1]),
          "a Notify's problems should be logged as 8 and a count, logged:\n%s" % "\n".join(lines))
    check([n["title"] for n in p.list()] == ["Wrong hints"], "the notification is posted all the same")
