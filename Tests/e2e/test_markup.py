"""Bodies as apps write them (HTML entities, unclosed and unknown tags),
each problem told once, and a fontconfig that finds no fonts: checked on
screen and in perch's log."""

import os
import signal
import time

from harness import CARD_LEFT, CARD_RIGHT, check, poll, runs_in_column, whiteish, test
from harness import SWAY17
from test_dbus import card_at_rest, start
from test_durability import ctl_json

COMPOSITORS = SWAY17
COMPOSITORS_WHY = "text and the log: the compositor only shows the buffer"

X_PROBE = CARD_LEFT + 150

# The body of issue 29, as a chat app sends it, and the markup it means:
# the link is its text, the image left out, the tags closed, &nbsp; a
# no-break space.
SENT = ('<b>unclosed bold &nbsp; &amp; &lt; <a href="javascript:alert(1)">click</a> '
        '<img src="/etc/passwd"/> <i>it')
MEANT = '<b>unclosed bold \u00a0 &amp; &lt; click  <i>it</i></b>'


def notify_send(t, env, title, body, *extra):
    r = t.sway().run(["notify-send", "-a", "Chat", "-t", "0"] + list(extra) + [title, body], env=env)
    check(r.returncode == 0, "notify-send failed: %r" % r.stderr)


def card_pixels(img, run):
    """The pixels of the card in `run`, row by row (comparable between two
    screenshots of cards at the same place)."""
    return [bytes(img.data[(y * img.width + CARD_LEFT) * 3:(y * img.width + CARD_RIGHT + 1) * 3])
            for y in range(run[0], run[1] + 1)]


def drawn_card(t, p, env, body):
    """Posts `body` (markup on, the default), returns the pixels of its card
    at rest, and dismisses it."""
    notify_send(t, env, "Chat", body)
    run = card_at_rest(t, 1, timeout=5.0)[0]
    pixels = card_pixels(t.screenshot(), run)
    p.ctl_ok("dismiss", "--all")
    ok, _ = poll(lambda: runs_in_column(t.screenshot(), X_PROBE) == [], 5.0, 0.05)
    check(ok, "the card did not leave after dismiss all")
    return pixels


@test
def bodies_as_apps_write_them_are_drawn_as_what_they_mean_never_as_tags(t):
    p, env = start(t)
    # Each body as a sender writes it, beside the markup it means: drawn
    # alike pixel for pixel, no literal tag or entity can be on the card.
    pairs = [
        (SENT, MEANT),
        ("<u>under</u> <span foreground='red'>red</span> &#0;", "<u>under</u> <span foreground='red'>red</span> "),
        ("caf&eacute; &mdash; &hellip; &copy; &euro;5 &frac12;", "caf\u00e9 \u2014 \u2026 \u00a9 \u20ac5 \u00bd"),
        ("<p>Hi <strong>Ann</strong>,<br>see <font color=x>this</font></b>", "Hi <b>Ann</b>,\nsee this"),
    ]
    for sent, meant in pairs:
        shown = drawn_card(t, p, env, sent)
        expected = drawn_card(t, p, env, meant)
        check(shown == expected, "%r should be drawn as %r (its tags gone, its entities read); "
              "the cards differ (screenshots kept)" % (sent, meant))
    # The span's colour was honoured, not dropped with the rest.
    notify_send(t, env, "Chat", "<span foreground='#ff0000'>red red red</span>")
    run = card_at_rest(t, 1, timeout=5.0)[0]
    img = t.screenshot()
    red = img.count((CARD_LEFT, run[0], CARD_RIGHT, run[1]), lambda c: c[0] > 150 and c[1] < 90 and c[2] < 90)
    check(red > 20, "the span's red should be drawn: %d red pixels" % red)
    # What perch reports: none of these bodies was a problem to tell.
    told = [line for line in p.log().splitlines() if "markup" in line or "Entity" in line]
    check(not told, "these bodies should need no warning: %r" % told)


