#!/usr/bin/env python3
"""Perch against every peer, in one run, through the same door (D-Bus Notify).

The daemons: Perch; mako 1.7.1, dunst 1.9 and swaync 0.7.3 (Debian 12, the
host); mako 1.10 and fnott 1.7.1 (Debian 13, run inside the root of
scripts/trixie-root by scripts/bench-root, talking to the host's compositor
and bus). And the floor: bench/floor-client.c, the least a client can spend
to answer a frame callback, for Perch's animated frames.

Starts one headless sway 1.7 (Tests/e2e/harness.Session) and one private
session bus, then alternates daemon runs, one daemon owning
org.freedesktop.Notifications at a time (BENCH_ROUNDS rounds, default 3);
a second headless sway 1.10 at scale 1.5 for the fractional-scale row.
Every figure is measured from outside the daemon (/proc, D-Bus answer
times, WAYLAND_DEBUG=client logs), except Perch's frame client times (its
PERCH_TRACE trace). A daemon that dies is reported as `crashed` in the
cells it did not finish, and the run goes on. Prints one table; see
bench/README.md for what each row means. Asserts nothing.

BENCH_PEERS (comma list of mako-1.7, mako-1.10, fnott, dunst, swaync;
default all) chooses the peers; Perch and the floor are always measured.
BENCH_PERCH_BEFORE=DIR adds the perch binaries in DIR (an earlier build)
as one more daemon, "Perch before", to measure a change before and after
in the same run.
"""

import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "e2e"))

import harness  # noqa: E402

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
LAT_SAMPLES = int(os.environ.get("BENCH_LATENCY_SAMPLES", "12"))
IDLE_S = float(os.environ.get("BENCH_IDLE_SECONDS", "5"))
ABUSE_N = int(os.environ.get("BENCH_ABUSE_N", "10000"))
GROWTH_ROUNDS = int(os.environ.get("BENCH_GROWTH_ROUNDS", "2"))
# A theme icon every desktop has (Debian's adwaita-icon-theme, in the host
# and, installed by scripts/bench-root, in the Debian 13 root).
THEME_ICON = "dialog-information"
PY = "/usr/bin/python3"
REPO = harness.REPO
BENCH_ROOT = os.path.join(REPO, "scripts", "bench-root")
ROOT_DIR = harness.TRIXIE_ROOT_DIR
FRAC_SCALE = "1.5"
SLOW_FLOOD_S = 30

# A small SVG icon (a circle and a bar), the same file for every daemon.
SVG_ICON = ('<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48">'
            '<circle cx="24" cy="24" r="20" fill="#3584e4"/>'
            '<rect x="21" y="12" width="6" height="18" rx="3" fill="#fff"/>'
            '<circle cx="24" cy="36" r="3" fill="#fff"/></svg>\n')


def log(msg):
    sys.stderr.write("[bench %s] %s\n" % (time.strftime("%H:%M:%S"), msg))
    sys.stderr.flush()


def objcopy():
    """The toolchain's llvm-objcopy, which (unlike binutils' strip) takes
    the segment layout llvm-bolt gives perch. Only that one: Debian 12's
    llvm-objcopy-14, first on PATH, writes a perch that crashes at start."""
    swiftc = shutil.which("swiftc") or "/opt/swift/usr/bin/swiftc"
    beside = os.path.join(os.path.dirname(os.path.realpath(swiftc)), "llvm-objcopy")
    if not os.access(beside, os.X_OK):
        raise SystemExit("no llvm-objcopy beside the Swift toolchain's swiftc (%s)" % swiftc)
    return beside


