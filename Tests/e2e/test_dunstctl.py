"""dunstctl as it is, against Perch: Debian 12's dunstctl (dunst 1.9, the
host's /usr/bin/dunstctl) for every verb but `debug` (which insists on a
server named dunst), and Debian 13's (dunst 1.12.2) for what it adds,
both talking to org.dunstproject.cmd0 on Perch's bus connection; and
perchctl's spellings of the same verbs."""

import json
import os
import subprocess
import time

from harness import SWAY17, check, poll, test
from test_actions import finish, start_waiter
from test_dbus import start_bus
import dunst_112

COMPOSITORS = SWAY17
COMPOSITORS_WHY = "D-Bus and the control socket only"

DUNSTCTL = "/usr/bin/dunstctl"

# A dmenu that notes what it was offered, and chooses the last line.
MENU = """#!/bin/sh
cat > "%(offered)s.part"
mv "%(offered)s.part" "%(offered)s"
tail -n 1 "%(offered)s"
"""


def start(t, dunstrc):
    """A bus without activation (a call no one answers must not start
    the dunst installed here), and Perch on it reading `dunstrc`; returns
    (perch, env, the directory of the test's files)."""
    address = start_bus(t, activation=False)
    s = t.sway()
    d = t.user_dir()
    offered = os.path.join(d, "offered")
    menu = os.path.join(d, "menu.sh")
    with open(menu, "w") as f:
        f.write(MENU % {"offered": offered})
    os.chmod(menu, 0o755)
    path = os.path.join(d, "dunstrc")
    with open(path, "w") as f:
        f.write(dunstrc.replace("MENU", menu))
    os.chmod(path, 0o644)
    if os.geteuid() == 0:
        for p in (menu, path):
            os.chown(p, s.pw.pw_uid, s.pw.pw_gid)
        os.chown(d, s.pw.pw_uid, s.pw.pw_gid)
    env = s.env(DBUS_SESSION_BUS_ADDRESS=address)
    from harness import Perch
    p = Perch(s, t.bindir, os.path.join(t.tmp, "perch.log"), env=env, args=["-c", path])
    t.perch = p
    p.wait_ready()

    def owned():
        return dunstctl(t, env, "count", "displayed").returncode == 0
    ok, _ = poll(owned, 5.0, 0.1)
    check(ok, "dunstctl count never answered; log:\n%s" % p.log())
    return p, env, d


def dunstctl(t, env, *args, script=DUNSTCTL, timeout=5):
    return t.sway().run(["/bin/sh", script] + list(args), env=env, timeout=timeout)


def ok(t, env, *args, script=DUNSTCTL):
    r = dunstctl(t, env, *args, script=script)
    check(r.returncode == 0, "dunstctl %s failed (%d): %s %s" % (" ".join(args), r.returncode, r.stdout, r.stderr))
    return r.stdout


def counts(t, env, script=DUNSTCTL):
    out = ok(t, env, "count", script=script)
    got = {}
    for line in out.splitlines():
        key, _, value = line.partition(":")
        got[key.strip()] = int(value)
    return got


def post(p, title, *extra):
    return int(p.ctl_ok("post", "--timeout", "0", *extra, title).strip())


def ids(p):
    return [n["id"] for n in p.list()]


BASIC = """
[global]
    dmenu = MENU
    show_age_threshold = -1
[player]
    appname = player
    set_category = music
"""


