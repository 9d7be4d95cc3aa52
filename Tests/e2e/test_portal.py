"""Perch as the Notification portal's backend (issue 43, item 1).

The front end is Debian 13's xdg-desktop-portal 1.20 (with
xdg-permission-store, which it needs), run inside the Debian 13 root
against the session bus Perch is on. It is not one of the root's
packages: its .deb and libjson-glib's are fetched with apt-get download
from the root's own lists (debian13.fetch) and unpacked into the
session's runtime directory, which the root sees at the same path.

It validates icons and sounds by running its validators under bwrap,
which cannot make a sandbox inside the chroot: the test points it at the
unpacked validators (XDP_VALIDATE_ICON, XDP_VALIDATE_SOUND) and runs them
in their documented insecure mode (XDP_VALIDATE_ICON_INSECURE,
XDP_VALIDATE_SOUND_INSECURE), without the sandbox. The front end picks
Perch through a portals.conf in its XDG_CONFIG_HOME and the repo's
perch.portal in XDG_DESKTOP_PORTAL_DIR.

The app is a caller on the host under bwrap with a .flatpak-info bound
at /.flatpak-info (as in test_sandbox), so the front end gives it the app
id org.example.Chat. It calls the front end with gdbus, which cannot
pass file descriptors (nor can Debian 12's busctl, and the host has no
python3-gi): its icon is a `bytes` icon, which the front end validates
and hands Perch, a version-2 backend, as a sealed memfd: the
file-descriptor path is what Perch reads.
The desktop entry org.example.Chat.desktop (in Perch's XDG_DATA_HOME)
names the app.

The direct-to-backend tests (sway17) call org.freedesktop.impl.portal.
desktop.perch themselves: with gdbus for version 1's shape (bytes icons,
no purposes), actions and bad input; with a small sd-bus client compiled
by the test for version 2's file descriptors (an icon, a sound). Debian
12's own xdg-desktop-portal 1.16 on the host is the version-1 front
end."""

import os
import re
import shutil
import struct
import subprocess
import tempfile
import time
import zlib

from harness import CARD_LEFT, CARD_W, MARGIN, REPO, SWAY17, TestFailure, check, poll, test
from test_dbus import card_at_rest, start

COMPOSITORS = SWAY17
COMPOSITORS_WHY = "the backend's D-Bus interface; the front end runs in the Debian 13 root"

BACKEND = ["--dest", "org.freedesktop.impl.portal.desktop.perch",
           "--object-path", "/org/freedesktop/portal/desktop"]
IMPL = "org.freedesktop.impl.portal.Notification"
APP_ID = "org.example.Chat"
APP_NAME = "Chatty Chat"
MAGENTA = (255, 0, 255)
GREEN = (0, 200, 0)


def png(width, height, rgb):
    """A PNG of one colour."""
    raw = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))

    def chunk(kind, body):
        c = struct.pack(">I", len(body)) + kind + body
        return c + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def readable_dir(t, name):
    d = os.path.join(t.tmp, name)
    os.makedirs(d, exist_ok=True)
    os.chmod(d, 0o755)
    return d


def write(path, data, mode=0o644):
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
    os.chmod(path, mode)


def with_desktop_entry(t):
    """XDG_DATA_HOME with org.example.Chat.desktop (its icon a green PNG)."""
    data = readable_dir(t, "data")
    apps = readable_dir(t, "data/applications")
    icon = os.path.join(data, "chat-icon.png")
    write(icon, png(32, 32, GREEN))
    write(os.path.join(apps, APP_ID + ".desktop"),
          "[Desktop Entry]\nType=Application\nName=%s\nName[de]=Plauder-Chat\nIcon=%s\nExec=true\n"
          % (APP_NAME, icon))
    return data


def start_with_app(t):
    return start(t, extra_env={"XDG_DATA_HOME": with_desktop_entry(t)})


