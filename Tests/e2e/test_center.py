"""The notification center's control plane: `perchctl center` opens,
closes and toggles it and says so, `--json` prints the method's object,
and `watch` (plain and --waybar) hears it change."""

import json

from harness import check, test
from harness import SWAY17
from test_controlplane import start_watch, stop

# Which compositors these tests run on (harness.test).
COMPOSITORS = SWAY17
COMPOSITORS_WHY = "the control socket only; the panel's pixels are tested on its own"


def wait_for_subscription(p, lines):
    """`watch` prints nothing until something happens: toggle a mode until
    its `modes` event shows the subscription is in place."""
    for _ in range(20):
        p.ctl_ok("mode", "toggle", "probe")
        if lines.until(lambda v: v.get("event") == "modes", 0.5):
            return
    check(False, "`perchctl watch` printed no modes event; output %r" % lines.seen)


@test
def perchctl_center_opens_closes_toggles_and_watch_hears_it(t):
    p = t.start_perch()
    p.post("Kept", timeout=0, app="mail")
    gone = p.post("Gone", timeout=0, app="chat")
    p.ctl_ok("dismiss", str(gone))
    said = p.ctl_ok("center").strip()
    check(said == "closed", "`perchctl center` should say closed at start, said %r" % said)
    proc, lines = start_watch(t, p)
    try:
        wait_for_subscription(p, lines)
        opened = json.loads(p.ctl_ok("center", "open", "--json"))
        check(opened == {"open": True, "entries": 2},
              "`perchctl center open --json` should print {\"open\": true, \"entries\": 2} "
              "(one on screen, one in history), printed %r" % (opened,))
        said = p.ctl_ok("center").strip()
        check(said == "open", "`perchctl center` should say open after `center open`, said %r" % said)
        check(lines.until(lambda v: v.get("event") == "center-opened", 5.0) is not None,
              "`perchctl watch` should print {\"event\":\"center-opened\"}; printed %r" % lines.seen)
        said = p.ctl_ok("center", "toggle").strip()
        check(said == "closed", "`perchctl center toggle` on an open center should say closed, said %r" % said)
        check(lines.until(lambda v: v.get("event") == "center-closed", 5.0) is not None,
              "`perchctl watch` should print {\"event\":\"center-closed\"}; printed %r" % lines.seen)
        # Closing a closed center changes nothing: no second event.
        p.ctl_ok("center", "close")
        p.ctl_ok("mode", "toggle", "probe")
        lines.until(lambda v: v.get("event") == "modes", 5.0)
        check([l for l in lines.seen if "center-" in l] == ['{"event":"center-opened"}', '{"event":"center-closed"}'],
              "watch should print one center-opened and one center-closed line, printed %r" % lines.seen)
    finally:
        stop(proc)
    printed = json.loads(p.ctl_ok("center", "--json"))
    check(printed == {"open": False, "entries": 2},
          "`perchctl center --json` should print {\"open\": false, \"entries\": 2}, printed %r" % (printed,))
    r = p.ctl("center", "fold")
    check(r.returncode != 0, "`perchctl center fold` should be a usage error, exited %d" % r.returncode)


@test
def watch_waybar_adds_center_open_while_the_center_is_open(t):
    p = t.start_perch()
    proc, lines = start_watch(t, p, "--waybar")
    try:
        first = lines.until(lambda v: True, 5.0)
        check(first is not None and first.get("class") == "empty",
              "`watch --waybar` should start with class 'empty', printed %r" % lines.seen)
        # The first object comes after the subscription: its event reaches us.
        p.ctl_ok("center", "open")
        opened = lines.until(lambda v: v.get("class") == ["empty", "center-open"], 5.0)
        check(opened is not None, "with the center open the class should be [\"empty\", \"center-open\"]; "
              "printed %r" % lines.seen)
        p.ctl_ok("center", "close")
        closed = lines.until(lambda v: v.get("class") == "empty", 5.0)
        check(closed is not None, "with the center closed again the class should be 'empty'; printed %r"
              % lines.seen)
    finally:
        stop(proc)
