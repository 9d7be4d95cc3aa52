"""A real sound server for the tests that listen (python3 stdlib, PulseAudio
and sox from Debian).

    server = sound.start(t)            # PulseAudio 16, a null sink, for t's session
    rec = server.record()              # parec on the sink's monitor, from now
    p = t.start_perch()                # finds $XDG_RUNTIME_DIR/pulse/native
    sent = time.monotonic()
    p.post("Ding", extra=["--sound", "message-new-instant"])
    check(rec.heard(after=sent), ...)  # sox: RMS above silence within 2 s
    rec.silent(sent, sent + 1.5)       # sox: nothing at all in the window
    rec.onsets(after=sent, until=...)  # how many separate sounds

Opt-in: only a test that calls start() pays for a server. The server runs
as the session user, in the session's environment (XDG_RUNTIME_DIR is the
session directory, so every libpulse client of the session finds it at
$XDG_RUNTIME_DIR/pulse/native), never as root and never in system mode; it
and the recorders are started with the session's popen, so they end with
the session (processes.end_all) and none is left behind.

Thresholds, from measurements on this set-up (PulseAudio 16.1, the null
sink at 48 kHz s16 stereo, volumes at 100 %):
- Nothing playing, the null sink's monitor is exact digital silence: every
  sample 0, sox stat's RMS amplitude 0.000000 over any window.
- Sounds played with paplay, RMS amplitude over a 2 s window holding one:
  the freedesktop theme's dialog-warning.oga 0.014, message-new-instant.oga
  0.015, bell.oga 0.021 (peaks 0.1-0.3); make_wav's and make_ogg's 0.3 s
  sine (amplitude 0.71) 0.19.
- So a window is "heard" when its RMS exceeds HEARD_RMS = 0.001 (-60 dBFS,
  over 10x below the quietest theme sound over the tests' longest window,
  2 s), and "silent" when sox's maximum and minimum amplitude are both
  0.000000, every sample zero (exact, where an RMS would hide a short
  click in a long window): the sink mixes nothing but what clients play,
  so anything not zero was played.
- For counting sounds, a 10 ms block is "sound" when a sample in it reaches
  ONSET_PEAK = 33 (0.001 of full scale): every 10 ms block from the first
  to the last of each sound above reaches it (none of them has a quieter
  block inside); two sounds are separate when at least
  ONSET_GAP_S = 0.15 s of blocks below that lie between them (the theme's
  sounds have no inner pause that long).
"""

import os
import subprocess
import time

from harness import TestFailure, check, poll

RATE = 48000
CHANNELS = 2
FRAME_BYTES = 2 * CHANNELS                      # s16le, interleaved
SINK = "perch_null"
HEARD_RMS = 0.001
ONSET_PEAK = 33
ONSET_BLOCK_S = 0.01
ONSET_GAP_S = 0.15

# Only the modules the tests need: the native protocol (the socket libpulse
# clients connect to) and one null sink, the default. No
# module-suspend-on-idle (a suspended sink's monitor sends nothing, and the
# recording would lose its clock), no device detection, no X11 or D-Bus.
# auth-anonymous: perch runs with the session user's real HOME, where the
# server's cookie is not; the socket's directory is the session user's
# 0700 pulse/ under the session directory, which is the access control.
CONFIG = """\
load-module module-native-protocol-unix auth-anonymous=1
load-module module-null-sink sink_name=%s rate=%d channels=%d format=s16le
set-default-sink %s
""" % (SINK, RATE, CHANNELS, SINK)

THEME_DIR = "/usr/share/sounds/freedesktop/stereo"


def require(cond, message):
    """check() with the message made only on failure: describing a window
    waits until the recording covers it."""
    if not cond:
        raise TestFailure(message())


def available():
    """None when the audio programs are installed, else what is missing."""
    missing = [p for p in ("pulseaudio", "parec", "pactl", "paplay", "sox")
               if not any(os.access(os.path.join(d, p), os.X_OK) for d in ("/usr/bin", "/bin"))]
    if not os.path.isdir(THEME_DIR):
        missing.append(THEME_DIR)
    return ", ".join(missing) or None


