"""Debian 13's dunstctl (dunst 1.12.2), for the tests that run it against
Perch. The Debian 13 root (scripts/trixie-root) has no dunst, and is not
changed for it: its package lists say which dunst Debian 13 has, apt
fetches that package (checked against the lists, as any apt download),
and dpkg-deb takes the script out, into a cache of ours beside the root.
The script runs with the host's shell, dbus-send, busctl and jq, against
the test's bus: the same calls it makes on Debian 13."""

import os
import shutil
import subprocess
import tempfile

from harness import TRIXIE_ROOT_DIR, TestFailure

CACHE = os.path.join(os.path.dirname(TRIXIE_ROOT_DIR.rstrip("/")), "dunst-trixie")
SCRIPT = os.path.join(CACHE, "usr", "bin", "dunstctl")


def dunstctl(t):
    """The path of Debian 13's dunstctl, fetched the first time."""
    if os.path.exists(SCRIPT):
        return SCRIPT
    lists = os.path.join(TRIXIE_ROOT_DIR, "var", "lib", "apt", "lists")
    if not os.path.isdir(lists):
        raise TestFailure("Debian 13's dunstctl comes from the Debian 13 root's package lists, and %s is not "
                          "there: make the root first (scripts/trixie-root make, as make test does)" % lists)
    work = tempfile.mkdtemp(prefix="dunst-trixie-")
    try:
        os.makedirs(os.path.join(work, "cache", "archives", "partial"))
        # The root's lists and sources, read only; apt's own cache here.
        r = subprocess.run(
            ["apt-get", "download", "-q",
             "-o", "Dir::State::Lists=" + lists,
             "-o", "Dir::Etc::SourceList=" + os.path.join(TRIXIE_ROOT_DIR, "etc", "apt", "sources.list"),
             "-o", "Dir::Etc::SourceParts=/nonexistent",
             "-o", "Dir::State::status=" + os.path.join(TRIXIE_ROOT_DIR, "var", "lib", "dpkg", "status"),
             "-o", "Dir::Cache=" + os.path.join(work, "cache"),
             "-o", "APT::Sandbox::User=root",
             "dunst"], cwd=work, capture_output=True, text=True, timeout=120)
        debs = [f for f in os.listdir(work) if f.startswith("dunst_") and f.endswith(".deb")]
        if r.returncode != 0 or not debs:
            raise TestFailure("apt-get download dunst (Debian 13) failed (%d): %s" % (r.returncode, r.stderr[-500:]))
        tree = os.path.join(work, "tree")
        subprocess.run(["dpkg-deb", "-x", os.path.join(work, debs[0]), tree], check=True, timeout=60)
        if not os.path.exists(os.path.join(tree, "usr", "bin", "dunstctl")):
            raise TestFailure("%s has no usr/bin/dunstctl" % debs[0])
        # Only the script is kept; another run may be making it too.
        staged = tempfile.mkdtemp(prefix="dunst-trixie-", dir=os.path.dirname(CACHE))
        os.makedirs(os.path.join(staged, "usr", "bin"))
        shutil.copy2(os.path.join(tree, "usr", "bin", "dunstctl"), os.path.join(staged, "usr", "bin", "dunstctl"))
        with open(os.path.join(staged, "PACKAGE"), "w") as f:
            f.write(debs[0] + "\n")
        for root, dirs, files in os.walk(staged):
            os.chmod(root, 0o755)
            for name in files:
                os.chmod(os.path.join(root, name), 0o755 if name == "dunstctl" else 0o644)
        try:
            os.rename(staged, CACHE)
        except OSError:
            shutil.rmtree(staged, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return SCRIPT
