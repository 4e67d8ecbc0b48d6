# bash completion for attnstep                                 -*- shell-script -*-
# Installed as share/bash-completion/completions/attnstep: the commands (asked of the
# program itself, so they are never out of date), the options
# and the values of --lang, --format, --mask, --color, --only, --row and --level; file
# names elsewhere.

_attnstep()
{
    local cur prev words cword
    if declare -F _init_completion >/dev/null 2>&1; then
        _init_completion -s || return
    else
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD - 1]}
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
    fi

    # The commands come from the program's own table, through its --help: the usage
    # lines "attnstep NAME ..." (the first spelt "attnstep [run] ...").
    local commands
    commands=$("${words[0]}" --help --lang en 2>/dev/null |
        sed -n '/^$/q; s/^\(Usage:\)\{0,1\} *attnstep \[\{0,1\}\([a-z][a-z]*\).*/\2/p')
    local options="--lang --format --digits --mask --only --ascii --color --colour
        --heatmap --predict --row -o --output --force --tol --require-digits --seed --tokens --width --dk --dv
        --level --answers --step --block --norm --ffn --exp-table --count --class --expect --head
        --tiles --offset --help --version"

    local values=
    case $prev in
        --lang) values="zh en" ;;
        --format) values="text json md latex csv svg html" ;;
        --mask) values="causal none" ;;
        --color | --colour) values="auto always never" ;;
        --row) values="last all" ;;
        --level) values="1 2 3" ;;
        --only) # a comma-separated list: complete its last name
            local done=
            [[ $cur == *,* ]] && done=${cur%,*},
            local names="X W Q K V QKT M S A O C"
            local w
            for w in "${words[@]}"; do # grad names its gradient tables
                [[ $w == grad ]] && names="dO dWo dbo dC dV dA dS dQKT dQ dK dWq dWk dWv dbq dbk dbv dX dXkv"
            done
            COMPREPLY=($(compgen -P "$done" -W "$names" -- "${cur##*,}"))
            return ;;
        --step) values="project scores softmax mix sample norm residual ffn 1 2 3 4" ;; # exercise, sheet; trace 1-4
        --block) values="pre post" ;;   # exercise
        --norm) values="layer rms" ;;
        --ffn) values="gelu_tanh gelu relu swiglu none" ;;
        --class) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --digits | --tol | --require-digits | --seed | --tokens | --width | --dk | --dv | --tiles | \
            --count | --head | --offset)
            return ;; # a number: nothing to offer
        -o | --output | --class)
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
        --expect) # the tables asked, a blank-separated list
            COMPREPLY=($(compgen -W "Q K V QKT S A O C" -- "$cur"))
            return ;;
    esac
    if [[ -n $values ]]; then
        COMPREPLY=($(compgen -W "$values" -- "$cur"))
        return
    fi

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
        return
    fi

    # Only the first word that is no option (nor an option's value) may be a command.
    local i first=1
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            --*=*) ;;
            --lang | --format | --digits | --mask | --only | --color | --colour | --row | \
                -o | --output | --tol | --require-digits | --seed | --tokens | --width | --dk | --dv | --level | \
                --class | --expect | --count | --step | --head | --tiles | --offset | --block | \
                --norm | --ffn)
                ((i++)) ;;
            -*) ;;
            *) first= ; break ;;
        esac
    done
    if [[ -n $first ]]; then
        COMPREPLY=($(compgen -W "$commands" -- "$cur"))
    fi
    COMPREPLY+=($(compgen -f -- "$cur"))
} &&
    complete -o filenames -F _attnstep attnstep

# ex: filetype=sh
