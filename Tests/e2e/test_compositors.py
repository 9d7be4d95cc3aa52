"""What newer compositors bring (issue 15): a stack whose output is
unplugged mid-slide, the cursor Perch names over toasts and buttons, a
fullscreen window, an idle seat, exact fractional scale. (A toast at every
anchor on each compositor is test_stack's.)"""

import os
import re
import time

from harness import (BG, CARD_FILL, IN_ROOT, MARGIN, NEW_SWAYS, SCREEN_H, SCREEN_W, SWAYS, CARD_W, check,
                     is_bg, poll, roughly, session_processes, test)
from pointer import pointer
from test_config import write_config


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


@test(compositors=NEW_SWAYS, why="`swaymsg output NAME unplug` is new in sway 1.8; sway 1.7's case is in "
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


@test(compositors=IN_ROOT, why="sway 1.7 does not offer wp_cursor_shape_v1")
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




def start_in_root(s, argv):
    """Starts argv from the compositor's own system (its Debian root's
    foot, wtype) in the background; stopped with the session."""
    import subprocess
    from harness import HEADLESS_SWAY, SID_ROOT_DIR, TRIXIE_ROOT_DIR
    p = subprocess.Popen([HEADLESS_SWAY, "rexec", s.dir, "--"] + list(argv),
                         env=dict(os.environ, PERCH_TRIXIE_ROOT=TRIXIE_ROOT_DIR, PERCH_SID_ROOT=SID_ROOT_DIR),
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    s.procs.append(p)
    return p


def card_region_is_plain(img, colour):
    """Whether the top-right card's place shows only `colour` (no card)."""
    for y in range(MARGIN, MARGIN + 60, 3):
        for x in range(SCREEN_W - MARGIN - CARD_W, SCREEN_W - MARGIN, 3):
            if not roughly(img.pixel(x, y), colour, tol=6):
                return False
    return True


@test(compositors=IN_ROOT, why="foot is in the Debian roots only (all of them report fullscreen windows "
                               "through wlr-foreign-toplevel v3; sway 1.7's case is the same code)")
def a_fullscreen_window_holds_a_normal_toast_shows_a_critical_one_and_the_held_one_comes_after(t):
    s = t.sway()
    p = t.start_perch()
    start_in_root(s, ["foot", "--fullscreen"])

    def fullscreen():
        img = t.screenshot()
        # foot's background everywhere but where its prompt is (top left).
        probe = img.pixel(SCREEN_W // 2, SCREEN_H // 2)
        ok = not roughly(probe, BG, tol=10) and roughly(img.pixel(SCREEN_W - 5, 5), probe, tol=6) \
            and roughly(img.pixel(SCREEN_W - 5, SCREEN_H - 5), probe, tol=6)
        return probe if ok else None
    foot_bg, _ = poll(fullscreen, 10.0, 0.2)
    check(foot_bg, "foot --fullscreen did not cover the output; compositor log:\n%s" % s.sway_log()[-1500:])
    time.sleep(0.3)   # the compositor's window list reaches perch
    held = p.post("Normal", "waits for fullscreen to end", timeout=3)
    time.sleep(1.5)
    img = t.screenshot()
    check(card_region_is_plain(img, foot_bg), "a normal toast must not show over a fullscreen window")
    check(held in [n["id"] for n in p.list()], "the held notification should be listed: %s" % p.list())
    from test_controlplane import ok
    st = ok(p, "status")
    check(st["fullscreen"] is True and st["held"] == 1 and st["queued"] == 0 and st["shown"] == 0,
          "status should say fullscreen, one held: %s" % {k: st[k] for k in ("fullscreen", "held", "queued", "shown")})
    critical = p.post("Critical", "shows anyway", timeout=0, urgency="critical")

    def critical_shows():
        return not card_region_is_plain(t.screenshot(), foot_bg)
    shown, _ = poll(critical_shows, 3.0, 0.1)
    check(shown, "a critical toast should show over the fullscreen window")
    time.sleep(3.5)   # longer than the held one's 3 s: its timer must not have run
    check(held in [n["id"] for n in p.list()], "the held notification's timer ran while it was held")
    for pid in session_processes(s, "foot"):
        os.kill(pid, 15)

    def two_cards():
        from harness import runs_in_column
        img = t.screenshot()
        runs = runs_in_column(img, SCREEN_W - MARGIN - CARD_W + 130)
        return runs if len(runs) == 2 and all(b - a > 30 for a, b in runs) else None
    runs, _ = poll(two_cards, 4.0, 0.1)
    check(runs, "when fullscreen ends the held toast should slide in beside the critical one; column shows %s"
          % __import__("harness").runs_in_column(t.shots[-1][1], SCREEN_W - MARGIN - CARD_W + 130))
    ids = {n["id"] for n in p.list()}
    check({held, critical} <= ids, "both should be listed: %s" % ids)
    # Shown at last, the held one runs its 3 s and leaves.
    gone, _ = poll(lambda: held not in {n["id"] for n in p.list()}, 6.0, 0.2)
    check(gone, "the held toast should expire once shown")


@test(compositors=IN_ROOT, why="ext_idle_notifier_v1: sway 1.7 does not offer it")
def idle_threshold_stops_display_timers_until_the_next_input(t):
    s = t.sway()
    path = write_config(t, "idle-threshold=1000\n")
    p = t.start_perch(args=("-c", path))
    nid = p.post("Idle", "waits for you", timeout=2)
    time.sleep(4.5)
    ids = [n["id"] for n in p.list()]
    check(nid in ids, "a 2 s toast should still be there after 4.5 s without input: %s" % ids)
    check(not card_region_is_plain(t.screenshot(), BG), "the toast should be on screen")
    from test_controlplane import ok
    check(ok(p, "status")["idle"] is True, "status should say idle")
    # Input again: wtype (a virtual keyboard) presses keys every 0.4 s, as a
    # user typing would; the seat is busy, so the timer runs out.
    t0 = time.monotonic()
    start_in_root(s, ["wtype"] + ["-k", "Shift_L", "-s", "400"] * 12)
    gone, _ = poll(lambda: nid not in [n["id"] for n in p.list()], 5.0, 0.1)
    took = time.monotonic() - t0
    t.notes.append("left %.2f s after the first key" % took)
    check(gone, "after input the toast should leave within its remaining 2 s; still listed after %.1f s" % took)
    check(took < 3.0, "it took %.1f s after the first key to leave (at most its 2 s plus start-up)" % took)


@test(compositors=NEW_SWAYS, why="a fractional scale set by IPC: sway 1.7 has integer scales only (its scale 2 "
                                    "case is test_icons' icon_svg_is_drawn_crisp_at_output_scale_2; labwc has no IPC for it)")
def at_scale_1_5_the_card_is_drawn_at_exactly_1_5(t):
    s = t.sway()
    # 1920x1080 at 1.5 is 1280x720 logical: the layout the other tests know,
    # in 1.5 times the pixels (grim captures it 1:1).
    r = s.swaymsg("output", "HEADLESS-1", "mode", "1920x1080", "scale", "1.5")
    check(r.returncode == 0, "swaymsg output mode/scale failed: %s" % r.stderr)
    from harness import Perch
    from test_controlplane import ok
    p = Perch(s, t.bindir, os.path.join(t.tmp, "perch.log"), env=s.env(WAYLAND_DEBUG="client"))
    t.perch = p
    p.wait_ready()
    out = ok(p, "status")["outputs"]
    check(len(out) == 1 and out[0]["scale"] == 1.5 and out[0]["width"] == 1920
          and (out[0]["logical_width"], out[0]["logical_height"]) == (1280, 720),
          "status should say 1920x1080 at scale 1.5, 1280x720 logical: %s" % out)
    p.post("Crisp", "at one and a half", timeout=30)
    # The card's white border, found on a row through it (the background
    # is no test of anything here: after a mode change sway 1.10 stretches
    # swaybg's one-pixel buffer into a vignette).
    y = 15 + 30

    def border():
        img = t.screenshot()
        white = [x for x in range(1920 - 700, 1920) if min(img.pixel(x, y)) >= 250]
        return (img, white) if white and white[0] == 1920 - 15 - 450 else None
    found, _ = poll(border, 4.0, 0.1)
    img = t.shots[-1][1]
    check(img.width == 1920, "the screenshot should be 1920 px wide: %d" % img.width)
    white = [x for x in range(1920 - 700, 1920) if min(img.pixel(x, y)) >= 250]
    # 300 surface px at 1.5 = 450 physical px; the 10 px margin is 15. The
    # border is 2 surface px: 3 whole white pixels on each side, crisp.
    check(found and white[:3] == [1455, 1456, 1457] and white[-3:] == [1902, 1903, 1904]
          and min(img.pixel(1458, y)) < 250 and min(img.pixel(1901, y)) < 250,
          "the card should span x 1455..1904 (450 px at 1.5, 15 px margin) with 3 px white borders; "
          "white pixels on row %d: %s" % (y, white[:5] + ["..."] + white[-5:] if white else white))
    log = p.log()
    widths = sorted({int(w) for w in re.findall(
        r"wl_shm_pool@\d+\.create_buffer\(new id wl_buffer@\d+, \d+, (\d+), \d+", log)})
    check(450 in widths and 600 not in widths,
          "the card's buffer should be 450 px wide (drawn at 1.5), not 600 scaled down; buffer widths %s" % widths)
    check(re.search(r"wp_viewport@\d+\.set_destination\(300, \d+\)", log),
          "the 450 px buffer should be shown at 300 surface px through wp_viewport")


@test(compositors=SWAYS, why="a second output needs swaymsg create_output")
def output_all_puts_a_copy_on_every_output_and_a_click_on_one_dismisses_the_notification(t):
    s = t.sway()
    r = s.swaymsg("create_output")
    check(r.returncode == 0, "swaymsg create_output failed: %s" % r.stderr)
    second = [o["name"] for o in s.outputs() if o["name"] != "HEADLESS-1"]
    check(len(second) == 1, "expected one new output: %s" % second)
    second = second[0]
    r = s.swaymsg("output", second, "resolution", "1280x720", "position", "1280", "0", "bg", "#336699", "solid_color")
    check(r.returncode == 0, "configuring %s failed: %r %r" % (second, r.stdout, r.stderr))
    placed, _ = poll(lambda: [o["rect"] for o in s.outputs() if o["name"] == second] == [
        {"x": 1280, "y": 0, "width": 1280, "height": 720}], 3.0, 0.1)
    check(placed, "%s did not become 1280x720 at x 1280" % second)
    time.sleep(0.3)   # its background drawn
    outputs = {o["name"]: o["rect"] for o in s.outputs()}
    path = write_config(t, "output=all\n")
    p = t.start_perch(args=("-c", path))
    nid = p.post("Everywhere", "on every output", timeout=30)
    left = SCREEN_W - MARGIN - CARD_W

    def on_both():
        boxes = [card_box(t.screenshot_output(name), left, MARGIN) for name in ("HEADLESS-1", second)]
        return boxes if all(b and b[0] == left and b[1] == MARGIN for b in boxes) else None
    boxes, _ = poll(on_both, 4.0, 0.1)
    check(boxes, "a copy should rest at the top right of HEADLESS-1 and of %s" % second)
    check(boxes[0] == boxes[1], "the copies should look the same: %s" % boxes)
    check([n["id"] for n in p.list()] == [nid], "one notification: %s" % p.list())
    # A left click on the second output's copy dismisses the notification:
    # both copies leave.
    # (The layout is given: perch-test-pointer may size it before sway has
    # told it of the new output's place.)
    x0 = outputs[second]["x"]
    pointer(s, t.bindir, "sleep", "0.3", "move", x0 + left + 150, MARGIN + 20, "sleep", "0.1", "click", "left",
            extent=(2560, 720))

    def gone():
        return all(card_box(t.screenshot_output(name), left, MARGIN) is None for name in ("HEADLESS-1", second))
    ok, _ = poll(gone, 3.0, 0.1)
    check(ok, "both copies should leave after a click on one")
    check(p.list() == [], "the notification should be dismissed: %s" % p.list())
    check(p.proc.poll() is None, "perch died: %s" % p.log()[-1500:])


@test(compositors=NEW_SWAYS, why="`swaymsg output NAME unplug` is new in sway 1.8")
def output_all_gives_an_output_that_comes_a_copy_and_lets_one_that_goes_take_its_copy(t):
    s = t.sway()
    path = write_config(t, "output=all\n")
    p = t.start_perch(args=("-c", path))
    nid = p.post("Everywhere", "outputs come and go", timeout=30)
    left = SCREEN_W - MARGIN - CARD_W

    def rests_on(name):
        box = card_box(t.screenshot_output(name), left, MARGIN)
        return box if box and box[0] == left and box[1] == MARGIN else None
    box, _ = poll(lambda: rests_on("HEADLESS-1"), 4.0, 0.1)
    check(box, "a copy should rest on HEADLESS-1")
    r = s.swaymsg("create_output")
    check(r.returncode == 0, "swaymsg create_output failed: %s" % r.stderr)
    second = [o["name"] for o in s.outputs() if o["name"] != "HEADLESS-1"][0]
    r = s.swaymsg("output", second, "resolution", "1280x720", "position", "1280", "0", "bg", "#336699", "solid_color")
    check(r.returncode == 0, "configuring %s failed: %r" % (second, r.stderr))
    box, _ = poll(lambda: rests_on(second), 4.0, 0.1)
    check(box, "the new output %s should get a copy of the toast on screen" % second)
    r = s.swaymsg("output", second, "unplug")
    check(r.returncode == 0, "unplug failed: %s" % r.stderr)
    time.sleep(0.5)
    check(rests_on("HEADLESS-1"), "the copy on HEADLESS-1 should stay when %s goes" % second)
    check(p.proc.poll() is None, "perch died: %s" % p.log()[-1500:])
    check([n["id"] for n in p.list()] == [nid], "the notification should still be listed: %s" % p.list())
