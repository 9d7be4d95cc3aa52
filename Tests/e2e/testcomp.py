"""Drive perch-test-compositor from end-to-end tests (python3 stdlib only).

perch-test-compositor (Tests/Tools/perch-test-compositor, C on
libwayland-server) is a scripted compositor: it offers the globals Perch
binds, reads commands on stdin and writes JSON lines (replies and events) on
stdout. It can inject what sway cannot: touch, layer surface `closed`,
output removal, held buffers, exact frame pacing. The full command and event
reference is the header comment of its main.c; in short:

    frame [MS]                     fire pending frame callbacks
    autoframe MS|off               ... every MS ms, like a display
    surfaces | surface ID          state as JSON
    dump ID PATH [RRGGBB|rgba]     a surface's last buffer (PPM / PAM)
    screenshot PATH [RRGGBB [OUTPUT]]
    pointer motion X Y | pointer button B press|release | pointer click B
    touch down ID X Y | touch motion ID X Y | touch up ID  [noframe]
    touch frame | touch cancel
    key press|release|tap NAME     keyboard focus ID|none
    seat caps [pointer] [keyboard] [touch]
    output add NAME W H [SCALE] | output remove NAME | output mode NAME W H [SCALE]
    closed ID | configure ID W H   (a layer surface, or an xdg toplevel)
    close ID | ping                xdg_toplevel.close, xdg_wm_base.ping
    release commit|apply|replace|never|now
    sync [QUIET_MS]                once no request arrived for QUIET_MS ms

Use:

    tc = testcomp.attach(t)          # in a harness test: replaces sway for t
    p = t.start_perch()              # perch runs against tc (or start_perch(tc, t.bindir))
    p.post("Hello", "World", timeout=30)
    stage = tc.wait_layer_surface()  # configured, acked and mapped
    toast = tc.wait_toast(stage["id"])
    img = tc.dump(toast["id"])       # harness.Image, composited over BG

Set $PERCH_TESTCOMP_WRAPPER (e.g. "valgrind --log-file=/tmp/vg.%p") to run
the compositor under a tool, $PERCH_TEST_COMPOSITOR to use another binary.
RawClient (below) speaks the wire protocol directly, to test the compositor
without Perch. It also serves xdg_wm_base, so that a wlroots compositor
can run nested in it with its output as a window (Tests/e2e/nested.py).

A TestCompositor looks like a harness.Session (env, popen, run,
user_kwargs, screenshot, stop, sway_log), so harness.Perch and Ctx work with
it unchanged. As root, the compositor and its clients run as the session
user (perch-test), like sway does in the other tests.
"""

import array
import collections
import json
import os
import pwd
import shutil
import socket
import struct
import subprocess
import tempfile
import threading
import time

import harness
import processes
from harness import TestFailure, check

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = harness.REPO
TOOL = "perch-test-compositor"
TOOL_DIR = os.path.join(REPO, "Tests", "Tools", TOOL)
BUILD_SCRIPT = os.path.join(TOOL_DIR, "build.sh")
DEFAULT_BUILD_DIR = os.path.join(REPO, ".build", "test-tools")

_built = {}


def compositor_binary(bindir=None, build=True):
    """Path of perch-test-compositor: $PERCH_TEST_COMPOSITOR, then BINDIR,
    then .build/test-tools/ (built or refreshed with build.sh when `build`)."""
    env = os.environ.get("PERCH_TEST_COMPOSITOR")
    if env:
        return env
    if bindir:
        p = os.path.join(bindir, TOOL)
        if os.access(p, os.X_OK):
            return p
    p = os.path.join(DEFAULT_BUILD_DIR, TOOL)
    if build and DEFAULT_BUILD_DIR not in _built:
        r = subprocess.run([BUILD_SCRIPT, DEFAULT_BUILD_DIR], capture_output=True, text=True)
        if r.returncode != 0:
            raise TestFailure("building %s failed:\n%s%s" % (TOOL, r.stdout, r.stderr))
        _built[DEFAULT_BUILD_DIR] = True
    if not os.access(p, os.X_OK):
        raise TestFailure("%s not found (run %s)" % (p, BUILD_SCRIPT))
    return p


