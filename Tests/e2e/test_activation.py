"""xdg-activation: an action the user invokes on a toast reaches its
program with an activation token first (ActivationToken, spec 1.2), so the
program may raise its window; one invoked by a script comes without."""

import re
import subprocess
import time

from harness import ALL, CARD_FILL, CARD_LEFT, SWAY17, check, roughly, test
from pointer import pointer
from test_dbus import card_at_rest, gdbus, start


def monitor(t, env):
    m = t.sway().popen(["gdbus", "monitor", "--session", "--dest", "org.freedesktop.Notifications"],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.5)   # subscribed before anything happens
    return m


def signals(m):
    m.terminate()
    out = m.communicate(timeout=5)[0].decode()
    return [line.split(": ", 1)[-1] for line in out.splitlines() if "org.freedesktop.Notifications." in line]


def notify_with_actions(t, env, title):
    r = gdbus(t, env, "--method", "org.freedesktop.Notifications.Notify", "app", "0", "", title, "Open it?",
              "['open', 'Open', 'later', 'Later']", "{}", "0")
    check(r.returncode == 0, "Notify failed: %r" % r.stderr)
    return int(r.stdout.strip().strip("(),").split()[-1])


@test(compositors=ALL)
def a_clicked_action_sends_its_activation_token_first(t):
    p, env = start(t)
    nid = notify_with_actions(t, env, "Mail")
    card = card_at_rest(t)[0]
    img = t.shots[-1][1]
    y = card[1] - 10 - 12
    xs = [x for x in range(CARD_LEFT + 4, CARD_LEFT + 150) if not roughly(img.pixel(x, y), CARD_FILL, tol=8)]
    check(xs, "no button pixels on the card's bottom row y=%d" % y)
    m = monitor(t, env)
    pointer(t.sway(), t.bindir, "sleep", "0.3", "move", xs[0] + 20, y, "sleep", "0.1", "click", "left")
    time.sleep(1.0)
    seen = signals(m)
    tokens = [s for s in seen if s.startswith("org.freedesktop.Notifications.ActivationToken")]
    invoked = [i for i, s in enumerate(seen) if s.startswith("org.freedesktop.Notifications.ActionInvoked")]
    check(invoked and "(uint32 %d, 'open')" % nid in seen[invoked[0]],
          "the click on Open should send ActionInvoked(%d, 'open'); the bus saw:\n%s" % (nid, "\n".join(seen)))
    check(len(tokens) == 1 and re.search(r"\(uint32 %d, '[^']+'\)" % nid, tokens[0]),
          "one ActivationToken(%d, token) should come with the click; the bus saw:\n%s"
          % (nid, "\n".join(seen)))
    check(seen.index(tokens[0]) < invoked[0],
          "ActivationToken must come before ActionInvoked; the bus saw:\n%s" % "\n".join(seen))


@test(compositors=SWAY17, why="no input on screen: the compositor plays no part")
def an_action_invoked_by_perchctl_comes_without_a_token(t):
    p, env = start(t)
    nid = notify_with_actions(t, env, "Mail")
    card_at_rest(t)
    m = monitor(t, env)
    p.ctl_ok("invoke", str(nid), "later")
    time.sleep(0.5)
    seen = signals(m)
    check(any("ActionInvoked (uint32 %d, 'later')" % nid in s for s in seen),
          "perchctl invoke should send ActionInvoked(%d, 'later'); the bus saw:\n%s" % (nid, "\n".join(seen)))
    check(not any("ActivationToken" in s for s in seen),
          "no input, no token: the bus saw:\n%s" % "\n".join(seen))
