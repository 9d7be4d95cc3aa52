#!/usr/bin/env python3
"""restore.py — how long Perch takes to come back with a long journal
(issue 38, item 8): the time from starting `perch` to the first answer
to `status` on its control socket, with a hand-made journal of
BENCH_RESTORE_N (50 000) live notifications and no snapshot beside it.

Such a journal is not one Perch writes in use (the flood bounds keep what
is live to what fits on screen and `max-queued`, and the store compacts
past 4096 lines), but one it must read without hanging: a journal grows
while snapshots fail, a config may lower `max-queued`, and the file may be
made by hand.

The journal is written in a format the binary under test reads: `plain`,
the one before checksums (no header, plain lines: every Perch reads it),
and `sealed`, the current one (a sealed header naming generation 0, each
line ending with its CRC-32, as docs/protocol.md says), which only a
Perch with checksums reads. Which formats each binary gets: BINDIR:FORMATS
on the command line (`/tmp/old:plain`), else BENCH_RESTORE_FORMATS.

Each start gets a fresh state directory and the same journal; runs
alternate between the binaries given. Per binary and format: the median
time to the first answer over BENCH_RESTORE_ROUNDS (3) starts, with its
spread, the daemon's CPU time until then, and what `status` counts
(shown, queued, history) once it answers.

Usage: python3 bench/restore.py [BINDIR[:FORMATS] ...]     (default: .build/release)
       python3 bench/restore.py /tmp/old:plain .build/release:plain,sealed
       BENCH_RESTORE_N=10000 BENCH_RESTORE_FORMATS=plain,sealed python3 bench/restore.py
Needs a headless sway as the e2e tests do (run as root, it runs Perch as
the test user: PERCH_TEST_USER). Prints one table to stdout, progress to
stderr.
"""

import json
import os
import signal
import statistics
import subprocess
import sys
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "Tests", "e2e"))

import harness  # noqa: E402  (Session, prepare_bindir, python3, run_as_root)
import processes  # noqa: E402

N = int(os.environ.get("BENCH_RESTORE_N", "50000"))
ROUNDS = int(os.environ.get("BENCH_RESTORE_ROUNDS", "3"))
FORMATS = [f for f in os.environ.get("BENCH_RESTORE_FORMATS", "plain").split(",") if f]
LIMIT_S = 120.0

# Runs as the session user (the daemon answers no other uid): connects to
# the control socket as soon as it is there, asks `status` until it is
# answered, and prints the CLOCK_MONOTONIC instant of the answer (the
# same clock as the bench's time.monotonic()) and the answer.
PROBE = r'''
import json, socket, sys, time
path, limit = sys.argv[1], float(sys.argv[2])
deadline = time.monotonic() + limit
while time.monotonic() < deadline:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(path)
    except OSError:
        s.close(); time.sleep(0.002); continue
    s.settimeout(max(0.1, deadline - time.monotonic()))
    try:
        s.sendall(b'{"id":1,"method":"status"}\n')
        line = s.makefile("rb").readline()
    except OSError:
        s.close(); time.sleep(0.002); continue
    at = time.monotonic()
    s.close()
    if line:
        print(json.dumps({"at": at, "reply": json.loads(line)}))
        sys.exit(0)
    time.sleep(0.002)
print(json.dumps({"at": None}))
'''


def seal(body):
    """A line of the current format: the object without its closing brace,
    then its CRC-32 (zlib's) as the last member."""
    return b'%s,"crc":"%08x"}\n' % (body, zlib.crc32(body))


def journal(fmt, n):
    lines = []
    if fmt == "sealed":
        lines.append(seal(b'{"generation":0'))
    for i in range(1, n + 1):
        body = (b'{"live":{"id":%d,"app":"bench","title":"Restored %d","body":"a body line for notification %d",'
                b'"urgency":"normal","timeout":0},"remaining":null,"posted_at":1767225600,"next_id":%d'
                % (i, i, i, i + 1))
        lines.append(seal(body) if fmt == "sealed" else body + b"}\n")
    return b"".join(lines)