@test
def dunstctl_counts_pauses_closes_and_brings_back(t):
    p, env, _ = start(t, BASIC)
    check(counts(t, env) == {"Waiting": 0, "Currently displayed": 0, "History": 0},
          "count on a fresh daemon: %s" % counts(t, env))
    a = post(p, "first")
    b = post(p, "second")
    c = post(p, "third")
    check(ok(t, env, "count", "displayed").strip() == "3", "count displayed: 3")
    check(ok(t, env, "is-paused").strip() == "false", "is-paused before pausing")
    ok(t, env, "set-paused", "true")
    check(ok(t, env, "is-paused").strip() == "true", "is-paused after set-paused true")
    check("do-not-disturb" in p.ctl_ok("mode"), "paused is do-not-disturb: %s" % p.ctl_ok("mode"))
    check(p.ctl_ok("is-paused").strip() == "true", "perchctl is-paused agrees")
    r = t.sway().run(["notify-send", "-a", "chat", "while paused"], env=env)
    check(r.returncode == 0, "notify-send: %s" % r.stderr)
    poll(lambda: counts(t, env)["History"] == 1, 3.0)
    check(counts(t, env)["History"] == 1, "a notification during the pause goes to history: %s" % counts(t, env))
    ok(t, env, "set-paused", "toggle")
    check(ok(t, env, "is-paused").strip() == "false", "set-paused toggle unpauses")
    ok(t, env, "set-paused", "true")
    ok(t, env, "set-paused", "false")
    check(ok(t, env, "is-paused").strip() == "false", "set-paused false unpauses")
    poll(lambda: counts(t, env)["Currently displayed"] == 3, 3.0)
    # close: the first toast on screen (dunst's list: the oldest at the top).
    ok(t, env, "close")
    check(ids(p) == [b, c], "dunstctl close takes the toast first on screen (%d): %s" % (a, ids(p)))
    ok(t, env, "close-all")
    check(ids(p) == [], "close-all leaves nothing: %s" % ids(p))
    check(ok(t, env, "count", "history").strip() == "4", "history holds 4: %s" % counts(t, env))
    ok(t, env, "close")  # nothing on screen: nothing to do, no error, as dunst
    # history-pop: the newest back, and sticky (dunst's sticky_history).
    ok(t, env, "history-pop")
    live = p.list()
    check([n["id"] for n in live] == [c] and live[0]["timeout"] == 0,
          "history-pop brings back the newest (%d), to stay: %s" % (c, live))
    ok(t, env, "history-pop", str(a))
    check(sorted(ids(p)) == sorted([a, c]), "history-pop ID brings back that one (%d): %s" % (a, ids(p)))
    check(p.ctl_ok("count", "waiting").strip() == "0", "perchctl count waiting")
    # The same order every run (a dictionary's would change with each).
    check(p.ctl_ok("count", "--json").strip() == '{"waiting":0,"displayed":2,"history":2}',
          "perchctl count --json, in dunstctl's order: %s" % p.ctl_ok("count", "--json"))
    p.ctl_ok("close-all")
    p.ctl_ok("history-pop", str(b))
    check(ids(p) == [b], "perchctl history-pop ID: %s" % ids(p))
    p.ctl_ok("close")
    check(ids(p) == [], "perchctl close: %s" % ids(p))
    check(p.ctl("history-pop", "99").returncode == 0, "history-pop of an id not in history does nothing, quietly")
    # A rule by its section's name.
    def category():
        r = t.sway().run(["notify-send", "-a", "player", "song"], env=env)
        check(r.returncode == 0, "notify-send: %s" % r.stderr)
        got, _ = poll(lambda: [n for n in p.list() if n["title"] == "song"], 3.0)
        check(got, "the song was not shown: %s" % p.list())
        p.ctl_ok("close-all")
        return got[0].get("category")
    check(category() == "music", "the [player] rule sets the category")
    ok(t, env, "rule", "player", "disable")
    check(category() is None, "dunstctl rule player disable switches it off")
    ok(t, env, "rule", "player", "toggle")
    check(category() == "music", "rule player toggle switches it on again")
    ok(t, env, "rule", "player", "disable")
    ok(t, env, "rule", "player", "enable")
    check(category() == "music", "rule player enable switches it on")
    check("dunstctl" in ok(t, env, "help") or "Commands" in ok(t, env, "help"), "dunstctl help")
    r = dunstctl(t, env, "rule", "nosuch", "enable")
    check(r.returncode != 0, "a rule that does not exist is an error: %s" % r.stdout)
    check(p.proc.poll() is None, "perch is still running")


@test
def dunstctl_action_and_context_use_the_dunstrc_dmenu(t):
    p, env, d = start(t, BASIC)
    offered = os.path.join(d, "offered")
    waiter = start_waiter(t, p, "--timeout", "0", "--action", "default=Open", "Open me")
    poll(lambda: len(p.list()) == 1, 3.0)
    ok(t, env, "action", "0")
    rc, out, err = finish(waiter)
    check(rc == 0 and out.strip() == "default", "action 0 invokes the default action: %r %r %r" % (rc, out, err))
    waiter = start_waiter(t, p, "--timeout", "0", "--action", "yes=Yes", "--action", "no=No", "Question")
    poll(lambda: len(p.list()) == 1, 3.0)
    nid = ids(p)[0]
    ok(t, env, "action", "0")
    rc, out, err = finish(waiter)
    check(rc == 0 and out.strip() == "no", "with two actions the menu chooses (its last line, no): %r %r %r"
          % (rc, out, err))
    with open(offered) as f:
        lines = f.read().splitlines()
    check(lines == ["#Yes (Question) [%d,yes]" % nid, "#No (Question) [%d,no]" % nid],
          "the menu is offered dunst's lines: %s" % lines)
    os.unlink(offered)
    first = start_waiter(t, p, "--timeout", "0", "--action", "a=Archive", "One")
    poll(lambda: len(p.list()) == 1, 3.0)
    second = start_waiter(t, p, "--timeout", "0", "--action", "r=Reply", "--action", "d=Delete", "Two")
    poll(lambda: len(p.list()) == 2, 3.0)
    ok(t, env, "context")
    rc, out, _ = finish(second)
    check(rc == 0 and out.strip() == "d", "context offers every toast's actions (the last chosen): %r" % out)
    with open(offered) as f:
        lines = f.read().splitlines()
    check(len(lines) == 3 and lines[0].startswith("#Archive (One)"), "context's lines: %s" % lines)
    r = dunstctl(t, env, "action", "5")
    check(r.returncode != 0, "an action past the toasts on screen fails")
    # perchctl's spellings do the same.
    os.unlink(offered)
    p.ctl_ok("context")
    poll(lambda: os.path.exists(offered), 3.0)
    rc, out, _ = finish(first)
    check(rc == 0 and out.strip() == "a", "perchctl context: %r" % out)
    check(p.ctl("action").returncode == 1, "perchctl action with nothing on screen: exit 1")


