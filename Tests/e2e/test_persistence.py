"""What survives a restart: history, modes and the notifications on screen
are kept in $XDG_STATE_HOME/perch/state.json; nothing a client was told
about is lost to a crash; a damaged state file gives up only its damaged
lines, and an id is never handed out twice."""

import glob
import json
import os
import signal
import subprocess
import threading
import time

from harness import check, find_card, poll, python3, run_as_root, test
from harness import SWAY17

# Which compositors these tests run on (harness.test).
COMPOSITORS = SWAY17
COMPOSITORS_WHY = "persistence: state files and restarts"


def ok(p, method, params=None):
    req = {"id": 1, "method": method}
    if params is not None:
        req["params"] = params
    r = p.raw([json.dumps(req)])[0]
    check(isinstance(r, dict) and "result" in r, "%s should succeed, got %r" % (method, r))
    return r["result"]


def ids_of(items):
    return [n.get("id") for n in items]


def history(p):
    return ok(p, "history")


def history_ids(p):
    return [e["notification"]["id"] for e in history(p)]


def wait_in_history(p, nid, timeout=3.0):
    def find():
        return next((e for e in history(p) if e["notification"]["id"] == nid), None)
    entry, waited = poll(find, timeout, 0.1)
    check(entry is not None, "id %d not in history after %.1f s; history %s" % (nid, waited, json.dumps(history(p))))
    return entry


def wait_serving(p, timeout=10):
    """Waits until perch answers on its socket (after a kill -9 a stale
    socket file may still be there, so its existence proves nothing)."""
    def answers():
        if p.proc.poll() is not None:
            return "exited"
        return p.ctl("version").returncode == 0
    v, _ = poll(answers, timeout, 0.05)
    check(v is True, "perch did not answer within %ds after starting (%s); log:\n%s"
          % (timeout, "it exited %s" % p.proc.poll() if v == "exited" else "no answer", p.log()[-1500:]))


def restart(t, p, how="term", args=()):
    """Stops perch (SIGTERM, expecting exit 0, or SIGKILL) and starts it
    again in the same session (same XDG_STATE_HOME)."""
    if how == "term":
        p.proc.send_signal(signal.SIGTERM)
        rc = p.wait_exit(5)
        check(rc == 0, "perch should exit 0 on SIGTERM, exit status %r" % rc)
    else:
        p.proc.kill()
        p.proc.wait(5)
    p.log_file.close()
    q = t.start_perch(wait=False, args=args)
    wait_serving(q)
    return q


def state_dir(t):
    return os.path.join(t.sway().env()["XDG_STATE_HOME"], "perch")


@test
def history_and_modes_survive_a_restart(t):
    p = t.start_perch()
    a = p.post("Kept in history", "first body", timeout=0, app="hist", urgency="low")
    b = p.post("Also kept", "second body", timeout=0, app="other")
    p.ctl_ok("dismiss", str(a))
    wait_in_history(p, a)
    p.ctl_ok("invoke", str(b))
    wait_in_history(p, b)
    p.ctl_ok("mode", "set", "work", "do-not-disturb")
    before = history(p)
    check(ids_of([e["notification"] for e in before]) == [b, a], "history before the restart: %s"
          % json.dumps(before))

    q = restart(t, p)
    after = history(q)
    check(after == before, "history should be the same after a restart;\n  before: %s\n  after:  %s"
          % (json.dumps(before), json.dumps(after)))
    modes = ok(q, "mode")
    check(modes == {"modes": ["do-not-disturb", "work"]},
          "modes should survive a restart: expected do-not-disturb and work, got %r" % (modes,))
    check(ok(q, "status")["do_not_disturb"] is True, "status should report do-not-disturb after the restart")
    # The restored do-not-disturb is in force, and ids go on where they were.
    c = q.post("After the restart", timeout=30)
    check(c > b, "ids must not be reused after a restart: got %d after %d" % (c, b))
    entry = wait_in_history(q, c, 1.0)
    check(entry["reason"] == "suppressed", "do-not-disturb restored from disk should suppress a normal post; "
          "history says %r" % entry["reason"])
    check(q.list() == [], "nothing should be on screen: %r" % q.list())
    # Restore still works on an entry from before the restart.
    q.ctl_ok("mode", "remove", "do-not-disturb")
    check(history_ids(q)[:3] == [c, b, a], "history after the restart and one post: %r" % history_ids(q))


