"""A change is durable the moment it happens: a dismissal, expiry,
suppression or restore is journaled in the loop turn it happens in (the
exit animation is presentation only), and no reply on either door is sent
before that turn's record is written. A full state disk loses nothing
once it has room again. Global config keys apply live on reload, to the
toasts already on screen."""

import errno
import json
import os
import signal
import subprocess
import time

from harness import (MARGIN, SCREEN_W, Perch, TestFailure, check, find_card, poll, python3, run_as_root, test)
from test_config import write_config
from test_dbus import gdbus, start as start_with_bus, wait_for_name
from test_persistence import history, ids_of, ok, restart, state_dir, wait_serving
from harness import ALL, SWAY17, SWAYS

# Which compositors these tests run on (harness.test).
COMPOSITORS = SWAY17
COMPOSITORS_WHY = "persistence across crashes and a full disk"


def wait_card(t, what, timeout=3.0, shot=None, **where):
    """Polls screenshots until find_card(**where) sees a card; returns it."""
    shot = shot or t.screenshot
    card, waited = poll(lambda: find_card(shot(), **where), timeout, 0.05)
    check(card is not None, "%s: no card on screen after %.1f s" % (what, waited))
    return card


def ctl_json(p, *args):
    """Runs `perchctl ARGS --json` and parses its output; fails naming the
    command, its exit status and what it printed."""
    r = p.ctl(*(list(args) + ["--json"]))
    check(r.returncode == 0, "`perchctl %s --json` exited %d: stdout %r, stderr %r"
          % (" ".join(args), r.returncode, r.stdout.strip(), r.stderr.strip()))
    try:
        return json.loads(r.stdout)
    except ValueError:
        raise TestFailure("`perchctl %s --json` printed invalid JSON: %r" % (" ".join(args), r.stdout))


def history_entry(p, nid):
    return next((e for e in history(p) if e["notification"]["id"] == nid), None)


def dismissed_just_before_a_stop(t, how):
    p = t.start_perch()
    kept = p.post("Stays on screen", timeout=0)
    gone = p.post("Dismissed just before the stop", "0.1 s before perch stops", timeout=0)
    wait_card(t, "before the dismissal")
    p.ctl_ok("dismiss", str(gone))
    time.sleep(0.1)  # well inside the ~0.6 s exit animation
    q = restart(t, p, how=how)
    listed = ids_of(q.list())
    entry = history_entry(q, gone)
    check(entry is not None, "id %d was dismissed (and the reply said so) 0.1 s before %s, but after the restart "
          "it is not in history: history %s, list %s"
          % (gone, "SIGTERM" if how == "term" else "kill -9", json.dumps(history(q)), listed))
    check(gone not in listed, "the dismissed id %d should not come back on screen after the restart: list %s"
          % (gone, listed))
    check(entry["reason"] == "dismissed-by-user", "it left by `perchctl dismiss`: history should say dismissed-by-user, "
          "says %r" % entry["reason"])
    check(entry["notification"]["title"] == "Dismissed just before the stop",
          "the history entry should keep the title: %s" % json.dumps(entry))
    check(kept in listed, "the notification that was not dismissed (%d) should be listed again: %s" % (kept, listed))


@test
def durability_a_dismissal_0_1s_before_sigterm_is_in_history_after_the_restart(t):
    dismissed_just_before_a_stop(t, "term")


@test
def durability_a_dismissal_0_1s_before_kill_9_is_in_history_after_the_restart(t):
    dismissed_just_before_a_stop(t, "kill")


