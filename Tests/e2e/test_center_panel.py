"""The notification center on screen: what expired is listed, grouped by
app, in a tall panel at the right edge that slides in; the wheel scrolls
it; closing it takes it away."""

import time

from harness import ALL, IN_ROOT, SCREEN_H, SCREEN_W, check, is_bg, poll, runs_in_column, test
from pointer import pointer

COMPOSITORS = ALL

PANEL_W = 360
MARGIN = 10
PANEL_LEFT = SCREEN_W - MARGIN - PANEL_W     # 910
PANEL_RIGHT = SCREEN_W - MARGIN - 1          # 1269


def panel_shown(img):
    """The panel at rest: a column just inside its left edge (past the rounded corner) is covered
    from y 10 to 709 (full height less the margins), and the desktop shows
    left of it."""
    return (runs_in_column(img, PANEL_LEFT + 20) == [(MARGIN, SCREEN_H - MARGIN - 1)]
            and is_bg(img.pixel(PANEL_LEFT - 3, SCREEN_H // 2)))


def text_rows(img, x0=PANEL_LEFT + 20, x1=PANEL_LEFT + 200):
    """The rows of the panel that have light (text) pixels: a fingerprint
    of where its lines are."""
    rows = []
    for y in range(MARGIN + 4, SCREEN_H - MARGIN - 4):   # inside the border
        if any(min(img.pixel(x, y)) >= 180 for x in range(x0, x1, 2)):
            rows.append(y)
    return rows


@test
def center_lists_what_expired_grouped_by_app_scrolls_and_closes(t):
    p = t.start_perch()
    for i in range(14):
        p.post("Message %d" % i, "from app %s" % "AB"[i % 2], timeout=0.5, app="App%s" % "AB"[i % 2])
    gone, _ = poll(lambda: p.list() == [], 12.0, 0.2)
    check(gone, "the notifications should expire: %s" % p.list())
    out = p.ctl_ok("center", "open").strip()
    check(out == "open", "`perchctl center open` should print open, printed %r" % out)
    shown, _ = poll(lambda: panel_shown(t.screenshot()), 3.0, 0.1)
    check(shown, "a tall panel should be at rest along the right edge (x %d..%d)" % (PANEL_LEFT, PANEL_RIGHT))
    before = text_rows(t.shots[-1][1])
    check(len(before) > 100, "the panel should list the entries (text on many rows): %d rows" % len(before))
    # Groups by app: both app names are drawn (their headers), and the top
    # bar says what it is. Checked as text rows near the top: the header
    # of the newest group sits right under the bar.
    check(any(50 <= y <= 90 for y in before), "the first group header should be under the top bar: %s" % before[:10])
    pointer(t.sway(), t.bindir, "sleep", "0.3", "move", PANEL_LEFT + 150, SCREEN_H // 2, "sleep", "0.1",
            "wheel", "5", "sleep", "0.5")
    after = text_rows(t.screenshot())
    check(after != before, "the wheel should scroll the list (its text moved)")
    out = p.ctl_ok("center", "close").strip()
    check(out == "closed", "`perchctl center close` should print closed, printed %r" % out)
    closed, _ = poll(lambda: runs_in_column(t.screenshot(), PANEL_LEFT + PANEL_W // 2) == [], 3.0, 0.1)
    check(closed, "the panel should slide away after center close")


@test
def an_empty_center_says_so(t):
    p = t.start_perch()
    p.ctl_ok("center", "toggle")
    shown, _ = poll(lambda: panel_shown(t.screenshot()), 3.0, 0.1)
    check(shown, "the panel should open even with nothing to list")
    rows = text_rows(t.shots[-1][1], PANEL_LEFT + 60, PANEL_LEFT + 300)
    check(rows and all(y < 200 for y in rows), "an empty panel shows its bar and 'No notifications' near the top: %s"
          % rows[:5])
    p.ctl_ok("center", "toggle")


def history_ids(p):
    import json
    return [e["notification"]["id"] for e in json.loads(p.ctl_ok("history", "--json"))]


@test
def the_centers_controls_dismiss_an_entry_and_clear_all(t):
    p = t.start_perch()
    for i in range(3):
        p.post("Build %d" % i, "finished", timeout=0.5, app="CI")
    poll(lambda: p.list() == [], 6.0, 0.2)
    check(len(history_ids(p)) == 3, "three in history: %s" % history_ids(p))
    p.ctl_ok("center", "open")
    shown, _ = poll(lambda: panel_shown(t.screenshot()), 3.0, 0.1)
    check(shown, "the panel should be open")
    # The newest entry's × sits in the top right corner of the first card
    # (under the group header): 17 px below the card's top border, 29 px
    # in from the panel's right edge.
    img = t.shots[-1][1]
    card_top = next((y for y in range(60, 200) if min(img.pixel(PANEL_LEFT + 100, y)) >= 230), None)
    check(card_top, "no card border under the group header")
    cx, cy = PANEL_RIGHT - 29, card_top + 17
    pointer(t.sway(), t.bindir, "sleep", "0.3", "move", cx, cy, "sleep", "0.1", "click", "left", "sleep", "0.3")
    left, _ = poll(lambda: len(history_ids(p)) == 2, 2.0, 0.1)
    check(left, "a click on the × at (%d, %d) should take the entry out of history: %s" % (cx, cy, history_ids(p)))
    # Clear all (the top bar's right end) empties it.
    pointer(t.sway(), t.bindir, "sleep", "0.3", "move", PANEL_RIGHT - 40, 36, "sleep", "0.1", "click", "left",
            "sleep", "0.3")
    empty, _ = poll(lambda: history_ids(p) == [], 2.0, 0.1)
    check(empty, "Clear all should empty the history: %s" % history_ids(p))
    rows = text_rows(t.screenshot(), PANEL_LEFT + 60, PANEL_LEFT + 300)
    check(rows and max(rows) < 200, "the panel should say it is empty: text rows %s" % rows[-5:])


@test(compositors=IN_ROOT, why="typing needs wtype, which is in the Debian roots")
def the_keyboard_moves_a_focus_ring_and_delete_dismisses_the_focused_entry(t):
    from test_compositors import start_in_root
    p = t.start_perch()
    for i in range(3):
        p.post("Build %d" % i, "finished", timeout=0.5, app="CI")
    poll(lambda: p.list() == [], 6.0, 0.2)
    p.ctl_ok("center", "open")
    shown, _ = poll(lambda: panel_shown(t.screenshot()), 3.0, 0.1)
    check(shown, "the panel should be open")
    before = t.shots[-1][1]
    # A click on the title gives the panel the keyboard (and does nothing else).
    pointer(t.sway(), t.bindir, "sleep", "0.3", "move", PANEL_LEFT + 40, 36, "sleep", "0.1", "click", "left",
            "sleep", "0.2")
    typer = start_in_root(t.sway(), ["wtype", "-s", "300", "-k", "Down", "-k", "Down"])
    typer.wait(timeout=10)
    ringed, _ = poll(lambda: t.screenshot().data != before.data, 2.0, 0.1)
    check(ringed, "Down should draw a focus ring on an entry")
    typer = start_in_root(t.sway(), ["wtype", "-s", "300", "-k", "Delete"])
    typer.wait(timeout=10)
    left, _ = poll(lambda: len(history_ids(p)) == 2, 2.0, 0.1)
    check(left, "Delete should take the focused entry out: %s" % history_ids(p))
    # The first Down rings the newest (3), the second the next one (2).
    check(history_ids(p) == [3, 1], "Delete should have taken out entry 2, the one ringed: %s" % history_ids(p))
    typer = start_in_root(t.sway(), ["wtype", "-s", "300", "-k", "Escape"])
    typer.wait(timeout=10)
    closed, _ = poll(lambda: runs_in_column(t.screenshot(), PANEL_LEFT + PANEL_W // 2) == [], 3.0, 0.1)
    check(closed, "Escape should close the panel")
    check(p.ctl_ok("center").strip() == "closed", "the center should say closed")


@test
def center_anchor_and_width_put_the_panel_on_the_left(t):
    from test_config import write_config
    p = t.start_perch(args=("-c", write_config(t, "center-anchor=left\ncenter-width=300\ncenter-margin=20\n")))
    p.ctl_ok("center", "open")

    def on_the_left():
        img = t.screenshot()
        return (runs_in_column(img, 20 + 20) == [(20, SCREEN_H - 20 - 1)]
                and is_bg(img.pixel(20 + 300 + 3, SCREEN_H // 2)) and is_bg(img.pixel(PANEL_RIGHT - 20, SCREEN_H // 2)))
    shown, _ = poll(on_the_left, 3.0, 0.1)
    check(shown, "center-anchor=left, center-width=300, center-margin=20: the panel should cover x 20..319, "
          "y 20..699, and nothing on the right")


@test
def toasts_wait_while_the_center_is_open_and_come_back_after(t):
    from test_config import write_config
    # The panel on the left, so that the toast's corner on the right shows
    # whether it is there.
    p = t.start_perch(args=("-c", write_config(t, "center-anchor=left\n")))
    p.post("Standup", "in five minutes", timeout=3)
    toast_x = SCREEN_W - MARGIN - 150

    def toast_shown():
        return runs_in_column(t.screenshot(), toast_x) != []
    shown, _ = poll(toast_shown, 3.0, 0.1)
    check(shown, "the toast should show at the top right")
    p.ctl_ok("center", "open")
    hidden, _ = poll(lambda: not toast_shown(), 2.0, 0.1)
    check(hidden, "the toast should leave the screen while the center is open")
    time.sleep(4.0)
    check([n["title"] for n in p.list()] == ["Standup"],
          "its timer (3 s) stops while the center is open: still live after 4 s: %r" % p.list())
    check(runs_in_column(t.screenshot(), toast_x) == [], "nor does it come back while the panel is open")
    p.ctl_ok("center", "close")
    back, _ = poll(toast_shown, 3.0, 0.1)
    check(back, "closing the center should bring the toast back")
    gone, _ = poll(lambda: p.list() == [], 6.0, 0.2)
    check(gone, "it should expire with the time it had left: %r" % p.list())


@test
def a_click_outside_the_panel_closes_it_and_a_click_on_it_does_not(t):
    p = t.start_perch()
    p.ctl_ok("center", "open")
    shown, _ = poll(lambda: panel_shown(t.screenshot()), 3.0, 0.1)
    check(shown, "the panel should be open")
    # On the panel's title: nothing happens.
    pointer(t.sway(), t.bindir, "sleep", "0.3", "move", PANEL_LEFT + 40, 36, "sleep", "0.1", "click", "left",
            "sleep", "0.3")
    check(p.ctl_ok("center").strip() == "open", "a click on the panel must not close it")
    # On the desktop left of it: the center closes.
    pointer(t.sway(), t.bindir, "sleep", "0.3", "move", 400, SCREEN_H // 2, "sleep", "0.1", "click", "left",
            "sleep", "0.3")
    closed, _ = poll(lambda: p.ctl_ok("center").strip() == "closed", 2.0, 0.1)
    check(closed, "a click outside the panel should close the center")
    gone, _ = poll(lambda: runs_in_column(t.screenshot(), PANEL_LEFT + PANEL_W // 2) == [], 3.0, 0.1)
    check(gone, "and the panel slides away")
