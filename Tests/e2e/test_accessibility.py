"""Perch's notifications as a screen reader gets them: a real AT-SPI stack
(at-spi2-core's launcher, accessibility bus and registry), a pyatspi
listener registered for the events a screen reader listens to, and
pyatspi walking and pressing Perch's objects (see a11y.py)."""

import json
import os
import subprocess
import threading
import time

import a11y
from harness import SWAY17, TestFailure, check, poll, test

COMPOSITORS = SWAY17
COMPOSITORS_WHY = "AT-SPI only: the tree is made from the service's model, not from the screen"

NOTIFY = ["--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications",
          "--method", "org.freedesktop.Notifications.Notify"]


def registered(stack, timeout=10.0):
    """Perch's application on the desktop (waits for its Embed)."""
    apps, _ = poll(lambda: stack.walk() or None, timeout, 0.2)
    check(apps, "Perch never appeared among the desktop's applications; perch log:\n%s" % stack.t.perch.log())
    return apps[0]


def showing(name):
    return lambda e: (e["type"] == "object:state-changed:showing" and e["detail1"] == 1
                      and e["role"] == "notification" and e["name"] == name)


def notify(t, stack, title, body, actions=(), replaces=0):
    """Notify over D-Bus (gdbus): returns the id."""
    array = "[%s]" % ", ".join("'%s'" % a for a in actions)
    r = t.sway().run(["gdbus", "call", "--session"] + NOTIFY + [
        "mail", str(replaces), "", title, body, array, "{}", "0"], env=stack.env)
    check(r.returncode == 0, "Notify failed: %s" % r.stderr)
    return int(r.stdout.strip().strip("(),").split()[-1].rstrip(","))


def dbus_ready(t, stack):
    from test_dbus import wait_for_name
    wait_for_name(t, stack.env, t.perch)


@test
def a_toast_is_a_notification_a_screen_reader_sees_showing(t):
    stack = a11y.start(t)
    events = stack.listen()
    p = stack.start_perch()
    registered(stack)
    sent = time.monotonic()
    p.post("Build finished", "<b>all</b> 212 tests &amp; lint green", urgency="critical", app="ci")
    e = events.wait(showing("Build finished"), 5.0, "NOTIFICATION showing")
    delay = e["t"] - sent
    t.notes.append("showing seen %.0f ms after the post" % (delay * 1000))
    print("    a11y: NOTIFICATION showing %.0f ms after perchctl post" % (delay * 1000))
    check(e["description"] == "all 212 tests & lint green",
          "the description should be the body as plain text, is %r" % e["description"])
    check(e["app"] == "Perch", "the event should come from the application Perch, came from %r" % e["app"])
    check(delay < 2.0, "showing was seen %.2f s after the post" % delay)
    added = events.wait(lambda e: e["type"].startswith("object:children-changed:add") and e["child"] == "Build finished",
                        2.0, "children-changed:add on the root")
    check(added["role"] == "application", "the toast should be added to the application, was to %r" % added["role"])
    app = registered(stack)
    toast = [c for c in app["children"] if c["role"] == "notification"]
    check(len(toast) == 1, "one NOTIFICATION should be under Perch: %s" % json.dumps(app))
    attrs = toast[0]["attributes"]
    check(attrs.get("app") == "ci" and attrs.get("urgency") == "critical" and attrs.get("live") == "assertive",
          "the toast's attributes should name the app, the urgency and an assertive live: %r" % attrs)
    check({"showing", "visible"} <= set(toast[0]["states"]), "the toast should be showing and visible: %r"
          % toast[0]["states"])


