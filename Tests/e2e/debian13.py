"""Programs of Debian 13 for the tests that run them from the Debian 13
root (scripts/trixie-root), such as mako 1.10's makoctl.

The root has the packages scripts/trixie-root lists, and those
scripts/bench-root adds for the benchmarks (mako-notifier among them).
When a program the tests need is not in it, it is taken from its Debian
13 package instead, without touching the root: the .deb is fetched with
the host's apt reading the root's own package lists and sources (nothing
is written in the root), unpacked into a directory of the test, and the
program copied into the session's runtime directory, which the root sees
at the same path, so that it runs there on the root's libraries."""

import os
import shutil
import subprocess
import tempfile

from harness import TRIXIE_ROOT_DIR, TestFailure


def program(t, path, package):
    """The path, as seen inside the root, of the root's `path` (e.g.
    /usr/bin/makoctl), or of the same file from Debian 13's `package` when
    the root lacks it. For Session.rexec on sway110 and labwc."""
    if os.access(os.path.join(TRIXIE_ROOT_DIR, path.lstrip("/")), os.X_OK):
        return path
    s = t.sway()
    deb = fetch(t, package)
    unpacked = tempfile.mkdtemp(prefix="deb-", dir=t.tmp)
    r = subprocess.run(["dpkg-deb", "-x", deb, unpacked], capture_output=True, text=True)
    if r.returncode != 0:
        raise TestFailure("dpkg-deb -x %s failed: %s" % (deb, r.stderr.strip()))
    found = os.path.join(unpacked, path.lstrip("/"))
    if not os.path.isfile(found):
        raise TestFailure("%s has no %s" % (os.path.basename(deb), path))
    copy = os.path.join(s.dir, "debian13-" + os.path.basename(path))
    shutil.copy(found, copy)
    os.chmod(copy, 0o755)
    t.notes.append("%s: from %s (not installed in the root)" % (path, os.path.basename(deb)))
    return copy


def fetch(t, package):
    """Downloads Debian 13's `package` into the test's directory with the
    host's apt-get and the root's lists; returns the .deb's path."""
    root = TRIXIE_ROOT_DIR
    out = tempfile.mkdtemp(prefix="apt-", dir=t.tmp)
    options = {
        "Dir::State::Lists": root + "/var/lib/apt/lists",
        "Dir::State::Status": root + "/var/lib/dpkg/status",
        "Dir::Etc::SourceList": root + "/etc/apt/sources.list",
        "Dir::Etc::SourceParts": root + "/etc/apt/sources.list.d",
        "Dir::Etc::TrustedParts": root + "/etc/apt/trusted.gpg.d",
        "Dir::Etc::Preferences": root + "/etc/apt/preferences",
        "Dir::Etc::PreferencesParts": root + "/etc/apt/preferences.d",
        "Dir::Cache": os.path.join(out, "cache"),
        # The lists are read, never locked or renewed: the root stays as it is.
        "Debug::NoLocking": "1",
    }
    argv = ["apt-get", "download", "-q"]
    for key, value in options.items():
        argv += ["-o", "%s=%s" % (key, value)]
    r = subprocess.run(argv + [package], cwd=out, capture_output=True, text=True, timeout=120)
    debs = [f for f in os.listdir(out) if f.endswith(".deb")]
    if r.returncode != 0 or len(debs) != 1:
        raise TestFailure("could not fetch Debian 13's %s with apt-get download (exit %d): %s"
                          % (package, r.returncode, r.stderr.strip()[-500:]))
    return os.path.join(out, debs[0])
