"""The real `makoctl`s against Perch (issue 41, item 3): a mako user's
bindings and scripts call makoctl, which talks to mako's own D-Bus
interface (fr.emersion.Mako at /fr/emersion/Mako), not to perchctl. Perch
serves it, so they keep working unchanged: Debian 12's makoctl 1.7.1 (a
shell script over busctl and jq, on the host) and Debian 13's makoctl
1.10 (a C program, run from the Debian 13 root), every verb each has.

test_makoctl.py checks perchctl's makoctl spellings; these check the
makoctls themselves."""

import json
import os
import subprocess

from harness import SWAY17, Perch, check, poll, test, write_config
from test_actions import finish, start_waiter
from test_dbus import BUS_WITHOUT_ACTIVATION

MAKOCTL_17 = "/usr/bin/makoctl"
SWAY110 = ("sway110",)


def post(p, title, app="app", actions=()):
    extra = ["--timeout", "0", "--app", app]
    for key, label in actions:
        extra += ["--action", "%s=%s" % (key, label)]
    return int(p.ctl_ok("post", *extra, title).strip())


def live(p):
    return [n["id"] for n in p.list()]


def kept(p):
    """History, newest first: (id, reason)."""
    return [(e["notification"]["id"], e["reason"]) for e in json.loads(p.ctl_ok("history", "--json"))]


def modes(p):
    return json.loads(p.ctl_ok("mode", "--json"))["modes"]


def wait_live(p, ids, what):
    ok, _ = poll(lambda: sorted(live(p)) == sorted(ids), 3.0, 0.05)
    check(ok, "%s: live should be %s, is %s" % (what, sorted(ids), live(p)))


class Makoctl:
    """One makoctl, run as the session user against the test's bus."""

    def __init__(self, t, env, argv0, in_root=False):
        self.t, self.env, self.argv0, self.in_root = t, env, argv0, in_root

    def __call__(self, *args, ok=True):
        s = self.t.sway()
        if self.in_root:
            # The bus is an abstract socket: the root (its own mounts, the
            # host's network namespace) reaches it at the same address.
            r = s.rexec(["env", "DBUS_SESSION_BUS_ADDRESS=" + self.env["DBUS_SESSION_BUS_ADDRESS"],
                         self.argv0] + list(args), timeout=10)
        else:
            r = s.run([self.argv0] + list(args), env=self.env, timeout=10)
        if ok:
            check(r.returncode == 0, "makoctl %s exited %d: stdout %r stderr %r"
                  % (" ".join(args), r.returncode, r.stdout, r.stderr))
        return r