@test
def an_update_in_place_and_a_close_are_heard(t):
    stack = a11y.start(t)
    events = stack.listen()
    p = stack.start_perch()
    registered(stack)
    nid = p.post("Downloading", "10 %", timeout=0)
    events.wait(showing("Downloading"), 5.0, "NOTIFICATION showing")
    p.post("Downloaded", "report.pdf is ready", timeout=0, extra=["--replace", str(nid)])
    e = events.wait(lambda e: e["type"] == "object:property-change:accessible-name" and e["name"] == "Downloaded",
                    5.0, "accessible-name change")
    check(e["role"] == "notification", "the name change should be the notification's: %r" % e)
    e = events.wait(lambda e: e["type"] == "object:property-change:accessible-description"
                    and e["description"] == "report.pdf is ready", 5.0, "accessible-description change")
    app = registered(stack)
    names = [c["name"] for c in app["children"]]
    check(names == ["Downloaded"], "the updated toast should be the one object, is %r" % names)
    p.ctl_ok("dismiss", str(nid))
    events.wait(lambda e: e["type"] == "object:state-changed:showing" and e["detail1"] == 0, 5.0,
                "showing turning false")
    events.wait(lambda e: e["type"].startswith("object:children-changed:remove"), 5.0, "children-changed:remove")
    gone, _ = poll(lambda: not registered(stack)["children"], 3.0, 0.2)
    check(gone, "the closed toast should be gone from the tree: %s" % json.dumps(registered(stack)))


@test
def pressing_a_button_through_the_action_interface_invokes_it(t):
    stack = a11y.start(t)
    events = stack.listen()
    p = stack.start_perch()
    dbus_ready(t, stack)
    registered(stack)
    monitor = t.sway().popen(["dbus-monitor", "--session",
                              "type='signal',interface='org.freedesktop.Notifications',member='ActionInvoked'"],
                             env=stack.env, stdout=subprocess.PIPE, text=True)
    nid = notify(t, stack, "Incoming call", "from Ada", actions=["default", "Open", "accept", "Accept",
                                                                   "decline", "Decline"])
    events.wait(showing("Incoming call"), 5.0, "NOTIFICATION showing")
    app = registered(stack)
    children = app["children"][0]["children"]
    check([(c["role"], c["name"]) for c in children][:1] == [("label", "from Ada")],
          "the body should be a label under the toast: %r" % children)
    buttons = [(b["role"], b["name"], b["actions"]) for b in children if b["role"] != "label"]
    check(buttons == [("push button", "Accept", ["click"]), ("push button", "Decline", ["click"])],
          "the toast's buttons should be push buttons with a click action: %r" % buttons)
    check(app["children"][0]["actions"] == ["click"], "the toast itself should offer its default action")
    r = stack.press(["Incoming call", "Decline"])
    check(r["done"], "DoAction should succeed: %r" % r)
    lines = []
    threading.Thread(target=lambda: lines.extend(monitor.stdout), daemon=True).start()
    def invoked():
        text = "".join(lines)
        return 'string "decline"' in text and "uint32 %d" % nid in text
    ok, _ = poll(invoked, 5.0, 0.05)
    check(ok, "ActionInvoked(%d, decline) should be on the bus; dbus-monitor printed %r" % (nid, lines[-8:]))


@test
def the_center_is_a_list_a_screen_reader_can_walk(t):
    stack = a11y.start(t)
    p = stack.start_perch()
    registered(stack)
    p.post("First", "one", app="mail", extra=["--action", "reply=Reply"])
    gone = p.post("Second", "two", app="chat")
    p.ctl_ok("dismiss", str(gone))
    p.ctl_ok("mode", "add", "do-not-disturb")
    p.ctl_ok("center", "open")
    def panel():
        app = registered(stack)
        panels = [c for c in app["children"] if c["role"] == "panel"]
        return panels[0] if panels else None
    found, _ = poll(panel, 5.0, 0.2)
    check(found, "the open center should be a panel under Perch: %s" % json.dumps(registered(stack)))
    roles = [(c["role"], c["name"]) for c in found["children"]]
    check(roles == [("toggle button", "Do not disturb"), ("list", "Notifications")],
          "the panel should hold the do-not-disturb toggle and the list: %r" % roles)
    toggle, listing = found["children"]
    check("checked" in toggle["states"], "do-not-disturb is on: the toggle should be checked: %r" % toggle["states"])
    items = {(c["role"], c["name"]): c for c in listing["children"]}
    check(set(items) == {("list item", "First"), ("list item", "Second")},
          "the list should hold both entries: %r" % sorted(items))
    first = items[("list item", "First")]
    check(first["actions"] == ["click"] and [b["name"] for b in first["children"]] == ["Reply"],
          "the live entry should offer its action and its button: %r" % first)
    check(items[("list item", "Second")]["actions"] == [], "a history entry offers nothing to press")
    r = stack.press(["Notification center", "Do not disturb"])
    check(r["done"], "pressing the toggle should succeed")
    ok, _ = poll(lambda: "do-not-disturb" not in p.ctl_ok("mode"), 3.0, 0.1)
    check(ok, "pressing the toggle should turn do-not-disturb off; modes: %r" % p.ctl_ok("mode"))