def session_user():
    """The user clients run as: perch-test (or $PERCH_TEST_USER) as root,
    yourself otherwise. Created like scripts/headless-sway does."""
    if not harness.run_as_root():
        return pwd.getpwuid(os.geteuid()).pw_name
    name = os.environ.get("PERCH_TEST_USER", "perch-test")
    try:
        pwd.getpwnam(name)
    except KeyError:
        subprocess.run(["useradd", "-m", "-s", "/bin/sh", "-c", "Perch headless test user", name],
                       capture_output=True)
    return name


class RGBAImage:
    """A PAM (P7 RGB_ALPHA) image: straight alpha."""

    def __init__(self, width, height, data):
        self.width, self.height, self.data = width, height, data

    @classmethod
    def from_pam(cls, blob):
        end = blob.index(b"ENDHDR\n") + len(b"ENDHDR\n")
        fields = {}
        for line in blob[:end].decode().splitlines()[1:]:
            k, _, v = line.partition(" ")
            fields[k] = v
        w, h = int(fields["WIDTH"]), int(fields["HEIGHT"])
        data = blob[end:end + w * h * 4]
        if len(data) != w * h * 4:
            raise ValueError("truncated PAM")
        return cls(w, h, data)

    def pixel(self, x, y):
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError("pixel (%d,%d) outside %dx%d" % (x, y, self.width, self.height))
        i = (y * self.width + x) * 4
        return tuple(self.data[i:i + 4])