BURST_CLIENT = r'''
import socket, sys, time
path, n, pause = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(10)
s.connect(path)
f = s.makefile("rb")
for i in range(n):
    try:
        s.sendall(b'{"id":%d,"method":"notify","params":{"title":"Burst %d","timeout":60}}\n' % (i, i))
        line = f.readline()
        # The sender also hears its notifications' events (a collapsed
        # one's dismissed at once): not replies.
        while line and b'"event"' in line and b'"result"' not in line:
            line = f.readline()
    except OSError as e:
        print("END %s" % e, flush=True); break
    if not line:
        print("END closed", flush=True); break
    if b'"result"' in line:
        print(int(line.split(b'"result":{"id":')[1].split(b"}")[0]), flush=True)
    else:
        print("ERR %r" % line, flush=True)
    time.sleep(pause)
else:
    print("END done", flush=True)
'''


@test
def kill_9_during_a_burst_loses_nothing_acknowledged(t):
    # One app's burst: most of it goes to history (max-burst, max-queued),
    # which must hold it all for "nothing lost" to be checked.
    kept = ["--max-history", "1000"]
    p = t.start_perch(args=kept)
    client = t.sway().popen([python3(), "-c", BURST_CLIENT, p.socket_path, "200", "0.005"], env=p.env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    acked, ended = [], []

    def pump():
        for raw in iter(client.stdout.readline, b""):
            line = raw.decode().strip()
            if line.isdigit():
                acked.append(int(line))
            else:
                ended.append(line)
    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    midway, _ = poll(lambda: len(acked) >= 100, 30, 0.002)
    check(midway, "the client got only %d replies (%r)" % (len(acked), ended))
    p.proc.kill()  # SIGKILL, mid-burst
    p.proc.wait(5)
    try:
        client.wait(15)
    except subprocess.TimeoutExpired:
        client.kill()
    reader.join(5)
    check(len(acked) < 200, "the kill should have interrupted the burst (all 200 were answered)")
    check(not [e for e in ended if e.startswith("ERR")], "the client got error replies: %r" % ended)
    t.notes.append("%d of 200 acknowledged before the kill; client ended with %r" % (len(acked), ended))

    q = t.start_perch(wait=False, args=kept)
    p.log_file.close()
    wait_serving(q)
    listed = set(ids_of(q.list()))
    kept = set(history_ids(q))
    lost = [i for i in acked if i not in listed and i not in kept]
    check(not lost, "%d of the %d notifications acknowledged before kill -9 are neither listed nor in "
          "history after the restart: %s%s" % (len(lost), len(acked), lost[:20], "..." if len(lost) > 20 else ""))
    check(len(acked) == len(set(acked)), "the daemon gave the same id twice before the kill")
    nid = q.post("After the crash", timeout=1)
    check(nid > max(acked), "ids must not be reused after a crash: new id %d, acknowledged up to %d"
          % (nid, max(acked)))
    card, _ = poll(lambda: find_card(t.screenshot()), 3.0, 0.1)
    check(card is not None, "the restored notifications should be on screen again")


@test
def a_first_start_saves_posts_as_journal_lines(t):
    # Each turn's changes are one append to state.json.journal; rewriting
    # the whole state (with its fsyncs) each time would sit between every
    # notification and the screen.
    journal = os.path.join(state_dir(t), "state.json.journal")
    check(not os.path.exists(state_dir(t)), "the state directory should not exist before the first start")
    p = t.start_perch()
    ids = [p.post("Line %d" % i, timeout=0) for i in range(3)]
    check(os.path.exists(journal), "%s should exist after posts; log:\n%s" % (journal, p.log()[-1500:]))
    with open(journal) as f:
        records = [json.loads(line) for line in f if line.strip()]
    live = [r["live"]["id"] for r in records if "live" in r]
    check(live == ids, "the journal should hold one live record per post, %s; it has %s" % (ids, records))
    check("journal" not in p.log(), "the log should not complain about the journal:\n%s" % p.log()[-1500:])


@test
def a_crash_right_after_a_restart_loses_nothing_either(t):
    # The restored state is folded into a new snapshot on the first loop
    # turn, not before the daemon answers: a second kill -9 at once must
    # still find everything in the old snapshot and journal.
    p = t.start_perch()
    posted = [p.post("Crash %d" % i, timeout=0) for i in range(5)]
    p.ctl_ok("dismiss", str(posted[0]))
    wait_in_history(p, posted[0])
    q = restart(t, p, how="kill")
    r = restart(t, q, how="kill")
    listed = set(ids_of(r.list()))
    check(set(posted[1:]) <= listed, "after two kill -9 in a row, listed %s, expected %s" % (sorted(listed), posted[1:]))
    check(posted[0] in history_ids(r), "the dismissed one should still be in history: %s" % history_ids(r))
    nid = r.post("After two crashes", timeout=1)
    check(nid > max(posted), "ids must not be reused: new id %d after %s" % (nid, posted))


@test
def what_was_on_screen_with_time_left_comes_back(t):
    p = t.start_perch()
    timed = p.post("Still here", "after a restart", timeout=60, app="restart")
    sticky = p.post("Sticky", "until dismissed", timeout=0)
    card, _ = poll(lambda: find_card(t.screenshot()), 3.0, 0.1)
    check(card is not None, "the notifications should be on screen before the restart")
    q = restart(t, p)
    items = {n["id"]: n for n in q.list()}
    check(timed in items and sticky in items,
          "after a restart both notifications (%d, %d) should be listed again: %s"
          % (timed, sticky, json.dumps(list(items.values()))))
    n = items[timed]
    check(n["title"] == "Still here" and n["body"] == "after a restart" and n["app"] == "restart",
          "the restored notification should keep its text: %s" % json.dumps(n))
    check(isinstance(n.get("timeout"), (int, float)) and 40 <= n["timeout"] <= 60,
          "it should come back with the time it had left (about 60 s), list says timeout %r" % n.get("timeout"))
    check(items[sticky].get("timeout") == 0, "a notification without expiry should come back without expiry: %s"
          % json.dumps(items[sticky]))
    card, _ = poll(lambda: find_card(t.screenshot()), 3.0, 0.1)
    check(card is not None, "the restored notifications should be visible at the top right")
    check(history(q) == [], "nothing was dismissed, history should be empty: %s" % json.dumps(history(q)))


@test
def queued_notification_keeps_its_timeout_across_a_restart(t):
    p = t.start_perch(args=["--max-visible", "1"])
    blocker = p.post("Blocker", timeout=0)
    queued = p.post("Short-lived", "queued behind the blocker", timeout=1)
    q = restart(t, p, args=["--max-visible", "1"])
    check(ids_of(q.list()) == [blocker, queued], "both should be back: %r" % q.list())
    q.ctl_ok("dismiss", str(blocker))
    # Once shown, it should expire after its 1 s like before the restart.
    gone, waited = poll(lambda: queued not in ids_of(q.list()), 8.0, 0.2)
    check(gone, "a queued notification posted with --timeout 1 should still expire after a restart; "
          "8 s after it could appear it is still listed as %s" % json.dumps(q.list()))
    entry = wait_in_history(q, queued)
    check(entry["reason"] == "expired", "it should leave as expired, history says %r" % entry["reason"])


def write_state(t, data):
    """Writes a state file owned by the session user before perch starts."""
    s = t.sway()
    d = state_dir(t)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "state.json")
    with open(path, "wb") as f:
        f.write(data)
    if run_as_root():
        for q in (os.path.dirname(d), d, path):
            os.chown(q, s.pw.pw_uid, s.pw.pw_gid)
    os.chmod(d, 0o700)
    os.chmod(path, 0o600)
    return path


