"""A sender in a Flatpak sandbox may touch only its own notifications
(issue 38, item 4). The sandboxed sender is gdbus run under bwrap as the
session user, on the host (not in a chroot root), with a .flatpak-info
bound at /.flatpak-info: the file Perch reads, through /proc/PID/root, as
xdg-desktop-portal does. Ordinary senders are notify-send, dunstify and
gdbus outside the sandbox. The figures go to docs/reliability.md."""

import json
import os
import re
import subprocess
import time

from harness import SWAY17, TestFailure, check, poll, test
from test_dbus import DEST, card_at_rest, start

COMPOSITORS = SWAY17
COMPOSITORS_WHY = "D-Bus and the daemon's rules; the screen only counts cards"

INTRUDER = "org.example.Intruder"
FLATPAK_INFO = ("[Application]\nname=%s\nruntime=runtime/org.freedesktop.Platform/x86_64/23.08\n\n"
                "[Instance]\ninstance-id=1234567890\nsession-bus-proxy=true\n")


def flatpak_info(t, app_id, name="flatpak-info"):
    """A .flatpak-info for `app_id` the session user can read."""
    path = os.path.join(t.tmp, name)
    with open(path, "w") as f:
        f.write(FLATPAK_INFO % app_id)
    os.chmod(path, 0o644)
    return path


def bwrap_argv(env, info):
    """bwrap with the host's /usr and /etc read-only, a fresh /tmp, its own
    pid namespace, and `info` at /.flatpak-info. The bus's socket is bound
    in when it is a path (an abstract one is reached through the shared
    network namespace)."""
    argv = ["bwrap", "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib",
            "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/bin", "/bin",
            "--symlink", "usr/sbin", "/sbin", "--ro-bind", "/etc", "/etc",
            "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
            "--unshare-pid", "--die-with-parent", "--ro-bind", info, "/.flatpak-info"]
    m = re.search(r"(?:^|[:;,])path=([^,;]+)", env["DBUS_SESSION_BUS_ADDRESS"])
    if m:
        argv += ["--bind", os.path.dirname(m.group(1)), os.path.dirname(m.group(1))]
    return argv + ["--"]


def sandboxed(t, env, info, *gdbus_args, timeout=10):
    """`gdbus call` of a Notifications method from inside a sandbox;
    returns the CompletedProcess."""
    argv = bwrap_argv(env, info) + ["gdbus", "call", "--session"] + DEST + list(gdbus_args)
    r = t.sway().run(argv, env=env, timeout=timeout)
    if r.returncode != 0 and "bwrap:" in r.stderr:
        raise TestFailure("bwrap cannot make a sandbox for the session user (user namespaces? "
                          "/proc/sys/user/max_user_namespaces, kernel.unprivileged_userns_clone): %s"
                          % r.stderr.strip())
    return r


def notify_args(summary, replaces=0, hints="{}", app="intruder", body=""):
    return ["--method", "org.freedesktop.Notifications.Notify", "--", app, str(replaces), "", summary, body,
            "[]", hints, "0"]


def close_args(nid):
    return ["--method", "org.freedesktop.Notifications.CloseNotification", str(nid)]


def returned_id(r, what):
    check(r.returncode == 0, "%s failed: %r %r" % (what, r.stdout, r.stderr))
    m = re.match(r"\(uint32 (\d+),\)", r.stdout.strip())
    check(m, "%s printed no id: %r" % (what, r.stdout))
    return int(m.group(1))


def ordinary_id(r, what):
    check(r.returncode == 0, "%s failed: %r %r" % (what, r.stdout, r.stderr))
    return int(r.stdout.strip())


def listed(p):
    return {n["id"]: n for n in p.list()}


def monitor(t, env):
    """`gdbus monitor` of the Notifications object, started and settled."""
    m = t.sway().popen(["gdbus", "monitor", "--session", "--dest", "org.freedesktop.Notifications"],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.5)
    return m


def monitored(m):
    m.terminate()
    return m.communicate(timeout=5)[0].decode()


