#!/usr/bin/env python3
"""sound.py — what a notification's sound costs: Notify → the first sample
at the sink, and memory.

Starts the session compare.py starts (headless sway 1.7, a private bus,
the session user) and, for it, a real PulseAudio 16 with a null sink
(Tests/e2e/sound.py: the e2e tests' fixture), whose monitor parec records
for the whole run. Then:

- **Latency**: BENCH_SOUND_SAMPLES (20) notifications, each sent when the
  sink has been silent for 0.2 s and 1.5 s after the previous one (past
  Perch's 1 s sound-gap and the 0.9 s of message-new-instant), each closed
  once heard; for Perch after a first one, which starts its helper and
  loads libcanberra (its own row). The figure is the monotonic time just before the Notify call
  (one client process, dbus-python) → the first sample of the recording
  whose magnitude reaches 33 (0.001 of full scale; the null sink's silence
  is exact zeros). Perch: the `sound-name` hint `message-new-instant`.
  mako 1.7.1: what its users do today, `on-notify=exec paplay FILE` with
  that theme sound's file (mako knows no sound hint). The floor: `paplay
  FILE` started by the bench itself at the same instant, the least a
  daemon that starts a player per sound can spend.
  The recording's clock is parec's: its samples are placed in monotonic
  time from the file's growth (good to about one 10 ms fragment, the same
  for every column).
- **Memory** (Perch): Pss idle with a config of one section; idle with
  the same plus its sound keys (`sounds=on`, and the section naming a
  sound) and no sound played yet — libcanberra is loaded on the first sound, by a helper process, so
  the two should be equal; BENCH_SOUND_ROUNDS (3) starts of each,
  alternating, as idle Pss moves a few hundred kB from start to start.
  After the first sound, Pss of perch and of its perch-sound helper. Each
  measured start is a second start (compare.py's Bench.start).

Prints one table. Asserts nothing. Without the audio packages (pulseaudio,
pulseaudio-utils, sox, sound-theme-freedesktop) it says what is missing and
exits 0; a daemon that cannot be measured (a Perch without sound, mako not
installable) gets "—" cells and a line saying why.
"""

import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# Tests/e2e first: its sound.py (the fixture) is the `sound` imported here,
# not this file.
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "e2e"))

import compare  # noqa: E402  (Bench, the daemons, wait_idle, memory_kb)
import sound  # noqa: E402  (the e2e tests' sound server and recording)

SAMPLES = int(os.environ.get("BENCH_SOUND_SAMPLES", "20"))
ROUNDS = max(1, int(os.environ.get("BENCH_SOUND_ROUNDS", "3")))
SPACING_S = 1.5
QUIET_S = 0.2
HEARD_WITHIN_S = 3.0
SOUND = "message-new-instant"
SOUND_FILE = os.path.join(sound.THEME_DIR, SOUND + ".oga")

# One client for every Notify, as compare.py's driver is: a line of JSON
# hints in, the monotonic time just before the call and the id out; a
# line "close ID" closes one.
NOTIFIER = r'''
import json, sys, time
import dbus
bus = dbus.SessionBus()
# Whoever owns the name now: the daemons take turns.
def call(method, signature, *args):
    return bus.call_blocking("org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                             "org.freedesktop.Notifications", method, signature, args, timeout=10)
for line in sys.stdin:
    if line.startswith("close "):
        call("CloseNotification", "u", dbus.UInt32(int(line.split()[1])))
        print("{}", flush=True)
        continue
    hints = dbus.Dictionary({k: dbus.String(v) for k, v in json.loads(line).items()}, signature="sv")
    t = time.monotonic()
    nid = call("Notify", "susssasa{sv}i", "bench", dbus.UInt32(0), "", "Sound", "a body line",
               dbus.Array([], signature="s"), hints, dbus.Int32(0))
    print(json.dumps({"t": t, "id": int(nid)}), flush=True)
'''


def log(msg):
    sys.stderr.write("[sound %s] %s\n" % (time.strftime("%H:%M:%S"), msg))
    sys.stderr.flush()