class TestCompositor(harness.UserProcesses):
    """A running perch-test-compositor. Commands return the parsed reply
    (TestFailure when it says ok:false, unless check=False); events are kept
    in `events`, in order, for wait_event()."""

    def __init__(self, workdir=None, outputs=None, release=None, args=(), bindir=None,
                 lenient_scale=False, timeout=10, wrapper=None):
        t0 = time.monotonic()
        self.own_workdir = workdir is None
        self.workdir = workdir or tempfile.mkdtemp(prefix="perch-tc-")
        os.chmod(self.workdir, 0o755)
        self.user = session_user()
        self.pw = pwd.getpwnam(self.user)
        # XDG_RUNTIME_DIR: owned by the session user, 0700.
        self.dir = tempfile.mkdtemp(prefix="tc-rt-", dir=self.workdir)
        self.files = tempfile.mkdtemp(prefix="tc-files-", dir=self.workdir)
        for d in (self.dir, self.files):
            if harness.run_as_root():
                os.chown(d, self.pw.pw_uid, self.pw.pw_gid)
        os.chmod(self.dir, 0o700)
        os.chmod(self.files, 0o700)
        # A copy the session user can execute (the checkout may be private).
        src = compositor_binary(bindir)
        self.binary = os.path.join(self.workdir, TOOL)
        shutil.copy2(os.path.realpath(src), self.binary)
        os.chmod(self.binary, 0o755)

        self.wayland_display = "wayland-tc"
        # wrapper: argv prefix, e.g. ["valgrind", "--log-file=/tmp/vg.%p"]; also
        # $PERCH_TESTCOMP_WRAPPER (split on spaces).
        if wrapper is None:
            wrapper = os.environ.get("PERCH_TESTCOMP_WRAPPER", "").split()
        argv = list(wrapper) + [self.binary, "-s", self.wayland_display]
        for o in outputs or ():
            argv += ["-o", o]
        if release:
            argv += ["--release", release]
        if lenient_scale:
            argv.append("--lenient-scale")
        argv += list(args)

        self.procs = []
        self.stopped = False
        self.events = []
        self.replies = collections.deque()
        self.lines = []          # every stdout line, for diagnostics
        self.cond = threading.Condition()
        self.seq = 0
        self.eof = False
        self.stderr_path = os.path.join(self.workdir, "compositor.stderr")
        self.stderr_file = open(self.stderr_path, "wb")
        self.proc = subprocess.Popen(argv, env=self.env(WAYLAND_DISPLAY=None), cwd=self.workdir,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.stderr_file, process_group=0, **self.user_kwargs())
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        try:
            self.ready = self.wait_event("ready", timeout=timeout * (4 if wrapper else 1), since=0)
        except TestFailure:
            self.stop()
            raise
        self.start_time = time.monotonic() - t0

    # ---------------------------------------------------------- Session API

    def sway_log(self):
        """The compositor's output (JSON lines, then stderr): harness.Ctx
        shows the lines that mention an error (protocol_error events,
        failed commands) when a test fails."""
        with self.cond:
            lines = list(self.lines)
        try:
            with open(self.stderr_path, errors="replace") as f:
                lines += ["stderr: " + l for l in f.read().splitlines()]
        except OSError:
            pass
        return "\n".join(lines)

    def screenshot(self, bg=None, output=None):
        """The output composed as harness.Image (over BG by default)."""
        path = os.path.join(self.files, "shot-%d.ppm" % (self.seq + 1))
        args = [path]
        if bg is not None or output is not None:
            args.append(bg or "336699")
        if output is not None:
            args.append(output)
        self.command("screenshot " + " ".join(args))
        return self._read_image(path)

    def stop(self):
        if self.stopped:
            return
        self.stopped = True
        self.stop_procs()
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write(b"quit\n")
                self.proc.stdin.flush()
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                pass
        # (A wrapper such as valgrind may have started children of its own.)
        processes.end_all([self.proc])
        self.reader.join(2)
        self.stderr_file.close()
        if self.own_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    # ------------------------------------------------------------- protocol

    def _read(self):
        for raw in self.proc.stdout:
            line = raw.decode(errors="replace").rstrip("\n")
            try:
                msg = json.loads(line)
            except ValueError:
                msg = {"event": "bad_line", "line": line}
            with self.cond:
                self.lines.append(line)
                if len(self.lines) > 2000:
                    del self.lines[:1000]
                if "reply" in msg:
                    self.replies.append(msg)
                else:
                    self.events.append(msg)
                self.cond.notify_all()
        with self.cond:
            self.eof = True
            self.cond.notify_all()

    def alive(self):
        return self.proc.poll() is None

    def command(self, line, timeout=10, check=True):
        """Send one command line; return its reply."""
        line = line.strip()
        if not line or line.startswith("#"):
            return None
        self.seq += 1
        seq = self.seq
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        except OSError as e:
            raise TestFailure("the test compositor is gone (%s) before `%s`%s"
                              % (e, line, self._tail()))
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                while self.replies:
                    r = self.replies.popleft()
                    if r.get("seq") == seq:
                        if check and not r.get("ok"):
                            raise TestFailure("test compositor: `%s` failed: %s"
                                              % (line, r.get("error")))
                        return r
                left = deadline - time.monotonic()
                if self.eof:
                    raise TestFailure("the test compositor exited during `%s`%s" % (line, self._tail()))
                if left <= 0:
                    raise TestFailure("no reply to `%s` within %gs%s" % (line, timeout, self._tail()))
                self.cond.wait(left)

    def _tail(self, n=10):
        with self.cond:
            lines = self.lines[-n:]
        return ("; last output:\n    " + "\n    ".join(lines)) if lines else ""

    def mark(self):
        """A position in the event list, for wait_event(since=...)."""
        with self.cond:
            return len(self.events)

    @staticmethod
    def _matches(ev, name, pred, fields):
        if name is not None and ev.get("event") != name:
            return False
        for k, v in fields.items():
            if ev.get(k) != v:
                return False
        return pred is None or pred(ev)

    def wait_event(self, name=None, timeout=5, since=None, pred=None, **fields):
        """The first event at or after `since` (default: the current mark,
        i.e. a new one) named `name` whose fields match and for which
        pred(event) is true."""
        deadline = time.monotonic() + timeout
        with self.cond:
            i = len(self.events) if since is None else since
            while True:
                while i < len(self.events):
                    ev = self.events[i]
                    i += 1
                    if self._matches(ev, name, pred, fields):
                        return ev
                left = deadline - time.monotonic()
                if left <= 0 or self.eof:
                    raise TestFailure("no %s event%s within %gs%s"
                                      % (name or "matching", " %r" % fields if fields else "",
                                         timeout, self._tail()))
                self.cond.wait(left)

    def events_since(self, since=0, name=None, **fields):
        with self.cond:
            return [e for e in self.events[since:] if self._matches(e, name, None, fields)]

    def protocol_errors(self):
        return self.events_since(0, "protocol_error")

    def check_no_protocol_errors(self):
        errs = self.protocol_errors()
        check(not errs, "the test compositor posted protocol errors: %s" % errs)

    # ------------------------------------------------------------ commands

    def sync(self, quiet_ms=50, timeout=10):
        return self.command("sync %d" % quiet_ms, timeout=timeout)

    def frame(self, ms=None):
        return self.command("frame" if ms is None else "frame %d" % ms)

    def surfaces(self):
        return self.command("surfaces")["surfaces"]

    def surface(self, sid):
        return self.command("surface %d" % sid)["surface"]

    def layer_surfaces(self, mapped=None):
        return [s for s in self.surfaces() if s["role"] == "layer"
                and (mapped is None or s["mapped"] == mapped)]

    def children(self, parent_id, mapped=None):
        return [s for s in self.surfaces() if s["role"] == "subsurface" and s["parent"] == parent_id
                and (mapped is None or s["mapped"] == mapped)]

    def pointer_motion(self, x, y):
        return self.command("pointer motion %g %g" % (x, y))

    def pointer_button(self, button="left", pressed=True):
        return self.command("pointer button %s %s" % (button, "press" if pressed else "release"))

    def click(self, button="left"):
        return self.command("pointer click %s" % button)

    def touch_down(self, tid, x, y, frame=True):
        return self.command("touch down %d %g %g%s" % (tid, x, y, "" if frame else " noframe"))

    def touch_motion(self, tid, x, y, frame=True):
        return self.command("touch motion %d %g %g%s" % (tid, x, y, "" if frame else " noframe"))

    def touch_up(self, tid, frame=True):
        return self.command("touch up %d%s" % (tid, "" if frame else " noframe"))

    def key(self, name, action="tap"):
        return self.command("key %s %s" % (action, name))

    def _read_image(self, path):
        try:
            with open(path, "rb") as f:
                blob = f.read()
        finally:
            try:
                os.unlink(path)
            except OSError:
                pass
        if blob.startswith(b"P7"):
            return RGBAImage.from_pam(blob)
        return harness.Image.from_ppm(blob)

    def dump(self, sid, bg=None):
        """The surface's last applied buffer as harness.Image, composited
        over bg ("RRGGBB", default the harness background #336699), or as
        RGBAImage with bg="rgba"."""
        path = os.path.join(self.files, "dump-%d-%d.%s" % (sid, self.seq + 1,
                                                           "pam" if bg == "rgba" else "ppm"))
        self.command("dump %d %s%s" % (sid, path, " " + bg if bg else ""))
        return self._read_image(path)

    # ------------------------------------------------------- higher level

    def wait_for(self, fn, timeout=5, interval=0.02, what="condition"):
        """Poll fn() (e.g. a query of surfaces) until truthy."""
        v, _ = harness.poll(fn, timeout, interval)
        if not v:
            raise TestFailure("timed out after %gs waiting for %s%s" % (timeout, what, self._tail()))
        return v

    def wait_layer_surface(self, timeout=10, namespace=None):
        """A layer surface that is configured, acked and mapped."""
        def find():
            for s in self.layer_surfaces(mapped=True):
                if namespace is None or s["layer"]["namespace"] == namespace:
                    return s
            return None
        return self.wait_for(find, timeout, what="a mapped layer surface")

    def input_of(self, toast_id):
        """The surface a toast's input lands on: Perch gives each toast a
        transparent child subsurface for it (ToastInputSurface), which
        holds still under a finger; the toast itself when it has none."""
        kids = self.children(toast_id)
        return kids[0]["id"] if kids else toast_id

    def lands_on(self, reply, toast_id):
        """Whether a pointer or touch reply's surface is the toast's."""
        return reply.get("surface") in (toast_id, self.input_of(toast_id))

    def wait_toplevel(self, timeout=10):
        """A mapped xdg toplevel (a nested compositor's window)."""
        def find():
            for s in self.surfaces():
                if s["role"] == "toplevel" and s["mapped"]:
                    return s
            return None
        return self.wait_for(find, timeout, what="a mapped toplevel")

    def wait_toast(self, stage_id, timeout=10):
        """A mapped subsurface of the stage with a buffer."""
        def find():
            kids = [s for s in self.children(stage_id, mapped=True) if s["buffer"]]
            return kids[0] if kids else None
        return self.wait_for(find, timeout, what="a mapped subsurface of surface %d" % stage_id)


