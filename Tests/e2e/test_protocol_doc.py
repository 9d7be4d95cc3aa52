"""docs/protocol.md's examples, replayed against a fresh daemon: the
documented replies must be exactly what perch answers. The replies the
examples cannot show (they hold times and outputs) are pinned member by
member, and perchctl's reading of replies is checked against a scripted
daemon that sends what a newer or broken one would."""

import json
import os
import re
import subprocess
import time

from harness import REPO, check, poll, python3, test
from harness import SWAY17

# Which compositors these tests run on (harness.test).
COMPOSITORS = SWAY17
COMPOSITORS_WHY = "control-socket protocol only"


def documented_exchanges():
    """Each ```jsonl block of docs/protocol.md as a list of (request,
    [reply, events it caused…])."""
    text = open(os.path.join(REPO, "docs", "protocol.md"), encoding="utf-8").read()
    blocks = []
    for chunk in text.split("```jsonl")[1:]:
        body = chunk.split("```", 1)[0]
        lines = [l for l in body.splitlines() if l.strip()]
        exchanges = []
        for line in lines:
            check(line.startswith("> ") or line.startswith("< "),
                  "docs/protocol.md: a line that is neither '> ' nor '< ': %r" % line)
            if line.startswith("> "):
                exchanges.append((line[2:], []))
            else:
                check(exchanges, "docs/protocol.md: a '< ' line before any '> ' line")
                exchanges[-1][1].append(line[2:])
        for sent, answers in exchanges:
            check(answers, "docs/protocol.md: %s has no '< ' reply" % sent)
        blocks.append(exchanges)
    check(blocks, "docs/protocol.md has no ```jsonl examples")
    return blocks


def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@test
def protocol_doc_examples_are_what_perch_answers(t):
    p = t.start_perch()
    for exchanges in documented_exchanges():
        replies = p.raw([sent for sent, _ in exchanges], reads=[len(answers) for _, answers in exchanges])
        expected_lines = [(sent, answer) for sent, answers in exchanges for answer in answers]
        check(len(replies) == len(expected_lines), "docs/protocol.md: %d lines documented, perch said %d: %s"
              % (len(expected_lines), len(replies), replies))
        for (sent, expected), got in zip(expected_lines, replies):
            check(compact(json.loads(expected)) == (got if isinstance(got, str) else compact(got)),
                  "docs/protocol.md example %s\n  documented: %s\n  perch said: %s"
                  % (sent, expected, got if isinstance(got, str) else compact(got)))


def doc_section(method):
    text = open(os.path.join(REPO, "docs", "protocol.md"), encoding="utf-8").read()
    return text.split("### `%s`" % method, 1)[1].split("\n#", 1)[0]


def one(p, line):
    """One request on its own connection: the sender of a notification
    hears its outcome, which must not be read as the next reply."""
    reply = p.raw([line])[0]
    check(isinstance(reply, dict) and "result" in reply, "%s got %r" % (line, reply))
    return reply


@test
def replies_the_examples_do_not_show_have_the_documented_members_in_order(t):
    p = t.start_perch()
    check(one(p, '{"id":1,"method":"subscribe"}') == {"id": 1, "result": {"subscribed": True}},
          "subscribe's reply")
    nid = one(p, '{"id":2,"method":"notify","params":{"title":"T","app":"a","timeout":0,'
                 '"actions":[{"id":"yes","label":"Yes"}],"category":"c","progress":5}}')["result"]["id"]
    got = compact(one(p, '{"id":3,"method":"invoke","params":{"id":%d,"action":"yes"}}' % nid))
    check(got == '{"id":3,"result":{"invoked":"yes"}}', "invoke's reply is %s" % got)

    def history():
        r = one(p, '{"id":4,"method":"history"}')
        return r if r["result"] else None
    r, _ = poll(history, 3.0, 0.05)
    check(r, "the invoked notification did not reach history")
    entry = r["result"][0]
    check(list(entry) == ["notification", "reason", "closed_at"],
          "a history entry's members are %s, documented notification, reason, closed_at" % list(entry))
    want = ('{"id":%d,"app":"a","title":"T","body":"","urgency":"normal","timeout":0,'
            '"actions":[{"id":"yes","label":"Yes"}],"category":"c","progress":5}' % nid)
    check(compact(entry["notification"]) == want,
          "history's notification is %s, expected %s (list's form)" % (compact(entry["notification"]), want))
    check(entry["reason"] == "dismissed-by-user", "reason %r" % entry["reason"])
    check(isinstance(entry["closed_at"], int) and abs(entry["closed_at"] - time.time()) < 60,
          "closed_at %r is not UNIX seconds of now" % entry["closed_at"])
    got = compact(one(p, '{"id":5,"method":"restore"}'))
    check(got == '{"id":5,"result":{"id":%d}}' % nid, "restore's reply is %s" % got)

    status = one(p, '{"id":6,"method":"status"}')["result"]
    documented = re.findall(r'"([a-z_]+)"', doc_section("status").split("Result:", 1)[1].split("(uptime", 1)[0])
    members = ["version", "shown", "queued", "history", "modes", "do_not_disturb", "held", "fullscreen", "idle",
               "blanked", "sharing", "holding", "outputs", "uptime", "inhibitors", "mode_ends", "snoozed"]
    output_members = ["name", "width", "height", "scale", "logical_width", "logical_height", "transform"]
    inhibitor_members = ["app", "reason"]
    check(documented == members[:-4] + output_members + members[-4:-2] + inhibitor_members + members[-2:],
          "docs/protocol.md lists status as %s" % documented)
    check(list(status) == members, "status's members are %s, documented %s" % (list(status), members))
    check([type(status[k]).__name__ for k in members] == ["str", "int", "int", "int", "list", "bool", "int", "bool",
                                                          "bool", "bool", "bool", "list", "list", "int", "list", "dict",
                                                          "int"],
          "status's members have the types %s" % {k: type(v).__name__ for k, v in status.items()})
    check(status["outputs"] and all(list(o) == output_members
                                    and all(isinstance(o[k], int) for k in ["width", "height", "logical_width", "logical_height"])
                                    and isinstance(o["scale"], (int, float)) and isinstance(o["transform"], str)
                                    for o in status["outputs"]),
          "status's outputs are %s, each documented as %s" % (status["outputs"], output_members))
    got = compact(one(p, '{"id":7,"method":"reload"}'))
    check(got == '{"id":7,"result":{"reloaded":true,"warnings":[]}}', "reload's reply is %s" % got)

    # `timeout` is listed even when the sender gave none: the display time in force.
    one(p, '{"id":8,"method":"notify","params":{"title":"U"}}')
    listed = [n for n in one(p, '{"id":9,"method":"list"}')["result"] if n["title"] == "U"]
    check(listed and listed[0].get("timeout") == 5,
          "a normal notification posted without a timeout should list \"timeout\":5, got %s" % listed)


