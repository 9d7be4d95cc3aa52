"""Copy the text or the code (issue 43, item 4): `perchctl copy ID
[--code]`, the `c` and `o` keys on the focused toast and the center's
"Copy text" / "Copy code" put a notification's body as plain text, or
its one-time code, on the clipboard through wlr-data-control (ext-data-
control where the compositor has it), without taking the keyboard.
Checked as a user would paste: `wl-paste -n` (wl-clipboard 2.1, the
host's, which reads through data-control and runs against the roots'
compositors as well)."""

import os
import time

from harness import LABWCS, SWAY17, SWAYS, TESTCOMP, check, find_card, poll, test
from test_persistence import ok

COMPOSITORS = SWAYS + LABWCS
COMPOSITORS_WHY = "data-control on sway 1.7, 1.10, 1.12 and labwc 0.8, 0.20; wl-paste talks to each"

CODE_BODY = "Your <b>verification code</b> is 482913 &amp; it expires in 10 minutes"
CODE_TEXT = "Your verification code is 482913 & it expires in 10 minutes"


def paste(t, p):
    """What the clipboard holds now, as a pasting program gets it."""
    r = t.sway().run(["wl-paste", "-n"], env=p.env, timeout=10)
    check(r.returncode == 0, "wl-paste -n exited %d: %r" % (r.returncode, r.stderr))
    return r.stdout


def pasted(t, p, text, what):
    got, _ = poll(lambda: paste(t, p) == text or None, 3.0, 0.2)
    check(got, "%s: wl-paste should give %r, gave %r" % (what, text, paste(t, p)))


def copy_error(p, *args):
    r = p.ctl("copy", *args)
    check(r.returncode != 0, "perchctl copy %s should fail: %r" % (" ".join(args), r.stdout))
    return r.stderr.strip()


@test
def perchctl_copy_puts_the_code_or_the_plain_body_on_the_clipboard(t):
    p = t.start_perch()
    nid = p.post("Bank", CODE_BODY, timeout=0)
    poll(lambda: find_card(t.screenshot()) is not None, 5.0, 0.1)
    p.ctl_ok("copy", str(nid), "--code")
    pasted(t, p, "482913", "after perchctl copy --code")
    reply = ok(p, "copy", {"id": nid})
    check(reply == {"copied": CODE_TEXT, "what": "text"}, "copy --json says what it copied: %r" % reply)
    pasted(t, p, CODE_TEXT, "after perchctl copy")
    # Every text type a pasting program may ask for, the same text.
    types = t.sway().run(["wl-paste", "--list-types"], env=p.env, timeout=10).stdout.split()
    check(set(types) >= {"text/plain;charset=utf-8", "text/plain", "UTF8_STRING", "TEXT", "STRING"},
          "the offered types: %r" % types)
    # Nothing else happened to it, and nothing took the keyboard.
    check([n["id"] for n in p.list()] == [nid], "the toast stays: %r" % p.list())
    check(p.ctl_ok("focus", "--release").strip() == "none", "the copy took no keyboard")
    # Another program's copy replaces it; Perch's next copy takes it back.
    # (wl-copy stays behind to serve its copy: not with the test's pipes.)
    t.sway().run(["sh", "-c", "wl-copy 'from another program' >/dev/null 2>&1"], env=p.env, timeout=10)
    pasted(t, p, "from another program", "after wl-copy")
    p.ctl_ok("copy", str(nid), "--code")
    pasted(t, p, "482913", "after the next copy")


@test(compositors=("sway112",), why="sway 1.12 offers ext-data-control beside wlr-data-control")
def copy_goes_through_ext_data_control_where_the_compositor_offers_it(t):
    p = t.start_perch(args=("-v",))
    nid = p.post("Bank", "Your code is 4711", timeout=0)
    p.ctl_ok("copy", str(nid), "--code")
    pasted(t, p, "4711", "through ext-data-control")
    said, _ = poll(lambda: "through ext_data_control_manager_v1" in p.log() or None, 3.0, 0.1)
    check(said, "perch -v should say it copies through ext_data_control_manager_v1")


@test
def copy_of_a_long_body_reaches_the_pasting_program_whole(t):
    # 64 KiB of two-byte characters: more than a pipe holds, so the daemon
    # writes the rest as the reader drains it, and serves its socket
    # meanwhile.
    p = t.start_perch()
    body = "é" * 32768
    nid = p.post("Long", body, timeout=0)
    p.ctl_ok("copy", str(nid))
    pasted(t, p, body, "a 64 KiB body")
    check(p.ctl_ok("status", "--json"), "the daemon answers after the transfer")


