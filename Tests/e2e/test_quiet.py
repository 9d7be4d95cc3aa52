"""The desktop's quiet (issue 42, items 3-6): do-not-disturb for a while,
snooze, apps muted or let through, and the summary of what was missed —
through perchctl as a user types it, checked on screen (grim), in the
daemon's answers, and across a restart (the choices are kept in the state
directory as `quiet`; ends are wall-clock times)."""

import json
import os
import time

from harness import SWAY17, check, find_card, poll, test
from test_persistence import ok, restart

COMPOSITORS = SWAY17
COMPOSITORS_WHY = "perchctl, the state directory and one toast's pixels"


def on_screen(t):
    return find_card(t.screenshot()) is not None


def wait_screen(t, shown, what, timeout=5.0):
    value, _ = poll(lambda: on_screen(t) == shown or None, timeout, 0.1)
    check(value is True, "%s: a toast should%s be on screen" % (what, "" if shown else " not"))


def quiet_file(t):
    return os.path.join(t.sway().dir, "state", "perch", "quiet")


@test
def do_not_disturb_for_a_while_ends_on_time_across_a_restart(t):
    p = t.start_perch()
    a = p.post("Before", "on screen when it starts", timeout=0)
    wait_screen(t, True, "the first toast")
    p.ctl_ok("mode", "-a", "do-not-disturb", "--for", "5s")
    modes = ok(p, "mode")
    check(modes["modes"] == ["do-not-disturb"] and "do-not-disturb" in modes.get("ends", {}),
          "mode should list do-not-disturb with its end: %r" % modes)
    r = p.ctl("mode")
    check(r.returncode == 0 and "do-not-disturb (until " in r.stdout and ", in " in r.stdout,
          "perchctl mode should say until when: %r" % r.stdout)
    wait_screen(t, False, "during do-not-disturb")
    check(os.path.exists(quiet_file(t)), "the end should be kept in %s" % quiet_file(t))
    q = restart(t, p)
    check(ok(q, "status")["do_not_disturb"] is True, "still do-not-disturb after the restart")
    check(on_screen(t) is False, "still held after the restart")
    ended, waited = poll(lambda: ok(q, "status")["do_not_disturb"] is False or None, 8, 0.2)
    check(ended, "do-not-disturb should end on time after the restart (waited %.1f s)" % waited)
    wait_screen(t, True, "after do-not-disturb ended")
    check([n["id"] for n in q.list()] == [a], "the held toast is back: %r" % q.list())
    check(not os.path.exists(quiet_file(t)), "nothing left to keep: the file goes")
    bad = q.ctl("mode", "-r", "do-not-disturb", "--for", "1h")
    check(bad.returncode == 64 and "--for" in bad.stderr, "--for with -r is a usage error: %r" % bad.stderr)
    bad = q.ctl("mode", "-a", "do-not-disturb", "--until", "25:00")
    check(bad.returncode == 64 and "time of day" in bad.stderr, "--until 25:00 is refused: %r" % bad.stderr)


@test
def a_snoozed_toast_leaves_untold_and_comes_back_after_a_restart(t):
    p = t.start_perch()
    a = p.post("Meeting in 10 min", timeout=0)
    wait_screen(t, True, "the toast")
    r = p.ctl("snooze", str(a), "4s")
    check(r.returncode == 0 and "snoozed until" in r.stdout, "snooze: %r %r" % (r.stdout, r.stderr))
    wait_screen(t, False, "while snoozed")
    check([n["id"] for n in p.list()] == [a], "a snoozed toast is still live: %r" % p.list())
    check(ok(p, "history") == [], "and not in history (its sender was not told it closed)")
    q = restart(t, p)
    check(on_screen(t) is False, "still snoozed after the restart")
    wait_screen(t, True, "after the snooze", timeout=8)
    check([n["id"] for n in q.list()] == [a], "the same notification came back: %r" % q.list())
    missing = q.ctl("snooze", "999", "1m")
    check(missing.returncode == 1 and "999" in missing.stderr, "snoozing nothing fails: %r" % missing.stderr)


