#!/usr/bin/env python3
"""Perch against mako, in the same run, through the same door (D-Bus Notify).

Starts one headless sway (Tests/e2e/harness.Session) and one private session
bus, then alternates daemon runs: Perch, mako, Perch, mako... (BENCH_ROUNDS
rounds, default 3). Every figure is measured from outside the daemon (/proc,
D-Bus answer times, WAYLAND_DEBUG=client logs), except the animation figures,
which only Perch has (its PERCH_TRACE trace). Prints one table; see
bench/README.md for what each row means. Asserts nothing.
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
LAT_SAMPLES = int(os.environ.get("BENCH_LATENCY_SAMPLES", "20"))
IDLE_S = float(os.environ.get("BENCH_IDLE_SECONDS", "10"))
ABUSE_N = int(os.environ.get("BENCH_ABUSE_N", "10000"))
# A theme icon every desktop has (Debian's adwaita-icon-theme).
THEME_ICON = "dialog-information"
GROWTH_ROUNDS = 4
MAKO = "/usr/bin/mako"
PY = "/usr/bin/python3"


def log(msg):
    sys.stderr.write("[bench %s] %s\n" % (time.strftime("%H:%M:%S"), msg))
    sys.stderr.flush()


def mono_ns():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


def ensure_mako():
    if os.access(MAKO, os.X_OK):
        return
    log("mako not found: installing mako-notifier")
    cmd = ["apt-get", "install", "-y", "--no-install-recommends", "mako-notifier"]
    if os.geteuid() != 0:
        cmd = ["sudo"] + cmd
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


# --------------------------------------------------------------------------
# /proc

def cpu_ns(pid):
    """Time on CPU of every thread, ns (first field of schedstat)."""
    total = 0
    try:
        for tid in os.listdir("/proc/%d/task" % pid):
            try:
                with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as f:
                    total += int(f.read().split()[0])
            except (OSError, ValueError, IndexError):
                pass
    except OSError:
        pass
    return total


def ctx_switches(pid):
    """Voluntary context switches: the times the daemon went to sleep (in
    poll) and was woken. Preemptions (nonvoluntary) are left out: they
    count the other processes on the CPU, not the daemon's wake-ups."""
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("voluntary_ctxt_switches"):
                return int(line.split()[1])
    return 0


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
        now, c = mono_ns(), cpu_ns(pid)
        if c - prev > 50_000:
            last_active = now
        prev = c
        samples.append((now, c))
        old = [s for s in samples if s[0] <= now - quiet * 1e9]
        if old and c - old[-1][1] < threshold_ns:
            return last_active, False
    return last_active, True


# --------------------------------------------------------------------------
# Processes