class SoundServer:
    """PulseAudio with a null sink, running as the session user."""

    def __init__(self, session, home):
        """session: a harness.Session (or anything with its env, popen and
        run); home: a directory the session user owns, where the server's
        cookie and state land (not in the user's real home)."""
        s = self.session = session
        self.home = home
        self.config_path = os.path.join(self.home, "perch-test.pa")
        with open(self.config_path, "w") as f:
            f.write(CONFIG)
        os.chmod(self.config_path, 0o644)
        self.env = s.env(HOME=self.home, XDG_CONFIG_HOME=os.path.join(self.home, ".config"))
        self.log_path = os.path.join(self.home, "pulseaudio.log")
        self.log_file = open(self.log_path, "ab")
        self.proc = s.popen(["pulseaudio", "-n", "--daemonize=no", "--system=no",
                             "--exit-idle-time=-1", "--disallow-exit=yes", "--realtime=no",
                             "--high-priority=no", "--log-target=stderr", "--use-pid-file=no",
                             "-F", self.config_path],
                            env=self.env, stdout=self.log_file, stderr=subprocess.STDOUT)
        self.socket = os.path.join(s.dir, "pulse", "native")

        def answers():
            if self.proc.poll() is not None:
                raise TestFailure("pulseaudio exited %d before it answered; its log:\n%s"
                                  % (self.proc.returncode, self.log()[-1500:]))
            return self.pactl("info").returncode == 0
        ok, _ = poll(answers, 10.0, 0.05)
        check(ok, "pulseaudio did not answer `pactl info` within 10 s; its log:\n%s" % self.log()[-1500:])

    def log(self):
        self.log_file.flush()
        try:
            with open(self.log_path, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def pactl(self, *args, timeout=5):
        return self.session.run(["pactl"] + list(args), env=self.env, timeout=timeout)

    def paplay(self, path, wait=True):
        """Plays a file on the sink as a client of the session would."""
        argv = ["paplay", "--device=" + SINK, path]
        if wait:
            return self.session.run(argv, env=self.env, timeout=10)
        return self.session.popen(argv, env=self.env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)

    def record(self):
        """Starts recording the sink's monitor; returns the Recording once
        samples arrive (so that its clock is known)."""
        return Recording(self)

    def stop(self):
        from processes import end_all
        end_all([self.proc])
        self.log_file.close()


def start(t):
    """A sound server for t's session (once per test; later calls return
    the same one)."""
    missing = available()
    check(missing is None, "the sound tests need %s (scripts/ensure-deps installs them)" % missing)
    if getattr(t, "sound_server", None) is None:
        t.sound_server = SoundServer(t.sway(), t.user_dir())
        t.notes.append("pulseaudio at %s (log %s)" % (t.sound_server.socket, t.sound_server.log_path))
    return t.sound_server


class Recording:
    """The null sink's monitor, raw s16le stereo at RATE, in a file.

    Its clock: `origin` is the monotonic time of its first sample (a time
    from time.monotonic() maps to a sample), from the file's size as it
    grows. parec asks for 10 ms fragments: the mapping is good to about
    one, far finer than the windows the tests look at."""

    def __init__(self, server):
        self.server = server
        self.path = os.path.join(server.home, "monitor-%d.raw" % len(os.listdir(server.home)))
        self.file = open(self.path, "wb")
        self.proc = server.session.popen(
            ["parec", "-d", SINK + ".monitor", "--raw", "--format=s16le", "--rate=%d" % RATE,
             "--channels=%d" % CHANNELS, "--latency-msec=10"],
            env=server.env, stdout=self.file, stderr=subprocess.PIPE)
        self.file.close()
        # The null sink renders in blocks of its largest latency (2 s)
        # until a client asks for less, and then only from the end of the
        # block under way: parec's first samples would come up to 2 s late.
        # Suspending and resuming the sink once parec is connected starts a
        # new block at once, at the 10 ms parec asks for.
        connected, _ = poll(lambda: self.proc.poll() is not None or server.pactl(
            "list", "short", "source-outputs").stdout.strip(), 5.0, 0.01)
        check(connected and self.proc.poll() is None, "parec did not connect to %s.monitor: %s"
              % (SINK, self.proc.stderr.read().decode(errors="replace") if self.proc.poll() is not None else ""))
        for state in ("1", "0"):
            r = server.pactl("suspend-sink", SINK, state)
            check(r.returncode == 0, "pactl suspend-sink %s %s failed: %s" % (SINK, state, r.stderr))

        def flowing():
            if self.proc.poll() is not None:
                raise TestFailure("parec exited %d: %s" % (self.proc.returncode,
                                                           self.proc.stderr.read().decode(errors="replace")))
            size = os.path.getsize(self.path)
            return (time.monotonic(), size) if size >= FRAME_BYTES * RATE // 50 else None
        got, _ = poll(flowing, 5.0, 0.005)
        check(got, "parec wrote nothing from %s.monitor within 5 s" % SINK)
        # Each look at the file gives an origin no earlier than the true one
        # (what it holds was recorded a little before it was written): the
        # earliest of 20 looks over 0.1 s is within a fragment of it.
        self.origin = got[0] - (got[1] // FRAME_BYTES) / RATE
        for _ in range(20):
            time.sleep(0.005)
            self.origin = min(self.origin, time.monotonic() - self.seconds())

    def seconds(self):
        """How much the file holds, in seconds."""
        return (os.path.getsize(self.path) // FRAME_BYTES) / RATE

    def offset(self, when):
        return max(0.0, when - self.origin)

    def wait_until(self, when, timeout=10.0):
        """Returns once the recording reaches the monotonic time `when`."""
        ok, _ = poll(lambda: self.seconds() >= self.offset(when), timeout + max(0.0, when - time.monotonic()), 0.02)
        check(ok, "the recording stopped growing (parec alive: %s)" % (self.proc.poll() is None))

    def stat(self, start, end):
        """sox stat of the monotonic window [start, end), as far as the
        recording has it: {"RMS amplitude": .., "Maximum amplitude": ..,
        ...} (0..1), or None for an empty window."""
        a = self.offset(start)
        n = min(self.offset(end), self.seconds()) - a
        if n <= 0:
            return None
        r = self.server.session.run(
            ["sox", "-t", "raw", "-r", str(RATE), "-e", "signed", "-b", "16", "-c", str(CHANNELS),
             self.path, "-n", "trim", "%.4f" % a, "%.4f" % n, "stat"], env=self.server.env, timeout=20)
        out = sox_stat_figures(r.stderr)
        if "RMS amplitude" not in out:
            raise TestFailure("sox stat printed no RMS amplitude (%d): %s" % (r.returncode, r.stderr[-500:]))
        return out

    def rms(self, start, end):
        """sox's RMS amplitude (0..1) of [start, end)."""
        st = self.stat(start, end)
        return 0.0 if st is None else st["RMS amplitude"]

    def heard(self, after, within=2.0):
        """Whether something non-silent plays in [after, after + within):
        polled, so it returns as soon as the sound is in the recording. The
        RMS (sox) of the window so far is the test, HEARD_RMS the line."""
        end = after + within

        def loud():
            upto = min(end, self.origin + self.seconds())
            return upto > after and self.rms(after, upto) > HEARD_RMS
        found, _ = poll(loud, max(0.0, end - time.monotonic()) + 1.0, 0.05)
        if found:
            return True
        self.wait_until(end)
        return self.rms(after, end) > HEARD_RMS

    def silent(self, start, end):
        """Whether every sample of [start, end) is zero (sox's maximum and
        minimum amplitude); waits until the recording covers it."""
        self.wait_until(end)
        st = self.stat(start, end)
        return st is None or (st["Maximum amplitude"] == 0.0 and st["Minimum amplitude"] == 0.0)

    def describe(self, start, end):
        """For a failure message: RMS and peak of the window, and the sounds."""
        st = self.stat(start, end) or {}
        return "RMS %.6f, max %.6f over %.2f s, %d onset(s)" % (
            st.get("RMS amplitude", 0.0), st.get("Maximum amplitude", 0.0), end - start,
            self.onsets(start, end))

    def wait_quiet(self, seconds=0.2, timeout=5.0):
        """Returns once the last `seconds` of the recording are silent."""
        def still():
            now = time.monotonic()
            return self.silent(now - seconds, now)
        ok, _ = poll(still, timeout, 0.05)
        require(ok, lambda: "the sink did not fall silent within %g s (the last second: %s)"
              % (timeout, self.describe(time.monotonic() - 1, time.monotonic())))

    def samples(self, start, end):
        """The peak |sample| of each ONSET_BLOCK_S block of [start, end)."""
        import array
        self.wait_until(end)
        a = int(self.offset(start) * RATE) * FRAME_BYTES
        b = int(self.offset(end) * RATE) * FRAME_BYTES
        with open(self.path, "rb") as f:
            f.seek(a)
            raw = f.read(b - a)
        data = array.array("h")
        data.frombytes(raw[:len(raw) // 2 * 2])
        block = int(ONSET_BLOCK_S * RATE) * CHANNELS
        return [max((abs(v) for v in data[i:i + block]), default=0) for i in range(0, len(data), block)]

    def sounding(self, start, end):
        """Seconds of [start, end) in blocks that hold a sound (a sample of
        ONSET_PEAK or more)."""
        return sum(1 for peak in self.samples(start, end) if peak >= ONSET_PEAK) * ONSET_BLOCK_S

    def onsets(self, after, until):
        """How many separate sounds play in [after, until): stretches of
        blocks with a sample of ONSET_PEAK or more, separated by at least
        ONSET_GAP_S of blocks below it."""
        gap_blocks = int(round(ONSET_GAP_S / ONSET_BLOCK_S))
        count, quiet = 0, gap_blocks
        for peak in self.samples(after, until):
            if peak >= ONSET_PEAK:
                if quiet >= gap_blocks:
                    count += 1
                quiet = 0
            else:
                quiet += 1
        return count

    def first_sound(self, after, within=3.0):
        """The monotonic time of the first sample from `after` on whose
        magnitude reaches ONSET_PEAK, or None if none does within `within`
        seconds (for the bench's Notify -> sink latency; polled)."""
        import array
        start = int(self.offset(after) * RATE)
        end = start + int(within * RATE)
        pos = start
        deadline = after + within + 2.0
        with open(self.path, "rb") as f:
            while pos < end:
                have = min(end, os.path.getsize(self.path) // FRAME_BYTES)
                if have <= pos:
                    if time.monotonic() > deadline:
                        return None
                    time.sleep(0.01)
                    continue
                f.seek(pos * FRAME_BYTES)
                data = array.array("h")
                data.frombytes(f.read((have - pos) * FRAME_BYTES))
                for i, v in enumerate(data):
                    if v >= ONSET_PEAK or v <= -ONSET_PEAK:
                        return self.origin + (pos + i // CHANNELS) / RATE
                pos = have
        return None

    def stop(self):
        from processes import end_all
        end_all([self.proc])


def make_wav(t, seconds=0.3, freq=880, name="beep.wav"):
    """A sine as a WAV file the session user can read (sox synth), 16-bit
    PCM as event sounds are: sox's default for synth is 32-bit
    WAVE_FORMAT_EXTENSIBLE, which libcanberra's WAV reader does not take."""
    return _synth(t, name, ["-b", "16"], ["synth", str(seconds), "sine", str(freq), "gain", "-3"])


def make_ogg(t, seconds=0.3, freq=660, name="beep.ogg"):
    """The same as OGG Vorbis (libsox-fmt-base writes it)."""
    return _synth(t, name, [], ["synth", str(seconds), "sine", str(freq), "gain", "-3"])


def _synth(t, name, output, effect):
    path = os.path.join(t.user_dir(), name)
    r = subprocess.run(["sox", "-n", "-r", str(RATE), "-c", str(CHANNELS)] + output + [path] + effect,
                       capture_output=True, text=True, timeout=20)
    check(r.returncode == 0, "sox could not make %s: %s" % (name, r.stderr))
    os.chmod(path, 0o644)
    return path


def sox_stat_figures(text):
    """sox stat's report ("Name:   value" lines on stderr) as a dict of
    the figures, names with their spaces squeezed."""
    out = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        try:
            out[" ".join(key.split())] = float(value)
        except ValueError:
            pass
    return out


def file_stat(path):
    """sox stat of a sound file itself: its length ("Length (seconds)")
    and amplitudes, to compare a recording with what one play of it is."""
    r = subprocess.run(["sox", path, "-n", "stat"], capture_output=True, text=True, timeout=20)
    out = sox_stat_figures(r.stderr)
    check("Maximum amplitude" in out, "sox stat %s: %s" % (path, r.stderr[-300:]))
    return out