@test(compositors=SWAY17, why="perchctl's errors; the same on every compositor")
def copy_says_clearly_when_there_is_no_such_notification_or_no_code(t):
    p = t.start_perch()
    nid = p.post("Lunch", "At noon?", timeout=0)
    err = copy_error(p, "999")
    check("no notification 999" in err, "an unknown id: %r" % err)
    err = copy_error(p, str(nid), "--code")
    check("has no one-time code" in err, "no code: %r" % err)
    # A dismissed one is copied from history.
    p.ctl_ok("dismiss", str(nid))
    p.ctl_ok("copy", str(nid))
    pasted(t, p, "At noon?", "a notification in history")


@test(compositors=(TESTCOMP,), why="the test compositor offers no data-control protocol")
def without_data_control_copy_fails_with_a_clear_message(t):
    import testcomp
    testcomp.attach(t)
    p = t.start_perch()
    nid = p.post("Bank", "Your code is 4711", timeout=30)
    err = copy_error(p, str(nid), "--code")
    check("offers no clipboard" in err and "zwlr_data_control_manager_v1" in err, "no clipboard: %r" % err)


@test(compositors=SWAY17, why="wtype from the Debian 13 root types into sway 1.7's session")
def o_and_c_on_the_focused_toast_copy_its_code_and_its_text(t):
    from test_keyboard_focus import press
    p = t.start_perch()
    nid = p.post("Bank", CODE_BODY, timeout=0)
    poll(lambda: find_card(t.screenshot()) is not None, 5.0, 0.1)
    check(p.ctl_ok("focus").strip() == "toast %d" % nid, "focus rings the toast")
    press(t, "o")
    pasted(t, p, "482913", "o on the focused toast")
    press(t, "c")
    pasted(t, p, CODE_TEXT, "c on the focused toast")
    check([n["id"] for n in p.list()] == [nid], "the keys leave the toast: %r" % p.list())


@test(compositors=SWAY17, why="the center's pixels and the pointer on sway 1.7")
def copy_code_and_copy_text_in_the_centers_entry_menu_and_with_its_keys(t):
    from pointer import pointer
    from test_center_panel import PANEL_LEFT
    from test_quiet import open_center_with_card
    p = t.start_perch()
    p.post("Bank", CODE_BODY, timeout=0.3, app="Bank")
    poll(lambda: p.list() == [], 4, 0.1)
    top = open_center_with_card(t, p)
    pointer(t.sway(), t.bindir, "sleep", "0.3", "move", PANEL_LEFT + 150, top + 25, "sleep", "0.1",
            "click", "right", "sleep", "0.5")
    shot = t.screenshot()
    shot.save_png(os.path.join(t.outdir, "center-copy-menu.png"))
    # The history entry's menu: Mute Bank, Allow during do-not-disturb,
    # then Copy text and Copy code on the row below.
    pointer(t.sway(), t.bindir, "sleep", "0.2", "move", PANEL_LEFT + COPY_CODE[0], top + COPY_CODE[1],
            "sleep", "0.1", "click", "left", "sleep", "0.3")
    pasted(t, p, "482913", "the center's Copy code")
    pointer(t.sway(), t.bindir, "sleep", "0.2", "move", PANEL_LEFT + 150, top + 25, "sleep", "0.1",
            "click", "right", "sleep", "0.5", "move", PANEL_LEFT + COPY_TEXT[0], top + COPY_TEXT[1],
            "sleep", "0.1", "click", "left", "sleep", "0.3")
    pasted(t, p, CODE_TEXT, "the center's Copy text")
    # With the keyboard: Down rings the only entry, then o and c.
    from test_keyboard_focus import press
    check(p.ctl_ok("focus").strip() == "center", "focus gives the open center the keyboard")
    press(t, "@Down", "o")
    pasted(t, p, "482913", "o in the center")
    press(t, "c")
    pasted(t, p, CODE_TEXT, "c in the center")


# Where the menu's copy buttons are, from the panel's left and the card's
# top (surface pixels; the menu as drawn on sway 1.7, center-copy-menu.png).
COPY_TEXT = (62, 112)
COPY_CODE = (156, 112)
