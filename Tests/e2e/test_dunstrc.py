"""A dunstrc as it is: Debian's own /etc/xdg/dunst/dunstrc, found where
dunst finds it when there is no Perch or mako config, drawn as dunst
draws it (where, how wide, which colours, which frame), and a user's
dunstrc with rules, given with -c."""

import os
import shutil
import subprocess

from harness import (BG, SCREEN_H, SCREEN_W, SWAY17, Perch, check, is_bg, poll, roughly, test)

COMPOSITORS = SWAY17
COMPOSITORS_WHY = "config reading; the toasts drawn are those of every compositor"

DEBIAN_DUNSTRC = "/etc/xdg/dunst/dunstrc"


def config_home(t, dunstrc_text, drop_ins=None):
    """An XDG_CONFIG_HOME of the test's own with dunst/dunstrc in it (the
    session user's real home is shared by every test)."""
    s = t.sway()
    home = t.user_dir()
    d = os.path.join(home, "dunst")
    os.makedirs(os.path.join(d, "dunstrc.d"))
    with open(os.path.join(d, "dunstrc"), "w") as f:
        f.write(dunstrc_text)
    for name, text in (drop_ins or {}).items():
        with open(os.path.join(d, "dunstrc.d", name), "w") as f:
            f.write(text)
    for root, dirs, files in os.walk(home):
        for name in dirs + files:
            path = os.path.join(root, name)
            if os.geteuid() == 0:
                os.chown(path, s.pw.pw_uid, s.pw.pw_gid)
            os.chmod(path, 0o755 if name in dirs else 0o644)
    return home


def start(t, env, args=()):
    from harness import Perch as P
    p = P(t.sway(), t.bindir, os.path.join(t.tmp, "perch.log"), env=env, args=list(args))
    t.perch = p
    p.wait_ready()
    return p


def rest(t, probe, timeout=4.0):
    """Screenshots until `probe(img)` holds (the toast came to rest)."""
    ok, _ = poll(lambda: probe(t.screenshot()), timeout, 0.05)
    return ok


def debian_text():
    with open(DEBIAN_DUNSTRC) as f:
        return f.read()


@test
def debians_dunstrc_is_found_and_drawn_as_dunst_draws_it(t):
    s = t.sway()
    # A drop-in, as dunst reads them: the toasts 280 wide.
    home = config_home(t, debian_text(), {"50-narrow.conf": "[global]\n    width = 280\n"})
    env = s.env(XDG_CONFIG_HOME=home)
    p = start(t, env)
    check("config: dunst's %s/dunst/dunstrc with 1 more file, read as dunst reads it" % home in p.log(),
          "perch says in one line which config it read: %s" % p.log())
    p.ctl_ok("post", "--timeout", "0", "Hello from dunstrc", "the body of the toast")
    # origin top-right, offset 10x50, width 280 (the drop-in), a 3 px frame
    # #aaaaaa around #285577 ([urgency_normal]).
    right, top, left = SCREEN_W - 10 - 1, 50, SCREEN_W - 10 - 280

    def at_rest(img):
        return (roughly(img.pixel(right - 1, top + 20), (0xAA, 0xAA, 0xAA), 6)
                and roughly(img.pixel(left + 1, top + 20), (0xAA, 0xAA, 0xAA), 6)
                and is_bg(img.pixel(left - 2, top + 20)) and is_bg(img.pixel(right + 2, top + 20)))
    check(rest(t, at_rest), "no 280 px card framed #aaaaaa at x %d..%d: right edge %s, left edge %s"
          % (left, right, t.shots[-1][1].pixel(right - 1, top + 20), t.shots[-1][1].pixel(left + 1, top + 20)))
    img = t.shots[-1][1]
    check(is_bg(img.pixel(right - 20, top - 2)) and roughly(img.pixel(right - 20, top + 1), (0xAA, 0xAA, 0xAA), 6),
          "the card starts 50 px from the top (offset 10x50): %s %s"
          % (img.pixel(right - 20, top - 2), img.pixel(right - 20, top + 1)))
    check(roughly(img.pixel(right - 5, top + 5), (0x28, 0x55, 0x77), 6),
          "inside the frame, urgency_normal's #285577: %s" % (img.pixel(right - 5, top + 5),))
    p.ctl_ok("post", "--timeout", "0", "--urgency", "critical", "Disk full", "now")
    def critical(img):
        # dunst's sort puts the critical one first: at the top.
        return roughly(img.pixel(right - 5, top + 5), (0x90, 0x00, 0x00), 6) and \
            roughly(img.pixel(right - 1, top + 20), (0xFF, 0x00, 0x00), 6)
    check(rest(t, critical), "the critical toast at the top, #900000 framed #ff0000: %s"
          % (t.shots[-1][1].pixel(right - 5, top + 5),))
    # --check-config reads it the same way, with no error.
    r = s.run([os.path.join(t.bindir, "perch"), "--check-config", os.path.join(home, "dunst", "dunstrc")], env=env)
    check(r.returncode == 0 and "error" not in r.stdout and r.stdout.rstrip().endswith(": OK"),
          "perch --check-config on Debian's dunstrc: %d\n%s" % (r.returncode, r.stdout))
    check(r.stdout.startswith("config: dunst's"), "--check-config says it reads a dunstrc: %s" % r.stdout)


