"""End-to-end test harness for Perch (python3 stdlib only).

A test gets a fresh headless compositor (scripts/headless-sway) and, usually,
a fresh `perch` running in it. Everything that talks to the compositor or the
daemon runs as the session user: `perch-test` when the suite runs as root
(sway refuses root), yourself otherwise. Screenshots come from `grim -t ppm`
(the host's, for every compositor: wlr-screencopy is the same) and are
checked pixel by pixel.

The compositor is one of COMPOSITORS: the host's sway 1.7 (`sway17`),
sway 1.10 (`sway110`) or labwc 0.8 (`labwc`) from the Debian 13 root made by
scripts/trixie-root, or sway 1.12 (`sway112`) or labwc 0.20 (`labwc020`)
from the Debian unstable root made by `scripts/debian-root make sid` (the
roots need root). Each looks the same to a test: one
1280x720 output named HEADLESS-1 with a #336699 background, no compositor
cursor until a pointer is plugged in, the same user and environment. A test
says which compositors it runs on with @test(compositors=..., why=...).
"""

import json
import os
import pwd
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib

import processes

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
HEADLESS_SWAY = os.path.join(REPO, "scripts", "headless-sway")
TRIXIE_ROOT_DIR = os.environ.get("PERCH_TRIXIE_ROOT", "/var/cache/perch/trixie-root")
SID_ROOT_DIR = os.environ.get("PERCH_SID_ROOT", "/var/cache/perch/sid-root")

# The compositors a test can run on, in the order run.py runs them; the
# value is scripts/headless-sway's HEADLESS_COMPOSITOR.
COMPOSITORS = {"sway17": "sway", "sway110": "sway110", "labwc": "labwc",
               "sway112": "sway112", "labwc020": "labwc020"}
ALL = tuple(COMPOSITORS)
SWAY17 = ("sway17",)
SWAYS = ("sway17", "sway110", "sway112")
LABWCS = ("labwc", "labwc020")
# The sways past 1.7: `output NAME unplug`, `power off`, fractional scales.
NEW_SWAYS = ("sway110", "sway112")
# Those that run in a Debian root (root only), and which root: they are the
# ones with the root's foot and wtype, and the protocols sway 1.7 lacks
# (cursor-shape, ext-idle-notify, layer-shell v4 and later).
ROOT_OF = {"sway110": TRIXIE_ROOT_DIR, "labwc": TRIXIE_ROOT_DIR,
           "sway112": SID_ROOT_DIR, "labwc020": SID_ROOT_DIR}
IN_ROOT = tuple(ROOT_OF)
# Not a real compositor: the tests written against Tests/e2e/testcomp.py run
# once, in the sway17 pass.
TESTCOMP = "testcomp"

# The look the tests expect (design defaults on a 1280x720 output).
SCREEN_W, SCREEN_H = 1280, 720
BG = (0x33, 0x66, 0x99)
CARD_W = 300
MARGIN = 10
CARD_LEFT = SCREEN_W - MARGIN - CARD_W          # 970
CARD_RIGHT = SCREEN_W - MARGIN - 1              # 1269
CARD_TOP = MARGIN                               # 10
# Black at 70 % over the background.
CARD_FILL = tuple(round(c * 0.3) for c in BG)   # (15, 31, 46)
WHITE = (255, 255, 255)
ANIM_S = 0.7                                    # entry / exit animation

CLEAN_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


class TestFailure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise TestFailure(msg)


# --------------------------------------------------------------------------
# Images

