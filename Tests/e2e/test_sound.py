"""Sounds, heard through a real sound server: the spec's sound hints, the
config's sound rules, the quiet modes, the gap, bad input and no server.

Each test that listens starts PulseAudio with a null sink for its session
(sound.py) and records the sink's monitor from before the first Notify;
sox measures the recording: "heard" is an RMS above silence within a window
after the Notify, "silent" is every sample zero. Every test that expects
silence then plays one sound that must be heard, on the same daemon, so
that its silence cannot come from a broken fixture or a dead player.
Notifications come over D-Bus (a private bus per test, as test_dbus.py)
or from perchctl.
"""

import json
import os
import shutil
import subprocess
import time

import sound
from sound import require
from harness import SCREEN_H, SCREEN_W, TestFailure, check, poll, run_as_root, session_processes, test
from harness import SWAY17
from test_config import write_config
from test_dbus import DEST, card_at_rest, wait_for_name
from test_dbus import start as start_on_bus

# Which compositors these tests run on (harness.test).
COMPOSITORS = SWAY17
COMPOSITORS_WHY = "sound does not depend on the compositor"

NAME = "message-new-instant"          # in sound-theme-freedesktop's stereo/
OTHER_NAME = "bell"
GAP_S = 1.0                           # sound-gap's default (1000 ms)
# Longer than the daemon could take to start perch-sound, load libcanberra
# and reach the sink on a busy machine; a sound later than this is a bug too.
WINDOW_S = 2.0


class Listening:
    """A perch on a private bus, a sound server, and its sink's recording."""

    def __init__(self, t, config=None, server=True, env=None):
        self.t = t
        self.server = sound.start(t) if server else None
        # Recording starts before perch: the sink is heard from the start.
        self.rec = self.server.record() if server else None
        self.config = write_config(t, config) if config is not None else None
        args = ("-c", self.config) if config is not None else ()
        if env is None:
            self.p, self.env = start_on_bus(t, args)
        else:
            self.p, self.env = start_with_env(t, args, env)
        self.last_sound = None       # monotonic time the last sound was asked for

    def reconfigure(self, text):
        """Rewrites the config file and has perch read it again."""
        with open(self.config, "w") as f:
            f.write(text)
        self.p.ctl_ok("reload")

    def notify(self, title, hints="{}", app="app", replaces=0, timeout=5000):
        """Notify over D-Bus with gdbus (hints in GVariant text); returns
        (id, the monotonic time just before the call)."""
        sent = time.monotonic()
        r = self.t.sway().run(["gdbus", "call", "--session"] + DEST + [
            "--method", "org.freedesktop.Notifications.Notify", app, str(replaces), "", title, "",
            "[]", hints, str(timeout)], env=self.env)
        check(r.returncode == 0, "Notify %r with hints %s failed: %s" % (title, hints, r.stderr.strip()))
        return int(r.stdout.strip().strip("(),").split()[-1]), sent

    def post(self, title, *extra, app=None):
        """perchctl post; returns (id, the monotonic time before it)."""
        sent = time.monotonic()
        return self.p.post(title, app=app, extra=list(extra)), sent

    def capabilities(self):
        r = self.t.sway().run(["gdbus", "call", "--session"] + DEST + [
            "--method", "org.freedesktop.Notifications.GetCapabilities"], env=self.env)
        check(r.returncode == 0, "GetCapabilities failed: %s" % r.stderr)
        return r.stdout

    def past_gap(self):
        """Waits until a sound asked for now is past sound-gap after the
        last one, and the sink is quiet again, so the next window holds
        only what comes next."""
        if self.last_sound is not None:
            left = self.last_sound + GAP_S + 0.1 - time.monotonic()
            if left > 0:
                time.sleep(left)
        self.quiet()

    def quiet(self):
        self.rec.wait_quiet(0.2)

    def expect_heard(self, sent, what):
        self.last_sound = sent
        require(self.rec.heard(sent, WINDOW_S), lambda:
              "%s should be heard within %g s, the sink's monitor says: %s; perch's log ends:\n%s"
              % (what, WINDOW_S, self.rec.describe(sent, sent + WINDOW_S), self.log_tail()))

    def expect_silent(self, sent, what, seconds=1.0):
        require(self.rec.silent(sent, sent + seconds), lambda:
              "%s should be silent, the sink's monitor says: %s" % (what, self.rec.describe(sent, sent + seconds)))

    def control(self, what="a notification with a sound-name afterwards"):
        """The sound that must be heard after a silent one: the daemon
        still plays (its silence was a decision, not a failure)."""
        self.past_gap()
        _, sent = self.notify("Control", "{'sound-name': <'%s'>}" % NAME, app="control")
        self.expect_heard(sent, what)

    def listed(self, nid):
        return nid in [n["id"] for n in self.p.list()]

    def log_tail(self, n=8):
        return "\n".join(self.p.log().splitlines()[-n:])


