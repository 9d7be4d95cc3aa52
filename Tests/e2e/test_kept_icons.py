"""Icons that outlive their files: Chromium and Electron apps pass an icon
as a temporary file (`app_icon`, or the `image-path` hint) and delete it
moments after Notify returns. Perch reads the file as the notification
arrives and keeps its pixels: the toast, the center and, after a restart,
the center again still draw the picture. A kept copy damaged on disk is
said once and its entry drawn without it."""

import glob
import os
import signal

from harness import SCREEN_H, SCREEN_W, TestFailure, check, poll, roughly, test
from harness import ALL
from test_icons import BLUE, GREEN, Home, expect_icon, png_bytes, start

COMPOSITORS = ALL

PANEL_W = 360
MARGIN = 10
PANEL = (SCREEN_W - MARGIN - PANEL_W, MARGIN, SCREEN_W - MARGIN - 1, SCREEN_H - MARGIN - 1)
# An entry's icon is 32 × 32 px and its group header's 20 × 20: a picture
# drawn in the panel covers at least this many of its pixels.
DRAWN = 300


def notify_send(t, env, *args):
    """notify-send as the session user; returns the id it printed. It
    returns once Perch answered Notify: the file may go from then on."""
    r = t.sway().run(["notify-send", "-p", "-a", "Chromium"] + list(args), env=env, timeout=10)
    check(r.returncode == 0, "notify-send %s failed: %s" % (" ".join(args), r.stderr.strip()))
    return int(r.stdout.strip())


def coloured(img, colour):
    return img.count(PANEL, lambda p: roughly(p, colour, 40))


def center_shows(t, p, colours, what, timeout=5.0):
    """Opens the center and waits until the panel shows each of `colours`
    (name, rgb) on at least DRAWN pixels; returns the screenshot."""
    p.ctl_ok("center", "open")
    last = {}

    def probe():
        img = t.screenshot()
        last.update({name: coloured(img, rgb) for name, rgb in colours})
        return img if all(last[name] >= DRAWN for name, _ in colours) else None

    img, _ = poll(probe, timeout, 0.1)
    check(img is not None, "%s: the center should draw %s; pixels of each in the panel: %s"
          % (what, " and ".join(name for name, _ in colours), last))
    return img


def restart(t, p, home, args):
    p.proc.send_signal(signal.SIGTERM)
    check(p.wait_exit(5) == 0, "perch should exit 0 on SIGTERM")
    p.log_file.close()
    return start(t, home, args)


def kept_copies(t):
    return sorted(glob.glob(os.path.join(t.sway().env()["XDG_STATE_HOME"], "perch", "icons", "*.png")))


@test
def an_icon_file_deleted_after_notify_is_drawn_in_the_toast_the_center_and_after_a_restart(t):
    h = Home(t)
    green = h.write("tmp/.org.chromium.Chromium.aBc123", png_bytes(GREEN))
    blue = h.write("tmp/.org.chromium.Chromium.dEf456", png_bytes(BLUE))
    # One toast at a time: the icons' toasts wait in the queue, so they are
    # first drawn long after their files are gone.
    args = ["--max-visible", "1"]
    p, env = start(t, h, args)
    notify_send(t, env, "-t", "1500", "Blocker", "holds the screen for 1.5 s")
    first = notify_send(t, env, "-i", green, "-t", "0", "WWWWWWWW", "icon by app_icon")
    os.remove(green)
    second = notify_send(t, env, "-h", "string:image-path:" + blue, "-t", "0", "WWWWWWWW", "icon by image-path")
    os.remove(blue)

    expect_icon(t, "green", "app_icon's file deleted before its toast showed")
    p.ctl_ok("dismiss", str(first))
    expect_icon(t, "blue", "image-path's file deleted before its toast showed")
    p.ctl_ok("dismiss", str(second))
    gone, _ = poll(lambda: p.list() == [], 5.0, 0.1)
    check(gone, "both should be dismissed into history: %s" % p.list())
    center_shows(t, p, [("green", GREEN), ("blue", BLUE)], "history before a restart")
    p.ctl_ok("center", "close")

    copies = kept_copies(t)
    check(len(copies) == 2, "a kept copy per notification should be on disk: %s" % copies)
    q, _ = restart(t, p, h, args)
    img = center_shows(t, q, [("green", GREEN), ("blue", BLUE)], "history after a restart")
    # Kept for the docs (docs/images/kept-icon.png).
    os.makedirs(t.outdir, exist_ok=True)
    img.save_png(os.path.join(t.outdir, "kept-icon.png"))
    q.ctl_ok("center", "close")
    check("kept" not in q.log() and "not found" not in q.log(),
          "nothing should be said about the icons; perch logged:\n%s" % q.log()[-1500:])


@test
def a_damaged_kept_copy_is_said_once_and_its_entry_drawn_without_it(t):
    h = Home(t)
    green = h.write("tmp/electron-icon.png", png_bytes(GREEN))
    p, env = start(t, h)
    nid = notify_send(t, env, "-i", green, "-t", "300", "WWWWWWWW", "soon in history")
    os.remove(green)
    in_history, _ = poll(lambda: p.list() == [], 5.0, 0.1)
    check(in_history, "the notification should expire: %s" % p.list())
    copies = kept_copies(t)
    check(len(copies) == 1 and os.path.basename(copies[0]).startswith("%d-" % nid),
          "one kept copy, named for notification %d: %s" % (nid, copies))
    p.proc.send_signal(signal.SIGTERM)
    check(p.wait_exit(5) == 0, "perch should exit 0 on SIGTERM")
    p.log_file.close()
    # One flipped byte in the pixel data: libpng's CRC of that chunk fails.
    data = bytearray(open(copies[0], "rb").read())
    data[len(data) // 2] ^= 0xFF
    with open(copies[0], "wb") as f:
        f.write(data)

    q, _ = start(t, h)
    # Opened twice: the entry and its header are drawn again each time,
    # and the damage is said once.
    for _ in range(2):
        q.ctl_ok("center", "open")
        poll(lambda: False, 0.8, 0.1)
        img = t.screenshot()
        q.ctl_ok("center", "close")
    check(coloured(img, GREEN) < 20, "the entry should be drawn without the damaged icon: %d green pixels"
          % coloured(img, GREEN))
    lines = [l for l in q.log().splitlines() if "kept copy" in l]
    check(len(lines) == 1 and "damaged" in lines[0] and "electron-icon.png" in lines[0],
          "one line should say the kept copy is damaged; perch logged:\n%s" % q.log()[-1500:])
    check(q.ctl("status").returncode == 0, "perch should keep serving")
    check(kept_copies(t) == [], "the damaged copy should be thrown away: %s" % kept_copies(t))