# dunstctl history's keys and types, as dunst 1.9 answers them (its
# src/dbus.c; `dunstctl_history_is_dunsts_own_format` checks them against
# dunst itself), which Perch gives with 1.12's three more.
DUNST_19_HISTORY = {"body": "s", "message": "s", "summary": "s", "appname": "s", "category": "s",
                    "default_action_name": "s", "icon_path": "s", "id": "i", "timestamp": "x",
                    "timeout": "x", "progress": "i"}


def history_json(t, env, script=DUNSTCTL):
    out = ok(t, env, "history", script=script)
    doc = json.loads(out)
    check(doc.get("type") == "aa{sv}", "dunstctl history's type: %s" % doc.get("type"))
    return doc["data"][0]


@test
def dunstctl_history_is_dunsts_own_format(t):
    # dunst 1.9 itself first, on a bus of its own, for its answer.
    s = t.sway()
    address = start_bus(t, activation=False)
    env = s.env(DBUS_SESSION_BUS_ADDRESS=address)
    dunst = s.popen(["/usr/bin/dunst"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    up, _ = poll(lambda: dunstctl(t, env, "count", "history").returncode == 0, 5.0, 0.1)
    check(up, "dunst 1.9 did not start")
    for title in ("from dunst", "and another"):
        r = s.run(["notify-send", "-a", "mail", "-c", "email.arrived", "-h", "int:value:40", title, "body <b>x</b>"],
                  env=env)
        check(r.returncode == 0, "notify-send to dunst: %s" % r.stderr)
    ok(t, env, "close-all")
    poll(lambda: dunstctl(t, env, "count", "history").stdout.strip() == "2", 3.0)
    theirs = history_json(t, env)
    dunst.terminate()
    dunst.wait(5)
    check(len(theirs) == 2, "dunst's history: %s" % theirs)
    types = {k: v["type"] for k, v in theirs[0].items()}
    check(all(types.get(k) == v for k, v in DUNST_19_HISTORY.items()),
          "dunst 1.9 answers with these keys and types: %s" % types)

    p, env, _ = start(t, BASIC)
    for title in ("from perch", "and another"):
        r = s.run(["notify-send", "-a", "mail", "-c", "email.arrived", "-h", "int:value:40", title, "body <b>x</b>"],
                  env=env)
        check(r.returncode == 0, "notify-send to perch: %s" % r.stderr)
    poll(lambda: len(p.list()) == 2, 3.0)
    ok(t, env, "close-all")
    ours = history_json(t, env)
    check(len(ours) == 2, "Perch's history: %s" % ours)
    for key, kind in types.items():
        check(ours[0].get(key, {}).get("type") == kind,
              "Perch's history entry has %s of type %s, as dunst's: %s" % (key, kind, ours[0].get(key)))
    # Newest first, with dunst's values.
    newest = ours[0]
    check(newest["summary"]["data"] == "and another" and ours[1]["summary"]["data"] == "from perch",
          "newest first: %s" % [e["summary"]["data"] for e in ours])
    check(newest["appname"]["data"] == "mail" and newest["category"]["data"] == "email.arrived"
          and newest["progress"]["data"] == 40 and newest["default_action_name"]["data"] == "default"
          and newest["urgency"]["data"] == "NORMAL",
          "the entry's values: %s" % newest)
    check(newest["message"]["data"].startswith("<b>and another</b>\nbody") or
          newest["message"]["data"].startswith("and another\nbody"),
          "message is the text as the toast shows it: %r" % newest["message"]["data"])


DUNST_112_RC = """
[global]
    dmenu = MENU
    show_age_threshold = -1
[player]
    appname = player
    set_category = music
    background = "#123456"
[quiet]
    summary = "*hush*"
    skip_display = yes
    enabled = no
"""


@test
def dunstctl_112_from_debian_13(t):
    script = dunst_112.dunstctl(t)
    p, env, d = start(t, DUNST_112_RC)
    a = post(p, "first")
    b = post(p, "second")
    check(counts(t, env, script) == {"Waiting": 0, "Currently displayed": 2, "History": 0},
          "1.12's count: %s" % counts(t, env, script))
    ok(t, env, "close", str(a), script=script)
    check(ids(p) == [b], "1.12's close ID closes that one: %s" % ids(p))
    ok(t, env, "close-all", script=script)
    ok(t, env, "history-rm", str(a), script=script)
    check([e["id"]["data"] for e in history_json(t, env, script)] == [b], "history-rm takes %d out" % a)
    ok(t, env, "history-clear", script=script)
    check(ok(t, env, "count", "history", script=script).strip() == "0", "history-clear empties history")
    # Pause levels: Perch's do-not-disturb is on for any level above 0.
    ok(t, env, "set-pause-level", "40", script=script)
    check(ok(t, env, "get-pause-level", script=script).strip() == "40", "get-pause-level after 40")
    check(dunstctl(t, env, "is-paused", "-e", script=script).returncode == 0, "is-paused -e while paused: 0")
    check("do-not-disturb" in p.ctl_ok("mode"), "a pause level is do-not-disturb")
    ok(t, env, "set-pause-level", "0", script=script)
    check(dunstctl(t, env, "is-paused", "-e", script=script).returncode == 1, "is-paused -e unpaused: 1")
    check(ok(t, env, "is-paused", script=script).strip() == "false", "is-paused unpaused")
    # Rules: listed (the text form goes through jq), switched by name.
    rules = json.loads(ok(t, env, "rules", "--json", script=script))["data"][0]
    named = {r["name"]["data"]: r for r in rules}
    check(set(named) == {"player", "quiet"}, "rules lists the file's rules, not [global]: %s" % sorted(named))
    check(named["player"]["enabled"]["data"] is True and named["quiet"]["enabled"]["data"] is False
          and named["player"]["bg"]["data"] == "#123456" and named["quiet"]["skip_display"]["data"] is True,
          "each rule as dunst lists it: %s" % named)
    text = ok(t, env, "rules", script=script)
    check("[player]" in text and "appname = player" in text, "rules as text: %s" % text)
    ok(t, env, "rule", "quiet", "enable", script=script)
    r = t.sway().run(["notify-send", "please hush now"], env=env)
    check(r.returncode == 0, "notify-send: %s" % r.stderr)
    poll(lambda: ok(t, env, "count", "history", script=script).strip() == "1", 3.0)
    check(ids(p) == [] and ok(t, env, "count", "history", script=script).strip() == "1",
          "the [quiet] rule, once enabled, keeps it off screen (skip_display)")
    # reload FILE with a FIFO: refused at once (never waiting for a
    # writer), the config in force stays.
    fifo = os.path.join(d, "fifo-dunstrc")
    os.mkfifo(fifo)
    t0 = time.monotonic()
    r = dunstctl(t, env, "reload", fifo, script=script)
    check(r.returncode != 0 and time.monotonic() - t0 < 3, "reload of a FIFO is refused at once: %d %s"
          % (r.returncode, r.stderr))
    check("is a FIFO" in p.log(), "the log says why: %s" % p.log()[-500:])
    check(ok(t, env, "count", "displayed", script=script).strip() == "0", "perch still answers")
    # reload FILE: another dunstrc from now on.
    other = os.path.join(d, "other-dunstrc")
    with open(other, "w") as f:
        f.write("[global]\n    show_age_threshold = -1\n[player]\n    appname = player\n    set_category = podcast\n")
    os.chmod(other, 0o644)
    ok(t, env, "reload", other, script=script)
    c = t.sway().run(["notify-send", "-a", "player", "episode"], env=env)
    check(c.returncode == 0, "notify-send: %s" % c.stderr)
    got, _ = poll(lambda: [n for n in p.list() if n["title"] == "episode"], 3.0)
    check(got and got[0].get("category") == "podcast", "after reload FILE, that file's rules: %s" % got)
    check("config: dunst's %s" % other in p.log(), "the reload says which file it read")
    check(p.proc.poll() is None, "perch is still running")