def at_rest(tc, sid, timeout=4):
    """The surface once it sits at x = 0 and has not moved for ~100 ms."""
    last = [None, 0]

    def probe():
        s = tc.surface(sid)
        pos = tuple(s["position"])
        if pos == last[0] and pos[0] == 0:
            last[1] += 1
        else:
            last[0], last[1] = pos, 0
        return s if last[1] >= 4 else None
    return tc.wait_for(probe, timeout, interval=0.025, what="surface %d at rest at x=0" % sid)


def attach(t, **kw):
    """Start a TestCompositor for harness test context t (a Ctx) and make it
    t's session: t.start_perch() then runs perch against it, and t's
    diagnostics and cleanup cover it."""
    check(t.session is None, "the test already has a session")
    tc = TestCompositor(workdir=t.tmp, bindir=t.bindir, **kw)
    t.session = tc
    return tc


def start_perch(tc, bindir, log_path=None, args=(), env=None, wait=True):
    """Run `perch` from bindir against tc (WAYLAND_DISPLAY and
    XDG_RUNTIME_DIR set); returns a harness.Perch (post, list, ctl...)."""
    p = harness.Perch(tc, bindir, log_path or os.path.join(tc.workdir, "perch-%d.log" % len(tc.procs)),
                      env=env or tc.env(), args=args)
    if wait:
        p.wait_ready()
    return p


