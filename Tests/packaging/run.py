#!/usr/bin/env python3
"""What ships around the binaries: man pages, shell completions, make
install/uninstall and make deb. Run by `make test` (make test-packaging)
after the release build, which it reuses; about 15 seconds.

    python3 Tests/packaging/run.py [-k SUBSTRING]...

The config keys and perchctl verbs are asked of the binaries
(`perch --list-config-keys`, `perchctl --list-verbs`, each verb's --help),
so a key, verb or option added to the code fails here until the man pages
name it. Prints PASS/FAIL per check; exits 1 if any failed.
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BIN = os.path.abspath(os.environ.get("PERCH_BIN_DIR", os.path.join(REPO, ".build", "release")))
MAN_SRC = os.path.join(REPO, "docs", "man")
MAN_OUT = os.path.join(REPO, ".build", "man")
COMPLETIONS = os.path.join(REPO, "contrib", "completions")
MAKE = os.environ.get("MAKE", "make")

CHECKS = []


def check(fn):
    CHECKS.append(fn)
    return fn


class Failure(Exception):
    pass


def expect(cond, msg):
    if not cond:
        raise Failure(msg)


def run(argv, **kw):
    kw.setdefault("capture_output", True)
    kw.setdefault("text", True)
    kw.setdefault("timeout", 120)
    return subprocess.run(argv, **kw)


def lines_of(argv):
    r = run(argv)
    expect(r.returncode == 0, "`%s` exited %d: %s" % (" ".join(argv), r.returncode, r.stderr.strip()))
    return [line for line in r.stdout.splitlines() if line]


def config_keys():
    keys = lines_of([os.path.join(BIN, "perch"), "--list-config-keys"])
    # The table has some sixty keys; a handful means the listing broke.
    expect(len(keys) > 20 and "anchor" in keys, "perch --list-config-keys printed only %r" % keys)
    return keys


def verbs():
    found = lines_of([os.path.join(BIN, "perchctl"), "--list-verbs"])
    expect(len(found) > 5 and "dismiss" in found, "perchctl --list-verbs printed only %r" % found)
    return found


def options_in(text):
    """The long and short options a usage text names: --foo in
    `[--foo X]`, `| --foo`, ` --foo`."""
    return set(re.findall(r"(?:^|[\[ |])(--?[a-z][a-z-]*)", text, re.M))


def source(name):
    with open(os.path.join(MAN_SRC, name + ".scd")) as f:
        return f.read()


def man_warnings(path):
    env = dict(os.environ, MANWIDTH="80", LANG="C.UTF-8", MAN_DISABLE_SECCOMP="1")
    r = run(["man", "--warnings", "-l", path], env=env)
    return r.returncode, r.stdout, r.stderr


# --------------------------------------------------------------------------
# Man pages

@check
def man_pages_render_without_warnings():
    pages = sorted(glob.glob(os.path.join(MAN_OUT, "*.[15]")))
    names = [os.path.basename(p) for p in pages]
    expect(names == ["perch.1", "perch.5", "perchctl.1"], "make man should make perch.1, perch.5 and "
           "perchctl.1 in .build/man, made %r" % names)
    for page in pages:
        rc, out, err = man_warnings(page)
        expect(rc == 0 and not err.strip(), "`man --warnings -l %s` exited %d with: %s" % (page, rc, err.strip()))
        expect(len(out.splitlines()) > 40, "man -l %s rendered only %d lines" % (page, len(out.splitlines())))


@check
def perch_5_describes_every_config_key():
    text = source("perch.5")
    # A key's entry starts a line: *key*=_VALUE_ (scdoc's definition list).
    documented = set(re.findall(r"^\*([a-z][a-z-]*)\*=", text, re.M))
    missing = [k for k in config_keys() if k not in documented]
    expect(not missing, "perch(5) (docs/man/perch.5.scd) has no entry `*KEY*=...` for: %s" % ", ".join(missing))
    # Each entry says its default.
    for key in config_keys():
        entry = re.search(r"^\*%s\*=.*?(?=^\*[a-z][a-z-]*\*=|^# )" % re.escape(key), text, re.M | re.S)
        expect(entry and "Default:" in entry.group(0), "perch(5): the entry of %s does not say its Default:" % key)


@check
def perchctl_1_describes_every_verb_and_option():
    text = source("perchctl.1")
    documented = set(re.findall(r"^\*([a-z][a-z-]*)\*", text, re.M))
    missing = [v for v in verbs() if v not in documented]
    expect(not missing, "perchctl(1) (docs/man/perchctl.1.scd) has no entry `*VERB* ...` for: %s"
           % ", ".join(missing))
    undocumented = []
    for verb in verbs():
        usage = "\n".join(lines_of([os.path.join(BIN, "perchctl"), verb, "--help"]))
        for option in sorted(options_in(usage)):
            if "*%s*" % option not in text:
                undocumented.append("%s %s" % (verb, option))
    expect(not undocumented, "perchctl(1) does not name these options of `perchctl VERB --help`: %s"
           % ", ".join(undocumented))


@check
def perch_1_describes_every_option():
    text = source("perch.1")
    usage = "\n".join(lines_of([os.path.join(BIN, "perch"), "--help"]))
    # Less the examples of --KEY VALUE, which perch(5) covers.
    options = options_in(usage) - {"--KEY", "--FLAG"} - {"--" + k for k in config_keys()}
    expect(len(options) > 8, "perch --help names only %r" % sorted(options))
    missing = sorted(o for o in options if "*%s*" % o not in text)
    expect(not missing, "perch(1) (docs/man/perch.1.scd) does not name: %s" % ", ".join(missing))


# --------------------------------------------------------------------------
# Completions

BASH_QUERY = r'''
source "$1"
fn=$2
while IFS= read -r line; do
    read -ra COMP_WORDS <<<"$line"
    [[ $line == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
    COMPREPLY=()
    "$fn"
    printf '%s\n' "${COMPREPLY[*]}"
done
'''


def bash_complete(script, function, lines):
    """bash's candidates for each line (the first word is replaced by the
    binary in BIN), as sets."""
    program = os.path.join(BIN, lines[0].split()[0])
    lines = [program + line[line.index(" "):] if " " in line else program for line in lines]
    r = run(["bash", "--norc", "--noprofile", "-c", BASH_QUERY, "query",
             os.path.join(COMPLETIONS, script), function],
            input="".join(line + "\n" for line in lines))
    expect(r.returncode == 0 and not r.stderr.strip(), "bash completion %s failed (%d): %s"
           % (script, r.returncode, r.stderr.strip()))
    return [set(out.split()) for out in r.stdout.split("\n")[:len(lines)]]


@check
def bash_completes_perchctl_verbs_and_options():
    every, di, post_opts, urgency, mode, center, watch = bash_complete("perchctl.bash", "_perchctl", [
        "perchctl ", "perchctl di", "perchctl post --", "perchctl post --urgency ", "perchctl mode ",
        "perchctl center t", "perchctl watch --w"])
    expect(every >= set(verbs()), "`perchctl <TAB>` should offer every verb %s, offers %s"
           % (verbs(), sorted(every)))
    expect(di == {"dismiss"}, "`perchctl di<TAB>` should offer dismiss, offers %s" % sorted(di))
    expect({"--urgency", "--action", "--wait", "--json"} <= post_opts,
           "`perchctl post --<TAB>` should offer its options, offers %s" % sorted(post_opts))
    expect(urgency == {"low", "normal", "critical"}, "`--urgency <TAB>` offers %s" % sorted(urgency))
    expect(mode == {"get", "set", "add", "remove", "toggle"}, "`perchctl mode <TAB>` offers %s" % sorted(mode))
    expect(center == {"toggle"}, "`perchctl center t<TAB>` offers %s" % sorted(center))
    expect(watch == {"--waybar"}, "`perchctl watch --w<TAB>` offers %s" % sorted(watch))


@check
def bash_completes_perch_options_and_config_keys():
    every, anchor, values, flag_then = bash_complete("perch.bash", "_perch", [
        "perch --", "perch --anc", "perch --anchor bottom-", "perch --bounce --max-v"])
    keys = {"--" + k for k in config_keys()}
    expect(keys <= every and {"--config", "--check-config", "--replace"} <= every,
           "`perch --<TAB>` should offer its options and --KEY for every key; lacks %s"
           % sorted((keys | {"--config"}) - every))
    expect(anchor == {"--anchor"}, "`perch --anc<TAB>` offers %s" % sorted(anchor))
    expect(values == {"bottom-left", "bottom-right", "bottom-center"}, "`perch --anchor bottom-<TAB>` offers %s"
           % sorted(values))
    expect(flag_then == {"--max-visible"}, "`perch --bounce --max-v<TAB>` offers %s" % sorted(flag_then))


@check
def bash_completion_loads_through_bash_completion():
    # As an installed file is used: bash-completion's loader sources it by
    # the command's name on first use.
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "bash-completion", "completions"))
        for name in ("perch", "perchctl"):
            shutil.copy(os.path.join(COMPLETIONS, name + ".bash"), os.path.join(d, "bash-completion", "completions", name))
        script = ('source /usr/share/bash-completion/bash_completion; '
                  '__load_completion perchctl && __load_completion perch && complete -p perchctl perch')
        r = run(["bash", "--norc", "--noprofile", "-c", script],
                env=dict(os.environ, XDG_DATA_DIRS=d, BASH_COMPLETION_USER_DIR=os.path.join(d, "none")))
        expect(r.returncode == 0 and "-F _perchctl perchctl" in r.stdout and "-F _perch perch" in r.stdout,
               "bash-completion should load the completions by name; printed %r, %r" % (r.stdout, r.stderr))


ZSH_QUERY = r'''
compadd() { [[ $1 == -- ]] && shift; print -r -- "${(j: :)@}"; }
_files() { print -r -- '<files>'; }
# As compinit would run it: the file is the body of a function.
complete_line() { source $1 }
for line in "${(@f)$(<&0)}"; do
  words=(${=line}); [[ $line == *' ' ]] && words+=('')
  CURRENT=$#words
  complete_line $1
  print
done
'''


def zsh_complete(script, lines):
    program = os.path.join(BIN, lines[0].split()[0])
    lines = [program + line[line.index(" "):] for line in lines]
    r = run(["zsh", "-f", "-c", ZSH_QUERY, "query", os.path.join(COMPLETIONS, script)],
            input="".join(line + "\n" for line in lines))
    expect(r.returncode == 0 and not r.stderr.strip(), "zsh completion %s failed (%d): %s"
           % (script, r.returncode, r.stderr.strip()))
    # Each query prints what compadd was given, then an empty line.
    blocks = r.stdout.split("\n\n")
    return [set(b.split()) for b in blocks[:len(lines)]]


@check
def zsh_completions_parse_and_complete():
    for name in ("_perch", "_perchctl"):
        r = run(["zsh", "-n", os.path.join(COMPLETIONS, name)])
        expect(r.returncode == 0, "zsh -n %s: %s" % (name, r.stderr.strip()))
    every, urgency, modes = zsh_complete("_perchctl", ["perchctl ", "perchctl post --urgency ", "perchctl mode "])
    expect(every >= set(verbs()), "zsh: `perchctl <TAB>` should offer every verb, offers %s" % sorted(every))
    expect(urgency == {"low", "normal", "critical"}, "zsh: `--urgency <TAB>` offers %s" % sorted(urgency))
    expect(modes == {"get", "set", "add", "remove", "toggle"}, "zsh: `perchctl mode <TAB>` offers %s" % sorted(modes))
    (options,) = zsh_complete("_perch", ["perch --"])
    expect({"--" + k for k in config_keys()} <= options, "zsh: `perch --<TAB>` lacks %s"
           % sorted({"--" + k for k in config_keys()} - options))


def fish_complete(script, lines):
    env = dict(os.environ, PATH=BIN + ":" + os.environ.get("PATH", ""))
    with tempfile.TemporaryDirectory() as home:
        env.update(HOME=home, XDG_CONFIG_HOME=home, XDG_DATA_HOME=home)
        code = "source %s\n" % os.path.join(COMPLETIONS, script)
        for line in lines:
            code += "complete -C %s | string replace -r '\\t.*' '' | string join ' '\necho\n" % _fish_quote(line)
        r = run(["fish", "--no-config", "-c", code], env=env)
    expect(r.returncode == 0 and not r.stderr.strip(), "fish completion %s failed (%d): %s"
           % (script, r.returncode, r.stderr.strip()))
    out = [block for block in r.stdout.split("\n")]
    # `string join` prints the candidates on one line, echo an empty one.
    rows = [row for i, row in enumerate(out) if i % 2 == 0]
    return [set(row.split()) for row in rows[:len(lines)]]


def _fish_quote(text):
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


@check
def fish_completions_parse_and_complete():
    for name in ("perch.fish", "perchctl.fish"):
        r = run(["fish", "--no-config", "--no-execute", os.path.join(COMPLETIONS, name)])
        expect(r.returncode == 0 and not r.stderr.strip(), "fish --no-execute %s: %s" % (name, r.stderr.strip()))
    di, urgency, every = fish_complete("perchctl.fish", ["perchctl di", "perchctl post --urgency ", "perchctl "])
    expect(di == {"dismiss"}, "fish: `perchctl di<TAB>` offers %s" % sorted(di))
    expect(urgency == {"low", "normal", "critical"}, "fish: `--urgency <TAB>` offers %s" % sorted(urgency))
    expect(every >= set(verbs()), "fish: `perchctl <TAB>` should offer every verb, offers %s" % sorted(every))
    anchor, values = fish_complete("perch.fish", ["perch --anc", "perch --anchor bottom-"])
    expect(anchor == {"--anchor"}, "fish: `perch --anc<TAB>` offers %s" % sorted(anchor))
    expect(values == {"bottom-left", "bottom-right", "bottom-center"}, "fish: `perch --anchor bottom-<TAB>` "
           "offers %s" % sorted(values))


# --------------------------------------------------------------------------
# make install / uninstall, make deb

def files_under(root):
    return sorted(os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root) for f in fs)


EXPECTED_INSTALL = [
    "bin/perch", "bin/perch-share", "bin/perch-sound", "bin/perch-svg", "bin/perchctl",
    "lib/systemd/user/perch.service",
    "share/bash-completion/completions/perch", "share/bash-completion/completions/perchctl",
    "share/dbus-1/services/org.freedesktop.Notifications.service",
    "share/dbus-1/services/org.freedesktop.impl.portal.desktop.perch.service",
    "share/doc/perch/README.md", "share/doc/perch/config.example", "share/doc/perch/config.md",
    "share/doc/perch/protocol.md",
    "share/fish/vendor_completions.d/perch.fish", "share/fish/vendor_completions.d/perchctl.fish",
    "share/man/man1/perch.1", "share/man/man1/perchctl.1", "share/man/man5/perch.5",
    "share/xdg-desktop-portal/portals/perch.portal",
    "share/zsh/vendor-completions/_perch", "share/zsh/vendor-completions/_perchctl",
]


@check
def make_install_and_uninstall_honour_destdir_and_prefix():
    with tempfile.TemporaryDirectory() as dest:
        prefix = "/opt/perch-test"
        args = [MAKE, "--no-print-directory", "-C", REPO, "DESTDIR=" + dest, "PREFIX=" + prefix]
        r = run(args + ["install"])
        expect(r.returncode == 0, "make install failed: %s" % r.stderr.strip()[-1000:])
        found = files_under(dest)
        expected = [prefix.lstrip("/") + "/" + f for f in EXPECTED_INSTALL]
        expect(found == expected, "make install DESTDIR=… PREFIX=%s should install exactly\n  %s\ninstalled\n  %s"
               % (prefix, "\n  ".join(expected), "\n  ".join(found)))
        root = os.path.join(dest, prefix.lstrip("/"))
        with open(os.path.join(root, "share/dbus-1/services/org.freedesktop.Notifications.service")) as f:
            service = f.read()
        with open(os.path.join(REPO, "contrib/org.freedesktop.Notifications.service.in")) as f:
            template = f.read()
        expect("Exec=%s/bin/perch\n" % prefix in service, "the D-Bus service should say Exec=%s/bin/perch:\n%s"
               % (prefix, service))
        comments = lambda text: [line for line in text.splitlines() if line.startswith("#")]
        expect(comments(service) == comments(template),
               "the installed D-Bus service file's comments differ from contrib's:\n%s" % service)
        with open(os.path.join(root, "lib/systemd/user/perch.service")) as f:
            unit = f.read()
        expect("\nExecStart=%s/bin/perch\n" % prefix in unit, "perch.service should say ExecStart=%s/bin/perch"
               % prefix)
        modes = {f: os.stat(os.path.join(root, f)).st_mode & 0o777 for f in EXPECTED_INSTALL}
        wrong = {f: oct(m) for f, m in modes.items() if m != (0o755 if f.startswith("bin/") else 0o644)}
        expect(not wrong, "installed with unexpected modes: %r" % wrong)
        r = run(args + ["uninstall"])
        expect(r.returncode == 0, "make uninstall failed: %s" % r.stderr.strip()[-1000:])
        left = files_under(dest)
        expect(left == [], "make uninstall left %s" % left)
        expect(not os.path.exists(prefix), "make install DESTDIR=… wrote to %s itself" % prefix)


@check
def make_deb_builds_a_package_with_everything():
    with tempfile.TemporaryDirectory() as out:
        r = run([MAKE, "--no-print-directory", "-C", REPO, "deb", "DEB_OUT=" + out], timeout=300)
        expect(r.returncode == 0, "make deb failed: %s" % (r.stderr.strip()[-1500:]))
        debs = glob.glob(os.path.join(out, "perch_*_*.deb"))
        expect(len(debs) == 1, "make deb should make one perch_VERSION_ARCH.deb, made %r" % os.listdir(out))
        deb = debs[0]
        version = lines_of([os.path.join(BIN, "perch"), "--version"])[0].split()[-1]
        arch = lines_of(["dpkg", "--print-architecture"])[0]
        expect(os.path.basename(deb) == "perch_%s_%s.deb" % (version, arch), "the package is named %s"
               % os.path.basename(deb))

        listing = "\n".join(lines_of(["dpkg", "-c", deb]))
        for path in ["./usr/bin/perch", "./usr/bin/perchctl", "./usr/bin/perch-svg", "./usr/bin/perch-sound",
                     "./usr/bin/perch-share",
                     "./usr/share/man/man1/perch.1.gz", "./usr/share/man/man1/perchctl.1.gz",
                     "./usr/share/man/man5/perch.5.gz",
                     "./usr/share/bash-completion/completions/perchctl",
                     "./usr/share/zsh/vendor-completions/_perchctl",
                     "./usr/share/fish/vendor_completions.d/perchctl.fish",
                     "./usr/share/dbus-1/services/org.freedesktop.Notifications.service",
                     "./usr/share/dbus-1/services/org.freedesktop.impl.portal.desktop.perch.service",
                     "./usr/share/xdg-desktop-portal/portals/perch.portal",
                     "./usr/lib/systemd/user/perch.service", "./usr/share/doc/perch/config.example"]:
            expect(re.search(r" root/root .* %s$" % re.escape(path), listing, re.M),
                   "dpkg -c does not list %s owned by root:\n%s" % (path, listing))

        depends = lines_of(["dpkg-deb", "-f", deb, "Depends"])[0]
        for package in ("libc6", "libwayland-client0", "libcairo2", "libpango-1.0-0", "libxkbcommon0",
                        "libsystemd0", "librsvg2-2", "libjpeg62-turbo"):
            expect(re.search(r"(^|, )%s( |,|$)" % re.escape(package), depends),
                   "Depends lacks %s: %s" % (package, depends))

        with tempfile.TemporaryDirectory() as root:
            r = run(["dpkg", "-x", deb, root])
            expect(r.returncode == 0, "dpkg -x failed: %s" % r.stderr)
            bindir = os.path.join(root, "usr", "bin")
            expect(lines_of([os.path.join(bindir, "perch"), "--version"]) == ["perch %s" % version],
                   "the packaged perch does not run")
            expect(lines_of([os.path.join(bindir, "perchctl"), "--list-verbs"]) == verbs(),
                   "the packaged perchctl is not the one built")
            with open(os.path.join(root, "usr/share/dbus-1/services/org.freedesktop.Notifications.service")) as f:
                expect("\nExec=/usr/bin/perch\n" in f.read(), "the packaged D-Bus service does not run /usr/bin/perch")
            for page in glob.glob(os.path.join(root, "usr/share/man/man*/*.gz")):
                rc, _, err = man_warnings(page)
                expect(rc == 0 and not err.strip(), "man -l %s: %s" % (page, err.strip()))

        # apt resolves the package's Depends against this Debian's archive
        # and what is installed: nothing is missing or unknown.
        r = run(["apt-get", "install", "--simulate", "--no-install-recommends", deb])
        expect(r.returncode == 0 and re.search(r"^Inst perch ", r.stdout, re.M) or "perch is already" in r.stdout,
               "apt-get install --simulate %s failed (%d):\n%s%s"
               % (deb, r.returncode, r.stdout[-1500:], r.stderr[-1500:]))


# --------------------------------------------------------------------------
# The Debian source package (debian/; built in Debian 13 by make test-deb)

@check
def relink_relative_refuses_another_machines_binary():
    # scripts/relink-relative reads x86-64's relocation numbers; a binary
    # for another machine (here perchctl relabelled as AArch64, EM 183)
    # must be refused with one line and left as it was, not patched by
    # the wrong rules.
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(BIN, "perchctl"), "rb") as f:
            data = bytearray(f.read())
        data[0x12:0x14] = (183).to_bytes(2, "little")
        given, output = os.path.join(d, "in"), os.path.join(d, "out")
        for path in (given, output):
            with open(path, "wb") as f:
                f.write(data)
        r = run([os.path.join(REPO, "scripts", "relink-relative"), given, output])
        expect(r.returncode != 0, "relink-relative accepted an AArch64 binary: %s" % r.stdout.strip())
        expect("not x86-64" in r.stderr and len(r.stderr.strip().splitlines()) == 1,
               "relink-relative should refuse in one line naming the machine, said %r" % r.stderr)
        with open(output, "rb") as f:
            expect(f.read() == bytes(data), "relink-relative changed a binary it refused")


def control_stanzas():
    """debian/control's stanzas as {field: value} (comments dropped,
    continuation lines joined)."""
    with open(os.path.join(REPO, "debian", "control")) as f:
        lines = [line.rstrip("\n") for line in f if not line.startswith("#")]
    stanzas, fields, name = [], {}, None
    for line in lines + [""]:
        if not line.strip():
            if fields:
                stanzas.append(fields)
            fields, name = {}, None
        elif line[0] in " \t":
            fields[name] += " " + line.strip()
        else:
            name, _, value = line.partition(":")
            fields[name] = value.strip()
    return stanzas


def relation_names(value):
    """The package names a relation field names, alternatives included
    (substitution variables left out)."""
    return {re.match(r"[a-z0-9][a-z0-9.+-]*", alt.strip()).group(0)
            for item in value.split(",") if item.strip() and not item.strip().startswith("$")
            for alt in item.split("|")}


@check
def debian_changelog_has_the_version_perch_reports():
    version = lines_of([os.path.join(BIN, "perch"), "--version"])[0].split()[-1]
    with open(os.path.join(REPO, "debian", "changelog")) as f:
        first = f.readline()
    m = re.match(r"perch \(([^)]+)\) ", first)
    expect(m, "debian/changelog's first line is not `perch (VERSION) ...`: %r" % first)
    upstream = re.sub(r"-[^-]*$", "", m.group(1))
    expect(upstream == version, "debian/changelog's version is %s, `perch --version` says %s: a new version "
           "needs a debian/changelog entry (dch -v %s)" % (m.group(1), version, version))


@check
def debian_control_build_depends_on_what_the_build_needs():
    # scripts/ensure-deps's BUILD_PKGS is what the host needs to build;
    # the package build needs the same, less wayland-protocols (the
    # generated protocol code is committed) and with pkgconf for pkg-config.
    with open(os.path.join(REPO, "scripts", "ensure-deps")) as f:
        text = f.read()
    block = re.search(r"^BUILD_PKGS=\((.*?)^\)", text, re.M | re.S).group(1)
    needed = {word for line in block.splitlines() for word in line.split("#")[0].split()}
    needed = (needed - {"wayland-protocols", "pkg-config"}) | {"pkgconf", "swiftlang", "scdoc"}
    source = control_stanzas()[0]
    missing = sorted(needed - relation_names(source.get("Build-Depends", "")))
    expect(not missing, "debian/control's Build-Depends lacks %s" % ", ".join(missing))
    binary = [s for s in control_stanzas() if s.get("Package") == "perch"]
    expect(binary, "debian/control has no `Package: perch` stanza")
    # Opened with dlopen, so no ELF header names them for dh_shlibdeps.
    depends = relation_names(binary[0].get("Depends", ""))
    expect({"librsvg2-2", "libjpeg62-turbo"} <= depends,
           "debian/control's Depends lacks the dlopen'd librsvg2-2 or libjpeg62-turbo: %s" % sorted(depends))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-k", action="append", default=[], help="run the checks whose name contains this")
    args = ap.parse_args()
    for name in ("perch", "perchctl"):
        if not os.access(os.path.join(BIN, name), os.X_OK):
            sys.exit("packaging: %s/%s not found (make build first)" % (BIN, name))
    # The pages from the sources as they are now (make test-packaging has
    # just done so; run alone, this script does it itself).
    r = run([MAKE, "--no-print-directory", "-C", REPO, "man"])
    if r.returncode != 0:
        sys.exit("packaging: make man failed: %s" % r.stderr.strip())
    failed = 0
    chosen = [c for c in CHECKS if not args.k or any(k in c.__name__ for k in args.k)]
    for fn in chosen:
        try:
            fn()
            print("PASS %s" % fn.__name__)
        except Failure as e:
            failed += 1
            print("FAIL %s: %s" % (fn.__name__, e))
        except Exception:
            failed += 1
            print("FAIL %s:\n%s" % (fn.__name__, traceback.format_exc()))
        sys.stdout.flush()
    print("packaging: %d passed, %d failed" % (len(chosen) - failed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
