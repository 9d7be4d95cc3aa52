"""A real accessibility stack for the tests that listen as a screen reader
does (at-spi2-core and python3-pyatspi from Debian).

    stack = a11y.start(t)               # a session bus, at-spi-bus-launcher,
                                        # org.a11y.Status.IsEnabled = true
    events = stack.listen()             # pyatspi, registered as Orca does
    p = stack.start_perch()             # perch on that session bus
    nid = p.post("Title", "body")
    ev = events.wait(lambda e: e["type"] == "object:state-changed:showing" and e["role"] == "notification")
    stack.walk()                        # the desktop's applications, as a tree

The launcher is the session's own (/usr/libexec/at-spi-bus-launcher on a
private dbus-daemon, as a desktop session starts it): it starts the
accessibility bus (a second dbus-daemon with at-spi2-core's
accessibility.conf), on which the registry (at-spi2-registryd) is
activated by the first call to it. Everything runs as the session user
in the session's environment, started with the session's popen, so it
ends with the session and none is left behind. GSETTINGS_BACKEND=memory:
the launcher keeps IsEnabled in GSettings, and a test must not write the
user's dconf database.

The listener is a python3 child of its own (pyatspi runs a GLib main
loop): it prints one JSON line per event with the source's role, name and
description as read back through AT-SPI (so what a screen reader would
read), and the monotonic time it was seen.
"""

import json
import os
import queue
import re
import shutil
import subprocess
import threading
import time

from harness import Perch, TestFailure, check, poll, python3

LAUNCHER = "/usr/libexec/at-spi-bus-launcher"
STATUS = ["--dest", "org.a11y.Bus", "--object-path", "/org/a11y/bus"]

# The events Orca's default script registers for that these tests look at.
EVENTS = ["object:state-changed:showing", "object:children-changed", "object:property-change:accessible-name",
          "object:property-change:accessible-description", "object:state-changed:focused"]

LISTENER = r'''
import json, sys, time
import pyatspi

def describe(acc):
    try:
        return acc.getRoleName(), acc.name, acc.description
    except Exception as e:
        return "?", "", "unreadable: %s" % e

def on_event(event):
    role, name, description = describe(event.source)
    app = ""
    try:
        app = event.host_application.name if event.host_application else ""
    except Exception:
        pass
    line = {"type": event.type, "role": role, "name": name, "description": description,
            "detail1": event.detail1, "app": app, "t": time.monotonic()}
    if event.type.startswith("object:children-changed"):
        line["child"] = describe(event.any_data)[1] if event.any_data else None
    print(json.dumps(line), flush=True)

for kind in json.loads(sys.argv[1]):
    pyatspi.Registry.registerEventListener(on_event, kind)
print(json.dumps({"type": "ready", "t": time.monotonic()}), flush=True)
pyatspi.Registry.start()
'''

WALKER = r'''
import json, sys
import pyatspi

def node(acc, depth):
    out = {"role": acc.getRoleName(), "name": acc.name, "description": acc.description,
           "states": sorted(pyatspi.stateToString(s) for s in acc.getState().getStates()),
           "attributes": dict(a.split(":", 1) for a in acc.getAttributes() if ":" in a)}
    try:
        action = acc.queryAction()
        out["actions"] = [action.getName(i) for i in range(action.nActions)]
    except NotImplementedError:
        out["actions"] = []
    out["children"] = [node(c, depth + 1) for c in acc] if depth < 6 else []
    return out

desktop = pyatspi.Registry.getDesktop(0)
print(json.dumps([node(app, 0) for app in desktop if app is not None and app.name == "Perch"]))
'''

PRESS = r'''
import json, sys
import pyatspi

path = json.loads(sys.argv[1])
desktop = pyatspi.Registry.getDesktop(0)
apps = [app for app in desktop if app is not None and app.name == "Perch"]
acc = apps[0]
for name in path:
    acc = [c for c in acc if c.name == name][0]
action = acc.queryAction()
name = action.getName(0)
print(json.dumps({"name": name, "done": bool(action.doAction(0))}))
'''


# Orca as a session starts it, its debug log line-buffered: Orca 43 writes
# the log (every "SPEECH OUTPUT: '...'" it says, whether or not a speech
# server plays it) through a buffered file it never flushes, so without
# this a test would read nothing until Orca exits.
ORCA = r'''
import builtins, runpy, sys
path = sys.argv[1]
real_open = builtins.open
def open_log(file, mode="r", *args, **kw):
    if file == path and mode == "w":
        return real_open(file, mode, 1)
    return real_open(file, mode, *args, **kw)
builtins.open = open_log
sys.argv = ["orca", "--debug-file", path] + sys.argv[2:]
runpy.run_path("/usr/bin/orca", run_name="__main__")
'''

# SPEECH OUTPUT: 'text'{acss} or 'text' voice=NAME{acss}, one a line.
SPOKEN = re.compile(r"SPEECH OUTPUT: '(.*?)'(?: voice=\S+)?\{")


