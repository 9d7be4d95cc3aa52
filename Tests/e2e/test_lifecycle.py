"""How perch and perchctl start, fail and stop (exit codes)."""

import os
import signal

from harness import Perch, check, test
from harness import ALL, SWAY17

# Which compositors these tests run on (harness.test).
COMPOSITORS = SWAY17
COMPOSITORS_WHY = "exit codes and signals: no compositor behaviour"


@test
def perchctl_without_daemon_exits_1(t):
    s = t.sway()
    env = s.env(XDG_RUNTIME_DIR=t.user_dir(), WAYLAND_DISPLAY="wayland-1")
    for args in (["list", "--json"], ["post", "Nobody listens"]):
        r = s.run([os.path.join(t.bindir, "perchctl")] + args, env=env)
        out = (r.stdout + r.stderr).strip()
        check(r.returncode == 1, "perchctl %s with no daemon exited %d (expected 1); "
              "output: %r" % (" ".join(args), r.returncode, out))
        check(out and len(out.splitlines()) == 1,
              "perchctl %s with no daemon should print one line, printed %r"
              % (" ".join(args), out))


@test
def perch_without_wayland_display_exits_2(t):
    s = t.sway()
    env = s.env(XDG_RUNTIME_DIR=t.user_dir(), WAYLAND_DISPLAY=None)
    t.perch = p = Perch(s, t.bindir, os.path.join(t.tmp, "perch.log"), env=env)
    rc = p.wait_exit(5)
    check(rc is not None, "perch without WAYLAND_DISPLAY still running after 5 s")
    check(rc == 2, "perch without WAYLAND_DISPLAY exited %d, expected 2" % rc)
    log = p.log()
    check("WAYLAND_DISPLAY" in log,
          "perch's message should name WAYLAND_DISPLAY; it printed %r" % log.strip())


def check_signal_exit(t, sig):
    p = t.start_perch()
    p.post("About to stop", timeout=30)
    p.proc.send_signal(sig)
    rc = p.wait_exit(5)
    check(rc is not None, "perch still running 5 s after %s" % sig.name)
    check(rc == 0, "perch exited %d after %s, expected 0" % (rc, sig.name))


@test
def sigterm_exits_0(t):
    check_signal_exit(t, signal.SIGTERM)


@test
def sigint_exits_0(t):
    check_signal_exit(t, signal.SIGINT)


@test(compositors=ALL)
def compositor_gone_exits_1(t):
    p = t.start_perch()
    p.post("The compositor is going away", timeout=30)
    t.sway().kill_sway(signal.SIGKILL)
    rc = p.wait_exit(5)
    check(rc is not None, "perch still running 5 s after sway was killed")
    check(rc == 1, "perch exited %d after sway was killed, expected 1" % rc)