@test
def a_muted_app_goes_to_history_and_an_allowed_one_through_do_not_disturb(t):
    p = t.start_perch()
    p.ctl_ok("apps", "mute", "Chat")
    c = p.post("Lunch?", timeout=0, app="Chat")
    check(p.list() == [], "a muted app's notification is not live: %r" % p.list())
    check([e["notification"]["id"] for e in ok(p, "history")] == [c], "it is in history")
    apps = {a["app"]: a for a in ok(p, "apps")["apps"]}
    check(apps["Chat"] == {"app": "Chat", "choice": "muted", "live": 0, "history": 1}, "apps: %r" % apps)
    listing = p.ctl("apps")
    check(listing.returncode == 0 and "Chat" in listing.stdout and "muted" in listing.stdout,
          "perchctl apps: %r" % listing.stdout)
    q = restart(t, p)
    q.post("Still muted", timeout=0, app="Chat")
    check(q.list() == [], "muted after a restart too")
    q.ctl_ok("apps", "reset", "Chat")
    q.ctl_ok("apps", "allow", "Phone")
    q.ctl_ok("mode", "-a", "do-not-disturb")
    phone = q.post("Incoming call", timeout=0, app="Phone")
    q.post("Newsletter", timeout=0, app="Mail")
    check([n["id"] for n in q.list()] == [phone], "only the allowed app shows: %r" % q.list())
    wait_screen(t, True, "the allowed app's toast")
    bad = q.ctl("apps", "silence", "Chat")
    check(bad.returncode == 64, "an unknown choice is a usage error: %r" % bad.stderr)


@test
def what_was_missed_is_one_toast_that_opens_the_center(t):
    p = t.start_perch()
    p.ctl_ok("mode", "-a", "do-not-disturb")
    for index, app in enumerate(["Chat", "Mail", "Chat", "News"]):
        p.post("Message %d" % index, timeout=0, app=app)
    check(p.list() == [], "all went to history during do-not-disturb")
    p.ctl_ok("mode", "-r", "do-not-disturb")
    live, _ = poll(lambda: p.list() or None, 3, 0.1)
    check(live and len(live) == 1, "one summary toast: %r" % live)
    summary = live[0]
    check(summary["title"] == "While do-not-disturb was on" and summary["body"] == "4 notifications from 3 apps",
          "the summary says what came in: %r" % summary)
    wait_screen(t, True, "the summary")
    p.ctl_ok("invoke", str(summary["id"]))
    center = ok(p, "center")
    check(center["open"] is True, "its click opens the center: %r" % center)
    check(all(e["notification"]["title"] != summary["title"] for e in ok(p, "history")),
          "the summary itself is not kept in history")


@test
def a_damaged_quiet_file_is_set_aside_with_one_message(t):
    s = t.sway()
    path = os.path.join(s.dir, "state", "perch", "quiet")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write('{"version":1,"apps":{"Chat":"muted"},"crc":"00000000"}\n')
    if os.geteuid() == 0:
        for d in (os.path.dirname(os.path.dirname(path)), os.path.dirname(path)):
            os.chown(d, s.pw.pw_uid, s.pw.pw_gid)
        os.chown(path, s.pw.pw_uid, s.pw.pw_gid)
    p = t.start_perch()
    p.post("Shown", timeout=0, app="Chat")
    check(len(p.list()) == 1, "nothing is muted by a damaged file")
    lines = [l for l in p.log().splitlines() if "quiet choices" in l]
    check(len(lines) == 1 and "set aside" in lines[0], "one message: %r" % lines)
    check(any(n.startswith("quiet.corrupt-") for n in os.listdir(os.path.dirname(path))), "the file is kept aside")