def check_every_verb_but_listing(t, p, makoctl, version):
    """What both makoctls do alike: dismiss (newest, -n, -g, -a), restore,
    invoke (default, -n, an action), menu, mode (-a, -r, -s), reload.
    Returns nothing; checks Perch's state after each through perchctl."""
    a = post(p, "A", app="mail")
    b = post(p, "B", app="chat")
    c = post(p, "C", app="mail")
    makoctl("dismiss")
    wait_live(p, [a, b], "`makoctl dismiss` takes the newest (%d)" % c)
    makoctl("dismiss", "-n", str(a))
    wait_live(p, [b], "`makoctl dismiss -n %d`" % a)
    check(kept(p)[:2] == [(a, "dismissed-by-user"), (c, "dismissed-by-user")],
          "dismissed by the user, in history: %s" % kept(p))
    makoctl("restore")
    wait_live(p, [a, b], "`makoctl restore` brings back the newest in history (%d)" % a)
    d = post(p, "D", app="mail")
    makoctl("dismiss", "-g")
    wait_live(p, [b], "`makoctl dismiss -g` takes the newest's group (mail: %d, %d)" % (a, d))
    post(p, "E")
    makoctl("dismiss", "-a")
    wait_live(p, [], "`makoctl dismiss -a`")
    # Nothing on screen: mako answers with an empty return, so does Perch,
    # and a binding pressed on an empty screen exits 0.
    makoctl("dismiss")
    makoctl("invoke")

    # invoke: the newest's default action, an action by name, one of an
    # older notification by id; an action it does not offer does nothing.
    waiter = start_waiter(t, p, "--timeout", "0", "--action", "default=Open", "--action", "later=Later", "Meet")
    poll(lambda: len(live(p)) == 1, 3.0, 0.05)
    makoctl("invoke", "nosuch")
    check(len(live(p)) == 1, "an action not offered changes nothing (as in mako): %s" % p.list())
    makoctl("invoke")
    rc, out, _ = finish(waiter)
    check(rc == 0 and out.strip() == "default", "`makoctl invoke` invokes the newest's default: %s %r" % (rc, out))
    waiter = start_waiter(t, p, "--timeout", "0", "--action", "later=Later", "Meet again")
    poll(lambda: len(live(p)) == 1, 3.0, 0.05)
    older = live(p)[0]
    post(p, "Newer")
    makoctl("invoke", "-n", str(older), "later")
    rc, out, _ = finish(waiter)
    check(rc == 0 and out.strip() == "later", "`makoctl invoke -n ID later`: %s %r" % (rc, out))

    # menu: the labels go to the program, its line picks the action.
    waiter = start_waiter(t, p, "--timeout", "0", "--action", "yes=Accept", "--action", "no=Decline", "Invite")
    poll(lambda: len(live(p)) == 2, 3.0, 0.05)
    invite = max(live(p))
    seen = os.path.join(t.sway().dir, "menu-%s" % version)
    # 1.10 reads options with getopt, which would take sh's -c for its own
    # without the `--` (1.7's script takes the program's words as they are).
    end = ["--"] if version == "1.10" else []
    makoctl("menu", "-n", str(invite), *end, "sh", "-c", "cat > %s; echo Decline" % seen)
    rc, out, _ = finish(waiter)
    check(rc == 0 and out.strip() == "no", "`makoctl menu` invokes the chosen label's action: %s %r" % (rc, out))
    with open(seen) as f:
        labels = f.read()
    check(labels == "Accept\nDecline\n", "the menu program reads the labels, one a line: %r" % labels)
    makoctl("dismiss", "-a")

    # mode: the modes as Perch has them; -a and -r write back what
    # ListModes said with the change (1.7 through jq), -s sets.
    check(makoctl("mode").stdout == "", "no mode at first: %r" % makoctl("mode").stdout)
    out = makoctl("mode", "-a", "do-not-disturb").stdout
    check(out == "do-not-disturb\n" and modes(p) == ["do-not-disturb"],
          "`mode -a do-not-disturb`: printed %r, Perch has %s" % (out, modes(p)))
    makoctl("mode", "-a", "work")
    check(modes(p) == ["do-not-disturb", "work"], "`mode -a work` keeps do-not-disturb: %s" % modes(p))
    makoctl("mode", "-r", "do-not-disturb")
    check(modes(p) == ["work"], "`mode -r do-not-disturb`: %s" % modes(p))
    out = makoctl("mode", "-s", "away", "busy").stdout
    check(sorted(out.split()) == ["away", "busy"] and modes(p) == ["away", "busy"],
          "`mode -s away busy`: printed %r, Perch has %s" % (out, modes(p)))
    check(sorted(makoctl("mode").stdout.split()) == ["away", "busy"], "`mode` lists them")
    makoctl("mode", "-s", "default")

    # reload: a good config is read again; a broken one is refused with
    # mako's error name and Perch's diagnostics, and the old one stays.
    with open(p.config_path, "w") as f:
        f.write("default-timeout=4000\n")
    makoctl("reload")
    with open(p.config_path, "w") as f:
        f.write("default-timeout=soon\n")
    r = makoctl("reload", ok=False)
    check(r.returncode != 0 and "default-timeout" in r.stderr + r.stdout,
          "a broken config: makoctl reload fails naming the problem: %r" % (r,))
    p.ctl_ok("status")