@test
def durability_restore_right_after_dismiss_last_brings_back_that_very_notification(t):
    p = t.start_perch()
    older = p.post("Older, already in history", timeout=0)
    p.ctl_ok("dismiss", str(older))
    done, _ = poll(lambda: history_entry(p, older) is not None, 3.0, 0.1)
    check(done, "the older notification %d should reach history: %s" % (older, json.dumps(history(p))))
    a = p.post("Toast A", "posted first", timeout=0)
    b = p.post("Toast B", "posted second", timeout=0)
    wait_card(t, "A and B")
    # At once: no wait between them (B is still sliding out for the restore).
    dismissed = ctl_json(p, "dismiss", "--last")
    restored = ctl_json(p, "restore")
    check(dismissed == {"dismissed": [b]}, "with A (%d) then B (%d) on screen, `dismiss --last` should dismiss B: "
          "replied %r" % (a, b, dismissed))
    check(restored.get("id") == b, "`restore` right after `dismiss --last` should bring back B (id %d), the one "
          "just dismissed; it restored %r (A is %d, the older history entry is %d)" % (b, restored, a, older))
    items = {n["id"]: n for n in p.list()}
    check(b in items and items[b]["title"] == "Toast B",
          "B should be listed again with its title after the restore: %s" % json.dumps(list(items.values())))
    check(a in items, "A (%d) was never dismissed and should still be listed: %s" % (a, sorted(items)))
    check(older not in items, "the older notification %d should stay in history: %s" % (older, sorted(items)))
    hist = [e["notification"]["id"] for e in history(p)]
    check(b not in hist and older in hist, "after the restore history should hold %d and not %d: %s"
          % (older, b, hist))


DBUS_BURST = r'''
import json, os, signal, sys
import dbus, dbus.mainloop.glib
from gi.repository import GLib
n, pid, anchor, title = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
ids, errors, left = [], [], [n]
loop = GLib.MainLoop()
def done():
    left[0] -= 1
    if left[0] == 0:
        os.kill(pid, signal.SIGKILL)  # right after the last reply
        loop.quit()
def reply(nid):
    ids.append(int(nid)); done()
def error(e):
    errors.append(str(e)); done()
for i in range(n):
    last = i == n - 1
    bus.call_async("org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                   "org.freedesktop.Notifications", "Notify", "susssasa{sv}i",
                   ("durability", dbus.UInt32(anchor if last else 0), "", title if last else "Burst %d" % i,
                    ("body %d " % i) * (6000 if i >= n - 16 else 1), dbus.Array([], signature="s"),
                    dbus.Dictionary({}, signature="sv"), dbus.Int32(0)),
                   reply, error, timeout=20)
GLib.timeout_add(25000, loop.quit)
loop.run()
print(json.dumps({"ids": ids, "errors": errors[:5], "error_count": len(errors), "left": left[0]}))
'''


def perch_on_bus(t, env, args=()):
    """Starts perch again on the bus of test_dbus.start (after a kill -9 the
    stale socket file proves nothing: wait until it answers and owns the name)."""
    p = Perch(t.sway(), t.bindir, os.path.join(t.tmp, "perch.log"), env=env, args=list(args))
    t.perch = p
    wait_serving(p)
    wait_for_name(t, env, p)
    return p


# Against a daemon that replies before it writes, nearly every round loses
# the last turn's ids; a few rounds make sure.
ROUNDS = 6


