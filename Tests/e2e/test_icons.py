"""Icons the way applications send them, checked by the pixels of the icon
box: theme names looked up per the freedesktop Icon Theme Specification
(the config's icon-theme, GTK's settings, inheritance, icon-path), SVG and
JPEG files, file:// URIs, symbolic icons recoloured, the image-path hint,
the desktop-entry hint, a system theme, and hostile files that must not stop
the next toast.

Every fixture is made at test time in a fresh home for the session user
(HOME, XDG_DATA_HOME and XDG_CONFIG_HOME point into it), with pure colours so
that the box's dominant colour tells which file was drawn.
"""

import json
import os
import shutil
import subprocess
import time

from harness import (CARD_FILL, CARD_LEFT, CARD_TOP, CARD_W, MARGIN, SCREEN_W, Image, Perch,
                     TestFailure, check, find_card, fmt, poll, python3, roughly, run_as_root, test)
from test_dbus import DEST, start_bus, wait_for_name
from harness import STATUS_PROBER
from harness import ALL, SWAYS

# Which compositors these tests run on (harness.test).
COMPOSITORS = ALL

ICON = 32          # icon-size: the box is 32 logical px
PADDING = 10       # the icon box's top-left corner is `padding` inside the card
ICON_GAP = 10      # between the icon and the text column
PROBE_Y = CARD_TOP + 15
TITLE = "WWWWWWWW"  # wide glyphs: without an icon they cover the icon's room

RED = (255, 0, 0)
GREEN = (0, 255, 0)
BLUE = (0, 0, 255)
MAGENTA = (255, 0, 255)
WHITE = (255, 255, 255)
BLACK = (0, 0, 0)
COLOURS = [("red", RED), ("green", GREEN), ("blue", BLUE), ("magenta", MAGENTA),
           ("white", WHITE), ("black", BLACK)]


# --------------------------------------------------------------------------
# Fixtures

def svg_square(colour, size=32):
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">'
            '<rect width="%d" height="%d" fill="#%02x%02x%02x"/></svg>\n'
            % ((size,) * 6 + tuple(colour)))


def png_bytes(colour, size=32):
    """A size x size PNG of one colour, by the harness's PNG writer."""
    return image_png(Image(size, size, bytes(colour) * (size * size)))


def image_png(img):
    import tempfile
    fd, path = tempfile.mkstemp(suffix=".png")
    os.close(fd)
    try:
        img.save_png(path)
        with open(path, "rb") as f:
            return f.read()
    finally:
        os.unlink(path)


def noise_image(size):
    """An image that does not compress, so cutting its file cuts the pixels."""
    return Image(size, size, os.urandom(size * size * 3))


def jpeg_bytes(img):
    """A JPEG of img: cjpeg (libjpeg-turbo-progs), else PIL; None if neither."""
    ppm = b"P6\n%d %d\n255\n" % (img.width, img.height) + bytes(img.data)
    if shutil.which("cjpeg"):
        r = subprocess.run(["cjpeg", "-quality", "95"], input=ppm, capture_output=True)
        if r.returncode == 0 and r.stdout[:2] == b"\xff\xd8":
            return r.stdout
    try:
        import io
        from PIL import Image as PILImage
    except ImportError:
        return None
    out = io.BytesIO()
    PILImage.frombytes("RGB", (img.width, img.height), bytes(img.data)).save(out, "JPEG", quality=95)
    return out.getvalue()


def need_jpeg(img):
    data = jpeg_bytes(img)
    check(data is not None, "cannot run (the harness has no skip): no JPEG can be made here, neither cjpeg "
          "(Debian's libjpeg-turbo-progs) nor python3 PIL is installed")
    return data


