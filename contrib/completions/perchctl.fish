# fish completion for perchctl(1).
#
# The verbs come from `perchctl --list-verbs` and each verb's options from
# its `perchctl VERB --help`, so both follow the perchctl being completed;
# notification ids and active modes are asked of the running daemon
# (`perchctl list`, `perchctl mode`). Installed as
# $(PREFIX)/share/fish/vendor_completions.d/perchctl.fish.

# The perchctl being completed: the word typed, so ./perchctl completes
# with itself.
function __perchctl_program
    set -l words (commandline -opc)
    if command -q -- $words[1]; or test -x "$words[1]"
        echo $words[1]
    else
        echo perchctl
    end
end

function __perchctl_verbs
    set -l program (__perchctl_program)
    set -l verbs ($program --list-verbs 2>/dev/null)
    or set verbs post dismiss list invoke reply history restore watch mode status version reload center focus count history-pop set-paused is-paused close close-all action context rule
    printf '%s\n' $verbs
end

# Ids of the notifications on screen or queued, with their titles: the
# columns of `perchctl list` after its header.
function __perchctl_ids
    set -l program (__perchctl_program)
    $program list 2>/dev/null | tail -n +2 | string replace -r '^(\d+)\s+\S+\s+\S+\s+(.*)$' '$1\t$2'
end

function __perchctl_modes
    set -l program (__perchctl_program)
    set -l modes (string split ' ' -- ($program mode 2>/dev/null))
    printf '%s\n' (string match -v -- '(no modes)' $modes) do-not-disturb silent | string match -v '' | sort -u
end

function __perchctl_verb_options
    set -l words (commandline -opc)
    set -l program (__perchctl_program)
    $program $words[2] --help 2>/dev/null | string match -ar -- '(?:^|[\[ |])(--?[a-z][a-z-]*)' | string match -r -- '^--?[a-z].*' | sort -u
    printf '%s\n' --json --help
end

# How many words after the verb are neither options nor their values.
function __perchctl_positionals -a count
    set -l words (commandline -opc)
    set -l n 0
    set -l skip 0
    for word in $words[3..-1]
        if test $skip -eq 1
            set skip 0
        else if contains -- $word --icon --timeout --urgency --app --replace --anchor --enter --exit --style --action --category --sound -n
            set skip 1
        else if not string match -q -- '-*' $word
            set n (math $n + 1)
        end
    end
    test $n -eq $count
end

complete -c perchctl -f
complete -c perchctl -n __fish_use_subcommand -a '(__perchctl_verbs)'
complete -c perchctl -n __fish_use_subcommand -l help -d 'list the commands'
complete -c perchctl -n 'not __fish_use_subcommand; and string match -q -- "-*" (commandline -ct)' -a '(__perchctl_verb_options)'

complete -c perchctl -n '__fish_seen_subcommand_from post' -l urgency -x -a 'low normal critical'
complete -c perchctl -n '__fish_seen_subcommand_from post' -l anchor -x -a 'top-right top-left top-center bottom-right bottom-left bottom-center'
complete -c perchctl -n '__fish_seen_subcommand_from post' -l enter -x -a 'slide-right slide-left slide-top slide-bottom fade'
complete -c perchctl -n '__fish_seen_subcommand_from post' -l exit -x -a 'slide-right slide-left slide-top slide-bottom fade'
complete -c perchctl -n '__fish_seen_subcommand_from post' -l style -x -a 'toast banner'
complete -c perchctl -n '__fish_seen_subcommand_from post' -l icon -r -F
complete -c perchctl -n '__fish_seen_subcommand_from post' -l sound -r -F -a none
complete -c perchctl -n '__fish_seen_subcommand_from post' -l replace -x -a '(__perchctl_ids)'
complete -c perchctl -n '__fish_seen_subcommand_from post' -l timeout -x
complete -c perchctl -n '__fish_seen_subcommand_from post' -l app -x
complete -c perchctl -n '__fish_seen_subcommand_from post' -l category -x
complete -c perchctl -n '__fish_seen_subcommand_from post' -l action -x
complete -c perchctl -n '__fish_seen_subcommand_from dismiss' -s g -l group -x -a '(__perchctl_ids)'
complete -c perchctl -n '__fish_seen_subcommand_from dismiss invoke menu' -s n -x -a '(__perchctl_ids)' -d 'notification id'
complete -c perchctl -n '__fish_seen_subcommand_from mode' -s a -x -a '(__perchctl_modes)' -d 'add a mode'
complete -c perchctl -n '__fish_seen_subcommand_from mode' -s r -x -a '(__perchctl_modes)' -d 'remove a mode'
complete -c perchctl -n '__fish_seen_subcommand_from mode' -s t -x -a '(__perchctl_modes)' -d 'toggle a mode'
complete -c perchctl -n '__fish_seen_subcommand_from menu; and __perchctl_positionals 0' -a '(__fish_complete_command)'

complete -c perchctl -n '__fish_seen_subcommand_from dismiss invoke reply copy; and __perchctl_positionals 0' -a '(__perchctl_ids)'
complete -c perchctl -n '__fish_seen_subcommand_from invoke; and __perchctl_positionals 1' -a default -d 'the default action'
complete -c perchctl -n '__fish_seen_subcommand_from mode; and __perchctl_positionals 0' -a 'get set add remove toggle'
complete -c perchctl -n '__fish_seen_subcommand_from mode; and not __perchctl_positionals 0' -a '(__perchctl_modes)'
complete -c perchctl -n '__fish_seen_subcommand_from center; and __perchctl_positionals 0' -a 'open close toggle'
complete -c perchctl -n '__fish_seen_subcommand_from count; and __perchctl_positionals 0' -a 'displayed history waiting'
complete -c perchctl -n '__fish_seen_subcommand_from set-paused; and __perchctl_positionals 0' -a 'true false toggle'
complete -c perchctl -n '__fish_seen_subcommand_from close; and __perchctl_positionals 0' -a '(__perchctl_ids)'
complete -c perchctl -n '__fish_seen_subcommand_from rule; and __perchctl_positionals 1' -a 'enable disable toggle'
