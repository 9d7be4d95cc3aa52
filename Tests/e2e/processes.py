"""Ending what the tests start: every process, stopped ones included.

Tests stop processes on purpose (SIGSTOP the compositor or perch, to make
it deaf for a while), kill compositors under a running daemon, and start
programs that start others (perch runs perch-svg and hooks, sway runs
swaybg). Three rules keep a run from leaving any of them behind:

- Each program the harness starts leads a process group of its own, and
  is ended with its group: SIGCONT first (a stopped process acts on
  SIGTERM only once it runs again), SIGTERM, then SIGKILL after a grace
  period, and it is reaped.
- The harness process is a child subreaper: whatever its descendants
  orphan (the shell scripts/headless-sway leaves waiting on the
  compositor, a compositor's children once it dies) is reparented to it
  rather than to init, which on some machines reaps them late or never.
- After each test, `sweep()` ends and reaps whatever descendant is still
  there, and says which: a live one is a clean-up the test or harness
  missed.
"""

import ctypes
import os
import signal
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def become_subreaper():
    """Orphaned descendants are reparented to this process (Linux >= 3.4);
    without it they go to init and may stay zombies."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _signal_group(pid, sig):
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def end_all(procs, grace=2.0):
    """Ends each Popen in `procs` with its process group (they were started
    with process_group=0, so the group's id is the leader's pid): SIGCONT,
    SIGTERM, SIGKILL after `grace` seconds; reaps each leader. A group
    whose leader has exited may still hold its children, so every group is
    signalled, not only the running leaders'."""
    for p in procs:
        _signal_group(p.pid, signal.SIGCONT)
        _signal_group(p.pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    for p in procs:
        try:
            p.wait(max(0.05, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
    for p in procs:
        _signal_group(p.pid, signal.SIGKILL)
        try:
            p.wait(5)
        except subprocess.TimeoutExpired:
            pass


def _stat(pid):
    """(state, parent pid) of a process, or None once it is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            text = f.read()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    return fields[0], int(fields[1])


def _command(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return f.read().rstrip(b"\0").replace(b"\0", b" ").decode(errors="replace")[:200]
    except OSError:
        return "?"


def descendants(root=None):
    """Pids of every process below `root` (this process by default)."""
    root = os.getpid() if root is None else root
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            st = _stat(int(entry))
            if st is not None:
                children.setdefault(st[1], []).append(int(entry))
    out, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), ()):
            out.append(child)
            todo.append(child)
    return out


def _reap(pid):
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass


def sweep(label):
    """Ends and reaps every descendant of this process; called when a test
    is over, so that none is still meant to run. Zombies (orphans that
    came back to this subreaper and exited) are only reaped; a live one is
    killed and named on stderr. Returns the live ones' descriptions."""
    left = []
    for pid in descendants():
        st = _stat(pid)
        if st is not None and st[0] != "Z":
            left.append("%d %s %s" % (pid, st[0], _command(pid)))
            for sig in (signal.SIGCONT, signal.SIGKILL):
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass
    deadline = time.monotonic() + 5
    while True:
        pending = descendants()
        for pid in pending:
            _reap(pid)
        if not descendants() or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    for line in left:
        print("harness: %s left a process running; killed it: %s" % (label, line),
              file=sys.stderr, flush=True)
    return left
