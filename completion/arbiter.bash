# bash completion for arbiter(1): subcommands, their options and option values.
#
# The options of each subcommand are read from "arbiter COMMAND --help" (so they follow
# the program), cached per session; the values (notation names, formats, rule sets,
# board sizes) are listed here. Install as
# $(pkg-config --variable=completionsdir bash-completion)/arbiter, or source it.

_arbiter_commands="check convert fix summary split perft diagram tour"
_arbiter_xq_notations="wxf vi chinese iccs ucci fsf-uci winboard fsf-san"
_arbiter_chess_letters="san-en san-ru san-de san-fr san-es san-it san-nl san-vi figurine"

# The long options of one subcommand, from its usage text.
_arbiter_options()
{
    local cmd=$1 var="_arbiter_opts_${1//-/_}"
    if [[ -z ${!var-} ]]; then
        local help
        help=$("${_arbiter_prog:-arbiter}" "$cmd" --help 2>/dev/null)
        printf -v "$var" '%s' "$({ sed -n 's/^ *\(-[a-zA-Z], \)\{0,1\}\(--[a-zA-Z0-9-]*\).*/\2/p' <<<"$help"; echo --help; echo --lang; } | sort -u | tr '\n' ' ')"
    fi
    printf '%s' "${!var}"
}

# Complete the items of a comma-separated list: the words after the last comma.
_arbiter_list()
{
    local cur=$1; shift
    local prefix=""
    [[ $cur == *,* ]] && prefix=${cur%,*},
    COMPREPLY=($(compgen -P "$prefix" -W "$*" -- "${cur##*,}"))
    compopt -o nospace 2>/dev/null
}

_arbiter()
{
    local cur prev cmd i
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    _arbiter_prog=${COMP_WORDS[0]}
    cmd=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
        --lang) ((i++)) ;; # --lang LANG goes anywhere, before the command too
        -*) ;;
        *) cmd=${COMP_WORDS[i]}; break ;;
        esac
    done

    if [[ $prev == --lang ]]; then
        COMPREPLY=($(compgen -W "vi ru en" -- "$cur")); return
    fi
    if [[ -z $cmd ]]; then
        COMPREPLY=($(compgen -W "$_arbiter_commands --help --version --lang" -- "$cur"))
        return
    fi

    case $prev in
    -n|--notation)
        local names="$_arbiter_xq_notations"
        case $cmd in
        convert) names="san lan uci ${_arbiter_chess_letters#san-en } $names" ;;
        check) names="$names $_arbiter_chess_letters" ;;
        esac
        COMPREPLY=($(compgen -W "$names" -- "$cur")); return ;;
    --from)
        if [[ $cmd == tour ]]; then
            COMPREPLY=($(compgen -W "a0 a9 b9 e0 e4 i9" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "pgn wxf article tex markdown html xqf dhtmlxq" -- "$cur"))
        fi
        return ;;
    --to) COMPREPLY=($(compgen -W "pgn wxf article xqf dhtmlxq" -- "$cur")); return ;;
    --xqf-version) COMPREPLY=($(compgen -W "18 10" -- "$cur")); return ;;
    -v|--variant)
        if [[ $prev == --variant || $cmd == perft ]]; then
            COMPREPLY=($(compgen -W "chess xiangqi" -- "$cur")); return
        fi ;;
    --rules) COMPREPLY=($(compgen -W "fide vn axf cxa" -- "$cur")); return ;;
    --time-control) COMPREPLY=($(compgen -W "standard rapid blitz" -- "$cur")); return ;;
    --report)
        case $cmd in
        check) COMPREPLY=($(compgen -W "yaml jsonl html" -- "$cur")) ;;
        fix) COMPREPLY=($(compgen -f -- "$cur")) ;; # fix --report FILE
        *) COMPREPLY=($(compgen -W "yaml jsonl" -- "$cur")) ;;
        esac
        return ;;
    --strip) _arbiter_list "$cur" comments nags variations; return ;;
    --xq-style) _arbiter_list "$cur" equals lower-black marker-first full-width fsf traditional; return ;;
    -f|--format)
        case $cmd in
        diagram) COMPREPLY=($(compgen -W "svg text" -- "$cur")); return ;;
        tour) COMPREPLY=($(compgen -W "grid svg" -- "$cur")); return ;;
        esac ;;
    -b|--board) COMPREPLY=($(compgen -W "9x10 8x8 10x10 5x5 6x6" -- "$cur")); return ;;
    -s)
        [[ $cmd == tour ]] && { COMPREPLY=($(compgen -W "a0 a9 b9 e0 e4 i9" -- "$cur")); return; } ;;
    -d|--diagrams)
        if [[ $cmd == diagram || $prev == --diagrams ]]; then
            COMPREPLY=($(compgen -d -- "$cur")); return
        fi ;;
    -o|--output) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --fen|--depth|--game|--ply|--budget|--move-limit|--timeout-nodes|--xqf-seed|-j|--jobs|-g|-p|--size) return ;;
    esac

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_arbiter_options "$cmd")" -- "$cur"))
        return
    fi
    case $cmd in
    perft|tour) ;;
    *) COMPREPLY=($(compgen -f -- "$cur")) ;;
    esac
}

complete -o filenames -F _arbiter arbiter
