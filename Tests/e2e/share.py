"""A real screen-sharing stack for the tests that share the screen (Debian
12's packages: pipewire, wireplumber, xdg-desktop-portal,
xdg-desktop-portal-wlr, gstreamer1.0-pipewire).

    stack = share.start(t, env)        # PipeWire + WirePlumber for t's session
    cast = stack.cast()                # a ScreenCast through the portal, consumed
    ...                                # (or the same graph made by hand: see below)
    cast.stop()

Opt-in, as sound.py: only a test that calls start() pays for it. Every
program runs as the session user, in the session's environment
(XDG_RUNTIME_DIR is the session directory, so the daemon's perch-share
finds $XDG_RUNTIME_DIR/pipewire-0), on the test's private session bus,
started with the session's popen so that it ends with the session.

The portal: xdg-desktop-portal with xdg-desktop-portal-wlr
(chooser_type=none, the first output), a ScreenCast session made over
D-Bus (CreateSession, SelectSources, Start, OpenPipeWireRemote) by a small
python3-dbus client, and its stream consumed by `gst-launch-1.0
pipewiresrc fd=... path=...`. On the test machines (Debian 12's
xdg-desktop-portal-wlr 0.7.0 on headless sway 1.7, no /dev/dri)
CreateSession and SelectSources succeed and Start fails: xdpw logs
"unable to receive a valid format from wlr_screencopy" and the portal
answers 2. Then `cast()` makes the same graph itself and says so
(`cast.how`, the test's output and notes): a
Video/Source node named as xdg-desktop-portal-wlr names its streams
(media.name and node.name "xdpw-stream-XXXXXX"), fed by `gst-launch-1.0
videotestsrc ! pipewiresink`, and a `pipewiresrc` consumer linked to it
by WirePlumber.
"""

import os
import random
import re
import string
import select
import subprocess
import time

from harness import TestFailure, check, poll, python3

PORTAL = "/usr/libexec/xdg-desktop-portal"
PORTAL_WLR = "/usr/libexec/xdg-desktop-portal-wlr"

# The ScreenCast client: prints "node N" and then "fd" once the consumer
# runs, or "failed WHY"; holds the session until killed. Run as
# `python3 -c CLIENT`, with the session bus in its environment.
CLIENT = r'''
import os, subprocess, sys
import dbus, dbus.mainloop.glib
from gi.repository import GLib
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
portal = bus.get_object("org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop")
cast = dbus.Interface(portal, "org.freedesktop.portal.ScreenCast")
loop = GLib.MainLoop()
sender = bus.get_unique_name()[1:].replace(".", "_")
count = [0]
def say(line):
    print(line, flush=True)
def fail(why):
    say("failed " + why)
    loop.quit()
def request(method, *args, then):
    count[0] += 1
    token = "perch%d" % count[0]
    path = "/org/freedesktop/portal/desktop/request/%s/%s" % (sender, token)
    def answered(response, results):
        if response != 0:
            fail("%s answered %d" % (method, response))
        else:
            then(results)
    bus.add_signal_receiver(answered, "Response", "org.freedesktop.portal.Request", path=path)
    options = dict(args[-1]) if args and isinstance(args[-1], dict) else {}
    options["handle_token"] = token
    rest = list(args[:-1]) if args and isinstance(args[-1], dict) else list(args)
    try:
        getattr(cast, method)(*(rest + [dbus.Dictionary(options, signature="sv")]))
    except dbus.DBusException as e:
        fail("%s: %s" % (method, e.get_dbus_message()))
session = [None]
def created(results):
    session[0] = results["session_handle"]
    request("SelectSources", session[0], {"types": dbus.UInt32(1), "multiple": False}, then=selected)
def selected(results):
    request("Start", session[0], "", {}, then=started)
def started(results):
    streams = results.get("streams", [])
    if not streams:
        return fail("Start gave no stream")
    node = int(streams[0][0])
    fd = cast.OpenPipeWireRemote(session[0], dbus.Dictionary({}, signature="sv")).take()
    say("node %d" % node)
    subprocess.Popen(["gst-launch-1.0", "-q", "pipewiresrc", "fd=%d" % fd, "path=%d" % node,
                      "!", "video/x-raw", "!", "fakesink"], pass_fds=[fd])
    say("consumer")
request("CreateSession", {"session_handle_token": "perchsession"}, then=created)
GLib.timeout_add_seconds(10, lambda: fail("no answer within 10 s") or False)
loop.run()
'''


def available():
    """None when the stack's programs are installed, else what is missing."""
    needed = ["/usr/bin/pipewire", "/usr/bin/wireplumber", "/usr/bin/pw-cli", "/usr/bin/gst-launch-1.0",
              PORTAL, PORTAL_WLR]
    missing = [p for p in needed if not os.access(p, os.X_OK)]
    r = subprocess.run(["gst-inspect-1.0", "pipewiresrc"], capture_output=True)
    if r.returncode != 0:
        missing.append("gstreamer1.0-pipewire")
    return ", ".join(missing) or None


class Cast:
    """A screencast stream with a consumer: through the portal, or made by
    hand. `how` says which; `stop()` ends it (the stream and its consumer
    go)."""

    def __init__(self, stack, how, procs):
        self.stack = stack
        self.how = how
        self.procs = procs

    def stop(self):
        from processes import end_all
        end_all(self.procs)
        self.procs = []