def cpu_ms(pid):
    """User and system time of the process so far, in ms."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf("SC_CLK_TCK")


def one_start(session, bindir, fmt, data, round_index):
    state_home = os.path.join(session.dir, "restore-%s-%d-%d" % (fmt, round_index, int(time.monotonic() * 1000)))
    directory = os.path.join(state_home, "perch")
    os.makedirs(directory)
    path = os.path.join(directory, "state.json.journal")
    with open(path, "wb") as f:
        f.write(data)
    if harness.run_as_root():
        for p in (state_home, directory, path):
            os.chown(p, session.pw.pw_uid, session.pw.pw_gid)
    os.chmod(directory, 0o700)
    os.chmod(path, 0o600)

    env = session.env(XDG_STATE_HOME=state_home)
    socket_path = os.path.join(env["XDG_RUNTIME_DIR"], "perch", env["WAYLAND_DISPLAY"] + ".sock")
    log = open(os.path.join(session.dir, "restore-perch.log"), "ab")
    t0 = time.monotonic()
    perch = session.popen([os.path.join(bindir, "perch")], env=env, stdout=log, stderr=subprocess.STDOUT)
    probe = session.run([harness.python3(), "-c", PROBE, socket_path, str(LIMIT_S)], env=env,
                        timeout=LIMIT_S + 10)
    result = {"seconds": None}
    try:
        said = json.loads(probe.stdout or "{}")
        if said.get("at") is not None:
            result["seconds"] = said["at"] - t0
            result["cpu_ms"] = cpu_ms(perch.pid)
            status = said["reply"].get("result", {})
            result["shown"] = status.get("shown")
            result["queued"] = status.get("queued", 0) + status.get("held", 0)
            result["history"] = status.get("history")
    finally:
        perch.send_signal(signal.SIGTERM)
        try:
            perch.wait(30)
        except subprocess.TimeoutExpired:
            perch.kill()
            perch.wait(5)
        log.close()
    return result


def cell(values, fmt):
    values = [v for v in values if v is not None]
    if not values:
        return "no answer"
    median = statistics.median(values)
    if len(values) == 1:
        return fmt % median
    return (fmt + " (" + fmt + "–" + fmt + ")") % (median, min(values), max(values))


def main():
    given = sys.argv[1:] or [os.environ.get("PERCH_BIN_DIR", os.path.join(harness.REPO, ".build", "release"))]
    runs = []  # (source, bindir, formats)
    for arg in given:
        source, _, formats = arg.partition(":")
        runs.append((source, harness.prepare_bindir(source), [f for f in formats.split(",") if f] or FORMATS))
    data = {fmt: journal(fmt, N) for _, _, formats in runs for fmt in formats}
    processes.become_subreaper()
    session = harness.Session(os.path.dirname(runs[0][1]))
    results = {(source, fmt): [] for source, _, formats in runs for fmt in formats}
    try:
        for round_index in range(ROUNDS):
            order = runs if round_index % 2 == 0 else list(reversed(runs))
            for source, bindir, formats in order:
                for fmt in formats:
                    r = one_start(session, bindir, fmt, data[fmt], round_index)
                    results[(source, fmt)].append(r)
                    print("round %d, %s, %s: %s" % (round_index + 1, source, fmt, json.dumps(r)), file=sys.stderr,
                          flush=True)
    finally:
        session.stop()
    print("Restoring a journal of %d live notifications (%d bytes plain), %d starts each: seconds from exec to "
          "the first `status` answer, and the CPU the daemon used until then" % (N, len(journal("plain", N)), ROUNDS))
    print()
    print("| binary | journal | to first answer (s) | CPU until then (ms) | shown | waiting | history |")
    print("|---|---|---|---|---|---|---|")
    for source, _, formats in runs:
        for fmt in formats:
            rs = results[(source, fmt)]
            last = next((r for r in reversed(rs) if r["seconds"] is not None), {})
            print("| %s | %s | %s | %s | %s | %s | %s |" % (
                source, fmt, cell([r["seconds"] for r in rs], "%.2f"), cell([r.get("cpu_ms") for r in rs], "%.0f"),
                last.get("shown", "—"), last.get("queued", "—"), last.get("history", "—")))


if __name__ == "__main__":
    main()