def start_on_shared_bus(t):
    """As start_with_app, with the bus's socket in the session's runtime
    directory, which the Debian root sees at the same path (the host's
    /tmp, where dbus-daemon puts it by default, it does not)."""
    from harness import Perch
    s = t.sway()
    address = "unix:path=" + os.path.join(s.dir, "portal-bus")
    proc = s.popen(["dbus-daemon", "--session", "--nofork", "--print-address=1", "--nopidfile",
                    "--address=" + address], env=s.env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    printed = proc.stdout.readline().decode().strip()
    check(printed.startswith(address), "dbus-daemon did not listen at %s: %r" % (address, printed))
    env = s.env(DBUS_SESSION_BUS_ADDRESS=printed, XDG_DATA_HOME=with_desktop_entry(t))
    p = Perch(s, t.bindir, os.path.join(t.tmp, "perch.log"), env=env, args=[])
    t.perch = p
    p.wait_ready()
    ok, _ = poll(lambda: backend(t, env, "--method", "org.freedesktop.DBus.Peer.Ping").returncode == 0 or None,
                 5.0, 0.1)
    check(ok, "perch did not take the portal backend's name; log:\n%s" % p.log())
    return p, env


def backend(t, env, *args, timeout=5):
    return t.sway().run(["gdbus", "call", "--session"] + BACKEND + list(args), env=env, timeout=timeout)


def add(t, env, app_id, nid, vardict):
    return backend(t, env, "--method", IMPL + ".AddNotification", app_id, nid, vardict)


def listed(p):
    return p.list()


def colour_count(img, colour, tol=40):
    """How many pixels of the top-right card's place are roughly `colour`."""
    n = 0
    for y in range(MARGIN, MARGIN + 120):
        for x in range(CARD_LEFT, CARD_LEFT + CARD_W):
            px = img.pixel(x, y)
            if all(abs(a - b) <= tol for a, b in zip(px, colour)):
                n += 1
    return n


def monitor(t, env, rules):
    """dbus-monitor for `rules`, writing to a file; back once it watches
    (it has then given up its own name: NameLost)."""
    path = os.path.join(t.tmp, "monitor-%d.txt" % time.monotonic_ns())
    with open(path, "wb") as out:
        m = t.sway().popen(["dbus-monitor", "--session"] + rules, env=env, stdout=out,
                           stderr=subprocess.DEVNULL)
    m.out_path = path
    watching, _ = poll(lambda: "member=NameLost" in seen(m) or None, 5.0, 0.05)
    check(watching, "dbus-monitor did not start watching: %r" % seen(m))
    return m


def seen(m):
    with open(m.out_path, "rb") as f:
        return f.read().decode(errors="replace")


def monitored(m, *wanted):
    """What the monitor saw, once each of `wanted` is in it (or after 5 s:
    the caller's check says what is missing)."""
    poll(lambda: all(w in seen(m) for w in wanted) or None, 5.0, 0.05)
    m.terminate()
    m.wait(timeout=5)
    return seen(m)


# ---- Direct to the backend (sway 1.7's pass) ----

@test
def the_backend_reports_version_2_and_its_options(t):
    p, env = start_with_app(t)
    r = backend(t, env, "--method", "org.freedesktop.DBus.Properties.GetAll", IMPL)
    check(r.returncode == 0, "GetAll of the backend failed: %r" % r.stderr)
    check("'version': <uint32 2>" in r.stdout, "version should be 2: %r" % r.stdout)
    for word in ("'button-purpose'", "'im.reply-with-text'", "'call.accept'", "'call.decline'", "'category'",
                 "'im.received'", "'call.incoming'"):
        check(word in r.stdout, "SupportedOptions should name %s: %r" % (word, r.stdout))


@test
def a_version_1_notification_shows_with_the_apps_name_and_its_bytes_icon(t):
    """What xdg-desktop-portal 1.16 (Debian 12) sends: title, body, a
    `bytes` icon, priority, buttons without purposes. The plain body is
    drawn as written (not read as markup), `high` is not critical."""
    p, env = start_with_app(t)
    icon = ", ".join("0x%02x" % b for b in png(24, 24, MAGENTA))
    r = add(t, env, APP_ID, "m1", "{'title': <'Ann'>, 'body': <'x = <tab>; a < b'>, "
            "'icon': <('bytes', <[byte %s]>)>, 'priority': <'high'>, "
            "'buttons': <[{'label': <'Open'>, 'action': <'open'>}]>}" % icon)
    check(r.returncode == 0, "AddNotification failed: %r" % r.stderr)
    card_at_rest(t)
    items = listed(p)
    check(len(items) == 1, "one notification: %r" % items)
    n = items[0]
    check(n["app"] == APP_NAME, "the app name should come from the desktop entry: %r" % n)
    check(n["body"] == "x = &lt;tab&gt;; a &lt; b", "the plain body should be escaped: %r" % n["body"])
    check(n["urgency"] == "normal", "high is normal, not critical: %r" % n)
    check(n.get("desktop_entry") == APP_ID and n.get("sandbox") == APP_ID, "entry and sandbox: %r" % n)
    img = t.shots[-1][1]
    check(colour_count(img, MAGENTA) > 200, "the bytes icon (magenta) should be drawn on the card")


@test
def the_same_pair_replaces_in_place_and_remove_closes_it(t):
    p, env = start_with_app(t)
    r = add(t, env, APP_ID, "dl", "{'title': <'Downloading'>, 'body': <'10 %'>}")
    check(r.returncode == 0, "AddNotification failed: %r" % r.stderr)
    card_at_rest(t)
    first = listed(p)[0]["id"]
    r = add(t, env, APP_ID, "dl", "{'title': <'Downloading'>, 'body': <'90 %'>}")
    check(r.returncode == 0, "the second AddNotification failed: %r" % r.stderr)
    items = listed(p)
    check(len(items) == 1 and items[0]["id"] == first and items[0]["body"] == "90 %",
          "the same (app_id, id) should update %d in place: %r" % (first, items))
    # Another app's pair of the same id is its own notification.
    r = add(t, env, "org.example.Other", "dl", "{'title': <'Other app'>}")
    check(r.returncode == 0 and len(listed(p)) == 2, "another app's 'dl' is another notification: %r" % listed(p))
    # The app's icon, with none of its own: the desktop entry's (green).
    card_at_rest(t, count=2)
    check(colour_count(t.shots[-1][1], GREEN) > 200, "the desktop entry's icon (green) should be drawn")
    m = monitor(t, env, ["interface='org.freedesktop.Notifications'"])
    r = backend(t, env, "--method", IMPL + ".RemoveNotification", APP_ID, "dl")
    check(r.returncode == 0, "RemoveNotification failed: %r" % r.stderr)
    gone, _ = poll(lambda: first not in [n["id"] for n in listed(p)], 3.0, 0.1)
    check(gone, "RemoveNotification should close %d: %r" % (first, listed(p)))
    out = monitored(m, "member=NotificationClosed")
    check("uint32 %d\n   uint32 3" % first in out, "closed by call (reason 3):\n%s" % out[-1500:])
    # Unknown pairs: no error, nothing else closed.
    r = backend(t, env, "--method", IMPL + ".RemoveNotification", APP_ID, "nothing")
    check(r.returncode == 0 and len(listed(p)) == 1, "removing an unknown pair: %r %r" % (r.stderr, listed(p)))
    # A new AddNotification of the removed pair is a new notification.
    add(t, env, APP_ID, "dl", "{'title': <'Again'>}")
    ids = [n["id"] for n in listed(p)]
    check(first not in ids and len(ids) == 2, "the freed pair gets a new id: %r" % ids)


@test
def bad_portal_input_gets_a_clear_error_and_no_crash(t):
    p, env = start_with_app(t)
    cases = [
        ("{'title': <uint32 7>}", "title has type u, expected s"),
        ("{'priority': <'sometimes'>}", "priority \"sometimes\" is not low, normal, high or urgent"),
        ("{'buttons': <[{'label': <'No action'>}]>}", "buttons[0] has no action"),
        ("{'display-hint': <['transient', 'tray']>}", "transient and tray contradict"),
        ("{'display-hint': <['blinking']>}", "display-hint \"blinking\" is not one of"),
        ("{'buttons': <[{'action': <'x'>, 'purpose': <'toaster.pop'>}]>}", "is none of the portal's"),
        ("{'sound': <'loud'>}", "sound \"loud\" is neither default nor silent"),
        ("{'icon': <uint32 1>}", "icon has type u, expected (sv)"),
    ]
    for vardict, words in cases:
        r = add(t, env, APP_ID, "bad", vardict)
        check(r.returncode != 0 and "InvalidArgs" in r.stderr and words in r.stderr,
              "%s should be refused saying %r: %r %r" % (vardict, words, r.stdout, r.stderr))
    # Unknown keys are ignored; a huge title is cut, not refused.
    huge = "W" * 100000
    r = add(t, env, APP_ID, "big", "{'title': <'%s'>, 'x-unknown': <'?'>, 'weird': <[1, 2]>}" % huge)
    check(r.returncode == 0, "unknown keys and a long title should be taken: %r" % r.stderr[:300])
    items = listed(p)
    check(len(items) == 1 and len(items[0]["title"]) < len(huge), "the title is bounded: %d" % len(items[0]["title"]))
    # A wrong signature is refused by sd-bus itself.
    r = backend(t, env, "--method", IMPL + ".AddNotification", APP_ID, "x")
    check(r.returncode != 0, "a call without its dictionary should fail")
    check(p.proc.poll() is None, "perch died")
    card_at_rest(t)


# ---- Through xdg-desktop-portal 1.20 (Debian 13 root) ----

FRONT_END_PACKAGES = ["xdg-desktop-portal", "libjson-glib-1.0-0"]


class FrontEnd:
    """xdg-permission-store and xdg-desktop-portal 1.20 from the Debian 13
    root, on the bus of `env`, choosing Perch for notifications."""

    def __init__(self, t, env):
        import debian13
        from harness import HEADLESS_SWAY, SID_ROOT_DIR, TRIXIE_ROOT_DIR
        s = t.sway()
        # Unpacked where the root sees it (the runtime dir, same path).
        self.dir = tempfile.mkdtemp(prefix="xdp-", dir=s.dir)
        os.chmod(self.dir, 0o755)
        for package in FRONT_END_PACKAGES:
            deb = debian13.fetch(t, package)
            r = subprocess.run(["dpkg-deb", "-x", deb, self.dir], capture_output=True, text=True)
            if r.returncode != 0:
                raise TestFailure("dpkg-deb -x %s: %s" % (deb, r.stderr.strip()))
        t.notes.append("front end: %s, unpacked from Debian 13's packages" % ", ".join(FRONT_END_PACKAGES))
        portals = os.path.join(self.dir, "portals")
        os.makedirs(portals)
        shutil.copy(os.path.join(REPO, "contrib", "perch.portal"), portals)
        config = os.path.join(self.dir, "config", "xdg-desktop-portal")
        os.makedirs(config)
        conf = "[preferred]\ndefault=none\norg.freedesktop.impl.portal.Notification=perch\n"
        write(os.path.join(config, "portals.conf"), conf)
        # With XDG_DESKTOP_PORTAL_DIR set, the front end reads portals.conf
        # from that directory.
        write(os.path.join(portals, "portals.conf"), conf)
        data = os.path.join(self.dir, "data")
        os.makedirs(data)
        for d, _, files in os.walk(self.dir):
            os.chmod(d, 0o755)
        if os.geteuid() == 0:
            os.chown(data, s.pw.pw_uid, s.pw.pw_gid)
        libexec = os.path.join(self.dir, "usr", "libexec")
        self.env = [
            "DBUS_SESSION_BUS_ADDRESS=" + env["DBUS_SESSION_BUS_ADDRESS"],
            "LD_LIBRARY_PATH=" + os.path.join(self.dir, "usr", "lib", "x86_64-linux-gnu"),
            "XDG_DESKTOP_PORTAL_DIR=" + portals,
            "XDG_CONFIG_HOME=" + os.path.join(self.dir, "config"),
            "XDG_DATA_HOME=" + data,
            "XDG_CURRENT_DESKTOP=sway",
            "XDP_VALIDATE_ICON=" + os.path.join(libexec, "xdg-desktop-portal-validate-icon"),
            "XDP_VALIDATE_ICON_INSECURE=1",
            "XDP_VALIDATE_SOUND=" + os.path.join(libexec, "xdg-desktop-portal-validate-sound"),
            "XDP_VALIDATE_SOUND_INSECURE=1",
        ]
        self.log_path = os.path.join(t.tmp, "xdp.log")
        self.log_file = open(self.log_path, "ab")
        renv = dict(os.environ, PERCH_TRIXIE_ROOT=TRIXIE_ROOT_DIR, PERCH_SID_ROOT=SID_ROOT_DIR)
        for program in ("xdg-permission-store", "xdg-desktop-portal"):
            argv = [HEADLESS_SWAY, "rexec", s.dir, "--", "env"] + self.env + [os.path.join(libexec, program), "-r"]
            if program == "xdg-desktop-portal":
                argv.append("-v")
            proc = subprocess.Popen(argv, env=renv, stdin=subprocess.DEVNULL, stdout=self.log_file,
                                    stderr=subprocess.STDOUT, process_group=0)
            s.procs.append(proc)
            name = ("org.freedesktop.impl.portal.PermissionStore" if program == "xdg-permission-store"
                    else "org.freedesktop.portal.Desktop")
            ok, _ = poll(lambda: s.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus",
                                        "--object-path", "/org/freedesktop/DBus", "--method",
                                        "org.freedesktop.DBus.NameHasOwner", name], env=env).stdout.strip()
                         == "(true,)" or None, 15.0, 0.2)
            check(ok, "%s did not take %s within 15 s; its log:\n%s" % (program, name, self.log()[-2000:]))
        r = s.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.portal.Desktop", "--object-path",
                   "/org/freedesktop/portal/desktop", "--method", "org.freedesktop.DBus.Properties.Get",
                   "org.freedesktop.portal.Notification", "version"], env=env, timeout=10)
        check("uint32 2" in r.stdout, "the front end should offer Notification version 2 with Perch as its "
              "backend: %r %r; its log:\n%s" % (r.stdout, r.stderr, self.log()[-2000:]))

    def log(self):
        self.log_file.flush()
        with open(self.log_path, "rb") as f:
            return f.read().decode(errors="replace")