RULES = """
[global]
    origin = bottom-left
    offset = 20x30
    width = 320
    frame_width = 4
    frame_color = "#101010"
    corner_radius = 0
    gap_size = 8
    sort = no
    show_age_threshold = -1
[urgency_normal]
    background = "#204060"
    timeout = 0
[mail]
    appname = "Thunder*"
    background = "#a03030"
[hidden]
    summary = "*secret*"
    skip_display = yes
    script = SCRIPT
"""

LOGGER = """#!/bin/sh
printf '%%s|' "$@" > "%(out)s.part"
printf '%%s' "$DUNST_APP_NAME" >> "%(out)s.part"
mv "%(out)s.part" "%(out)s"
"""


@test
def a_users_dunstrc_with_rules_given_with_c(t):
    s = t.sway()
    d = t.user_dir()
    out = os.path.join(d, "script-ran")
    script = os.path.join(d, "log.sh")
    with open(script, "w") as f:
        f.write(LOGGER % {"out": out})
    os.chmod(script, 0o755)
    path = os.path.join(d, "my.dunstrc")
    with open(path, "w") as f:
        f.write(RULES.replace("SCRIPT", script))
    os.chmod(path, 0o644)
    if os.geteuid() == 0:
        for f in (script, path):
            os.chown(f, s.pw.pw_uid, s.pw.pw_gid)
    p = start(t, s.env(), args=["-c", path])
    check("config: dunst's %s" % path in p.log(), "-c takes a dunstrc, told by its [global]: %s" % p.log())
    p.ctl_ok("post", "--app", "Thunderbird", "Mail from Ann", "lunch?")
    p.ctl_ok("post", "--app", "other", "Plain one", "text")
    # bottom-left, 20x30: the first (oldest, sort = no) is the farthest
    # from the bottom; the newest sits 30 px above the bottom edge.
    left, bottom = 20, SCREEN_H - 30 - 1

    def two(img):
        return (roughly(img.pixel(left + 1, bottom - 10), (0x10, 0x10, 0x10), 6)
                and roughly(img.pixel(left + 10, bottom - 6), (0x20, 0x40, 0x60), 6)
                and is_bg(img.pixel(left + 10, bottom + 2)) and is_bg(img.pixel(left - 2, bottom - 10)))
    check(rest(t, two), "the newest card framed #101010, #204060 inside, at the bottom-left: %s %s"
          % (t.shots[-1][1].pixel(left + 1, bottom - 10), t.shots[-1][1].pixel(left + 10, bottom - 6)))
    img = t.shots[-1][1]
    # Above it, past an 8 px gap, the mail rule's red card.
    column = [img.pixel(left + 10, y) for y in range(bottom, 200, -1)]
    reds = [i for i, px in enumerate(column) if roughly(px, (0xA0, 0x30, 0x30), 6)]
    check(reds, "the [mail] rule's #a03030 card above the newest: no such pixel in x=%d" % (left + 10))
    check(is_bg(img.pixel(left + 330, bottom - 10)) and not is_bg(img.pixel(left + 318, bottom - 10)),
          "320 px wide: %s %s" % (img.pixel(left + 318, bottom - 10), img.pixel(left + 330, bottom - 10)))
    # skip_display: not shown, in history, and its script ran with
    # dunst's arguments.
    p.ctl_ok("post", "--app", "vault", "--urgency", "low", "a secret thing", "the body")
    ran, _ = poll(lambda: os.path.exists(out), 3.0)
    check(ran, "the [hidden] rule's script did not run")
    with open(out) as f:
        got = f.read()
    check(got == "vault|a secret thing|the body|dialog-information|LOW|vault", "the script's arguments, dunst's: %r" % got)
    check(all(n["title"] != "a secret thing" for n in p.list()), "skip_display keeps it off screen")
    history = p.ctl_ok("history")
    check("a secret thing" in history, "and it is in history: %s" % history)
