#!/usr/bin/env python3
"""day.py — a day in the life: BENCH_DAY_N (5 000) notifications over nine
simulated hours, Pss and RSS at its start and end, and its CPU.

Each daemon (Perch, mako 1.7.1, and mako 1.10 from the Debian 13 root when
run as root) is started the way compare.py starts it (the same headless
sway, session bus, user and configs) and lives through the same day, sent
by dbus_driver.py's `day` command from one fixed seed: 08:00 to 17:00
compressed into BENCH_DAY_SECONDS (45) of sending. The morning's chat in
bursts (avatars as a PNG file, an SVG file, the `image-path` hint, a theme
name; a conversation's newest notification often replaced in place), a
build whose progress notification is updated many times through
`replaces_id` and the `value` hint, among compiler warnings, then a
finished build with actions and a failed test at critical urgency; mail in
batches (theme icons and icon files, actions), some expiring after 3 s and
the others closed by CloseNotification minutes later, as a mail client does
when one is read; lunch with calendar reminders at critical urgency, one of
them answered through the daemon's control tool (`invoke`); an afternoon of
downloads and a volume popup, each one notification replaced in place, a
battery warning; and a quieter end. Between the hours the control tool
does what a user does: Perch's center opened and closed three times
(`perchctl center open` / `close`; mako has no center: n/a) and a reload
(`perchctl reload`, `makoctl reload`, the root's makoctl for mako 1.10).
At 17:00 whatever is still open is closed by CloseNotification.

Per daemon: Pss and VmRSS at rest after start-up and again at rest after
the day, the peak VmRSS (VmHWM), the CPU of the whole day (every thread
plus the children it reaped, as compare.py counts it), the ids answered
and what the NotificationClosed and ActionInvoked signals said.

Usage: python3 bench/day.py                   one round, Perch and both makos
       BENCH_DAY_ROUNDS=3 BENCH_DAY_N=2000 python3 bench/day.py
       BENCH_PEERS=mako-1.7 python3 bench/day.py
Needs what compare.py needs. Prints one table (median and range over the
rounds) to stdout, progress to stderr.
"""

import os
import random
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import compare  # noqa: E402  (Bench, the daemons, wait_idle, cpu_ns, table)

ROUNDS = int(os.environ.get("BENCH_DAY_ROUNDS", "1"))
N = int(os.environ.get("BENCH_DAY_N", "5000"))
SECONDS = float(os.environ.get("BENCH_DAY_SECONDS", "45"))
SEED = int(os.environ.get("BENCH_DAY_SEED", "26"))
CALL_TIMEOUT = 30
LOG_TROUBLE = re.compile(r"error|warn|fail|critical|fatal|assert", re.I)


# --------------------------------------------------------------------------
# The day: simulated minutes from 08:00, each segment sent by one `day`
# command, the user's actions between two segments.

START, END = 0, 540  # 08:00, 17:00
# (minute, action) in order; `invoke cal-invoke` answers that reminder.
ACTIONS = [(180, "center open"), (200, "center close"), (240, "center open"), (250, "center close"),
           (270, "reload"), (270, "invoke cal-invoke"), (530, "center open"), (535, "center close")]
CENTER_VISITS = sum(1 for _, a in ACTIONS if a == "center open")
PEOPLE = ["Ana", "Bruno", "Chen", "Dara", "#infra", "family"]
WORDS = ("the build is green again can you look at this before lunch I pushed the fix to the branch "
         "meeting moved to three see the attached notes <b>urgent</b> thanks").split()