class Home:
    """A fresh home for the session user: HOME, XDG_DATA_HOME
    (home/.local/share) and XDG_CONFIG_HOME (home/.config)."""

    def __init__(self, t):
        self.t = t
        self.root = t.user_dir()
        self.data = os.path.join(self.root, ".local", "share")
        self.config = os.path.join(self.root, ".config")
        os.makedirs(self.data)
        os.makedirs(self.config)

    def path(self, rel):
        return rel if os.path.isabs(rel) else os.path.join(self.root, rel)

    def write(self, rel, content, mode=0o644):
        path = self.path(rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(content.encode() if isinstance(content, str) else content)
        os.chmod(path, mode)
        return path

    def icons(self, theme):
        return os.path.join(self.data, "icons", theme)

    def theme(self, name, inherits="hicolor", extra=""):
        """$XDG_DATA_HOME/icons/NAME with a 32x32/apps Fixed directory and a
        scalable/apps Scalable one."""
        text = ("[Icon Theme]\nName=%s\nComment=Perch e2e test theme\n" % name
                + ("Inherits=%s\n" % inherits if inherits else "")
                + "Directories=32x32/apps,scalable/apps\n\n"
                "[32x32/apps]\nSize=32\nContext=Applications\nType=Fixed\n\n"
                "[scalable/apps]\nSize=32\nMinSize=8\nMaxSize=512\nContext=Applications\nType=Scalable\n"
                + extra)
        self.write(os.path.join(self.icons(name), "index.theme"), text)
        os.makedirs(os.path.join(self.icons(name), "32x32", "apps"), exist_ok=True)
        os.makedirs(os.path.join(self.icons(name), "scalable", "apps"), exist_ok=True)
        return self.icons(name)

    def theme_png(self, theme, name, colour):
        return self.write(os.path.join(self.icons(theme), "32x32", "apps", name + ".png"), png_bytes(colour))

    def theme_svg(self, theme, name, text):
        return self.write(os.path.join(self.icons(theme), "scalable", "apps", name + ".svg"), text)

    def perch_config(self, text):
        return self.write(os.path.join(self.config, "perch", "config"), text)

    def own(self):
        """Everything under the home belongs to the session user, as a real
        user's files would."""
        if not run_as_root():
            return
        pw = self.t.sway().pw
        for d, dirs, files in os.walk(self.root):
            for n in [d] + [os.path.join(d, x) for x in dirs + files]:
                os.lchown(n, pw.pw_uid, pw.pw_gid)

    def env(self):
        return dict(HOME=self.root, XDG_DATA_HOME=self.data, XDG_CONFIG_HOME=self.config)


def test_theme(t, config="icon-theme=TestTheme\n"):
    """The home with TestTheme (red, green, blue, magenta icons) and,
    unless config is None, a perch config choosing it."""
    h = Home(t)
    h.theme("TestTheme")
    for name, colour in (("red", RED), ("green", GREEN), ("blue", BLUE), ("magenta", MAGENTA)):
        h.theme_png("TestTheme", "perch-test-" + name, colour)
    if config is not None:
        h.perch_config(config)
    return h


# --------------------------------------------------------------------------
# The daemon, on its own session bus, in the test's home

def start(t, home, args=()):
    home.own()
    s = t.sway()
    address = start_bus(t)
    env = s.env(DBUS_SESSION_BUS_ADDRESS=address, **home.env())
    p = Perch(s, t.bindir, os.path.join(t.tmp, "perch.log"), env=env, args=list(args))
    t.perch = p
    config = os.path.join(home.config, "perch", "config")
    try:
        p.wait_ready()
    except TestFailure as e:
        text = open(config).read() if os.path.exists(config) else None
        raise TestFailure("%s; config %r; perch logged: %s" % (e, text, p.log().strip()[-700:]))
    wait_for_name(t, env, p)
    return p, env


def gv_string(text):
    return "'%s'" % text.replace("\\", "\\\\").replace("'", "\\'")


def notify(t, env, app_icon="", hints=None, summary=TITLE, body="", replaces=0, timeout_ms=0):
    """Notify over D-Bus (gdbus); hints maps a name to GVariant text (a str
    value is sent as a string). Returns the id."""
    items = []
    for k, v in (hints or {}).items():
        items.append("%s: <%s>" % (gv_string(k), gv_string(v) if isinstance(v, str) else v[0]))
    r = t.sway().run(["gdbus", "call", "--session"] + DEST + [
        "--method", "org.freedesktop.Notifications.Notify", "perch-e2e", str(replaces), app_icon,
        summary, body, "[]", "{%s}" % ", ".join(items), str(timeout_ms)], env=env, timeout=10)
    check(r.returncode == 0, "Notify(app_icon=%r, hints=%r) failed: %s" % (app_icon, hints, r.stderr.strip()))
    out = r.stdout.strip().strip("(),").split()
    check(out and out[-1].isdigit(), "Notify replied %r" % r.stdout)
    return int(out[-1])


def variant(text):
    """A hint value given as GVariant text, not a string."""
    return (text,)


# --------------------------------------------------------------------------
# The icon box

class Box:
    """What the icon box of a card shows: pixels by nearest pure colour."""

    def __init__(self, img, x0, y0, size):
        self.img, self.x0, self.y0, self.size = img, x0, y0, size
        self.x1, self.y1 = x0 + size - 1, y0 + size - 1
        self.counts = {}
        for _, _, p in img.pixels(self.x0, self.y0, self.x1, self.y1):
            k = classify(p)
            self.counts[k] = self.counts.get(k, 0) + 1
        self.total = max(1, sum(self.counts.values()))

    def share(self, name):
        return self.counts.get(name, 0) / self.total

    def describe(self):
        parts = sorted(self.counts.items(), key=lambda kv: -kv[1])
        return "icon box (%d,%d)-(%d,%d): %s; centre %s" % (
            self.x0, self.y0, self.x1, self.y1,
            ", ".join("%s %d%%" % (k, round(100 * v / self.total)) for k, v in parts),
            fmt(self.img.pixel((self.x0 + self.x1) // 2, (self.y0 + self.y1) // 2)))


def classify(p, tol=48):
    if roughly(p, CARD_FILL, 12):
        return "card"
    for name, c in COLOURS:
        if roughly(p, c, tol):
            return name
    return "other"


def icon_box(img, card, scale=1):
    return Box(img, card.left + PADDING * scale, card.top + PADDING * scale, ICON * scale)


def icon_room_kept(img, card):
    """True when the text column starts right of the icon's room: the strip
    between the box and the text is plain card, and there is text right of
    it. Without an icon the title starts at the padding and covers it."""
    x0, x1 = card.left + PADDING + ICON + 2, card.left + PADDING + ICON + ICON_GAP - 2
    y0, y1 = card.top + PADDING, card.top + PADDING + ICON - 1
    strip_clear = all(roughly(p, CARD_FILL, 16) for _, _, p in img.pixels(x0, y0, x1, y1))
    text_right = img.count((x1 + 2, y0, card.right - PADDING, y1), lambda p: min(p) >= 150) >= 20
    return strip_clear and text_right


def wait_icon(t, want, what, timeout=10.0):
    """Polls screenshots until a card rests at the top right and want(box,
    img, card) holds; fails saying what the box shows instead."""
    last = {}

    def probe():
        img = t.screenshot()
        card = find_card(img, PROBE_Y)
        last["card"] = card
        if not card or card.left != CARD_LEFT or card.top != CARD_TOP:
            return None
        box = icon_box(img, card)
        last["box"] = box
        return (img, card, box) if want(box, img, card) else None

    v, waited = poll(probe, timeout, 0.05)
    if v:
        t.notes.append("%s after %.2fs: %s" % (what, waited, v[2].describe()))
        return v
    card, box = last.get("card"), last.get("box")
    if box is None:
        raise TestFailure("%s: no card came to rest at (%d,%d) within %.1fs; last screenshot: %s"
                          % (what, CARD_LEFT, CARD_TOP, timeout, card))
    img = t.shots[-1][1]
    raise TestFailure("%s: not so within %.1fs; %s; %s" % (
        what, timeout, box.describe(),
        "the text keeps the icon's room" if icon_room_kept(img, card)
        else "the text starts where the icon would be (no icon drawn)"))


def mostly(colour_name, share=0.8):
    return lambda box, img, card: box.share(colour_name) >= share


def expect_icon(t, colour_name, what, timeout=10.0):
    return wait_icon(t, mostly(colour_name), "%s: the icon box should be mostly %s" % (what, colour_name),
                     timeout)


# --------------------------------------------------------------------------
# Files by path (what Perch did before themes): the harness's own baseline

@test
def icon_png_by_absolute_path_and_file_uri_is_drawn_in_the_icon_box(t):
    h = Home(t)
    path = h.write("pics/red.png", png_bytes(RED))
    p, env = start(t, h)
    notify(t, env, app_icon=path, body="absolute path")
    expect_icon(t, "red", "app_icon %s" % path)
    _, card, _ = wait_icon(t, lambda b, i, c: icon_room_kept(i, c), "the text keeps the icon's room")
    blue = h.write("pics/blue.png", png_bytes(BLUE))
    p.ctl_ok("dismiss", "--all")
    gone, _ = poll(lambda: find_card(t.screenshot(), PROBE_Y) is None, 3.0, 0.05)
    check(gone, "after dismiss --all the card should go")
    notify(t, env, app_icon="file://" + blue, body="file URI")
    expect_icon(t, "blue", "app_icon file://%s" % blue)


# --------------------------------------------------------------------------
# Theme names

@test
def icon_theme_name_from_a_theme_in_xdg_data_home_is_drawn(t):
    h = test_theme(t)
    p, env = start(t, h)
    r = t.sway().run(["notify-send", "-i", "perch-test-red", TITLE, "notify-send -i perch-test-red"], env=env)
    check(r.returncode == 0, "notify-send failed: %r" % r.stderr)
    expect_icon(t, "red", "notify-send -i perch-test-red with icon-theme=TestTheme")


@test
def icon_theme_inherits_icons_from_its_parent(t):
    h = test_theme(t, config="icon-theme=Child\n")
    h.theme("Child", inherits="TestTheme")
    h.theme_png("Child", "perch-test-child-only", GREEN)
    p, env = start(t, h)
    notify(t, env, app_icon="perch-test-red", body="from Child's parent TestTheme")
    expect_icon(t, "red", "perch-test-red with icon-theme=Child (Inherits=TestTheme)")


@test
def icon_theme_comes_from_gtk_settings_when_the_config_names_none(t):
    h = test_theme(t, config=None)
    h.write(os.path.join(h.config, "gtk-3.0", "settings.ini"),
            "[Settings]\ngtk-theme-name=Adwaita\ngtk-icon-theme-name=TestTheme\n")
    p, env = start(t, h)
    notify(t, env, app_icon="perch-test-red", body="gtk-icon-theme-name=TestTheme")
    expect_icon(t, "red", "perch-test-red with gtk-icon-theme-name=TestTheme in settings.ini")


@test
def icon_path_directories_are_searched_before_the_theme(t):
    h = test_theme(t)
    h.theme_png("TestTheme", "perch-test-dup", RED)
    extra = h.write("my-icons/perch-test-dup.png", png_bytes(GREEN))
    h.perch_config("icon-theme=TestTheme\nicon-path=%s\n" % os.path.dirname(extra))
    p, env = start(t, h)
    notify(t, env, app_icon="perch-test-dup", body="icon-path before TestTheme")
    expect_icon(t, "green", "perch-test-dup in icon-path (green) and TestTheme (red)")


@test
def icon_svg_from_a_theme_is_drawn(t):
    h = test_theme(t)
    h.theme_svg("TestTheme", "perch-test-svg-green", svg_square(GREEN))
    p, env = start(t, h)
    notify(t, env, app_icon="perch-test-svg-green", body="scalable/apps/perch-test-svg-green.svg")
    expect_icon(t, "green", "the theme's scalable perch-test-svg-green.svg")


@test(compositors=SWAYS, why="sets the output scale with swaymsg; labwc has no IPC for it")
def icon_svg_is_drawn_crisp_at_output_scale_2(t):
    h = test_theme(t)
    # Green left of x=16.5, blue right of it: at 64 px the boundary is
    # exactly at pixel 33, sharp; drawn at 32 px and scaled up it is a band.
    h.theme_svg("TestTheme", "perch-test-svg-halves",
                '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">'
                '<rect width="16.5" height="32" fill="#00ff00"/>'
                '<rect x="16.5" width="15.5" height="32" fill="#0000ff"/></svg>\n')
    s = t.sway()
    r = s.swaymsg("output", "HEADLESS-1", "scale", "2")
    check(r.returncode == 0, "swaymsg output HEADLESS-1 scale 2 failed: %r %r" % (r.stdout, r.stderr))
    ok, _ = poll(lambda: [o.get("scale") for o in s.outputs()] == [2.0], 3.0, 0.05)
    check(ok, "HEADLESS-1 did not become scale 2: %r" % [(o["name"], o.get("scale")) for o in s.outputs()])
    p, env = start(t, h)
    notify(t, env, app_icon="perch-test-svg-halves", body="at scale 2")

    # Buffer pixels: the output is 640x360 logical, its screenshot 1280x720.
    left = 2 * (SCREEN_W // 2 - MARGIN - CARD_W)
    top = 2 * CARD_TOP
    bx, by, size = left + 2 * PADDING, top + 2 * PADDING, 2 * ICON
    last = {}

    def measure():
        img = t.screenshot()
        check(img.width == SCREEN_W, "a screenshot at scale 2 should be %d px wide, is %d" % (SCREEN_W, img.width))
        card = find_card(img, 2 * PROBE_Y, x0=SCREEN_W // 2)
        last["card"] = card
        if not card or card.left != left or card.top != top:
            return None
        rows = []
        for y in (by + 4, by + size // 2, by + size - 5):
            xs = list(range(bx - 6, bx + size + 6))
            kinds = [classify(img.pixel(x, y), tol=8) for x in xs]
            inside = [x for x, k in zip(xs, kinds) if k != "card"]
            first, last_x = (inside[0], inside[-1]) if inside else (None, None)
            # Within the icon, pixels neither pure green nor pure blue: blur.
            band = [(x, fmt(img.pixel(x, y))) for x, k in zip(xs, kinds)
                    if k not in ("green", "blue", "card")]
            rows.append(dict(y=y, first=first, span=(last_x - first + 1) if inside else 0,
                             green=kinds.count("green"), blue=kinds.count("blue"), band=band))
        last["rows"] = rows
        last["box"] = Box(img, bx, by, size)
        good = all(r["first"] == bx and r["span"] == size and len(r["band"]) <= 1
                   and r["green"] >= 32 and r["blue"] >= 30 for r in rows)
        return rows if good else None

    rows, waited = poll(measure, 4.0, 0.05)
    if rows:
        t.notes.append("crisp after %.2fs" % waited)
        return
    if "rows" not in last:
        raise TestFailure("at scale 2 no card came to rest with its top-left at buffer (%d,%d) within 4s; "
                          "last screenshot: %s" % (left, top, last.get("card")))
    detail = ["row y=%d: icon from x=%s over %d px (want x=%d, 64 px), green %d, blue %d (want 33, 31), "
              "%d blurred px %s" % (r["y"], r["first"], r["span"], bx, r["green"], r["blue"], len(r["band"]),
                                    r["band"][:6]) for r in last["rows"]]
    raise TestFailure("at scale 2 the SVG icon should fill a 64-buffer-px box with sharp edges (<= 1 px "
                      "between colours); %s; %s" % (last["box"].describe(), "; ".join(detail)))


@test
def icon_symbolic_is_drawn_in_the_text_colour(t):
    h = test_theme(t)
    # Black, with an 8x8 hole in the middle: recolouring keeps the shape.
    h.theme_svg("TestTheme", "edit-test-symbolic",
                '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">'
                '<path fill="#000" fill-rule="evenodd" d="M0 0H32V32H0Z M12 12V20H20V12Z"/></svg>\n')
    p, env = start(t, h)
    notify(t, env, app_icon="edit-test-symbolic", body="black symbolic icon")

    def light(box, img, card):
        inner = Box(img, box.x0 + 1, box.y0 + 1, box.size - 2)
        hole = Box(img, box.x0 + 13, box.y0 + 13, 6)
        return inner.share("white") >= 0.75 and inner.share("black") <= 0.02 and hole.share("card") >= 0.9
    wait_icon(t, light, "edit-test-symbolic (black) should be drawn in the text colour (white) with its "
              "hole left as card")


@test
def icon_svg_by_absolute_path_is_drawn(t):
    h = Home(t)
    path = h.write("pics/magenta.svg", svg_square(MAGENTA, 48))
    p, env = start(t, h)
    notify(t, env, app_icon=path, body="an SVG by path")
    expect_icon(t, "magenta", "app_icon %s" % path)


@test
def icon_jpeg_by_file_uri_with_an_escaped_space_is_drawn(t):
    h = Home(t)
    path = h.write("pics/my icon.jpg", need_jpeg(Image(32, 32, bytes(BLUE) * 1024)))
    uri = "file://" + os.path.dirname(path).replace(" ", "%20") + "/my%20icon.jpg"
    p, env = start(t, h)
    notify(t, env, app_icon=uri, body="a JPEG by URI")
    expect_icon(t, "blue", "app_icon %s" % uri)


# --------------------------------------------------------------------------
# Which of the notification's icons wins

@test
def icon_image_path_hint_beats_app_icon(t):
    h = test_theme(t)
    p, env = start(t, h)
    notify(t, env, app_icon="perch-test-red", hints={"image-path": "perch-test-blue"},
           body="image-path blue, app_icon red")
    expect_icon(t, "blue", "image-path=perch-test-blue over app_icon=perch-test-red")


@test
def icon_app_icon_is_used_when_the_image_path_name_is_in_no_theme(t):
    h = test_theme(t)
    p, env = start(t, h)
    notify(t, env, app_icon="perch-test-red", hints={"image-path": "perch-test-nowhere"},
           body="image-path in no theme, app_icon red")
    expect_icon(t, "red", "app_icon=perch-test-red after image-path=perch-test-nowhere, which no theme has")


@test
def icon_image_data_beats_image_path_hint(t):
    h = test_theme(t)
    p, env = start(t, h)
    pixels = "[byte " + ", ".join(["0x00, 0xff, 0x00, 0xff"] * (32 * 32)) + "]"
    notify(t, env, app_icon="perch-test-red",
           hints={"image-data": variant("(32, 32, 128, true, 8, 4, %s)" % pixels), "image-path": "perch-test-blue"},
           body="image-data green, image-path blue")
    expect_icon(t, "green", "image-data (green) over image-path=perch-test-blue")


@test
def icon_from_the_desktop_entry_hint_when_no_other_is_given(t):
    h = test_theme(t)
    h.write(os.path.join(h.data, "applications", "org.perch.Test.desktop"),
            "[Desktop Entry]\nType=Application\nName=Perch Test\nExec=true\nIcon=perch-test-magenta\n")
    p, env = start(t, h)
    notify(t, env, hints={"desktop-entry": "org.perch.Test"}, body="desktop-entry org.perch.Test")
    expect_icon(t, "magenta", "desktop-entry=org.perch.Test (Icon=perch-test-magenta), no app_icon")


@test
def icon_system_theme_name_dialog_information_is_drawn(t):
    r = subprocess.run(["dpkg-query", "-W", "-f=${Status}", "adwaita-icon-theme"], capture_output=True, text=True)
    check(r.stdout.strip() == "install ok installed",
          "Debian's adwaita-icon-theme is not installed (scripts/ensure-deps installs it): "
          "dialog-information cannot be looked up")
    h = Home(t)
    p, env = start(t, h)
    notify(t, env, app_icon="dialog-information", body="Adwaita, no icon-theme")

    def drawn(box, img, card):
        return box.share("card") <= 0.9 and icon_room_kept(img, card)
    wait_icon(t, drawn, "dialog-information (Adwaita): the icon box should hold an icon (not only card) "
              "and the text should start right of it")


# --------------------------------------------------------------------------
# Hostile files



@test
def icon_hostile_files_do_not_stop_the_next_toast(t):
    h = Home(t)
    red = h.write("pics/red.png", png_bytes(RED))
    bad = h.path("bad")
    os.makedirs(bad)
    fifo = os.path.join(bad, "fifo.png")
    os.mkfifo(fifo, 0o644)
    directory = os.path.join(bad, "dir.png")
    os.makedirs(directory)
    big = h.write("bad/big.png", b"")
    subprocess.run(["truncate", "-s", "50M", big], check=True)
    whole = image_png(noise_image(96))
    truncated = h.write("bad/truncated.png", whole[:len(whole) // 2])
    huge = h.write("bad/huge.svg",
                   '<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000" '
                   'viewBox="0 0 100000 100000"><rect width="100000" height="100000" fill="#808080"/></svg>\n')
    laughs = h.write("bad/laughs.svg",
                     '<?xml version="1.0"?>\n<!DOCTYPE svg [\n<!ENTITY lol "lol">\n'
                     + "".join('<!ENTITY lol%d "%s">\n' % (i, ("&lol%s;" % (i - 1 if i > 1 else "")) * 10)
                               for i in range(1, 10))
                     + ']>\n<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32">'
                       '<text x="0" y="16">&lol9;</text></svg>\n')
    external = h.write("bad/external.svg",
                       '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                       'width="32" height="32"><image href="file://%s" xlink:href="file://%s" width="32" '
                       'height="32"/><image href="../pics/red.png" width="32" height="32"/></svg>\n' % (red, red))
    # Themes: one inheriting itself, one whose index.theme is garbage.
    h.write(os.path.join(h.icons("PerchLoop"), "index.theme"),
            "[Icon Theme]\nName=PerchLoop\nInherits=PerchLoop,PerchBroken\nDirectories=32x32/apps\n\n"
            "[32x32/apps]\nSize=32\nType=Fixed\n")
    h.write(os.path.join(h.icons("PerchBroken"), "index.theme"), b"\x00\xff\xfe[Icon Th\x80eme\nInherits=\xc3(\n")
    h.write(os.path.join(h.config, "gtk-3.0", "settings.ini"), "[Settings]\ngtk-icon-theme-name=PerchLoop\n")
    sources = [(fifo, fifo), ("/dev/zero", "/dev/zero"), (directory, directory), (big, big),
               (truncated, truncated), (huge, huge), (laughs, laughs), (external, external),
               ("../../etc/passwd", "etc/passwd"), ("perch-test-absent", "PerchLoop"),
               ("perch-test-absent-too", "PerchBroken")]
    jpeg = jpeg_bytes(noise_image(96))
    if jpeg:
        cut = h.write("bad/truncated.jpg", jpeg[:len(jpeg) // 2])
        sources.append(("file://" + cut, cut))
    else:
        t.notes.append("no truncated JPEG: neither cjpeg nor PIL is installed")
    h.own()

    p, env = start(t, h)
    stopfile = os.path.join(h.root, "stop-prober")
    prober = t.sway().popen([python3(), "-c", STATUS_PROBER, p.socket_path, stopfile, "3"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    ctl_times = []
    nid = 0
    t0 = time.monotonic()
    for round_ in range(2):
        for icon, _ in sources:
            nid = notify(t, env, app_icon=icon, body="bad icon %s" % icon[-40:], replaces=nid)
            c0 = time.monotonic()
            r = p.ctl("status")
            ctl_times.append((time.monotonic() - c0, icon))
            check(r.returncode == 0, "perchctl status failed after the icon %r: %r %r" % (icon, r.stdout, r.stderr))
            check(p.proc.poll() is None, "perch exited (%r) after the icon %r" % (p.proc.returncode, icon))
    # A NUL cannot cross D-Bus; the control socket's JSON can carry one.
    reply = p.raw([json.dumps({"id": 1, "method": "notify",
                               "params": {"title": "NUL", "icon": "perch-test\u0000red", "timeout": 1}})])
    check(isinstance(reply[0], dict) and ("result" in reply[0] or "error" in reply[0]),
          "a notify whose icon name has a NUL should get a reply, got %r" % reply)
    posted = time.monotonic() - t0
    # The last bad one is on screen, without an icon.
    def settled():
        img = t.screenshot()
        card = find_card(img, PROBE_Y)
        return (img, card) if card and card.left == CARD_LEFT and card.top == CARD_TOP else None
    v, _ = poll(settled, 2.0, 0.05)
    check(v, "the toast with the bad icons should be on screen: %s" % find_card(t.shots[-1][1], PROBE_Y))
    check(not icon_room_kept(*v), "the toast with the last bad icon (%s) should show without an icon; %s"
          % (sources[-1][0], icon_box(*v).describe()))

    t1 = time.monotonic()
    notify(t, env, app_icon=red, body="a good icon after the bad ones")
    _, card, _ = expect_icon(t, "red", "the next toast (app_icon %s)" % red, timeout=2.0)
    shown = time.monotonic() - t1

    with open(stopfile, "w"):
        pass
    try:
        out, err = prober.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        prober.kill()
        raise TestFailure("the status prober did not stop")
    try:
        lat = json.loads(out)
    except ValueError:
        raise TestFailure("the status prober failed: %r %r" % (out, err))
    worst_ctl = max(ctl_times)
    t.notes.append("posted %d bad icons in %.2fs; the next toast was red after %.2fs; %d status replies, "
                   "slowest %.1f ms; slowest perchctl status %.1f ms (after %s)"
                   % (2 * len(sources), posted, shown, len(lat), 1000 * max(lat or [0]),
                      1000 * worst_ctl[0], worst_ctl[1]))
    check(lat and min(lat) >= 0, "the control socket closed under the status prober: %r" % lat[-5:])
    check(max(lat) < 0.1, "status should answer within 100 ms throughout; the slowest of %d took %.0f ms"
          % (len(lat), 1000 * max(lat)))
    # perchctl's own start-up is in this figure (about 10 ms here); the
    # daemon's answer time is the prober's, above.
    check(worst_ctl[0] < 0.3, "perchctl status took %.0f ms after the icon %r"
          % (1000 * worst_ctl[0], worst_ctl[1]))

    log = p.log()
    lines = log.splitlines()
    repeated = []
    themes = ("PerchLoop", "PerchBroken")

    def mentions(key):
        # A line about the broken theme may name the one inheriting it.
        others = [k for k in themes if k != key] if key in themes else []
        return sum(1 for line in lines if key in line and not any(o in line for o in others))
    for icon, key in sources:
        if mentions(key) > 1:
            repeated.append("%r: %d lines" % (key, mentions(key)))
    t.notes.append("log lines per source: " + ", ".join(
        "%s=%d" % (os.path.basename(key) or key, mentions(key)) for _, key in sources))
    check(not repeated, "each bad source should be logged at most once although posted twice; %s"
          % "; ".join(repeated))
    r = t.sway().run(["gdbus", "call", "--session"] + DEST + [
        "--method", "org.freedesktop.Notifications.GetServerInformation"], env=env)
    check(r.returncode == 0, "perch should still serve D-Bus: %r" % r.stderr)


@test
def icon_svg_referencing_external_files_does_not_load_them(t):
    h = Home(t)
    red = h.write("pics/red.png", png_bytes(RED))
    svg = h.write("pics/external.svg",
                  '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                  'width="32" height="32" viewBox="0 0 32 32">'
                  '<rect width="32" height="32" fill="#00ff00"/>'
                  '<image href="file://%s" xlink:href="file://%s" width="16" height="32"/>'
                  '<image x="16" href="red.png" xlink:href="red.png" width="16" height="32"/></svg>\n'
                  % (red, red))
    p, env = start(t, h)
    notify(t, env, app_icon=svg, body="an SVG with image elements naming files")
    # Either the SVG is drawn without the images (green) or rejected (no
    # icon); never with the red file in it.

    def settled():
        im = t.screenshot()
        c = find_card(im, PROBE_Y)
        return (im, c) if c and c.left == CARD_LEFT and c.top == CARD_TOP else None
    v, _ = poll(settled, 4.0, 0.05)
    check(v, "no card came to rest at the top right")
    time.sleep(0.3)
    img = t.screenshot()
    card = find_card(img, PROBE_Y)
    box = icon_box(img, card)
    t.notes.append(box.describe())
    check(box.counts.get("red", 0) == 0, "the external red PNG was drawn into the SVG icon: %s" % box.describe())


# --------------------------------------------------------------------------
# SVG icons are rendered by a warm helper through the loop: the toast is
# drawn at once and again when its icon comes; nothing waits for librsvg.

def slow_svg(colour_level=8):
    """Nested patterns: librsvg 2.54 renders this for many seconds; the
    helper is killed at its 1 s deadline (the icon fails)."""
    patterns = ('<pattern id="p0" width="1" height="1" patternUnits="userSpaceOnUse">'
                '<rect width="1" height="1" fill="red"/></pattern>')
    for level in range(1, colour_level + 1):
        patterns += ('<pattern id="p%d" width="10" height="10" patternUnits="userSpaceOnUse">' % level
                     + "".join('<rect x="%d" width="1" height="10" fill="url(#p%d)"/>' % (x, level - 1)
                               for x in range(10))
                     + "</pattern>")
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="32" height="32">'
            '<defs>%s</defs><rect width="10" height="10" fill="url(#p%d)"/></svg>\n' % (patterns, colour_level))


def helper_pids(perch_pid):
    """The perch-svg processes whose parent is perch."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                fields = f.read().rsplit(")", 1)
            name = fields[0].split("(", 1)[1]
            ppid = int(fields[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if ppid == perch_pid and name == "perch-svg":
            pids.append(int(entry))
    return pids


@test
def icon_svgs_come_after_their_toast_from_one_warm_helper(t):
    h = Home(t)
    first = h.write("pics/magenta.svg", svg_square(MAGENTA, 48))
    second = h.write("pics/green.svg", svg_square(GREEN, 24))
    p, env = start(t, h)
    nid = notify(t, env, app_icon=first, body="an SVG by path")
    expect_icon(t, "magenta", "app_icon %s" % first)
    running = helper_pids(p.proc.pid)
    check(len(running) == 1, "after the first SVG icon one perch-svg helper should stay, ready for the next; "
          "perch's perch-svg children: %r" % running)
    notify(t, env, app_icon=second, body="another SVG, replacing it", replaces=nid)
    expect_icon(t, "green", "the replacement's app_icon %s" % second)
    check(helper_pids(p.proc.pid) == running, "the second SVG should be rendered by the same helper (%r), "
          "not a new one: %r" % (running, helper_pids(p.proc.pid)))


@test
def icon_slow_svgs_do_not_hold_back_the_next_toast_nor_status(t):
    h = Home(t)
    red = h.write("pics/red.png", png_bytes(RED))
    # Distinct files: each is rendered (and overruns its 1 s) once.
    slow = [h.write("bad/slow%d.svg" % i, slow_svg().replace("red", "#%02x0000" % (200 + i)))
            for i in range(6)]
    # Room for all of them and the plain one on screen: each is drawn, so
    # each icon is rendered.
    h.write(os.path.join(h.config, "perch", "config"), "max-visible=10\n")
    p, env = start(t, h)
    # Sent without waiting for the replies: a daemon that rendered them in
    # its loop would take a second over each, and answer nothing meanwhile.
    senders = [t.sway().popen(["gdbus", "call", "--session"] + DEST + [
        "--method", "org.freedesktop.Notifications.Notify", "perch-e2e", "0", path, "Slow %d" % i,
        "a slow SVG", "[]", "{}", "0"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for i, path in enumerate(slow)]
    time.sleep(0.2)
    try:
        r = p.ctl("status", timeout=3)
    except subprocess.TimeoutExpired:
        raise TestFailure("perchctl status got no answer within 3 s while slow SVG icons were being rendered")
    check(r.returncode == 0, "perchctl status failed while slow SVGs were rendered: %r %r" % (r.stdout, r.stderr))
    try:
        r = p.ctl("post", "--icon", red, "Plain", "posted after the slow SVGs", timeout=3)
    except subprocess.TimeoutExpired:
        raise TestFailure("perchctl post got no answer within 3 s while slow SVG icons were being rendered")
    check(r.returncode == 0, "perchctl post failed: %r %r" % (r.stdout, r.stderr))
    # The newest is nearest the corner: the plain toast, with its red icon.
    expect_icon(t, "red", "the plain toast posted after the slow SVGs", timeout=3.0)
    for sender in senders:
        try:
            sender.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            sender.kill()
            raise TestFailure("a Notify with a slow SVG icon got no reply")
    check(p.proc.poll() is None, "perch exited (%r)" % p.proc.returncode)

    # Each icon is given up at its deadline (one after the other: each
    # render waits for the one before), and told once.
    def told():
        log = p.log()
        return log if all(path in log for path in slow) else None
    log, _ = poll(told, 15.0, 0.2)
    log = log or p.log()
    for path in slow:
        lines = [line for line in log.splitlines() if path in line]
        check(len(lines) == 1 and "rendering took longer than 1000 ms" in lines[0],
              "%s should be told once, as overrunning its time; the log has %r" % (os.path.basename(path), lines))
    r = p.ctl("status", timeout=3)
    check(r.returncode == 0, "perchctl status failed after the slow SVGs: %r" % r.stderr)
