"""Compositor faults, against perch-test-compositor: the stage layer surface
closed under perch, outputs removed (even the last) while a toast animates,
and a compositor that never releases buffers. Perch must not crash, must not
spin, and must show the toast again (a new stage with the toast on it) on an
output that is there.
"""

import os
import sys
import time

import testcomp
from testcomp import at_rest
from harness import TestFailure, check, test, TESTCOMP

# Against the test compositor, which injects what no real one can: once.
COMPOSITORS = (TESTCOMP,)


# --------------------------------------------------------------------------
# Helpers


def setup(t, autoframe=True, **kw):
    tc = testcomp.attach(t, **kw)
    if autoframe:
        tc.command("autoframe 16")
    p = t.start_perch()
    return tc, p


def stages(tc, mapped=True):
    return [s for s in tc.layer_surfaces(mapped=mapped) if s["layer"]["namespace"] == "notifications"]


def posted_toast(tc, p, title, body="body", timeout=0, known=None, extra=()):
    """Posts and returns (nid, stage, toast subsurface) once it is mapped."""
    known = {s["id"] for s in tc.surfaces()} if known is None else known
    nid = p.post(title, body, timeout=timeout, extra=list(extra))
    return (nid,) + toast_on_new_stage(tc, known)


def toast_on_new_stage(tc, known, timeout=5, what="a toast subsurface on a mapped stage"):
    """A mapped stage and a mapped toast subsurface with a buffer, at least
    one of them not in `known` (surface ids)."""
    def find():
        for st in stages(tc):
            for s in tc.children(st["id"], mapped=True):
                if s["buffer"] and (s["id"] not in known or st["id"] not in known):
                    return st, s
        return None
    return tc.wait_for(find, timeout, what=what)


def mid_slide(tc, tid, timeout=2):
    """Waits until the toast is well into its slide (30 < x < 270 of 300)."""
    def probe():
        s = tc.surface(tid)
        return s if 30 < s["position"][0] < 270 else None
    return tc.wait_for(probe, timeout, interval=0.005, what="surface %d part-way in" % tid)



def alive(t, p):
    rc = p.proc.poll()
    check(rc is None, "perch exited (%s); log tail:\n%s" % (rc, p.log()[-1500:]))


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def layer_roles_since(tc, mark):
    return [e for e in tc.events_since(mark, "role") if e.get("role") == "layer"]


def check_not_spinning(t, tc, p, mark, seconds=1.5, what=""):
    """Over `seconds`: perch makes at most a few layer surfaces and uses
    little CPU (no busy loop re-creating the stage)."""
    c0 = cpu_seconds(p.proc.pid)
    time.sleep(seconds)
    used = cpu_seconds(p.proc.pid) - c0
    made = len(layer_roles_since(tc, mark))
    closed = len(tc.events_since(mark, "closed"))
    t.notes.append("%s: %d layer surfaces made, %d closed, %.2f s CPU in %.1f s"
                   % (what, made, closed, used, seconds))
    check(made <= 3 and used < 0.3 * seconds,
          "%s perch spins: it made %d layer surfaces (%d closed by the compositor) and used "
          "%.2f s of CPU in %.1f s" % (what, made, closed, used, seconds))


def check_listed(p, nid):
    ids = [n.get("id") for n in p.list()]
    check(nid in ids, "notification %d should still be listed: %s" % (nid, p.list()))


# --------------------------------------------------------------------------
# Tests


