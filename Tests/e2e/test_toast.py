"""What a toast looks like on screen, and when it goes away."""

import time

from harness import (ANIM_S, BG, CARD_FILL, CARD_LEFT, CARD_RIGHT, CARD_TOP,
                     SCREEN_W, check, find_card, first_non_bg_x, fmt, is_bg,
                     poll, roughly, test, whiteish)
from harness import ALL
from harness import write_config

# Which compositors these tests run on (harness.test).
COMPOSITORS = ALL

# The screen area a top-right toast may cover (and must give back).
TOAST_AREA = (CARD_LEFT - 30, 0, SCREEN_W - 1, 300)
PROBE_Y = CARD_TOP + 15   # a row through the card, below the rounded corners


def frames_text(frames):
    """'0.06s:-, 0.08s:1200, 0.10s..0.52s:970 (x20)' for (seconds, left) pairs."""
    out, i = [], 0
    while i < len(frames):
        j = i
        while j + 1 < len(frames) and frames[j + 1][1] == frames[i][1]:
            j += 1
        val = "-" if frames[i][1] is None else str(frames[i][1])
        if j == i:
            out.append("%.2fs:%s" % (frames[i][0], val))
        else:
            out.append("%.2fs..%.2fs:%s (x%d)" % (frames[i][0], frames[j][0], val, j - i + 1))
        i = j + 1
    return ", ".join(out)


def wait_fully_shown(t, timeout=ANIM_S + 2.0):
    """Poll screenshots until a card sits at its resting place."""
    def at_rest():
        img = t.screenshot()
        card = find_card(img, PROBE_Y)
        return (img, card) if card and card.left == CARD_LEFT else None
    v, waited = poll(at_rest, timeout)
    if not v:
        img = t.shots[-1][1]
        check(False, "no card came to rest with its left edge at x=%d within %.1fs; "
              "last screenshot: %s, row y=%d first non-background x=%s"
              % (CARD_LEFT, timeout, find_card(img, PROBE_Y), PROBE_Y,
                 first_non_bg_x(img, PROBE_Y)))
    return v[0], v[1], waited


def wait_area_clear(t, timeout):
    def clear():
        img = t.screenshot()
        ok, _ = img.region_is(TOAST_AREA, BG, tol=4)
        return ok
    ok, waited = poll(clear, timeout)
    return ok, waited


def area_report(img):
    _, bad = img.region_is(TOAST_AREA, BG, tol=4)
    card = find_card(img, PROBE_Y)
    return "first non-background pixel at (%d,%d) = %s; card: %s" % (
        bad[0], bad[1], fmt(bad[2]), card) if bad else "area is background"


@test
def toast_card_at_top_right(t):
    p = t.start_perch()
    img = t.screenshot()
    ok, bad = img.region_is(TOAST_AREA, BG)
    check(ok, "before posting, the top-right area should be plain background: %s"
          % (bad,))
    p.post("Hello from Perch", "A one-line body", timeout=30)
    img, card, _ = wait_fully_shown(t)

    mid = card.top + card.height // 2
    cx = (CARD_LEFT + CARD_RIGHT) // 2
    problems = []

    def expect(cond, what):
        if not cond:
            problems.append(what)

    expect(card.top == CARD_TOP, "top edge at y=%d, expected %d" % (card.top, CARD_TOP))
    expect(card.right == CARD_RIGHT, "right edge at x=%d, expected %d" % (card.right, CARD_RIGHT))
    expect(30 <= card.height <= 120, "height %d, expected 30..120 for a one-line body" % card.height)
    # Outside the card: background.
    for (x, y, what) in [(CARD_LEFT - 1, mid, "left of the card"),
                         (CARD_RIGHT + 1, mid, "right of the card"),
                         (cx, CARD_TOP - 1, "above the card"),
                         (cx, card.bottom + 1, "below the card")]:
        px = img.pixel(x, y)
        expect(is_bg(px), "%s (%d,%d) should be background, is %s" % (what, x, y, fmt(px)))
    # 2 px white border, checked at the middle of each edge.
    for (pts, what) in [([(cx, CARD_TOP), (cx, CARD_TOP + 1)], "top"),
                        ([(cx, card.bottom), (cx, card.bottom - 1)], "bottom"),
                        ([(CARD_LEFT, mid), (CARD_LEFT + 1, mid)], "left"),
                        ([(CARD_RIGHT, mid), (CARD_RIGHT - 1, mid)], "right")]:
        pxs = [img.pixel(x, y) for x, y in pts]
        expect(any(whiteish(px, 220) for px in pxs),
               "%s border %s should be white, is %s" % (
                   what, pts, ", ".join(fmt(px) for px in pxs)))
    # Corner radius: the very corner pixel is outside the rounded card.
    corner = img.pixel(CARD_LEFT, CARD_TOP)
    expect(not whiteish(corner, 220) and not roughly(corner, CARD_FILL, 12),
           "top-left corner (%d,%d) should be cut by the 10 px radius, is %s"
           % (CARD_LEFT, CARD_TOP, fmt(corner)))
    # Interior: black at 70 % over the background, in the padding strips.
    for (x, y) in [(CARD_LEFT + 5, mid), (CARD_RIGHT - 5, mid), (cx, card.bottom - 5)]:
        px = img.pixel(x, y)
        expect(roughly(px, CARD_FILL, 12),
               "interior (%d,%d) should be ~%s (black 70%% over background), is %s"
               % (x, y, fmt(CARD_FILL), fmt(px)))
    # Text: white-ish pixels inside the border.
    inner = (CARD_LEFT + 3, card.top + 3, CARD_RIGHT - 3, card.bottom - 3)
    n = img.count(inner, lambda px: whiteish(px, 200))
    expect(n >= 30, "expected text (>= 30 white-ish pixels inside the card), found %d" % n)
    check(not problems, "card %s: %s" % (card, "; ".join(problems)))