def start_with_env(t, args, extra):
    """test_dbus.start with more variables in perch's environment."""
    from harness import Perch
    from test_dbus import start_bus
    s = t.sway()
    env = s.env(DBUS_SESSION_BUS_ADDRESS=start_bus(t), **extra)
    p = t.perch = Perch(s, t.bindir, os.path.join(t.tmp, "perch.log"), env=env, args=list(args))
    p.wait_ready()
    wait_for_name(t, env, p)
    return p, env


def name_hint(name=NAME):
    return "{'sound-name': <'%s'>}" % name


def file_hint(path):
    return "{'sound-file': <'%s'>}" % path


def helpers_running(t):
    return session_processes(t.sway(), "perch-sound")


# ---------------------------------------------------------------------------
# The fixture itself: what the other tests' "heard" and "silent" rest on


@test
def the_sound_fixture_hears_paplay_counts_three_sounds_and_finds_silence_silent(t):
    server = sound.start(t)
    rec = server.record()
    start = time.monotonic()
    require(rec.silent(start, start + 0.3), lambda: "the null sink should be silent with nothing playing: %s"
          % rec.describe(start, start + 0.3))
    wav = sound.make_wav(t)
    sent = time.monotonic()
    server.paplay(wav, wait=False)
    require(rec.heard(sent), lambda: "paplay of a 0.3 s sine should be heard: %s" % rec.describe(sent, sent + WINDOW_S))
    require(rec.onsets(sent, sent + 0.8) == 1, lambda: "one paplay should be one sound: %s" % rec.describe(sent, sent + 0.8))
    rec.wait_quiet(0.3)
    server.paplay(os.path.join(sound.THEME_DIR, OTHER_NAME + ".oga"), wait=False)
    check(rec.heard(time.monotonic() - 0.2), "paplay of the theme's %s.oga should be heard" % OTHER_NAME)
    rec.wait_quiet(0.3)
    server.paplay(wav, wait=False)
    rec.heard(time.monotonic() - 0.2)
    rec.wait_quiet(0.3)
    end = time.monotonic()
    require(rec.onsets(sent, end) == 3, lambda: "three paplays apart should be three sounds: %s" % rec.describe(sent, end))


# ---------------------------------------------------------------------------
# The hints, heard


@test
def a_sound_name_from_the_freedesktop_theme_is_heard_and_starts_one_helper(t):
    s = Listening(t)
    check(helpers_running(t) == [], "no perch-sound should run before the first sound: %s" % helpers_running(t))
    _, sent = s.notify("New message", name_hint())
    s.expect_heard(sent, "sound-name %s" % NAME)
    check(len(helpers_running(t)) == 1, "one perch-sound should run after the first sound, found %s"
          % helpers_running(t))


@test
def sound_files_wav_ogg_and_file_uris_are_heard(t):
    s = Listening(t)
    wav = sound.make_wav(t)
    ogg = sound.make_ogg(t)
    oga = os.path.join(t.user_dir(), "copied.oga")
    shutil.copy(os.path.join(sound.THEME_DIR, OTHER_NAME + ".oga"), oga)
    os.chmod(oga, 0o644)
    for what, hint in (("a WAV file", file_hint(wav)), ("an OGG Vorbis file (sox)", file_hint(ogg)),
                       ("the theme's .oga copied", file_hint(oga)),
                       ("a file:// URI", file_hint("file://" + wav))):
        s.past_gap()
        _, sent = s.notify("File", hint)
        s.expect_heard(sent, "sound-file, %s" % what)


