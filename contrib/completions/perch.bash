# bash completion for perch(1).
#
# Its own options, and --KEY for every config key of perch(5) as
# `perch --list-config-keys` names them (so new keys complete without an
# edit here), with the values of the keys that take a word from a list.
# Installed as $(PREFIX)/share/bash-completion/completions/perch.

_perch_run() {
    local program=${COMP_WORDS[0]}
    command -v -- "$program" >/dev/null 2>&1 || program=perch
    "$program" "$@" 2>/dev/null
}

# The words a config key takes, when they come from a list.
_perch_key_values() {
    case $1 in
        anchor) echo "top-right top-left top-center bottom-right bottom-left bottom-center" ;;
        layer) echo "background bottom top overlay" ;;
        output | center-output) echo "focused all" ;;
        sort) echo "newest-first oldest-first urgent-first" ;;
        ellipsize) echo "start middle end" ;;
        set-urgency) echo "low normal critical" ;;
        style) echo "toast banner" ;;
        enter | exit) echo "auto slide-right slide-left slide-top slide-bottom fade" ;;
        icon-location) echo "left right top" ;;
        text-alignment) echo "left center right" ;;
        fullscreen) echo "show hold hide" ;;
        accessibility) echo "auto on off" ;;
        center-anchor) echo "left right" ;;
        on-button-left | on-button-middle | on-button-right | on-touch)
            echo "none dismiss dismiss-all invoke-default-action invoke-default-action-or-focus focus focus-or-dismiss invoke-action do-action menu menu-all" ;;
        markup) echo "true false strip escape" ;;
        icons | bounce | ignore-timeout | resident | invisible | text-wrap | ignore-newline | progress-bar | \
            transient | sticky-history | indicate-hidden) echo "true false" ;;
    esac
}

_perch() {
    local cur=${COMP_WORDS[COMP_CWORD]}
    local prev=${COMP_WORDS[COMP_CWORD-1]}
    COMPREPLY=()

    case $prev in
        -c | --config | --state | --check-config)
            compopt -o filenames 2>/dev/null
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
        --scale) COMPREPLY=($(compgen -W "1 2 3 4 5 6 7 8" -- "$cur")); return ;;
        --find-icon) return ;;
    esac

    local keys
    keys=$(_perch_run --list-config-keys)
    if [[ $prev == --* ]] && grep -qxF -- "${prev#--}" <<<"$keys"; then
        COMPREPLY=($(compgen -W "$(_perch_key_values "${prev#--}")" -- "$cur"))
        # A boolean key alone means true: the next option may follow.
        [[ $cur == -* ]] || return
    fi

    if [[ $cur == -* ]]; then
        local own="-c --config --check-config --find-icon --scale --replace --no-dbus --state -v --verbose -h --help --version"
        COMPREPLY=($(compgen -W "$own $(sed 's/^/--/' <<<"$keys")" -- "$cur"))
    fi
}

complete -F _perch perch