def app_call(t, env, info, nid, vardict, front):
    """The app's AddNotification to the front end, with gdbus inside bwrap."""
    from test_sandbox import bwrap_argv
    s = t.sway()
    # The front end reads the sandbox's pid from the bwrapinfo.json that
    # flatpak has bwrap write (--info-fd) under the runtime directory.
    instance = os.path.join(s.dir, ".flatpak", "1234567890")
    os.makedirs(instance, exist_ok=True)
    for d in (os.path.dirname(instance), instance):
        if os.geteuid() == 0:
            os.chown(d, s.pw.pw_uid, s.pw.pw_gid)
    sandbox = bwrap_argv(env, info)
    sandbox = ["sh", "-c", 'exec 3>"$0"; exec "$@"', os.path.join(instance, "bwrapinfo.json")] \
        + sandbox[:-1] + ["--info-fd", "3", "--"]
    argv = sandbox + ["gdbus", "call", "--session", "--dest", "org.freedesktop.portal.Desktop",
                                    "--object-path", "/org/freedesktop/portal/desktop", "--method",
                                    "org.freedesktop.portal.Notification.AddNotification", nid, vardict]
    # 15 s was once too short in a full CI run (three suites on two
    # cores); the front end's log says where it waited if 30 s is too.
    try:
        r = t.sway().run(argv, env=env, timeout=30)
    except TestFailure as e:
        raise TestFailure("%s; front end log:\n%s" % (e, front.log()[-3000:]))
    if r.returncode != 0 and "bwrap:" in r.stderr:
        raise TestFailure("bwrap cannot make a sandbox for the session user: %s" % r.stderr.strip())
    return r