@test
def fault_stage_closed_while_a_second_toast_slides_in(t):
    tc, p = setup(t)
    n1, stage, t1 = posted_toast(tc, p, "First")
    at_rest(tc, t1["id"])
    known = {s["id"] for s in tc.surfaces()}
    n2 = p.post("Second", "sliding in", timeout=0)
    t2 = tc.wait_for(lambda: [s for s in tc.children(stage["id"], mapped=True)
                              if s["buffer"] and s["id"] not in known], 3, what="the second toast")[0]
    s = mid_slide(tc, t2["id"])
    m = tc.mark()
    tc.command("closed %d" % stage["id"])
    t.notes.append("closed at x=%d" % s["position"][0])
    tc.wait_event("layer_surface_destroyed", since=m, surface=stage["id"], timeout=3)
    new_stage, _ = toast_on_new_stage(tc, known | {t2["id"]}, what="a new stage with a toast")
    check(new_stage["id"] != stage["id"], "the toasts should be on a new stage")
    kids = tc.wait_for(lambda: len([c for c in tc.children(new_stage["id"], mapped=True)
                                    if c["buffer"]]) == 2 and tc.children(new_stage["id"], mapped=True),
                       3, what="both toasts on the new stage")
    for c in kids:
        at_rest(tc, c["id"])
    alive(t, p)
    check_listed(p, n1)
    check_listed(p, n2)
    check_not_spinning(t, tc, p, m, 1.0, "after closed")
    # Input reaches the toasts on their new surfaces: a tap dismisses one.
    top = tc.surface(kids[0]["id"])
    r = tc.touch_down(0, top["global"][0] + 100, top["global"][1] + 15)
    check(tc.lands_on(r, top["id"]), "the tap should land on the moved toast: %s" % r)
    tc.touch_up(0)
    tc.wait_for(lambda: len(p.list()) == 1, 3, what="a tap on a moved toast to dismiss it")
    tc.check_no_protocol_errors()


@test
def fault_stage_closed_right_after_it_mapped_while_the_toast_slides_in(t):
    """`closed` 0.1-0.3 s after the stage mapped (mid-slide of its first
    toast): the compositor accepted and showed it, so this is not a
    compositor that refuses the surface; the toast must come back."""
    tc, p = setup(t)
    nid, stage, toast = posted_toast(tc, p, "Just arrived", "closed at once")
    s = mid_slide(tc, toast["id"])
    m = tc.mark()
    tc.command("closed %d" % stage["id"])
    t.notes.append("closed at x=%d" % s["position"][0])
    try:
        toast_on_new_stage(tc, {stage["id"], toast["id"]}, timeout=3,
                           what="the toast on a new stage")
    except TestFailure:
        alive(t, p)
        raise TestFailure("the stage was closed %s the toast was mid-slide; no new stage with the "
                          "toast appeared within 3 s (layer surfaces made since: %d). perch log: %s"
                          % ("while", len(layer_roles_since(tc, m)), p.log()[-600:].strip()))
    alive(t, p)
    check_listed(p, nid)
    tc.check_no_protocol_errors()


@test
def fault_posts_after_an_early_close_are_shown(t):
    """After the stage was closed soon after it mapped, a notification
    posted 1.5 s later (outputs unchanged) must still reach the screen."""
    tc, p = setup(t)
    nid, stage, toast = posted_toast(tc, p, "Just arrived", "closed at once")
    mid_slide(tc, toast["id"])
    tc.command("closed %d" % stage["id"])
    time.sleep(1.5)
    known = {s["id"] for s in tc.surfaces()}
    n2 = p.post("Posted later", "outputs unchanged", timeout=0)
    try:
        toast_on_new_stage(tc, known, timeout=3, what="the later toast on a mapped stage")
    except TestFailure:
        alive(t, p)
        raise TestFailure("a notification posted 1.5 s after an early `closed` never showed: "
                          "surfaces %s; listed %s; perch log: %s"
                          % ([(s["id"], s["role"], "mapped" if s["mapped"] else "unmapped")
                              for s in tc.surfaces()], [n["id"] for n in p.list()],
                             p.log()[-400:].strip()))
    check_listed(p, n2)
    tc.check_no_protocol_errors()


