"""Quiet while the screen is shared: a screencast through the real stack
(share.py: PipeWire, WirePlumber, xdg-desktop-portal with
xdg-desktop-portal-wlr, a ScreenCast session consumed by GStreamer's
pipewiresrc) holds toasts until it ends, and `perchctl status` says why.

Where xdg-desktop-portal-wlr cannot cast (on the test machines, headless
sway 1.7 without /dev/dri, its Start fails: "unable to receive a valid
format from wlr_screencopy"), share.py makes the same graph by hand — a Video/Source node named as xdg-desktop-portal-wlr names
its streams, with a pipewiresrc consumer that WirePlumber links to it —
and the test prints which it used.

The stack does not depend on the compositor (perch-share reads the
PipeWire graph), so these run on sway 1.7 only.
"""

import os
import signal
import time

import share
from harness import SWAY17, check, poll, runs_in_column, test
from test_config import write_config
from test_controlplane import ok
from test_dbus import X_PROBE, card_at_rest
from test_dbus import start as start_on_bus

COMPOSITORS = SWAY17
COMPOSITORS_WHY = "the share is seen in the PipeWire graph, whatever the compositor"

GRACE_S = 2.0        # ShareSignals.grace


def helpers(p):
    """The pids of perch-share processes that perch started (its children)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                stat = f.read()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        parent = int(stat[stat.rindex(")") + 2:].split()[1])
        if name == "perch-share" and parent == p.proc.pid:
            found.append(int(entry))
    return found


def no_card(t):
    """Nothing drawn where the top toast would be."""
    return not runs_in_column(t.screenshot(), X_PROBE)


def start(t, config):
    path = write_config(t, config)
    p, env = start_on_bus(t, ("-c", path))
    return p, env, path


def wait_sharing(p, sharing, timeout):
    got, _ = poll(lambda: ok(p, "status")["sharing"] == sharing or None, timeout, 0.05)
    return got


@test
def a_screencast_holds_toasts_and_status_says_why_until_it_ends(t):
    # Perch first: its helper finds no PipeWire ("absent"), and finds the
    # server when it starts.
    p, env, _ = start(t, "while-sharing=hold\n")
    check(helpers(p), "while-sharing=hold starts perch-share")
    stack = share.start(t, env)
    cast = stack.cast()
    print("    the share: %s" % cast.how, flush=True)
    check(wait_sharing(p, True, 5.0), "status should say sharing within 5 s of the stream's consumer; "
          "the log:\n%s" % p.log()[-1500:])
    held = p.post("Held", "waits for the share to end", timeout=10)
    time.sleep(1.0)
    check(no_card(t), "a toast posted during the share must not be on screen")
    st = ok(p, "status")
    check(st["held"] == 1 and st["holding"] == ["sharing"] and st["shown"] == 0,
          "status should say one held, because of the share: %s"
          % {k: st[k] for k in ("sharing", "holding", "held", "shown")})
    text = p.ctl("status").stdout
    check("held because: sharing" in text, "perchctl status should say why: %r" % text)
    stopped = time.monotonic()
    cast.stop()
    time.sleep(max(0.0, stopped + GRACE_S / 2 - time.monotonic()))
    check(no_card(t), "within the grace the toast is still held")
    card_at_rest(t, timeout=GRACE_S + 3.0)
    print("    the toast came %.1f s after the share ended (grace %.0f s)"
          % (time.monotonic() - stopped, GRACE_S), flush=True)
    st = ok(p, "status")
    check(not st["sharing"] and st["holding"] == [] and held in [n["id"] for n in p.list()],
          "after the share: %s" % {k: st[k] for k in ("sharing", "holding", "held", "shown")})


@test
def a_camera_is_not_a_screen(t):
    p, env, _ = start(t, "while-sharing=hold\n")
    stack = share.start(t, env)
    stack.stream("xdpw-stream-CAMERA", "Video/Source", role="Camera")
    time.sleep(0.5)
    p.post("Shown", "a camera is no share")
    card_at_rest(t)
    check(not ok(p, "status")["sharing"], "a camera's stream with a consumer is not a share")


@test
def hide_content_shows_the_toast_without_what_it_says(t):
    p, env, _ = start(t, "while-sharing=hide-content\n")
    stack = share.start(t, env)
    cast = stack.cast(portal=False)
    check(wait_sharing(p, True, 5.0), "status should say sharing; the log:\n%s" % p.log()[-1500:])
    p.post("Secret title", "secret body", app="mail", timeout=30)
    runs = card_at_rest(t)
    top, bottom = runs[0]
    during = t.screenshot().pixels(X_PROBE - 130, top, X_PROBE + 160, bottom)
    # Kept for the docs (docs/images/while-sharing-hide-content.png).
    os.makedirs(t.outdir, exist_ok=True)
    t.shots[-1][1].save_png(os.path.join(t.outdir, "while-sharing-hide-content.png"))
    st = ok(p, "status")
    check(st["shown"] == 1 and st["holding"] == ["sharing"], "shown, and the share named: %s" % st)
    check([n["title"] for n in p.list()] == ["Secret title"], "the notification itself is unchanged")
    cast.stop()

    def redrawn():
        runs = runs_in_column(t.screenshot(), X_PROBE)
        if len(runs) != 1:
            return None
        a, b = runs[0]
        after = t.shots[-1][1].pixels(X_PROBE - 130, a, X_PROBE + 160, b)
        return after != during or None
    changed, _ = poll(redrawn, GRACE_S + 3.0, 0.1)
    check(changed, "the toast should be drawn again with its title and body once the share ends")


@test
def while_sharing_show_runs_no_helper_and_a_reload_starts_and_stops_it(t):
    p, _, path = start(t, "while-sharing=show\n")
    time.sleep(0.3)
    check(not helpers(p), "while-sharing=show must start no perch-share")
    with open(path, "w") as f:
        f.write("while-sharing=hold\n")
    p.ctl_ok("reload")
    first, _ = poll(lambda: helpers(p) or None, 3.0, 0.05)
    check(first, "a reload to hold starts perch-share")
    # A helper that dies is told once and started again (1 s later).
    os.kill(first[0], signal.SIGKILL)
    again, _ = poll(lambda: [pid for pid in helpers(p) if pid != first[0]] or None, 4.0, 0.05)
    check(again, "a perch-share that died is started again; the log:\n%s" % p.log()[-1000:])
    check(p.log().count("perch-share stopped") == 1, "its death is told once: %s" % p.log()[-1000:])
    with open(path, "w") as f:
        f.write("while-sharing=show\n")
    p.ctl_ok("reload")
    gone, _ = poll(lambda: not helpers(p) or None, 3.0, 0.05)
    check(gone, "a reload to show stops perch-share")
