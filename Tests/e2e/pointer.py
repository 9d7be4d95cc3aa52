"""A virtual pointer for end-to-end tests (python3 stdlib only).

Drives Tests/Tools/perch-test-pointer as the session user:

    pointer(s, t.bindir, "move", 1100, 40, "click", "left")   # one shot
    pointer(s, t.bindir, "move 1100 40", "sleep 0.2", "click left")

    with HeldPointer(s, t.bindir) as p:                        # stays plugged in
        p.send("move 1100 40")      # returns once sway has handled it
        ...                         # the toast under (1100, 40) stays hovered
        p.send("click left")

Coordinates are output-layout pixels (the single 1280x720 headless output).

Why two forms: sway unplugs the virtual pointer when the tool exits; the
seat then has no pointer, so sway clears pointer focus (the surface gets
wl_pointer.leave), hides the cursor, and takes the pointer capability
away. A one-shot `move` therefore hovers only until the tool exits: use it
for clicks, and HeldPointer (or a trailing `sleep`) for anything that must
stay hovered. While a pointer is plugged in, sway draws its cursor (about
15x21 pixels, top-left 2 px up and left of the position) into screenshots:
keep it away from pixels a test checks. (labwc's cursor is invisible in
the tests' sessions: scripts/headless-sway gives it a transparent cursor
theme, as labwc draws its cursor even with no pointer plugged in.)
"""

import os
import select
import subprocess
import time

from harness import TestFailure

TOOL = "perch-test-pointer"


def tool_path(bindir):
    path = os.path.join(bindir, TOOL)
    if not os.access(path, os.X_OK):
        raise TestFailure("%s not found in %s (build it: swift build -c release "
                          "--product %s; harness.prepare_bindir must copy it)"
                          % (TOOL, bindir, TOOL))
    return path


def words(commands):
    """Flatten ("move 1 2", "click", "left", 3) into ["move", "1", "2", "click", "left", "3"]."""
    out = []
    for c in commands:
        out += str(c).split()
    return out


def pointer(session, bindir, *commands, timeout=10, extent=None):
    """Run one perch-test-pointer script as the session user; returns the
    CompletedProcess. extent=(w, h) overrides the layout size. Fails the
    test if the tool fails (bad command, protocol error, no compositor)."""
    argv = [tool_path(bindir)]
    if extent is not None:
        argv += ["--extent", str(extent[0]), str(extent[1])]
    argv += ["--"] + words(commands)
    r = session.run(argv, timeout=timeout)
    if r.returncode != 0:
        raise TestFailure("%s %s exited %d: %s" % (TOOL, " ".join(words(commands)),
                                                  r.returncode, r.stderr.strip()))
    return r


class HeldPointer:
    """A virtual pointer that stays plugged in until close(): perch-test-pointer
    --stdin, fed one line per send(). Registered with the session, so
    Session.stop() ends it too."""

    def __init__(self, session, bindir, extent=None):
        argv = [tool_path(bindir), "--stdin"]
        if extent is not None:
            argv += ["--extent", str(extent[0]), str(extent[1])]
        # Not session.popen: that one gives the child no stdin.
        self.proc = subprocess.Popen(argv, env=session.env(), cwd=session.workdir,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, **session.user_kwargs())
        session.procs.append(self.proc)
        self._pending = b""

    def send(self, *commands, timeout=5):
        """Run commands (same language as pointer()); returns once the
        compositor has handled them."""
        line = " ".join(words(commands))
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise TestFailure("%s is gone (exit %s): %s" % (TOOL, self.proc.poll(), self._stderr()))
        reply = self._read_line(timeout)
        if reply is None:
            raise TestFailure("%s did not answer %r within %gs (exit %s): %s"
                              % (TOOL, line, timeout, self.proc.poll(), self._stderr()))
        if reply != "ok":
            raise TestFailure("%s %r: %s" % (TOOL, line, reply))

    def _read_line(self, timeout):
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self._pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 4096)
            if not chunk:
                return None
            self._pending += chunk
        line, _, self._pending = self._pending.partition(b"\n")
        return line.decode(errors="replace")

    def _stderr(self):
        if self.proc.poll() is None:
            return "(still running)"
        return self.proc.stderr.read().decode(errors="replace").strip()

    def close(self, timeout=5):
        """Unplug the pointer: EOF on stdin; the tool exits after a last
        roundtrip. Returns its exit status."""
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
            except BrokenPipeError:
                pass
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                f.close()
            except OSError:
                pass
        return self.proc.returncode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