@test
def durability_200_dbus_notify_then_kill_9_after_the_last_reply_loses_no_answered_id(t):
    # The client kills perch at once after it read the last reply: a reply
    # sent before its turn's record is written is lost when the kill beats
    # that write. The last 16 calls of a burst carry a ~54 KB body (more to
    # encode in the last turns, which widens that window) and the very last
    # one replaces a toast on screen (one more change that must be kept).
    # Each round's burst is one app's, so most of it collapses into history
    # (max-burst) or is pushed there (max-queued): history must hold every
    # answered id of the six rounds for "nothing lost" to be checked.
    kept = ["--max-history", "2000"]
    p, env = start_with_bus(t, args=kept)
    r = gdbus(t, env, "--method", "org.freedesktop.Notifications.Notify", "durability", "0", "", "Anchor", "",
              "[]", "{}", "0")
    check(r.returncode == 0, "Notify failed: %r" % r.stderr)
    anchor = int(r.stdout.strip().strip("(),").split()[-1])
    answered = []
    for round in range(ROUNDS):
        title = "Anchor, replaced in round %d" % (round + 1)
        t0 = time.monotonic()
        r = t.sway().run([python3(), "-c", DBUS_BURST, "200", str(p.proc.pid), str(anchor), title],
                         env=env, timeout=30)
        check(r.returncode == 0, "the D-Bus client failed (%d): %s" % (r.returncode, r.stderr[-800:]))
        out = json.loads(r.stdout)
        t.notes.append("round %d: 200 Notify calls answered in %.2f s; %d ids, %d errors %r"
                       % (round + 1, time.monotonic() - t0, len(out["ids"]), out["error_count"], out["errors"]))
        rc = p.wait_exit(5)
        check(rc == -signal.SIGKILL, "perch should have been killed by the client, exit status %r" % rc)
        check(out["left"] == 0 and out["error_count"] == 0 and len(out["ids"]) == 200,
              "all 200 Notify calls should be answered with an id: %d ids, %d errors %r, %d unanswered"
              % (len(out["ids"]), out["error_count"], out["errors"], out["left"]))
        new = [i for i in out["ids"] if i != anchor]
        check(len(set(new)) == 199 and not set(new) & set(answered),
              "the replies should carry 199 new, different ids and the replaced one (%d)" % anchor)
        answered += new
        p.log_file.close()
        p = perch_on_bus(t, env, kept)
        # Over the socket directly: `perchctl list` is not what is tested
        # here, and this list grows past 1 MiB.
        listed = {n["id"]: n for n in ok(p, "list")}
        present = set(listed) | set(e["notification"]["id"] for e in history(p))
        lost = sorted(i for i in answered if i not in present)
        check(not lost, "%d of the ids answered over D-Bus before kill -9 (round %d of 200 Notify calls) are "
              "neither listed nor in history after the restart: %s%s"
              % (len(lost), round + 1, lost[:20], "..." if len(lost) > 20 else ""))
        check(anchor in listed and listed[anchor]["title"] == title,
              "the last call of round %d replaced %d with %r and was answered; after kill -9 and a restart it "
              "is %s" % (round + 1, anchor, title, json.dumps(listed.get(anchor))))


# The card at rest for a given width and margin on the 1280x720 output.
def expected_card(width, margin):
    return (SCREEN_W - margin - width, margin, SCREEN_W - margin - 1)


def card_matches(card, width, margin):
    left, top, right = expected_card(width, margin)
    return card is not None and (card.left, card.top, card.right) == (left, top, right)


@test(compositors=ALL)
def durability_reload_applies_width_and_margin_to_the_toast_on_screen(t):
    path = write_config(t, "width=300\nmargin=10\n")
    p = t.start_perch(args=["-c", path])
    nid = p.post("Long-lived", "stays while the config changes", timeout=0)
    # A probe row inside the card both before (top 10) and after (top 30).
    probe = dict(probe_y=40, x0=SCREEN_W - 600)
    before, _ = poll(lambda: (lambda c: c if card_matches(c, 300, 10) else None)(find_card(t.screenshot(), **probe)),
                     3.0, 0.05)
    check(before, "with width=300 margin=10 the card should rest at x %d..%d, top %d; found %r"
          % (expected_card(300, 10)[0], expected_card(300, 10)[2], 10, find_card(t.shots[-1][1], **probe)))
    with open(path, "w") as f:
        f.write("width=400\nmargin=30\n")
    reply = ctl_json(p, "reload")
    check(reply.get("reloaded") is True, "reload should succeed: %r" % reply)
    time.sleep(1.0)
    after, waited = poll(lambda: (lambda c: c if card_matches(c, 400, 30) else None)(find_card(t.screenshot(), **probe)),
                         1.5, 0.05)
    left, top, right = expected_card(400, 30)
    check(after, "1 s after reloading with width=400 margin=30 the toast on screen should be 400 px wide with its "
          "right edge 30 px from the screen's (x %d..%d) and its top at y %d; it is %r"
          % (left, right, top, find_card(t.shots[-1][1], **probe)))
    check(ids_of(p.list()) == [nid], "the toast should still be listed: %r" % p.list())