def start_with_config(t):
    """A session bus whose socket is in the session's runtime directory
    (which the Debian 13 root sees at the same path; the usual one is in
    the host's /tmp), and Perch on it with a config file of the test's."""
    s = t.sway()
    conf = os.path.join(t.user_dir(), "bus.conf")
    with open(conf, "w") as f:
        f.write(BUS_WITHOUT_ACTIVATION.replace("<listen>unix:tmpdir=/tmp</listen>",
                                               "<listen>unix:path=%s/bus</listen>" % s.dir))
    os.chmod(conf, 0o644)
    bus = s.popen(["dbus-daemon", "--config-file=" + conf, "--nofork", "--print-address=1", "--nopidfile"],
                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    address = bus.stdout.readline().decode().strip()
    check(address.startswith("unix:path=" + s.dir), "dbus-daemon's address: %r" % address)
    env = s.env(DBUS_SESSION_BUS_ADDRESS=address)
    path = write_config(t, "default-timeout=5000\n")
    p = Perch(s, t.bindir, os.path.join(t.tmp, "perch.log"), env=env, args=["-c", path])
    t.perch = p
    p.wait_ready()
    owned, _ = poll(lambda: s.run(["busctl", "--user", "status", "org.freedesktop.Notifications"],
                                  env=env).returncode == 0, 5.0, 0.1)
    check(owned, "perch did not take org.freedesktop.Notifications; log:\n%s" % p.log())
    p.config_path = path
    return p, env


@test(compositors=SWAY17, why="makoctl 1.7.1 is the host's; it talks to D-Bus only")
def makoctl_171_every_verb_works_against_perch(t):
    p, env = start_with_config(t)
    makoctl = Makoctl(t, env, MAKOCTL_17)
    r = makoctl("help")
    check("Usage: makoctl" in r.stdout, "makoctl 1.7.1's help: %r" % r.stdout)

    # list: busctl's JSON of ListNotifications, newest first, with the
    # keys 1.7 has and the actions as a dictionary (what `menu` reads).
    check(json.loads(makoctl("list").stdout)["data"] == [[]], "nothing listed at first")
    first = post(p, "First", app="mail", actions=[("default", "Open"), ("archive", "Archive")])
    second = post(p, "Second", app="chat")
    data = json.loads(makoctl("list").stdout)["data"][0]
    check([n["id"]["data"] for n in data] == [second, first], "newest first: %s" % data)
    n = data[1]
    check(n["app-name"]["data"] == "mail" and n["summary"]["data"] == "First" and n["body"]["data"] == ""
          and n["actions"]["data"] == {"default": "Open", "archive": "Archive"} and n["category"]["data"] == ""
          and n["app-icon"]["data"] == "", "mako's keys and values: %s" % n)
    makoctl("dismiss", "-a")
    wait_live(p, [], "dismiss -a")

    check_every_verb_but_listing(t, p, makoctl, "1.7")
    # 1.7's deprecated set-mode (SetMode).
    makoctl("set-mode", "do-not-disturb")
    check(modes(p) == ["do-not-disturb"], "`makoctl set-mode do-not-disturb`: %s" % modes(p))


@test(compositors=SWAY110, why="makoctl 1.10 runs from the Debian 13 root, whose sway the sway110 pass runs; "
      "the compositor does not matter")
def makoctl_110_every_verb_works_against_perch(t):
    import debian13
    p, env = start_with_config(t)
    makoctl = Makoctl(t, env, debian13.program(t, "/usr/bin/makoctl", "mako-notifier"), in_root=True)
    r = makoctl("help")
    check("Toggle modes" in r.stderr, "makoctl 1.10's help (on stderr): %r" % r.stderr)

    # list and history: 1.10 prints them itself, from mako 1.10's keys.
    check(makoctl("list").stdout == "", "nothing listed at first")
    first = post(p, "First", app="mail", actions=[("default", "Open"), ("archive", "Archive")])
    p.ctl_ok("post", "--timeout", "0", "--app", "chat", "--urgency", "critical", "--category", "im", "Second")
    second = max(live(p))
    out = makoctl("list").stdout
    want = ("Notification %d: Second\n  App name: chat\n  Category: im\n  Urgency: critical\n"
            "Notification %d: First\n  App name: mail\n  Urgency: normal\n  Actions:\n"
            "    default: Open\n    archive: Archive\n" % (second, first))
    check(out == want, "makoctl list:\n%s\nwanted:\n%s" % (out, want))
    makoctl("dismiss", "-n", str(first))
    out = makoctl("history").stdout
    check(out.startswith("Notification %d: First\n  App name: mail\n" % first), "makoctl history: %r" % out)
    # --no-history: gone, and not kept.
    makoctl("dismiss", "--no-history")
    wait_live(p, [], "dismiss --no-history")
    check(second not in [i for i, _ in kept(p)], "--no-history keeps it out of history: %s" % kept(p))
    makoctl("dismiss", "-a", "-h")
    r = makoctl("dismiss", "-a", "-g", ok=False)
    check(r.returncode == 1, "makoctl refuses -a with -g itself: %r" % (r,))

    check_every_verb_but_listing(t, p, makoctl, "1.10")
    # 1.10's toggle.
    makoctl("mode", "-t", "do-not-disturb")
    check(modes(p) == ["default", "do-not-disturb"], "`mode -t do-not-disturb` adds it: %s" % modes(p))
    makoctl("mode", "-t", "do-not-disturb")
    check(modes(p) == ["default"], "and takes it away again: %s" % modes(p))
    makoctl("mode", "-s")
    check(modes(p) == [], "`mode -s` with none clears them: %s" % modes(p))
