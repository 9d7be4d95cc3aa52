"""KDE's inhibition API on org.freedesktop.Notifications (Inhibit,
UnInhibit, the Inhibited property), on a real session bus: an app that
asks for quiet gets do-not-disturb until it lets go or leaves the bus."""

import json
import subprocess
import time

from harness import ALL, SWAY17, check, poll, runs_in_column, test
from test_dbus import X_PROBE, card_at_rest, gdbus, start

# Which compositors these tests run on (harness.test).
COMPOSITORS = SWAY17
COMPOSITORS_WHY = "D-Bus and the service's hold; the screen is looked at by the tests marked ALL"

# An app that stays on the bus while it inhibits, as Telegram or
# xdg-desktop-portal-kde does: it prints its unique name and cookie, then
# waits until it is killed.
INHIBITOR = (
    "import dbus, signal, sys\n"
    "bus = dbus.SessionBus()\n"
    "n = dbus.Interface(bus.get_object('org.freedesktop.Notifications', '/org/freedesktop/Notifications',"
    " introspect=False), 'org.freedesktop.Notifications')\n"
    "cookie = n.Inhibit(sys.argv[1], sys.argv[2], dbus.Dictionary({'x-hint': 'ignored'}, signature='sv'))\n"
    "print(bus.get_unique_name(), int(cookie), flush=True)\n"
    "signal.pause()\n")


