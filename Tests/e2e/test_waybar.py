"""A waybar module that survives a restart (issue 41, item 4): the
README's `custom/perch` module, run as waybar runs it (its `exec` through
`sh -c`, JSON lines read one by one), keeps printing across `perch
--replace` and across a kill and a restart, says `offline` while Perch is
gone, and counts what do-not-disturb holds off screen."""

import json
import os
import re
import subprocess
import threading
import time

from harness import CLEAN_PATH, REPO, SWAY17, Perch, check, poll, test
from test_persistence import wait_serving
from test_replace import serving

COMPOSITORS = SWAY17
COMPOSITORS_WHY = "perchctl and the control socket only"


def readme_module():
    """The README's waybar module, as a user copies it into waybar's config."""
    with open(os.path.join(REPO, "README.md")) as f:
        text = f.read()
    m = re.search(r'```json\n(\s*"custom/perch":\s*\{.*?\n\s*\})\n\s*```', text, re.S)
    check(m, "README.md has no ```json block with a \"custom/perch\" module")
    return json.loads("{%s}" % m.group(1))["custom/perch"]


class Bar:
    """The module's program as waybar runs it: `sh -c EXEC`, stdout read a
    line at a time; every line is kept, parsed."""

    KEYS = {"text", "tooltip", "class", "alt", "percentage"}

    def __init__(self, t, env, module):
        self.t = t
        self.module = module
        self.env = dict(env, PATH=t.bindir + ":" + CLEAN_PATH)
        self.proc = t.sway().popen(["sh", "-c", module["exec"]], env=self.env, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE)
        self.lines = []
        self.bad = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.proc.stdout:
            try:
                line = json.loads(raw)
            except ValueError:
                self.bad.append(raw)
                continue
            if not isinstance(line, dict) or set(line) != self.KEYS:
                self.bad.append(raw)
            self.lines.append(line)

    def click(self, button="on-click"):
        r = self.t.sway().run(["sh", "-c", self.module[button]], env=self.env)
        check(r.returncode == 0, "%s (%s) failed: %r" % (button, self.module[button], r.stderr))

    def wait_for(self, what, pred, since=0, timeout=5.0):
        """Waits for a line after the first `since` that satisfies pred;
        returns it."""
        def found():
            return next((line for line in self.lines[since:] if pred(line)), None)
        line, _ = poll(found, timeout, 0.05)
        check(line is not None, "the bar never showed %s; it printed:\n  %s\nstderr: %s"
              % (what, "\n  ".join(json.dumps(l) for l in self.lines[since:]) or "(nothing)", self.stderr()))
        return line

    def stderr(self):
        if self.proc.poll() is None:
            return "(still running)"
        return "exited %d: %s" % (self.proc.returncode, self.proc.stderr.read().decode(errors="replace"))

    def running(self, what):
        check(self.proc.poll() is None, "the module's program exited %s: %s" % (what, self.stderr()))


def classes(line):
    c = line["class"]
    return c if isinstance(c, list) else [c]


@test
def the_readme_waybar_module_counts_what_do_not_disturb_holds(t):
    module = readme_module()
    p = t.start_perch()
    bar = Bar(t, p.env, module)
    bar.wait_for("the empty state at start", lambda l: l["class"] == "empty" and l["text"] == "")
    p.post("Mail", timeout=0)
    bar.wait_for("one notification", lambda l: l["text"] == "1" and l["class"] == "active")
    # Do-not-disturb from the bar's own on-click: the toast is held off
    # screen, and still counted (the bar said "0 notifications" before).
    bar.click()
    line = bar.wait_for("the held toast counted during do-not-disturb",
                        lambda l: "dnd" in classes(l) and l["text"] == "1")
    check(classes(line) == ["dnd", "waiting"] and line["alt"] == "dnd"
          and line["tooltip"] == "1 notification, 1 waiting, do not disturb",
          "during do-not-disturb with one held: %s" % line)
    p.post("Disk full", timeout=0, urgency="critical")
    line = bar.wait_for("a critical toast beside the held one", lambda l: l["text"] == "2")
    check(line["tooltip"] == "2 notifications, 1 waiting, do not disturb", "%s" % line)
    bar.click()
    bar.wait_for("do-not-disturb off", lambda l: l["class"] == "active" and l["text"] == "2")
    check_lines(bar, module)


@test
def the_readme_waybar_module_survives_replace_and_a_kill_and_restart(t):
    module = readme_module()
    p = t.start_perch()
    bar = Bar(t, p.env, module)
    bar.wait_for("the empty state at start", lambda l: l["class"] == "empty")
    p.post("Mail", timeout=0)
    bar.wait_for("one notification", lambda l: l["text"] == "1")

    # perch --replace: the old daemon goes, the new one serves; the module
    # keeps running and follows the new one.
    before = len(bar.lines)
    q = Perch(t.sway(), t.bindir, os.path.join(t.tmp, "perch-2.log"), args=["--replace"])
    t.perch = q
    check(p.wait_exit(10) is not None, "the old perch should have exited")
    # (Before the old one exits, it may be the one answering.)
    serving(q)
    q.post("After the replace", timeout=0)
    bar.wait_for("the new daemon's count", lambda l: l["text"] == "2", since=before)
    bar.running("across perch --replace")

    # A kill: offline while it is gone, then the state again when it is back.
    before = len(bar.lines)
    q.proc.kill()
    q.proc.wait()
    gone = time.monotonic()
    line = bar.wait_for("offline while Perch is gone", lambda l: l["class"] == "offline", since=before)
    took = time.monotonic() - gone
    check(line["alt"] == "offline" and line["text"] == "" and "not running" in line["tooltip"],
          "the offline line: %s" % line)
    check(took < 3, "offline should be said within 3 s of the kill, took %.1f s" % took)
    t.notes.append("offline said %.2f s after the kill" % took)
    before = len(bar.lines)
    r = Perch(t.sway(), t.bindir, os.path.join(t.tmp, "perch-3.log"))
    t.perch = r
    wait_serving(r)
    served = time.monotonic()
    line = bar.wait_for("the state again once Perch is back", lambda l: l["class"] != "offline", since=before)
    t.notes.append("the state again %.2f s after Perch served" % (time.monotonic() - served))
    check(line["text"] == "2", "the two live notifications, restored: %s" % line)
    r.post("Back", timeout=0)
    bar.wait_for("a count after the restart", lambda l: l["text"] == "3", since=before)
    bar.running("across a kill and a restart")
    check_lines(bar, module)


def check_lines(bar, module):
    """Every line is one waybar reads, has an icon, and differs from the
    one before."""
    icons = module["format-icons"]
    missing = sorted({l["alt"] for l in bar.lines} - set(icons))
    check(not missing, "format-icons has no icon for alt %s" % missing)
    check(not bar.bad, "lines waybar could not read: %s" % bar.bad)
    repeated = [a for a, b in zip(bar.lines, bar.lines[1:]) if a == b]
    check(not repeated, "the same line twice in a row: %s" % repeated)
