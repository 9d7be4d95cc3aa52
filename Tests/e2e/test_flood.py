"""Floods that never end (issue 29, item 4): an app's burst collapses into
one count toast, what waits off screen is bounded by max-queued, the
rest is in history, and the daemon keeps answering."""

import json

from harness import CARD_LEFT, MARGIN, check, poll, python3, runs_in_column, runs_in_row, test
from pointer import pointer
import test_dbus

X_PROBE = CARD_LEFT + 130

# Posts argv[2] notifications from app argv[3] on one connection, written
# back to back, and prints the ids the replies gave.
SOCKET_FLOOD = r'''
import json, socket, sys, threading
path, n, app = sys.argv[1], int(sys.argv[2]), sys.argv[3]
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(60)
s.connect(path)
payload = b"".join(json.dumps({"id": i, "method": "notify",
                               "params": {"app": app, "title": "%s %d" % (app, i), "body": "message %d" % i,
                                          "timeout": 60}}).encode() + b"\n" for i in range(n))
threading.Thread(target=lambda: s.sendall(payload), daemon=True).start()
# The sender also hears its notifications' events on this connection.
data, replies = b"", 0
while replies < n:
    chunk = s.recv(1 << 20)
    if not chunk:
        break
    data += chunk
    replies = data.count(b'"result"')
ids = [json.loads(l)["result"].get("id") for l in data.splitlines() if b'"result"' in l]
print(json.dumps({"ids": ids}))
'''

# Sends argv[1] Notify calls (from apps argv[2], a comma list, in turn) as
# async calls from one process, waits for every reply and for the
# NotificationClosed signals that follow, and prints both.
DBUS_FLOOD = r'''
import json, sys
import dbus, dbus.mainloop.glib
from gi.repository import GLib
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
n, apps = int(sys.argv[1]), sys.argv[2].split(",")
bus = dbus.SessionBus()
closed, ids, errors = {}, [], []
bus.add_signal_receiver(lambda i, r: closed.__setitem__(int(i), int(r)), "NotificationClosed",
                        "org.freedesktop.Notifications", None, "/org/freedesktop/Notifications")
loop = GLib.MainLoop()
left = [n]
def done():
    left[0] -= 1
    if not left[0]:
        GLib.timeout_add(1500, loop.quit)  # the signals of the last turns
for i in range(n):
    app = apps[i % len(apps)]
    bus.call_async("org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                   "org.freedesktop.Notifications", "Notify", "susssasa{sv}i",
                   (app, dbus.UInt32(0), "", "%s %d" % (app, i), "over D-Bus", dbus.Array([], signature="s"),
                    dbus.Dictionary({}, signature="sv"), dbus.Int32(0)),
                   lambda r: (ids.append(int(r)), done()), lambda e: (errors.append(str(e)), done()), timeout=60)
GLib.timeout_add(90000, loop.quit)
loop.run()
print(json.dumps({"ids": ids, "errors": errors[:3], "closed": closed}))
'''


def socket_flood(p, n, app):
    r = p.session.run([python3(), "-c", SOCKET_FLOOD, p.socket_path, str(n), app], env=p.env, timeout=90)
    check(r.returncode == 0, "the socket flood failed (%d): %s" % (r.returncode, r.stderr[-2000:]))
    ids = json.loads(r.stdout)["ids"]
    check(len(ids) == n and all(isinstance(i, int) and i > 0 for i in ids) and len(set(ids)) == n,
          "every one of %d posts should get its own id: %d replies, %d distinct"
          % (n, len(ids), len(set(i for i in ids if isinstance(i, int)))))
    return ids


def status(p):
    return json.loads(p.ctl_ok("status", "--json"))


def history(p):
    return json.loads(p.ctl_ok("history", "--json"))


def count_toast(p, app):
    """The live notification titled after `app` whose body counts ("N more")."""
    for n in p.list():
        if n.get("app") == app and n.get("title") == app and str(n.get("body", "")).endswith(" more"):
            return n
    return None


@test
def three_hundred_posts_from_one_app_collapse_into_one_count_toast(t):
    p = t.start_perch()
    ids = socket_flood(p, 300, "Chat")
    st = status(p)
    check(st["shown"] + st["queued"] <= 5 + 20,
          "at most max-visible shown and max-queued waiting after a flood, status says %d shown, %d queued"
          % (st["shown"], st["queued"]))
    counted, _ = poll(lambda: count_toast(p, "Chat"), 3.0, 0.1)
    check(counted, "a toast should count the collapsed ones; list: %r" % [(n["title"], n["body"]) for n in p.list()][:12])
    check(counted["body"] == "290 more", "the count toast should say 290 more (10 shown or queued), says %r"
          % counted["body"])
    check(counted["id"] not in ids, "the count toast is Perch's own, not one of the posted ids")
    live = [n["id"] for n in p.list() if n["id"] != counted["id"]]
    check(live == ids[:10], "the first 10 (max-burst) should be live, are %r" % live)
    hist = history(p)
    check(len(hist) == 50, "history should hold its limit (50) of the collapsed ones, holds %d" % len(hist))
    check([e["notification"]["id"] for e in hist] == ids[-50:] or
          sorted(e["notification"]["id"] for e in hist) == sorted(ids[-50:]),
          "history should hold the newest 50 collapsed ones")
    check(all(e["reason"] == "suppressed" for e in hist), "collapsed ones are suppressed: %r"
          % sorted(set(e["reason"] for e in hist)))
    # Still answering, and the flood is over: one more from Chat is counted.
    p.post("after", app="Chat")
    again, _ = poll(lambda: (count_toast(p, "Chat") or {}).get("body") == "291 more", 3.0, 0.1)
    check(again, "the count toast should be updated in place to 291 more: %r" % count_toast(p, "Chat"))
    check(count_toast(p, "Chat")["id"] == counted["id"], "updated in place: the same id")
    check(p.proc.poll() is None, "perch exited (%s)" % p.proc.poll())


