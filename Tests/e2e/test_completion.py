"""The bash completion of perchctl against a running daemon: notification
ids and modes come from it. (Verbs, options and config keys, which need no
daemon, are tested by Tests/packaging/run.py.)"""

import os
import shutil

from harness import REPO, check, test
from harness import SWAY17

COMPOSITORS = SWAY17
COMPOSITORS_WHY = "perchctl and the control socket only"

COMPLETION = os.path.join(REPO, "contrib", "completions", "perchctl.bash")

# Completes each line given on stdin (words split on blanks; a trailing
# blank means the word being completed is empty) and prints the candidates
# on one line, sorted.
QUERY = r'''
source "$1"
while IFS= read -r line; do
    read -ra COMP_WORDS <<<"$line"
    [[ $line == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
    COMPREPLY=()
    _perchctl
    printf '%s\n' "${COMPREPLY[*]}" | tr ' ' '\n' | sort | tr '\n' ' '
    echo
done
'''


def complete(t, p, *lines):
    """The candidates bash offers for each line, as sets."""
    # The checkout may be where the session user cannot read: a copy.
    script = os.path.join(t.tmp, "perchctl.bash")
    shutil.copy(COMPLETION, script)
    os.chmod(script, 0o644)
    env = dict(p.env, PATH=t.bindir + ":" + p.env["PATH"])
    r = p.session.run(["bash", "--norc", "--noprofile", "-c", QUERY, "query", script],
                      env=env, input="".join(line + "\n" for line in lines), timeout=20)
    check(r.returncode == 0, "the completion script failed (%d): %s" % (r.returncode, r.stderr[-1000:]))
    out = r.stdout.split("\n")[:len(lines)]
    return [set(o.split()) for o in out]


@test
def bash_completes_ids_and_modes_from_the_running_daemon(t):
    p = t.start_perch()
    a = p.post("First", timeout=0)
    b = p.post("Second", timeout=0)
    p.ctl_ok("mode", "add", "presenting")
    ids = {str(a), str(b)}
    dismiss, invoke, replace, toggle, verbs = complete(
        t, p, "perchctl dismiss ", "perchctl invoke ", "perchctl post --replace ",
        "perchctl mode toggle ", "perchctl di")
    check(dismiss == ids, "`perchctl dismiss <TAB>` should offer the ids on screen %s, offers %s"
          % (sorted(ids), sorted(dismiss)))
    check(invoke == ids, "`perchctl invoke <TAB>` should offer %s, offers %s" % (sorted(ids), sorted(invoke)))
    check(replace == ids, "`perchctl post --replace <TAB>` should offer %s, offers %s"
          % (sorted(ids), sorted(replace)))
    check(toggle == {"presenting", "do-not-disturb", "silent"},
          "`perchctl mode toggle <TAB>` should offer the active mode and the built-in do-not-disturb and "
          "silent, offers %s"
          % sorted(toggle))
    check(verbs == {"dismiss"}, "`perchctl di<TAB>` should offer dismiss, offers %s" % sorted(verbs))

    p.ctl_ok("dismiss", str(a))
    # Gone from `list` at once, though its toast still slides away.
    (after,) = complete(t, p, "perchctl dismiss ")
    check(after == {str(b)}, "after `perchctl dismiss %d`, `perchctl dismiss <TAB>` should offer only %d, "
          "offers %s" % (a, b, sorted(after)))
