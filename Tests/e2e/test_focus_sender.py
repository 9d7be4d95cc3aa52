"""A click brings the sender forward (issue 43, item 3): a notification
with no default action, clicked, activates its sender's window through
wlr-foreign-toplevel-management and leaves. Two foot windows with their own
app ids, the second focused; a notification whose `desktop-entry` hint
names the first, then one whose app name names the second; after each
click, sway's tree shows that window focused and the toast is gone.

foot is in the Debian roots only: these run where the compositor does."""

import json
import os
import time

from harness import CARD_LEFT, MARGIN, check, poll, test
from pointer import pointer
from test_compositors import start_in_root

COMPOSITORS = ("sway110", "sway112")
COMPOSITORS_WHY = "foot is in the Debian roots only, and swaymsg tells which window has the focus"


def views(s):
    """Every window in sway's tree: [(app_id, focused)]."""
    r = s.swaymsg("-t", "get_tree", "--raw")
    check(r.returncode == 0, "swaymsg -t get_tree failed: %r" % r.stderr)
    found = []

    def walk(node):
        if node.get("app_id") is not None or node.get("pid"):
            found.append((node.get("app_id"), node.get("focused", False)))
        for child in node.get("nodes", []) + node.get("floating_nodes", []):
            walk(child)
    walk(json.loads(r.stdout))
    return found


def focused_app(s):
    return next((app for app, focused in views(s) if focused), None)


def open_foot(s, app_id):
    """A foot window with `app_id`, which then has the focus."""
    start_in_root(s, ["foot", "--app-id=%s" % app_id, "--title=%s" % app_id, "sh", "-c",
                      "echo 'window %s'; exec sleep 600" % app_id])
    ok, _ = poll(lambda: focused_app(s) == app_id, 10.0, 0.1)
    check(ok, "foot --app-id=%s did not open with the focus; windows %s; compositor log:\n%s"
          % (app_id, views(s), s.sway_log()[-1500:]))


def click_toast(t, p, title):
    """Waits for the toast `title` to rest at the top right, then clicks it."""
    def listed():
        return [n["id"] for n in p.list() if n["title"] == title]
    ids, _ = poll(listed, 3.0, 0.05)
    check(ids, "%r is not listed: %s" % (title, p.list()))
    time.sleep(1.0)   # the slide in (0.7 s) is over
    shot = t.screenshot()
    click(t, "left")
    return ids[0], shot


def click(t, button):
    # A fresh virtual pointer needs a moment before perch has its
    # wl_pointer, then a move so that perch gets `enter` (test_actions).
    pointer(t.sway(), t.bindir, "sleep", "0.3", "move", CARD_LEFT + 150, MARGIN + 20, "sleep", "0.1",
            "click", button)


def before_and_after(before, after, rows=150):
    """The top `rows` of two screenshots, one above the other, with a
    white line between: the picture in the docs."""
    from harness import Image
    stride = before.width * 3
    line = b"\xff" * stride * 3
    return Image(before.width, rows * 2 + 3, before.data[:rows * stride] + line + after.data[:rows * stride])


@test
def a_click_on_a_notification_without_a_default_action_focuses_its_senders_window(t):
    from test_dbus import start
    s = t.sway()
    p, env = start(t, args=("-v",))
    # Title bars, so that the screenshots show which window has the focus
    # (sway's focused colour); the test reads it from sway's tree.
    r = s.swaymsg("default_border", "normal", "2")
    check(r.returncode == 0, "swaymsg default_border failed: %r" % r.stderr)
    open_foot(s, "one")
    open_foot(s, "two")
    time.sleep(0.3)   # the compositor's window list reaches perch

    # By its desktop entry: the app name says nothing of the window.
    r = s.run(["notify-send", "-a", "Mailer", "-t", "0", "--hint=string:desktop-entry:one",
               "From one", "no default action: a click brings its window forward"], env=env)
    check(r.returncode == 0, "notify-send failed: %r" % r.stderr)
    first, before = click_toast(t, p, "From one")
    ok, _ = poll(lambda: focused_app(s) == "one", 3.0, 0.05)
    check(ok, "after the click, the window 'one' should have the focus; windows %s; listed %s; perch log:\n%s"
          % (views(s), p.list(), p.log()[-1500:]))
    gone, _ = poll(lambda: first not in [n["id"] for n in p.list()], 3.0, 0.05)
    check(gone, "the clicked notification should be dismissed: %s" % p.list())
    time.sleep(0.9)   # its exit is over
    after = t.screenshot()
    # For the docs (docs/images/focus-sender-*.png): the toast over the
    # focused 'two', then 'one' focused and the toast gone.
    before.save_png(os.path.join(t.outdir, "focus-sender-before.png"))
    after.save_png(os.path.join(t.outdir, "focus-sender-after.png"))
    before_and_after(before, after).save_png(os.path.join(t.outdir, "focus-sender.png"))

    # By its app name; the focus goes back to 'two'.
    second = p.post("From two", "named by its app", app="two", timeout=0)
    click_toast(t, p, "From two")
    ok, _ = poll(lambda: focused_app(s) == "two", 3.0, 0.05)
    check(ok, "a click on the app 'two's notification should focus 'two'; windows %s" % views(s))
    gone, _ = poll(lambda: second not in [n["id"] for n in p.list()], 3.0, 0.05)
    check(gone, "the clicked notification should be dismissed: %s" % p.list())

    # No window of the sender: the click dismisses, no window is activated.
    third = p.post("From nobody", "no window", app="nobody", timeout=0)
    click_toast(t, p, "From nobody")
    gone, _ = poll(lambda: third not in [n["id"] for n in p.list()], 3.0, 0.05)
    check(gone, "a click with no window of the sender should still dismiss: %s" % p.list())
    check(focused_app(s) != "one", "no window should be activated: %s" % views(s))


@test
def a_default_action_wins_and_focus_is_a_binding_of_its_own(t):
    from harness import write_config
    from test_dbus import start
    s = t.sway()
    p, env = start(t, args=("-c", write_config(t, "on-button-middle=focus\n")))
    open_foot(s, "one")
    open_foot(s, "two")
    time.sleep(0.3)
    # A default action is invoked, as before; no window is activated.
    nid = p.post("With an action", app="one", timeout=0, extra=("--action", "default=Open"))
    click_toast(t, p, "With an action")
    gone, _ = poll(lambda: nid not in [n["id"] for n in p.list()], 3.0, 0.05)
    check(gone, "the default action's click should dismiss: %s" % p.list())
    time.sleep(0.3)
    check(focused_app(s) != "one", "a default action's click must not activate a window: %s" % views(s))
    # on-button-middle=focus, even with a default action.
    nid = p.post("Middle", app="one", timeout=0, extra=("--action", "default=Open"))
    time.sleep(1.0)
    click(t, "middle")
    ok, _ = poll(lambda: focused_app(s) == "one", 3.0, 0.05)
    check(ok, "on-button-middle=focus should focus 'one'; windows %s; perch log:\n%s"
          % (views(s), p.log()[-1500:]))
    gone, _ = poll(lambda: nid not in [n["id"] for n in p.list()], 3.0, 0.05)
    check(gone, "focus dismisses the notification it brought forward: %s" % p.list())