@test
def with_accessibility_off_perch_stays_off_the_accessibility_bus_until_it_is_turned_on(t):
    stack = a11y.start(t, enabled=False)
    p = stack.start_perch()
    dbus_ready(t, stack)
    p.post("Unheard", "nobody listens")
    time.sleep(1.0)
    check(stack.walk() == [], "with accessibility off the registry should list no Perch")
    out = t.sway().run(["gdbus", "call", "--session", "--dest", "org.a11y.Bus", "--object-path", "/org/a11y/bus",
                        "--method", "org.a11y.Bus.GetAddress"], env=stack.env).stdout
    address = out.strip().strip("(),'")
    names = t.sway().run(["gdbus", "call", "--address", address, "--dest", "org.freedesktop.DBus",
                          "--object-path", "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.ListNames"],
                         env=stack.env).stdout
    pids = []
    for name in [n.strip(" '") for n in names.strip("()[],\n").split(",") if n.strip(" '").startswith(":")]:
        r = t.sway().run(["gdbus", "call", "--address", address, "--dest", "org.freedesktop.DBus",
                          "--object-path", "/org/freedesktop/DBus", "--method",
                          "org.freedesktop.DBus.GetConnectionUnixProcessID", name], env=stack.env)
        pids.append(r.stdout.strip())
    check(not any(str(p.proc.pid) in pid for pid in pids),
          "perch (pid %d) should have no connection on the accessibility bus: %r" % (p.proc.pid, pids))
    # Turned on while it runs: Perch follows the switch and registers.
    stack.status(True)
    app = registered(stack)
    check([c["name"] for c in app["children"]] == ["Unheard"],
          "once on, the tree should hold the toast on screen: %s" % json.dumps(app))
    # And off again: it leaves the registry.
    stack.status(False)
    ok, _ = poll(lambda: stack.walk() == [], 5.0, 0.2)
    check(ok, "turned off, Perch should leave the accessibility bus")


@test
def orca_speaks_the_title_and_body_of_a_new_toast(t):
    stack = a11y.start(t)
    p = stack.start_perch()
    registered(stack)
    orca = stack.orca()
    before = len(orca.spoken())
    p.post("Build finished", "all <i>two hundred</i> tests passed")
    def said():
        new = orca.spoken()[before:]
        return new if any("Build finished" in u for u in new) and any("two hundred tests passed" in u for u in new) else None
    new, _ = poll(said, 10.0, 0.1)
    check(new, "Orca should speak the toast's title and body; it said %r; its log ends:\n%s"
          % (orca.spoken()[before:], orca.log()[-1500:]))
    t.notes.append("orca said %r" % new)
    print("    a11y: Orca said %r" % new)


FLOOD = r'''
import json, socket, sys, threading
path, n = sys.argv[1], int(sys.argv[2])
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(path)
payload = b"".join(b'{"id":%d,"method":"notify","params":{"title":"Flood %d","body":"burst","timeout":60}}\n'
                   % (i, i) for i in range(n))
threading.Thread(target=lambda: s.sendall(payload), daemon=True).start()
# Replies only: the sender also hears its notifications' events (a
# collapsed one's dismissed at once, see max-burst).
data, replies = b"", 0
while replies < n:
    chunk = s.recv(1 << 20)
    if not chunk:
        break
    data += chunk
    replies = data.count(b'"result"') + data.count(b'"error"')
ids = [json.loads(l).get("result", {}).get("id") for l in data.splitlines() if b'"event"' not in l]
print(json.dumps({"ids": len([i for i in ids if isinstance(i, int)])}))
'''