@test
def perchctl_post_sound_plays_a_name_or_a_file_and_none_plays_nothing(t):
    s = Listening(t)
    nid, sent = s.post("Quiet", "--sound", "none")
    s.expect_silent(sent, "perchctl post --sound none")
    check(s.listed(nid), "the --sound none notification should be shown")
    s.past_gap()
    _, sent = s.post("Named", "--sound", NAME)
    s.expect_heard(sent, "perchctl post --sound %s" % NAME)
    s.past_gap()
    _, sent = s.post("File", "--sound", sound.make_wav(t))
    s.expect_heard(sent, "perchctl post --sound FILE")


@test
def the_sound_capability_is_listed_with_a_sound_server(t):
    s = Listening(t)
    check("'sound'" in s.capabilities(), "GetCapabilities should list 'sound' with a sound server there: %s"
          % s.capabilities())


@test
def sounds_off_plays_nothing_and_lists_no_capability(t):
    s = Listening(t, "sounds=off\n")
    check("'sound'" not in s.capabilities(), "with sounds=off GetCapabilities should not list 'sound': %s"
          % s.capabilities())
    nid, sent = s.notify("Ding", name_hint())
    s.expect_silent(sent, "sounds=off")
    check(s.listed(nid), "the notification should be shown")
    # The control: the same daemon plays once its config says so.
    s.reconfigure("sounds=on\n")
    s.control("a sound-name once sounds=on is reloaded")


# ---------------------------------------------------------------------------
# Rules


@test
def a_config_rule_sound_is_heard_for_an_app_that_sends_none(t):
    s = Listening(t, "[app-name=Slack]\nsound=%s\n" % NAME)
    nid, sent = s.notify("From elsewhere", app="Other")
    s.expect_silent(sent, "a notification naming no sound, with no rule for it")
    check(s.listed(nid), "it should be shown")
    s.past_gap()
    _, sent = s.notify("From Slack", app="Slack")
    s.expect_heard(sent, "[app-name=Slack] sound=%s for a notification naming none" % NAME)


@test
def sound_none_in_a_rule_silences_a_senders_sound(t):
    s = Listening(t, "[app-name=Quiet]\nsound=none\n")
    nid, sent = s.notify("Hush", name_hint(), app="Quiet")
    s.expect_silent(sent, "[app-name=Quiet] sound=none over the sender's sound-name")
    check(s.listed(nid), "it should be shown")
    s.control("another app's sound-name")


@test
def sound_theme_names_a_theme_that_inherits_freedesktop(t):
    # A theme of one sound, a loud sine in place of message-new-instant;
    # bell is not in it and comes from freedesktop, which it inherits.
    data = t.user_dir()
    stereo = os.path.join(data, "sounds", "perch-test", "stereo")
    os.makedirs(stereo)
    with open(os.path.join(data, "sounds", "perch-test", "index.theme"), "w") as f:
        f.write("[Sound Theme]\nName=Perch test\nInherits=freedesktop\nDirectories=stereo\n\n"
                "[stereo]\nOutputProfile=stereo\n")
    shutil.copy(sound.make_wav(t, seconds=0.5), os.path.join(stereo, NAME + ".wav"))
    for root, dirs, files in os.walk(data):
        for name in dirs + files:
            os.chmod(os.path.join(root, name), 0o755 if name in dirs else 0o644)
    s = Listening(t, "sound-theme=perch-test\n", env={"XDG_DATA_HOME": data})
    _, sent = s.notify("Themed", name_hint())
    s.expect_heard(sent, "sound-name %s from the configured theme" % NAME)
    # The sine peaks at 0.71; freedesktop's message-new-instant at 0.15 and
    # bell at 0.30 (sox stat of the files).
    require(s.rec.stat(sent, time.monotonic())["Maximum amplitude"] > 0.5, lambda: "%s should come from the "
            "perch-test theme (a loud sine), not freedesktop's: %s" % (NAME, s.rec.describe(sent, sent + WINDOW_S)))
    s.past_gap()
    _, sent = s.notify("Inherited", name_hint(OTHER_NAME))
    s.expect_heard(sent, "sound-name %s, inherited from freedesktop" % OTHER_NAME)
    s.quiet()
    require(s.rec.stat(sent, time.monotonic())["Maximum amplitude"] < 0.5, lambda: "%s should be freedesktop's: %s"
            % (OTHER_NAME, s.rec.describe(sent, sent + WINDOW_S)))