@test(compositors=("sway110",), why="xdg-desktop-portal 1.20 (version 2) is Debian 13's; wtype is in the root")
def a_flatpak_apps_version_2_notification_is_drawn_and_its_typed_reply_reaches_it(t):
    from pointer import pointer
    from test_reply import type_hi_there_and_return  # noqa: F401 (its wtype recipe, below)
    from test_compositors import start_in_root
    from test_sandbox import flatpak_info
    p, env = start_on_shared_bus(t)
    front = FrontEnd(t, env)
    info = flatpak_info(t, APP_ID)
    m = monitor(t, env, ["type='signal',member='ActionInvoked'"])
    icon = ", ".join("0x%02x" % b for b in png(32, 32, MAGENTA))
    r = app_call(t, env, info, "chat-1",
                 "{'title': <'Ann'>, 'markup-body': <'<b>Lunch</b> at <i>noon</i>?'>, "
                 "'icon': <('bytes', <[byte %s]>)>, 'category': <'im.received'>, "
                 "'buttons': <[{'label': <'Reply'>, 'action': <'reply'>, 'purpose': <'im.reply-with-text'>, "
                 "'target': <'thread-7'>}]>}" % icon, front)
    check(r.returncode == 0, "the app's AddNotification through the front end failed: %r %r; front end log:\n%s"
          % (r.stdout, r.stderr, front.log()[-2000:]))
    runs = card_at_rest(t)
    items = listed(p)
    check(len(items) == 1, "one notification from the portal: %r; front end log:\n%s" % (items, front.log()[-1500:]))
    n = items[0]
    check(n["app"] == APP_NAME and n.get("sandbox") == APP_ID and n.get("category") == "im.received",
          "app name from the desktop entry, the app id as sandbox, the category: %r" % n)
    check(n["body"] == "<b>Lunch</b> at <i>noon</i>?", "the markup body as sent: %r" % n["body"])
    img = t.shots[-1][1]
    check(colour_count(img, MAGENTA) > 200, "the memfd icon (magenta) should be drawn on the card")
    os.makedirs(t.outdir, exist_ok=True)
    img.save_png(os.path.join(t.outdir, "portal-reply.png"))
    # Type the reply into the field (the card's last row), then Return.
    bottom = runs[0][1]
    pointer(t.sway(), t.bindir, "sleep", "0.3", "move", CARD_LEFT + 150, bottom - 10 - 14, "sleep", "0.1",
            "click", "left")
    time.sleep(0.3)
    typer = start_in_root(t.sway(), ["wtype", "-s", "300", "hi there", "-k", "Return"])
    typer.wait(timeout=10)
    gone, _ = poll(lambda: listed(p) == [], 3.0, 0.1)
    out = monitored(m, "interface=org.freedesktop.impl.portal.Notification; member=ActionInvoked",
                    "interface=org.freedesktop.portal.Notification; member=ActionInvoked")
    check(gone, "the answered notification should close: %r" % listed(p))
    # The backend's signal to the front end, then the front end's to the app.
    impl = re.search(r"interface=org\.freedesktop\.impl\.portal\.Notification; member=ActionInvoked\n"
                     r"((?:   .*\n)+)", out)
    check(impl and '"%s"' % APP_ID in impl.group(1) and '"chat-1"' in impl.group(1)
          and '"reply"' in impl.group(1) and '"thread-7"' in impl.group(1) and '"hi there"' in impl.group(1),
          "Perch should send ActionInvoked(app_id, id, 'reply', [target, platform data, 'hi there']):\n%s"
          % out[-3000:])
    app = re.search(r"interface=org\.freedesktop\.portal\.Notification; member=ActionInvoked\n((?:   .*\n)+)", out)
    check(app and '"chat-1"' in app.group(1) and '"hi there"' in app.group(1) and '"thread-7"' in app.group(1),
          "the front end should pass ActionInvoked with the reply on to the app:\n%s" % out[-3000:])
    t.notes.append("icon: sent as bytes by the app, handed to Perch as a sealed memfd by the front end; "
                   "ActionInvoked seen from Perch and from the front end")


