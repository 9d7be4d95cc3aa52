# fish completion for perch(1).
#
# Its own options, and --KEY for every config key of perch(5) as
# `perch --list-config-keys` names them (so new keys complete without an
# edit here), with the values of the keys that take a word from a list.
# Installed as $(PREFIX)/share/fish/vendor_completions.d/perch.fish.

function __perch_program
    set -l words (commandline -opc)
    if command -q -- $words[1]; or test -x "$words[1]"
        echo $words[1]
    else
        echo perch
    end
end

# --KEY for each config key, when the word being completed is an option.
function __perch_key_options
    set -l program (__perch_program)
    $program --list-config-keys 2>/dev/null | string replace -r '^' -- '--'
end

# The words a config key takes, after --KEY.
function __perch_key_values
    set -l words (commandline -opc)
    switch $words[-1]
        case --anchor
            printf '%s\n' top-right top-left top-center bottom-right bottom-left bottom-center
        case --layer
            printf '%s\n' background bottom top overlay
        case --output --center-output
            printf '%s\n' focused all
        case --sort
            printf '%s\n' newest-first oldest-first urgent-first
        case --ellipsize
            printf '%s\n' start middle end
        case --set-urgency
            printf '%s\n' low normal critical
        case --style
            printf '%s\n' toast banner
        case --enter --exit
            printf '%s\n' auto slide-right slide-left slide-top slide-bottom fade
        case --icon-location
            printf '%s\n' left right top
        case --text-alignment
            printf '%s\n' left center right
        case --fullscreen
            printf '%s\n' show hold hide
        case --accessibility
            printf '%s\n' auto on off
        case --center-anchor
            printf '%s\n' left right
        case --on-button-left --on-button-middle --on-button-right --on-touch
            printf '%s\n' none dismiss dismiss-all invoke-default-action invoke-default-action-or-focus focus focus-or-dismiss invoke-action do-action menu menu-all
        case --markup
            printf '%s\n' true false strip escape
        case --icons --bounce --ignore-timeout --resident --invisible --text-wrap --ignore-newline --progress-bar --transient --sticky-history --indicate-hidden
            printf '%s\n' true false
    end
end

complete -c perch -f
complete -c perch -s c -l config -r -F -d 'read FILE instead of the default config'
complete -c perch -l check-config -r -F -d 'check the config and exit'
complete -c perch -l find-icon -x -d 'look an icon name up and exit'
complete -c perch -l scale -x -a '1 2 3 4 5 6 7 8' -d 'output scale for --find-icon'
complete -c perch -l replace -d 'take org.freedesktop.Notifications from another daemon'
complete -c perch -l no-dbus -d 'serve the control socket only'
complete -c perch -l state -r -F -d 'where history, modes and live notifications are kept'
complete -c perch -s v -l verbose -d 'more logging'
complete -c perch -s h -l help -d 'print the options and exit'
complete -c perch -l version -d 'print the version and exit'
complete -c perch -n 'string match -q -- "-*" (commandline -ct)' -a '(__perch_key_options)' -d 'config key'
complete -c perch -n 'not string match -q -- "-*" (commandline -ct)' -a '(__perch_key_values)'