@test
def corrupt_state_file_is_set_aside_with_a_warning(t):
    garbage = b"\x00\xff\xfe this is not perch state {{{ \n\x01"
    path = write_state(t, garbage)
    p = t.start_perch(wait=False)
    wait_serving(p)
    check(history(p) == [] and ok(p, "mode") == {"modes": []},
          "perch should start fresh from a corrupt state file")
    log = p.log()
    warned = [l for l in log.splitlines() if path in l]
    check(warned, "perch should warn naming %s; log:\n%s" % (path, log))
    aside = glob.glob(path + ".corrupt-*")
    check(len(aside) == 1, "the corrupt file should be moved to state.json.corrupt-*, found %r (dir has %r)"
          % (aside, os.listdir(os.path.dirname(path))))
    with open(aside[0], "rb") as f:
        check(f.read() == garbage, "%s should hold the original bytes" % aside[0])
    check(os.path.basename(aside[0]) in "\n".join(warned),
          "the warning should say where the file went (%s): %r" % (aside[0], warned))
    # Perch saves again from a fresh state: the file is sealed lines whose
    # header names the format, and a notification posted now survives a
    # restart.
    with open(path, "rb") as f:
        header = json.loads(f.readline())
    check(header.get("version") == 2 and "crc" in header, "perch should write a valid %s again: %r" % (path, header))
    p.post("Fresh start", timeout=0)
    p.proc.send_signal(signal.SIGKILL)
    p.proc.wait(5)
    p2 = t.start_perch(wait=False)
    wait_serving(p2)
    titles = [n["title"] for n in p2.list()]
    check("Fresh start" in titles, "a post after the fresh start should survive kill -9; list: %r" % titles)

    # JSON of the wrong shape is not trusted either.
    p2.proc.terminate()
    p2.wait_exit(5)
    p2.log_file.close()
    wrong = b'{"version":1,"next_id":5,"modes":"do-not-disturb","history":[],"live":[]}'
    write_state(t, wrong)
    q = t.start_perch(wait=False)
    wait_serving(q)
    check(ok(q, "mode") == {"modes": []}, "a state file of the wrong shape must not be half-loaded")
    aside = sorted(glob.glob(path + ".corrupt-*"))
    check(len(aside) == 2, "the second bad file should be set aside too (without replacing the first): %r" % aside)
    contents = []
    for a in aside:
        with open(a, "rb") as f:
            contents.append(f.read())
    check(wrong in contents and garbage in contents, "both set-aside files should keep their bytes")
    check(q.proc.poll() is None, "perch exited (%s)" % q.proc.poll())


