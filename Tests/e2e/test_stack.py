"""Many toasts: stacking at every side, the queue marker, reflow, banners."""

import time

from harness import (BG, CARD_LEFT, CARD_W, MARGIN, SCREEN_H, SCREEN_W, check, is_bg, poll,
                     runs_in_column, runs_in_row, test)
from harness import ALL

# Which compositors these tests run on (harness.test).
COMPOSITORS = ALL

SETTLE = 0.7 + 0.3 + 0.4   # entry + reflow + slack


def at_rest_horizontally(img, runs, left=CARD_LEFT):
    """Every card crossing the column has its left border at `left`."""
    rows = [runs_in_row(img, (top + bottom) // 2, max(0, left - 40)) for top, bottom in runs]
    return all(row and row[0][0] == left for row in rows)


def column_runs(t, x, settle_check, left=CARD_LEFT):
    """Screenshots until `settle_check(runs)` holds and the cards are at
    rest horizontally (left border at `left`); returns the runs."""
    def probe():
        img = t.screenshot()
        runs = runs_in_column(img, x)
        if not settle_check(runs):
            return None
        return runs if left is None or at_rest_horizontally(img, runs, left) else None
    runs, _ = poll(probe, 5.0, 0.05)
    return runs or runs_in_column(t.shots[-1][1], x)


def non_overlapping(runs, gap=10):
    return all(b[0] - a[1] - 1 >= gap - 1 for a, b in zip(runs, runs[1:]))


@test
def three_toasts_stack_at_top_right_without_overlap(t):
    p = t.start_perch()
    for i in range(3):
        p.post("Toast %d" % i, "body of toast %d" % i, timeout=30)
    x = CARD_LEFT + CARD_W // 2
    runs = column_runs(t, x, lambda r: len(r) == 3 and r[0][0] == MARGIN)
    check(len(runs) == 3, "expected 3 cards in column x=%d, found runs %s" % (x, runs))
    check(runs[0][0] == MARGIN, "the newest card should start %d px from the top, starts at y=%d"
          % (MARGIN, runs[0][0]))
    check(non_overlapping(runs), "cards overlap or touch: %s" % runs)
    img = t.shots[-1][1]
    for top, _ in runs:
        check(img.pixel(x, top + 1) == (255, 255, 255), "no white top border at (%d,%d)" % (x, top + 1))


ANCHORS = ("top-left", "top-center", "top-right", "bottom-left", "bottom-center", "bottom-right")


def anchor_box(anchor):
    """(left, top or None, bottom or None) where a card at rest at `anchor`
    sits: `margin` from the edges it is anchored to, centred otherwise."""
    vertical, horizontal = anchor.split("-")
    left = {"left": MARGIN, "center": (SCREEN_W - CARD_W) // 2,
            "right": SCREEN_W - MARGIN - CARD_W}[horizontal]
    if vertical == "top":
        return left, MARGIN, None
    return left, None, SCREEN_H - MARGIN - 1


@test
def a_toast_at_each_anchor_rests_at_its_corner_or_edge(t):
    p = t.start_perch()
    for anchor in ANCHORS:
        p.post("At %s" % anchor, "a toast anchored %s" % anchor, timeout=30, extra=["--anchor", anchor])

    def where(img):
        """anchor -> (left, right, top, bottom) of the card found there."""
        found = {}
        for anchor in ANCHORS:
            left, top, bottom = anchor_box(anchor)
            for a, b in runs_in_column(img, left + CARD_W // 2):
                if (top is not None and a == top) or (bottom is not None and b == bottom):
                    for l, r in runs_in_row(img, (a + b) // 2):
                        if l <= left + CARD_W // 2 <= r:
                            found[anchor] = (l, r, a, b)
        return found

    def settled():
        img = t.screenshot()
        found = where(img)
        return all(found.get(a, (None,))[0] == anchor_box(a)[0] for a in ANCHORS) and found
    found, _ = poll(settled, 5.0, 0.05)
    found = found or where(t.shots[-1][1])
    for anchor in ANCHORS:
        left, top, bottom = anchor_box(anchor)
        want = "x %d..%d, %s" % (left, left + CARD_W - 1, "top %d" % top if top is not None else "bottom %d" % bottom)
        check(anchor in found, "no card at rest at %s (%s); found %r" % (anchor, want, found))
        l, r, a, b = found[anchor]
        check((l, r) == (left, left + CARD_W - 1),
              "the %s card spans x %d..%d, expected %s" % (anchor, l, r, want))
        check(b - a + 1 >= 40, "the %s card is only %d px tall: %r" % (anchor, b - a + 1, found[anchor]))


@test
def three_toasts_stack_upwards_at_bottom_left(t):
    p = t.start_perch()
    for i in range(3):
        p.post("Toast %d" % i, timeout=30, extra=["--anchor", "bottom-left"])
    x = MARGIN + CARD_W // 2

    runs = column_runs(t, x, lambda r: len(r) == 3 and r[-1][1] == SCREEN_H - MARGIN - 1, left=MARGIN)
    check(len(runs) == 3, "expected 3 cards in column x=%d, found runs %s" % (x, runs))
    check(runs[-1][1] == SCREEN_H - MARGIN - 1,
          "the newest card should end %d px above the bottom edge, ends at y=%d" % (MARGIN, runs[-1][1]))
    check(non_overlapping(runs), "cards overlap or touch: %s" % runs)
    row = runs_in_row(t.shots[-1][1], (runs[0][0] + runs[0][1]) // 2)
    check(row and row[0][0] == MARGIN and row[0][1] == MARGIN + CARD_W - 1,
          "cards should span x %d..%d, row runs %s" % (MARGIN, MARGIN + CARD_W - 1, row))


@test
def more_marker_counts_the_queue(t):
    p = t.start_perch(args=["--max-visible", "5"])
    for i in range(7):
        p.post("Toast %d" % i, timeout=30)
    # The marker is right-aligned under the fifth card.
    x = SCREEN_W - MARGIN - 20
    runs = column_runs(t, x, lambda r: len(r) == 6, left=None)
    check(len(runs) == 6, "expected 5 cards and a marker in column x=%d, found %s" % (x, runs))
    marker = runs[5]
    height = marker[1] - marker[0] + 1
    check(15 <= height <= 40, "the marker should be a small card, is %d px high" % height)
    img = t.shots[-1][1]
    # It holds text ("+2 more"): light pixels inside.
    light = img.count((SCREEN_W - 200, marker[0], SCREEN_W - MARGIN - 1, marker[1]),
                      lambda px: min(px) > 160)
    check(light > 20, "no text in the marker (found %d light pixels)" % light)
    check(len(p.list()) == 7, "list should report all 7 (5 shown, 2 queued)")


@test
def dismissing_the_middle_toast_moves_the_lower_one_up(t):
    p = t.start_perch()
    ids = [p.post("Toast %d" % i, timeout=30) for i in range(3)]
    x = CARD_LEFT + CARD_W // 2
    before = column_runs(t, x, lambda r: len(r) == 3 and r[0][0] == MARGIN)
    check(len(before) == 3, "setup: expected 3 cards, found %s" % before)
    p.ctl_ok("dismiss", str(ids[1]))   # the middle one (newest is on top)
    after = column_runs(t, x, lambda r: len(r) == 2 and r[1][0] == before[1][0])
    check(len(after) == 2, "expected 2 cards after dismissing the middle one, found %s" % after)
    check(after[1][0] == before[1][0],
          "the lower card should have moved up into the freed slot (y=%d), is at y=%d (was %d)"
          % (before[1][0], after[1][0], before[2][0]))


@test
def banner_spans_the_output_width(t):
    p = t.start_perch()
    p.post("A banner", "across the top", timeout=30, extra=["--style", "banner"])
    def full_strip():
        img = t.screenshot()
        y = 10
        return img if not is_bg(img.pixel(0, y)) and not is_bg(img.pixel(SCREEN_W - 1, y)) else None
    img, _ = poll(full_strip, 3.0, 0.05)
    check(img, "no strip touching both sides of the output at y=10")
    row = runs_in_row(img, 3)
    check(row == [(0, SCREEN_W - 1)], "the banner row y=3 should be one run over the whole width, is %s" % row)
    check(is_bg(img.pixel(SCREEN_W // 2, 150)), "the banner should be a strip, not fill the screen")


@test
def hovered_toast_does_not_expire_and_leaves_after_the_pointer_does(t):
    from pointer import HeldPointer
    p = t.start_perch()
    p.post("Hover me", "I stay while the pointer is over me", timeout=2)
    x = CARD_LEFT + 50   # away from the cursor sprite
    shown = column_runs(t, x, lambda r: len(r) == 1 and r[0][0] == MARGIN)
    check(len(shown) == 1, "setup: the toast did not come to rest, runs %s" % shown)
    with HeldPointer(t.sway(), t.bindir) as pointer:
        pointer.send("move 1100 40")
        hovered_at = time.monotonic()
        time.sleep(4.0)
        runs = runs_in_column(t.screenshot(), x)
        check(runs == shown, "a hovered toast with a 2 s timeout was gone (or moved) after 4 s "
              "of hover: runs %s, expected %s" % (runs, shown))
        pointer.send("move 300 500")
        left_at = time.monotonic()
        gone, waited = poll(lambda: runs_in_column(t.screenshot(), x) == [], 2 + 0.7 + 1.5, 0.1)
        check(gone, "the toast was still there %.1f s after the pointer left" % waited)
        # It had 2 s minus what ran before the hover; it must not vanish at once.
        check(waited > 0.5, "the toast left %.2f s after the pointer did: its timer did not "
              "keep the time that was left" % waited)
        t.notes.append("hovered %.1f s; left %.2f s after the pointer" % (left_at - hovered_at, waited))


def context_switches(pid):
    with open("/proc/%d/status" % pid) as f:
        return sum(int(line.split()[1]) for line in f if "ctxt_switches" in line)


@test
def idle_daemon_makes_no_wakeups(t):
    p = t.start_perch()
    p.post("Resting", "nothing moves now", timeout=0)
    p.post("Also resting", timeout=0)
    x = CARD_LEFT + CARD_W // 2
    column_runs(t, x, lambda r: len(r) == 2 and r[0][0] == MARGIN)
    time.sleep(0.5)   # the last frame callback of the animation
    before = context_switches(p.proc.pid)
    time.sleep(3)
    woke = context_switches(p.proc.pid) - before
    check(woke == 0, "perch woke up %d times in 3 s with nothing moving and no timer due" % woke)


@test
def replace_updates_in_place_without_a_new_entry(t):
    p = t.start_perch()
    nid = p.post("Downloading", "10 %", timeout=0)
    x = CARD_LEFT + CARD_W // 2
    before = column_runs(t, x, lambda r: len(r) == 1 and r[0][0] == MARGIN)
    check(len(before) == 1, "setup: the toast did not come to rest: %s" % before)
    time.sleep(0.8)
    out = p.ctl_ok("post", "--replace", str(nid), "Downloading",
                   "90 % — almost there, and this body is now long enough to wrap onto more lines").strip()
    check(out == str(nid), "a replacement should keep id %d, perchctl printed %r" % (nid, out))
    img = t.screenshot()
    row = runs_in_row(img, MARGIN + 15, CARD_LEFT - 50)
    check(row and row[0][0] == CARD_LEFT,
          "right after the replacement the card should still rest at x=%d (no new entry), row runs %s"
          % (CARD_LEFT, row))
    after = column_runs(t, x, lambda r: len(r) == 1 and r[0][1] > before[0][1])
    check(len(after) == 1 and after[0][1] > before[0][1],
          "the longer body should make the card taller: before %s, after %s" % (before, after))
    check(len(p.list()) == 1, "a replacement must not add a notification: %s" % p.list())