@test
def sound_volume_plays_quieter(t):
    s = Listening(t, "sound-volume=100\n")
    wav = sound.make_wav(t)
    _, sent = s.notify("Full", file_hint(wav))
    s.expect_heard(sent, "the WAV at sound-volume=100")
    s.past_gap()
    full = s.rec.stat(sent, sent + WINDOW_S)["Maximum amplitude"]
    s.reconfigure("sound-volume=20\n")
    _, sent = s.notify("Quiet", file_hint(wav))
    s.expect_heard(sent, "the WAV at sound-volume=20")
    s.past_gap()
    quiet = s.rec.stat(sent, sent + WINDOW_S)["Maximum amplitude"]
    check(quiet < full * 0.8, "sound-volume=20 should play quieter than 100: peak %.3f against %.3f"
          % (quiet, full))


@test
def a_shorter_sound_gap_lets_two_sounds_close_together_play(t):
    s = Listening(t, "sound-gap=300\n")
    wav = sound.make_wav(t)
    _, first = s.notify("One", file_hint(wav), app="one")
    check(s.rec.heard(first), "the first sound should be heard")
    # 0.8 s after the first: past a 300 ms gap, within the default 1000 ms.
    time.sleep(max(0.0, first + 0.8 - time.monotonic()))
    s.notify("Two", file_hint(wav), app="two")
    end = first + 0.8 + WINDOW_S
    n = s.rec.onsets(first, end)
    require(n == 2, lambda: "with sound-gap=300 two sounds 0.8 s apart should both be heard, the sink's monitor shows "
          "%d: %s" % (n, s.rec.describe(first, end)))


# ---------------------------------------------------------------------------
# Quiet when it should be


@test
def suppress_sound_plays_nothing_and_the_toast_shows(t):
    s = Listening(t)
    nid, sent = s.notify("Suppressed", "{'sound-name': <'%s'>, 'suppress-sound': <true>}" % NAME)
    s.expect_silent(sent, "suppress-sound with a sound-name")
    check(s.listed(nid), "the suppressed notification should be shown")
    card_at_rest(t)
    s.control()


@test
def do_not_disturb_is_silent(t):
    s = Listening(t)
    s.p.ctl_ok("mode", "add", "do-not-disturb")
    _, sent = s.notify("During DND", name_hint())
    s.expect_silent(sent, "a normal notification in do-not-disturb")
    s.p.ctl_ok("mode", "remove", "do-not-disturb")
    s.control("a sound-name once do-not-disturb ends")


@test
def the_silent_mode_plays_nothing_and_still_shows_the_toast(t):
    s = Listening(t)
    s.p.ctl_ok("mode", "-a", "silent")
    nid, sent = s.notify("Silently", name_hint())
    s.expect_silent(sent, "mode silent")
    card_at_rest(t)
    check(s.listed(nid), "the notification should be shown in mode silent")
    s.p.ctl_ok("mode", "-r", "silent")
    s.control("a sound-name once mode silent is removed")


@test
def an_invisible_rule_is_silent(t):
    s = Listening(t, "[app-name=hidden]\ninvisible=1\n")
    _, sent = s.notify("Invisible", name_hint(), app="hidden")
    s.expect_silent(sent, "an invisible=1 notification")
    s.control("a visible app's sound-name")


