"""makoctl's spellings in perchctl, and the spec's semantics a mako user's
programs rely on: `sed s/makoctl/perchctl/` on a sway config keeps every
binding working; `perchctl dismiss` is the user's dismissal (reason 2,
at once); transient notifications stay out of history; do-not-disturb
gives back what it hid."""

import json
import subprocess
import time

from harness import SWAY17, check, poll, test
from test_actions import finish, start_waiter

COMPOSITORS = SWAY17
COMPOSITORS_WHY = "the control socket and D-Bus only"

# Bindings as they are written in sway configs for mako (mako's README,
# sway users' dotfiles), after `sed s/makoctl/perchctl/`.
SWAY_CONFIG = """
bindsym $mod+n exec makoctl dismiss
bindsym $mod+Shift+n exec makoctl dismiss --all
bindsym $mod+Ctrl+n exec makoctl dismiss -a
bindsym $mod+g exec makoctl dismiss -g
bindsym $mod+h exec makoctl dismiss --no-history
bindsym $mod+r exec makoctl restore
bindsym $mod+i exec makoctl invoke
bindsym $mod+m exec makoctl menu sh -c 'head -n 1'
bindsym $mod+d exec makoctl mode -t do-not-disturb
bindsym $mod+w exec makoctl mode -a work
bindsym $mod+Shift+w exec makoctl mode -r work
bindsym $mod+s exec makoctl mode -s default
bindsym $mod+l exec makoctl list
bindsym $mod+Shift+l exec makoctl history
bindsym $mod+Shift+r exec makoctl reload
"""


def ids(p):
    return [n["id"] for n in p.list()]


def history(p):
    return json.loads(p.ctl_ok("history", "--json"))


def post(p, title, app="app", extra=()):
    return int(p.ctl_ok("post", "--timeout", "0", "--app", app, *extra, title).strip())


@test
def makoctl_dismiss_spellings(t):
    p = t.start_perch()
    a = post(p, "A", app="mail")
    b = post(p, "B", app="chat")
    c = post(p, "C", app="mail")
    p.ctl_ok("dismiss")
    check(ids(p) == [a, b], "`dismiss` with no argument takes the newest (%d): %s" % (c, ids(p)))
    p.ctl_ok("dismiss", "-n", str(b))
    check(ids(p) == [a], "`dismiss -n ID` takes that one: %s" % ids(p))
    d = post(p, "D", app="mail")
    e = post(p, "E", app="chat")
    p.ctl_ok("dismiss", "-n", str(d), "-g")
    check(ids(p) == [e], "`dismiss -n ID -g` takes ID's app's group (%d, %d): %s" % (a, d, ids(p)))
    f = post(p, "F", app="chat")
    p.ctl_ok("dismiss", "-g")
    check(ids(p) == [], "`dismiss -g` takes the newest's group (%d, %d): %s" % (e, f, ids(p)))
    reasons = {h["notification"]["id"]: h["reason"] for h in history(p)}
    check(all(reasons.get(i) == "dismissed-by-user" for i in (a, b, c, d, e, f)),
          "each was dismissed by the user: %s" % reasons)
    g = post(p, "G")
    h = post(p, "H")
    p.ctl_ok("dismiss", "--all", "--no-history")
    check(ids(p) == [], "`dismiss --all` takes all: %s" % ids(p))
    kept = [x["notification"]["id"] for x in history(p)]
    check(g not in kept and h not in kept, "--no-history keeps them out of history: %s" % kept)
    post(p, "I")
    p.ctl_ok("dismiss", "-a", "-h")
    check(ids(p) == [] and len(history(p)) == 6, "`dismiss -a -h` (makoctl's -h is --no-history): %s %s"
          % (ids(p), [x["notification"]["title"] for x in history(p)]))
    r = p.ctl("dismiss")
    check(r.returncode == 1 and "no notification" in r.stderr, "`dismiss` with none on screen: %r" % (r,))
    r = p.ctl("dismiss", "--help")
    check(r.returncode == 0 and "no-history" in r.stdout, "`dismiss --help` still helps: %r" % r.stdout)


@test
def makoctl_invoke_and_menu(t):
    p = t.start_perch()
    waiter = start_waiter(t, p, "--timeout", "0", "--action", "default=Open", "--action", "later=Remind me",
                          "Meeting")
    poll(lambda: len(p.list()) == 1, 3.0, 0.05)
    p.ctl_ok("invoke")
    rc, out, _ = finish(waiter)
    check(rc == 0 and out.strip() == "default", "`invoke` runs the newest's default action: %s %r" % (rc, out))
    waiter = start_waiter(t, p, "--timeout", "0", "--action", "later=Remind me", "Meeting")
    poll(lambda: len(p.list()) == 1, 3.0, 0.05)
    p.ctl_ok("invoke", "later")
    rc, out, _ = finish(waiter)
    check(rc == 0 and out.strip() == "later", "`invoke ACTION` (makoctl) invokes it on the newest: %s %r" % (rc, out))
    # menu: the labels on the program's stdin, one per line; its first
    # line of output is the choice. This "program" picks the second.
    waiter = start_waiter(t, p, "--timeout", "0", "--action", "yes=Accept", "--action", "no=Decline",
                          "--action", "maybe=Tentative", "Invitation")
    poll(lambda: len(p.list()) == 1, 3.0, 0.05)
    nid = p.list()[0]["id"]
    seen = p.env["XDG_RUNTIME_DIR"] + "/menu-input"   # the session user writes it
    p.ctl_ok("menu", "-n", str(nid), "sh", "-c", "cat > %s; sed -n 2p %s" % (seen, seen))
    rc, out, _ = finish(waiter)
    check(rc == 0 and out.strip() == "no", "menu should invoke the chosen label's action (no): %s %r" % (rc, out))
    with open(seen) as f:
        labels = f.read()
    check(labels == "Accept\nDecline\nTentative\n", "menu should give the labels one per line: %r" % labels)
    # Nothing chosen (dmenu's Escape: exit 1): nothing invoked, exit 1.
    post(p, "Still here", extra=("--action", "ok=OK"))
    r = p.ctl("menu", "false")
    check(r.returncode == 1 and len(p.list()) == 1, "a menu that chose nothing: exit 1, nothing invoked: %r" % (r,))
    r = p.ctl("menu", "no-such-program-anywhere")
    check(r.returncode == 1 and "no-such-program-anywhere" in r.stderr, "a missing program says so: %r" % (r,))


