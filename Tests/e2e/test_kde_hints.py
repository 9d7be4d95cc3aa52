"""KDE's hints: a file attached with x-kde-urls is drawn as the toast's
image and opened by its button (through xdg-open, a stand-in here that
records what it was asked to open); x-kde-display-appname and
x-kde-origin-name are the app name shown."""

import os
import shutil

from harness import CLEAN_PATH, check, poll, test, write_config
from harness import SWAY17
from test_actions import buttons_in
from test_dbus import card_at_rest, gdbus, start
from test_icons import PADDING, ICON, RED, png_bytes
from harness import CARD_LEFT
from pointer import pointer

COMPOSITORS = SWAY17
COMPOSITORS_WHY = "D-Bus hints into a toast and a click: the compositor only shows it and delivers the click"

OPENER = """#!/bin/sh
printf '%%s\\n' "$@" > %s
"""


def notify_with_hints(t, env, app, summary, body, hints):
    r = gdbus(t, env, "--method", "org.freedesktop.Notifications.Notify", app, "0", "", summary, body,
              "[]", hints, "0")
    check(r.returncode == 0, "Notify failed: %r" % r.stderr)
    return int(r.stdout.strip().strip("(),").split()[-1])


@test
def an_attachment_is_drawn_and_its_button_opens_it_and_kde_names_are_shown(t):
    d = t.user_dir()
    picture = os.path.join(d, "red cat.png")
    with open(picture, "wb") as f:
        f.write(png_bytes(RED, size=64))
    opened = os.path.join(d, "opened")
    opener = os.path.join(d, "bin", "xdg-open")
    os.makedirs(os.path.dirname(opener))
    with open(opener, "w") as f:
        f.write(OPENER % opened)
    os.chmod(opener, 0o755)
    s = t.sway()
    if os.geteuid() == 0:
        for path in (picture, os.path.dirname(opener), opener):
            os.chown(path, s.pw.pw_uid, s.pw.pw_gid)
    config = write_config(t, "format=%a: %s\\n%b\n")
    p, env = start(t, args=["-c", config], extra_env={"PATH": os.path.dirname(opener) + ":" + CLEAN_PATH})

    url = "file://" + picture.replace(" ", "%20")
    notify_with_hints(t, env, "kdeconnect", "Alice", "sent a photo",
                            "{'x-kde-urls': <['%s', 'https://example.org/']>, "
                            "'x-kde-display-appname': <'Signal'>, 'x-kde-origin-name': <'Pixel 8'>}" % url)
    card = card_at_rest(t)[0]
    img = t.shots[-1][1]

    # The picture is the toast's image, in the icon's box.
    box = (CARD_LEFT + PADDING, card[0] + PADDING, CARD_LEFT + PADDING + ICON - 1, card[0] + PADDING + ICON - 1)
    red = img.count(box, lambda c: c[0] > 200 and c[1] < 60 and c[2] < 60)
    check(red > ICON * ICON * 3 // 4, "the attached picture should fill the icon box with red: %d red pixels" % red)

    # The app name shown and listed is the display name, then the origin.
    items = p.list()
    check(len(items) == 1 and items[0]["app"] == "Signal \u00b7 Pixel 8",
          "the app should be 'Signal \u00b7 Pixel 8': %r" % items)
    check(items[0].get("attachment") == url, "list should give the first URL as the attachment: %r" % items)
    os.makedirs(t.outdir, exist_ok=True)
    img.save_png(os.path.join(t.outdir, "kde-attachment.png"))

    # One button, the file's name; a click opens the first URL and the
    # toast goes.
    y, buttons = buttons_in(img, card)
    check(len(buttons) == 1, "one button (the attachment's) expected on row y=%d: %s" % (y, buttons))
    pointer(s, t.bindir, "sleep", "0.3", "move", (buttons[0][0] + buttons[0][1]) // 2, y, "sleep", "0.1",
            "click", "left")
    done, _ = poll(lambda: os.path.exists(opened) and open(opened).read() or None, 5.0, 0.1)
    check(done == url + "\n", "xdg-open should have been asked to open %r, was asked %r" % (url, done))
    gone, _ = poll(lambda: p.list() == [] or None, 3.0, 0.1)
    check(gone, "the toast should leave after its button: %r" % p.list())
    told = [line for line in p.log().splitlines() if "hint" in line]
    check(not told, "these hints are all good: %r" % told)