class Orca:
    """Debian's orca on the session's accessibility bus. Orca 43 reads the
    keyboard's modifier map from an X server at start-up (xkbcomp
    $DISPLAY) and exits without one, even on Wayland, so it gets an Xvfb
    of its own; everything it hears comes over AT-SPI."""

    def __init__(self, stack):
        t = stack.t
        s = t.sway()
        check(shutil.which("orca") and shutil.which("Xvfb"), "orca or Xvfb is missing (scripts/ensure-deps)")
        home = t.user_dir()
        self.log_path = os.path.join(home, "orca-debug.out")
        display = ":%d" % (90 + os.getpid() % 500)
        s.popen(["Xvfb", display, "-nolisten", "tcp", "-screen", "0", "640x480x24"], env=stack.env,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        env = dict(stack.env, DISPLAY=display)
        ok, _ = poll(lambda: s.run(["xkbcomp", display, "-"], env=env).returncode == 0, 5.0, 0.1)
        check(ok, "Xvfb did not start on %s" % display)
        self.proc = s.popen([python3(), "-c", ORCA, self.log_path, "--user-prefs", home], env=env,
                            stdout=open(os.path.join(t.tmp, "orca.out"), "ab"), stderr=subprocess.STDOUT)
        # Then it listens (its event listeners are registered before).
        ok, _ = poll(lambda: "ORCA: Startup complete" in self.log(), 20.0, 0.1)
        check(ok, "orca did not start; its log ends:\n%s" % self.log()[-1500:])

    def log(self):
        try:
            with open(self.log_path, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def spoken(self):
        """What Orca has said so far, one string per utterance."""
        return [m.group(1) for m in SPOKEN.finditer(self.log())]


class Events:
    """The listener's lines, read by a thread into a queue."""

    def __init__(self, proc):
        self.proc = proc
        self.seen = []
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.proc.stdout:
            try:
                self.lines.put(json.loads(raw))
            except ValueError:
                pass

    def wait(self, pred, timeout=5.0, what="an event"):
        """The first event since the last wait's that satisfies pred."""
        deadline = time.monotonic() + timeout
        while True:
            for e in self.seen:
                if pred(e):
                    self.seen.remove(e)
                    return e
            left = deadline - time.monotonic()
            if left <= 0:
                raise TestFailure("no %s within %gs; the listener saw: %s"
                                  % (what, timeout, json.dumps(self.seen[-12:])))
            try:
                self.seen.append(self.lines.get(timeout=left))
            except queue.Empty:
                pass

    def drain(self, settle=0.3):
        """Everything seen until nothing came for `settle` seconds."""
        while True:
            try:
                self.seen.append(self.lines.get(timeout=settle))
            except queue.Empty:
                return list(self.seen)


class Stack:
    def __init__(self, t, env):
        self.t = t
        self.env = env

    def status(self, enabled):
        r = self.t.sway().run(["gdbus", "call", "--session"] + STATUS + [
            "--method", "org.freedesktop.DBus.Properties.Set", "org.a11y.Status", "IsEnabled",
            "<%s>" % ("true" if enabled else "false")], env=self.env)
        check(r.returncode == 0, "setting org.a11y.Status.IsEnabled failed: %s" % r.stderr)

    def start_perch(self, args=()):
        s = self.t.sway()
        p = self.t.perch = Perch(s, self.t.bindir, os.path.join(self.t.tmp, "perch.log"), env=self.env,
                                 args=list(args))
        p.wait_ready()
        return p

    def listen(self):
        s = self.t.sway()
        proc = s.popen([python3(), "-c", LISTENER, json.dumps(EVENTS)], env=self.env,
                       stdout=subprocess.PIPE, stderr=open(os.path.join(self.t.tmp, "listener.log"), "ab"),
                       text=True)
        events = Events(proc)
        events.wait(lambda e: e["type"] == "ready", 10.0, "listener start")
        return events

    def walk(self, timeout=10):
        """The Perch applications on the desktop, each as a tree of dicts
        (role, name, description, states, attributes, actions, children)."""
        r = self.t.sway().run([python3(), "-c", WALKER], env=self.env, timeout=timeout)
        check(r.returncode == 0, "walking the desktop failed: %s" % r.stderr[-800:])
        return json.loads(r.stdout)

    def press(self, path, timeout=10):
        """Does the action of the object reached from Perch's root through
        children named `path`, as a screen reader's command does."""
        r = self.t.sway().run([python3(), "-c", PRESS, json.dumps(path)], env=self.env, timeout=timeout)
        check(r.returncode == 0, "pressing %s failed: %s" % (path, r.stderr[-800:]))
        return json.loads(r.stdout)

    def orca(self):
        return Orca(self)


def start(t, enabled=True):
    """A session bus with the accessibility launcher for t's session, and
    its switch set."""
    from test_dbus import start_bus
    s = t.sway()
    env = s.env(DBUS_SESSION_BUS_ADDRESS=start_bus(t), GSETTINGS_BACKEND="memory", NO_AT_BRIDGE="1")
    check(os.access(LAUNCHER, os.X_OK), "%s is missing (at-spi2-core; scripts/ensure-deps)" % LAUNCHER)
    s.popen([LAUNCHER, "--launch-immediately"], env=env, stdout=open(os.path.join(t.tmp, "launcher.log"), "ab"),
            stderr=subprocess.STDOUT)
    def up():
        r = s.run(["gdbus", "call", "--session"] + STATUS + [
            "--method", "org.a11y.Bus.GetAddress"], env=env)
        return r.returncode == 0 and "unix:" in r.stdout
    ok, _ = poll(up, 5.0, 0.1)
    check(ok, "at-spi-bus-launcher did not serve org.a11y.Bus")
    stack = Stack(t, env)
    stack.status(enabled)
    return stack