def inhibitor(t, env, app="org.telegram.desktop", reason="muted"):
    """Starts an app that inhibits and stays; returns (process, cookie)."""
    proc = t.sway().popen(["/usr/bin/python3", "-c", INHIBITOR, app, reason], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    line = proc.stdout.readline().decode().split()
    check(len(line) == 2 and line[1].isdigit() and int(line[1]) > 0,
          "Inhibit should answer a cookie: %r %r" % (line, proc.stderr.read1(4096) if not line else b""))
    return proc, int(line[1])


def inhibited(t, env):
    """The Inhibited property, read with Properties.Get."""
    r = gdbus(t, env, "--method", "org.freedesktop.DBus.Properties.Get", "org.freedesktop.Notifications",
              "Inhibited")
    check(r.returncode == 0, "Get(Inhibited) failed: %r" % r.stderr)
    return r.stdout.strip() == "(<true>,)"


def screen_is_empty(t):
    return runs_in_column(t.screenshot(), X_PROBE) == []


def inhibitors(p):
    return json.loads(p.ctl_ok("status", "--json")).get("inhibitors")


@test(compositors=ALL)
def an_inhibition_holds_toasts_until_its_caller_leaves(t):
    p, env = start(t)
    s = t.sway()
    r = s.run(["notify-send", "-t", "0", "A", "on screen before"], env=env)
    check(r.returncode == 0, "notify-send failed: %r" % r.stderr)
    card_at_rest(t)
    check(not inhibited(t, env), "Inhibited should read false before anyone inhibits")

    caller, _ = inhibitor(t, env)
    gone, _ = poll(lambda: screen_is_empty(t), 3.0, 0.05)
    check(gone, "A should leave the screen while an app inhibits")
    check(inhibitors(p) == [{"app": "org.telegram.desktop", "reason": "muted"}],
          "status should list the inhibitor: %r" % inhibitors(p))
    text = p.ctl_ok("status")
    check("inhibited by: org.telegram.desktop (muted)" in text, "perchctl status should say who inhibits: %r" % text)
    check(inhibited(t, env), "Inhibited should read true while an app inhibits")

    r = s.run(["notify-send", "-t", "0", "B", "while inhibited"], env=env)
    check(r.returncode == 0, "notify-send failed: %r" % r.stderr)
    time.sleep(0.5)
    check(screen_is_empty(t), "B should not show while an app inhibits")
    history = [e["notification"]["title"] for e in json.loads(p.ctl_ok("history", "--json"))]
    check(history == ["B"], "B should go straight to history: %r" % history)
    check([n["title"] for n in p.list()] == ["A"], "A should still be live, held: %r" % p.list())

    caller.kill()
    caller.wait(5)
    card_at_rest(t)
    check([n["title"] for n in p.list()] == ["A"], "A should be back: %r" % p.list())
    check(inhibitors(p) == [], "the inhibition should end with its caller: %r" % inhibitors(p))
    check(not inhibited(t, env), "Inhibited should read false once the caller left")


@test(compositors=ALL)
def a_critical_notification_shows_while_inhibited(t):
    p, env = start(t)
    caller, _ = inhibitor(t, env)
    r = t.sway().run(["notify-send", "-u", "critical", "Battery low", "5 %"], env=env)
    check(r.returncode == 0, "notify-send failed: %r" % r.stderr)
    card_at_rest(t)
    check([n["title"] for n in p.list()] == ["Battery low"], "the critical one should be live: %r" % p.list())
    caller.kill()


@test
def uninhibit_with_the_cookie_releases_and_an_unknown_cookie_is_no_error(t):
    p, env = start(t)
    r = gdbus(t, env, "--method", "org.freedesktop.Notifications.GetCapabilities")
    check(r.returncode == 0 and "'inhibitions'" in r.stdout, "GetCapabilities should list inhibitions: %r" % r.stdout)
    first, cookie = inhibitor(t, env)
    second, other = inhibitor(t, env, app="org.kde.kdeconnect", reason="")
    check(cookie != other, "two inhibitions should get two cookies: %d %d" % (cookie, other))
    check(len(inhibitors(p)) == 2, "status should list both: %r" % inhibitors(p))
    # As KDE's server: an UnInhibit of a cookie that names nothing is no error.
    r = gdbus(t, env, "--method", "org.freedesktop.Notifications.UnInhibit", str(other + 1000))
    check(r.returncode == 0, "UnInhibit of an unknown cookie should not fail: %r" % r.stderr)
    check(len(inhibitors(p)) == 2, "an unknown cookie should change nothing: %r" % inhibitors(p))
    # Any caller may end an inhibition by its cookie, as under KDE.
    r = gdbus(t, env, "--method", "org.freedesktop.Notifications.UnInhibit", str(cookie))
    check(r.returncode == 0, "UnInhibit failed: %r" % r.stderr)
    check(inhibitors(p) == [{"app": "org.kde.kdeconnect", "reason": ""}],
          "UnInhibit should end that one only: %r" % inhibitors(p))
    check(inhibited(t, env), "still inhibited by the other")
    r = gdbus(t, env, "--method", "org.freedesktop.Notifications.UnInhibit", str(other))
    check(r.returncode == 0, "UnInhibit failed: %r" % r.stderr)
    check(inhibitors(p) == [] and not inhibited(t, env), "no inhibition should be left: %r" % inhibitors(p))
    check(first.poll() is None and second.poll() is None, "the callers are still there")
    # A caller that leaves at once (a bare `gdbus call`) ends its inhibition at once.
    r = gdbus(t, env, "--method", "org.freedesktop.Notifications.Inhibit", "gdbus", "just once", "{}")
    check(r.returncode == 0 and r.stdout.startswith("(uint32 "), "Inhibit failed: %r %r" % (r.stdout, r.stderr))
    ended, _ = poll(lambda: inhibitors(p) == [], 3.0, 0.05)
    check(ended, "the inhibition of a caller that left should end: %r" % inhibitors(p))
    first.kill()
    second.kill()


@test
def properties_changed_tells_inhibited(t):
    p, env = start(t)
    monitor = t.sway().popen(["gdbus", "monitor", "--session", "--dest", "org.freedesktop.Notifications"],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.5)
    caller, _ = inhibitor(t, env)
    # A second app inhibiting changes nothing the property says.
    other, _ = inhibitor(t, env, app="org.kde.kdeconnect")
    other.kill()
    caller.kill()
    caller.wait(5)
    ended, _ = poll(lambda: inhibitors(p) == [], 3.0, 0.05)
    check(ended, "the inhibitions should end with their callers: %r" % inhibitors(p))
    time.sleep(0.5)
    monitor.terminate()
    out = monitor.communicate(timeout=5)[0].decode()
    told = [line for line in out.splitlines() if "PropertiesChanged" in line]
    check(len(told) == 2 and "'Inhibited': <true>" in told[0] and "'Inhibited': <false>" in told[1]
          and all("('org.freedesktop.Notifications'," in line for line in told),
          "PropertiesChanged should tell Inhibited true, then false, once each; monitor saw:\n%s" % out)
