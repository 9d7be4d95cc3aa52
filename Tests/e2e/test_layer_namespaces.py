"""The namespaces Perch gives its layer surfaces, which compositors' layer
rules match (Hyprland's `layerrule`, niri's `layer-rule`): the toasts'
stacks are `notifications`, the center's panel `perch-center`, and the
transparent surfaces over the whole output that catch clicks
`perch-catcher`, so that a rule written for the toasts (blur, no
animation) never lands on a surface as large as the screen. The Hyprland
rules docs/compositors.md gives are checked by Hyprland's own config
check, from the Debian unstable root."""

import os
import re
import shutil

from harness import REPO, SWAY17, Perch, check, poll, test

# Which compositors these tests run on (harness.test).
COMPOSITORS = SWAY17
COMPOSITORS_WHY = "the namespace is the daemon's choice, the same on every compositor"

DOC = os.path.join(REPO, "docs", "compositors.md")

# What WAYLAND_DEBUG=client prints for each layer surface Perch makes:
# the layer (0 background … 3 overlay) and the namespace.
GET_LAYER_SURFACE = re.compile(r'zwlr_layer_shell_v1@\d+\.get_layer_surface\(new id zwlr_layer_surface_v1@\d+, '
                               r'wl_surface@\d+, (?:nil|wl_output@\d+), (\d), "([^"]*)"\)')


def namespaces_asked(p):
    """[(layer, namespace)] of every layer surface Perch has asked for."""
    return [(int(layer), ns) for layer, ns in GET_LAYER_SURFACE.findall(p.log())]


def new_namespaces(p, before, what):
    """The namespaces of the layer surfaces made since `before` surfaces
    were, waiting up to 3 s for the first."""
    asked, _ = poll(lambda: namespaces_asked(p)[before:], 3.0, 0.05)
    check(asked, "%s: perch asked for no new layer surface" % what)
    return asked


def namespaces_by_role(t):
    """Perch under WAYLAND_DEBUG on the test's compositor: a toast, then
    `perchctl focus` (the toasts take the keyboard and a catcher covers the
    output), then the center opened (its catcher, then its panel). Returns
    {"toasts": [...], "focus catcher": [...], "center": [...]}, each the
    (layer, namespace) pairs that step made, and the daemon."""
    s = t.sway()
    p = Perch(s, t.bindir, os.path.join(t.tmp, "perch.log"), env=s.env(WAYLAND_DEBUG="client"))
    t.perch = p
    p.wait_ready()
    roles = {}
    p.post("A toast", "with a stack of its own", timeout=0)
    roles["toasts"] = new_namespaces(p, 0, "a toast posted")
    seen = len(namespaces_asked(p))
    p.ctl_ok("focus")
    roles["focus catcher"] = new_namespaces(p, seen, "perchctl focus")
    p.ctl_ok("dismiss", "--all")
    seen = len(namespaces_asked(p))
    p.ctl_ok("center", "open")
    # The catcher first, then the panel: wait for both.
    poll(lambda: len(namespaces_asked(p)) >= seen + 2, 3.0, 0.05)
    roles["center"] = new_namespaces(p, seen, "perchctl center open")
    return roles, p


@test
def each_kind_of_layer_surface_is_made_with_a_namespace_of_its_own(t):
    roles, p = namespaces_by_role(t)
    check(roles["toasts"] == [(3, "notifications")],
          "a toast's stack should be one overlay surface named \"notifications\" (as mako's and fnott's), "
          "asked %s" % roles["toasts"])
    check(roles["focus catcher"] == [(2, "perch-catcher")],
          "the surface that catches a click on a window while the toasts hold the keyboard covers the whole "
          "output: it must be \"perch-catcher\", so that a compositor's rule for \"notifications\" (blur, "
          "dimming) does not cover the screen; asked %s" % roles["focus catcher"])
    check(roles["center"] == [(2, "perch-catcher"), (2, "perch-center")],
          "opening the center should make its catcher (\"perch-catcher\") and its panel (\"perch-center\"), "
          "both on the top layer; asked %s" % roles["center"])
    check(p.proc.poll() is None, "perch died: %s" % p.log()[-1500:])


def doc_lua_rules():
    """The Lua block of docs/compositors.md's Hyprland section (the first
    ```lua block) and the namespace patterns its layer rules match."""
    with open(DOC) as f:
        text = f.read()
    m = re.search(r"```lua\n(.*?)```", text, re.S)
    check(m, "docs/compositors.md has no ```lua block of Hyprland rules")
    block = m.group(1)
    patterns = re.findall(r'namespace\s*=\s*"([^"]*)"', block)
    check(patterns, "the Lua block of docs/compositors.md matches no namespace")
    return block, patterns


@test(compositors=("sway112",), why="Hyprland's config check is in the Debian unstable root (the namespaces "
                                    "are asked of sway 1.12 there)")
def the_hyprland_rules_in_the_docs_pass_hyprlands_check_and_reach_the_toasts_never_the_catchers(t):
    block, patterns = doc_lua_rules()
    s = t.sway()
    # Hyprland checks the file as the session user, in the root: the file
    # lies in the session's directory, which is bound into the root.
    path = os.path.join(s.dir, "perch-rules.lua")
    with open(path, "w") as f:
        f.write(block)
    shutil.chown(path, s.pw.pw_uid, s.pw.pw_gid)
    r = s.rexec(["Hyprland", "--verify-config", "-c", path], timeout=20)
    out = r.stdout + r.stderr
    verdict = out[out.rfind("Config parsing result:"):] if "Config parsing result:" in out else out[-800:]
    check("config ok" in verdict, "Hyprland's check refuses the rules of docs/compositors.md: %s" % verdict.strip())

    roles, p = namespaces_by_role(t)
    named = {"toasts": roles["toasts"][0][1], "center": roles["center"][-1][1]}
    catchers = {ns for _, ns in roles["focus catcher"] + roles["center"][:-1]}
    for pattern in patterns:
        # Hyprland matches with RE2; these anchors and words mean the same in Python's re.
        rx = re.compile(pattern)
        check(any(rx.search(ns) for ns in named.values()),
              "the docs' rule for %r matches none of Perch's surfaces %s" % (pattern, named))
        hit = [ns for ns in catchers if rx.search(ns)]
        check(not hit, "the docs' rule for %r would also land on %s, the transparent surface over the whole "
              "output (the whole screen blurred while the center is open)" % (pattern, hit))