@test(compositors=SWAYS, why="adds a second output with swaymsg create_output; labwc has no way to")
def durability_reload_of_output_moves_the_toast_to_the_other_output(t):
    s = t.sway()
    r = s.swaymsg("create_output")
    check(r.returncode == 0, "swaymsg create_output failed: %r %r" % (r.stdout, r.stderr))
    names = [o["name"] for o in s.outputs()]
    others = [n for n in names if n != "HEADLESS-1"]
    check("HEADLESS-1" in names and len(others) == 1, "expected HEADLESS-1 and one new output: %r" % names)
    second = others[0]
    r = s.swaymsg("output", second, "resolution", "1280x720", "position", "1280", "0", "bg", "#336699", "solid_color")
    check(r.returncode == 0, "configuring %s failed: %r %r" % (second, r.stdout, r.stderr))
    size, _ = poll(lambda: [o["rect"] for o in s.outputs() if o["name"] == second] == [
        {"x": 1280, "y": 0, "width": 1280, "height": 720}], 3.0, 0.1)
    check(size, "%s should become 1280x720 at x 1280: %r" % (second, s.outputs()))

    path = write_config(t, "output=HEADLESS-1\n")
    p = t.start_perch(args=["-c", path])
    seen, _ = poll(lambda: sorted(o["name"] for o in ok(p, "status")["outputs"]) == sorted(["HEADLESS-1", second]),
                   3.0, 0.1)
    check(seen, "perch should see both outputs: %r" % ok(p, "status")["outputs"])
    nid = p.post("Moves between outputs", "on the first one first", timeout=0)
    card, _ = poll(lambda: (lambda c: c if card_matches(c, 300, MARGIN) else None)(
        find_card(t.screenshot_output("HEADLESS-1"))), 3.0, 0.05)
    check(card, "with output=HEADLESS-1 the card should come to rest at the top right of HEADLESS-1; found %r"
          % find_card(t.shots[-1][1]))
    check(find_card(t.screenshot_output(second)) is None, "with output=HEADLESS-1 nothing should be on %s: %r"
          % (second, find_card(t.shots[-1][1])))

    with open(path, "w") as f:
        f.write("output=%s\n" % second)
    reply = ctl_json(p, "reload")
    check(reply.get("reloaded") is True, "reload should succeed: %r" % reply)
    time.sleep(1.0)

    def moved():
        there = find_card(t.screenshot_output(second))
        here = find_card(t.screenshot_output("HEADLESS-1"))
        return (there, here) if card_matches(there, 300, MARGIN) and here is None else None
    done, _ = poll(moved, 1.5, 0.1)
    check(done, "1 s after reloading with output=%s the toast should be at rest at the top right of %s and gone "
          "from HEADLESS-1; "
          "%s shows %r, HEADLESS-1 shows %r" % (second, second, second,
                                                find_card(t.screenshot_output(second)),
                                                find_card(t.screenshot_output("HEADLESS-1"))))
    check(ids_of(p.list()) == [nid], "the toast should still be listed: %r" % p.list())


def fill(directory):
    """Writes DIR/filler until the file system is full (down to its last
    byte); returns its path."""
    path = os.path.join(directory, "filler")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        for size in (65536, 512, 1):
            try:
                while True:
                    os.write(fd, b"\0" * size)
            except OSError as e:
                if e.errno != errno.ENOSPC:
                    raise
    finally:
        os.close(fd)
    return path