@test
def a_sandboxed_app_cannot_rewrite_another_apps_toast(t):
    """replaces_id, a synchronous tag or an id in history, named from a
    sandbox: each makes a new notification of the sandbox's own, and what
    the other app posted is as it was."""
    p, env = start(t)
    s = t.sway()
    bank = ordinary_id(s.run(["notify-send", "-p", "-a", "bank", "-t", "0", "Transfer of 20 EUR", "to Ann"],
                             env=env), "notify-send")
    card_at_rest(t)
    info = flatpak_info(t, INTRUDER)
    hijack = returned_id(sandboxed(t, env, info, *notify_args("HIJACKED by B", replaces=bank)),
                         "the sandboxed Notify with replaces_id %d" % bank)
    items = listed(p)
    check(hijack != bank, "the sandboxed app's replacement of %d should be a new notification, got id %d; "
          "list: %r" % (bank, hijack, list(items.values())))
    check(items.get(bank, {}).get("title") == "Transfer of 20 EUR" and "sandbox" not in items[bank],
          "the bank's notification %d should be untouched: %r" % (bank, items.get(bank)))
    check(items.get(hijack, {}).get("title") == "HIJACKED by B" and items[hijack].get("sandbox") == INTRUDER,
          "the new notification should be the sandbox's (%s): %r" % (INTRUDER, items.get(hijack)))
    card_at_rest(t, count=2)

    # A synchronous tag: the volume script's next update is still its own.
    tag = "{'x-canonical-private-synchronous': <'volume'>}"
    volume = ordinary_id(s.run(["notify-send", "-p", "-t", "0", "-h", "string:x-canonical-private-synchronous:volume",
                                "Volume 40%"], env=env), "notify-send with a tag")
    fake = returned_id(sandboxed(t, env, info, *notify_args("HIJACKED volume", hints=tag)),
                       "the sandboxed Notify with the tag")
    again = ordinary_id(s.run(["notify-send", "-p", "-t", "0", "-h", "string:x-canonical-private-synchronous:volume",
                               "Volume 50%"], env=env), "the second notify-send with the tag")
    items = listed(p)
    check(fake not in (volume, bank) and again == volume and items[volume]["title"] == "Volume 50%"
          and items[fake]["title"] == "HIJACKED volume",
          "the tag should not reach across the sandbox: volume %d, sandbox's %d, update %d; list %r"
          % (volume, fake, again, list(items.values())))

    # An id in history: a script's dunstify -r 777 that expired.
    r = s.run(["dunstify", "-p", "-r", "777", "-t", "300", "Brightness 30%"], env=env)
    check(r.stdout.strip() == "777", "dunstify -r 777 should get 777: %r %r" % (r.stdout, r.stderr))
    gone, _ = poll(lambda: 777 not in listed(p), 5.0, 0.1)
    check(gone, "777 should have expired: %r" % p.list())
    taken = returned_id(sandboxed(t, env, info, *notify_args("HIJACKED 777", replaces=777)),
                        "the sandboxed Notify with replaces_id 777")
    history = [e["notification"]["id"] for e in json.loads(p.ctl_ok("history", "--json"))]
    check(taken != 777 and 777 in history,
          "the sandbox should get a new id (got %d) and history keep 777 (history ids %r)" % (taken, history))
    t.notes.append("replaces_id %d -> new id %d; tag -> new id %d; history id 777 -> new id %d"
                   % (bank, hijack, fake, taken))
    check(p.proc.poll() is None, "perch died")


@test
def a_sandboxed_app_cannot_close_another_apps_toast(t):
    """CloseNotification from a sandbox on another app's id is answered as
    one on an id that does not exist: no error, nothing closed, no signal."""
    p, env = start(t)
    s = t.sway()
    bank = ordinary_id(s.run(["notify-send", "-p", "-a", "bank", "-t", "0", "Transfer of 20 EUR", "to Ann"],
                             env=env), "notify-send")
    card_at_rest(t)
    m = monitor(t, env)
    info = flatpak_info(t, INTRUDER)
    r = sandboxed(t, env, info, *close_args(bank))
    unknown = sandboxed(t, env, info, *close_args(99999))
    check(r.returncode == 0 and r.stdout == unknown.stdout and r.stderr == unknown.stderr,
          "closing another's id should be answered as closing an unknown one: %r %r, unknown: %r %r"
          % (r.stdout, r.stderr, unknown.stdout, unknown.stderr))
    time.sleep(0.5)
    out = monitored(m)
    check(bank in listed(p), "the bank's notification %d was closed from the sandbox: %r" % (bank, p.list()))
    check("NotificationClosed (uint32 %d," % bank not in out,
          "no NotificationClosed for %d should be sent; the monitor saw:\n%s" % (bank, out))
    card_at_rest(t, count=1)
    # The user's own client still closes it.
    r = t.sway().run(["gdbus", "call", "--session"] + DEST + close_args(bank), env=env)
    check(r.returncode == 0, "an ordinary CloseNotification failed: %r" % r.stderr)
    gone, _ = poll(lambda: bank not in listed(p), 3.0, 0.1)
    check(gone, "an ordinary client should still close %d: %r" % (bank, p.list()))


