"""What newer compositors bring (issue 15): every anchor on each compositor,
a stack whose output is unplugged mid-slide, and the cursor Perch names
over toasts and buttons."""

import os
import re
import time

from harness import (ALL, BG, CARD_FILL, MARGIN, SCREEN_H, SCREEN_W, CARD_W, check, is_bg, poll, roughly,
                     test)
from pointer import pointer
from test_config import write_config

ANCHORS = {
    "top-left": (MARGIN, MARGIN),
    "top-center": ((SCREEN_W - CARD_W) // 2, MARGIN),
    "top-right": (SCREEN_W - MARGIN - CARD_W, MARGIN),
    "bottom-left": (MARGIN, None),
    "bottom-center": ((SCREEN_W - CARD_W) // 2, None),
    "bottom-right": (SCREEN_W - MARGIN - CARD_W, None),
}


def card_box(img, x0, top):
    """The card whose left edge is at x0 and whose top (or, with top None,
    bottom) edge is at the margin: its (left, top, right, bottom) scanned
    from a point just inside that corner, or None."""
    y_probe = MARGIN + 12 if top is not None else SCREEN_H - MARGIN - 12
    if not roughly(img.pixel(x0 + 12, y_probe), CARD_FILL, tol=10):
        return None
    left = x0 + 12
    while left > 0 and not is_bg(img.pixel(left - 1, y_probe)):
        left -= 1
    right = x0 + 12
    while right < img.width - 1 and not is_bg(img.pixel(right + 1, y_probe)):
        right += 1
    t = y_probe
    while t > 0 and not is_bg(img.pixel(x0 + 12, t - 1)):
        t -= 1
    b = y_probe
    while b < img.height - 1 and not is_bg(img.pixel(x0 + 12, b + 1)):
        b += 1
    return left, t, right, b


@test(compositors=ALL)
def a_toast_rests_at_each_of_the_six_anchors(t):
    p = t.start_perch()
    for anchor in ANCHORS:
        p.ctl_ok("post", "--anchor", anchor, "--timeout", "30", anchor, "at its anchor")

    def all_at_rest():
        img = t.screenshot()
        boxes = {a: card_box(img, x0, top) for a, (x0, top) in ANCHORS.items()}
        ok = all(b is not None and b[0] == ANCHORS[a][0] and b[2] == ANCHORS[a][0] + CARD_W - 1 and
                 (b[1] == MARGIN if ANCHORS[a][1] is not None else b[3] == SCREEN_H - MARGIN - 1)
                 for a, b in boxes.items())
        return boxes if ok else None
    boxes, _ = poll(all_at_rest, 5.0, 0.1)
    img = t.shots[-1][1]
    check(boxes, "a %d px card should rest %d px from the edges at each anchor; found %s"
          % (CARD_W, MARGIN, {a: card_box(img, x0, top) for a, (x0, top) in ANCHORS.items()}))
    # Nothing else on screen: the middle is background.
    check(is_bg(img.pixel(SCREEN_W // 2, SCREEN_H // 2)), "the middle of the screen should be background")


@test(compositors=("sway110",), why="`swaymsg output NAME unplug` is new in sway 1.8; sway 1.7's case is in "
                                    "test_faults against the test compositor")
def a_stack_whose_output_is_unplugged_mid_slide_moves_to_the_remaining_output(t):
    s = t.sway()
    r = s.swaymsg("create_output")
    check(r.returncode == 0, "swaymsg create_output failed: %s" % r.stderr)
    names = [o["name"] for o in s.outputs()]
    second = [n for n in names if n != "HEADLESS-1"]
    check(len(second) == 1, "expected a second headless output: %s" % names)
    second = second[0]
    path = write_config(t, "output=%s\n" % second)
    p = t.start_perch(args=("-c", path))
    t0 = time.monotonic()
    nid = p.post("Moving house", "mid-slide", timeout=30)
    time.sleep(max(0, 0.3 - (time.monotonic() - t0)))
    r = s.swaymsg("output", second, "unplug")
    check(r.returncode == 0, "unplug failed: %s %s" % (r.stdout, r.stderr))

    def at_rest():
        img = t.screenshot_output("HEADLESS-1")
        box = card_box(img, SCREEN_W - MARGIN - CARD_W, MARGIN)
        return box if box and box[0] == SCREEN_W - MARGIN - CARD_W and box[1] == MARGIN else None
    box, _ = poll(at_rest, 4.0, 0.1)
    check(box, "after %s was unplugged 0.3 s into the slide, the toast should come to rest at the top "
          "right of HEADLESS-1; perch log:\n%s" % (second, p.log()[-1500:]))
    check(p.proc.poll() is None, "perch died: %s" % p.log()[-1500:])
    check([n["id"] for n in p.list()] == [nid], "the notification should still be listed: %s" % p.list())


@test(compositors=("sway110",), why="wp_cursor_shape_v1 is offered by sway 1.10 only of the three")
def the_cursor_is_an_arrow_over_a_toast_and_a_hand_over_a_button(t):
    s = t.sway()
    env = s.env(WAYLAND_DEBUG="client")
    from harness import Perch
    p = Perch(s, t.bindir, os.path.join(t.tmp, "perch.log"), env=env)
    t.perch = p
    p.wait_ready()
    p.ctl_ok("post", "--timeout", "30", "--action", "yes=Yes", "--action", "no=No", "Question", "Which?")
    time.sleep(1.2)   # at rest
    img = t.screenshot()
    card = card_box(img, SCREEN_W - MARGIN - CARD_W, MARGIN)
    check(card, "no card at the top right")
    y = card[3] - 10 - 12     # the button row
    buttons = [x for x in range(card[0] + 4, card[0] + 150)
               if not roughly(img.pixel(x, y), CARD_FILL, tol=8)]
    check(buttons, "no button pixels on the card's bottom row y=%d" % y)
    pointer(s, t.bindir, "sleep", "0.3", "move", card[0] + 150, card[1] + 12, "sleep", "0.3",
            "move", buttons[0] + 10, y, "sleep", "0.3")
    log = p.log()
    shapes = [int(m) for m in re.findall(r"wp_cursor_shape_device_v1@\d+\.set_shape\(\d+, (\d+)\)", log)]
    check(shapes[:1] == [1] and 4 in shapes,
          "entering the toast should set the default shape (1), moving onto a button the pointer hand (4); "
          "perch asked for %s" % shapes)