@test
def toast_slides_in_from_the_right(t):
    p = t.start_perch()
    t0 = time.monotonic()
    p.post("Sliding in", "watch me", timeout=30)
    frames = []   # (seconds since post, left edge or None, rightmost column is card)
    while time.monotonic() - t0 < ANIM_S + 0.6:
        img = t.screenshot()
        left = first_non_bg_x(img, PROBE_Y)
        frames.append((time.monotonic() - t0, left,
                       not is_bg(img.pixel(SCREEN_W - 1, PROBE_Y))))
    seq = frames_text([(s, l) for s, l, _ in frames])
    partial = [(s, l) for s, l, edge in frames
               if l is not None and CARD_LEFT < l < SCREEN_W - 1 and edge]
    check(partial, "no screenshot showed the card partly on screen (left edge right of "
          "x=%d, card reaching the screen's right edge); left edge per frame: %s"
          % (CARD_LEFT, seq))
    check(frames[-1][1] == CARD_LEFT,
          "after %.1fs the card should rest at x=%d; left edge per frame: %s"
          % (ANIM_S + 0.6, CARD_LEFT, seq))
    lefts = [l for _, l, _ in frames if l is not None]
    backwards = [(a, b) for a, b in zip(lefts, lefts[1:]) if b > a + 1]
    check(not backwards, "the card should only move left while sliding in; "
          "left edge per frame: %s" % seq)
    # Not instantaneous: partly shown for a while (0.7 s ease-out).
    check(partial[-1][0] - frames[0][0] >= 0.1 or len(partial) >= 2,
          "the slide looked instantaneous; left edge per frame: %s" % seq)


@test
def toast_goes_away_after_timeout(t):
    p = t.start_perch()
    p.post("Short-lived", "one second", timeout=1)
    _, _, shown_after = wait_fully_shown(t)
    t_shown = time.monotonic()
    # Still there shortly before the timer ends.
    time.sleep(0.6)
    img = t.screenshot()
    check(find_card(img, PROBE_Y) is not None,
          "the card vanished %.1fs after being fully shown, before its 1 s timeout"
          % (time.monotonic() - t_shown))
    budget = 1.0 + ANIM_S + 1.5 - (time.monotonic() - t_shown)
    ok, _ = wait_area_clear(t, budget)
    gone = time.monotonic() - t_shown
    check(ok, "%.1fs after the card was fully shown (timeout 1 s + 0.7 s exit) the area "
          "is not background: %s" % (gone, area_report(t.shots[-1][1])))
    check(gone >= 1.0, "the card disappeared %.2fs after being fully shown, before its "
          "1 s timeout" % gone)


@test
def toast_slides_out_to_the_right(t):
    p = t.start_perch()
    p.post("Leaving", "to the right", timeout=1)
    wait_fully_shown(t)
    frames = []
    t0 = time.monotonic()
    while time.monotonic() - t0 < 1.0 + ANIM_S + 1.5:
        img = t.screenshot()
        left = first_non_bg_x(img, PROBE_Y)
        frames.append((time.monotonic() - t0, left))
        if left is None:
            break
    lefts = [l for _, l in frames]
    seen = [l for l in lefts if l is not None]
    seq = frames_text(frames)
    check(lefts[-1] is None, "the card never left; left edge per frame: %s" % seq)
    check(any(CARD_LEFT < l < SCREEN_W - 1 for l in seen),
          "no screenshot showed the card part-way out to the right; left edge per frame: %s" % seq)
    check(all(b >= a - 1 for a, b in zip(seen, seen[1:])),
          "the card should only move right while sliding out; left edge per frame: %s" % seq)