class Notifier:
    def __init__(self, b):
        self.proc = b.spawn([compare.PY, "-u", "-c", NOTIFIER], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def _line(self, text):
        self.proc.stdin.write((text + "\n").encode())
        self.proc.stdin.flush()
        out = self.proc.stdout.readline()
        if not out:
            raise RuntimeError("the notifier exited (%s)" % self.proc.poll())
        return json.loads(out)

    def notify(self, hints):
        r = self._line(json.dumps(hints))
        return r["t"], r["id"]

    def close(self, nid):
        self._line("close %d" % nid)

    def stop(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def settle(pid):
    """compare.py's idle: quiet, past Perch's font warm-up, quiet again."""
    compare.wait_idle(pid, timeout=10)
    time.sleep(0.5)
    compare.wait_idle(pid, timeout=10)


def pss(pid):
    return compare.memory_kb(pid)[1]


def children_named(pid, name):
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                text = f.read()
        except OSError:
            continue
        comm = text[text.index("(") + 1:text.rindex(")")]
        ppid = int(text[text.rindex(")") + 2:].split()[1])
        if comm == name and ppid == pid:
            out.append(int(entry))
    return out


class Run:
    """The recording's samples and the pacing between sounds."""

    def __init__(self, rec):
        self.rec = rec
        self.last = 0.0

    def ready(self):
        left = self.last + SPACING_S - time.monotonic()
        if left > 0:
            time.sleep(left)
        self.rec.wait_quiet(QUIET_S, timeout=10)

    def heard(self, sent):
        """ms from sent to the first sound after it, or None."""
        self.last = sent
        first = self.rec.first_sound(sent, HEARD_WITHIN_S)
        return None if first is None else (first - sent) * 1000.0


def latencies(run, send):
    """SAMPLES latencies (ms; None: not heard) of send(), which returns the
    monotonic time it sent and a clean-up to call once heard."""
    out = []
    for _ in range(SAMPLES):
        run.ready()
        sent, done = send()
        out.append(run.heard(sent))
        done()
    return out


def idle_pss(b, d):
    proc, _, _, _ = b.start(d)
    try:
        settle(proc.pid)
        return pss(proc.pid)
    finally:
        b.stop(proc)


def measure_perch(b, run, notifier, res, notes):
    # The same file with and without its sound keys: what is compared is
    # what sounds cost, not what a section costs.
    perch = compare.WithConfig(compare.DAEMONS[0], "perch-quiet.conf")
    with_sound = compare.WithConfig(compare.DAEMONS[0], "perch-sound.conf")
    # Idle Pss moves by a few hundred kB from one start to the next: the two
    # configs alternate, and the cells are the median (min-max).
    res["pss idle"], res["pss idle sound config"] = [], []
    for _ in range(ROUNDS - 1):
        res["pss idle"].append(idle_pss(b, perch))
        res["pss idle sound config"].append(idle_pss(b, with_sound))
    res["pss idle"].append(idle_pss(b, perch))
    proc, logp, _, _ = b.start(with_sound)
    try:
        settle(proc.pid)
        res["pss idle sound config"].append(pss(proc.pid))
        res["helpers idle"] = len(children_named(proc.pid, "perch-sound"))
        run.ready()
        sent, nid = notifier.notify({"sound-name": SOUND})
        first = run.heard(sent)
        notifier.close(nid)
        if first is None:
            notes.append("Perch: the first sound-name was not heard within %g s; its log ends: %s"
                         % (HEARD_WITHIN_S, compare.log_tail(logp)))
        settle(proc.pid)
        res["pss after"] = pss(proc.pid)
        helpers = children_named(proc.pid, "perch-sound")
        res["pss helper"] = sum(pss(h) for h in helpers) if helpers else None
        res["helpers after"] = len(helpers)
        if first is None:
            return

        def send():
            sent, nid = notifier.notify({"sound-name": SOUND})
            return sent, lambda: notifier.close(nid)
        res["first"] = first
        res["latency"] = latencies(run, send)
    finally:
        b.stop(proc)


def measure_mako(b, run, notifier, res, notes):
    mako = [d for d in compare.DAEMONS if d.name == "mako-1.7"][0]
    try:
        compare.ensure_host_packages([mako])
    except Exception as e:
        notes.append("mako 1.7.1 left out: not installable (%s)" % e)
        return
    proc, logp, _, _ = b.start(compare.WithConfig(mako, "mako-sound.conf"))
    try:
        settle(proc.pid)

        def send():
            sent, nid = notifier.notify({})
            return sent, lambda: notifier.close(nid)
        res["latency"] = latencies(run, send)
        if not compare.nums(res["latency"]):
            notes.append("mako 1.7.1: no sound heard; its log ends: %s" % compare.log_tail(logp))
    finally:
        b.stop(proc)


def measure_floor(b, run, res):
    def send():
        sent = time.monotonic()
        p = b.spawn(["paplay", SOUND_FILE], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return sent, p.wait
    res["latency"] = latencies(run, send)


def cell(v, fmt="%.1f"):
    if isinstance(v, list):
        return compare.cell(v, fmt)
    return "—" if v is None else fmt % v


def print_table(columns, results):
    def lat(key, p=None):
        def f(r):
            v = r.get("latency")
            if not v or not compare.nums(v):
                return "—"
            return cell(compare.med(v) if p is None else compare.pct(v, p))
        return f

    def heard(r):
        v = r.get("latency")
        return "—" if not v else "%d/%d" % (len(compare.nums(v)), len(v))

    def kb(key, fmt="%d"):
        return lambda r: cell(r.get(key), fmt)
    rows = [
        ("Notify → first non-silent sample at the sink, median (ms)", lat("latency")),
        ("Notify → first non-silent sample at the sink, p90 (ms)", lat("latency", 0.9)),
        ("sounds heard (within %g s)" % HEARD_WITHIN_S, heard),
        ("the first sound after start-up (ms; not in the median)", kb("first", "%.1f")),
        ("Pss idle, that config without its sound keys (kB; median of %d starts)" % ROUNDS, kb("pss idle")),
        ("Pss idle, a sound config, no sound played yet (kB; %d starts)" % ROUNDS, kb("pss idle sound config")),
        ("Pss after the first sound: the daemon (kB)", kb("pss after")),
        ("Pss after the first sound: perch-sound (kB)", kb("pss helper")),
    ]
    head = ["figure"] + [label for _, label in columns]
    body = [[label] + [fn(results[key]) for key, _ in columns] for label, fn in rows]
    widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head))]
    line = lambda r: "| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |"
    print(line(head))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in body:
        print(line(r))