def drop_from_page_cache(path):
    """Drops `path`'s pages from the page cache (see `Bench.start`)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    except OSError:
        pass
    finally:
        os.close(fd)


def mono_ns():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


# --------------------------------------------------------------------------
# The daemons. Each is started with a config file that makes the defaults
# the bench relies on equal (at most 5 shown, 5 s timeout) where the daemon
# has such an option; bench/README.md says where one has not.

class Daemon:
    def __init__(self, name, label, where, binary, package=None):
        self.name, self.label, self.where, self.binary, self.package = name, label, where, binary, package

    @property
    def in_root(self):
        return self.where == "root"

    @property
    def is_perch(self):
        """Perch, or the earlier Perch build beside it (BENCH_PERCH_BEFORE)."""
        return self.name in ("perch", "perch-before")

    def argv(self, b):
        conf = b.share_path
        if self.name == "perch":
            return [os.path.join(b.bindir, "perch"), "-c", conf("perch.conf")]
        if self.name == "perch-before":
            return [os.path.join(b.before_bindir, "perch"), "-c", conf("perch.conf")]
        if self.name.startswith("mako"):
            return [self.binary, "-c", conf("mako.conf")]
        if self.name == "fnott":
            return [self.binary, "-c", conf("fnott.ini")]
        if self.name == "dunst":
            return [self.binary, "-config", conf("dunstrc")]
        if self.name == "swaync":
            return [self.binary, "-c", conf("swaync.json"), "-s", "/etc/xdg/swaync/style.css"]
        raise ValueError(self.name)


def with_perch_defaults(daemons):
    """The daemons, Perch (and Perch before) started with its own defaults
    for the flood bounds (`perch-defaults.conf`) rather than the peers'
    work (`perch.conf`)."""
    return [WithConfig(d, "perch-defaults.conf") if d.is_perch else d for d in daemons]


class WithConfig(Daemon):
    """A daemon of DAEMONS started with another config file."""

    def __init__(self, base, config):
        super().__init__(base.name, base.label, base.where, base.binary, base.package)
        self.config = config

    def argv(self, b):
        argv = super().argv(b)
        argv[argv.index("-c") + 1] = b.share_path(self.config)
        return argv


DAEMONS = [
    Daemon("perch", "Perch", "host", None),
    Daemon("mako-1.7", "mako 1.7.1", "host", "/usr/bin/mako", "mako-notifier"),
    Daemon("mako-1.10", "mako 1.10", "root", "/usr/bin/mako"),
    Daemon("fnott", "fnott 1.7.1", "root", "/usr/bin/fnott"),
    Daemon("dunst", "dunst 1.9", "host", "/usr/bin/dunst", "dunst"),
    Daemon("swaync", "swaync 0.7.3", "host", "/usr/bin/swaync", "sway-notification-center"),
]


def write_configs(b):
    w = b.write_share
    # Perch's flood bounds are off: mako keeps every notification it is
    # sent, so Perch must show or queue each one too (max-burst=0: no app's
    # burst collapses into a count toast; max-queued at its ceiling), or a
    # burst of 100 from one app would cost it ten posts and a count.
    w("perch.conf", "# defaults, made explicit\nmax-visible=5\ndefault-timeout=5000\n"
                    "# the same work as the peers: nothing collapsed, 1000 may wait\n"
                    "max-burst=0\nmax-queued=1000\n")
    # Perch as a user has it, its flood bounds on (flood.py, day.py: what
    # those bounds do is part of what they measure).
    w("perch-defaults.conf", "# defaults, made explicit\nmax-visible=5\ndefault-timeout=5000\n")
    # Theme icons: each peer is pointed at Adwaita, where Perch finds
    # dialog-information by the icon-theme specification (mako's default
    # icon-path is hicolor only, fnott's icon-theme hicolor, and dunst 1.9
    # looks in its icon_path list unless told to follow a theme).
    w("mako.conf", "default-timeout=5000\nmax-visible=5\n"
                   "icon-path=/usr/share/icons/Adwaita:/usr/share/icons/hicolor\n")
    # fnott has no limit on the number shown; its timeouts are in seconds.
    w("fnott.ini", "default-timeout=5\nicon-theme=Adwaita\n")
    # indicate_hidden (on by default) makes the 5th slot the "N more" line,
    # as Perch's marker does.
    w("dunstrc", "[global]\n    notification_limit = 5\n    icon_theme = Adwaita\n"
                 "    enable_recursive_icon_lookup = true\n"
                 "[urgency_low]\n    timeout = 5\n[urgency_normal]\n    timeout = 5\n"
                 "[urgency_critical]\n    timeout = 0\n")
    # swaync 0.7.3 has no limit on the popups shown (every notification is
    # a row in its popup window); its timeouts are in seconds.
    with open("/etc/xdg/swaync/config.json") if os.path.exists("/etc/xdg/swaync/config.json") else _empty() as f:
        try:
            cfg = json.load(f)
        except ValueError:
            cfg = {}
    cfg.update({"timeout": 5, "timeout-low": 5, "timeout-critical": 0})
    cfg.pop("$schema", None)
    cfg.pop("scripts", None)
    w("swaync.json", json.dumps(cfg, indent=2) + "\n")
    w("icon.svg", SVG_ICON)


class _empty:
    def __enter__(self):
        import io
        return io.StringIO("{}")

    def __exit__(self, *a):
        return False


def ensure_host_packages(daemons):
    missing = [d.package for d in daemons if d.where == "host" and d.package and not os.access(d.binary, os.X_OK)]
    if not missing:
        return
    log("installing %s" % " ".join(missing))
    cmd = ["apt-get", "install", "-y", "--no-install-recommends"] + missing
    if os.geteuid() != 0:
        cmd = ["sudo"] + cmd
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))


def ensure_root_packages():
    """mako 1.10 and fnott in the Debian 13 root (made when missing, then
    cached). Returns a reason string when they cannot be had."""
    if os.geteuid() != 0:
        return "the Debian 13 root needs root (chroot)"
    if not os.path.exists(os.path.join(ROOT_DIR, ".perch-root-ready")):
        log("making the Debian 13 root (scripts/trixie-root make)")
        r = subprocess.run([os.path.join(REPO, "scripts", "trixie-root"), "make"])
        if r.returncode != 0:
            return "scripts/trixie-root make failed"
    r = subprocess.run([BENCH_ROOT, "install"], capture_output=True, text=True)
    if r.returncode != 0:
        return "scripts/bench-root install failed: %s" % r.stderr.strip()[-300:]
    return None


# --------------------------------------------------------------------------
# /proc

CLK_TCK = os.sysconf("SC_CLK_TCK")


def _over_threads(pid, table, read):
    """The sum over the process's threads of read(TASK) (TASK: the thread's
    /proc/PID/task/TID/ directory; None: skipped),
    threads that have exited since counted with the last value seen
    (GLib daemons start and end worker threads; a sum over the live ones
    alone would go down); when the process is gone, its last reading.
    `table` keeps what was seen, per pid."""
    seen = table.setdefault(pid, {"dead": 0, "tids": {}})
    now = {}
    try:
        for tid in os.listdir("/proc/%d/task" % pid):
            value = read("/proc/%d/task/%s/" % (pid, tid))
            if value is not None:
                now[tid] = value
    except OSError:
        now = dict(seen["tids"])
    for tid, value in seen["tids"].items():
        if tid not in now:
            seen["dead"] += value
    seen["tids"] = now
    return sum(now.values()) + seen["dead"]


def _schedstat_ns(task):
    try:
        with open(task + "schedstat") as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _voluntary_switches(task):
    try:
        with open(task + "status") as f:
            for line in f:
                if line.startswith("voluntary_ctxt_switches"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return None


_THREADS = {}   # pid -> what _over_threads saw of schedstat
_CHILDREN = {}  # pid -> the children's part of cpu_ns last read, ns
_KIDS = {}  # pid -> {child pid: (schedstat ns, utime + stime ticks)} last seen running
_GONE = {}  # pid -> (ns, ticks) of children seen running and since reaped
_SWITCHES = {}  # pid -> what _over_threads saw of the switches


def cpu_ns(pid):
    """Time on CPU of the process, ns: the first field of each thread's
    schedstat (exact; see _over_threads), plus its children's: exact
    (schedstat) for each child seen running — Perch's SVG and sound
    helpers stay a while after their work, and their CPU is that work's —
    and, for children reaped before they were ever seen, the clock ticks
    of cutime + cstime (10 ms each)."""
    threads = _over_threads(pid, _THREADS, _schedstat_ns)
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        reaped_ticks = int(fields[13]) + int(fields[14])
        running = _running_children(pid)
        gone_ns, gone_ticks = _GONE.get(pid, (0, 0))
        for child, (ns, ticks) in _KIDS.get(pid, {}).items():
            if child not in running:  # reaped since: its ticks are in cutime now
                gone_ns += ns
                gone_ticks += ticks
        _GONE[pid] = (gone_ns, gone_ticks)
        _KIDS[pid] = running
        unseen_ns = max(0, reaped_ticks - gone_ticks) * 1_000_000_000 // CLK_TCK
        _CHILDREN[pid] = unseen_ns + gone_ns + sum(ns for ns, _ in running.values())
    except (OSError, ValueError, IndexError):
        pass  # the process is gone: its last reading
    return threads + _CHILDREN.get(pid, 0)


def _running_children(pid):
    """{child pid: (ns on CPU over its threads, utime + stime ticks)} of the
    children of `pid` still running."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[1]) != pid:
                continue
            ns = 0
            for tid in os.listdir("/proc/%s/task" % entry):
                ns += _schedstat_ns("/proc/%s/task/%s/" % (entry, tid)) or 0
            children[int(entry)] = (ns, int(fields[11]) + int(fields[12]))
        except (OSError, ValueError, IndexError):
            pass
    return children


def children_ns(pid):
    """The children's part of cpu_ns, ns."""
    cpu_ns(pid)
    return _CHILDREN.get(pid, 0)


def ctx_switches(pid):
    """Voluntary context switches of every thread (see _over_threads): the
    times the daemon went to sleep (in poll) and was woken. Preemptions
    (nonvoluntary) are left out: they count the other processes on the
    CPU."""
    return _over_threads(pid, _SWITCHES, _voluntary_switches)


def memory_kb(pid):
    """(VmRSS, Pss) in kB."""
    rss = pss = None
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
    with open("/proc/%d/smaps_rollup" % pid) as f:
        for line in f:
            if line.startswith("Pss:"):
                pss = int(line.split()[1])
    return rss, pss


def wait_idle(pid, quiet=0.4, timeout=30.0, threshold_ns=300_000):
    """Wait until the daemon spends < threshold_ns of CPU over `quiet`
    seconds. Returns (monotonic ns of the last activity seen, timed_out)."""
    samples = []  # (t_ns, cpu)
    t_end = time.monotonic() + timeout
    last_active = mono_ns()
    prev = cpu_ns(pid)
    while time.monotonic() < t_end:
        time.sleep(0.05)
        if not os.path.exists("/proc/%d/stat" % pid):
            return last_active, False
        now, c = mono_ns(), cpu_ns(pid)
        if c - prev > 50_000:
            last_active = now
        prev = c
        samples.append((now, c))
        old = [s for s in samples if s[0] <= now - quiet * 1e9]
        if old and c - old[-1][1] < threshold_ns:
            return last_active, False
    return last_active, True


class Crashed(Exception):
    pass


# --------------------------------------------------------------------------
# Processes

