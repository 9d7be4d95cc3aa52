# bash completion for perchctl(1).
#
# The verbs come from `perchctl --list-verbs` and each verb's options from
# its `perchctl VERB --help`, so both follow the perchctl being completed;
# notification ids and active modes are asked of the running daemon
# (`perchctl list`, `perchctl mode`). Installed as
# $(PREFIX)/share/bash-completion/completions/perchctl.

# The perchctl being completed: the word typed, so ./perchctl completes
# with itself.
_perchctl_run() {
    local program=${COMP_WORDS[0]}
    command -v -- "$program" >/dev/null 2>&1 || program=perchctl
    "$program" "$@" 2>/dev/null
}

# Ids of the notifications on screen or queued: the first column of
# `perchctl list`, after its header.
_perchctl_ids() {
    _perchctl_run list | { read -r _ && while read -r id _; do printf '%s\n' "$id"; done; }
}

# Active modes, then the built-in one.
_perchctl_modes() {
    local modes
    modes=$(_perchctl_run mode)
    [[ $modes == "(no modes)" ]] && modes=
    printf '%s\n' $modes do-not-disturb silent
}

_perchctl_options() {
    local help
    help=$(_perchctl_run "$1" --help)
    # Long and short options as the synopsis spells them, plus the shared ones.
    { grep -oE -- '(^|[[ |])--?[a-z][a-z-]*' <<<"$help" | sed 's/^[[ |]//'; printf '%s\n' --json --help; } | sort -u
}

_perchctl() {
    local cur=${COMP_WORDS[COMP_CWORD]}
    local prev=${COMP_WORDS[COMP_CWORD-1]}
    COMPREPLY=()

    if ((COMP_CWORD == 1)); then
        local verbs
        verbs=$(_perchctl_run --list-verbs)
        [[ -n $verbs ]] || verbs="post dismiss list invoke menu reply history restore watch mode status version reload center focus count history-pop set-paused is-paused close close-all action context rule"
        COMPREPLY=($(compgen -W "$verbs --help" -- "$cur"))
        return
    fi

    local verb=${COMP_WORDS[1]}
    # The words after the verb that are not options or their values.
    local -a positionals=()
    local i word
    for ((i = 2; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        case $word in
            --icon | --timeout | --urgency | --app | --replace | --anchor | --enter | --exit | --style | --action | --category | --sound | -n)
                ((i++)) ;;
            -a | -r | -t) [[ $verb == mode ]] && ((i++)) ;;
            -*) ;;
            *) positionals+=("$word") ;;
        esac
    done

    case $prev in
        --urgency) COMPREPLY=($(compgen -W "low normal critical" -- "$cur")); return ;;
        --anchor) COMPREPLY=($(compgen -W "top-right top-left top-center bottom-right bottom-left bottom-center" -- "$cur")); return ;;
        --enter | --exit) COMPREPLY=($(compgen -W "slide-right slide-left slide-top slide-bottom fade" -- "$cur")); return ;;
        --style) COMPREPLY=($(compgen -W "toast banner" -- "$cur")); return ;;
        --replace | --group | -g | -n) COMPREPLY=($(compgen -W "$(_perchctl_ids)" -- "$cur")); return ;;
        -a | -r | -t | -s) [[ $verb == mode ]] && { COMPREPLY=($(compgen -W "$(_perchctl_modes)" -- "$cur")); return; } ;;
        --icon) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --sound) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -W "none" -- "$cur") $(compgen -f -- "$cur")); return ;;
        --timeout | --app | --action | --category) return ;;
    esac

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_perchctl_options "$verb")" -- "$cur"))
        return
    fi

    case $verb in
        dismiss | reply | copy)
            ((${#positionals[@]} == 0)) && COMPREPLY=($(compgen -W "$(_perchctl_ids)" -- "$cur")) ;;
        invoke)
            case ${#positionals[@]} in
                0) COMPREPLY=($(compgen -W "$(_perchctl_ids)" -- "$cur")) ;;
                1) COMPREPLY=($(compgen -W "default" -- "$cur")) ;;
            esac ;;
        mode)
            case ${#positionals[@]} in
                0) COMPREPLY=($(compgen -W "get set add remove toggle" -- "$cur")) ;;
                *) [[ ${positionals[0]} == set || ${#positionals[@]} == 1 ]] &&
                    COMPREPLY=($(compgen -W "$(_perchctl_modes)" -- "$cur")) ;;
            esac ;;
        center)
            ((${#positionals[@]} == 0)) && COMPREPLY=($(compgen -W "open close toggle" -- "$cur")) ;;
        count)
            ((${#positionals[@]} == 0)) && COMPREPLY=($(compgen -W "displayed history waiting" -- "$cur")) ;;
        set-paused)
            ((${#positionals[@]} == 0)) && COMPREPLY=($(compgen -W "true false toggle" -- "$cur")) ;;
        close)
            ((${#positionals[@]} == 0)) && COMPREPLY=($(compgen -W "$(_perchctl_ids)" -- "$cur")) ;;
        rule)
            ((${#positionals[@]} == 1)) && COMPREPLY=($(compgen -W "enable disable toggle" -- "$cur")) ;;
        menu)
            # The dmenu-like program; what follows is its own.
            ((${#positionals[@]} == 0)) && COMPREPLY=($(compgen -c -- "$cur")) ;;
    esac
}

complete -F _perchctl perchctl