class Image:
    """An RGB image parsed from a binary PPM (P6)."""

    def __init__(self, width, height, data):
        self.width, self.height, self.data = width, height, data

    @classmethod
    def from_ppm(cls, blob):
        fields, pos = [], 0
        while len(fields) < 4:
            while blob[pos:pos + 1].isspace():
                pos += 1
            if blob[pos:pos + 1] == b"#":
                pos = blob.index(b"\n", pos) + 1
                continue
            end = pos
            while not blob[end:end + 1].isspace():
                end += 1
            fields.append(blob[pos:end])
            pos = end
        pos += 1  # the single whitespace after maxval
        magic, w, h, maxval = fields[0], int(fields[1]), int(fields[2]), int(fields[3])
        if magic != b"P6" or maxval != 255:
            raise ValueError("unsupported PPM: %r maxval %d" % (magic, maxval))
        data = blob[pos:pos + w * h * 3]
        if len(data) != w * h * 3:
            raise ValueError("truncated PPM: %d bytes for %dx%d" % (len(data), w, h))
        return cls(w, h, data)

    def pixel(self, x, y):
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError("pixel (%d,%d) outside %dx%d" % (x, y, self.width, self.height))
        i = (y * self.width + x) * 3
        d = self.data
        return (d[i], d[i + 1], d[i + 2])

    def pixels(self, x0, y0, x1, y1):
        """Yield (x, y, rgb) for the inclusive box."""
        for y in range(max(0, y0), min(self.height - 1, y1) + 1):
            for x in range(max(0, x0), min(self.width - 1, x1) + 1):
                yield x, y, self.pixel(x, y)

    def count(self, box, pred):
        return sum(1 for _, _, p in self.pixels(*box) if pred(p))

    def region_is(self, box, colour, tol=4):
        """(True, None) if every pixel of the box is roughly colour, else
        (False, (x, y, rgb)) for the first one that is not."""
        x0, y0, x1, y1 = box
        x0, x1 = max(0, x0), min(self.width - 1, x1)
        exact = bytes(colour) * (x1 - x0 + 1)
        for y in range(max(0, y0), min(self.height - 1, y1) + 1):
            start = (y * self.width + x0) * 3
            if self.data[start:start + len(exact)] == exact:
                continue
            for x in range(x0, x1 + 1):
                p = self.pixel(x, y)
                if not roughly(p, colour, tol):
                    return False, (x, y, p)
        return True, None

    def save_png(self, path):
        raw = bytearray()
        stride = self.width * 3
        for y in range(self.height):
            raw.append(0)
            raw += self.data[y * stride:(y + 1) * stride]

        def chunk(kind, body):
            c = struct.pack(">I", len(body)) + kind + body
            return c + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

        png = b"\x89PNG\r\n\x1a\n"
        png += chunk(b"IHDR", struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0))
        png += chunk(b"IDAT", zlib.compress(bytes(raw), 6))
        png += chunk(b"IEND", b"")
        with open(path, "wb") as f:
            f.write(png)


def roughly(p, colour, tol=4):
    return all(abs(a - b) <= tol for a, b in zip(p, colour))


def is_bg(p, tol=4):
    return roughly(p, BG, tol)


def whiteish(p, minimum=200):
    return min(p) >= minimum


def fmt(p):
    return "#%02x%02x%02x%s" % (p[0], p[1], p[2], str(tuple(p)))


class Card:
    """Where a toast card was found in a screenshot."""

    def __init__(self, left, top, right, bottom):
        self.left, self.top, self.right, self.bottom = left, top, right, bottom

    @property
    def height(self):
        return self.bottom - self.top + 1

    def __repr__(self):
        return "Card(x %d..%d, y %d..%d, %dx%d)" % (
            self.left, self.right, self.top, self.bottom,
            self.right - self.left + 1, self.height)


def first_non_bg_x(img, y, x0=SCREEN_W - 400):
    for x in range(x0, img.width):
        if not is_bg(img.pixel(x, y)):
            return x
    return None


def find_card(img, probe_y=CARD_TOP + 15, x0=SCREEN_W - 400):
    """Locate a card touching the top-right area: scan row probe_y for its
    horizontal extent, then the column at its middle for the vertical one.
    Returns None when the row is all background."""
    left = first_non_bg_x(img, probe_y, x0)
    if left is None:
        return None
    right = left
    for x in range(left, img.width):
        if not is_bg(img.pixel(x, probe_y)):
            right = x
    cx = (left + right) // 2
    top = probe_y
    while top > 0 and not is_bg(img.pixel(cx, top - 1)):
        top -= 1
    bottom = probe_y
    while bottom < img.height - 1 and not is_bg(img.pixel(cx, bottom + 1)):
        bottom += 1
    return Card(left, top, right, bottom)