class Bench:
    def __init__(self):
        src = os.environ.get("PERCH_BIN_DIR", os.path.join(harness.REPO, ".build", "release"))
        self.bindir = harness.prepare_bindir(src)
        self.work = tempfile.mkdtemp(prefix="perch-compare-")
        os.chmod(self.work, 0o755)
        for name in ("dbus_driver.py",):
            shutil.copy(os.path.join(HERE, name), os.path.join(self.work, name))
        self.session = harness.Session(self.work)
        self.uid, self.gid = self.session.pw.pw_uid, self.session.pw.pw_gid
        self.bus_proc = self.session.popen(
            ["dbus-daemon", "--session", "--nofork", "--print-address=1", "--nopidfile"],
            env=self.session.env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.address = self.bus_proc.stdout.readline().decode().strip()
        if not self.address.startswith("unix:"):
            raise SystemExit("dbus-daemon printed no address: %r" % self.address)
        self.env = self.session.env(DBUS_SESSION_BUS_ADDRESS=self.address)
        self.driver = self.spawn([PY, "-u", self.path("dbus_driver.py"), "serve"],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        with open(self.path("perch.conf"), "w") as f:
            f.write("# defaults, made explicit\nmax-visible=5\ndefault-timeout=5000\n")
        with open(self.path("mako.conf"), "w") as f:
            f.write("default-timeout=5000\nmax-visible=5\n")
        self.runs = 0

    def path(self, name):
        return os.path.join(self.work, name)

    def spawn(self, argv, env=None, **kw):
        return subprocess.Popen(argv, env=env or self.env, cwd=self.work,
                                **self.session.user_kwargs(), **kw)

    def user_dir(self, name):
        d = self.path(name)
        os.makedirs(d, exist_ok=True)
        if harness.run_as_root():
            os.chown(d, self.uid, self.gid)
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

    def start(self, kind, extra_env=None, args=()):
        """Start a daemon; returns (proc, log path, seconds to own the name)."""
        self.runs += 1
        logp = self.path("%s-%d.log" % (kind, self.runs))
        logf = open(logp, "wb")
        env = dict(self.env)
        env.update(extra_env or {})
        if kind == "perch":
            env["XDG_STATE_HOME"] = self.user_dir("state-%d" % self.runs)
            argv = [os.path.join(self.bindir, "perch"), "-c", self.path("perch.conf")] + list(args)
        else:
            argv = [MAKO, "-c", self.path("mako.conf")]
        t0 = mono_ns()
        proc = self.spawn(argv, env=env, stdin=subprocess.DEVNULL, stdout=logf, stderr=subprocess.STDOUT)
        logf.close()
        r = self.call("wait_owned", timeout=15)
        if not r["owned"]:
            proc.kill()
            raise RuntimeError("%s did not own %s within 15 s; log %s" % (kind, "the name", logp))
        return proc, logp, (r["t"] - t0) / 1e9, t0

    def stop(self, proc):
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.call("wait_released", timeout=5)

    def close(self):
        try:
            self.driver.stdin.close()
            self.driver.wait(3)
        except Exception:
            self.driver.kill()
        self.bus_proc.terminate()
        self.session.stop()
        shutil.rmtree(self.work, ignore_errors=True)
        shutil.rmtree(self.bindir, ignore_errors=True)


# --------------------------------------------------------------------------
# Runs

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


def run_main(b, kind, res, with_idle):
    """Start-up, memory, CPU, idle and the abuse burst (no debug output)."""
    proc, _, startup, _ = b.start(kind)
    pid = proc.pid
    res["startup_ms"].append(startup * 1000)

    def post(n, timeout):
        """n posted in one burst, then the daemon left to go idle."""
        r = b.call("notify", n=n, expire=0, timeout=timeout)
        wait_idle(pid, timeout=timeout)
        return r

    def close(ids, timeout):
        b.call("close", ids=ids, timeout=timeout)
        wait_idle(pid, timeout=timeout)

    try:
        wait_idle(pid, timeout=10)
        record_memory(pid, res, "idle")
        if with_idle:
            spent(pid, res, "idle0_cpu", lambda: time.sleep(IDLE_S), "idle0_cs")

        one = spent(pid, res, "cpu_1", lambda: post(1, 10), "cs_1")
        record_memory(pid, res, "1")
        if with_idle:
            spent(pid, res, "idle1_cpu", lambda: time.sleep(IDLE_S), "idle1_cs")
        close(one["ids"], 10)

        spent(pid, res, "cpu_100", lambda: post(100, 30), "cs_100")
        pss_100 = record_memory(pid, res, "100")

        r = spent(pid, res, "cpu_1000", lambda: post(1000, 60))
        spent(pid, res, "cpu_close1000", lambda: close(r["ids"], 60))
        pss = record_memory(pid, res, "1100")
        res["pss_growth"].append(pss - pss_100)
        # Further rounds tell a leak (grows every time) from a high-water
        # mark (heap and caches sized by the first 1000, code first run by
        # a later one): the mean growth over GROWTH_ROUNDS more.
        for _ in range(GROWTH_ROUNDS):
            before_last = memory_kb(pid)[1]
            close(post(1000, 60)["ids"], 60)
        after = memory_kb(pid)[1]
        res["pss_growth2"].append((after - pss) / GROWTH_ROUNDS)
        res["pss_growth_last"].append(after - before_last)

        abuse(b, pid, res)
    finally:
        b.stop(proc)


def abuse(b, pid, res):
    """ABUSE_N Notify calls in one burst while a second client probes."""
    probe = b.spawn([PY, "-u", b.path("dbus_driver.py"), "probe", "0.05"],
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE)
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
    last, timed_out = wait_idle(pid, timeout=60)
    alive = True
    try:
        os.kill(pid, 0)
    except OSError:
        alive = False
    res["abuse_ok"].append(r["ok"])
    res["abuse_cpu"].append((cpu_ns(pid) - c0) / 1e6)
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
    if not alive:
        note += ", daemon died"
    res["abuse_notes"].append(note)


LINE = re.compile(r"^\[\s*([0-9.]+)\]\s+->\s+wl_surface@(\d+)\.(attach|commit)\(")
SUBSURFACE = re.compile(r"get_subsurface\(new id wl_subsurface@\d+, wl_surface@(\d+),")
SUBSURFACES = set()
DESTROY = re.compile(r"->\s+wl_surface@(\d+)\.destroy\(")


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


def run_latency(b, kind, res):
    """Notify sent -> first wl_surface.attach + commit, from WAYLAND_DEBUG."""
    proc, logp, _, t_launch = b.start(kind, extra_env={"WAYLAND_DEBUG": "client"})
    pid = proc.pid
    try:
        wait_idle(pid, timeout=10)
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
                    d = (ms - t_sent) % wrap if wrap != float("inf") else ms - t_sent
                    if d < 0 or d > 10000:
                        continue
                    # A subsurface's buffer shows with its parent's commit:
                    # the first commit of a top-level surface after an attach.
                    if what == "attach":
                        attached["any"] = True
                    elif attached and (logp, surf) not in SUBSURFACES:
                        found = d
                        break
            if found is not None:
                res["latency_ms"].append(found)
            b.call("close", ids=[s["id"]], timeout=10)
            wait_idle(pid, timeout=10)
            offset, _ = wl_events(logp, offset)
    finally:
        b.stop(proc)


def frames(trace, since_ns):
    out = []
    try:
        with open(trace) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 3 and parts[0] == "frame" and int(parts[1]) >= since_ns:
                    out.append(int(parts[2]) / 1000.0)
    except OSError:
        pass
    return out


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


def run_perch_extra(b, res):
    """Perch only: frame times from PERCH_TRACE, and the burst over its socket."""
    trace = os.path.join(b.user_dir("trace-%d" % (b.runs + 1)), "trace")
    proc, _, _, _ = b.start("perch", extra_env={"PERCH_TRACE": trace}, args=["--max-visible", "6"])
    pid = proc.pid
    try:
        wait_idle(pid, timeout=10)
        t = mono_ns()
        b.call("notify", n=1, expire=0, timeout=10)
        wait_idle(pid, timeout=10)
        res["slide_frames"].extend(frames(trace, t))
        for _ in range(4):
            b.call("notify", n=1, expire=0, timeout=10)
            time.sleep(0.15)
        wait_idle(pid, timeout=10)
        t = mono_ns()
        b.call("notify", n=1, expire=0, timeout=10)
        wait_idle(pid, timeout=10)
        res["reflow_frames"].extend(frames(trace, t))

        # The same burst of 100 without an icon and with one theme icon
        # (Adwaita's): the icon is looked up and decoded once, then cached.
        for key, icon in (("cpu_100_plain", ""), ("cpu_100_icon", THEME_ICON)):
            def burst():
                posted = b.call("notify", n=100, expire=0, timeout=30, icon=icon)
                wait_idle(pid, timeout=30)
                return posted
            r = spent(pid, res, key, burst)
            b.call("close", ids=r["ids"], timeout=30)
            wait_idle(pid, timeout=30)

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
            res["abuse_notes_sock"] = "socket burst failed: %s" % e
    finally:
        b.stop(proc)


# --------------------------------------------------------------------------
# Table

def med(v):
    v = sorted(x for x in v if x == x)
    if not v:
        return None
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(p * (len(v) - 1))))] if v else None