@test
def fault_output_removed_while_animating_moves_the_toast_to_the_other_output(t):
    tc, p = setup(t, outputs=["HEADLESS-1:1280x720", "HEADLESS-2:1024x600"])
    nid, stage, toast = posted_toast(tc, p, "Moving house", "mid-slide")
    check(stage["layer"]["output"] == "HEADLESS-1" or stage["outputs"] == ["HEADLESS-1"],
          "the stage should start on HEADLESS-1: %s / %s" % (stage["layer"]["output"], stage["outputs"]))
    mid_slide(tc, toast["id"])
    m = tc.mark()
    tc.command("output remove HEADLESS-1")
    new_stage, new_toast = toast_on_new_stage(tc, {stage["id"], toast["id"]},
                                              what="the toast on a stage on HEADLESS-2")
    check(new_stage["outputs"] == ["HEADLESS-2"],
          "the new stage should be on HEADLESS-2: outputs %s" % new_stage["outputs"])
    check(new_stage["layer"]["configured_size"] == [300, 580],
          "the new stage should be sized for the 1024x600 output: %s" % new_stage["layer"])
    s = at_rest(tc, new_toast["id"])
    check("HEADLESS-2" in s["outputs"], "the toast should enter HEADLESS-2: %s" % s["outputs"])
    alive(t, p)
    check_listed(p, nid)
    check_not_spinning(t, tc, p, m, 1.0, "after removing one of two outputs")
    # The new stage works: a second toast joins it.
    n2, st2, t2 = posted_toast(tc, p, "Second")
    check(st2["id"] == new_stage["id"], "the second toast should go on the same stage")
    tc.check_no_protocol_errors()


@test
def fault_last_output_removed_then_added_back(t):
    tc, p = setup(t)
    nid, stage, toast = posted_toast(tc, p, "Nowhere to go", "for a moment")
    mid_slide(tc, toast["id"])
    m = tc.mark()
    tc.command("output remove HEADLESS-1")
    tc.wait_event("closed", since=m, surface=stage["id"], timeout=3)
    time.sleep(0.2)
    alive(t, p)
    check_not_spinning(t, tc, p, m, 1.5, "with no output")
    check_listed(p, nid)
    # A post while there is no output is kept too.
    n2 = p.post("Posted with no output", timeout=0)
    time.sleep(0.3)
    alive(t, p)
    check_listed(p, n2)
    known = {s["id"] for s in tc.surfaces()}
    m = tc.mark()
    tc.command("output add HEADLESS-2 1280 720")
    new_stage, _ = toast_on_new_stage(tc, known | {toast["id"], stage["id"]},
                                      what="the toasts on the new output")
    check(new_stage["outputs"] == ["HEADLESS-2"], "the stage should be on HEADLESS-2: %s"
          % new_stage["outputs"])
    kids = tc.wait_for(lambda: (lambda k: k if len(k) == 2 else None)(
        [c for c in tc.children(new_stage["id"], mapped=True) if c["buffer"]]), 3,
        what="both toasts on the new stage")
    for c in kids:
        at_rest(tc, c["id"])
    alive(t, p)
    check_listed(p, nid)
    check_not_spinning(t, tc, p, m, 1.0, "after an output came back")
    tc.check_no_protocol_errors()