class Bench:
    def __init__(self):
        src = os.environ.get("PERCH_BIN_DIR", os.path.join(REPO, ".build", "release"))
        self.bindir = harness.prepare_bindir(src)
        # An earlier build of Perch, run as one more peer, so that a change
        # is measured before and after in one run (the machine's speed
        # moves between runs).
        before = os.environ.get("BENCH_PERCH_BEFORE")
        self.before_bindir = harness.prepare_bindir(before) if before else None
        self.work = tempfile.mkdtemp(prefix="perch-compare-")
        os.chmod(self.work, 0o755)
        for name in ("dbus_driver.py",):
            shutil.copy(os.path.join(HERE, name), os.path.join(self.work, name))
        self.session = harness.Session(self.work)
        self.frac = None
        self.uid, self.gid = self.session.pw.pw_uid, self.session.pw.pw_gid
        # Shared with the daemons in the Debian 13 root (bind-mounted at the
        # same path by scripts/bench-root): the bus socket, configs, icon.
        self.share = self.user_dir("share")
        write_configs(self)
        self.bus_proc = self.session.popen(
            ["dbus-daemon", "--nofork", "--print-address=1", "--nopidfile",
             "--config-file=" + self.bus_config()],
            env=self.session.env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.address = self.bus_proc.stdout.readline().decode().strip()
        if not self.address.startswith("unix:"):
            raise SystemExit("dbus-daemon printed no address: %r" % self.address)
        self.env = self.session.env(DBUS_SESSION_BUS_ADDRESS=self.address)
        self.driver = self.spawn([PY, "-u", self.path("dbus_driver.py"), "serve"],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.floor_bin = build_floor(self.work)
        self.runs = 0

    def bus_config(self):
        """Debian's session bus config less its service directories: with
        mako, dunst and swaync installed, a Notify sent while no daemon owns
        the name (one just crashed) would start one of them by activation."""
        with open("/usr/share/dbus-1/session.conf") as f:
            text = f.read()
        text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
        text = re.sub(r"<standard_session_servicedirs\s*/>|<servicedir>.*?</servicedir>|"
                      r"<includedir>.*?</includedir>|<include[^>]*>.*?</include>", "", text, flags=re.S)
        text = re.sub(r"<listen>.*?</listen>", "<listen>unix:path=%s</listen>" % self.share_path("bus"), text)
        p = self.share_path("bus.conf")
        with open(p, "w") as f:
            f.write(text)
        os.chmod(p, 0o644)
        return p

    def path(self, name):
        return os.path.join(self.work, name)

    def share_path(self, name):
        return os.path.join(self.share, name)

    def write_share(self, name, text):
        p = self.share_path(name)
        with open(p, "w") as f:
            f.write(text)
        os.chmod(p, 0o644)

    def spawn(self, argv, env=None, **kw):
        return subprocess.Popen(argv, env=env or self.env, cwd=self.work,
                                **self.session.user_kwargs(), **kw)

    def user_dir(self, name):
        d = self.path(name)
        os.makedirs(d, exist_ok=True)
        if harness.run_as_root():
            os.chown(d, self.uid, self.gid)
        os.chmod(d, 0o755)
        return d

    def call(self, op, wait=120, **args):
        args["op"] = op
        self.driver.stdin.write((json.dumps(args) + "\n").encode())
        self.driver.stdin.flush()
        r, _, _ = select.select([self.driver.stdout], [], [], wait)
        if not r:
            raise RuntimeError("D-Bus driver did not answer %s within %ds" % (op, wait))
        line = self.driver.stdout.readline()
        if not line:
            raise RuntimeError("D-Bus driver exited")
        out = json.loads(line)
        if "exception" in out:
            raise RuntimeError("%s: %s" % (op, out["exception"]))
        return out

    def frac_session(self):
        """A headless sway 1.10 (Debian 13 root) with its output at scale 1.5."""
        if self.frac is None:
            work = self.path("frac")
            os.makedirs(work, exist_ok=True)
            os.chmod(work, 0o755)
            self.frac = harness.Session(work, compositor="sway110")
            r = self.frac.swaymsg("output", "HEADLESS-1", "scale", FRAC_SCALE)
            if r.returncode != 0:
                raise RuntimeError("swaymsg scale %s: %s" % (FRAC_SCALE, r.stderr))
        return self.frac

    def start(self, d, session=None, extra_env=None, args=(), primed=False):
        """Start daemon d in session (default the sway 1.7 one); returns
        (proc, log path, seconds to own the name, launch instant).

        Each measured start is a second one: the daemon's executable is
        dropped from the page cache, started once (as at login, reading
        its pages from the disk as it touches them) and stopped. How much
        of a binary the kernel maps around each page touched depends on
        how the file came into the cache: the large folios of a freshly
        copied file map whole 128 KB runs, and the same perch measured 0.3
        to 1 MB apart in Pss copied or read back. The first start's disk
        reads are kept out of the start-up time, as on any later start."""
        if not primed:
            argv0 = d.argv(self)[0]
            drop_from_page_cache(ROOT_DIR + argv0 if d.in_root else argv0)
            proc, _, _, _ = self.start(d, session=session, extra_env=extra_env, args=args, primed=True)
            self.stop(proc)
        session = session or self.session
        self.runs += 1
        logp = self.path("%s-%d.log" % (d.name, self.runs))
        logf = open(logp, "wb")
        self.last_log = logp
        env = session.env(DBUS_SESSION_BUS_ADDRESS=self.address,
                          XDG_CONFIG_HOME=self.user_dir("config-%d" % self.runs))
        env.update(extra_env or {})
        argv = d.argv(self) + list(args)
        if d.is_perch:
            # Perch restores live notifications from its state: a fresh one.
            env["XDG_STATE_HOME"] = self.user_dir("state-%d" % self.runs)
        t0 = mono_ns()
        if d.in_root:
            # As root (chroot, mounts); bench-root drops to the session user.
            env.update(BENCH_ROOT_SHARE=self.share, PERCH_TRIXIE_ROOT=ROOT_DIR,
                       PERCH_TEST_USER=session.user)
            proc = subprocess.Popen([BENCH_ROOT, "exec", env["XDG_RUNTIME_DIR"]] + argv, env=env,
                                    cwd=self.work, stdin=subprocess.DEVNULL, stdout=logf,
                                    stderr=subprocess.STDOUT)
        else:
            proc = subprocess.Popen(argv, env=env, cwd=self.work, stdin=subprocess.DEVNULL,
                                    stdout=logf, stderr=subprocess.STDOUT, **session.user_kwargs())
        logf.close()
        r = self.call("wait_owned", timeout=15)
        if not r["owned"]:
            proc.kill()
            proc.wait()
            raise Crashed("did not own the name within 15 s (exit %s; log %s)" % (proc.returncode, logp))
        return proc, logp, (r["t"] - t0) / 1e9, t0

    def stop(self, proc):
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        # The next daemon must own the name alone.
        if not self.call("wait_released", timeout=5)["released"]:
            log("  warning: org.freedesktop.Notifications still owned 5 s after the daemon exited")

    def close(self):
        try:
            self.driver.stdin.close()
            self.driver.wait(3)
        except Exception:
            self.driver.kill()
        self.bus_proc.terminate()
        if self.frac is not None:
            self.frac.stop()
        self.session.stop()
        for d in (self.share, self.work, self.session.dir):
            try:  # the empty mount points bench-root left in the root
                os.rmdir(ROOT_DIR + d)
            except OSError:
                pass
        shutil.rmtree(self.work, ignore_errors=True)
        shutil.rmtree(self.bindir, ignore_errors=True)


def build_floor(work):
    """bench/floor-client.c with the wayland-scanner output of the
    layer-shell protocol (and xdg-shell, which it refers to)."""
    out = os.path.join(work, "floor")
    os.makedirs(out, exist_ok=True)
    ls = os.path.join(REPO, "protocols", "wlr-layer-shell-unstable-v1.xml")
    xdg = "/usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml"
    steps = [["wayland-scanner", "client-header", ls, os.path.join(out, "wlr-layer-shell-unstable-v1-client-protocol.h")],
             ["wayland-scanner", "private-code", ls, os.path.join(out, "layer-shell.c")],
             ["wayland-scanner", "private-code", xdg, os.path.join(out, "xdg-shell.c")]]
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "wayland-client"],
                           capture_output=True, text=True, check=True).stdout.split()
    binary = os.path.join(out, "floor-client")
    steps.append(["cc", "-O2", "-I", out, "-o", binary, os.path.join(HERE, "floor-client.c"),
                  os.path.join(out, "layer-shell.c"), os.path.join(out, "xdg-shell.c")] + flags)
    for s in steps:
        subprocess.run(s, check=True)
    os.chmod(out, 0o755)
    os.chmod(binary, 0o755)
    return binary