# --------------------------------------------------------------------------
# A minimal raw Wayland client, for testing the compositor itself (protocol
# errors, exact pixels) without Perch. Speaks the wire format directly.

class ProtocolError(Exception):
    pass


class RawClient:
    """Connects to a TestCompositor's socket from this process.

        c = RawClient(tc)
        g = c.globals                      # {interface: (name, version)}
        comp = c.bind("wl_compositor", 4)
        surf = c.new_id(); c.request(comp, 0, "n", surf)   # create_surface
        c.roundtrip()

    Signatures: u uint, i int, f fixed (float), s string, o object (0: null),
    n new_id, h fd. Events are collected in c.events as (object, opcode,
    raw payload); wl_display.error raises ProtocolError from roundtrip()."""

    DISPLAY = 1

    def __init__(self, tc, timeout=5):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(os.path.join(tc.dir, tc.wayland_display))
        self.next_id = 2
        self.buf = b""
        self.events = []
        self.error = None
        self.globals = {}
        self.registry = self.new_id()
        self.request(self.DISPLAY, 1, "n", self.registry)
        self.roundtrip()

    def close(self):
        self.sock.close()

    def new_id(self):
        i = self.next_id
        self.next_id += 1
        return i

    @staticmethod
    def _string(s):
        b = s.encode() + b"\0"
        return struct.pack("<I", len(b)) + b + b"\0" * ((4 - len(b) % 4) % 4)

    def request(self, obj, opcode, sig="", *args):
        body, fds = b"", []
        for kind, v in zip(sig, args):
            if kind == "u" or kind == "o" or kind == "n":
                body += struct.pack("<I", v)
            elif kind == "i":
                body += struct.pack("<i", v)
            elif kind == "f":
                body += struct.pack("<i", int(round(v * 256)))
            elif kind == "s":
                body += self._string(v)
            elif kind == "h":
                fds.append(v)
            else:
                raise ValueError(kind)
        msg = struct.pack("<II", obj, ((8 + len(body)) << 16) | opcode) + body
        try:
            if fds:
                self.sock.sendmsg([msg], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))])
            else:
                self.sock.sendall(msg)
        except (BrokenPipeError, ConnectionResetError):
            # The compositor hung up (after a protocol error): read why.
            try:
                while True:
                    self._read_some()
            except (ProtocolError, OSError):
                pass
            raise ProtocolError(self.error or "the compositor closed the connection")

    def bind(self, interface, version):
        name, offered = self.globals[interface]
        oid = self.new_id()
        self.request(self.registry, 0, "usun", name, interface, min(version, offered), oid)
        return oid

    def _read_some(self):
        data = self.sock.recv(65536)
        if not data:
            raise ProtocolError(self.error or "the compositor closed the connection")
        self.buf += data
        while len(self.buf) >= 8:
            obj, word = struct.unpack("<II", self.buf[:8])
            size = word >> 16
            if len(self.buf) < size:
                break
            payload, self.buf = self.buf[8:size], self.buf[size:]
            self._event(obj, word & 0xFFFF, payload)

    def _event(self, obj, opcode, payload):
        if obj == self.DISPLAY and opcode == 0:            # wl_display.error
            oid, code, n = struct.unpack("<III", payload[:12])
            msg = payload[12:12 + n - 1].decode(errors="replace")
            self.error = "error %d on object %d: %s" % (code, oid, msg)
        elif obj == self.registry and opcode == 0:          # wl_registry.global
            name, n = struct.unpack("<II", payload[:8])
            iface = payload[8:8 + n - 1].decode()
            pad = (n + 3) // 4 * 4
            version, = struct.unpack("<I", payload[8 + pad:12 + pad])
            self.globals[iface] = (name, version)
        self.events.append((obj, opcode, payload))

    def roundtrip(self):
        cb = self.new_id()
        self.request(self.DISPLAY, 0, "n", cb)
        while True:
            start = len(self.events)
            self._read_some()
            if self.error:
                raise ProtocolError(self.error)
            if any(o == cb and op == 0 for o, op, _ in self.events[start:]):
                return

    def events_for(self, obj, opcode=None):
        return [p for o, op, p in self.events if o == obj and (opcode is None or op == opcode)]

    def shm_buffer(self, shm, width, height, argb_pixels):
        """A wl_buffer (ARGB8888) holding the given 0xAARRGGBB values
        (row-major, premultiplied)."""
        fd = os.memfd_create("tc-test-buffer")
        try:
            data = struct.pack("<%dI" % (width * height), *argb_pixels)
            os.write(fd, data)
            pool = self.new_id()
            self.request(shm, 0, "nhi", pool, fd, len(data))
            buf = self.new_id()
            self.request(pool, 0, "niiiiu", buf, 0, width, height, width * 4, 0)
            self.request(pool, 1)   # destroy
            return buf
        finally:
            os.close(fd)