# --------------------------------------------------------------------------
# Damage (issue 38, item 2): a flipped bit costs the line it is in, never
# the rest of the file, and never an id handed out before.

def stop(p, how="term"):
    """Stops perch: SIGTERM (expecting exit 0, the state saved whole) or
    SIGKILL (what was written by then stays as it is)."""
    if how == "term":
        p.proc.send_signal(signal.SIGTERM)
        check(p.wait_exit(5) == 0, "perch should exit 0 on SIGTERM")
    else:
        p.proc.kill()
        p.proc.wait(5)
    p.log_file.close()


def start(t):
    q = t.start_perch(wait=False)
    wait_serving(q)
    return q


def flip(path, needle, at=0, bit=0):
    """Flips bit `bit` of the byte `at` bytes into the first `needle` in the
    file (in place, so its owner and mode stay); returns the byte's offset."""
    with open(path, "r+b") as f:
        data = f.read()
        check(needle in data, "%r should be in %s" % (needle, path))
        offset = data.index(needle) + at
        f.seek(offset)
        f.write(bytes([data[offset] ^ (1 << bit)]))
    return offset


def warnings_naming(p, path):
    return [line for line in p.log().splitlines() if "warning:" in line and path in line]


@test
def a_bit_flipped_in_the_state_file_costs_its_line_not_the_snapshot_nor_an_id(t):
    # Before: the whole snapshot set aside (five live notifications and the
    # mode gone) and ids back to 1, handed out again.
    p = t.start_perch()
    ids = [p.post("Kept %d" % i, timeout=0, app="flip") for i in range(5)]
    p.ctl_ok("mode", "set", "work")
    stop(p)
    path = os.path.join(state_dir(t), "state.json")
    # The quote that ends a title becomes '#': the structure breaks there.
    flip(path, b'"Kept 2"', at=7)
    q = start(t)
    listed = ids_of(q.list())
    check(listed == ids[:2] + ids[3:], "every notification but the damaged one should be back: listed %r, posted %r"
          % (listed, ids))
    check(ok(q, "mode") == {"modes": ["work"]}, "the mode should be back: %r" % ok(q, "mode"))
    nid = q.post("After the damage", timeout=0)
    check(nid > max(ids), "ids must never be handed out twice: new id %d after %s" % (nid, ids))
    said = warnings_naming(q, path)
    check(len(said) == 1 and "damaged" in said[0] and "1 record" in said[0],
          "one warning should say the state file is damaged and what it cost; log:\n%s" % q.log())
    check(glob.glob(path + ".corrupt-*"), "the damaged file should be kept beside: %r" % os.listdir(state_dir(t)))