# --------------------------------------------------------------------------
# Runs

def alive(proc, what):
    """Raises Crashed when the daemon is gone."""
    rc = proc.poll()
    if rc is not None:
        raise Crashed("exited (%s) during %s" % ("signal %d" % -rc if rc < 0 else "code %d" % rc, what))


def spent(pid, res, cpu_key, action, cs_key=None):
    """Runs action(); records the daemon's CPU over it (ms) under cpu_key
    and, with cs_key, its context switches. Returns what action returned."""
    c0, s0 = cpu_ns(pid), ctx_switches(pid)
    result = action()
    res[cpu_key].append((cpu_ns(pid) - c0) / 1e6)
    if cs_key:
        res[cs_key].append(ctx_switches(pid) - s0)
    return result


def record_memory(pid, res, when):
    """VmRSS and Pss now, as rss_<when> and pss_<when>; returns the Pss."""
    rss, pss = memory_kb(pid)
    res["rss_" + when].append(rss)
    res["pss_" + when].append(pss)
    return pss


CRASH = "crashed"
b_of_run = None  # the Bench, for the log of the daemon that crashed


def log_tail(path, n=2):
    """The last n non-empty lines of a daemon's log, joined (WAYLAND_DEBUG
    lines left out)."""
    try:
        with open(path, errors="replace") as f:
            lines = [l.strip() for l in f if l.strip() and not l.startswith("[")]
        return " | ".join(lines[-n:])[-400:]
    except (OSError, TypeError):
        return ""


def guarded(res, keys, what, fn):
    """Runs fn(); if the daemon crashes, every key of `keys` that got no
    value in this run gets CRASH, and the run goes on with the next daemon."""
    before = {k: len(res[k]) for k in keys}
    try:
        fn()
    except Crashed as e:
        tail = log_tail(getattr(b_of_run, "last_log", None))
        res["crashes"].append("%s: %s%s" % (what, e, "; its log ends: " + tail if tail else ""))
        log("  CRASHED: %s: %s%s" % (what, e, "; its log ends: " + tail if tail else ""))
        for k in keys:
            if len(res[k]) == before[k]:
                res[k].append(CRASH)
    except Exception as e:  # a driver time-out, a failed helper: noted, never fatal
        res["notes"].append("%s failed: %s: %s" % (what, type(e).__name__, e))
        log("  FAILED: %s: %s: %s" % (what, type(e).__name__, e))


MAIN_KEYS = ["startup_ms", "rss_idle", "pss_idle", "rss_1", "pss_1", "rss_100", "pss_100", "rss_1100",
             "pss_1100", "pss_growth", "pss_growth2", "pss_growth3", "cpu_1", "cs_1", "cpu_1_svg", "cpu_1_svg_children", "cpu_100", "cs_100",
             "cpu_1000", "cpu_close1000", "cpu_100_plain", "cpu_100_icon", "abuse_ok", "abuse_replies_s",
             "abuse_drain_s", "abuse_cpu", "probe_max", "probe_med"]
ABUSE_KEYS = ["abuse_ok", "abuse_replies_s", "abuse_drain_s", "abuse_cpu", "probe_max", "probe_med"]
IDLE_KEYS = ["idle0_cpu", "idle0_cs", "idle1_cpu", "idle1_cs"]


def run_main(b, d, res, with_idle, flood=True):
    """Start-up, memory, CPU, icons, idle and the abuse burst (no debug output)."""
    proc, _, startup, _ = b.start(d)
    pid = proc.pid
    res["startup_ms"].append(startup * 1000)

    def post(n, timeout, icon=""):
        """n posted in one burst, then the daemon left to go idle."""
        r = b.call("notify", n=n, expire=0, timeout=timeout, icon=icon)
        wait_idle(pid, timeout=timeout)
        alive(proc, "a burst of %d" % n)
        return r

    def close(ids, timeout):
        b.call("close", ids=ids, timeout=timeout)
        wait_idle(pid, timeout=timeout)
        alive(proc, "CloseNotification × %d" % len(ids))

    try:
        wait_idle(pid, timeout=10)
        alive(proc, "start-up")
        record_memory(pid, res, "idle")
        if with_idle:
            spent(pid, res, "idle0_cpu", lambda: time.sleep(IDLE_S), "idle0_cs")

        one = spent(pid, res, "cpu_1", lambda: post(1, 10), "cs_1")
        record_memory(pid, res, "1")
        if with_idle:
            spent(pid, res, "idle1_cpu", lambda: time.sleep(IDLE_S), "idle1_cs")
        close(one["ids"], 10)
        h0 = children_ns(pid)
        svg = spent(pid, res, "cpu_1_svg", lambda: post(1, 10, icon=b.share_path("icon.svg")))
        res["cpu_1_svg_children"].append((children_ns(pid) - h0) / 1e6)
        close(svg["ids"], 10)

        first = spent(pid, res, "cpu_100", lambda: post(100, 30), "cs_100")
        pss_100 = record_memory(pid, res, "100")

        r = spent(pid, res, "cpu_1000", lambda: post(1000, 60))
        spent(pid, res, "cpu_close1000", lambda: close(r["ids"], 60))
        pss = record_memory(pid, res, "1100")
        res["pss_growth"].append(pss - pss_100)
        # Further rounds tell a leak (grows every time) from a high-water
        # mark (heap and caches sized by the first 1000): the mean growth.
        for _ in range(GROWTH_ROUNDS):
            close(post(1000, 60)["ids"], 60)
        res["pss_growth2"].append((memory_kb(pid)[1] - pss) / GROWTH_ROUNDS)
        # As many again: the heap's live bytes level off over the first
        # few thousand (caches reaching their caps, code and library pages
        # touched for the first time), so these are the steady state.
        pss = memory_kb(pid)[1]
        for _ in range(GROWTH_ROUNDS):
            close(post(1000, 60)["ids"], 60)
        res["pss_growth3"].append((memory_kb(pid)[1] - pss) / GROWTH_ROUNDS)
        close(first["ids"], 30)

        # The same burst of 100 again without an icon and with one theme
        # icon: looked up and decoded once, then (in Perch) cached.
        for key, icon in (("cpu_100_plain", ""), ("cpu_100_icon", THEME_ICON)):
            posted = spent(pid, res, key, lambda: post(100, 30, icon=icon))
            close(posted["ids"], 30)

        if flood:
            abuse(b, proc, res)
    finally:
        b.stop(proc)