def open_center_with_card(t, p):
    """Opens the center and returns the top of its first entry's card."""
    from test_center_panel import PANEL_LEFT, panel_shown
    p.ctl_ok("center", "open")
    shown, _ = poll(lambda: panel_shown(t.screenshot()), 3.0, 0.1)
    check(shown, "the panel should be open")
    # The card's top border: a row light all along (not text, not a
    # button), on a panel at rest.
    def border():
        img = t.screenshot()
        return next((y for y in range(60, 200)
                     if all(min(img.pixel(x, y)) >= 230 for x in range(PANEL_LEFT + 30, PANEL_LEFT + 300, 10))), None)
    top, _ = poll(border, 3.0, 0.1)
    check(top, "no card border under the group header")
    return top


@test
def a_right_click_on_a_center_entry_opens_its_menu_and_mute_mutes_the_app(t):
    from pointer import pointer
    from test_center_panel import PANEL_LEFT
    p = t.start_perch()
    p.post("Lunch?", "at noon", timeout=0.3, app="Chat")
    poll(lambda: p.list() == [], 4, 0.1)
    top = open_center_with_card(t, p)
    before = t.shots[-1][1]
    pointer(t.sway(), t.bindir, "sleep", "0.3", "move", PANEL_LEFT + 150, top + 25, "sleep", "0.1",
            "click", "right", "sleep", "0.4")
    # The menu's buttons take the card's bottom row: "Mute Chat" first.
    panel = before.pixel(PANEL_LEFT + 50, top + 67)
    grown, _ = poll(lambda: not t.screenshot().region_is((PANEL_LEFT + 24, top + 60, PANEL_LEFT + 90, top + 75),
                                                         panel)[0] or None, 2.0, 0.1)
    check(grown, "the right click should open the entry's menu under its text")
    pointer(t.sway(), t.bindir, "sleep", "0.3", "move", PANEL_LEFT + 60, top + 67, "sleep", "0.1",
            "click", "left", "sleep", "0.3")
    muted, _ = poll(lambda: any(a["app"] == "Chat" and a["choice"] == "muted" for a in ok(p, "apps")["apps"])
                    or None, 2.0, 0.1)
    check(muted, "Mute Chat should mute the app: %r" % ok(p, "apps"))
    p.post("Later", timeout=0, app="Chat")
    check(p.list() == [], "the muted app's next one goes to history")


@test
def the_menu_of_a_live_entry_snoozes_it(t):
    from pointer import pointer
    from test_center_panel import PANEL_LEFT
    p = t.start_perch()
    nid = p.post("Stand-up", "in 5 min", timeout=0, app="Calendar")
    top = open_center_with_card(t, p)
    pointer(t.sway(), t.bindir, "sleep", "0.3", "move", PANEL_LEFT + 150, top + 25, "sleep", "0.1",
            "click", "right", "sleep", "0.4", "move", PANEL_LEFT + 60, top + 67, "sleep", "0.1",
            "click", "left", "sleep", "0.3")
    snoozed, _ = poll(lambda: ok(p, "status")["snoozed"] == 1 or None, 2.0, 0.1)
    check(snoozed, "Snooze 10 min should snooze it: %r" % ok(p, "status"))
    p.ctl_ok("center", "close")
    time.sleep(1)
    check([n["id"] for n in p.list()] == [nid] and not on_screen(t),
          "snoozed: live, and not back on screen when the center closes")