def cell(v, fmt):
    v = [x for x in v if x == x]
    if not v:
        return "—"
    if len(v) == 1:
        return fmt % v[0]
    return "%s (%s–%s)" % (fmt % med(v), fmt % min(v), fmt % max(v))


def ratio(a, b):
    ma, mb = med(a), med(b)
    if ma is None or mb is None or mb == 0:
        return "—"
    return "%.2f" % (ma / mb)


def table(P, M):
    rows = []

    def row(name, key, fmt, pkey=None):
        p = P.get(pkey or key, [])
        m = M.get(key, []) if key else []
        rows.append((name, cell(p, fmt), cell(m, fmt) if key else "n/a", ratio(p, m) if key else "—"))

    row("start-up: launch → bus name owned (ms)", "startup_ms", "%.1f")
    row("VmRSS idle (kB)", "rss_idle", "%d")
    row("Pss idle (kB)", "pss_idle", "%d")
    row("VmRSS, 1 toast (kB)", "rss_1", "%d")
    row("Pss, 1 toast (kB)", "pss_1", "%d")
    row("VmRSS, 100 posted (kB)", "rss_100", "%d")
    row("Pss, 100 posted (kB)", "pss_100", "%d")
    row("VmRSS, +1000 posted & closed (kB)", "rss_1100", "%d")
    row("Pss, +1000 posted & closed (kB)", "pss_1100", "%d")
    row("Pss growth 100 → +1000 (kB, leak?)", "pss_growth", "%d")
    row("Pss growth per further +1000, mean of %d (kB)" % GROWTH_ROUNDS, "pss_growth2", "%d")
    row("Pss growth in the last of those %d (kB)" % GROWTH_ROUNDS, "pss_growth_last", "%d")
    row("CPU: 1 toast shown, to rest (ms)", "cpu_1", "%.1f")
    row("wake-ups (ctx switches) to show 1", "cs_1", "%d")
    row("CPU: burst of 100 shown, to rest (ms)", "cpu_100", "%.1f")
    row("wake-ups (ctx switches) to show 100", "cs_100", "%d")
    row("CPU: burst of 1000 more (ms)", "cpu_1000", "%.1f")
    row("CPU: CloseNotification × 1000 (ms)", "cpu_close1000", "%.1f")
    row("idle %gs, 0 toasts: CPU (ms)" % IDLE_S, "idle0_cpu", "%.2f")
    row("idle %gs, 0 toasts: ctx switches" % IDLE_S, "idle0_cs", "%d")
    row("idle %gs, 1 toast: CPU (ms)" % IDLE_S, "idle1_cpu", "%.2f")
    row("idle %gs, 1 toast: ctx switches" % IDLE_S, "idle1_cs", "%d")
    row("latency Notify → 1st attach+commit, median of %d/round (ms)" % LAT_SAMPLES,
        "latency_med", "%.2f")
    row("latency Notify → 1st attach+commit, p90 (ms)", "latency_p90", "%.2f")
    row("frame: slide, median (µs)", None, "%.0f", "slide_med")
    row("frame: slide, p99 (µs)", None, "%.0f", "slide_p99")
    row("frame: 5-toast reflow, median (µs)", None, "%.0f", "reflow_med")
    row("frame: 5-toast reflow, p99 (µs)", None, "%.0f", "reflow_p99")
    row("frames answered < 16.7 ms (%)", None, "%.1f", "frames_ok")
    row("CPU: burst of 100, no icon, to rest (ms)", None, "%.1f", "cpu_100_plain")
    row("CPU: burst of 100, one theme icon, to rest (ms)", None, "%.1f", "cpu_100_icon")
    row("abuse %d Notify: ids back" % ABUSE_N, "abuse_ok", "%d")
    row("abuse: all replies back (s)", "abuse_replies_s", "%.2f")
    row("abuse: drained, daemon idle again (s)", "abuse_drain_s", "%.2f")
    row("abuse: daemon CPU (ms)", "abuse_cpu", "%.0f")
    row("abuse: GetServerInformation max (ms)", "probe_max", "%.1f")
    row("abuse: GetServerInformation median (ms)", "probe_med", "%.2f")
    row("abuse via control socket: ids back", None, "%d", "sock_ok")
    row("abuse via control socket: all replies (s)", None, "%.2f", "sock_replies_s")
    row("abuse via control socket: drained (s)", None, "%.2f", "sock_drain_s")
    row("abuse via control socket: daemon CPU (ms)", None, "%.0f", "sock_cpu")

    head = ("figure", "Perch median (min–max)", "mako median (min–max)", "ratio Perch/mako")
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(4)]
    out = ["| " + " | ".join(h.ljust(w) for h, w in zip(head, widths)) + " |",
           "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    for r in rows:
        out.append("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |")
    return "\n".join(out)


def main():
    ensure_mako()
    keys = ["startup_ms", "rss_idle", "pss_idle", "rss_1", "pss_1", "rss_100", "pss_100", "rss_1100",
            "pss_1100", "pss_growth", "pss_growth2", "pss_growth_last", "cpu_1", "cs_1", "cs_100", "cpu_100", "cpu_1000", "cpu_close1000", "idle0_cpu", "idle0_cs",
            "idle1_cpu", "idle1_cs", "latency_ms", "latency_med", "latency_p90", "abuse_ok",
            "abuse_replies_s", "abuse_drain_s", "abuse_cpu", "probe_max", "probe_med", "abuse_notes",
            "slide_frames", "reflow_frames", "sock_ok", "sock_replies_s", "sock_drain_s", "sock_cpu",
            "cpu_100_plain", "cpu_100_icon"]
    P = {k: [] for k in keys}
    M = {k: [] for k in keys}
    t_start = time.monotonic()
    b = Bench()
    try:
        for rnd in range(ROUNDS):
            for kind, res in (("perch", P), ("mako", M)):
                log("round %d/%d: %s (start-up, memory, CPU%s, abuse)"
                    % (rnd + 1, ROUNDS, kind, ", idle" if rnd == 0 else ""))
                run_main(b, kind, res, with_idle=(rnd == 0))
                log("  %s abuse: %s" % (kind, res["abuse_notes"][-1]))
            for kind, res in (("perch", P), ("mako", M)):
                log("round %d/%d: %s latency (WAYLAND_DEBUG=client)" % (rnd + 1, ROUNDS, kind))
                res["latency_ms"] = []
                run_latency(b, kind, res)
                lat = res["latency_ms"]
                if lat:
                    res["latency_med"].append(med(lat))
                    res["latency_p90"].append(pct(lat, 0.9))
                log("  %s: %d samples, median %.2f ms (clock %s)"
                    % (kind, len(lat), med(lat) or -1, res.get("lat_clock")))
            log("round %d/%d: perch animation (PERCH_TRACE) and control-socket burst" % (rnd + 1, ROUNDS))
            run_perch_extra(b, P)
    finally:
        b.close()

    for name in ("slide", "reflow"):
        fr = P[name + "_frames"]
        P[name + "_med"] = [med(fr)] if fr else []
        P[name + "_p99"] = [pct(fr, 0.99)] if fr else []
    allf = P["slide_frames"] + P["reflow_frames"]
    P["frames_ok"] = [100.0 * sum(1 for f in allf if f < 16667) / len(allf)] if allf else []

    print()
    print("Perch vs mako — %d rounds, alternating; %s; %d cores; %.0f s"
          % (ROUNDS, time.strftime("%Y-%m-%d %H:%M"), os.cpu_count(), time.monotonic() - t_start))
    print(table(P, M))
    print()
    print("frames: slide %d, reflow %d (all rounds pooled); latency clock: %s"
          % (len(P["slide_frames"]), len(P["reflow_frames"]), P.get("lat_clock")))
    print("abuse, perch: %s" % "; ".join(P["abuse_notes"]))
    print("abuse, mako:  %s" % "; ".join(M["abuse_notes"]))
    if P.get("abuse_notes_sock"):
        print(P["abuse_notes_sock"])
    print_icon_lookups(os.environ.get("PERCH_BIN_DIR", os.path.join(harness.REPO, ".build", "release")))


def print_icon_lookups(bindir):
    """The first lookup of a theme name in a new process (directories listed
    and index.theme read, the page cache warm) and a repeated one, from
    `perch --find-icon`, median of 5: what the first notification naming a
    new icon pays, and what every later one does."""
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