def abuse(b, proc, res):
    """ABUSE_N Notify calls in one burst while a second client probes."""
    pid = proc.pid
    probe = b.spawn([PY, "-u", b.path("dbus_driver.py"), "probe", "0.05"],
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    status = None
    sock = os.path.join(b.env["XDG_RUNTIME_DIR"], "perch", b.env["WAYLAND_DISPLAY"] + ".sock")
    if os.path.exists(sock) and res is b_of_run.perch_res:
        status = b.spawn([PY, "-u", "-c", STATUS_PROBE, sock], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    time.sleep(0.3)
    c0 = cpu_ns(pid)
    try:
        r = b.call("notify", n=ABUSE_N, expire=0, timeout=60, wait=150)
    except RuntimeError as e:
        r = {"ok": 0, "errors": 0, "error_kinds": {str(e): 1}, "t_last": None, "t0": mono_ns()}
    try:
        out, _ = probe.communicate(b"stop\n", timeout=30)
        p = json.loads(out)
    except Exception:
        probe.kill()
        p = {"ms": [], "errors": -1}
    if status is not None:
        try:
            out, _ = status.communicate(b"stop\n", timeout=30)
            st = json.loads(out)
            if st["ms"]:
                res["status_max"].append(max(st["ms"]))
                res["status_med"].append(med(st["ms"]))
        except Exception:
            status.kill()
    last, timed_out = wait_idle(pid, timeout=60)
    dead = proc.poll() is not None
    res["abuse_ok"].append(r["ok"])
    res["abuse_cpu"].append((cpu_ns(pid) - c0) / 1e6 if not dead else CRASH)
    if dead:
        res["abuse_replies_s"].append(CRASH)
        res["abuse_drain_s"].append(CRASH)
    else:
        if r.get("t_last"):
            res["abuse_replies_s"].append((r["t_last"] - r["t0"]) / 1e9)
        res["abuse_drain_s"].append((last - r["t0"]) / 1e9 if not timed_out else float("nan"))
    ms = sorted(p["ms"])
    if ms:
        res["probe_max"].append(ms[-1])
        res["probe_med"].append(ms[len(ms) // 2])
    note = "%d/%d ids" % (r["ok"], ABUSE_N)
    if r.get("error_kinds"):
        note += ", errors %s" % r["error_kinds"]
    if p.get("errors"):
        note += ", %d probe failures" % p["errors"]
    if timed_out:
        note += ", still busy after 60 s"
    if dead:
        note += ", daemon died"
        tail = log_tail(getattr(b, "last_log", None))
        res["crashes"].append("abuse: exited (%s)%s" % (proc.returncode, "; its log ends: " + tail if tail else ""))
    res["abuse_notes"].append(note)


# libwayland 1.23 (Debian 13, mako 1.10 and fnott) prints the queue's name
# ("{Default Queue}") between the time stamp and the arrow, and object ids
# as wl_surface#3 where 1.21 prints wl_surface@3.
LINE = re.compile(r"^\[\s*([0-9.]+)\]\s+(?:\{[^}]*\}\s+)?->\s+wl_surface[@#](\d+)\.(attach|commit)\(")
SUBSURFACE = re.compile(r"get_subsurface\(new id wl_subsurface[@#]\d+, wl_surface[@#](\d+),")
SUBSURFACES = set()
DESTROY = re.compile(r"->\s+wl_surface[@#](\d+)\.destroy\(")


def wl_events(logp, offset):
    """(new offset, [(ms, surface, 'attach'|'commit')]) from a WAYLAND_DEBUG log."""
    with open(logp, "rb") as f:
        f.seek(offset)
        data = f.read()
    end = data.rfind(b"\n") + 1
    ev = []
    for line in data[:end].decode(errors="replace").splitlines():
        m = SUBSURFACE.search(line)
        if m:
            SUBSURFACES.add((logp, int(m.group(1))))
        m = DESTROY.search(line)
        if m:  # object ids are reused: forget what this one was
            SUBSURFACES.discard((logp, int(m.group(1))))
        m = LINE.match(line)
        if m:
            ev.append((float(m.group(1)), int(m.group(2)), m.group(3)))
    return offset + end, ev


def first_timestamp(logp):
    with open(logp, errors="replace") as f:
        for line in f:
            m = re.match(r"^\[\s*([0-9.]+)\]", line)
            if m:
                return float(m.group(1))
    return None


def run_latency(b, d, res):
    """Notify sent -> first wl_surface.attach + commit, from WAYLAND_DEBUG."""
    proc, logp, _, t_launch = b.start(d, extra_env={"WAYLAND_DEBUG": "client"})
    pid = proc.pid
    lat = []
    try:
        wait_idle(pid, timeout=10)
        alive(proc, "start-up")
        # Which clock does libwayland stamp with? libwayland 1.21 prints
        # CLOCK_REALTIME in microseconds truncated to 32 bits (wraps every
        # 71.6 min), newer ones may differ: compare its first line with each
        # candidate clock at launch and take the closest.
        clk = b.call("clocks")
        first = first_timestamp(logp)
        launch_real_ns = clk["real"] - (clk["mono"] - t_launch)
        cands = {"CLOCK_MONOTONIC": lambda m, r: m / 1e6,
                 "CLOCK_REALTIME": lambda m, r: r / 1e6,
                 "CLOCK_REALTIME us mod 2^32": lambda m, r: ((r // 1000) % 2 ** 32) / 1000.0}
        name = min(cands, key=lambda k: abs(first - cands[k](t_launch, launch_real_ns))) \
            if first is not None else "CLOCK_MONOTONIC"
        res["lat_clock"] = name
        conv = cands[name]
        wrap = 2 ** 32 / 1000.0 if "mod" in name else float("inf")
        offset = os.path.getsize(logp)
        for _ in range(LAT_SAMPLES):
            s = b.call("notify1", expire=0)
            t_sent = conv(s["t_mono"], s["t_real"])
            found, deadline, attached = None, time.monotonic() + 5, {}
            while found is None and time.monotonic() < deadline:
                time.sleep(0.02)
                offset, ev = wl_events(logp, offset)
                for ms, surf, what in ev:
                    dt = (ms - t_sent) % wrap if wrap != float("inf") else ms - t_sent
                    if dt < 0 or dt > 10000:
                        continue
                    # A subsurface's buffer shows with its parent's commit:
                    # the first commit of a top-level surface after an attach.
                    if what == "attach":
                        attached["any"] = True
                    elif attached and (logp, surf) not in SUBSURFACES:
                        found = dt
                        break
            if found is not None:
                lat.append(found)
            b.call("close", ids=[s["id"]], timeout=10)
            wait_idle(pid, timeout=10)
            alive(proc, "the latency samples")
            offset, _ = wl_events(logp, offset)
    finally:
        b.stop(proc)
        if lat:
            res["latency_med"].append(med(lat))
            res["latency_p90"].append(pct(lat, 0.9))
        log("  %s: %d latency samples, median %.2f ms (clock %s)"
            % (d.name, len(lat), med(lat) or -1, res.get("lat_clock")))


def frames(trace, since_ns, until_ns=None):
    """Client times (µs) of PERCH_TRACE `frame START_NS DURATION_NS` lines
    that started in [since_ns, until_ns)."""
    out = []
    try:
        with open(trace) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 3 and parts[0] == "frame" and int(parts[1]) >= since_ns \
                        and (until_ns is None or int(parts[1]) < until_ns):
                    out.append(int(parts[2]) / 1000.0)
    except OSError:
        pass
    return out


def cpu_window(pid, trace, start_after, length):
    """Daemon CPU and wake-ups over [now + start_after, + length] (s), and
    the frames its trace shows started in that window. The window sits
    inside an animation, past its first frame (where the card is drawn).
    Perch writes its trace out at rest, so the frames are counted once the
    daemon is idle again."""
    time.sleep(start_after)
    c0, s0, t0 = cpu_ns(pid), ctx_switches(pid), mono_ns()
    time.sleep(length)
    c1, s1, t1 = cpu_ns(pid), ctx_switches(pid), mono_ns()
    wait_idle(pid, timeout=10)
    n = len(frames(trace, t0, t1))
    return (c1 - c0) / 1000.0, s1 - s0, n


# Perch's `status` over its control socket every 50 ms until a line on
# stdin: the answer times (ms), for the flood's "status answered" figure.
STATUS_PROBE = r'''
import json, select, socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(10)
s.connect(sys.argv[1])
f = s.makefile("rb")
ms, errors, i = [], 0, 0
while True:
    i += 1
    t = time.monotonic()
    try:
        s.sendall(json.dumps({"id": i, "method": "status"}).encode() + b"\n")
        errors += "result" not in json.loads(f.readline())
    except Exception:
        errors += 1
    ms.append((time.monotonic() - t) * 1000.0)
    if select.select([sys.stdin], [], [], max(0.0, 0.05 - (time.monotonic() - t)))[0]:
        break
print(json.dumps({"ms": ms, "errors": errors}))
'''


SOCKET_BURST = r'''
import json, socket, sys, threading, time
path, n = sys.argv[1], int(sys.argv[2])
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(60)
s.connect(path)
lines = b"".join(json.dumps({"id": i, "method": "notify", "params": {"title": "Bench %d" % i,
        "body": "a body line for notification %d" % i, "app": "bench", "timeout": 0}}).encode() + b"\n"
        for i in range(n))
t0 = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
threading.Thread(target=s.sendall, args=(lines,), daemon=True).start()
f = s.makefile("rb")
ok = 0
for _ in range(n):
    line = f.readline()
    if not line:
        break
    ok += "result" in json.loads(line)
print(json.dumps({"t0": t0, "t1": time.clock_gettime_ns(time.CLOCK_MONOTONIC), "ok": ok}))
'''


def run_perch_extra(b, perch, res, floor):
    """Perch only: frame times and CPU per frame from PERCH_TRACE, the floor
    client for as many frames, the center scrolling, the burst over its
    socket."""
    trace = os.path.join(b.user_dir("trace-%d" % (b.runs + 1)), "trace")
    proc, _, _, _ = b.start(perch, extra_env={"PERCH_TRACE": trace},
                            args=["--max-visible", "6", "--max-history", "300"])
    pid = proc.pid
    try:
        wait_idle(pid, timeout=10)
        t = mono_ns()
        b.call("notify", n=1, expire=0, timeout=10)
        # CPU per frame mid-slide: from 0.15 s to 0.55 s of the 0.7 s slide.
        cpu_us, cs, n = cpu_window(pid, trace, 0.15, 0.4)
        wait_idle(pid, timeout=10)
        slide = frames(trace, t)
        res["slide_frames"].extend(slide)
        res["slide_count"].append(len(slide))
        if n:
            res["frame_cpu_us"].append(cpu_us / n)
            res["frame_cs"].append(cs / n)
        run_floor(b, len(slide) or 38, floor)

        for _ in range(4):
            b.call("notify", n=1, expire=0, timeout=10)
            time.sleep(0.15)
        wait_idle(pid, timeout=10)
        t = mono_ns()
        b.call("notify", n=1, expire=0, timeout=10)
        wait_idle(pid, timeout=10)
        res["reflow_frames"].extend(frames(trace, t))

        run_center(b, proc, trace, res)

        sock = os.path.join(b.env["XDG_RUNTIME_DIR"], "perch", b.env["WAYLAND_DISPLAY"] + ".sock")
        c0 = cpu_ns(pid)
        try:
            r = b.session.run([PY, "-c", SOCKET_BURST, sock, str(ABUSE_N)], env=b.env, timeout=120)
            out = json.loads(r.stdout)
            res["sock_ok"].append(out["ok"])
            res["sock_replies_s"].append((out["t1"] - out["t0"]) / 1e9)
            last, timed_out = wait_idle(pid, timeout=60)
            if not timed_out:
                res["sock_drain_s"].append((last - out["t0"]) / 1e9)
            res["sock_cpu"].append((cpu_ns(pid) - c0) / 1e6)
        except Exception as e:
            res["notes"].append("socket burst failed: %s" % e)
    finally:
        b.stop(proc)


def run_floor(b, n_frames, floor):
    """The floor client for n_frames frame callbacks: its CPU (from outside,
    as for the daemons) and wake-ups per frame, and its own client time."""
    env = b.env
    p = b.spawn([b.floor_bin, str(n_frames)], env=env, stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        r, _, _ = select.select([p.stdout], [], [], 10)
        if not r or p.stdout.readline().strip() != b"ready":
            raise RuntimeError("floor-client did not map its surface: %s" % p.stderr.read1(500))
        time.sleep(0.2)
        c0, s0 = cpu_ns(p.pid), ctx_switches(p.pid)
        p.stdin.write(b"go\n")
        p.stdin.flush()
        r, _, _ = select.select([p.stdout], [], [], 30)
        c1, s1 = cpu_ns(p.pid), ctx_switches(p.pid)
        out = json.loads(p.stdout.readline())
        floor["frame_cpu_us"].append((c1 - c0) / 1000.0 / out["frames"])
        floor["frame_cs"].append((s1 - s0) / out["frames"])
        floor["frame_cpu_self_us"].append(out["cpu_ns"] / 1000.0 / out["frames"])
        floor["client_us"].append(out["client_us_median"])
        floor["frames"].append(out["frames"])
    except Exception as e:
        floor["notes"].append("floor-client failed: %s" % e)
    finally:
        p.kill()
        p.wait()


def run_center(b, proc, trace, res):
    """Perch's center scrolled through 200 entries of history with a
    virtual pointer's wheel (as bench/frame_times.py does): CPU per frame."""
    pid = proc.pid
    ctl = os.path.join(b.bindir, "perchctl")
    log("  center: 200 notifications into the history")
    b.session.run([ctl, "dismiss", "--all"], env=b.env)
    # 200 posted and closed at once (CloseNotification): into the history.
    posted = b.call("notify", n=200, expire=0, timeout=30)
    b.call("close", ids=posted["ids"], timeout=30)
    wait_idle(pid, timeout=10)
    log("  center: open and scroll")
    b.session.run([ctl, "center", "open"], env=b.env)
    time.sleep(0.8)
    wait_idle(pid, timeout=10)
    from pointer import pointer
    t = mono_ns()
    c0, s0 = cpu_ns(pid), ctx_switches(pid)
    try:
        pointer(b.session, b.bindir, "move", 1100, 400, "sleep", "0.1",
                *sum((["wheel", "3", "sleep", "0.2"] for _ in range(8)), []))
    except Exception as e:
        res["notes"].append("center scroll: pointer failed: %s" % e)
        return
    wait_idle(pid, timeout=10)
    fr = frames(trace, t)
    res["center_frames"].extend(fr)
    if fr:
        res["center_cpu_us"].append((cpu_ns(pid) - c0) / 1000.0 / len(fr))
        res["center_cs"].append((ctx_switches(pid) - s0) / len(fr))
    b.session.run([ctl, "center", "close"], env=b.env)
    wait_idle(pid, timeout=10)


def run_frac(b, d, res):
    """One toast to rest on sway 1.10 with its output at scale 1.5."""
    s = b.frac_session()
    proc, _, _, _ = b.start(d, session=s)
    pid = proc.pid
    try:
        wait_idle(pid, timeout=10)
        alive(proc, "start-up on sway 1.10")

        def post():
            r = b.call("notify", n=1, expire=0, timeout=10)
            wait_idle(pid, timeout=10)
            alive(proc, "a toast at scale 1.5")
            return r
        spent(pid, res, "frac_cpu_1", post, "frac_cs_1")
    finally:
        b.stop(proc)


# --------------------------------------------------------------------------
# Table

def nums(v):
    return [x for x in v if not isinstance(x, str) and x == x]


def med(v):
    v = sorted(nums(v))
    if not v:
        return None
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def pct(v, p):
    v = sorted(nums(v))
    return v[min(len(v) - 1, int(round(p * (len(v) - 1))))] if v else None


def cell(v, fmt):
    crashed = sum(1 for x in v if x == CRASH)
    n = nums(v)
    if not n:
        return "crashed" if crashed else "—"
    s = fmt % n[0] if len(n) == 1 else "%s (%s–%s)" % (fmt % med(n), fmt % min(n), fmt % max(n))
    return s + (" +%d crashed" % crashed if crashed else "")


# (label, key, format, scope, better): scope "all" = every daemon, "perch"
# = Perch only (peers n/a); better "low" or "high" (for Perch / best peer).
def rows_spec():
    return [
        ("start-up: launch → bus name owned (ms)", "startup_ms", "%.1f", "all", "low"),
        ("VmRSS idle (kB)", "rss_idle", "%d", "all", "low"),
        ("Pss idle (kB)", "pss_idle", "%d", "all", "low"),
        ("VmRSS, 1 toast (kB)", "rss_1", "%d", "all", "low"),
        ("Pss, 1 toast (kB)", "pss_1", "%d", "all", "low"),
        ("Pss, 100 posted (kB)", "pss_100", "%d", "all", "low"),
        ("Pss, +1000 posted & closed (kB)", "pss_1100", "%d", "all", "low"),
        ("Pss growth 100 → +1000 (kB, leak?)", "pss_growth", "%d", "all", "low"),
        ("Pss growth per further +1000, mean of %d (kB)" % GROWTH_ROUNDS, "pss_growth2", "%d", "all", "low"),
        ("  and per +1000 over the %d after those (kB)" % GROWTH_ROUNDS, "pss_growth3", "%d", "all", "low"),
        ("CPU: 1 toast shown, to rest (ms)", "cpu_1", "%.1f", "all", "low"),
        ("wake-ups (ctx switches) to show 1", "cs_1", "%d", "all", "low"),
        ("CPU: 1 toast with an SVG icon file, to rest (ms)", "cpu_1_svg", "%.1f", "all", "low"),
        ("  of which child processes (ms)", "cpu_1_svg_children", "%.1f", "all", "low"),
        ("CPU: burst of 100 shown, to rest (ms)", "cpu_100", "%.1f", "all", "low"),
        ("wake-ups (ctx switches) to show 100", "cs_100", "%d", "all", "low"),
        ("CPU: burst of 1000 more (ms)", "cpu_1000", "%.1f", "all", "low"),
        ("CPU: CloseNotification × 1000 (ms)", "cpu_close1000", "%.1f", "all", "low"),
        ("CPU: burst of 100 again, no icon (ms)", "cpu_100_plain", "%.1f", "all", "low"),
        ("CPU: burst of 100, theme icon %s (ms)" % THEME_ICON, "cpu_100_icon", "%.1f", "all", "low"),
        ("idle %gs, 0 toasts: CPU (ms)" % IDLE_S, "idle0_cpu", "%.2f", "all", "low"),
        ("idle %gs, 0 toasts: wake-ups" % IDLE_S, "idle0_cs", "%d", "all", "low"),
        ("idle %gs, 1 toast: CPU (ms)" % IDLE_S, "idle1_cpu", "%.2f", "all", "low"),
        ("idle %gs, 1 toast: wake-ups" % IDLE_S, "idle1_cs", "%d", "all", "low"),
        ("latency Notify → 1st attach+commit, median of %d/round (ms)" % LAT_SAMPLES,
         "latency_med", "%.2f", "all", "low"),
        ("latency Notify → 1st attach+commit, p90 (ms)", "latency_p90", "%.2f", "all", "low"),
        ("sway 1.10, scale %s: CPU, 1 toast to rest (ms)" % FRAC_SCALE, "frac_cpu_1", "%.1f", "all", "low"),
        ("sway 1.10, scale %s: wake-ups, 1 toast" % FRAC_SCALE, "frac_cs_1", "%d", "all", "low"),
        ("abuse %d Notify: ids back" % ABUSE_N, "abuse_ok", "%d", "all", "high"),
        ("abuse: all replies back (s)", "abuse_replies_s", "%.2f", "all", "low"),
        ("abuse: drained, daemon idle again (s)", "abuse_drain_s", "%.2f", "all", "low"),
        ("abuse: daemon CPU (ms)", "abuse_cpu", "%.0f", "all", "low"),
        ("abuse: GetServerInformation max (ms)", "probe_max", "%.1f", "all", "low"),
        ("abuse: GetServerInformation median (ms)", "probe_med", "%.2f", "all", "low"),
        ("animated frame (slide): CPU per frame (µs)", "frame_cpu_us", "%.0f", "floor", "low"),
        ("animated frame (slide): wake-ups per frame", "frame_cs", "%.2f", "floor", "low"),
        ("frames in one slide", "slide_count", "%d", "perch", "low"),
        ("frame: slide, client time median (µs)", "slide_med", "%.0f", "floor-client", "low"),
        ("frame: slide, client time p99 (µs)", "slide_p99", "%.0f", "perch", "low"),
        ("frame: 5-toast reflow, client time median (µs)", "reflow_med", "%.0f", "perch", "low"),
        ("frame: 5-toast reflow, client time p99 (µs)", "reflow_p99", "%.0f", "perch", "low"),
        ("frames answered < 16.7 ms (%)", "frames_ok", "%.1f", "perch", "high"),
        ("center scrolling 200 entries: CPU per frame (µs)", "center_cpu_us", "%.0f", "perch", "low"),
        ("center scrolling: client time median (µs)", "center_med", "%.0f", "perch", "low"),
        ("abuse: Perch `status` on its socket meanwhile, max (ms)", "status_max", "%.1f", "perch", "low"),
        ("abuse: Perch `status` on its socket meanwhile, median (ms)", "status_med", "%.2f", "perch", "low"),
        ("abuse via control socket: all replies (s)", "sock_replies_s", "%.2f", "perch", "low"),
        ("abuse via control socket: daemon CPU (ms)", "sock_cpu", "%.0f", "perch", "low"),
    ]


def table(daemons, R, floor, spec=None):
    """spec: rows as rows_spec() gives them (its default); scope "count"
    (bench/day.py's) shows every daemon's figure with no ratio."""
    peers = [d for d in daemons if d.name != "perch"]
    head = ["figure"] + ["%s" % d.label for d in daemons] + ["Perch / best peer"]
    rows = []
    for label, key, fmt, scope, better in spec or rows_spec():
        P = R["perch"].get(key, [])
        r = [label, cell(P, fmt)]
        for d in peers:
            r.append(cell(R[d.name].get(key, []), fmt) if scope in ("all", "count") else "n/a")
        mp = med(P)
        if scope == "all":
            best = [(med(R[d.name].get(key, [])), d.label) for d in peers]
            best = [x for x in best if x[0] is not None]
            if best and mp is not None:
                bv, bn = (min if better == "low" else max)(best)
                if bv > 0 and mp >= 0:
                    r.append("%.2f (%s)" % (mp / bv, bn))
                elif bv == 0 and mp == 0:
                    r.append("even (%s: 0)" % bn)
                else:
                    r.append("— (%s: %s)" % (bn, fmt % bv))
            else:
                r.append("—")
        elif scope in ("floor", "floor-client"):
            fk = {"frame_cpu_us": "frame_cpu_us", "frame_cs": "frame_cs", "slide_med": "client_us"}[key]
            mf = med(floor.get(fk, []))
            r.append("%.2f × floor" % (mp / mf) if mp is not None and mf else "—")
        else:
            r.append("—")
        rows.append(r)
        if scope in ("floor", "floor-client"):
            fk = {"frame_cpu_us": "frame_cpu_us", "frame_cs": "frame_cs", "slide_med": "client_us"}[key]
            rows.append(["  the floor (floor-client, same frames)", cell(floor.get(fk, []), fmt)]
                        + ["n/a"] * len(peers) + ["—"])
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    out = ["| " + " | ".join(h.ljust(w) for h, w in zip(head, widths)) + " |",
           "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    for r in rows:
        out.append("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |")
    return "\n".join(out)


def chosen_daemons():
    want = os.environ.get("BENCH_PEERS")
    names = [d.name for d in DAEMONS[1:]]
    if want:
        sel = [w.strip() for w in want.split(",") if w.strip()]
        bad = [w for w in sel if w not in names]
        if bad:
            raise SystemExit("BENCH_PEERS: unknown %s (known: %s)" % (", ".join(bad), ", ".join(names)))
        names = sel
    chosen = [DAEMONS[0]] + [d for d in DAEMONS[1:] if d.name in names]
    if os.environ.get("BENCH_PERCH_BEFORE"):
        chosen.insert(1, Daemon("perch-before", "Perch before", "host", None))
    return chosen


def chosen_host_daemons(default="mako-1.7"):
    """Perch (with BENCH_PERCH_BEFORE's build) and the peers BENCH_PEERS
    names that run on the host (default: mako 1.7.1), for the scripts
    that measure in this session only (memory.py, instructions.py): the
    Debian 13 root's peers are started by compare.py alone."""
    host = [d.name for d in DAEMONS[1:] if not d.in_root]
    want = [w.strip() for w in os.environ.get("BENCH_PEERS", default).split(",") if w.strip()]
    if any(w not in host for w in want):
        log("only the host's peers are measured here (%s)" % ", ".join(host))
    os.environ["BENCH_PEERS"] = ",".join(w for w in want if w in host)
    return [d for d in chosen_daemons() if not d.in_root]


def main():
    # The daemons run as a user of their own when the bench runs as root
    # (created by scripts/headless-sway): tests that run on the same
    # machine as perch-test and signal that user's processes then cannot
    # stop a daemon in the middle of a measurement (it happened: Perch
    # exiting 0, on SIGTERM, in the middle of a round).
    os.environ.setdefault("PERCH_TEST_USER", "perch-bench")
    daemons = chosen_daemons()
    ensure_host_packages(daemons)
    notes = []
    if any(d.in_root for d in daemons):
        why = ensure_root_packages()
        if why:
            notes.append("left out mako 1.10 and fnott: %s" % why)
            daemons = [d for d in daemons if not d.in_root]
    keys = MAIN_KEYS + IDLE_KEYS + [
        "latency_med", "latency_p90", "abuse_notes", "crashes", "notes", "frac_cpu_1", "frac_cs_1",
        "slide_frames", "slide_count", "reflow_frames", "frame_cpu_us", "frame_cs", "center_frames",
        "center_cpu_us", "center_cs", "status_max", "status_med", "sock_ok", "sock_replies_s", "sock_drain_s", "sock_cpu"]
    R = {d.name: {k: [] for k in keys} for d in daemons}
    floor = {k: [] for k in ("frame_cpu_us", "frame_cs", "frame_cpu_self_us", "client_us", "frames", "notes")}
    perch = daemons[0]
    t_start = time.monotonic()
    global b_of_run
    b = b_of_run = Bench()
    b.perch_res = R["perch"]
    slow_flood = set()
    frac_ok = os.geteuid() == 0 and os.path.exists(os.path.join(ROOT_DIR, ".perch-root-ready"))
    if not frac_ok:
        notes.append("no fractional-scale row: sway 1.10 runs in the Debian 13 root, which needs root")
    try:
        for rnd in range(ROUNDS):
            # Alternate the order from round to round, so that no daemon
            # always runs right after the same one.
            order = daemons if rnd % 2 == 0 else [daemons[0]] + daemons[:0:-1]
            for d in order:
                log("round %d/%d: %s (start-up, memory, CPU, icons%s, abuse)"
                    % (rnd + 1, ROUNDS, d.name, ", idle" if rnd == 0 else ""))
                res = R[d.name]
                flood = d.name not in slow_flood
                keys_now = [k for k in MAIN_KEYS if flood or k not in ABUSE_KEYS]
                guarded(res, keys_now + (IDLE_KEYS if rnd == 0 else []), "round %d main" % (rnd + 1),
                        lambda: run_main(b, d, res, with_idle=(rnd == 0), flood=flood))
                # A daemon that takes more than SLOW_FLOOD_S to take the
                # flood is flooded once: three times would be most of the run.
                last = res["abuse_drain_s"][-1] if flood and res["abuse_drain_s"] else None
                if isinstance(last, float) and (last != last or last > SLOW_FLOOD_S) and rnd + 1 < ROUNDS:
                    slow_flood.add(d.name)
                    res["notes"].append("the %d-notification flood took over %d s to drain: run in round %d only"
                                        % (ABUSE_N, SLOW_FLOOD_S, rnd + 1))
                if flood and res["abuse_notes"]:
                    log("  %s abuse: %s" % (d.name, res["abuse_notes"][-1]))
            for d in order:
                log("round %d/%d: %s latency (WAYLAND_DEBUG=client)" % (rnd + 1, ROUNDS, d.name))
                res = R[d.name]
                guarded(res, ["latency_med", "latency_p90"], "round %d latency" % (rnd + 1),
                        lambda: run_latency(b, d, res))
            log("round %d/%d: perch animation, the floor, center, control socket" % (rnd + 1, ROUNDS))
            guarded(R["perch"], [], "round %d animation" % (rnd + 1),
                    lambda: run_perch_extra(b, perch, R["perch"], floor))
            if frac_ok:
                for d in order:
                    log("round %d/%d: %s on sway 1.10 at scale %s" % (rnd + 1, ROUNDS, d.name, FRAC_SCALE))
                    res = R[d.name]
                    try:
                        guarded(res, ["frac_cpu_1", "frac_cs_1"], "round %d scale %s" % (rnd + 1, FRAC_SCALE),
                                lambda: run_frac(b, d, res))
                    except Exception as e:  # the second compositor: never fatal
                        notes.append("fractional scale, %s: %s" % (d.name, e))
                        log("  fractional scale: %s" % e)
    finally:
        b.close()

    P = R["perch"]
    for name in ("slide", "reflow", "center"):
        fr = P[name + "_frames"]
        P[name + "_med"] = [med(fr)] if fr else []
        P[name + "_p99"] = [pct(fr, 0.99)] if fr else []
    allf = P["slide_frames"] + P["reflow_frames"]
    P["frames_ok"] = [100.0 * sum(1 for f in allf if f < 16667) / len(allf)] if allf else []

    print()
    print("Perch vs %s — %d rounds, alternating; %s; %d cores; %.0f s"
          % (", ".join(d.label for d in daemons[1:]), ROUNDS, time.strftime("%Y-%m-%d %H:%M"),
             os.cpu_count(), time.monotonic() - t_start))
    print(table(daemons, R, floor))
    print()
    print("frames: slide %d, reflow %d, center %d (all rounds pooled); floor: %s frames per run, "
          "its own CPU clock says %s µs/frame, client time %s µs"
          % (len(P["slide_frames"]), len(P["reflow_frames"]), len(P["center_frames"]),
             "/".join("%d" % x for x in floor["frames"]), cell(floor["frame_cpu_self_us"], "%.0f"),
             cell(floor["client_us"], "%.1f")))
    for d in daemons:
        res = R[d.name]
        print("%-10s abuse: %s; latency clock: %s" % (d.name, "; ".join(res["abuse_notes"]) or "—",
                                                     res.get("lat_clock")))
        for c in res["crashes"]:
            print("%-10s CRASHED %s" % (d.name, c))
        for n in res["notes"]:
            print("%-10s %s" % (d.name, n))
    for n in notes + floor["notes"]:
        print("note: %s" % n)
    print_icon_lookups(os.environ.get("PERCH_BIN_DIR", os.path.join(REPO, ".build", "release")))


def print_icon_lookups(bindir):
    """The first lookup of a theme name in a new process (directories listed
    and index.theme read, the page cache warm) and a repeated one, from
    `perch --find-icon`, median of 5."""
    print()
    print("icon lookup (perch --find-icon, median of 5; Adwaita %s, hicolor)"
          % ("installed" if os.path.isdir("/usr/share/icons/Adwaita") else "MISSING"))
    for name, size in (("dialog-information", 32), ("dialog-information", 48),
                       ("audio-volume-high-symbolic", 32), ("no-such-icon", 32)):
        firsts, agains, found = [], [], "?"
        for _ in range(5):
            r = subprocess.run([os.path.join(bindir, "perch"), "--icon-size", str(size), "--find-icon", name],
                               capture_output=True, text=True, timeout=30)
            m = re.search(r"first lookup: ([0-9.]+) ms; again: ([0-9.]+) ms", r.stdout)
            if m:
                firsts.append(float(m.group(1)))
                agains.append(float(m.group(2)))
            found = "found" if r.returncode == 0 else "not found"
        print("  %-28s %2d px: first %s ms, again %s ms (%s)"
              % (name, size, "%.2f" % med(firsts) if firsts else "—", "%.3f" % med(agains) if agains else "—", found))


if __name__ == "__main__":
    main()