@test
def buttons_go_back_to_the_app_as_action_invoked_or_activate_action(t):
    """A plain action comes back as ActionInvoked(app_id, id, action,
    [target, platform data]); an app.* one is activated on the app with
    org.freedesktop.Application.ActivateAction at its own path. Accept and
    decline buttons of a call are marked."""
    p, env = start_with_app(t)
    r = add(t, env, APP_ID, "call-9", "{'title': <'Bob calls'>, 'category': <'call.incoming'>, "
            "'default-action': <'app.show-call'>, 'default-action-target': <uint32 9>, "
            "'buttons': <[{'action': <'app.accept'>, 'purpose': <'call.accept'>, 'target': <uint32 9>}, "
            "{'label': <'Decline'>, 'action': <'decline'>, 'purpose': <'call.decline'>, "
            "'target': <('call', 9)>}]>}")
    check(r.returncode == 0, "AddNotification failed: %r" % r.stderr)
    card_at_rest(t)
    n = listed(p)[0]
    labels = {a["id"]: a["label"] for a in n["actions"]}
    check(labels.get("app.accept") == "✓ Accept" and labels.get("decline") == "✕ Decline" and "default" in labels,
          "the call's buttons: %r" % n["actions"])
    os.makedirs(t.outdir, exist_ok=True)
    t.shots[-1][1].save_png(os.path.join(t.outdir, "portal-call.png"))
    m = monitor(t, env, ["type='signal',member='ActionInvoked'", "type='method_call',member='ActivateAction'"])
    p.ctl_ok("invoke", str(n["id"]), "decline")
    out = monitored(m, "member=ActionInvoked")
    signal = re.search(r"interface=org\.freedesktop\.impl\.portal\.Notification; member=ActionInvoked\n"
                       r"((?:   .*\n)+)", out)
    check(signal and '"call-9"' in signal.group(1) and '"decline"' in signal.group(1)
          and 'string "call"' in signal.group(1) and "array [" in signal.group(1),
          "ActionInvoked with the struct target and the platform data:\n%s" % out[-2000:])
    check("member=ActionInvoked" in out and "path=/org/freedesktop/Notifications" not in out,
          "a portal notification's action is not told as org.freedesktop.Notifications' ActionInvoked:\n%s"
          % out[-2000:])
    add(t, env, APP_ID, "call-9", "{'title': <'Bob calls again'>, 'buttons': <[{'action': <'app.accept'>, "
        "'label': <'Accept'>, 'target': <uint32 9>}]>}")
    n = listed(p)[0]
    m = monitor(t, env, ["type='method_call',member='ActivateAction'"])
    p.ctl_ok("invoke", str(n["id"]), "app.accept")
    out = monitored(m, "member=ActivateAction")
    check("path=/org/example/Chat; interface=org.freedesktop.Application; member=ActivateAction" in out
          and 'string "accept"' in out and "uint32 9" in out,
          "app.accept should be ActivateAction('accept', [<9>], …) on org.example.Chat:\n%s" % out[-2000:])