class Day:
    """The steps of dbus_driver.py's `day`, at simulated minutes."""

    def __init__(self, rng, share):
        self.rng, self.steps, self.notify = rng, [], 0
        self.svg, self.png = share("icon.svg"), share("icon.png")

    def add(self, minute, **step):
        step["minute"] = min(max(minute, START), END - 0.5)
        if "close" not in step:
            self.notify += 1
        self.steps.append(step)

    def text(self, lo, hi):
        return " ".join(self.rng.choice(WORDS) for _ in range(self.rng.randint(lo, hi)))

    def chat(self, start, end, n):
        """Bursts from one person at a time; the newest notification of a
        conversation is often replaced by the next message."""
        while n > 0:
            who, t = self.rng.choice(PEOPLE), self.rng.uniform(start, end)
            for _ in range(min(n, self.rng.randint(2, 12))):
                t += self.rng.uniform(0.02, 0.3)
                icon, hints = {"Ana": ("", {"image-path": self.png}), "Bruno": ("user-available", {}),
                               "Chen": (self.svg, {}), "family": (self.png, {})}.get(who, ("mail-message-new", {}))
                name = "chat-" + who
                self.add(t, app="chat", summary=who, body=self.text(3, 40), icon=icon, hints=hints,
                         expire=-1 if self.rng.random() < 0.1 else 1500, name=name,
                         replaces=name if self.rng.random() < 0.35 else None,
                         actions=["default", "Open", "reply", "Reply"] if self.rng.random() < 0.3 else [])
                n -= 1

    def mail(self, start, end, n):
        """Batches; 40 % stay until the mail client closes them."""
        icons = [("mail-unread", {}), (self.svg, {}), (self.png, {}), ("", {"image-path": self.svg})]
        while n > 0:
            t = self.rng.uniform(start, end)
            for _ in range(min(n, self.rng.randint(1, 25))):
                t += self.rng.uniform(0.01, 0.1)
                icon, hints = icons[self.notify % len(icons)]
                name = "mail-%d" % self.notify
                keep = self.rng.random() < 0.4
                self.add(t, app="mail", summary="Mail from %s" % self.rng.choice(PEOPLE), body=self.text(5, 25),
                         icon=icon, hints=hints, actions=["default", "Open", "archive", "Archive"],
                         expire=0 if keep else 3000, name=name)
                if keep:
                    self.add(t + self.rng.uniform(2, 25), close=name)
                n -= 1

    def progress(self, name, start, end, n, summary, icon, done_expire):
        """One notification replaced n times, its value going to 100 %."""
        for i in range(n - 1):
            self.add(start + (end - start) * i / n, app="progress", summary=summary, icon=icon,
                     body="%d %%" % (100 * i // n), hints={"value": 100 * i // n}, expire=0,
                     name=name, replaces=name)
        self.add(end, app="progress", summary=summary + ": done", icon=icon, expire=done_expire,
                 name=name, replaces=name, actions=["default", "Open"])

    def critical(self, minute, name, summary, icon, close_at):
        self.add(minute, app="system", summary=summary, body=self.text(4, 12), icon=icon,
                 hints={"urgency": 2}, expire=0, name=name, actions=["default", "Open", "snooze", "Snooze"])
        if close_at:
            self.add(close_at, close=name)


def build_day(n, rng, share):
    d = Day(rng, share)
    q = lambda frac: int(n * frac)
    d.chat(0, 90, q(0.28))                                    # 08:00 the morning's chat
    warnings = q(0.16) // 8
    d.progress("build", 90, 130, max(1, q(0.16) - warnings - 1), "Building perch",
               "software-update-available", 0)                # 09:30 a build
    for _ in range(warnings):
        d.add(rng.uniform(90, 130), app="swift-build", summary="warning", body=d.text(6, 20),
              icon="dialog-warning", expire=1000)
    d.add(135, close="build")
    d.critical(131, "test-failed", "2 tests failed", "dialog-error", 185)
    d.mail(135, 240, q(0.24))                                 # 10:15 mail
    cal = max(1, q(0.02) // 5)
    for i in range(cal - 1):                                  # 12:00 lunch
        t = rng.uniform(240, 300)
        d.critical(t, "cal-%d" % i, "In 5 minutes: a meeting", "x-office-calendar", t + 5)
    d.critical(262, "cal-invoke", "In 5 minutes: lunch", "x-office-calendar", None)
    d.chat(240, 300, q(0.02) - cal)
    downloads, volume = q(0.22) // 4, q(0.22) // 7           # 13:00 the afternoon
    for k in range(3):
        d.progress("dl-%d" % k, 300 + 15 * k, 360 + 20 * k, max(1, downloads // 3),
                   "Downloading file %d" % k, "folder-download", 2000)
    for i in range(volume):
        t = 330 + 10 * (i // 20) + 0.1 * (i % 20)
        d.add(t, app="volume", summary="Volume", icon="audio-volume-high",
              hints={"value": (i * 7) % 101}, expire=1000, name="volume", replaces="volume")
    d.critical(390, "battery", "Battery low", "battery-low", 405)
    d.chat(300, 420, (q(0.22) - 3 * max(1, downloads // 3) - volume - 1) // 2)
    d.mail(300, 420, n - d.notify - (n - d.notify) // 2 - 1)
    d.add(480, app="updates", summary="Updates available", icon="software-update-available",
          expire=0, actions=["default", "Install", "later", "Later"])  # 15:00 a quieter end
    d.chat(420, 538, n - d.notify)
    return d


def plan(n, seconds, seed, share):
    """[{"name", "before": [actions], "steps": [...]}]: the day cut at the
    actions, each step's time in seconds from its segment's start."""
    d = build_day(n, random.Random(seed), share)
    assert d.notify == n, (d.notify, n)
    scale = seconds / (END - START)
    cuts = sorted({m for m, _ in ACTIONS}) + [END]
    steps = sorted(d.steps, key=lambda s: s["minute"])
    out, i, prev = [], 0, START
    for cut in cuts:
        seg = []
        while i < len(steps) and steps[i]["minute"] < cut:
            s = {k: v for k, v in steps[i].items() if v is not None and k != "minute"}
            s["t"] = (steps[i]["minute"] - prev) * scale
            seg.append(s)
            i += 1
        out.append({"name": "%02d:%02d-%02d:%02d" % (8 + prev // 60, prev % 60, 8 + cut // 60, cut % 60),
                    "before": [a for m, a in ACTIONS if m == prev], "steps": seg,
                    "seconds": (cut - prev) * scale})
        prev = cut
    return out


def summary(plan):
    steps = [s for seg in plan for s in seg["steps"]]
    notify = [s for s in steps if "close" not in s]
    return ("The day: %d Notify (%d replacing, %d with the value hint, %d critical, %d with actions, "
            "%d with an icon file, %d a theme icon, %d the image-path hint; %d expiring in 1-3 s), "
            "%d CloseNotification, then every id still open closed at 17:00."
            % (len(notify), sum(1 for s in notify if s.get("replaces")),
               sum(1 for s in notify if "value" in s.get("hints", {})),
               sum(1 for s in notify if s.get("hints", {}).get("urgency") == 2),
               sum(1 for s in notify if s.get("actions")),
               sum(1 for s in notify if s.get("icon", "").startswith("/")),
               sum(1 for s in notify if s.get("icon") and not s["icon"].startswith("/")),
               sum(1 for s in notify if "image-path" in s.get("hints", {})),
               sum(1 for s in notify if 0 < s.get("expire", -1) <= 3000),
               len(steps) - len(notify)))


def write_png(path, size=48):
    """A 48×48 RGBA icon (a disc on a transparent ground) for the icon files."""
    import struct
    import zlib
    rows = b""
    for y in range(size):
        rows += b"\0" + b"".join(b"\xe0\x1b\x24\xff" if (x - 23.5) ** 2 + (y - 23.5) ** 2 < 400 else b"\0\0\0\0"
                                 for x in range(size))
    chunk = lambda kind, body: struct.pack(">I", len(body)) + kind + body + \
        struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
    os.chmod(path, 0o644)


def rows():
    """compare.table's rows: scope "count" shows every daemon's figure
    without a ratio (a count of signals is not better when smaller)."""
    return [
        ("Pss at start, idle (kB)", "pss_start", "%d", "all", "low"),
        ("VmRSS at start, idle (kB)", "rss_start", "%d", "all", "low"),
        ("Pss at end, idle (kB)", "pss_end", "%d", "all", "low"),
        ("VmRSS at end, idle (kB)", "rss_end", "%d", "all", "low"),
        ("Pss growth over the day (kB)", "pss_growth", "%d", "all", "low"),
        ("VmRSS growth over the day (kB)", "rss_growth", "%d", "all", "low"),
        ("peak VmRSS, VmHWM (kB)", "hwm", "%d", "all", "low"),
        ("CPU over the day, threads + children (ms)", "cpu", "%.0f", "all", "low"),
        ("  of which child processes (ms)", "cpu_children", "%.1f", "count", "low"),
        ("Notify calls answered with an id (of %d)" % N, "acked_calls", "%d", "all", "high"),
        ("Notify calls answered with an error", "notify_errors", "%d", "count", "low"),
        ("replacements answered with the replaced id", "replaced_same", "%d", "count", "high"),
        ("distinct ids", "ids", "%d", "count", "low"),
        ("NotificationClosed: expired", "closed_1", "%d", "count", "low"),
        ("NotificationClosed: dismissed (an action invoked)", "closed_2", "%d", "count", "low"),
        ("NotificationClosed: closed by CloseNotification", "closed_3", "%d", "count", "low"),
        ("ids with no NotificationClosed after 17:00's close", "never_closed", "%d", "all", "low"),
        ("ActionInvoked signals (1 invoke sent)", "actions", "%d", "count", "high"),
        ("the day's wall time, sending (s)", "wall_s", "%.1f", "all", "low"),
        ("latest send behind its time (s)", "lag_s", "%.2f", "all", "low"),
        ("center opened and closed (of %d)" % CENTER_VISITS, "center", "%d", "perch", "high"),
        ("reload answered", "reload", "%d", "count", "high"),
    ]


def keys():
    return [k for _, k, _, _, _ in rows()] + ["crashes", "notes"]


# --------------------------------------------------------------------------
# The control tools

def ctl_argv(b, d, *words):
    """The daemon's control tool and a verb, or None (n/a)."""
    if d.is_perch:
        return [os.path.join(b.before_bindir if d.name == "perch-before" else b.bindir, "perchctl")] + list(words)
    if d.name.startswith("mako"):
        return ["makoctl"] + list(words)
    return None


def ctl(b, d, *words):
    """Runs the control tool as the session user (mako 1.10's inside the
    root, through bench-root, as compare.py starts the daemon there).
    Returns (ok, what it printed), or None when the daemon has no tool."""
    argv = ctl_argv(b, d, *words)
    if argv is None:
        return None
    if d.in_root:
        env = b.session.env(DBUS_SESSION_BUS_ADDRESS=b.address, BENCH_ROOT_SHARE=b.share,
                            PERCH_TRIXIE_ROOT=compare.ROOT_DIR, PERCH_TEST_USER=b.session.user)
        argv = [compare.BENCH_ROOT, "exec", env["XDG_RUNTIME_DIR"]] + argv
        r = b.session.run(argv, env=env, timeout=15, as_user=False)
    else:
        r = b.session.run(argv, env=b.env, timeout=15)
    return r.returncode == 0, (r.stdout + r.stderr).strip()[-200:]


def act(b, d, action, res, tally):
    """One of the day's user actions (ACTIONS)."""
    if action in ("center open", "center close"):
        if not d.is_perch:
            return
        r = ctl(b, d, "center", action.split()[1])
        want = "open" if action == "center open" else "closed"
        if r[0] and r[1].endswith(want):
            tally["center"] += 0.5
        else:
            res["notes"].append("%s: %s" % (action, r[1] or "failed"))
    elif action == "reload":
        r = ctl(b, d, "reload")
        if r is None:
            res["notes"].append("reload: n/a (no control tool)")
        elif r[0]:
            tally["reload"] += 1
        else:
            res["notes"].append("reload failed: %s" % r[1])
    elif action.startswith("invoke "):
        name = action.split()[1]
        nid = b.call("ids_of", names=[name])[name]
        r = ctl(b, d, "invoke", "-n", str(nid), "default") if nid else None
        if r is not None and not r[0]:
            res["notes"].append("invoke failed: %s" % r[1])


# --------------------------------------------------------------------------
# One daemon's day

def settle(pid):
    """At rest: idle for 0.4 s, past the animations (a slide is 0.7 s)."""
    compare.wait_idle(pid, timeout=30)
    time.sleep(1.0)
    compare.wait_idle(pid, timeout=30)


def log_trouble(path):
    """(lines, the lines that speak of trouble) of a daemon's log."""
    try:
        with open(path, errors="replace") as f:
            lines = [l.rstrip() for l in f if l.strip()]
    except OSError:
        return 0, []
    return len(lines), [l for l in lines if LOG_TROUBLE.search(l)]


def run_day(b, d, plan, res):
    proc, logp, _, _ = b.start(d)
    pid = proc.pid
    try:
        compare.wait_idle(pid, timeout=10)
        time.sleep(0.5)  # past Perch's font warm-up, as memory.py waits
        compare.wait_idle(pid, timeout=10)
        compare.alive(proc, "start-up")
        rss0, pss0 = compare.memory_kb(pid)
        res["rss_start"].append(rss0)
        res["pss_start"].append(pss0)
        b.call("day_signals")  # what an earlier daemon's signals left
        c0, h0, t0 = compare.cpu_ns(pid), compare.children_ns(pid), time.monotonic()
        tally = {"center": 0.0, "reload": 0, "ok": 0, "errors": 0, "same": 0, "lag": 0.0}
        # VmHWM, and the hours in which it rose most, by how much.
        peak, center_open = [vm_hwm(pid), "start-up", 0], False
        for segment in plan:
            for action in segment["before"]:
                act(b, d, action, res, tally)
            compare.alive(proc, "%s (%s)" % (segment["name"], ", ".join(segment["before"]) or "no action"))
            t_seg = time.monotonic()
            r = b.call("day", steps=segment["steps"], timeout=CALL_TIMEOUT, wait=segment["seconds"] + CALL_TIMEOUT + 60)
            tally["ok"] += r["ok"]
            tally["errors"] += r["errors"]
            tally["same"] += r["replaced_same"]
            tally["lag"] = max(tally["lag"], r["lag_max"])
            if r["missing"] or r["error_kinds"] or r["close_errors"]:
                res["notes"].append("%s: %d unanswered, errors %s, %d CloseNotification errors"
                                    % (segment["name"], r["missing"], r["error_kinds"] or "none", r["close_errors"]))
            compare.alive(proc, segment["name"])
            time.sleep(max(0.0, segment["seconds"] - (time.monotonic() - t_seg)))  # the rest of its hours
            hwm = vm_hwm(pid)
            center = {"center open": True, "center close": False}
            shown = [center[a] for a in segment["before"] if a in center]
            center_open = shown[-1] if shown else center_open
            if hwm - peak[0] > peak[2]:
                peak[1:] = [segment["name"] + (", the center open" if center_open and d.is_perch else ""), hwm - peak[0]]
            peak[0] = hwm
            compare.log("    %s: %d sent, VmRSS %d kB, VmHWM %d kB" % (segment["name"], r["notify"], compare.memory_kb(pid)[0], hwm))
        wall = time.monotonic() - t0
        end = b.call("close_open", settle=2.0, timeout=CALL_TIMEOUT)
        if end["errors"]:
            res["notes"].append("17:00: %d of %d CloseNotification errors %s"
                                % (end["errors"], end["closed_at_end"], end["error_kinds"]))
        settle(pid)
        compare.alive(proc, "the end of the day")
        sig = b.call("day_signals", settle=0.5)
        res["cpu"].append((compare.cpu_ns(pid) - c0) / 1e6)
        res["cpu_children"].append((compare.children_ns(pid) - h0) / 1e6)
        rss1, pss1 = compare.memory_kb(pid)
        res["rss_end"].append(rss1)
        res["pss_end"].append(pss1)
        res["rss_growth"].append(rss1 - rss0)
        res["pss_growth"].append(pss1 - pss0)
        res["hwm"].append(vm_hwm(pid))
        if res["hwm"][-1] - peak[0] > peak[2]:
            peak[1:] = ["17:00's close", res["hwm"][-1] - peak[0]]
        res["notes"].append("VmHWM rose most in %s: +%d kB" % (peak[1], peak[2]))
        res["acked_calls"].append(tally["ok"])
        res["notify_errors"].append(tally["errors"])
        res["replaced_same"].append(tally["same"])
        res["ids"].append(sig["acked"])
        for reason in ("1", "2", "3"):
            res["closed_" + reason].append(sig["reasons"].get(reason, 0))
        if sig["reasons"].get("4"):
            res["notes"].append("NotificationClosed with reason 4 (undefined): %d" % sig["reasons"]["4"])
        res["never_closed"].append(sig["never_closed"])
        res["actions"].append(sig["actions"])
        res["wall_s"].append(wall)
        res["lag_s"].append(tally["lag"])
        if d.is_perch:
            res["center"].append(int(tally["center"]))
        if ctl_argv(b, d, "reload"):
            res["reload"].append(tally["reload"])
        compare.log("  %s: Pss %d → %d kB, VmRSS %d → %d kB, CPU %.0f ms, %d/%d answered, %.1f s"
                    % (d.name, pss0, pss1, rss0, rss1, res["cpu"][-1], tally["ok"], N, wall))
    finally:
        b.stop(proc)
        lines, trouble = log_trouble(logp)
        compare.log("  %s's log: %d lines" % (d.name, lines))
        if trouble:
            compare.log("  %s's log: %d lines, %d speak of trouble; the first: %s"
                        % (d.name, lines, len(trouble), " | ".join(trouble[:3])[:400]))
            res["notes"].append("its log: %d lines, %d with error/warning/failed, e.g. %s"
                                % (lines, len(trouble), trouble[0][:200]))


def vm_hwm(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return None


# --------------------------------------------------------------------------

def chosen():
    """Perch, mako 1.7.1 and mako 1.10 (BENCH_PEERS chooses others); a
    peer that is missing and cannot be installed ends the run, said once;
    the root's, without root, are left out and said."""
    os.environ.setdefault("BENCH_PEERS", "mako-1.7,mako-1.10")
    daemons = compare.chosen_daemons()
    try:
        compare.ensure_host_packages(daemons)
    except (subprocess.CalledProcessError, OSError) as e:
        raise SystemExit("day.py: a peer is missing and could not be installed (%s)" % e)
    gone = [d.label for d in daemons if d.where == "host" and d.binary and not os.access(d.binary, os.X_OK)]
    if gone:
        raise SystemExit("day.py: %s not found" % ", ".join(gone))
    notes = []
    if any(d.in_root for d in daemons):
        why = compare.ensure_root_packages()
        if why:
            notes.append("left out %s: %s" % (", ".join(d.label for d in daemons if d.in_root), why))
            daemons = [d for d in daemons if not d.in_root]
    return daemons, notes


def main():
    os.environ.setdefault("PERCH_TEST_USER", "perch-bench")
    daemons, notes = chosen()
    daemons = compare.with_perch_defaults(daemons)
    t_start = time.monotonic()
    b = compare.b_of_run = compare.Bench()
    write_png(b.share_path("icon.png"))
    day = plan(N, SECONDS, SEED, b.share_path)
    R = {d.name: {k: [] for k in keys()} for d in daemons}
    try:
        for rnd in range(ROUNDS):
            order = daemons if rnd % 2 == 0 else [daemons[0]] + daemons[:0:-1]
            for d in order:
                compare.log("day %d/%d: %s (%d notifications, %.0f s of sending)" % (rnd + 1, ROUNDS, d.name, N, SECONDS))
                res = R[d.name]
                compare.guarded(res, [k for _, k, _, _, _ in rows()], "day %d" % (rnd + 1),
                                lambda: run_day(b, d, day, res))
    finally:
        b.close()
    print()
    print("A day in the life: %d notifications, 08:00-17:00 in %.0f s of sending, seed %d — Perch vs %s; "
          "%d round%s, alternating; %s; %d cores; %.0f s"
          % (N, SECONDS, SEED, ", ".join(d.label for d in daemons[1:]) or "no peer", ROUNDS,
             "s" if ROUNDS > 1 else "", time.strftime("%Y-%m-%d %H:%M"), os.cpu_count(), time.monotonic() - t_start))
    print(compare.table(daemons, R, {}, spec=rows()))
    print()
    print("mako has no center: its center row is n/a. %s" % summary(day))
    for d in daemons:
        for c in R[d.name]["crashes"]:
            print("%-10s CRASHED %s" % (d.name, c))
        for n in sorted(set(R[d.name]["notes"])):
            print("%-10s %s" % (d.name, n))
    for n in notes:
        print("note: %s" % n)


if __name__ == "__main__":
    main()
