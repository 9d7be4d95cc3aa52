"""`perch --replace` (issue 29, item 5): a new Perch takes over from the
one running (after an upgrade, say) with nothing lost — the live toasts
and history come back in the new daemon, the control socket and
org.freedesktop.Notifications are its — while a replacement that cannot
start (a broken config) leaves the old one running, and a daemon that is
not Perch and will not let the bus name go is named without telling the
user to use the --replace they just used."""

import collections
import json
import os
import signal
import subprocess
import time

from harness import CARD_LEFT, MARGIN, Perch, TestFailure, check, poll, runs_in_column, test, write_config
from harness import SWAY17
from test_dbus import gdbus, start, start_bus
from test_persistence import history, wait_in_history

COMPOSITORS = SWAY17
COMPOSITORS_WHY = "the handover is the daemon's (its socket, its state, the session bus), the same on every compositor"

PROBE_X = CARD_LEFT + 130


def shown(p):
    """What a user would compare in `list`: id, title and body of each."""
    return [(n["id"], n.get("summary"), n.get("body")) for n in p.list()]


def kept(p):
    """The same of history, newest first."""
    return [(e["notification"]["id"], e["notification"].get("summary")) for e in history(p)]


def bus_owner_pid(t, env):
    """The pid of the process that owns org.freedesktop.Notifications now."""
    r = t.sway().run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path",
                      "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID",
                      "org.freedesktop.Notifications"], env=env)
    if r.returncode != 0:
        return None
    # "(uint32 1234,)"
    return int(r.stdout.strip().strip("(),").split()[-1].rstrip(","))


def replacement(t, env, args=()):
    """Starts `perch --replace ARGS` in the session of `env`."""
    log = os.path.join(t.tmp, "perch-%d.log" % time.monotonic_ns())
    return Perch(t.sway(), t.bindir, log, env=env, args=["--replace"] + list(args))


def serving(q, timeout=15):
    """Waits until q answers on the control socket (the old daemon's file
    is there all along, so its existence proves nothing)."""
    def answers():
        if q.proc.poll() is not None:
            return "exited"
        r = q.ctl("status", "--json")
        return r.returncode == 0 and q.proc.poll() is None
    v, _ = poll(answers, timeout, 0.05)
    check(v is True, "the replacement did not serve within %d s (%s); its log:\n%s"
          % (timeout, "it exited %s" % q.proc.poll() if v == "exited" else "no answer", q.log()[-1500:]))


def cards(t, count, timeout=5.0):
    """Waits until `count` cards rest at the top right; returns the runs."""
    def probe():
        runs = runs_in_column(t.screenshot(), PROBE_X)
        return runs if len(runs) == count and runs[0][0] == MARGIN else None
    runs, _ = poll(probe, timeout, 0.1)
    check(runs, "expected %d toasts at rest at the top right, the column shows %s"
          % (count, runs_in_column(t.shots[-1][1], PROBE_X)))
    return runs


@test
def replace_hands_the_live_toasts_history_socket_and_bus_name_to_the_new_perch(t):
    old, env = start(t)
    a = old.post("Still on screen", "from before the upgrade", timeout=0)
    b = old.post("Also still on screen", "second", timeout=0)
    gone = old.post("Read before the upgrade", timeout=0)
    old.ctl_ok("dismiss", str(gone))
    wait_in_history(old, gone)
    cards(t, 2)
    before, history_before = shown(old), kept(old)
    check([i for i, _, _ in before] == [a, b], "list before: %s" % before)

    # Without --replace nothing changes, and perch says how to take over.
    second = Perch(t.sway(), t.bindir, os.path.join(t.tmp, "second.log"), env=env)
    rc = second.wait_exit(10)
    said = second.log()
    check(rc == 2 and "another perch is already running" in said,
          "a second perch without --replace should exit 2 saying another perch runs; exit %r, said %r" % (rc, said))
    check(old.proc.poll() is None, "the first perch should still run")

    new = replacement(t, env)
    rc = old.wait_exit(12)
    check(rc == 0, "the old perch should save its state and exit 0 on the handover; exit %r, log:\n%s"
          % (rc, old.log()[-800:]))
    serving(new)
    t.perch = new
    check(shown(new) == before, "the new perch should list what the old one showed;\n  before %s\n  after  %s"
          % (before, shown(new)))
    check(kept(new) == history_before, "history should be the same;\n  before %s\n  after  %s"
          % (history_before, kept(new)))
    cards(t, 2)

    owner, _ = poll(lambda: bus_owner_pid(t, env) == new.proc.pid, 5.0, 0.1)
    check(owner, "org.freedesktop.Notifications should be the new perch's (pid %d), owner pid %r; log:\n%s"
          % (new.proc.pid, bus_owner_pid(t, env), new.log()[-800:]))
    r = t.sway().run(["notify-send", "-p", "-t", "0", "After the handover", "over D-Bus"], env=env)
    check(r.returncode == 0, "notify-send failed: %r" % r.stderr)
    nid = int(r.stdout.strip())
    check(nid not in (a, b, gone), "the new notification should get a fresh id, got %d" % nid)
    check([i for i, _, _ in shown(new)] == [a, b, nid], "notify-send should reach the new perch: %s" % shown(new))
    cards(t, 3)
    t.notes.append("handover: old perch exited %r; new pid %d owns the bus name" % (rc, new.proc.pid))