def runs_in_column(img, x, y0=0, y1=None):
    """The vertical runs of non-background pixels in column x, as
    (top, bottom) pairs: one per card (cards are separated by a gap)."""
    y1 = img.height - 1 if y1 is None else y1
    runs, start = [], None
    for y in range(y0, y1 + 1):
        inside = not is_bg(img.pixel(x, y))
        if inside and start is None:
            start = y
        elif not inside and start is not None:
            runs.append((start, y - 1))
            start = None
    if start is not None:
        runs.append((start, y1))
    return runs


def runs_in_row(img, y, x0=0, x1=None):
    """The horizontal runs of non-background pixels in row y."""
    x1 = img.width - 1 if x1 is None else x1
    runs, start = [], None
    for x in range(x0, x1 + 1):
        inside = not is_bg(img.pixel(x, y))
        if inside and start is None:
            start = x
        elif not inside and start is not None:
            runs.append((start, x - 1))
            start = None
    if start is not None:
        runs.append((start, x1))
    return runs


# --------------------------------------------------------------------------
# Processes

def run_as_root():
    return os.geteuid() == 0


def python3():
    """A python3 the session user can execute (not one under /root)."""
    for p in ("/usr/bin/python3", "/usr/local/bin/python3"):
        if os.access(p, os.X_OK):
            return p
    return shutil.which("python3") or sys.executable


class UserProcesses:
    """Running programs as the session user, in the session's environment.
    Shared by Session (sway) and testcomp.TestCompositor; needs `pw`,
    `user`, `dir`, `wayland_display`, `workdir` and `procs`."""

    def env(self, **extra):
        """The session's environment plus `extra` (a None value removes
        that variable)."""
        e = {
            "HOME": self.pw.pw_dir, "USER": self.user, "LOGNAME": self.user,
            "PATH": CLEAN_PATH, "LANG": "C.UTF-8",
            "XDG_RUNTIME_DIR": self.dir,
            # Per compositor: history and modes persist, and perch must not
            # restore notifications another test left behind.
            "XDG_STATE_HOME": os.path.join(self.dir, "state"),
        }
        if self.wayland_display:
            e["WAYLAND_DISPLAY"] = self.wayland_display
        for k, v in extra.items():
            if v is None:
                e.pop(k, None)
            else:
                e[k] = v
        return e

    def user_kwargs(self):
        if run_as_root():
            return dict(user=self.pw.pw_uid, group=self.pw.pw_gid, extra_groups=[])
        return {}

    def popen(self, argv, env=None, **kw):
        """Starts argv as the session user, leading a process group of its
        own, which stop_procs ends with it (processes.end_all)."""
        kw.setdefault("process_group", 0)
        p = subprocess.Popen(argv, env=env or self.env(), cwd=self.workdir,
                             stdin=subprocess.DEVNULL, **self.user_kwargs(), **kw)
        self.procs.append(p)
        return p

    def run(self, argv, env=None, timeout=5, text=True, input=None, as_user=True):
        try:
            return subprocess.run(argv, env=env or self.env(), cwd=self.workdir,
                                  capture_output=True, text=text, timeout=timeout,
                                  input=input, **(self.user_kwargs() if as_user else {}))
        except subprocess.TimeoutExpired as e:
            def show(b):
                if isinstance(b, bytes):
                    b = b.decode(errors="replace")
                return (b or "").strip()[-300:]
            raise TestFailure("`%s` did not finish within %gs (stdout %r, stderr %r)"
                              % (" ".join(os.path.basename(a) if i == 0 else
                                          (a if len(a) < 80 else a[:40] + "...")
                                          for i, a in enumerate(argv)),
                                 timeout, show(e.stdout), show(e.stderr)))

    def stop_procs(self):
        """Ends every program started in the session and what each started,
        stopped ones included (SIGKILL for those still there after 2 s)."""
        processes.end_all(self.procs)