@test
def makoctl_mode_spellings(t):
    p = t.start_perch()
    out = p.ctl_ok("mode", "-a", "work", "-t", "do-not-disturb").strip()
    check(out == "do-not-disturb work", "`mode -a work -t do-not-disturb` applies both in order: %r" % out)
    out = p.ctl_ok("mode", "-r", "work").strip()
    check(out == "do-not-disturb", "`mode -r work`: %r" % out)
    out = p.ctl_ok("mode", "-s", "a", "b").strip()
    check(out == "a b", "`mode -s a b` sets exactly those: %r" % out)
    out = p.ctl_ok("mode", "-s").strip()
    check(out == "(no modes)", "`mode -s` with no mode clears them: %r" % out)


@test
def a_sway_config_of_makoctl_bindings_works_after_sed(t):
    p = t.start_perch()
    commands = [line.split(" exec ", 1)[1].replace("makoctl", "perchctl")
                for line in SWAY_CONFIG.strip().splitlines()]
    failed = []
    for command in commands:
        # Something to act on for each binding.
        post(p, "For " + command, extra=("--action", "default=Open"))
        words = command.split(" ", 1)[1]
        r = t.sway().run(["sh", "-c", "%s/perchctl %s" % (t.bindir, words)], env=p.env, timeout=10)
        if r.returncode != 0:
            failed.append("%s: exit %d %s" % (command, r.returncode, r.stderr.strip()))
    check(not failed, "these bindings failed after sed s/makoctl/perchctl/:\n  " + "\n  ".join(failed))


@test
def perchctl_dismiss_sends_notification_closed_reason_2_at_once(t):
    from test_dbus import gdbus, start
    p, env = start(t)
    r = gdbus(t, env, "--method", "org.freedesktop.Notifications.Notify", "app", "0", "", "Dismiss me", "",
              "[]", "{}", "0")
    nid = int(r.stdout.strip().strip("(),").split()[-1])
    monitor = t.sway().popen(["gdbus", "monitor", "--session", "--dest", "org.freedesktop.Notifications"],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.5)
    import fcntl
    import os
    fcntl.fcntl(monitor.stdout, fcntl.F_SETFL, os.O_NONBLOCK)
    p.ctl_ok("dismiss", str(nid))
    sent = time.monotonic()
    want = "NotificationClosed (uint32 %d, uint32 2)" % nid
    seen = b""
    while time.monotonic() - sent < 3 and want.encode() not in seen:
        try:
            seen += monitor.stdout.read() or b""
        except (BlockingIOError, TypeError):
            pass
        time.sleep(0.01)
    took = time.monotonic() - sent
    monitor.terminate()
    check(want.encode() in seen, "perchctl dismiss should send %s; the bus saw:\n%s" % (want, seen.decode()))
    # The exit animation takes longer than this: the signal is not held
    # back until it ends.
    check(took < 0.25, "NotificationClosed should come at once, not after the exit animation: %.2f s" % took)


@test
def transient_notifications_stay_out_of_history_and_are_not_restored(t):
    from test_dbus import gdbus, start
    p, env = start(t)
    r = gdbus(t, env, "--method", "org.freedesktop.Notifications.Notify", "app", "0", "", "Volume 40 %", "",
              "[]", "{'transient': <true>}", "0")
    check(r.returncode == 0, "Notify failed: %r" % r.stderr)
    volume = int(r.stdout.strip().strip("(),").split()[-1])
    kept = post(p, "Mail")
    p.ctl_ok("dismiss", "-a")
    titles = [h["notification"]["title"] for h in history(p)]
    check(titles == ["Mail"], "only the non-transient one should be in history: %s" % titles)
    r = p.ctl("restore")
    check(r.returncode == 0 and int(r.stdout.strip()) == kept, "restore brings back Mail, not the transient: %r" % (r,))
    _ = volume


@test
def do_not_disturb_hides_what_is_on_screen_and_gives_it_back(t):
    from harness import CARD_LEFT, runs_in_column
    p = t.start_perch()
    post(p, "On screen before")
    x = CARD_LEFT + 100
    shown, _ = poll(lambda: runs_in_column(t.screenshot(), x) != [], 3.0, 0.1)
    check(shown, "the toast should show")
    p.ctl_ok("mode", "-t", "do-not-disturb")
    hidden, _ = poll(lambda: runs_in_column(t.screenshot(), x) == [], 3.0, 0.1)
    check(hidden, "do-not-disturb should take the toast off the screen")
    check([n["title"] for n in p.list()] == ["On screen before"], "but it stays live (listed): %s" % p.list())
    post(p, "While away")
    check([h["notification"]["title"] for h in history(p)] == ["While away"],
          "what arrives during do-not-disturb goes to history: %s" % history(p))
    p.ctl_ok("mode", "-t", "do-not-disturb")
    back, _ = poll(lambda: runs_in_column(t.screenshot(), x) != [], 3.0, 0.1)
    check(back, "ending do-not-disturb should bring the toast back")
    check([n["title"] for n in p.list()] == ["On screen before"], "listed as before: %s" % p.list())