@test
def fault_buffers_never_released(t):
    """--release never: perch must not draw into (or re-attach) a buffer the
    compositor holds; it may allocate new ones. It keeps working."""
    tc, p = setup(t, release="never")
    n1, stage, t1 = posted_toast(tc, p, "First", "held buffers")
    at_rest(tc, t1["id"])
    before = tc.dump(t1["id"])
    n2, st2, t2 = posted_toast(tc, p, "Second", "still shows")
    check(st2["id"] == stage["id"], "same stage expected")
    at_rest(tc, t2["id"])
    # Redraw the first one (replace in place): needs a new buffer.
    p.ctl_ok("post", "--replace", str(n1), "--timeout", "0", "First, replaced", "new text")
    tc.wait_for(lambda: tc.dump(t1["id"]).data != before.data, 3,
                what="the replaced toast to be redrawn into a new buffer")
    p.ctl_ok("dismiss", str(n2))
    tc.wait_for(lambda: n2 not in [n.get("id") for n in p.list()], 3, what="the second toast to go")
    # Fading in and out redraws the toast at each frame: a new buffer each time.
    n4, st4, t4 = posted_toast(tc, p, "Fading", "in and out", extra=("--enter", "fade", "--exit", "fade"))
    time.sleep(1.0)
    p.ctl_ok("dismiss", str(n4))
    tc.wait_for(lambda: n4 not in [n.get("id") for n in p.list()], 3, what="the fading toast to go")
    fade_commits = [e for e in tc.events_since(0, "commit", surface=t4["id"]) if e.get("buffer_object")]
    check(len(fade_commits) >= 6, "a fading toast should be redrawn at several frames, was drawn "
          "%d times" % len(fade_commits))
    time.sleep(0.5)
    alive(t, p)
    check_listed(p, n1)
    # No wl_buffer attached twice to a surface (none was ever released).
    reused = {}
    for ev in tc.events_since(0, "commit"):
        b = ev.get("buffer_object")
        if b:
            reused.setdefault((ev["surface"], b), []).append(ev["seq"])
    twice = {k: v for k, v in reused.items() if len(v) > 1}
    t.notes.append("buffers attached: %d (%d for the fading toast)" % (len(reused), len(fade_commits)))
    check(not twice, "perch re-attached buffers the compositor still held (surface, wl_buffer id): "
          "commit seqs %s" % twice)
    check(tc.events_since(0, "release") == [], "the compositor released a buffer in 'never' mode")
    n3, st3, t3 = posted_toast(tc, p, "Third", "after all that")
    at_rest(tc, t3["id"])
    alive(t, p)
    tc.check_no_protocol_errors()


if __name__ == "__main__":
    import run
    run.MODULES = []
    sys.exit(run.main())


@test
def fault_named_output_unplugged_falls_back_and_the_stack_moves_back_when_it_returns(t):
    """A laptop docked and undocked: `output=DP-2`; the stack follows DP-2
    away (to the compositor's choice) and back."""
    from test_config import write_config
    tc = testcomp.attach(t, outputs=["eDP-1:1280x720", "DP-2:1920x1080"])
    tc.command("autoframe 16")
    path = write_config(t, "output=DP-2\n")
    p = t.start_perch(args=("-c", path))
    nid, stage, toast = posted_toast(tc, p, "Docked", "on the big screen")
    check(stage["layer"]["output"] == "DP-2", "the stage should be made for DP-2: %s" % stage["layer"])
    at_rest(tc, toast["id"])
    known = {s["id"] for s in tc.surfaces()}
    tc.command("output remove DP-2")
    undocked, toast2 = toast_on_new_stage(tc, known, what="the toast on a stage on eDP-1")
    check(undocked["outputs"] == ["eDP-1"], "undocked, the stage should be on eDP-1: %s" % undocked["outputs"])
    at_rest(tc, toast2["id"])
    check_listed(p, nid)
    known = {s["id"] for s in tc.surfaces()}
    m = tc.mark()
    tc.command("output add DP-2 1920 1080")
    docked, toast3 = toast_on_new_stage(tc, known, what="the toast back on a stage on DP-2")
    check(docked["layer"]["output"] == "DP-2" and docked["outputs"] == ["DP-2"],
          "docked again, the stage should be on DP-2: %s / %s" % (docked["layer"], docked["outputs"]))
    check(docked["layer"]["configured_size"] == [300, 1060],
          "the stage should be sized for the 1920x1080 output: %s" % docked["layer"])
    at_rest(tc, toast3["id"])
    alive(t, p)
    check_listed(p, nid)
    check_not_spinning(t, tc, p, m, 1.0, "after the named output came back")
    tc.check_no_protocol_errors()