class Session(UserProcesses):
    """A headless compositor (one of COMPOSITORS), started with
    scripts/headless-sway. The sway_* names are kept from when it was
    always sway: they mean the compositor, whichever it is."""

    def __init__(self, workdir, compositor="sway17", parent=None):
        """parent: a Wayland socket to nest the compositor in
        (headless-sway's HEADLESS_PARENT; Tests/e2e/nested.py)."""
        t0 = time.monotonic()
        self.compositor = compositor
        env = dict(os.environ, HEADLESS_COMPOSITOR=COMPOSITORS[compositor],
                   PERCH_TRIXIE_ROOT=TRIXIE_ROOT_DIR, PERCH_SID_ROOT=SID_ROOT_DIR)
        if parent:
            env["HEADLESS_PARENT"] = parent
        r = subprocess.run([HEADLESS_SWAY, "start"], capture_output=True, text=True, env=env)
        if r.returncode != 0:
            raise TestFailure("headless %s did not start:\n%s" % (compositor, r.stderr))
        self.dir = r.stdout.strip().splitlines()[-1]
        self.start_time = time.monotonic() - t0
        self.user = subprocess.run([HEADLESS_SWAY, "user"], capture_output=True,
                                   text=True, check=True).stdout.strip()
        self.pw = pwd.getpwnam(self.user)
        r = subprocess.run([HEADLESS_SWAY, "env", self.dir], capture_output=True,
                           text=True, check=True)
        self.session_env = {}
        for line in r.stdout.splitlines():
            if line.startswith("export "):
                k, _, v = line[len("export "):].partition("=")
                self.session_env[k] = v
        self.wayland_display = self.session_env.get("WAYLAND_DISPLAY")
        self.workdir = workdir
        self.procs = []
        self.stopped = False

    @property
    def is_sway(self):
        return self.compositor in SWAYS

    @property
    def sway_pid(self):
        """The compositor's pid (sway's or labwc's)."""
        with open(os.path.join(self.dir, "compositor.pid")) as f:
            return int(f.read().strip())

    def sway_log(self):
        """The compositor's log (stderr)."""
        try:
            with open(os.path.join(self.dir, "compositor.log"), errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def screenshot(self):
        r = self.run(["grim", "-t", "ppm", "-"], text=False)
        if r.returncode != 0:
            raise TestFailure("grim failed (%d): %s" % (r.returncode, r.stderr.decode(errors="replace")))
        return Image.from_ppm(r.stdout)

    def screenshot_output(self, name):
        """A screenshot of one output only (`grim -o NAME`)."""
        r = self.run(["grim", "-t", "ppm", "-o", name, "-"], text=False)
        if r.returncode != 0:
            raise TestFailure("grim -o %s failed (%d): %s"
                              % (name, r.returncode, r.stderr.decode(errors="replace")))
        return Image.from_ppm(r.stdout)

    def rexec(self, argv, timeout=5, text=True):
        """Runs argv from the compositor's own system as the session user:
        the root's program for those in IN_ROOT (its foot, wtype), the
        host's otherwise. Returns the CompletedProcess."""
        return self.run([HEADLESS_SWAY, "rexec", self.dir, "--"] + list(argv), env=dict(
            os.environ, PERCH_TRIXIE_ROOT=TRIXIE_ROOT_DIR, PERCH_SID_ROOT=SID_ROOT_DIR),
            timeout=timeout, text=text, as_user=False)

    def swaymsg(self, *args, timeout=5):
        """Runs swaymsg against this session's sway (its IPC socket) as the
        session user; returns the CompletedProcess. The host's swaymsg
        serves sway 1.10 and 1.12 too (the IPC is the same; sway parses
        commands)."""
        if not self.is_sway:
            raise TestFailure("swaymsg needs sway; this test runs on %s (mark it "
                              "@test(compositors=SWAYS, why=...))" % self.compositor)
        return self.run(["swaymsg"] + list(args),
                        env=self.env(SWAYSOCK=self.session_env.get("SWAYSOCK")), timeout=timeout)

    def outputs(self):
        """`swaymsg -t get_outputs`, parsed."""
        r = self.swaymsg("-t", "get_outputs", "--raw")
        if r.returncode != 0:
            raise TestFailure("swaymsg -t get_outputs failed (%d): %s" % (r.returncode, r.stderr))
        return json.loads(r.stdout)

    def kill_sway(self, sig=signal.SIGKILL):
        os.kill(self.sway_pid, sig)

    def stop(self):
        if self.stopped:
            return
        self.stopped = True
        self.stop_procs()
        subprocess.run([HEADLESS_SWAY, "stop", self.dir])


class Perch:
    """The perch daemon plus perchctl, run as the session user."""

    def __init__(self, session, bindir, log_path, env=None, args=()):
        self.session = session
        self.bindir = bindir
        self.log_path = log_path
        self.env = env or session.env()
        self.log_file = open(log_path, "ab")
        self.proc = session.popen([os.path.join(bindir, "perch")] + list(args), env=self.env,
                                  stdout=self.log_file, stderr=subprocess.STDOUT)

    @property
    def socket_path(self):
        return os.path.join(self.env["XDG_RUNTIME_DIR"], "perch",
                            self.env.get("WAYLAND_DISPLAY", "") + ".sock")

    def wait_ready(self, timeout=10):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if os.path.exists(self.socket_path):
                return
            rc = self.proc.poll()
            if rc is not None:
                raise TestFailure("perch exited with %d before its control socket appeared" % rc)
            time.sleep(0.02)
        raise TestFailure("perch's control socket %s did not appear within %ds"
                          % (self.socket_path, timeout))

    def log(self):
        self.log_file.flush()
        try:
            with open(self.log_path, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def wait_exit(self, timeout):
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def ctl(self, *args, timeout=5):
        return self.session.run([os.path.join(self.bindir, "perchctl")] + list(args),
                                env=self.env, timeout=timeout)

    def ctl_ok(self, *args):
        r = self.ctl(*args)
        check(r.returncode == 0, "perchctl %s exited %d: stdout=%r stderr=%r"
              % (" ".join(args), r.returncode, r.stdout, r.stderr))
        return r.stdout

    def post(self, title, body=None, timeout=None, icon=None, urgency=None, app=None, extra=()):
        args = ["post"] + list(extra)
        if icon is not None:
            args += ["--icon", icon]
        if timeout is not None:
            args += ["--timeout", str(timeout)]
        if urgency is not None:
            args += ["--urgency", urgency]
        if app is not None:
            args += ["--app", app]
        args.append(title)
        if body is not None:
            args.append(body)
        out = self.ctl_ok(*args).strip()
        check(out.isdigit() and int(out) > 0,
              "perchctl post should print a positive integer id, printed %r" % out)
        return int(out)

    def list(self):
        out = self.ctl_ok("list", "--json")
        try:
            data = json.loads(out)
        except ValueError as e:
            raise TestFailure("perchctl list --json printed invalid JSON (%s): %r" % (e, out))
        check(isinstance(data, list), "perchctl list --json should print an array, printed %r" % out)
        return data

    def raw(self, lines, timeout=5, reads=None):
        """Send raw lines over the control socket, one connection, reading
        one reply line after each (or reads[i] lines after line i: a reply
        and the events it caused). A line is text, or bytes sent as they are
        (invalid UTF-8 included). Returns a list of replies: the parsed
        JSON, or the string '<closed>' / '<timeout>' / '<bad json: ...>'."""
        code = r'''
import json, socket, sys
path, timeout, lines, reads = sys.argv[1], float(sys.argv[2]), json.loads(sys.argv[3]), json.loads(sys.argv[4])
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(timeout)
s.connect(path)
f = s.makefile("rb")
out = []
def main():
    for hexline, count in zip(lines, reads):
        try:
            s.sendall(bytes.fromhex(hexline) + b"\n")
        except OSError as e:
            out.append("<closed: %s>" % e); return
        for _ in range(count):
            try:
                reply = f.readline()
            except socket.timeout:
                out.append("<timeout>"); return
            except OSError as e:
                out.append("<closed: %s>" % e); return
            if not reply:
                out.append("<closed>"); return
            try:
                out.append(json.loads(reply))
            except ValueError:
                out.append("<bad json: %r>" % reply)
main()
print(json.dumps(out))
'''
        wire = [(line if isinstance(line, bytes) else line.encode()).hex() for line in lines]
        reads = reads or [1] * len(lines)
        r = self.session.run([python3(), "-c", code, self.socket_path, str(timeout),
                              json.dumps(wire), json.dumps(reads)], env=self.env,
                             timeout=timeout * len(lines) + 5)
        check(r.returncode == 0, "socket client failed (%d): %s" % (r.returncode, r.stderr))
        return json.loads(r.stdout)


# --------------------------------------------------------------------------
# Waiting on the screen

def poll(fn, timeout, interval=0.02):
    """Call fn() until it returns a truthy value or timeout passes; returns
    (value, seconds waited). value is the last result (falsy on timeout)."""
    t0 = time.monotonic()
    while True:
        v = fn()
        el = time.monotonic() - t0
        if v or el >= timeout:
            return v, el
        time.sleep(interval)


# --------------------------------------------------------------------------
# Test running

TESTS = []


def test(fn=None, *, compositors=None, why=None):
    """Decorator: register a test. The test gets a Ctx (its `compositor`
    says which one it runs on).

        @test                          # on the module's COMPOSITORS, else ALL
        @test(compositors=SWAYS, why="swaymsg create_output")
        @test(compositors=(TESTCOMP,)) # against Tests/e2e/testcomp.py, once

    compositors: a tuple of COMPOSITORS names (or (TESTCOMP,)); None takes
    the module's COMPOSITORS (and COMPOSITORS_WHY), else ALL. why: the reason
    the test skips some compositors, shown by run.py --list."""
    def register(f):
        f.compositors = compositors
        f.compositors_why = why
        TESTS.append(f)
        return f
    return register(fn) if fn is not None else register


def compositors_of(fn):
    """(compositors, why) for a registered test."""
    mod = sys.modules.get(fn.__module__)
    if fn.compositors is not None:
        return tuple(fn.compositors), fn.compositors_why
    if mod is not None and getattr(mod, "COMPOSITORS", None) is not None:
        return tuple(mod.COMPOSITORS), getattr(mod, "COMPOSITORS_WHY", None)
    return ALL, None


class Ctx:
    """Per-test context: lazily starts sway and perch; keeps logs and failing
    screenshots."""

    def __init__(self, name, bindir, outdir, compositor="sway17"):
        self.name = name
        # Which compositor sway() starts (one of COMPOSITORS; TESTCOMP tests
        # make their own with testcomp.attach).
        self.compositor = compositor
        self.bindir = bindir
        self.outdir = outdir
        self.tmp = tempfile.mkdtemp(prefix="perch-e2e-")
        os.chmod(self.tmp, 0o755)
        self.session = None
        self.perch = None
        self.shots = []
        self.notes = []

    def sway(self):
        """The test's compositor session (started on first use); sway or
        not, as ctx.compositor says."""
        if self.session is None:
            self.session = Session(self.tmp, self.compositor)
        return self.session

    def start_perch(self, wait=True, args=()):
        s = self.sway()
        self.perch = Perch(s, self.bindir, os.path.join(self.tmp, "perch.log"), args=args)
        if wait:
            self.perch.wait_ready()
        return self.perch

    def screenshot(self):
        img = self.sway().screenshot()
        self.shots.append((time.monotonic(), img))
        if len(self.shots) > 40:
            del self.shots[0]
        return img

    def screenshot_output(self, name):
        """A screenshot of one output, kept like screenshot()'s."""
        img = self.sway().screenshot_output(name)
        self.shots.append((time.monotonic(), img))
        if len(self.shots) > 40:
            del self.shots[0]
        return img

    def user_dir(self):
        """A fresh directory owned by the session user, mode 0700."""
        s = self.sway()
        d = tempfile.mkdtemp(prefix="rt-", dir=self.tmp)
        if run_as_root():
            os.chown(d, s.pw.pw_uid, s.pw.pw_gid)
        os.chmod(d, 0o700)
        return d

    def save_shots(self):
        paths = []
        if not self.shots:
            return paths
        os.makedirs(self.outdir, exist_ok=True)
        # The last few screenshots are the interesting ones.
        for i, (_, img) in enumerate(self.shots[-3:]):
            p = os.path.join(self.outdir, "%s-%s-%d.png" % (self.name, self.compositor, i))
            img.save_png(p)
            paths.append(p)
        return paths

    def diagnostics(self, failed=True):
        out = []
        if self.perch is not None:
            rc = self.perch.proc.poll()
            out.append("perch: %s" % ("still running" if rc is None else "exited %d" % rc))
            log = self.perch.log().rstrip()
            out.append("---- perch log (last 30 lines) ----")
            out += (log.splitlines()[-30:] or ["(empty)"])
        if self.session is not None:
            sl = self.session.sway_log().rstrip().splitlines()
            benign = ("drmGetDevices2", "wlr_drm_lease_v1")
            errs = [l for l in sl if "error" in l.lower()
                    and not any(b in l for b in benign)][-10:]
            if errs:
                out.append("---- %s log errors ----" % getattr(self.session, "compositor", "compositor"))
                out += errs
        for p in (self.save_shots() if failed else []):
            out.append("screenshot: %s" % p)
        out += self.notes
        return out

    def close(self):
        if self.perch is not None:
            processes.end_all([self.perch.proc], grace=3)
            self.perch.log_file.close()
        if self.session is not None:
            self.session.stop()
        processes.sweep(self.name)
        shutil.rmtree(self.tmp, ignore_errors=True)


def write_config(t, text, name="config"):
    """A config file with `text`, readable by the session user, in a fresh
    directory of the test's; returns its path."""
    path = os.path.join(t.user_dir(), name)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o644)
    return path


def session_processes(s, name):
    """Pids of the session's processes called `name` (those in a Debian
    root included: /proc is the host's): their XDG_RUNTIME_DIR is the
    session's."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/comm" % entry) as f:
                if f.read().strip() != name:
                    continue
            with open("/proc/%s/environ" % entry, "rb") as f:
                if ("XDG_RUNTIME_DIR=%s" % s.dir).encode() not in f.read().split(b"\0"):
                    continue
        except OSError:
            continue
        pids.append(int(entry))
    return pids


def prepare_bindir(src):
    """Copy perch and perchctl where the session user can execute them (the
    checkout may be under /root, which that user cannot traverse)."""
    # perch-svg, perch-sound and perch-share: the helpers that render SVG
    # icons, play sounds and watch for screen shares, found beside perch.
    names = ("perch", "perchctl", "perch-svg", "perch-sound", "perch-share", "perch-test-pointer")
    for name in names:
        p = os.path.join(src, name)
        if not os.access(p, os.X_OK):
            raise SystemExit("e2e: %s not found or not executable (build first: "
                             "swift build -c release, or set PERCH_BIN_DIR)" % p)
    d = tempfile.mkdtemp(prefix="perch-e2e-bin-")
    os.chmod(d, 0o755)
    for name in names:
        dst = os.path.join(d, name)
        shutil.copy2(os.path.realpath(os.path.join(src, name)), dst)
        os.chmod(dst, 0o755)
    return d


# A client that asks `status` every 10 ms over the control socket until a
# stop file appears, and prints the answer times (s) as a JSON list: -1 for
# a closed socket, 99 for no answer within argv[3] seconds. Run as
# `python3 -c STATUS_PROBER SOCKET STOPFILE TIMEOUT` (test_icons, bench/icons.py).
STATUS_PROBER = r'''
import json, os, socket, sys, time
path, stop, limit = sys.argv[1], sys.argv[2], float(sys.argv[3])
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(limit)
s.connect(path)
f = s.makefile("rb")
lat, n = [], 0
while not os.path.exists(stop):
    n += 1
    t0 = time.monotonic()
    s.sendall(json.dumps({"id": n, "method": "status"}).encode() + b"\n")
    try:
        while True:
            line = f.readline()
            if not line:
                lat.append(-1.0)
                break
            if json.loads(line).get("id") == n:
                lat.append(time.monotonic() - t0)
                break
    except socket.timeout:
        lat.append(99.0)
    if lat[-1] < 0 or lat[-1] > 50:
        break
    time.sleep(0.01)
print(json.dumps(lat))
'''
