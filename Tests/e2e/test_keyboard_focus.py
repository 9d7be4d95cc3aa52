"""The keyboard reaches the toasts: `perchctl focus` (for a compositor key
binding) gives them the keyboard with a ring on the newest; Up/Down move
it, Return invokes, 1-9 press buttons, Delete dismisses, Escape gives
the keyboard back to the window that had it. Keys come from wtype (a
virtual keyboard) and the window is foot, both from a Debian root on
every compositor: the compositor's own root, and for sway 1.7's session
the Debian 13 root, which reaches it through its runtime directory."""

import os
import subprocess
import time

from harness import ALL, CARD_LEFT, check, poll, roughly, runs_in_column, test
from harness import REPO, ROOT_OF, TRIXIE_ROOT_DIR
from test_dbus import X_PROBE

# Which compositors these tests run on (harness.test).
COMPOSITORS = ALL
COMPOSITORS_WHY = "layer-shell v5 (sway 1.12, labwc 0.20), v4 (sway 1.10, labwc 0.8) and v3 (sway 1.7)"

DEBIAN_ROOT = os.path.join(REPO, "scripts", "debian-root")


def from_root(t, argv):
    """Starts argv from a Debian root (its wtype, foot) in the test's
    session: the compositor's own root, or Debian 13's for the host's
    sway 1.7; stopped with the session."""
    s = t.sway()
    with open(os.path.join(s.dir, "wayland-display")) as f:
        display = f.read().strip()
    root = ROOT_OF.get(t.compositor, TRIXIE_ROOT_DIR)
    env = dict(os.environ, WAYLAND_DISPLAY=display, XDG_RUNTIME_DIR=s.dir)
    p = subprocess.Popen([DEBIAN_ROOT, "exec", root, s.dir] + list(argv), env=env,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    s.procs.append(p)
    return p


def press(t, *keys):
    """Presses keys with wtype: "-k NAME" for a named key, else text.
    wtype plugs in its keyboard as it starts; the seat's clients bind it a
    round trip later, so it waits 0.6 s before the first key (0.3 s, as
    the other tests wait, was seen too short on a loaded machine)."""
    argv = ["wtype", "-s", "600"]
    for key in keys:
        argv += ["-k", key[1:]] if key.startswith("@") else [key]
        argv += ["-s", "150"]
    typer = from_root(t, argv)
    typer.wait(timeout=15)


def start_foot(t):
    """A foot window running `cat > FILE`, which has the keyboard: what it
    is typed arrives in FILE. Returns the file's path."""
    path = os.path.join(t.sway().dir, "typed.txt")
    from_root(t, ["foot", "sh", "-c", "cat > %s" % path])

    def typed(text):
        try:
            with open(path) as f:
                return text in f.read()
        except OSError:
            return False
    # foot has the keyboard once a line typed reaches its cat.
    for _ in range(3):
        press(t, "ready", "@Return")
        if poll(lambda: typed("ready"), 3.0, 0.1)[0]:
            return path, typed
    check(False, "foot did not get the typed line 'ready' (compositor log:\n%s)" % t.sway().sway_log()[-1500:])


def post_waiting(t, p, title, *actions, extra=()):
    """Posts with --wait (in the background) and returns the process; its
    output is the outcome: the invoked action's id, or the dismissal."""
    args = [os.path.join(t.bindir, "perchctl"), "post", "--wait", "--timeout", "0"] + list(extra)
    for action in actions:
        args += ["--action", action]
    return t.sway().popen(args + [title, "body of %s" % title], env=p.env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)


def outcome(waiter, what):
    try:
        out, err = waiter.communicate(timeout=6)
    except subprocess.TimeoutExpired:
        waiter.kill()
        check(False, "%s: perchctl post --wait did not return" % what)
    return out.decode().strip()


def cards(t, count):
    """The cards' (top, bottom) runs once `count` are at rest."""
    runs, _ = poll(lambda: (lambda r: r if len(r) == count else None)(runs_in_column(t.screenshot(), X_PROBE)),
                   5.0, 0.1)
    check(runs, "expected %d cards, saw %s" % (count, runs_in_column(t.shots[-1][1], X_PROBE)))
    return runs


def ringed(img, run):
    """Whether the card whose column run is `run` has the focus ring: the
    ring is white inside the 2 px border, one pixel in (x = left + 3),
    where an unfocused card shows its fill."""
    y = (run[0] + run[1]) // 2
    return roughly(img.pixel(CARD_LEFT + 3, y), (255, 255, 255), tol=40)


def focus(p):
    return p.ctl_ok("focus").strip()


@test
def focus_down_and_return_invoke_the_second_toast_and_escape_gives_the_window_its_keyboard_back(t):
    p = t.start_perch()
    path, typed = start_foot(t)
    older = post_waiting(t, p, "Older", "default=Open")
    poll(lambda: len(p.list()) == 1, 3.0, 0.1)
    newer = post_waiting(t, p, "Newer", "default=Open")
    poll(lambda: len(p.list()) == 2, 3.0, 0.1)
    # (foot fills the output under the toasts: the ring's pixels are
    # checked in the tests without it.)
    ids = sorted(item["id"] for item in p.list())
    check(focus(p) == "toast %d" % ids[1], "perchctl focus should ring the newest toast (%d)" % ids[1])
    press(t, "@Down", "@Return")
    check(outcome(older, "Return") == "default", "Return should invoke the second toast's default action")
    check([item["id"] for item in p.list()] == [ids[1]], "only the newer toast should be left: %r" % p.list())
    # The ring went to the one left; Escape gives the keyboard back to foot.
    press(t, "@Escape")
    check([item["id"] for item in p.list()] == [ids[1]], "Escape must not dismiss the toast: %r" % p.list())
    press(t, "back in foot", "@Return")
    back, _ = poll(lambda: typed("back in foot"), 3.0, 0.1)
    check(back, "after Escape, foot should get the typed text again")
    newer.kill()


@test
def a_digit_presses_the_ringed_toasts_button_of_that_number(t):
    p = t.start_perch()
    waiter = post_waiting(t, p, "Question", "yes=Yes", "no=No", "later=Later")
    cards(t, 1)
    check(focus(p).startswith("toast "), "perchctl focus should ring the toast")
    press(t, "2")
    check(outcome(waiter, "2") == "no", "2 should press the second button (no)")


@test
def the_ringed_toasts_timer_waits_and_delete_dismisses_it(t):
    p = t.start_perch()
    first = p.post("Goes by itself", timeout=1.5)
    second = p.post("Stays while ringed", timeout=1.5)
    runs = cards(t, 2)
    check(focus(p) == "toast %d" % second, "perchctl focus should ring the newest toast")
    shown, _ = poll(lambda: ringed(t.screenshot(), runs[0]) and not ringed(t.shots[-1][1], runs[1]), 3.0, 0.1)
    check(shown, "the focus ring should be drawn on the newest (top) toast only")
    # The other one's time runs out; the ringed one waits.
    gone, _ = poll(lambda: [item["id"] for item in p.list()] == [second], 6.0, 0.2)
    check(gone, "the toast without the ring should expire: %r" % p.list())
    time.sleep(1.0)
    check([item["id"] for item in p.list()] == [second], "the ringed toast should wait: %r" % p.list())
    press(t, "@Delete")
    left, _ = poll(lambda: p.list() == [], 3.0, 0.1)
    check(left, "Delete should dismiss the ringed toast: %r" % p.list())
    check(first != second and focus(p) == "none", "with no toast left, nothing has the keyboard")


@test
def up_and_down_move_the_ring_between_the_toasts_in_screen_order(t):
    p = t.start_perch()
    p.post("Older", timeout=0)
    p.post("Newer", timeout=0)
    runs = cards(t, 2)
    focus(p)
    shown, _ = poll(lambda: ringed(t.screenshot(), runs[0]) and not ringed(t.shots[-1][1], runs[1]), 3.0, 0.1)
    check(shown, "the focus ring should be drawn on the newest (top) toast only")
    press(t, "@Down")
    moved, _ = poll(lambda: ringed(t.screenshot(), runs[1]) and not ringed(t.shots[-1][1], runs[0]), 3.0, 0.1)
    check(moved, "Down should move the ring to the lower toast")
    press(t, "@Up")
    back, _ = poll(lambda: ringed(t.screenshot(), runs[0]) and not ringed(t.shots[-1][1], runs[1]), 3.0, 0.1)
    check(back, "Up should move the ring back to the top toast")


@test
def with_the_center_open_focus_gives_the_panel_the_keyboard(t):
    from test_center_panel import history_ids, panel_shown
    p = t.start_perch()
    for i in range(3):
        p.post("Build %d" % i, "finished", timeout=0.5, app="CI")
    poll(lambda: p.list() == [], 6.0, 0.2)
    p.ctl_ok("center", "open")
    shown, _ = poll(lambda: panel_shown(t.screenshot()), 3.0, 0.1)
    check(shown, "the panel should be open")
    check(focus(p) == "center", "perchctl focus should give the open center the keyboard")
    # The ring starts on the newest entry (3); Down moves it to 2.
    press(t, "@Down", "@Delete")
    left, _ = poll(lambda: history_ids(p) == [3, 1], 3.0, 0.1)
    check(left, "Delete should take out entry 2, the one ringed after Down: %s" % history_ids(p))
    press(t, "@Escape")
    closed, _ = poll(lambda: p.ctl_ok("center").strip() == "closed", 3.0, 0.1)
    check(closed, "Escape should close the center")


@test
def a_click_elsewhere_gives_the_window_its_keyboard_back(t):
    from pointer import pointer
    p = t.start_perch()
    path, typed = start_foot(t)
    nid = p.post("Ringed", timeout=0)
    poll(lambda: len(p.list()) == 1, 3.0, 0.1)
    check(focus(p) == "toast %d" % nid, "perchctl focus should ring the toast")
    # On foot, far from the toast.
    pointer(t.sway(), t.bindir, "sleep", "0.3", "move", 400, 400, "sleep", "0.1", "click", "left", "sleep", "0.2")
    press(t, "after the click", "@Return")
    back, _ = poll(lambda: typed("after the click"), 3.0, 0.1)
    check(back, "after a click elsewhere, foot should get the typed text again")
    check([item["id"] for item in p.list()] == [nid], "the click must not dismiss the toast: %r" % p.list())
