"""Inline replies: a notification that offers `inline-reply`, answered
with `perchctl reply` or typed into its toast's reply field, reaches its
program as NotificationReplied and then closes as dismissed by the
user."""

import subprocess
import time

from harness import check, test
from harness import IN_ROOT, SWAY17
from test_dbus import gdbus, start

# Which compositors these tests run on (harness.test).
COMPOSITORS = SWAY17
COMPOSITORS_WHY = "D-Bus and the control socket only"


def notify(t, env, title, actions, hints="{}"):
    r = gdbus(t, env, "--method", "org.freedesktop.Notifications.Notify", "chat", "0", "", title, "",
              actions, hints, "0")
    check(r.returncode == 0, "Notify failed: %r" % r.stderr)
    return int(r.stdout.strip().strip("(),").split()[-1])


@test
def perchctl_reply_sends_notification_replied_then_closes_with_reason_2(t):
    p, env = start(t)
    r = gdbus(t, env, "--method", "org.freedesktop.Notifications.GetCapabilities")
    check(r.returncode == 0 and "'inline-reply'" in r.stdout,
          "GetCapabilities should list inline-reply: %r" % r.stdout)
    nid = notify(t, env, "Ann: lunch?", "['inline-reply', 'Reply']",
                 "{'x-kde-reply-placeholder-text': <'Answer Ann'>}")
    items = p.list()
    check(len(items) == 1 and items[0].get("reply_placeholder") == "Answer Ann",
          "list should show the placeholder hint: %r" % items)
    monitor = t.sway().popen(["gdbus", "monitor", "--session", "--dest", "org.freedesktop.Notifications"],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.5)
    p.ctl_ok("reply", str(nid), "from the command line")
    replied = "NotificationReplied (uint32 %d, 'from the command line')" % nid
    closed = "NotificationClosed (uint32 %d, uint32 2)" % nid
    time.sleep(1.0)
    monitor.terminate()
    out = monitor.communicate(timeout=5)[0].decode()
    check(replied in out and closed in out,
          "expected %s and %s on the bus; monitor saw:\n%s" % (replied, closed, out))
    check(out.index(replied) < out.index(closed), "NotificationReplied must come before NotificationClosed:\n%s" % out)
    check(p.list() == [], "the answered notification should be gone: %r" % p.list())


@test
def perchctl_reply_refuses_a_notification_without_inline_reply(t):
    p, env = start(t)
    nid = notify(t, env, "Build finished", "['default', 'Open']")
    r = p.ctl("reply", str(nid), "thanks")
    check(r.returncode == 1, "perchctl reply should exit 1, exited %d: %r %r" % (r.returncode, r.stdout, r.stderr))
    check("notification %d does not take replies (it has no \"inline-reply\" action)" % nid in r.stderr,
          "perchctl reply should say why: stderr=%r" % r.stderr)
    check([item["id"] for item in p.list()] == [nid], "the notification should stay: %r" % p.list())
    r = p.ctl("reply", "999", "hi")
    check(r.returncode == 1 and "no notification 999" in r.stderr, "reply to a missing id: %r" % r.stderr)


def type_hi_there_and_return(t, p, nid, monitor, where):
    """Types "hi there" and Return with wtype (into the field with the
    keyboard), then checks the bus heard NotificationReplied with that text
    before NotificationClosed reason 2, and that the notification is no
    longer live."""
    from harness import poll
    from test_compositors import start_in_root
    # wtype plugs in a virtual keyboard as it starts: the seat only then has
    # a keyboard, which perch binds a round trip later; keys sent at once
    # would go to no one, so it waits 0.3 s first (a real keyboard is there
    # all along).
    typer = start_in_root(t.sway(), ["wtype", "-s", "300", "hi there", "-k", "Return"])
    typer.wait(timeout=10)
    gone, _ = poll(lambda: p.list() == [], 3.0, 0.1)
    out = bus_signals(monitor)
    replied = "NotificationReplied (uint32 %d, 'hi there')" % nid
    closed = "NotificationClosed (uint32 %d, uint32 2)" % nid
    check(replied in out and closed in out and out.index(replied) < out.index(closed),
          "typing 'hi there' and Return in %s should send %s then %s; the bus saw:\n%s"
          % (where, replied, closed, out))
    check(gone, "the answered notification should no longer be live: %r" % p.list())


def bus_signals(monitor):
    monitor.terminate()
    return monitor.communicate(timeout=5)[0].decode()


@test(compositors=IN_ROOT, why="typing needs wtype, which is in the Debian roots")
def typing_in_the_reply_field_and_return_sends_the_reply(t):
    from harness import CARD_LEFT, poll
    from pointer import pointer
    from test_dbus import card_at_rest
    p, env = start(t)
    nid = notify(t, env, "Ann: lunch?", "['inline-reply', 'Reply']",
                 "{'x-kde-reply-placeholder-text': <'Answer Ann'>}")
    x = CARD_LEFT + 150
    bottom = card_at_rest(t)[0][1]
    monitor = t.sway().popen(["gdbus", "monitor", "--session", "--dest", "org.freedesktop.Notifications"],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.5)
    # The field is the card's last row: 28 px above the 10 px padding.
    pointer(t.sway(), t.bindir, "sleep", "0.3", "move", x, bottom - 10 - 14, "sleep", "0.1", "click", "left")
    time.sleep(0.3)
    check(p.list() and p.list()[0]["id"] == nid, "a click on the field must not dismiss the notification")
    type_hi_there_and_return(t, p, nid, monitor, "the field")


@test(compositors=IN_ROOT, why="typing needs wtype, which is in the Debian roots")
def a_reply_typed_in_the_centers_entry_is_sent(t):
    from harness import poll
    from pointer import pointer
    from test_center_panel import PANEL_LEFT, panel_shown
    p, env = start(t)
    nid = notify(t, env, "Bob: are you there?", "['inline-reply', 'Reply']")
    p.ctl_ok("center", "open")
    shown, _ = poll(lambda: panel_shown(t.screenshot()), 3.0, 0.1)
    check(shown, "the panel should be open")
    img = t.shots[-1][1]
    # The entry's card: its white top and bottom borders under the group
    # header; the field is its last row, 28 px above the 10 px padding.
    x = PANEL_LEFT + 100
    borders = [y for y in range(60, 400) if min(img.pixel(x, y)) >= 230]
    check(len(borders) >= 2, "the live entry's card should be drawn under its header: white rows %s" % borders)
    bottom = borders[-1]
    monitor = t.sway().popen(["gdbus", "monitor", "--session", "--dest", "org.freedesktop.Notifications"],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.5)
    pointer(t.sway(), t.bindir, "sleep", "0.3", "move", x + 50, bottom - 10 - 14, "sleep", "0.1", "click", "left")
    time.sleep(0.3)
    check(p.ctl_ok("center").strip() == "open", "a click on the field keeps the panel open")
    type_hi_there_and_return(t, p, nid, monitor, "the entry's field")