@test
def replace_with_a_broken_config_leaves_the_old_perch_running_then_a_good_one_takes_over(t):
    old = t.start_perch()
    nid = old.post("Keep me", timeout=0)
    cards(t, 1)
    env = t.sway().env()
    broken = write_config(t, "width = wide\n")
    q = replacement(t, env, ["-c", broken])
    rc = q.wait_exit(10)
    said = q.log()
    check(rc == 2, "a replacement with a broken config should exit 2, exit %r: %r" % (rc, said))
    check("width" in said and ":1:" in said, "it should name the config's problem and its line: %r" % said)
    check(old.proc.poll() is None, "the old perch should still run; it exited %r" % old.proc.poll())
    check([n["id"] for n in old.list()] == [nid], "the old perch should still show its notification: %s"
          % old.list())
    cards(t, 1)

    good = write_config(t, "width = 360\n")
    new = replacement(t, env, ["-c", good])
    check(old.wait_exit(12) == 0, "with a good config the old perch should hand over and exit 0; the "
          "replacement said %r" % new.log()[-600:])
    serving(new)
    t.perch = new
    check([n["id"] for n in new.list()] == [nid], "the notification should be the new perch's: %s" % new.list())
    def wide_card():
        runs = runs_in_column(t.screenshot(), 1280 - MARGIN - 340)
        return runs if runs and runs[0][0] == MARGIN else None
    runs, _ = poll(wide_card, 5.0, 0.1)
    check(runs, "the new config's 360 px card should rest at the top right: %s"
          % runs_in_column(t.shots[-1][1], 1280 - MARGIN - 340))


# Notify calls over D-Bus, one every argv[3] ms, from one connection
# (python3-dbus, asynchronous), until argv[1] exists and at least argv[2]
# were sent; then waits for every answer and prints, as JSON, the ids,
# which connection answered how many, the errors by name and the longest
# wait for an answer (s). Prints "answered" once the first answer came.
FLOOD_ACROSS = r"""
import json, os, sys, time
import dbus, dbus.lowlevel, dbus.mainloop.glib
from gi.repository import GLib
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
stop_file, at_least, every_ms = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
bus = dbus.SessionBus()
ids, senders, errors, samples = [], {}, {}, []
state = {"sent": 0, "answered": 0, "sending": True, "longest": 0.0}
loop = GLib.MainLoop()

def answered(message, sent_at):
    state["answered"] += 1
    state["longest"] = max(state["longest"], time.monotonic() - sent_at)
    if state["answered"] == 1:
        print("answered", flush=True)
    if isinstance(message, dbus.lowlevel.ErrorMessage):
        name = message.get_error_name()
        errors[name] = errors.get(name, 0) + 1
        if len(samples) < 3:
            samples.append("%s: %s" % (name, message.get_args_list()))
    else:
        ids.append(int(message.get_args_list()[0]))
        senders[message.get_sender()] = senders.get(message.get_sender(), 0) + 1
    if not state["sending"] and state["answered"] == state["sent"]:
        loop.quit()

def send():
    if state["sent"] >= at_least and os.path.exists(stop_file):
        state["sending"] = False
        if state["answered"] == state["sent"]:
            loop.quit()
        return False
    call = dbus.lowlevel.MethodCallMessage("org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                           "org.freedesktop.Notifications", "Notify")
    call.append("flood", dbus.UInt32(0), "", "call %d" % state["sent"], "across a replace",
                dbus.Array([], signature="s"), dbus.Dictionary({}, signature="sv"), dbus.Int32(0),
                signature="susssasa{sv}i")
    bus.send_message_with_reply(call, lambda message, at=time.monotonic(): answered(message, at), 60)
    state["sent"] += 1
    return True

GLib.timeout_add(every_ms, send)
GLib.timeout_add(120000, loop.quit)
loop.run()
print(json.dumps({"sent": state["sent"], "ids": ids, "senders": senders, "errors": errors, "samples": samples,
                  "longest": state["longest"]}))
"""


