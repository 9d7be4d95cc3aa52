"""A compositor from a root, nested in perch-test-compositor (python3
stdlib only).

No compositor here can be given a touch device (there is no /dev/uinput),
but wlroots' wayland backend forwards its parent's wl_touch to its own
seat. So the test compositor, which injects touch, is the parent; sway or
labwc from a root runs inside it (scripts/headless-sway with
HEADLESS_PARENT), its one output (WL-1) a 1280x720 window at the parent's
top-left; Perch runs on the nested compositor, whose own touch handling
routes the parent's touch points to it. A point (x, y) on the parent is
(x, y) on the nested output.

    n = nested.attach(t)        # in a test marked for a root's compositor
    p = t.start_perch()         # perch on the nested compositor
    n.parent.touch_down(0, x, y)
    img = n.window()            # the nested output as the parent got it
    img = t.screenshot()        # the same, by grim on the nested compositor

The parent fires frame callbacks every 16 ms (autoframe): the nested
compositor draws only when its window's frame callback fires. It never
goes quiet then, so the parent's `sync` must not be used.
"""

import os

import harness
import testcomp
from harness import check


class Nested:
    """A nested compositor's harness.Session (its attributes are this
    object's) and its parent, a testcomp.TestCompositor; stopping it stops
    both, the nested one first."""

    def __init__(self, session, parent):
        self.session = session
        self.parent = parent

    def __getattr__(self, name):
        return getattr(self.session, name)

    def window(self):
        """The parent's output, the nested compositor's window on it, as
        harness.Image."""
        return self.parent.screenshot()

    def sway_log(self):
        """The nested compositor's log, then the parent's (its protocol
        errors are the nested compositor's)."""
        return self.session.sway_log() + "\n" + self.parent.sway_log()

    def stop(self):
        try:
            self.session.stop()
        finally:
            self.parent.stop()


def attach(t, autoframe_ms=16):
    """Start the parent and t's compositor nested in it, and make them t's
    session: t.start_perch() runs perch on the nested compositor."""
    check(t.session is None, "the test already has a session")
    check(t.compositor in harness.IN_ROOT,
          "%s cannot nest (sway 1.7's wlroots needs linux-dmabuf or wl_drm from its parent); "
          "mark the test for a root's compositor" % t.compositor)
    parent = testcomp.TestCompositor(workdir=t.tmp, bindir=t.bindir)
    try:
        parent.command("autoframe %d" % autoframe_ms)
        session = harness.Session(t.tmp, t.compositor,
                                  parent=os.path.join(parent.dir, parent.wayland_display))
    except BaseException:
        parent.stop()
        raise
    nested = Nested(session, parent)
    t.session = nested   # from here t's cleanup stops both
    window = parent.wait_toplevel()
    check(window["size"] == [harness.SCREEN_W, harness.SCREEN_H] and window["global"] == [0, 0],
          "the nested compositor's window should be %dx%d at (0,0): %s"
          % (harness.SCREEN_W, harness.SCREEN_H, window))
    return nested