@test
def durability_a_full_state_disk_then_freed_loses_nothing(t):
    check(run_as_root(), "this test mounts a tmpfs: run the suite as root")
    s = t.sway()
    d = state_dir(t)
    os.makedirs(d)
    for q in (os.path.dirname(d), d):
        os.chown(q, s.pw.pw_uid, s.pw.pw_gid)
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k,mode=0700,uid=%d,gid=%d"
                        % (s.pw.pw_uid, s.pw.pw_gid), "tmpfs", d], capture_output=True, text=True)
    check(r.returncode == 0, "mounting a tmpfs on %s failed: %s" % (d, r.stderr))
    try:
        p = t.start_perch()
        wait_serving(p)
        filler = fill(d)
        mark = len(p.log())
        t.notes.append("state dir %s full: %s" % (d, os.listdir(d)))
        # Bodies longer than a page: the journal already holds its first
        # line (the generation it follows) and with it a page of tmpfs, and
        # short records would fit in that page's slack on a full disk.
        body = "must be kept " + "x" * 5000
        full = [p.post("While the disk is full %d" % i, body, timeout=0) for i in range(4)]
        p.ctl_ok("dismiss", str(full[0]))
        full.append(p.post("While the disk is full 4", timeout=0))
        time.sleep(1.0)  # several turns (the exit animation) on a full disk
        listed = ids_of(p.list())
        check(listed == full[1:], "notifications posted on a full disk must still be accepted and listed: "
              "posted %s, listed %s" % (full, listed))
        wait_card(t, "notifications posted on a full disk")
        os.remove(filler)
        freed = p.post("After the disk was freed", timeout=0)
        answered = full + [freed]
        log = p.log()[mark:]
        q = restart(t, p, how="kill")

        problems = []
        present = set(ids_of(q.list())) | set(e["notification"]["id"] for e in history(q))
        lost = [i for i in answered if i not in present]
        if lost:
            problems.append("answered ids %s are neither listed nor in history after kill -9 and a restart "
                            "(list %s, history %s)" % (lost, ids_of(q.list()), [e["notification"]["id"]
                                                                                 for e in history(q)]))
        entry = history_entry(q, full[0])
        if entry is None or entry["reason"] != "dismissed-by-user":
            problems.append("the one dismissed on a full disk (%d) should be in history as dismissed-by-user: %r"
                            % (full[0], entry))
        about = [l for l in log.splitlines() if d in l or "cannot save" in l]
        # A recovery is news, not a problem: any line that is not an error or a warning.
        recovered = [l for l in about if not l.lstrip().startswith(("perch: error", "perch: warning"))]
        failed = [l for l in about if l not in recovered]
        if len(failed) != 1 or len(recovered) > 1:
            problems.append("perch should log the failure to save once (and at most one line when saving works "
                            "again), not once per turn; over %d posts, a dismissal and its animation it logged "
                            "%d failure line(s) and %d recovery line(s):\n      %s"
                            % (len(answered), len(failed), len(recovered), "\n      ".join(about[:8]) or "(none)"))
        check(not problems, "; ".join(problems))
    finally:
        if t.perch is not None and t.perch.proc.poll() is None:
            t.perch.proc.terminate()
            t.perch.wait_exit(5)
        r = subprocess.run(["umount", d], capture_output=True, text=True)
        if r.returncode != 0:
            subprocess.run(["umount", "-l", d], capture_output=True, text=True)


@test
def durability_a_post_suppressed_by_do_not_disturb_just_before_sigterm_is_in_history(t):
    p = t.start_perch()
    held = p.post("Posted just before do-not-disturb", timeout=0)
    p.ctl_ok("mode", "add", "do-not-disturb")
    nid = p.post("Posted during do-not-disturb", timeout=0)
    time.sleep(0.05)
    q = restart(t, p)
    entry = history_entry(q, nid)
    check(entry is not None, "id %d was posted during do-not-disturb just before SIGTERM; after the restart it "
          "should be in history, history is %s and list %s" % (nid, json.dumps(history(q)), ids_of(q.list())))
    check(entry["reason"] == "suppressed", "it was kept off screen by do-not-disturb: reason should be suppressed, "
          "is %r" % entry["reason"])
    check(ids_of(q.list()) == [held], "the one on screen when do-not-disturb began is held, still live after the "
          "restart (and back when it ends): list %r" % q.list())
    check(ok(q, "mode") == {"modes": ["do-not-disturb"]}, "do-not-disturb should survive: %r" % ok(q, "mode"))