class HostFrontEnd:
    """Debian 12's own xdg-desktop-portal 1.16 (version 1) and
    xdg-permission-store, on the host, choosing Perch through perch.portal's
    UseIn (1.16 has no portals.conf). Its icon validator sandboxes itself
    with bwrap, which works on the host."""

    def __init__(self, t, env):
        s = t.sway()
        for program in ("/usr/libexec/xdg-desktop-portal", "/usr/libexec/xdg-permission-store"):
            if not os.access(program, os.X_OK):
                raise TestFailure("%s is not installed (xdg-desktop-portal): scripts/ensure-deps" % program)
        portals = readable_dir(t, "portals-1.16")
        shutil.copy(os.path.join(REPO, "contrib", "perch.portal"), portals)
        data = t.user_dir()
        self.env = dict(env, XDG_DESKTOP_PORTAL_DIR=portals, XDG_CURRENT_DESKTOP="sway", XDG_DATA_HOME=data)
        self.log_path = os.path.join(t.tmp, "xdp-1.16.log")
        self.log_file = open(self.log_path, "ab")
        for program, name in (("xdg-permission-store", "org.freedesktop.impl.portal.PermissionStore"),
                              ("xdg-desktop-portal", "org.freedesktop.portal.Desktop")):
            argv = [os.path.join("/usr/libexec", program), "-r"] + (["-v"] if program == "xdg-desktop-portal" else [])
            s.popen(argv, env=self.env, stdout=self.log_file, stderr=subprocess.STDOUT)
            ok, _ = poll(lambda: s.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus",
                                        "--object-path", "/org/freedesktop/DBus", "--method",
                                        "org.freedesktop.DBus.NameHasOwner", name], env=env).stdout.strip()
                         == "(true,)" or None, 15.0, 0.2)
            check(ok, "%s did not take %s within 15 s; its log:\n%s" % (program, name, self.log()[-2000:]))

    def log(self):
        self.log_file.flush()
        with open(self.log_path, "rb") as f:
            return f.read().decode(errors="replace")


