"""Action buttons, clicks and the sender's view of the outcome (--wait)."""

import os
import subprocess
import time

from harness import (CARD_FILL, CARD_LEFT, CARD_RIGHT, MARGIN, check, poll, roughly, runs_in_column,
                     runs_in_row, test)
from pointer import pointer
from harness import ALL

# Which compositors these tests run on (harness.test).
COMPOSITORS = ALL

X_PROBE = CARD_LEFT + 130   # a column through the card's text, away from buttons' edges


def card_runs(t, count=1):
    def probe():
        img = t.screenshot()
        runs = runs_in_column(img, X_PROBE)
        if len(runs) != count or runs[0][0] != MARGIN:
            return None
        # At rest horizontally too: every card's left border at CARD_LEFT.
        rows = [runs_in_row(img, (top + bottom) // 2, CARD_LEFT - 40) for top, bottom in runs]
        return runs if all(row and row[0][0] == CARD_LEFT for row in rows) else None
    runs, _ = poll(probe, 4.0, 0.05)
    check(runs, "expected %d card(s) at rest, column x=%d shows %s"
          % (count, X_PROBE, runs_in_column(t.shots[-1][1], X_PROBE)))
    return runs


def buttons_in(img, card):
    """Horizontal runs of button pixels on the card's button row (buttons
    are lighter than the card), as (left, right) pairs."""
    y = card[1] - 10 - 12   # bottom padding, half a 24 px button
    runs, start = [], None
    for x in range(CARD_LEFT + 4, CARD_RIGHT - 4):
        inside = not roughly(img.pixel(x, y), CARD_FILL, tol=8)
        if inside and start is None:
            start = x
        elif not inside and start is not None:
            runs.append((start, x - 1))
            start = None
    return y, runs


def start_waiter(t, p, *args):
    return t.sway().popen([os.path.join(t.bindir, "perchctl"), "post", "--wait"] + list(args),
                          env=p.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def finish(waiter, timeout=6):
    try:
        out, err = waiter.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        waiter.kill()
        out, err = waiter.communicate()
        return None, out.decode(), err.decode()
    return waiter.returncode, out.decode(), err.decode()


def click(t, x, y, button="left"):
    # A fresh virtual pointer needs a moment before perch has its wl_pointer
    # (the seat gains the capability), then a move so perch gets `enter`.
    pointer(t.sway(), t.bindir, "sleep", "0.3", "move", x, y, "sleep", "0.1", "click", button)


@test
def clicking_a_drawn_button_reports_its_action_to_the_waiting_sender(t):
    p = t.start_perch()
    waiter = start_waiter(t, p, "--action", "yes=Yes", "--action", "no=No", "Question", "Do you want it?")
    card = card_runs(t)[0]
    y, buttons = buttons_in(t.shots[-1][1], card)
    check(len(buttons) == 2, "expected 2 buttons on the card's bottom row y=%d, found %s" % (y, buttons))
    click(t, (buttons[0][0] + buttons[0][1]) // 2, y)
    rc, out, err = finish(waiter)
    check(rc == 0 and out.strip() == "yes",
          "perchctl post --wait should print 'yes' and exit 0 after the Yes button was clicked; "
          "exit %s, stdout %r, stderr %r" % (rc, out, err))
    gone, _ = poll(lambda: runs_in_column(t.screenshot(), X_PROBE) == [], 2.5, 0.1)
    check(gone, "a non-resident notification should leave after its action was invoked")


@test
def resident_notification_stays_after_its_button_and_takes_new_buttons(t):
    p = t.start_perch()
    waiter = start_waiter(t, p, "--resident", "--action", "play=Play", "Player", "paused")
    card = card_runs(t)[0]
    y, buttons = buttons_in(t.shots[-1][1], card)
    check(len(buttons) == 1, "expected 1 button, found %s" % buttons)
    click(t, (buttons[0][0] + buttons[0][1]) // 2, y)
    rc, out, _ = finish(waiter)
    check(rc == 0 and out.strip() == "play", "the waiter should print 'play', got exit %s %r" % (rc, out))
    time.sleep(1.0)
    runs = runs_in_column(t.screenshot(), X_PROBE)
    check(runs == [card], "a resident notification must stay after its action: %s vs %s" % (runs, card))
    nid = p.list()[0]["id"]
    p.ctl_ok("post", "--replace", str(nid), "--resident", "--action", "pause=Pause", "--action", "next=Next",
             "--action", "stop=Stop", "Player", "playing")
    def three():
        img = t.screenshot()
        return len(buttons_in(img, runs_in_column(img, X_PROBE)[0])[1]) == 3
    ok, _ = poll(three, 2.0, 0.1)
    check(ok, "after --replace the card should show 3 buttons, shows %s"
          % buttons_in(t.shots[-1][1], runs_in_column(t.shots[-1][1], X_PROBE)[0])[1])


@test
def right_click_dismisses_all(t):
    p = t.start_perch()
    for i in range(3):
        p.post("Toast %d" % i, timeout=0)
    runs = card_runs(t, 3)
    click(t, X_PROBE, (runs[1][0] + runs[1][1]) // 2, "right")
    gone, waited = poll(lambda: runs_in_column(t.screenshot(), X_PROBE) == [], 2.5, 0.1)
    check(gone, "a right click should dismiss all three toasts; after %.1f s: %s"
          % (waited, runs_in_column(t.shots[-1][1], X_PROBE)))


@test
def left_click_without_actions_dismisses_and_the_sender_hears_it(t):
    p = t.start_perch()
    waiter = start_waiter(t, p, "--timeout", "0", "Click me")
    card = card_runs(t)[0]
    click(t, X_PROBE, (card[0] + card[1]) // 2)
    rc, out, err = finish(waiter)
    check(rc == 2 and out.strip() == "dismissed-by-user",
          "expected exit 2 / dismissed-by-user, got %s %r %r" % (rc, out, err))


@test
def wait_reports_expiry_and_closing_with_their_exit_codes(t):
    p = t.start_perch()
    expiring = start_waiter(t, p, "--timeout", "0.5", "Short")
    rc, out, _ = finish(expiring)
    check(rc == 3 and out.strip() == "expired", "expected exit 3 / expired, got %s %r" % (rc, out))
    closing = start_waiter(t, p, "--timeout", "0", "Dismissed from the command line")
    time.sleep(0.5)
    nid = p.list()[0]["id"]
    p.ctl_ok("dismiss", str(nid))
    rc, out, _ = finish(closing)
    check(rc == 2 and out.strip() == "dismissed-by-user",
          "perchctl dismiss is the user's dismissal: expected exit 2 / dismissed-by-user, got %s %r" % (rc, out))