@test
def a_dbus_flood_waits_at_most_max_queued_and_the_rest_closes_with_reason_4(t):
    # Each from an app of its own: no app's burst collapses, so the
    # queue's own bound is what acts.
    p, env = test_dbus.start(t)
    n = 300
    apps = ",".join("App%d" % i for i in range(n))
    r = p.session.run([python3(), "-c", DBUS_FLOOD, str(n), apps], env=env, timeout=120)
    check(r.returncode == 0, "the D-Bus flood failed (%d): %s" % (r.returncode, r.stderr[-2000:]))
    res = json.loads(r.stdout)
    ids, closed = res["ids"], {int(k): v for k, v in res["closed"].items()}
    check(len(ids) == n and len(set(ids)) == n and not res["errors"],
          "every Notify should get its own id: %d ids, errors %r" % (len(set(ids)), res["errors"]))
    st = status(p)
    check(st["shown"] == 5 and st["queued"] == 20,
          "5 shown and max-queued (20) waiting, status says %d shown, %d queued" % (st["shown"], st["queued"]))
    live = [x["id"] for x in p.list()]
    check(len(live) == 25 and set(ids[-20:]) <= set(live),
          "5 on screen and the newest 20 waiting should be live: %d live, %d of the newest 20"
          % (len(live), len(set(ids[-20:]) & set(live))))
    pushed = [i for i in ids if i not in live]
    check(all(closed.get(i) == 4 for i in pushed),
          "each of the %d pushed out should get NotificationClosed reason 4: %d did, reasons seen %r"
          % (len(pushed), sum(1 for i in pushed if closed.get(i) == 4), sorted(set(closed.values()))))
    hist = history(p)
    check(sorted(e["notification"]["id"] for e in hist) == sorted(pushed[-50:]),
          "history should hold the newest 50 pushed out")
    check(p.proc.poll() is None, "perch exited (%s)" % p.proc.poll())


def card_runs(t):
    img = t.screenshot()
    runs = runs_in_column(img, X_PROBE)
    rows = [runs_in_row(img, (a + b) // 2, CARD_LEFT - 40) for a, b in runs]
    return runs if runs and runs[0][0] == MARGIN and all(r and r[0][0] == CARD_LEFT for r in rows) else None


@test
def the_count_toast_comes_on_screen_and_a_click_dismisses_it(t):
    p = t.start_perch()
    # Ten that leave quickly, then five more from the same app within the
    # burst-window: those five collapse into the count toast, which is
    # alone on screen once the ten have gone.
    for i in range(10):
        p.post("Quick %d" % i, "gone in a second", timeout=1, app="Chat")
    later = [p.post("Later %d" % i, "stays 30 s", timeout=30, app="Chat") for i in range(5)]

    def alone():
        live = p.list()
        runs = card_runs(t)
        return (live, runs) if len(live) == 1 and runs and len(runs) == 1 else None
    got, _ = poll(alone, 10.0, 0.1)
    check(got, "the count toast should end up alone on screen; list %r, cards %r"
          % ([(n["title"], n.get("body")) for n in p.list()], runs_in_column(t.shots[-1][1], X_PROBE)))
    live, runs = got
    check(live[0]["title"] == "Chat" and live[0]["body"] == "5 more", "it should say Chat, 5 more: %r" % live[0])
    hist_ids = [e["notification"]["id"] for e in history(p)]
    check(all(i in hist_ids for i in later), "the five collapsed are in history: %r" % hist_ids)
    top, bottom = runs[0]
    pointer(p.session, t.bindir, "sleep", "0.3", "move", X_PROBE, (top + bottom) // 2, "sleep", "0.1",
            "click", "left")
    gone, _ = poll(lambda: not p.list() and not runs_in_column(t.screenshot(), X_PROBE), 3.0, 0.1)
    check(gone, "a click should dismiss the count toast; list %r" % p.list())
    check(not any(e["notification"]["title"] == "Chat" and e["notification"]["body"].endswith(" more")
                  for e in history(p)), "the count toast itself is not kept in history")