@test
def a_sandboxed_app_replaces_and_closes_its_own_and_scripts_still_replace_it(t):
    """What the sandbox posted it may replace and close (from any of its
    processes); an ordinary script may replace it as it may any toast."""
    p, env = start(t)
    s = t.sway()
    info = flatpak_info(t, "org.example.Player")
    own = returned_id(sandboxed(t, env, info, *notify_args("Now playing", body="track 1", app="player")),
                      "the sandboxed Notify")
    check(listed(p).get(own, {}).get("sandbox") == "org.example.Player",
          "list should name the sandbox of %d: %r" % (own, p.list()))
    same = returned_id(sandboxed(t, env, info, *notify_args("Now playing", replaces=own, body="track 2",
                                                            app="player")), "the sandboxed replacement")
    check(same == own and listed(p)[own]["body"] == "track 2" and len(p.list()) == 1,
          "the sandbox should replace its own %d in place (got %d): %r" % (own, same, p.list()))
    card_at_rest(t, count=1)
    second = returned_id(sandboxed(t, env, info, *notify_args("Paused", app="player")), "a second Notify")
    m = monitor(t, env)
    r = sandboxed(t, env, info, *close_args(second))
    check(r.returncode == 0, "the sandbox's CloseNotification of its own failed: %r" % r.stderr)
    gone, _ = poll(lambda: second not in listed(p), 3.0, 0.1)
    time.sleep(0.3)
    out = monitored(m)
    check(gone and "NotificationClosed (uint32 %d, uint32 3)" % second in out,
          "the sandbox should close its own %d (reason 3); list %r, monitor:\n%s" % (second, p.list(), out))
    r = s.run(["notify-send", "-p", "-r", str(own), "-t", "0", "Now playing", "from a script"], env=env)
    check(ordinary_id(r, "notify-send -r") == own and listed(p)[own]["body"] == "from a script",
          "a script should still replace the sandbox's %d: %r" % (own, p.list()))


def confined_when_unreadable(t, make_info, what):
    """A sender whose .flatpak-info (made by `make_info(path)`) cannot be
    read: its replacement of another's toast is a new notification of its
    own connection (its unique name), its close changes nothing, status
    answers at once after, and one warning line says why."""
    p, env = start(t)
    s = t.sway()
    bank = ordinary_id(s.run(["notify-send", "-p", "-a", "bank", "-t", "0", "Transfer of 20 EUR"], env=env),
                       "notify-send")
    info = os.path.join(t.tmp, "flatpak-info")
    make_info(info)
    start_time = time.monotonic()
    hijack = returned_id(sandboxed(t, env, info, *notify_args("HIJACKED by B", replaces=bank)),
                         "the Notify from a sandbox whose .flatpak-info %s" % what)
    took = time.monotonic() - start_time
    r = p.ctl("status", "--json", timeout=3)
    check(r.returncode == 0, "perch should answer status after that: %r" % r.stderr)
    items = listed(p)
    check(hijack != bank and items[bank]["title"] == "Transfer of 20 EUR",
          "a sender Perch cannot look into should not replace %d (got %d): %r" % (bank, hijack, items))
    check(items[hijack].get("sandbox", "").startswith(":"),
          "its notification should be its connection's own (a unique name): %r" % items[hijack])
    closed = sandboxed(t, env, info, *close_args(bank))
    check(closed.returncode == 0 and bank in listed(p),
          "its CloseNotification of %d should change nothing: %r %r" % (bank, closed.stderr, p.list()))
    lines = [line for line in p.log().splitlines() if "runs in a sandbox" in line]
    check(len(lines) == 1 and what in lines[0],
          "one warning should say why (%s), the log has:\n%s" % (what, p.log()))
    t.notes.append("answered in %.2f s; %s" % (took, lines[0]))
    check(p.proc.poll() is None, "perch died")


@test
def a_sandbox_whose_flatpak_info_is_a_fifo_is_confined_and_perch_serves_on(t):
    """A FIFO with no writer: a reader that waited for one would hang the
    daemon's loop."""
    def fifo(path):
        os.mkfifo(path, 0o644)
        os.chmod(path, 0o644)
    confined_when_unreadable(t, fifo, "is a FIFO, not a regular file")


@test
def a_sandbox_whose_flatpak_info_is_garbage_is_confined(t):
    def garbage(path):
        with open(path, "wb") as f:
            f.write(bytes(range(256)) * 64)
        os.chmod(path, 0o644)
    confined_when_unreadable(t, garbage, "has no name in [Application] or [Runtime]")