def main():
    missing = sound.available()
    if missing:
        print("sound: skipped, not installed: %s (scripts/ensure-deps installs them)" % missing)
        return 0
    os.environ.setdefault("PERCH_TEST_USER", "perch-bench")
    b = compare.Bench()
    b.write_share("perch-sound.conf", "# defaults, made explicit\nmax-visible=5\ndefault-timeout=5000\n"
                                      "sounds=on\n\n[app-name=bench-sound]\nborder-size=2\nsound=%s\n" % SOUND)
    b.write_share("perch-quiet.conf", "# defaults, made explicit\nmax-visible=5\ndefault-timeout=5000\n"
                                      "\n[app-name=bench-sound]\nborder-size=2\n")
    with open(b.share_path("mako.conf")) as f:
        b.write_share("mako-sound.conf", f.read() + "on-notify=exec paplay %s\n" % SOUND_FILE)
    results = {"perch": {}, "mako": {}, "floor": {}}
    notes = []
    server = rec = notifier = None
    t0 = time.monotonic()
    try:
        server = sound.SoundServer(b.session, b.user_dir("pulse-home"))
        rec = server.record()
        run = Run(rec)
        notifier = Notifier(b)
        log("floor: paplay at Notify time")
        measure_floor(b, run, results["floor"])
        for key, fn in (("perch", measure_perch), ("mako", measure_mako)):
            log(key)
            try:
                fn(b, run, notifier, results[key], notes)
            except Exception as e:  # a daemon that cannot be measured is left out, said
                notes.append("%s left out: %s" % (key, e))
        if results["perch"].get("helpers idle"):
            notes.append("Perch: a perch-sound ran before the first sound")
    finally:
        for part in (notifier, rec, server):
            try:
                if part is not None:
                    part.stop()
            except Exception as e:  # the rest must still be stopped
                log("stopping %s: %s" % (type(part).__name__, e))
        b.close()
    print("Sounds: Notify → the null sink (PulseAudio 16, parec), %d sounds %.1f s apart, %s; %d s"
          % (SAMPLES, SPACING_S, time.strftime("%Y-%m-%d %H:%M"), time.monotonic() - t0))
    print_table([("perch", "Perch (sound-name hint)"), ("mako", "mako 1.7.1 (on-notify=exec paplay)"),
                 ("floor", "paplay at Notify time")], results)
    for n in notes:
        print(n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
