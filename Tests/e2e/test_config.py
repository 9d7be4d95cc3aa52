"""The config file: placement and rules checked on screen, reload,
--check-config and broken files."""

import json
import os
import signal
import time

from harness import (BG, CARD_W, MARGIN, SCREEN_H, check, find_card, poll, roughly, runs_in_column, runs_in_row,
                     test)
from harness import ALL, SWAY17
# Other test files import it from here too.
from harness import write_config  # noqa: F401

# Which compositors these tests run on (harness.test).
COMPOSITORS = SWAY17
COMPOSITORS_WHY = "config parsing and its errors"

CONFIG = """\
# A config as a person would write it.
anchor=bottom-left
default-timeout=0

[urgency=critical]
background-color=#cc0000d0

[category=green]
background-color=#2e7d32
actions=rotate=Rotate
"""



def cards_at_bottom_left(t, count):
    x = MARGIN + 150

    def probe():
        img = t.screenshot()
        runs = runs_in_column(img, x)
        if len(runs) != count or runs[-1][1] != SCREEN_H - MARGIN - 1:
            return None
        rows = [runs_in_row(img, (a + b) // 2) for a, b in runs]
        return runs if all(r and r[0] == (MARGIN, MARGIN + CARD_W - 1) for r in rows) else None
    runs, _ = poll(probe, 5.0, 0.05)
    check(runs, "expected %d card(s) at rest at bottom-left, column x=%d shows %s"
          % (count, x, runs_in_column(t.shots[-1][1], x)))
    return runs


def fill_at(img, run):
    """The card's background colour: a pixel inside, left of any text."""
    return img.pixel(MARGIN + 5, (run[0] + run[1]) // 2)


@test(compositors=ALL)
def config_places_toasts_and_rules_restyle_them(t):
    path = write_config(t, CONFIG)
    p = t.start_perch(args=["-c", path])
    p.post("Plain", "normal urgency")
    p.post("Alarm", "critical", urgency="critical")
    p.ctl_ok("post", "--category", "green", "Green", "has a Rotate button")
    runs = cards_at_bottom_left(t, 3)
    img = t.shots[-1][1]
    # Newest (green) nearest the anchor: at the bottom.
    green, alarm, plain = fill_at(img, runs[2]), fill_at(img, runs[1]), fill_at(img, runs[0])
    check(green[1] > green[0] + 40 and green[1] > green[2] + 20,
          "the [category=green] card should be green, is %s" % (green,))
    check(alarm[0] > alarm[1] + 80, "the [urgency=critical] card should be red, is %s" % (alarm,))
    check(roughly(plain, (15, 31, 46), tol=6), "the plain card keeps the default look, is %s" % (plain,))
    items = {n["title"]: n for n in p.list()}
    check(items["Green"].get("actions") == [{"id": "rotate", "label": "Rotate"}],
          "the category's default action should be added: %r" % items["Green"])
    # The Rotate button is drawn on the green card: lighter pixels on its bottom row.
    y = runs[2][1] - 10 - 12
    button = [x for x in range(MARGIN + 4, MARGIN + 120) if not roughly(img.pixel(x, y), green, tol=10)]
    check(button, "no Rotate button drawn on the green card's bottom row")


@test
def a_broken_config_stops_perch_at_start_with_file_line_and_column(t):
    path = write_config(t, "anchor=top-right\nbackgound-color=#000000\n[urgency=loud]\n")
    p = t.start_perch(wait=False, args=["-c", path])
    rc = p.wait_exit(10)
    log = p.log()
    check(rc == 2, "perch should refuse to start with a broken config (exit 2), exited %r" % rc)
    check("%s:2:" % path in log and "background-color" in log,
          "the log should point at line 2 and suggest background-color:\n%s" % log)
    check("%s:3:" % path in log, "the bad urgency on line 3 should be reported too:\n%s" % log)


@test
def check_config_reports_and_exits_1_on_errors(t):
    good = write_config(t, CONFIG, "good")
    bad = write_config(t, "max-visible=lots\n", "bad")
    s = t.sway()
    r = s.run([os.path.join(t.bindir, "perch"), "--check-config", good])
    check(r.returncode == 0, "a good config should pass --check-config: %r %r" % (r.stdout, r.stderr))
    r = s.run([os.path.join(t.bindir, "perch"), "--check-config", bad])
    check(r.returncode == 1 and "%s:1:" % bad in r.stdout, "a bad config: exit 1 with file:line: %r" % r.stdout)


@test(compositors=ALL)
def reload_applies_a_good_config_and_keeps_the_old_one_on_errors(t):
    path = write_config(t, "anchor=bottom-left\ndefault-timeout=0\n")
    p = t.start_perch(args=["-c", path])
    p.post("Before", timeout=0)
    cards_at_bottom_left(t, 1)
    # A broken edit: the reply carries the diagnostics, the old config stays.
    with open(path, "w") as f:
        f.write("anchor=sideways\n")
    r = p.ctl("reload")
    check(r.returncode == 1 and "%s:1:" % path in (r.stderr + r.stdout),
          "perchctl reload should fail and show file:line: %r %r" % (r.stdout, r.stderr))
    p.post("Still bottom-left", timeout=0)
    cards_at_bottom_left(t, 2)
    # A good edit through SIGHUP: new notifications follow it.
    with open(path, "w") as f:
        f.write("anchor=top-right\ndefault-timeout=0\n[urgency=critical]\nbackground-color=#cc0000\n")
    p.proc.send_signal(signal.SIGHUP)
    time.sleep(0.5)
    check("config reloaded" in p.log(), "SIGHUP should reload: %s" % p.log())
    p.post("Now top-right", urgency="critical")
    def red_top_right():
        img = t.screenshot()
        px = img.pixel(1280 - MARGIN - CARD_W + 5, MARGIN + 20)
        return px[0] > px[1] + 80
    ok, _ = poll(red_top_right, 3.0, 0.1)
    check(ok, "after the reload a critical notification should be red at top-right")


@test
def group_by_shows_one_toast_per_group_and_keeps_every_member_live(t):
    # mako's group-by: one toast per group, its newest member with the
    # count; the others stay live (listed, nothing in history, no
    # NotificationClosed), and dismissing the toast brings the next on.
    path = write_config(t, "default-timeout=0\ngroup-by=app-name\n\n[grouped=true]\nformat=(%g) %s\\n%b\n")
    p = t.start_perch(args=["-c", path])
    first = p.post("First mail", app="mail")
    second = p.post("Second mail", app="mail")
    p.post("Build done", app="make")
    x = 1280 - MARGIN - CARD_W + 130

    def two_cards():
        return len(runs_in_column(t.screenshot(), x)) == 2
    ok, _ = poll(two_cards, 3.0, 0.1)
    check(ok, "two groups should show two toasts; the column shows %s" % runs_in_column(t.shots[-1][1], x))
    items = p.list()
    check(sorted(n["title"] for n in items) == ["Build done", "First mail", "Second mail"],
          "every member stays live, listed: %r" % items)
    history = json.loads(p.ctl_ok("history", "--json"))
    check(history == [], "nothing was closed for grouping: %r" % history)
    status = json.loads(p.ctl_ok("status", "--json"))
    check(status["shown"] == 3 and status["held"] == 0, "the folded member counts with its toast: %r" % status)
    # The group's toast goes: the first mail comes on, its own.
    p.ctl_ok("dismiss", str(second))
    ok, _ = poll(lambda: sorted(n["id"] for n in p.list()) != [] and second not in [n["id"] for n in p.list()]
                 and two_cards(), 3.0, 0.1)
    check(ok and first in [n["id"] for n in p.list()],
          "after the group's toast went, the first mail should show: %r" % p.list())


# --------------------------------------------------------------------------
# A mako config, as is (Tests/fixtures/mako-config uses every mako key).

MAKO_FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures")
# What the fixture's globals draw: outer-margin 4 + margin 10 from the
# edges, width 320, border 3 px in [urgency=normal]'s colour, the mako
# background, and padding 8,12: 8 above and below, 12 left and right.
MAKO_EDGE = 14
MAKO_W = 320
MAKO_BORDER = 3
MAKO_PADDING_TOP = 8
MAKO_PADDING_LEFT = 12
MAKO_BG = (0x28, 0x55, 0x77)
MAKO_NORMAL_BORDER = (0xD0, 0x87, 0x70)


def copy_mako_config(t):
    """The fixture and its theme where the session user reads them; the
    theme's ~/ include made absolute (mako takes both), so the test does not
    write into the user's home."""
    with open(os.path.join(MAKO_FIXTURE, "mako-theme")) as f:
        theme = write_config(t, f.read(), "theme")
    with open(os.path.join(MAKO_FIXTURE, "mako-config")) as f:
        text = f.read()
    check("include=~/.config/mako/theme\n" in text, "the fixture's include line moved")
    return write_config(t, text.replace("include=~/.config/mako/theme\n", "include=%s\n" % theme))


@test
def a_mako_config_checks_with_warnings_only_and_perch_draws_toasts_by_it(t):
    path = copy_mako_config(t)
    s = t.sway()
    r = s.run([os.path.join(t.bindir, "perch"), "--check-config", path])
    out = r.stdout + r.stderr
    check(r.returncode == 0, "--check-config on the mako config should exit 0: %s" % out)
    check(": error:" not in out, "the mako config should have no errors: %s" % out)
    check("%s:" % path in out and ": warning: 'width' in a section has no effect" in out,
          "the mako forms Perch keeps in part should be warned about, with file:line: %s" % out)

    p = t.start_perch(args=["-c", path])
    nid = p.post("Hello", "from a mako config", timeout=0)
    right = 1280 - MAKO_EDGE - 1
    left = right - MAKO_W + 1

    def card():
        img = t.screenshot()
        c = find_card(img, probe_y=MAKO_EDGE + 20, x0=left - 40)
        return c if c and c.left == left and c.right == right and c.top == MAKO_EDGE else None
    c, _ = poll(card, 5.0, 0.05)
    check(c, "a %d px card %d px from the top and right edges (outer-margin + margin), found %r"
          % (MAKO_W, MAKO_EDGE, find_card(t.shots[-1][1], probe_y=MAKO_EDGE + 20, x0=left - 40)))
    img = t.shots[-1][1]
    mid = (c.top + c.bottom) // 2
    check(roughly(img.pixel(left + MAKO_BORDER + 2, mid), MAKO_BG, tol=3),
          "mako's background-color #285577 inside the card, is %s" % (img.pixel(left + MAKO_BORDER + 2, mid),))
    check(roughly(img.pixel(left + 1, mid), MAKO_NORMAL_BORDER, tol=3),
          "the [urgency=normal] border colour, is %s" % (img.pixel(left + 1, mid),))
    # The text starts at the padding: the first pixels that are not the
    # card's own, inside the border. (The title's glyphs begin about 3 px
    # below its line's top: 11 for padding 8, 15 if all four were 12.)
    # Inside the border, clear of the rounded corners (border-radius 6).
    inner = [(x, y) for y in range(c.top + MAKO_BORDER + 1, c.bottom - MAKO_BORDER - 1)
             for x in range(left + 7, left + 120)
             if not roughly(img.pixel(x, y), MAKO_BG, tol=24)]
    check(inner, "no text drawn on the card")
    text_left = min(x for x, _ in inner) - left
    text_top = min(y for _, y in inner) - c.top
    check(MAKO_PADDING_LEFT <= text_left <= MAKO_PADDING_LEFT + 2,
          "the text should start %d px in (padding=8,12), starts %d px in" % (MAKO_PADDING_LEFT, text_left))
    check(MAKO_PADDING_TOP <= text_top <= MAKO_PADDING_TOP + 4,
          "the title should start about %d px down (padding=8,12), starts %d px down"
          % (MAKO_PADDING_TOP, text_top))

    # on-notify=exec …: run by sh with $id, as mako does.
    notified = os.path.join(s.dir, "mako-notified")

    def ids():
        try:
            with open(notified) as f:
                return f.read().split()
        except OSError:
            return None
    got, _ = poll(lambda: ids() if ids() else None, 3.0, 0.05)
    check(got == [str(nid)], "on-notify=exec should have written the id %d, file has %r" % (nid, got))

    # max-visible=4: the fifth waits behind the marker the [hidden] section
    # styles (#2E3440EE over the wallpaper).
    for i in range(4):
        p.post("More %d" % i, timeout=0)
    want = tuple(round(c1 * 0xEE / 255 + c2 * (1 - 0xEE / 255)) for c1, c2 in zip((0x2E, 0x34, 0x40), BG))

    def marker():
        img = t.screenshot()
        runs = runs_in_column(img, right - 6)
        if len(runs) != 5:
            return None
        top, bottom = runs[-1]
        px = img.pixel(right - 6, (top + bottom) // 2)
        return px if roughly(px, want, tol=6) else None
    px, _ = poll(marker, 5.0, 0.05)
    check(px, "four cards and the [hidden] marker in %s (want %s), column shows %s"
          % ("the stack", want, runs_in_column(t.shots[-1][1], right - 6)))