@test(compositors=SWAY17, why="wtype from the Debian 13 root types into sway 1.7's session")
def z_on_the_focused_toast_snoozes_it_or_invokes_the_senders_snooze(t):
    from test_keyboard_focus import outcome, post_waiting, press
    p = t.start_perch()
    nid = p.post("Build done", timeout=0)
    wait_screen(t, True, "the toast")
    check(p.ctl_ok("focus").strip() == "toast %d" % nid, "focus rings the toast")
    press(t, "z")
    snoozed, _ = poll(lambda: ok(p, "status")["snoozed"] == 1 or None, 3.0, 0.1)
    check(snoozed, "z should snooze the focused toast: %r" % ok(p, "status"))
    wait_screen(t, False, "after z")
    # A sender that offers its own snooze gets it: its action is invoked.
    waiter = post_waiting(t, p, "Meeting", "snooze=Remind me later")
    poll(lambda: len(p.list()) == 2, 3.0, 0.1)
    p.ctl_ok("focus")
    press(t, "z")
    check(outcome(waiter, "z") == "snooze", "z should invoke the sender's own snooze action")
    check(ok(p, "status")["snoozed"] == 1, "and Perch snoozed nothing more")


def area(img, box):
    return list(img.pixels(*box))


@test
def a_right_click_on_the_centers_switch_offers_durations_and_for_1_h_ends_in_an_hour(t):
    from pointer import pointer
    from test_center_panel import PANEL_LEFT, PANEL_RIGHT
    p = t.start_perch()
    p.post("Lunch?", "at noon", timeout=0.3, app="Chat")
    poll(lambda: p.list() == [], 4, 0.1)
    open_center_with_card(t, p)
    # The expired toast may still be leaving, over the panel's top.
    time.sleep(1.0)
    before = t.screenshot()
    # The switch: left of "Clear all" (whose middle is 40 px in from the
    # panel's right edge), in the top bar. The row of choices opens under
    # the bar, over the list's top and its first header: screen y 54..94,
    # its controls 63..85.
    row = (PANEL_LEFT + 12, 56, PANEL_RIGHT - 12, 92)
    pointer(t.sway(), t.bindir, "sleep", "0.3", "move", PANEL_RIGHT - 40 - 65, 36, "sleep", "0.1",
            "click", "right", "sleep", "0.4")
    opened, _ = poll(lambda: area(t.screenshot(), row) != area(before, row) or None, 2.0, 0.1)
    check(opened, "a right click on the switch should open its row of choices under the top bar")
    shot = t.shots[-1][1]
    # The README's picture of the row (docs/images/center-dnd-durations.png).
    os.makedirs(t.outdir, exist_ok=True)
    shot.save_png(os.path.join(t.outdir, "center-dnd-durations.png"))
    # "For 1 h" is the row's first control: the first column, from the
    # left, that is not the row's plain card.
    card = shot.pixel(PANEL_LEFT + 20, 74)
    left = next((x for x in range(PANEL_LEFT + 20, PANEL_RIGHT - 20)
                 if max(abs(a - b) for a, b in zip(shot.pixel(x, 74), card)) > 12), None)
    check(left, "the row should show its choices")
    check(ok(p, "status")["do_not_disturb"] is False, "opening the row changes nothing yet")
    pointer(t.sway(), t.bindir, "sleep", "0.3", "move", left + 15, 74, "sleep", "0.1", "click", "left",
            "sleep", "0.4")
    on, _ = poll(lambda: json.loads(p.ctl_ok("status", "--json"))["do_not_disturb"] is True or None, 2.0, 0.1)
    check(on, "For 1 h should turn do-not-disturb on")
    status = json.loads(p.ctl_ok("status", "--json"))
    end = status.get("mode_ends", {}).get("do-not-disturb")
    check(end is not None and abs(end - (time.time() + 3600)) < 30,
          "do-not-disturb should end in about an hour: %r" % status)
    # Above the header's text and away from the pointer: the panel again.
    above = (PANEL_LEFT + 100, 57, PANEL_LEFT + 200, 66)
    closed, _ = poll(lambda: area(t.screenshot(), above) == area(before, above) or None, 2.0, 0.1)
    check(closed, "the choice should close the row")
    bar = (PANEL_LEFT + 120, 28, PANEL_RIGHT - 110, 44)
    check(area(t.shots[-1][1], bar) != area(before, bar), "the switch's label should say until when")
