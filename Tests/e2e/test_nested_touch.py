"""Touch through a real compositor: sway 1.10 and 1.12, labwc 0.8 and 0.20, nested in
perch-test-compositor (Tests/e2e/nested.py), route the touch the test
compositor injects to Perch with their own touch handling.

What a user sees is checked on the nested compositor's output as its
parent received it (its window): a horizontal drag pulls the toast along
with the finger, pixel for pixel; let go past a third of its width the
toast flies off and the sender hears dismissed-by-user; a short slow drag
let go springs back to its slot, and a tap then dismisses it.

Why these compositors matter: sway (seatop_down.c, 1.7 to 1.12) and
labwc (0.8, src/input/touch.c) keep a touch point's surface offset from
its touch-down and add the finger's movement to it, where Weston, KWin,
Mutter and the test compositor report against where the surface is now.
Perch moved the surface the finger was on, so on sway and labwc the toast
was pulled by the finger's movement plus its own offset and ran ahead of
the finger (+20, +60, +120, +200 px for a finger at +20, +40, +60, +80:
a short drag flung the toast away). A toast's input now holds still under
a finger (ToastInputSurface) and both kinds agree.

labwc nests and delivers touch like sway: no reason to leave it out.
Every compositor from a root runs them (the host's sway 1.7 cannot nest:
its wlroots needs linux-dmabuf or wl_drm from its parent). Each test
takes about 5 s per compositor.
"""

import os
import subprocess
import time

import nested
from harness import CARD_LEFT, CARD_TOP, IN_ROOT, TestFailure, check, find_card, test

COMPOSITORS = IN_ROOT
COMPOSITORS_WHY = "needs a compositor that can nest in the test compositor (a root's wlroots)"

STEP_GAP = 0.13      # between drag steps: > 100 ms, so no fling speed
PROBE_Y = CARD_TOP + 20


def setup(t):
    n = nested.attach(t)
    p = t.start_perch()
    return n, p


def start_waiter(t, p, *args):
    """`perchctl post --wait ARGS...` in the background."""
    return t.session.popen([os.path.join(t.bindir, "perchctl"), "post", "--wait"] + list(args),
                           env=p.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def finish(waiter, timeout=6):
    """(exit code, stdout); exit code None if it was still waiting."""
    try:
        out, _ = waiter.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        waiter.kill()
        out, _ = waiter.communicate()
        return None, out.decode()
    return waiter.returncode, out.decode()


def card_left(n):
    """The card's left edge in the window (None: no card on the row)."""
    card = find_card(n.window(), probe_y=PROBE_Y, x0=600)
    return card.left if card else None


def wait_left(n, want, timeout=1.5, what="the card"):
    """Waits for the card's left edge at `want`; fails naming what was seen."""
    seen = []
    deadline = time.monotonic() + timeout
    while True:
        left = card_left(n)
        if not seen or seen[-1] != left:
            seen.append(left)
        if left == want:
            return
        if time.monotonic() > deadline:
            raise TestFailure("%s should be at x=%s; seen %s" % (what, want, seen))
        time.sleep(0.02)


def post_and_wait_at_rest(t, n, p, title):
    waiter = start_waiter(t, p, "--timeout", "0", title, "body")
    wait_left(n, CARD_LEFT, timeout=5, what="the new toast at rest")
    return waiter


@test
def nested_touch_a_swipe_follows_the_finger_and_flings_the_toast_away(t):
    n, p = setup(t)
    tc = n.parent
    waiter = post_and_wait_at_rest(t, n, p, "Swipe me away")
    # The nested compositor's own output shows it too (grim on it).
    grim = find_card(t.screenshot(), probe_y=PROBE_Y)
    check(grim and grim.left == CARD_LEFT, "grim on %s should see the toast at x=%d: %s"
          % (t.compositor, CARD_LEFT, grim))
    x, y = CARD_LEFT + 150, PROBE_Y
    r = tc.touch_down(0, x, y)
    check(r["surface"] is not None, "the touch should land on the nested compositor's window: %s" % r)
    for off in range(20, 160, 20):
        time.sleep(STEP_GAP)
        tc.touch_motion(0, x + off, y)
        wait_left(n, CARD_LEFT + off, what="with the finger at +%d the card" % off)
    check(waiter.poll() is None, "the toast went before the finger lifted")
    time.sleep(STEP_GAP)
    tc.touch_up(0)
    lefts = []
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        left = card_left(n)
        lefts.append(left)
        if left is None:
            break
        time.sleep(0.02)
    t.notes.append("card left per window screenshot after release: %s" % lefts)
    check(lefts and lefts[-1] is None, "the toast should leave after the release: %s" % lefts)
    shown = [v for v in lefts if v is not None]
    check(all(b >= a for a, b in zip(shown, shown[1:])),
          "released at +140 it should slide off to the right: %s" % lefts)
    rc, out = finish(waiter)
    check(rc == 2 and out.strip() == "dismissed-by-user",
          "the swipe should dismiss (post --wait exit 2, dismissed-by-user); got %s %r" % (rc, out))
    check(p.list() == [], "nothing should be listed after the swipe: %s" % p.list())
    tc.check_no_protocol_errors()


@test
def nested_touch_a_short_drag_let_go_springs_back_and_a_tap_dismisses(t):
    n, p = setup(t)
    tc = n.parent
    waiter = post_and_wait_at_rest(t, n, p, "Spring")
    x, y = CARD_LEFT + 120, PROBE_Y
    tc.touch_down(0, x, y)
    for off in range(10, 80, 10):
        time.sleep(STEP_GAP)
        tc.touch_motion(0, x + off, y)
    wait_left(n, CARD_LEFT + 70, what="after a 70 px drag the card")
    time.sleep(0.2)                       # at rest under the finger: no speed
    t0 = time.monotonic()
    tc.touch_up(0)
    wait_left(n, CARD_LEFT, what="let go at +70, the card springing back")
    t.notes.append("back in its slot %.2f s after the release" % (time.monotonic() - t0))
    time.sleep(0.5)
    check(card_left(n) == CARD_LEFT, "the toast should stay in its slot after springing back")
    check(waiter.poll() is None, "a short drag should not dismiss the toast")
    check(len(p.list()) == 1, "the toast should still be listed: %s" % p.list())
    # A tap then dismisses it: the gesture was over with the release.
    tc.touch_down(3, x, y)
    tc.touch_up(3)
    rc, out = finish(waiter)
    check(rc == 2 and out.strip() == "dismissed-by-user",
          "a tap should dismiss (post --wait exit 2, dismissed-by-user); got %s %r" % (rc, out))
    wait_left(n, None, timeout=3, what="after the tap the card")
    check(p.list() == [], "nothing should be listed after the tap: %s" % p.list())
    tc.check_no_protocol_errors()
