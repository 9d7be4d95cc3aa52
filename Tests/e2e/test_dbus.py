"""The freedesktop notification server on a real session bus: notify-send,
gdbus, signals, and bad calls."""

import json
import os
import subprocess
import time

from harness import (CARD_FILL, CARD_LEFT, MARGIN, TestFailure, check, poll, roughly, runs_in_column,
                     runs_in_row, test)
from pointer import pointer
from harness import ALL, SWAY17

# Which compositors these tests run on (harness.test).
COMPOSITORS = SWAY17
COMPOSITORS_WHY = "D-Bus only"

X_PROBE = CARD_LEFT + 130
DEST = ["--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications"]


# A session bus with no service directories: nothing is started by
# activation, so a call to a name no one owns gets ServiceUnknown at once
# (with Debian's session.conf, a call in such a moment starts whichever
# daemon's service file is installed: dunst's, mako's). The limits are
# session.conf's: "essentially infinite".
BUS_WITHOUT_ACTIVATION = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
  <limit name="max_incoming_bytes">1000000000</limit>
  <limit name="max_outgoing_bytes">1000000000</limit>
  <limit name="max_message_size">1000000000</limit>
  <limit name="max_replies_per_connection">50000</limit>
  <limit name="max_match_rules_per_connection">50000</limit>
</busconfig>
"""


def start_bus(t, activation=True):
    """A private dbus-daemon for the session user; returns its address.
    `activation=False`: one with no service directories (see
    BUS_WITHOUT_ACTIVATION)."""
    s = t.sway()
    config = ["--session"]
    if not activation:
        path = os.path.join(t.user_dir(), "bus.conf")
        with open(path, "w") as f:
            f.write(BUS_WITHOUT_ACTIVATION)
        os.chmod(path, 0o644)
        config = ["--config-file=%s" % path]
    proc = s.popen(["dbus-daemon"] + config + ["--nofork", "--print-address=1", "--nopidfile"],
                   env=s.env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    address = proc.stdout.readline().decode().strip()
    check(address.startswith("unix:"), "dbus-daemon did not print an address: %r" % address)
    t.notes.append("bus %s" % address)
    return address


def name_owned(t, env, name="org.freedesktop.Notifications"):
    """Whether `name` has an owner, asked of the bus itself. A call to the
    name would do instead only once it is owned: a moment before, with
    Debian's session.conf, it starts whichever notification daemon's
    service file is installed (dunst's), which then holds the name."""
    r = t.sway().run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path",
                      "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.NameHasOwner", name],
                     env=env, timeout=5)
    return r.stdout.strip() == "(true,)"


def wait_for_name(t, env, p, timeout=5.0):
    """Waits until Perch `p` owns org.freedesktop.Notifications (it asks
    for the name after its control socket is up)."""
    ok, _ = poll(lambda: name_owned(t, env) or None, timeout, 0.05)
    check(ok, "perch did not take org.freedesktop.Notifications; log:\n%s" % p.log()[-1500:])


def start(t, args=(), extra_env=None, activation=True):
    """A private session bus and perch on it (with `extra_env` in its
    environment); returns (perch, the environment of the bus's clients).
    `activation` as for start_bus."""
    address = start_bus(t, activation)
    s = t.sway()
    env = s.env(DBUS_SESSION_BUS_ADDRESS=address, **(extra_env or {}))
    from harness import Perch
    import os as _os
    p = Perch(s, t.bindir, _os.path.join(t.tmp, "perch.log"), env=env, args=list(args))
    t.perch = p
    p.wait_ready()
    wait_for_name(t, env, p)
    return p, env


def gdbus(t, env, *args, timeout=5):
    return t.sway().run(["gdbus", "call", "--session"] + DEST + list(args), env=env, timeout=timeout)