class Stack:
    """PipeWire and WirePlumber as the session user; the portal on demand."""

    def __init__(self, t, env):
        self.t = t
        s = self.session = t.sway()
        self.home = t.user_dir()
        self.env = dict(env, XDG_CONFIG_HOME=os.path.join(self.home, "config"),
                        XDG_DATA_HOME=os.path.join(self.home, "data"),
                        XDG_CURRENT_DESKTOP="sway", PIPEWIRE_LOG_SYSTEMD="false")
        self.log_path = os.path.join(self.home, "stack.log")
        self.log_file = open(self.log_path, "ab")
        self.pipewire = self.popen(["pipewire"])
        ok, _ = poll(lambda: self.pw_cli("info", "0").returncode == 0, 10.0, 0.05)
        check(ok, "pipewire did not answer within 10 s; the log:\n%s" % self.log()[-1500:])
        self.wireplumber = self.popen(["wireplumber"])
        # WirePlumber is ready when it has made its metadata object.
        ok, _ = poll(lambda: "default" in self.pw_cli("ls", "Metadata").stdout, 10.0, 0.05)
        check(ok, "wireplumber did not start within 10 s; the log:\n%s" % self.log()[-1500:])

    def popen(self, argv, **kw):
        kw.setdefault("stdout", self.log_file)
        kw.setdefault("stderr", subprocess.STDOUT)
        return self.session.popen(argv, env=self.env, **kw)

    def pw_cli(self, *args):
        return self.session.run(["pw-cli"] + list(args), env=self.env, timeout=5)

    def log(self):
        self.log_file.flush()
        with open(self.log_path, "rb") as f:
            return f.read().decode(errors="replace")

    def nodes(self):
        """pw-cli's listing of the graph's nodes."""
        return self.pw_cli("ls", "Node").stdout

    def links(self):
        return self.pw_cli("ls", "Link").stdout

    def cast(self, portal=True):
        """A screencast with a consumer linked: through the portal when it
        can cast here, else made by hand."""
        if portal:
            cast, why = self.portal_cast()
            if cast is not None:
                return cast
            self.t.notes.append("xdg-desktop-portal-wlr cannot cast here (%s): the graph is made by hand" % why)
            print("    xdg-desktop-portal-wlr cannot cast here (%s); the same graph is made by hand" % why,
                  flush=True)
        name = "xdpw-stream-" + "".join(random.choice(string.ascii_uppercase) for _ in range(6))
        return self.stream(name, "Video/Source", how="by hand: %s with a pipewiresrc consumer" % name)

    def stream(self, name, media_class, role=None, how=None, consumer=True):
        """A video node `name` fed by videotestsrc and, with `consumer`, a
        pipewiresrc WirePlumber links to it; a Cast once the link is there."""
        props = "props,media.class=%s,node.name=%s,media.name=%s" % (media_class, name, name)
        if role:
            props += ",media.role=%s" % role
        source = self.popen(["gst-launch-1.0", "-q", "videotestsrc", "is-live=true", "!",
                             "video/x-raw,width=320,height=240,framerate=10/1", "!",
                             "pipewiresink", "mode=provide", "stream-properties=%s" % props])
        ok, _ = poll(lambda: name in self.nodes(), 10.0, 0.05)
        check(ok, "the node %s did not appear; the log:\n%s" % (name, self.log()[-1500:]))
        procs = [source]
        if consumer:
            before = self.links().count("id ")
            procs.append(self.popen(["gst-launch-1.0", "-q", "pipewiresrc", "target-object=%s" % name,
                                     "!", "video/x-raw", "!", "fakesink"]))
            ok, _ = poll(lambda: self.links().count("id ") > before, 10.0, 0.05)
            check(ok, "no link to %s appeared; the log:\n%s" % (name, self.log()[-1500:]))
        return Cast(self, how or name, procs)

    def portal_cast(self):
        """(Cast, None) through xdg-desktop-portal-wlr, or (None, why not)."""
        config = os.path.join(self.home, "xdpw.conf")
        with open(config, "w") as f:
            f.write("[screencast]\nchooser_type=none\noutput_name=%s\n" % "HEADLESS-1")
        os.chmod(config, 0o644)
        wlr = self.popen([PORTAL_WLR, "-r", "-l", "INFO", "-c", config])
        portal = self.popen([PORTAL, "-r"])
        self.portal_procs = [wlr, portal]
        client = self.popen([python3(), "-c", CLIENT], stdout=subprocess.PIPE)
        lines = []
        deadline = time.monotonic() + 12
        while time.monotonic() < deadline:
            ready, _, _ = select.select([client.stdout], [], [], 0.2)
            if ready:
                line = client.stdout.readline().decode(errors="replace").strip()
                if not line:
                    break
                lines.append(line)
                if line.startswith("failed") or line == "consumer":
                    break
        if not lines or lines[-1] != "consumer":
            from processes import end_all
            end_all([client])
            why = lines[-1] if lines else "the client said nothing"
            wlr_log = [l.split(" - ", 1)[-1] for l in self.log().splitlines()
                       if " - " in l and re.search("unable|fail|error", l, re.I)][-2:]
            return None, "%s; %s" % (why, " / ".join(wlr_log)[:400])
        node = lines[0].split()[1] if lines[0].startswith("node") else "?"
        ok, _ = poll(lambda: ("link.output.node = \"%s\"" % node) in self.links(), 10.0, 0.05)
        if not ok:
            from processes import end_all
            end_all([client])
            return None, "the portal's stream %s got no consumer linked" % node
        return Cast(self, "through xdg-desktop-portal-wlr (node %s)" % node, [client]), None


def start(t, env):
    """PipeWire and WirePlumber for t's session, on the bus of `env`."""
    missing = available()
    if missing:
        raise TestFailure("the screen-sharing stack is not installed (%s): scripts/ensure-deps" % missing)
    return Stack(t, env)