@test
def replace_during_a_dbus_flood_answers_every_call_and_hands_out_no_id_twice(t):
    """Issue 38, item 3: `perch --replace` during a D-Bus flood, on a bus
    with no service directories (a moment without an owner shows as
    ServiceUnknown, not as another daemon started). The new Perch queues
    for the name before the old one is stopped, so the name passes
    straight over; the old one answers what the bus had routed to it
    before it let go, and the new one answers nothing before it has
    restored the old one's state."""
    config = write_config(t, "max-history = 100000\nmax-burst = 0\n")
    old, env = start(t, args=["-c", config], activation=False)
    s = t.sway()
    script = os.path.join(t.user_dir(), "flood.py")
    with open(script, "w") as f:
        f.write(FLOOD_ACROSS)
    os.chmod(script, 0o644)
    stop = os.path.join(t.user_dir(), "stop")
    client = s.popen(["/usr/bin/python3", script, stop, "1000", "1"], env=env,
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if client.stdout.readline().decode().strip() != "answered":
        raise TestFailure("the flood's first call got no answer; stderr: %r" % client.stderr.read(2000))
    time.sleep(0.3)

    new = replacement(t, env, ["-c", config])
    rc = old.wait_exit(12)
    check(rc == 0, "the old perch should exit 0 on the handover; exit %r, log:\n%s" % (rc, old.log()[-800:]))
    serving(new)
    t.perch = new
    owner, _ = poll(lambda: bus_owner_pid(t, env) == new.proc.pid, 5.0, 0.05)
    check(owner, "org.freedesktop.Notifications should be the new perch's")
    # Calls go on for a while against the new one, then the flood ends
    # (after at least 1000).
    time.sleep(0.5)
    with open(stop, "w"):
        pass
    try:
        out, err = client.communicate(timeout=90)
    except subprocess.TimeoutExpired:
        client.kill()
        raise TestFailure("the flood did not end")
    check(client.returncode == 0, "the flood client failed: %s" % err.decode()[-2000:])
    res = json.loads(out.decode().strip().splitlines()[-1])
    sent, ids, errors = res["sent"], res["ids"], res["errors"]
    t.notes.append("flood: %d calls, answered by %s, errors %s %s; the longest wait for an answer %.0f ms"
                   % (sent, res["senders"], errors, res["samples"], res["longest"] * 1000))
    check(len(res["senders"]) == 2 and all(n > 0 for n in res["senders"].values()),
          "both perches should have answered part of the flood (it should span the handover): %s" % res["senders"])
    check(not errors, "every call of the flood should be answered, %d of %d got errors: %s (e.g. %s)"
          % (sum(errors.values()), sent, errors, res["samples"]))
    check(len(ids) == sent, "every call should get an id: %d of %d" % (len(ids), sent))
    check(len(set(ids)) == len(ids), "no id should be handed out twice: %d ids, %d distinct"
          % (len(ids), len(set(ids))))
    seen = collections.Counter([n["id"] for n in new.list()] + [e["notification"]["id"] for e in history(new)])
    missing = [i for i in ids if i not in seen]
    twice = sorted(i for i, n in seen.items() if n > 1)
    check(not missing, "every answered id should be live or in history in the new perch; %d are not (e.g. %s)"
          % (len(missing), missing[:5]))
    check(not twice, "each id once in list and history; twice: %s" % twice[:5])
    check(new.proc.poll() is None, "the new perch exited (%s)" % new.proc.poll())


NAME_HOLDER = r"""
import os, socket, struct, sys

# A D-Bus client that owns a name and never lets it go (RequestName with
# no flags: it does not allow replacement), as a daemon that is not Perch
# would. Speaks just enough of the wire protocol: EXTERNAL auth, Hello,
# RequestName.
address = os.environ["DBUS_SESSION_BUS_ADDRESS"]
path = dict(kv.split("=", 1) for kv in address[len("unix:"):].split(","))
s = socket.socket(socket.AF_UNIX)
if "path" in path:
    s.connect(path["path"])
else:
    s.connect("\0" + path["abstract"])
s.sendall(b"\0AUTH EXTERNAL " + str(os.getuid()).encode().hex().encode() + b"\r\n")
assert s.recv(4096).startswith(b"OK"), "auth"
s.sendall(b"BEGIN\r\n")

def pad(b, n):
    return b + b"\0" * (-len(b) % n)

def string(v):
    e = v.encode()
    return struct.pack("<I", len(e)) + e + b"\0"

serial = 0
def call(member, sig=b"", body=b""):
    global serial
    serial += 1
    fields = b""
    for code, t, v in ((1, b"o", string("/org/freedesktop/DBus")), (2, b"s", string("org.freedesktop.DBus")),
                       (3, b"s", string(member)), (6, b"s", string("org.freedesktop.DBus"))) + \
                      (((8, b"g", bytes([len(sig)]) + sig + b"\0"),) if sig else ()):
        fields = pad(fields, 8) + bytes([code, 1]) + t + b"\0" + v
    head = b"l\1\0\1" + struct.pack("<III", len(body), serial, len(fields)) + fields
    s.sendall(pad(head, 8) + body)

buffered = b""
def reply():
    # The next message: (its type, its body).
    global buffered
    while True:
        if len(buffered) >= 16:
            blen, _, flen = struct.unpack("<III", buffered[4:16])
            end = 16 + flen + (-(16 + flen) % 8) + blen
            if len(buffered) >= end:
                kind, body, buffered = buffered[1], buffered[end - blen:end], buffered[end:]
                return kind, body
        more = s.recv(65536)
        assert more, "the bus closed the connection"
        buffered += more

call("Hello")
call("RequestName", b"su", pad(string(sys.argv[1]), 4) + struct.pack("<I", 0))
replies = 0
while replies < 2:
    kind, body = reply()
    if kind == 2:
        replies += 1
        if replies == 2:
            print("owned" if struct.unpack("<I", body[:4])[0] == 1 else "not owned", flush=True)
s.recv(1)  # hold the name until killed
"""


@test
def replace_when_another_daemon_holds_the_bus_name_names_it_and_does_not_suggest_replace(t):
    address = start_bus(t)
    s = t.sway()
    env = s.env(DBUS_SESSION_BUS_ADDRESS=address)
    script = os.path.join(t.user_dir(), "holder.py")
    with open(script, "w") as f:
        f.write(NAME_HOLDER)
    os.chmod(script, 0o644)
    holder = s.popen(["python3", script, "org.freedesktop.Notifications"], env=env, stdout=subprocess.PIPE)
    check(holder.stdout.readline().decode().strip() == "owned", "the name holder did not get the name")

    q = replacement(t, env)
    rc = q.wait_exit(15)
    said = q.log().strip()
    lines = said.splitlines()
    t.notes.append("said: %r" % said)
    check(rc == 3, "perch --replace against a daemon that keeps the name should exit 3, exit %r: %r" % (rc, said))
    check(len(lines) == 1, "it should say so in one line: %r" % said)
    check("python3" in said and "pid %d" % holder.pid in said,
          "the line should name the daemon that holds the name (python3, pid %d): %r" % (holder.pid, said))
    check("--replace" not in said, "the line must not tell the user to use --replace, just used: %r" % said)
    check(holder.poll() is None, "the other daemon should be left alone")


@test
def replace_when_another_daemon_holds_the_bus_name_leaves_the_old_perch_running(t):
    """A Perch serves the display without the bus (--no-dbus) while a
    daemon that is not Perch holds org.freedesktop.Notifications and does
    not allow replacement: `perch --replace` could never get the name, so
    it says so (exit 3, naming the holder) before it stops anything; the
    old Perch goes on serving and the holder keeps the name."""
    address = start_bus(t)
    s = t.sway()
    env = s.env(DBUS_SESSION_BUS_ADDRESS=address)
    script = os.path.join(t.user_dir(), "holder.py")
    with open(script, "w") as f:
        f.write(NAME_HOLDER)
    os.chmod(script, 0o644)
    holder = s.popen(["python3", script, "org.freedesktop.Notifications"], env=env, stdout=subprocess.PIPE)
    check(holder.stdout.readline().decode().strip() == "owned", "the name holder did not get the name")
    old = Perch(s, t.bindir, os.path.join(t.tmp, "old.log"), env=env, args=["--no-dbus"])
    t.perch = old
    old.wait_ready()
    nid = old.post("Keep me", timeout=0)

    q = replacement(t, env)
    rc = q.wait_exit(15)
    said = q.log().strip()
    t.notes.append("said: %r" % said)
    check(rc == 3, "perch --replace that cannot get the bus name should exit 3, exit %r: %r" % (rc, said))
    check(len(said.splitlines()) == 1 and "pid %d" % holder.pid in said and "--replace" not in said,
          "one line naming the daemon that holds the name (pid %d), without advice to use --replace: %r"
          % (holder.pid, said))
    check(old.proc.poll() is None, "the old perch should not have been stopped; it exited %r, log:\n%s"
          % (old.proc.poll(), old.log()[-600:]))
    check([n["id"] for n in old.list()] == [nid], "the old perch should still serve its notification: %s"
          % old.list())
    check(bus_owner_pid(t, env) == holder.pid, "the name should still be the holder's")