def card_at_rest(t, count=1, timeout=4.0):
    def probe():
        img = t.screenshot()
        runs = runs_in_column(img, X_PROBE)
        if len(runs) != count or runs[0][0] != MARGIN:
            return None
        rows = [runs_in_row(img, (a + b) // 2, CARD_LEFT - 40) for a, b in runs]
        return runs if all(r and r[0][0] == CARD_LEFT for r in rows) else None
    runs, _ = poll(probe, timeout, 0.05)
    check(runs, "no card came to rest at top-right: %s" % runs_in_column(t.shots[-1][1], X_PROBE))
    return runs


@test(compositors=ALL)
def notify_send_shows_a_toast(t):
    p, env = start(t)
    r = t.sway().run(["notify-send", "-a", "mail", "Hello over D-Bus", "sent with notify-send"], env=env)
    check(r.returncode == 0, "notify-send failed: %r" % r.stderr)
    card_at_rest(t)
    items = p.list()
    check(len(items) == 1 and items[0]["title"] == "Hello over D-Bus" and items[0]["app"] == "mail",
          "list should show the D-Bus notification: %r" % items)


@test
def capabilities_and_server_information(t):
    p, env = start(t)
    r = gdbus(t, env, "--method", "org.freedesktop.Notifications.GetCapabilities")
    check(r.returncode == 0 and "'actions'" in r.stdout and "'body'" in r.stdout,
          "GetCapabilities: %r %r" % (r.stdout, r.stderr))
    r = gdbus(t, env, "--method", "org.freedesktop.Notifications.GetServerInformation")
    check(r.returncode == 0 and "'Perch'" in r.stdout and "'1.2'" in r.stdout,
          "GetServerInformation: %r %r" % (r.stdout, r.stderr))


@test
def close_notification_emits_notification_closed_with_reason_3(t):
    p, env = start(t)
    r = gdbus(t, env, "--method", "org.freedesktop.Notifications.Notify", "app", "0", "", "Closing soon", "",
              "[]", "{}", "0")
    check(r.returncode == 0, "Notify failed: %r" % r.stderr)
    nid = int(r.stdout.strip().strip("(),").split()[-1])
    monitor = t.sway().popen(["gdbus", "monitor", "--session", "--dest", "org.freedesktop.Notifications"],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.5)
    r = gdbus(t, env, "--method", "org.freedesktop.Notifications.CloseNotification", str(nid))
    check(r.returncode == 0, "CloseNotification failed: %r" % r.stderr)
    time.sleep(1.0)
    monitor.terminate()
    out = monitor.communicate(timeout=5)[0].decode()
    check("NotificationClosed (uint32 %d, uint32 3)" % nid in out,
          "expected NotificationClosed(%d, 3) on the bus; monitor saw:\n%s" % (nid, out))


@test(compositors=ALL)
def notify_send_wait_prints_the_clicked_action(t):
    p, env = start(t)
    waiter = t.sway().popen(["notify-send", "--wait", "--action=yes=Yes", "--action=no=No", "Question", "Yes?"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    card = card_at_rest(t)[0]
    img = t.shots[-1][1]
    y = card[1] - 10 - 12
    xs = [x for x in range(CARD_LEFT + 4, CARD_LEFT + 150) if not roughly(img.pixel(x, y), CARD_FILL, tol=8)]
    check(xs, "no button pixels on the card's bottom row y=%d" % y)
    pointer(t.sway(), t.bindir, "sleep", "0.3", "move", xs[0] + 20, y, "sleep", "0.1", "click", "left")
    try:
        out, err = waiter.communicate(timeout=6)
    except subprocess.TimeoutExpired:
        waiter.kill()
        raise TestFailure("notify-send --wait did not return after the Yes button was clicked")
    check(out.decode().strip() == "yes", "notify-send --wait should print 'yes', printed %r (stderr %r)"
          % (out, err))


@test(compositors=ALL)
def replaces_id_updates_in_place(t):
    p, env = start(t)
    r = t.sway().run(["notify-send", "--print-id", "Downloading", "10 %"], env=env)
    nid = int(r.stdout.strip())
    card_at_rest(t)
    r = t.sway().run(["notify-send", "--print-id", "-r", str(nid), "Downloading", "90 %"], env=env)
    check(int(r.stdout.strip()) == nid, "a replacement should keep id %d, got %r" % (nid, r.stdout))
    items = p.list()
    check(len(items) == 1 and items[0]["body"] == "90 %", "the notification should be updated in place: %r" % items)


@test
def bad_dbus_calls_get_errors_and_the_server_keeps_serving(t):
    p, env = start(t)
    # Wrong signature (dbus-send sends exactly what it is told).
    r = t.sway().run(["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.Notifications",
                      "/org/freedesktop/Notifications", "org.freedesktop.Notifications.Notify",
                      "string:only-one-argument"], env=env)
    check(r.returncode != 0 and "InvalidArgs" in (r.stderr + r.stdout),
          "a wrong signature should get an InvalidArgs error: %r %r" % (r.stdout, r.stderr))
    # An odd action list: the complete pairs are kept, the rest logged.
    r = gdbus(t, env, "--method", "org.freedesktop.Notifications.Notify", "app", "0", "", "Odd", "",
              "['default', 'Open', 'orphan']", "{}", "0")
    check(r.returncode == 0, "an odd action list should still post the notification: %r" % r.stderr)
    odd = [n for n in p.list() if n["title"] == "Odd"]
    check(odd and [a["id"] for a in odd[0].get("actions", [])] == ["default"],
          "the odd action list should keep its complete pair: %r" % odd)
    # Broken image-data: rowstride does not match, and absurd dimensions.
    for w, h, stride in ((64, 64, 10), (100000, 100000, 400000)):
        r = gdbus(t, env, "--method", "org.freedesktop.Notifications.Notify", "app", "0", "", "Image", "",
                  "[]", "{'image-data': <(%d, %d, %d, true, 8, 4, [byte 0, 1, 2, 3])>}" % (w, h, stride), "0")
        check(r.returncode == 0, "a broken image should fall back to no image, not fail: %r" % r.stderr)
    # A long body (argv caps a string at 128 KiB; PerchBus's own tests send
    # 1 MB on a direct connection) and invalid markup.
    big = "x" * 100000
    r = gdbus(t, env, "--method", "org.freedesktop.Notifications.Notify", "app", "0", "", "Big", big,
              "[]", "{}", "0", timeout=10)
    check(r.returncode == 0, "a 100 kB body should be accepted: %r" % r.stderr[:200])
    r = gdbus(t, env, "--method", "org.freedesktop.Notifications.Notify", "app", "0", "", "Markup",
              "<b>unclosed <i>tags", "[]", "{}", "0")
    check(r.returncode == 0, "invalid markup should be accepted: %r" % r.stderr)
    check(p.proc.poll() is None, "perch died")
    r = gdbus(t, env, "--method", "org.freedesktop.Notifications.GetServerInformation")
    check(r.returncode == 0, "the server should still answer: %r" % r.stderr)


@test
def bad_markup_is_told_once_however_often_the_toast_is_drawn(t):
    p, env = start(t)
    r = gdbus(t, env, "--method", "org.freedesktop.Notifications.Notify", "app", "0", "", "Markup",
              "fish & chips <span foreground='nocolour'>red</span>", "[]", "{}", "0")
    check(r.returncode == 0, "invalid markup should be accepted: %r" % r.stderr)
    shown, _ = poll(lambda: runs_in_column(t.screenshot(), CARD_LEFT + 20) != [], 3.0, 0.1)
    check(shown, "the toast should be on screen")
    # Hovered and left: drawn again twice (the hover highlight on and off).
    pointer(t.sway(), t.bindir, "move", CARD_LEFT + 40, MARGIN + 20, "sleep", "0.3", "move", 200, 600, "sleep", "0.3")
    told = [line for line in p.log().splitlines() if "markup:" in line]
    check(len(told) == 1, "the bad markup should be told once, was told %d times: %r" % (len(told), told))


@test
def another_owner_of_the_name_makes_perch_exit_3(t):
    p, env = start(t)
    from harness import Perch
    second = Perch(t.sway(), t.bindir, os.path.join(t.tmp, "perch2.log"),
                   env=dict(env, WAYLAND_DISPLAY=os.path.join(env["XDG_RUNTIME_DIR"], env["WAYLAND_DISPLAY"]),
                            XDG_RUNTIME_DIR=t.user_dir()))
    rc = second.wait_exit(10)
    check(rc == 3, "a second perch on the same bus should exit 3, exited %r; log: %s" % (rc, second.log()))
    check("org.freedesktop.Notifications" in second.log(), "it should say which name is taken: %s" % second.log())


@test(compositors=ALL)
def image_data_is_drawn_as_the_icon_and_value_as_a_progress_bar(t):
    p, env = start(t)
    # Debian's python3-dbus sends the (iiibiiay) struct as a real client would.
    code = (
        "import dbus\n"
        "bus = dbus.SessionBus()\n"
        "n = dbus.Interface(bus.get_object('org.freedesktop.Notifications', '/org/freedesktop/Notifications'),"
        " 'org.freedesktop.Notifications')\n"
        "pixels = dbus.ByteArray(bytes([255, 0, 0, 255]) * (64 * 64))\n"
        "image = dbus.Struct((64, 64, 256, True, 8, 4, pixels), signature='iiibiiay')\n"
        "print(n.Notify('app', 0, '', 'With an image', 'and a progress bar', [],"
        " {'image-data': image, 'value': dbus.Int32(40)}, 0))\n")
    r = t.sway().run(["/usr/bin/python3", "-c", code], env=env, timeout=20)
    check(r.returncode == 0, "Notify with image-data failed: %r" % r.stderr[:300])
    card = card_at_rest(t)[0]
    img = t.shots[-1][1]
    # The icon sits at the top-left inside the padding: 32 px, red.
    icon = img.pixel(CARD_LEFT + 10 + 16, card[0] + 10 + 16)
    check(icon[0] > 200 and icon[1] < 60 and icon[2] < 60, "the image-data icon should be red, is %s" % (icon,))
    # The bar: a row near the bottom whose left part is brighter than its right part.
    found = False
    for y in range(card[1] - 4, card[0] + 30, -1):
        left = img.pixel(CARD_LEFT + 20, y)
        right = img.pixel(CARD_LEFT + 270, y)
        if sum(left) > sum(right) + 150 and sum(right) > sum(CARD_FILL) + 5:
            found = True
            break
    check(found, "no progress bar (a 40 %% filled track) found on the card %s" % (card,))


@test
def dunstify_replace_id_updates_one_toast(t):
    """Scripts written for dunst post with `dunstify -r ID` on every key
    press: the first call names an id no notification has yet, and each
    later call must replace that toast rather than stack another."""
    p, env = start(t)
    s = t.sway()
    r = s.run(["dunstify", "-p", "-r", "777", "-t", "0", "Replace me", "first"], env=env)
    check(r.returncode == 0 and r.stdout.strip() == "777",
          "dunstify -p -r 777 should print the id it asked for, 777: %r %r" % (r.stdout, r.stderr))
    card_at_rest(t)
    r = s.run(["dunstify", "-p", "-r", "777", "-t", "0", "Replace me", "second"], env=env)
    check(r.returncode == 0 and r.stdout.strip() == "777",
          "the second dunstify -r 777 should replace 777 and print it: %r %r" % (r.stdout, r.stderr))
    time.sleep(0.5)
    runs = card_at_rest(t, count=1)
    check(len(runs) == 1, "two dunstify -r 777 calls should leave one toast, the screen shows %d" % len(runs))
    items = p.list()
    check([(n["id"], n["body"]) for n in items] == [(777, "second")],
          "list should hold one notification, 777 with the second body: %r" % items)
    # The counter moved past the chosen id; a volume key's press after the
    # toast was dismissed gets its id again, and history keeps one 777.
    r = s.run(["notify-send", "-p", "Another"], env=env)
    check(r.returncode == 0 and r.stdout.strip() == "778",
          "the next id handed out should be 778, past the chosen 777: %r %r" % (r.stdout, r.stderr))
    p.ctl_ok("dismiss", "777")
    gone, _ = poll(lambda: all(n["id"] != 777 for n in p.list()), 3.0, 0.1)
    check(gone, "777 still listed after perchctl dismiss 777: %r" % p.list())
    r = s.run(["dunstify", "-p", "-r", "777", "-t", "0", "Replace me", "third"], env=env)
    check(r.returncode == 0 and r.stdout.strip() == "777",
          "a press after the dismissal should get 777 again: %r %r" % (r.stdout, r.stderr))
    history = json.loads(p.ctl_ok("history", "--json"))
    ids = [e["notification"]["id"] for e in history]
    check(777 not in ids, "history should not hold a second notification 777 while 777 is live: %r" % history)


@test
def a_replacement_is_told_to_watchers_as_updated(t):
    """notify-send -r (libnotify's test-replace does the same): the toast is
    updated in place, and `perchctl watch` (what a bar module runs) gets an
    `updated` event with the new text."""
    p, env = start(t)
    s = t.sway()
    watch = s.popen([os.path.join(t.bindir, "perchctl"), "watch"], env=p.env,
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        time.sleep(0.5)
        r = s.run(["notify-send", "-p", "-t", "0", "Download", "10%"], env=env)
        check(r.returncode == 0, "notify-send failed: %r" % r.stderr)
        nid = int(r.stdout.strip())
        card_at_rest(t)
        r = s.run(["notify-send", "-r", str(nid), "-t", "0", "Download", "90%"], env=env)
        check(r.returncode == 0, "notify-send -r failed: %r" % r.stderr)
        def shows_new_body():
            items = p.list()
            return len(items) == 1 and items[0]["body"] == "90%"
        ok, _ = poll(shows_new_body, 3.0, 0.1)
        check(ok, "the replacement should leave one notification with body 90%%: %r" % p.list())
        time.sleep(0.5)
    finally:
        watch.terminate()
    out = watch.communicate(timeout=5)[0].decode()
    events = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    updated = [e for e in events if e.get("event") == "updated"]
    check(len(updated) == 1 and updated[0]["notification"]["id"] == nid
          and updated[0]["notification"]["body"] == "90%",
          "perchctl watch should print one updated event for %d with body 90%%; it printed:\n%s" % (nid, out))
    check(not any(e.get("event") == "queued" and e["notification"]["body"] == "90%" for e in events),
          "the replacement is not a new notification, yet watch printed queued for it:\n%s" % out)


# Notify calls whose strings hold Unicode noncharacters, by python3-dbus
# (busctl refuses to send them; libdbus and dbus-daemon follow the
# specification, which allows them), between two good ones. Prints, as
# JSON, the good ids and each bad call's error (name, message).
NONCHARACTERS = r"""
import json
import dbus
bus = dbus.SessionBus()
n = dbus.Interface(bus.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
                   "org.freedesktop.Notifications")
def notify(app="app", summary="Good", body="", actions=(), hints=None):
    return int(n.Notify(app, dbus.UInt32(0), "", summary, body, dbus.Array(actions, signature="s"),
                        dbus.Dictionary(hints or {}, signature="sv"), dbus.Int32(0)))
first = notify(summary="Before")
refused = {}
for what, kwargs in (("summary", dict(summary="Hello \ufffe")),
                     ("body", dict(body="a body \uffff")),
                     ("app_name", dict(app="Mail\ufdd0")),
                     ("action", dict(actions=["default", "Open \U0010ffff"])),
                     ("hint", dict(hints={"category": dbus.String("im\ufdef")}))):
    try:
        refused[what] = ["answered", notify(**kwargs)]
    except dbus.exceptions.DBusException as e:
        refused[what] = [e.get_dbus_name(), e.get_dbus_message()]
print(json.dumps({"first": first, "refused": refused, "after": notify(summary="After")}))
"""


@test
def a_noncharacter_in_a_notify_string_is_refused_naming_the_argument_and_nothing_else_changes(t):
    """Issue 38, item 5: sd-bus refuses strings with Unicode noncharacters
    (U+FFFE, U+FFFF, U+FDD0–U+FDEF, U+10FFFF…) that D-Bus allows. The
    caller is told which argument and why; no toast, no id spent, one log
    line per call at most, and the next Notify is served."""
    p, env = start(t)
    r = t.sway().run(["/usr/bin/python3", "-c", NONCHARACTERS], env=env, timeout=20)
    check(r.returncode == 0, "the python3-dbus client failed: %s" % r.stderr[-1500:])
    res = json.loads(r.stdout.strip().splitlines()[-1])
    t.notes.append("refused: %s" % json.dumps(res["refused"], ensure_ascii=False))
    said = {"summary": "the summary holds a Unicode noncharacter",
            "body": "the body holds a Unicode noncharacter",
            "app_name": "the app_name holds a Unicode noncharacter",
            "action": "actions[1] (the label of action 1) holds a Unicode noncharacter",
            "hint": 'the value of hint "category" holds a Unicode noncharacter'}
    for what, start_of_message in said.items():
        name, message = res["refused"][what]
        check(name == "org.freedesktop.DBus.Error.InvalidArgs",
              "a noncharacter in the %s should get InvalidArgs, got %s: %r" % (what, name, message))
        check(message.startswith(start_of_message) and "sd-bus" in message,
              "the error for the %s should say %r and that sd-bus refuses it; it says %r"
              % (what, start_of_message, message))
    check(res["after"] == res["first"] + 1,
          "the refused calls should spend no id: %d, then %d" % (res["first"], res["after"]))
    items = p.list()
    check([(n["id"], n["title"]) for n in items] == [(res["first"], "Before"), (res["after"], "After")],
          "only the two good notifications should be there: %r" % [(n["id"], n["title"]) for n in items])
    card_at_rest(t, count=2)
    told = [line for line in p.log().splitlines() if "refused" in line]
    check(len(told) <= len(said) and all("noncharacter" in line for line in told),
          "at most one log line per refused call: %r" % told)
    # The control socket takes the same text (docs/protocol.md).
    nid = p.post("Hello \ufffe", "plane 16's last \U0010ffff")
    posted = [(n["title"], n["body"]) for n in p.list() if n["id"] == nid]
    check(posted == [("Hello \ufffe", "plane 16's last \U0010ffff")],
          "the control socket should take noncharacters as they are: %r" % posted)
    check(p.proc.poll() is None, "perch died")