@test
def a_bit_flipped_in_a_journal_line_costs_that_record_not_the_ones_after_nor_an_id(t):
    # Before: the records after the bad line dropped, and the next id went
    # back to the snapshot's.
    p = t.start_perch()
    first = [p.post("Snapshot %d" % i, timeout=0) for i in range(3)]
    stop(p)
    q = start(t)
    # The first turn that saves after a start writes a snapshot; the posts
    # after it are appended to the journal.
    warm = q.post("Folded into the snapshot", timeout=0)
    later = [q.post("Journal %d" % i, timeout=0) for i in range(4)]
    stop(q, how="kill")  # these four are in the journal only
    journal = os.path.join(state_dir(t), "state.json.journal")
    flip(journal, b'"Journal 0"', at=10)
    r = start(t)
    listed = ids_of(r.list())
    check(listed == first + [warm] + later[1:], "all but the damaged record should be back: listed %r, posted %r, "
          "%d, then %r" % (listed, first, warm, later))
    nid = r.post("After the damage", timeout=0)
    check(nid > max(later), "ids must never be handed out twice: new id %d after %s" % (nid, later))
    said = warnings_naming(r, journal)
    check(len(said) == 1 and "damaged" in said[0], "one warning should say the journal is damaged; log:\n%s"
          % r.log())


@test
def a_bit_flipped_where_the_state_still_parses_is_noticed_not_shown(t):
    # A letter of a title: still JSON, still a notification. Before: shown
    # with the wrong title, nothing said.
    p = t.start_perch()
    ids = [p.post("Title %d" % i, timeout=0) for i in range(3)]
    stop(p)
    path = os.path.join(state_dir(t), "state.json")
    flip(path, b'"Title 1"', at=1)  # 'T' becomes 'U'
    q = start(t)
    titles = [n["title"] for n in q.list()]
    check("Uitle 1" not in titles, "a damaged record must not be shown as if whole: %r" % titles)
    check(ids_of(q.list()) == [ids[0], ids[2]], "the others should be back: %r" % q.list())
    said = warnings_naming(q, path)
    check(len(said) == 1 and "checksum" in said[0], "one warning should say a checksum did not match; log:\n%s"
          % q.log())


@test
def a_full_board_comes_back_whole_after_a_restart(t):
    # Five on screen and max-queued (20) waiting. Before: restoring put all
    # 25 in the queue before any was measured, the flood rule bounded that
    # queue to 20, and the five oldest went to history as suppressed.
    p = t.start_perch()
    ids = [p.post("Board %d" % i, timeout=0, app="app %d" % i) for i in range(25)]
    check(ids_of(p.list()) == ids, "all 25 should be live before the restart: %r" % ids_of(p.list()))
    stop(p)
    q = start(t)
    listed = ids_of(q.list())
    check(listed == ids, "all 25 should be live after the restart: listed %r" % listed)
    check(history(q) == [], "nothing should have gone to history: %s" % json.dumps(history(q))[:300])