def accessibility_warnings(p):
    return [l for l in p.log().splitlines() if "warning: accessibility" in l]


@test
def a_flood_of_ten_thousand_tells_the_screen_reader_only_what_is_on_screen(t):
    stack = a11y.start(t)
    events = stack.listen()
    p = stack.start_perch()
    registered(stack)
    n = 10000
    r = t.sway().run([a11y.python3(), "-c", FLOOD, p.socket_path, str(n)], env=stack.env, timeout=120)
    check(r.returncode == 0, "the flood client failed: %s" % r.stderr[-500:])
    check(json.loads(r.stdout)["ids"] == n, "every notify should get an id: %s" % r.stdout)
    seen = events.drain(settle=1.0)
    shown = [e for e in seen if e["type"] == "object:state-changed:showing" and e["role"] == "notification"]
    visible = [c for c in registered(stack)["children"] if c["role"] == "notification"]
    summary = "%d events for %d posts; %d toasts seen showing; %d in the tree" % (len(seen), n, len(shown), len(visible))
    t.notes.append(summary)
    print("    a11y flood: " + summary)
    check(visible and len(shown) == len(visible),
          "only the toasts on screen should be told of, once each: %s" % summary)
    check(len(seen) <= 4 * len(visible) + 4, "a flood should not flood the accessibility bus: %s" % summary)


def pids_of(t, needle):
    r = t.sway().run(["ps", "-u", t.sway().user, "-o", "pid=,args="])
    return [int(l.split()[0]) for l in r.stdout.splitlines() if needle in l]


@test
def a_hung_accessibility_stack_never_stops_perch_and_costs_one_warning(t):
    import signal
    stack = a11y.start(t)
    # The launcher hangs: org.a11y.Status is never answered.
    launcher = pids_of(t, a11y.LAUNCHER)
    check(launcher, "no launcher process")
    for pid in launcher:
        os.kill(pid, signal.SIGSTOP)
    try:
        p = stack.start_perch()
        for i in range(5):
            p.post("While the launcher hangs %d" % i)
        check(len(p.list()) == 5, "perch should serve while the launcher hangs")
        ok, _ = poll(lambda: accessibility_warnings(p), 8.0, 0.2)
        check(ok, "a status query that times out should be told; log:\n%s" % p.log())
        time.sleep(1.0)
        check(len(accessibility_warnings(p)) == 1, "one warning for the episode: %r" % accessibility_warnings(p))
    finally:
        for pid in launcher:
            os.kill(pid, signal.SIGCONT)


@test
def a_stopped_accessibility_bus_never_stops_perch(t):
    import signal
    stack = a11y.start(t)
    # 61 from one app: none may collapse (max-burst), so that "Still here"
    # is a toast of its own.
    p = stack.start_perch(args=["--max-burst", "0"])
    registered(stack)
    bus = pids_of(t, "accessibility.conf")
    check(bus, "no accessibility bus process")
    for pid in bus:
        os.kill(pid, signal.SIGSTOP)
    try:
        # Short-lived toasts: each one shown and gone is events perch
        # cannot deliver while the bus sleeps.
        for i in range(60):
            p.post("Into the void %d" % i, "x" * 2000, timeout=0.05)
        check(p.ctl("status").returncode == 0, "perch should answer while the accessibility bus is stopped")
        check(len(accessibility_warnings(p)) <= 1, "at most one warning: %r" % accessibility_warnings(p))
    finally:
        for pid in bus:
            os.kill(pid, signal.SIGCONT)
    # Woken, the bus delivers what waited, and the tree follows the screen.
    p.ctl_ok("dismiss", "--all")
    p.post("Still here", timeout=0)
    ok, _ = poll(lambda: [c["name"] for c in registered(stack)["children"]] == ["Still here"], 10.0, 0.3)
    check(ok, "after the bus wakes, the tree should hold what is on screen: %s" % json.dumps(registered(stack)))
    check(len(accessibility_warnings(p)) <= 1, "at most one warning: %r" % accessibility_warnings(p))