class FullscreenWindow:
    """An xdg_toplevel that asks to be fullscreen, drawn in one colour,
    from a raw Wayland client (testcomp.RawClient): the host has no
    terminal to make fullscreen, and sway reports the state through
    wlr-foreign-toplevel as it does for any window."""

    XDG_WM_BASE_GET_XDG_SURFACE = 2
    XDG_WM_BASE_PONG = 3
    XDG_SURFACE_GET_TOPLEVEL = 1
    XDG_SURFACE_ACK_CONFIGURE = 4
    XDG_TOPLEVEL_SET_FULLSCREEN = 11
    WL_SURFACE_ATTACH = 1
    WL_SURFACE_COMMIT = 6

    def __init__(self, session):
        import struct
        from testcomp import RawClient
        self.struct = struct
        c = self.c = RawClient(session)
        comp = c.bind("wl_compositor", 4)
        self.shm = c.bind("wl_shm", 1)
        self.wm = c.bind("xdg_wm_base", 1)
        self.surface = c.new_id()
        c.request(comp, 0, "n", self.surface)                 # create_surface
        self.xdg = c.new_id()
        c.request(self.wm, self.XDG_WM_BASE_GET_XDG_SURFACE, "no", self.xdg, self.surface)
        top = c.new_id()
        c.request(self.xdg, self.XDG_SURFACE_GET_TOPLEVEL, "n", top)
        c.request(top, self.XDG_TOPLEVEL_SET_FULLSCREEN, "o", 0)
        c.request(self.surface, self.WL_SURFACE_COMMIT)
        self.answer()

    def answer(self):
        """Acks the latest configure (with a buffer at the size asked) and
        answers pings, so that sway keeps the window mapped."""
        self.c.roundtrip()
        for payload in self.c.events_for(self.wm, 0):                  # ping
            self.c.request(self.wm, self.XDG_WM_BASE_PONG, "u", self.struct.unpack("<I", payload[:4])[0])
        configures = self.c.events_for(self.xdg, 0)
        if not configures:
            raise TestFailure("sway sent the fullscreen window no configure")
        serial, = self.struct.unpack("<I", configures[-1][:4])
        self.c.request(self.xdg, self.XDG_SURFACE_ACK_CONFIGURE, "u", serial)
        buf = self.c.shm_buffer(self.shm, SCREEN_W, SCREEN_H, [0xFF202020] * (SCREEN_W * SCREEN_H))
        self.c.request(self.surface, self.WL_SURFACE_ATTACH, "oii", buf, 0, 0)
        self.c.request(self.surface, self.WL_SURFACE_COMMIT)
        self.c.roundtrip()
        self.c.events.clear()

    def close(self):
        self.c.close()


@test
def the_fullscreen_hold_is_silent(t):
    s = Listening(t)
    from test_controlplane import ok
    window = FullscreenWindow(t.sway())
    try:
        st, _ = poll(lambda: ok(s.p, "status")["fullscreen"], 5.0, 0.1)
        check(st, "perch should see the fullscreen window (status: %s)" % ok(s.p, "status"))
        nid, sent = s.notify("Held", name_hint())
        s.expect_silent(sent, "a notification held by a fullscreen window")
        st = ok(s.p, "status")
        check(st["held"] == 1 and s.listed(nid), "the notification should be held: %s" % st)
    finally:
        window.close()
    st, _ = poll(lambda: not ok(s.p, "status")["fullscreen"], 5.0, 0.1)
    check(st, "perch should see the fullscreen window go")
    s.last_sound = time.monotonic()      # the held one may sound as it comes out
    s.control("a sound-name once fullscreen ends")


# ---------------------------------------------------------------------------
# Once, not a hundred times