@test
def debian_12s_version_1_portal_gets_version_1_answers(t):
    """Through xdg-desktop-portal 1.16 (Debian 12, version 1): the app's
    name from its desktop entry, its icon, and ActionInvoked with the
    target alone (version 1's parameter), since the front end says it
    offers version 1."""
    from test_sandbox import flatpak_info
    p, env = start_with_app(t)
    front = HostFrontEnd(t, env)
    info = flatpak_info(t, APP_ID)
    icon = ", ".join("0x%02x" % b for b in png(32, 32, MAGENTA))
    r = app_call(t, env, info, "m-1", "{'title': <'Ann'>, 'body': <'a < b'>, 'priority': <'high'>, "
                 "'icon': <('bytes', <[byte %s]>)>, "
                 "'buttons': <[{'label': <'Open'>, 'action': <'open'>, 'target': <'thread-3'>}]>}" % icon, front)
    check(r.returncode == 0, "AddNotification through xdg-desktop-portal 1.16 failed: %r %r; its log:\n%s"
          % (r.stdout, r.stderr, front.log()[-2000:]))
    card_at_rest(t)
    n = listed(p)[0]
    check(n["app"] == APP_NAME and n["urgency"] == "normal" and n["body"] == "a &lt; b",
          "name from the desktop entry, high not critical, the body as written: %r" % n)
    check(colour_count(t.shots[-1][1], MAGENTA) > 200, "the icon (magenta) should be drawn")
    time.sleep(1.5)  # the front end's answer about its version (asked at the first add)
    m = monitor(t, env, ["type='signal',member='ActionInvoked'"])
    p.ctl_ok("invoke", str(n["id"]), "open")
    out = monitored(m, "interface=org.freedesktop.impl.portal.Notification; member=ActionInvoked",
                    "interface=org.freedesktop.portal.Notification; member=ActionInvoked")
    impl = re.search(r"interface=org\.freedesktop\.impl\.portal\.Notification; member=ActionInvoked\n"
                     r"((?:   .*\n)+)", out)
    check(impl and '"thread-3"' in impl.group(1) and impl.group(1).count("variant") == 1,
          "version 1's ActionInvoked carries the target alone:\n%s" % out[-2000:])
    app = re.search(r"interface=org\.freedesktop\.portal\.Notification; member=ActionInvoked\n((?:   .*\n)+)", out)
    check(app and '"thread-3"' in app.group(1), "the front end passes it on to the app:\n%s" % out[-2000:])