@test
def words_in_angle_brackets_are_drawn_as_written(t):
    p, env = start(t)
    # Plain bodies that hold angle brackets: each drawn exactly as its
    # escaped form (the words in brackets on the card), and unlike the body
    # with those words gone (what Perch drew before).
    for sent, gone in [("x = <tab>; Press <Enter>", "x = ; Press "),
                       ("mail <alice@example.org>", "mail "),
                       ("I <3 you <b>really</b>", "I <3 you <b>really</b>")]:
        escaped = sent.replace("<tab>", "&lt;tab&gt;").replace("<Enter>", "&lt;Enter&gt;") \
            .replace("<alice@example.org>", "&lt;alice@example.org&gt;").replace("<3", "&lt;3")
        shown = drawn_card(t, p, env, sent)
        check(shown == drawn_card(t, p, env, escaped),
              "%r should be drawn as written (screenshots kept)" % sent)
        if gone != sent:
            check(shown != drawn_card(t, p, env, gone), "%r was drawn without its words in brackets" % sent)
    # What a screen reader or script is told: the body as sent.
    notify_send(t, env, "Chat", "x = <tab>; Press <Enter>")
    listed = ctl_json(p, "list")
    listed = listed.get("notifications", listed) if isinstance(listed, dict) else listed
    bodies = [n.get("body") for n in listed]
    check("x = <tab>; Press <Enter>" in bodies, "perchctl list should give the body as sent: %r" % bodies)
    told = [line for line in p.log().splitlines() if "markup:" in line]
    check(not told, "plain text needs no warning: %r" % told)


@test
def a_problem_is_told_once_per_notification_and_once_per_cause(t):
    p, env = start(t)
    # Six notifications, five of them identical, each with a missing icon
    # and a colour Pango cannot read: every one is drawn, each cause told once.
    for i in range(6):
        body = "<span foreground='nocolour'>%s</span> &nbsp;" % ("same" if i else "other")
        notify_send(t, env, "Chat", body, "-i", "/nonexistent/perch-e2e.png")
    card_at_rest(t, 5, timeout=5.0)  # five at once by default; the sixth waits behind "+1 more"
    p.ctl_ok("dismiss", "--all")
    time.sleep(1.0)  # the sixth is measured and drawn too
    log = p.log().splitlines()
    icon = [line for line in log if "/nonexistent/perch-e2e.png" in line]
    colour = [line for line in log if "nocolour" in line]
    check(len(icon) == 1, "the missing icon should be told once, was told %d times: %r" % (len(icon), icon))
    check(len(colour) == 1, "the bad colour should be told once, was told %d times: %r" % (len(colour), colour))
    check(not [line for line in log if "nbsp" in line], "&nbsp; is no problem: %r" % log)

    # 100 reloads over the socket and 100 SIGHUPs: told once (and a count
    # when the throttle's window ends), not 200 times.
    for _ in range(100):
        p.ctl_ok("reload")
    for _ in range(100):
        os.kill(p.proc.pid, signal.SIGHUP)
        time.sleep(0.005)
    check(p.ctl("status").returncode == 0, "perch should still answer")
    time.sleep(0.5)
    reloaded = [line for line in p.log().splitlines() if "config reloaded" in line]
    check(1 <= len(reloaded) <= 2, "200 reloads should say so once (and a count), said %d lines: %r"
          % (len(reloaded), reloaded[:5]))


FONTLESS = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><cachedir>%s</cachedir></fontconfig>
"""


@test
def with_no_fonts_every_toast_is_measured_and_drawn_alike_and_the_log_says_why(t):
    d = t.user_dir()
    conf = os.path.join(d, "fonts.conf")
    with open(conf, "w") as f:
        f.write(FONTLESS % os.path.join(d, "cache"))
    os.chmod(conf, 0o644)
    p, env = start(t, extra_env={"FONTCONFIG_FILE": conf})
    body = "a body long enough to wrap onto a second line of the card"
    for i in range(3):
        notify_send(t, env, "Title", body)
        card_at_rest(t, i + 1, timeout=5.0)
    runs = card_at_rest(t, 3, timeout=5.0)
    img = t.screenshot()
    heights = [b - a + 1 for a, b in runs]
    check(len(set(heights)) == 1 and heights[0] < 150,
          "three toasts of the same text should be as tall as each other (and not the maximum): %r" % heights)
    for top, bottom in runs:
        # The body's lines are below the title's: the lower half of the
        # card, inside its border, has the fallback's boxes in white.
        middle = (top + bottom) // 2
        drawn = img.count((CARD_LEFT + 6, middle, CARD_RIGHT - 6, bottom - 4), whiteish)
        check(drawn > 30, "the card at y %d..%d should show its body: %d white pixels in its lower half"
              % (top, bottom, drawn))
    told = [line for line in p.log().splitlines() if "fontconfig finds no fonts" in line]
    check(len(told) == 1 and conf in told[0], "the log should say once that fontconfig finds no fonts, "
          "naming the config: %r" % told)