DRIVER = r'''
import json, sys, time
import dbus
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
n = dbus.Interface(bus.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
                   "org.freedesktop.Notifications")
mode, name = sys.argv[1], sys.argv[2]
out = {"ids": [], "first": None, "last": None}
if mode == "burst":
    # 100 Notify written back to back (async), then every reply awaited.
    loop = GLib.MainLoop()
    errors = []
    def done(nid):
        out["ids"].append(int(nid))
        if len(out["ids"]) + len(errors) == 100:
            loop.quit()
    def failed(e):
        errors.append(str(e))
        if len(out["ids"]) + len(errors) == 100:
            loop.quit()
    out["first"] = time.monotonic()
    for i in range(100):
        n.Notify("burst", 0, "", "Burst %d" % i, "", [], {"sound-name": name}, 5000,
                 reply_handler=done, error_handler=failed)
    out["last"] = time.monotonic()
    GLib.timeout_add(10000, loop.quit)
    loop.run()
    out["errors"] = errors[:3]
else:
    # One progress notification replaced 50 times, in 5 groups of 10 that
    # are sound-gap apart: the gap alone would let one sound per group by.
    nid = 0
    gap = float(sys.argv[3])
    out["first"] = time.monotonic()
    for group in range(5):
        for i in range(10):
            step = group * 10 + i
            nid = int(n.Notify("build", nid, "", "Building", "%d %%" % (2 * step), [],
                               {"sound-name": name, "value": dbus.Int32(2 * step)}, 0))
            out["ids"].append(nid)
        out["last"] = time.monotonic()
        if group < 4:
            time.sleep(gap + 0.2)
print(json.dumps(out))
'''


def drive(s, *args, timeout=30):
    r = s.t.sway().run(["/usr/bin/python3", "-c", DRIVER] + [str(a) for a in args], env=s.env, timeout=timeout)
    check(r.returncode == 0, "the D-Bus client failed (%d): %s" % (r.returncode, r.stderr[-500:]))
    return json.loads(r.stdout)


@test
def a_burst_of_100_is_heard_once(t):
    s = Listening(t)
    out = drive(s, "burst", NAME)
    check(len(set(out["ids"])) == 100, "100 Notify should get 100 ids: %d (errors %s)"
          % (len(set(out["ids"])), out.get("errors")))
    end = out["last"] + WINDOW_S + 1.0
    require(s.rec.heard(out["first"], end - out["first"]), lambda: "the burst should be heard: %s"
          % s.rec.describe(out["first"], end))
    n = s.rec.onsets(out["first"], end)
    require(n == 1, lambda: "a burst of 100 should be heard once, the sink's monitor shows %d sound(s): %s"
          % (n, s.rec.describe(out["first"], end)))
    # Once, not 100 times on top of each other: no longer and no louder
    # than one play of the file (measured: one play sounds for 0.93 s of
    # its 1.03, two 0.3 s apart for 1.24 s; two 10 ms apart peak at 1.6x).
    one = sound.file_stat(os.path.join(sound.THEME_DIR, NAME + ".oga"))
    long_s = s.rec.sounding(out["first"], end)
    check(long_s <= one["Length (seconds)"] + 0.1, "the burst sounded for %.2f s, one %s lasts %.2f s"
          % (long_s, NAME, one["Length (seconds)"]))
    peak = s.rec.stat(out["first"], end)["Maximum amplitude"]
    check(peak <= one["Maximum amplitude"] * 1.2, "the burst peaked at %.3f, one %s at %.3f: sounds on top "
          "of each other" % (peak, NAME, one["Maximum amplitude"]))


@test
def fifty_replacements_of_a_progress_notification_are_heard_once_a_new_sound_name_again(t):
    s = Listening(t)
    out = drive(s, "progress", NAME, GAP_S)
    check(len(set(out["ids"])) == 1, "the replacements should keep one id: %s" % sorted(set(out["ids"])))
    end = out["last"] + WINDOW_S
    n = s.rec.onsets(out["first"], end)
    require(n == 1, lambda: "50 replacements naming the same sound should be heard once, the sink's monitor shows "
          "%d sound(s): %s" % (n, s.rec.describe(out["first"], end)))
    s.last_sound = out["last"]
    s.past_gap()
    _, sent = s.notify("Building", name_hint(OTHER_NAME), app="build", replaces=out["ids"][-1], timeout=0)
    s.expect_heard(sent, "a replacement naming a different sound (%s)" % OTHER_NAME)


# ---------------------------------------------------------------------------
# Bad input


def sender_file(t, name, make):
    """A path in a directory the session user owns, made by make(path)."""
    path = os.path.join(t.user_dir(), name)
    make(path)
    if run_as_root():
        pw = t.sway().pw
        os.chown(path, pw.pw_uid, pw.pw_gid)
    return path