@test
def dismiss_removes_toast_early(t):
    p = t.start_perch()
    nid = p.post("Dismiss me", "early", timeout=30)
    wait_fully_shown(t)
    t0 = time.monotonic()
    p.ctl_ok("dismiss", str(nid))
    ok, _ = wait_area_clear(t, ANIM_S + 1.5)
    took = time.monotonic() - t0
    check(ok, "%.1fs after `perchctl dismiss %d` (timeout 30 s) the area is not "
          "background: %s" % (took, nid, area_report(t.shots[-1][1])))


@test
def dismiss_all_clears_screen(t):
    p = t.start_perch()
    a = p.post("First", "one", timeout=30)
    b = p.post("Second", "two", timeout=30)
    check(a != b, "two posts returned the same id %d" % a)
    wait_fully_shown(t)
    p.ctl_ok("dismiss", "--all")
    ok, _ = wait_area_clear(t, ANIM_S + 1.5)
    check(ok, "after `perchctl dismiss --all` the area is not background: %s"
          % area_report(t.shots[-1][1]))
    got, _ = poll(lambda: p.list() == [], 1.0)
    check(got, "after dismiss --all, list --json should be [], is %r" % p.list())


# A critical card by default: #7a0c12 at 85 % over the background, in a
# #ff4d4d border (ToastStyle.critical).
CRITICAL_FILL = tuple(round(c * 0xd9 / 255 + b * (1 - 0xd9 / 255)) for c, b in zip((0x7a, 0x0c, 0x12), BG))
CRITICAL_BORDER = (0xff, 0x4d, 0x4d)


def card_colours(t, count):
    """(fill, border) of each of `count` cards at rest in the top-right
    column, top first: the fill just inside the right border, away from
    the text, and the outermost border pixel, both at the card's middle."""
    from harness import runs_in_column

    def probe():
        img = t.screenshot()
        runs = runs_in_column(img, CARD_RIGHT - 20)
        if len(runs) != count:
            return None
        # At rest: the right edge is in place on every card.
        mids = [(a + b) // 2 for a, b in runs]
        if any(is_bg(img.pixel(CARD_RIGHT, y)) or not is_bg(img.pixel(CARD_RIGHT + 1, y)) for y in mids):
            return None
        return [(img.pixel(CARD_RIGHT - 6, y), img.pixel(CARD_RIGHT, y)) for y in mids]
    colours, _ = poll(probe, 4.0, 0.1)
    check(colours, "expected %d cards at rest top-right" % count)
    return colours


@test
def critical_stands_out_by_default_and_a_config_colour_wins(t):
    path = write_config(t, "# nothing yet\n")
    p = t.start_perch(args=["-c", path])
    p.post("Low", "l", timeout=0, urgency="low")
    p.post("Normal", "n", timeout=0)
    p.post("Disk almost full", "critical", timeout=0, urgency="critical")
    colours = card_colours(t, 3)
    # The newest on top (sort=-time, the default).
    by_title = dict(zip(["Disk almost full", "Normal", "Low"], colours))
    fill, border = by_title["Disk almost full"]
    check(roughly(fill, CRITICAL_FILL, tol=6) and roughly(border, CRITICAL_BORDER, tol=6),
          "the critical card should be deep red %s in a red border %s; it is %s in %s, and the others %s"
          % (CRITICAL_FILL, CRITICAL_BORDER, fill, border, colours))
    for title in ("Low", "Normal"):
        fill, border = by_title[title]
        check(roughly(fill, CARD_FILL, tol=6) and whiteish(border),
              "the %s card should keep the plain look (%s, white border); it is %s in %s"
              % (title, CARD_FILL, fill, border))
    # A config that sets a colour gets it for critical too.
    p.ctl_ok("dismiss", "--all")
    with open(path, "w") as f:
        f.write("border-color=#00ff00\n")
    p.ctl_ok("reload")
    wait_area_clear(t, 3.0)
    p.post("Disk almost full", "critical", timeout=0, urgency="critical")
    ((fill, border),) = card_colours(t, 1)
    check(roughly(border, (0, 255, 0), tol=6),
          "with border-color=#00ff00 the critical card's border should be green, is %s" % (border,))
    check(roughly(fill, CRITICAL_FILL, tol=6),
          "the colour the config leaves alone keeps critical's default %s, is %s" % (CRITICAL_FILL, fill))