# A daemon that answers each request with a scripted result and, after
# the reply, the scripted event lines: one connection per perchctl run.
FAKE_DAEMON = r"""
import json, os, socket, sys
path, script = sys.argv[1], json.loads(sys.argv[2])
os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(path)
server.listen(8)
print("ready", flush=True)
while True:
    conn, _ = server.accept()
    f = conn.makefile("rwb")
    for line in f:
        request = json.loads(line)
        answer = script[request["method"]]
        f.write(json.dumps({"id": request["id"], "result": answer["result"]}).encode() + b"\n")
        for event in answer.get("events", []):
            f.write(json.dumps(event).encode() + b"\n")
        f.flush()
    conn.close()
"""


def fake_daemon(t, script):
    """Starts the scripted daemon; returns the environment perchctl finds it with."""
    s = t.sway()
    env = s.env(XDG_RUNTIME_DIR=t.user_dir(), WAYLAND_DISPLAY="wayland-fake")
    path = os.path.join(env["XDG_RUNTIME_DIR"], "perch", "wayland-fake.sock")
    proc = s.popen([python3(), "-c", FAKE_DAEMON, path, json.dumps(script)], env=env, stdout=subprocess.PIPE)
    check(proc.stdout.readline().strip() == b"ready", "the scripted daemon did not start")
    return env


NOTIFICATION = {"id": 5, "app": "a", "title": "T", "body": "", "urgency": "low", "expires_at": 99}


@test
def perchctl_ignores_members_it_does_not_know_and_passes_them_on_with_json(t):
    env = fake_daemon(t, {
        "version": {"result": {"version": "9.9", "protocol": 1, "build": "abc"}},
        "list": {"result": [NOTIFICATION]},
        "notify": {"result": {"id": 5}, "events": [
            {"event": "grouped", "into": 1},
            {"event": "dismissed", "notification": NOTIFICATION, "reason": "expired", "seen": True}]},
    })
    s = t.sway()

    def ctl(*args):
        return s.run([os.path.join(t.bindir, "perchctl")] + list(args), env=env)
    r = ctl("version")
    check(r.returncode == 0 and r.stdout == "perch 9.9\n", "`perchctl version` printed %r %r" % (r.stdout, r.stderr))
    r = ctl("version", "--json")
    check(r.returncode == 0 and json.loads(r.stdout) == {"version": "9.9", "protocol": 1, "build": "abc"},
          "`perchctl version --json` should print the daemon's result whole, printed %r %r" % (r.stdout, r.stderr))
    r = ctl("list")
    check(r.returncode == 0 and r.stdout.splitlines()[1].split() == ["5", "low", "a", "T"],
          "`perchctl list` printed %r %r" % (r.stdout, r.stderr))
    r = ctl("list", "--json")
    check(r.returncode == 0 and json.loads(r.stdout) == [NOTIFICATION], "`perchctl list --json` printed %r" % r.stdout)
    r = ctl("post", "--wait", "T")
    check(r.returncode == 3 and r.stdout == "expired\n",
          "`perchctl post --wait` should skip the unknown event and exit 3 on expired, got %d %r %r"
          % (r.returncode, r.stdout, r.stderr))


@test
def perchctl_reports_a_reply_it_cannot_read_in_one_line(t):
    env = fake_daemon(t, {
        "status": {"result": {"version": "9.9", "queued": 0}},
        "dismiss": {"result": {"dismissed": ["1"]}},
        "history": {"result": {"entries": []}},
        "notify": {"result": {"id": 5}, "events": [{"event": "dismissed", "notification": NOTIFICATION}]},
    })
    s = t.sway()
    for args, why in [
        (["status"], 'status: "shown" is missing'),
        (["status", "--json"], 'status: "shown" is missing'),
        (["dismiss", "--all"], 'dismiss: "dismissed[0]" must be a notification id (a positive integer), not "1"'),
        (["history"], "history: the result must be an array, not an object"),
        (["post", "--wait", "T"], 'dismissed event: "reason" is missing'),
    ]:
        r = s.run([os.path.join(t.bindir, "perchctl")] + args, env=env)
        check(r.returncode == 1 and r.stdout == "" and r.stderr == "perchctl: unexpected reply from perch: %s\n" % why,
              "`perchctl %s` should exit 1 saying %r, got %d %r %r" % (" ".join(args), why, r.returncode, r.stdout, r.stderr))