@test
def a_notify_with_no_app_name_is_named_by_its_desktop_entry(t):
    """What xdg-desktop-portal-gtk (the version-1 backend Perch replaces)
    sends for a sandboxed app: no app_name, the app id as desktop-entry."""
    from test_dbus import gdbus
    p, env = start_with_app(t)
    r = gdbus(t, env, "--method", "org.freedesktop.Notifications.Notify", "", "0", "", "Ann", "hi", "[]",
              "{'desktop-entry': <'%s'>}" % APP_ID, "--", "-1")
    check(r.returncode == 0, "Notify failed: %r" % r.stderr)
    check(listed(p)[0]["app"] == APP_NAME, "the desktop entry should name the app: %r" % listed(p))


# A direct caller of the backend that passes file descriptors (gdbus and
# Debian 12's busctl cannot): AddNotification(app_id, id, {title, KIND:
# ('file-descriptor', h)}) with FILE opened as the descriptor, KIND `icon`
# or `sound`. Compiled with the host's cc against libsystemd.
FD_CLIENT = r'''
#include <fcntl.h>
#include <stdio.h>
#include <systemd/sd-bus.h>
int main(int argc, char **argv) {
    if (argc != 6) return 2;
    sd_bus *bus = NULL; sd_bus_message *m = NULL, *reply = NULL; sd_bus_error error = SD_BUS_ERROR_NULL;
    int fd = open(argv[5], O_RDONLY | O_CLOEXEC);
    if (fd < 0 || sd_bus_open_user(&bus) < 0) return 3;
    if (sd_bus_message_new_method_call(bus, &m, "org.freedesktop.impl.portal.desktop.perch",
            "/org/freedesktop/portal/desktop", "org.freedesktop.impl.portal.Notification", "AddNotification") < 0
        || sd_bus_message_append(m, "ssa{sv}", argv[1], argv[2], 2, "title", "s", argv[3],
                                 argv[4], "(sv)", "file-descriptor", "h", fd) < 0) return 4;
    if (sd_bus_call(bus, m, 5000000, &error, &reply) < 0) {
        fprintf(stderr, "%s: %s\n", error.name, error.message);
        return 1;
    }
    return 0;
}
'''


def fd_client(t):
    src = os.path.join(t.tmp, "fd-client.c")
    out = os.path.join(t.tmp, "fd-client")
    write(src, FD_CLIENT)
    r = subprocess.run(["cc", "-O1", "-o", out, src, "-lsystemd"], capture_output=True, text=True)
    if r.returncode != 0:
        raise TestFailure("cannot build the descriptor-passing client (cc, libsystemd-dev): %s" % r.stderr[-500:])
    os.chmod(out, 0o755)
    return out


@test
def an_icon_and_a_sound_passed_as_file_descriptors_are_drawn_and_heard(t):
    """Version 2's file descriptors, straight to the backend: a PNG icon is
    drawn; a WAV sound is copied where the player reads it, and heard."""
    import sound
    from test_sound import Listening
    client = fd_client(t)
    s = Listening(t, env={"XDG_DATA_HOME": with_desktop_entry(t)})
    icon = os.path.join(readable_dir(t, "fd-files"), "icon.png")
    write(icon, png(32, 32, MAGENTA))
    r = t.sway().run([client, APP_ID, "i-1", "Icon by descriptor", "icon", icon], env=s.env)
    check(r.returncode == 0, "AddNotification with an icon descriptor failed: %r" % r.stderr)
    card_at_rest(t)
    check(colour_count(t.shots[-1][1], MAGENTA) > 200, "the descriptor's icon (magenta) should be drawn")
    wav = sound.make_wav(t)
    s.past_gap()
    sent = time.monotonic()
    r = t.sway().run([client, APP_ID, "s-1", "Sound by descriptor", "sound", wav], env=s.env)
    check(r.returncode == 0, "AddNotification with a sound descriptor failed: %r" % r.stderr)
    s.expect_heard(sent, "the portal's sound file descriptor")
    # What was heard is the app's file (kept for the player), not the
    # default sound.
    kept_dir = os.path.join(t.sway().dir, "perch")
    kept = [f for f in os.listdir(kept_dir) if f.startswith("portal-sound-")]
    with open(wav, "rb") as f:
        sent_bytes = f.read()
    check(len(kept) == 1 and open(os.path.join(kept_dir, kept[0]), "rb").read() == sent_bytes,
          "the sound should be kept for the player as one portal-sound file: %r" % kept)
    r = t.sway().run([client, APP_ID, "p-1", "A pipe", "icon", "/dev/null"], env=s.env)
    check(r.returncode == 1 and "InvalidArgs" in r.stderr and "not a regular file" in r.stderr,
          "a descriptor that is no regular file is refused: %r" % r.stderr)