@test
def bad_sound_hints_are_each_refused_with_one_line_and_nothing_is_heard(t):
    # No gap: each bad hint is looked at, not dropped for following the
    # last one within a second.
    s = Listening(t, "sound-gap=0\n")
    fifo = sender_file(t, "fifo", os.mkfifo)
    big = sender_file(t, "big.wav", lambda p: subprocess.run(["truncate", "-s", "2G", p], check=True))
    directory = t.user_dir()
    missing = os.path.join(t.user_dir(), "missing.wav")
    cases = [
        ("sound-file /dev/zero", file_hint("/dev/zero"), "/dev/zero"),
        ("sound-file a FIFO nobody writes", file_hint(fifo), fifo),
        ("sound-file a 2 GB sparse file", file_hint(big), big),
        ("sound-file /proc/self/mem", file_hint("/proc/self/mem"), "/proc/self/mem"),
        ("sound-file a directory", file_hint(directory), directory),
        ("sound-file a missing file", file_hint(missing), missing),
        ("sound-file an http:// URI", file_hint("http://example.invalid/ding.wav"), "http://example.invalid"),
        ("sound-name ../x", name_hint("../x"), "../x"),
        ("sound-name a/b", name_hint("a/b"), "a/b"),
        ("sound-name of the wrong type", "{'sound-name': <int32 5>}", "sound-name"),
    ]
    first = time.monotonic()
    for what, hint, needle in cases:
        mark = len(s.p.log().splitlines())
        nid, sent = s.notify(what, hint)

        def told():
            new = [l for l in s.p.log().splitlines()[mark:] if "sound" in l.lower()]
            return new or None
        lines, _ = poll(told, 3.0, 0.05)
        check(lines, "%s: perch should log a line about the sound; its log ends:\n%s" % (what, s.log_tail()))
        # Status over the control socket answers (perchctl's own timeout
        # is the bound): the refusal blocked nothing.
        s.p.ctl_ok("status")
        check(s.listed(nid), "%s: the notification should still be shown" % what)
        # The one line says which notification or which value it is about
        # (its wording is the daemon's).
        lines = [l for l in s.p.log().splitlines()[mark:] if "sound" in l.lower()]
        check(len(lines) == 1 and (needle in lines[0] or "notification %d " % nid in lines[0]),
              "%s: one log line naming %r or notification %d, got %r" % (what, needle, nid, lines))
    require(s.rec.silent(first, time.monotonic() + 1.0), lambda: "none of the bad hints should be heard: %s"
          % s.rec.describe(first, time.monotonic()))
    check(s.p.proc.poll() is None, "perch died")
    s.last_sound = time.monotonic()
    s.control("a good sound-name after the bad ones")


@test
def without_a_sound_server_one_warning_and_the_toasts_show(t):
    s = Listening(t, server=False)
    check("'sound'" not in s.capabilities(), "with no sound server GetCapabilities should not list 'sound': %s"
          % s.capabilities())
    ids = []
    for i in range(4):
        nid, _ = s.notify("No server %d" % i, name_hint())
        ids.append(nid)
        if i == 0:
            card_at_rest(t)
            told, _ = poll(lambda: any("sound" in l.lower() for l in s.p.log().splitlines()), 3.0, 0.05)
            check(told, "perch should say once that there is no sound server; its log ends:\n%s" % s.log_tail())
    # The last three had time to be told too, if they were going to be.
    time.sleep(0.5)
    s.p.ctl_ok("status")
    listed = [n["id"] for n in s.p.list()]
    check(all(i in listed for i in ids), "every notification should be shown: %s of %s" % (listed, ids))
    lines = [l for l in s.p.log().splitlines() if "sound" in l.lower()]
    check(len(lines) == 1, "no sound server should be told in one line for 4 notifications, was told %d times: %r"
          % (len(lines), lines))
    spawned = session_processes(t.sway(), "pulseaudio")
    check(spawned == [], "perch must not start a sound server of its own (libpulse's autospawn): %s" % spawned)
    check(s.p.proc.poll() is None, "perch died")
