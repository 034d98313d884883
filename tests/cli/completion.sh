#!/usr/bin/env bash
# Shell completion and man pages, made from the command table (cli/docs_gen.cc): the bash
# script completes subcommands, flags (`calltree annotate --sh<TAB>`), flag values and, after
# --show=/--sort=, the events of the profile on the line; the zsh script parses and answers
# the same; `man -l` renders calltree(1) and calltree-annotate(1) with every flag of --help.
set -uo pipefail
bin=$1
corpus=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

"$bin" --completion=bash >"$tmp/calltree.bash" || bad "--completion=bash"
"$bin" --completion=zsh >"$tmp/_calltree" || bad "--completion=zsh"

# What bash offers for a line (the cursor at its end), as the registered function leaves it.
complete_bash() {  # complete_bash LINE -> COMPREPLY, one per line
  bash --norc --noprofile -c '
    source "$1"
    complete -p calltree >/dev/null || { echo "calltree has no completion"; exit 1; }
    COMP_LINE=$2
    COMP_POINT=${#COMP_LINE}
    read -ra COMP_WORDS <<<"$COMP_LINE"
    [[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
    # bash splits words at "=" (COMP_WORDBREAKS): "--show=I" is "--show" "=" "I".
    words=()
    for w in "${COMP_WORDS[@]}"; do
      if [[ $w == --*=* ]]; then words+=("${w%%=*}" "=" "${w#*=}"); else words+=("$w"); fi
    done
    COMP_WORDS=("${words[@]}")
    COMP_WORDS[0]=$3
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    _calltree
    printf "%s\n" "${COMPREPLY[@]}"
    # compopt was called for a single "--flag=" answer: bash adds no space after it.
  ' _ "$tmp/calltree.bash" "$1" "$bin"
}
expect_reply() {  # expect_reply LINE EXPECTED... (the whole reply, in order)
  local line=$1
  shift
  local got want
  got=$(complete_bash "$line" | paste -sd' ')
  want=$*
  if [[ $got == "$want" ]]; then ok "bash '$line' -> $want"; else bad "bash '$line': got '$got', expected '$want'"; fi
}

# complete -p: the function is registered for calltree.
bash --norc --noprofile -c 'source "$1"; complete -p calltree' _ "$tmp/calltree.bash" >"$tmp/p" 2>&1
grep -q -- '-F _calltree calltree' "$tmp/p" && ok "complete -p calltree" || bad "complete -p: $(cat "$tmp/p")"

expect_reply "calltree ann" annotate
expect_reply "calltree annotate --sh" --show= --show-percs=
expect_reply "calltree annotate --sho" --show= --show-percs=
expect_reply "calltree annotate --show" --show= --show-percs=
expect_reply "calltree check --st" --strict
expect_reply "calltree annotate --tree=ca" caller calling
expect_reply "calltree --col" --color=
# After the options of every command, which may stand before the command's name.
expect_reply "calltree --color=never an" annotate
expect_reply "calltree --color never --max-memory=1G an" annotate
expect_reply "calltree --color never annotate --tree=ca" caller calling
f=$corpus/vg-sqlite3-workload-cache-branch-sim.callgrind
expect_reply "calltree annotate $f --show=" Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim
# (bash does not split at ',': the word is "Ir,D1", and so are the answers.)
expect_reply "calltree annotate $f --show=Ir,D1" Ir,D1mr Ir,D1mw
expect_reply "calltree annotate --sort=Bc $f --show=B" Bc Bcm Bi Bim
expect_reply "calltree diff $f $f --sort=I" Ir I1mr ILmr
expect_reply "calltree --max-memory 1G annotate $f --show=B" Bc Bcm Bi Bim
# Plain words: nothing from calltree, so bash completes file names (-o default).
expect_reply "calltree annotate ./"
# compgen with the registered function gives the same as the table: the --sh<TAB> line.
got=$(bash --norc --noprofile -c 'source "$1"; COMP_LINE="calltree annotate --sh"; COMP_POINT=${#COMP_LINE};
  COMP_WORDS=("$2" annotate --sh); COMP_CWORD=2; compgen -F _calltree -- --sh 2>/dev/null' _ "$tmp/calltree.bash" "$bin" | sort | paste -sd' ')
[[ $got == "--show-percs= --show=" ]] && ok "compgen -F _calltree -- --sh" || bad "compgen: '$got'"

# zsh: the script parses; its answers are whole words.
if zsh -n "$tmp/_calltree"; then ok "zsh -n _calltree"; else bad "zsh script does not parse"; fi
got=$("$bin" --complete zsh "calltree annotate $f --show=Ir,D" | paste -sd' ')
[[ $got == "--show=Ir,Dr --show=Ir,Dw --show=Ir,D1mr --show=Ir,D1mw --show=Ir,DLmr --show=Ir,DLmw" ]] &&
  ok "zsh --show=Ir,D" || bad "zsh --show=Ir,D: '$got'"
# zsh, driven: compsys loads _calltree from fpath and offers --show= for --sh.
mkdir -p "$tmp/fpath" && cp "$tmp/_calltree" "$tmp/fpath/"
got=$(cd "$tmp" && ZDOTDIR=$tmp TERM=dumb zsh -f -c '
  fpath=("$1/fpath" $fpath); autoload -Uz compinit && compinit -u -d "$1/zcompdump"
  ' _ "$tmp" 2>&1)
[[ -z $got ]] && ok "zsh compinit with _calltree" || bad "zsh compinit: $got"

# Man pages: rendered by man -l, NAME and every annotate flag of --help present.
mkdir -p "$tmp/man"
"$bin" --man-dir="$tmp/man" || bad "--man-dir"
for c in annotate check convert diff dump merge; do
  [[ -s $tmp/man/calltree-$c.1 ]] || bad "no calltree-$c.1"
done
MANWIDTH=100 man -l "$tmp/man/calltree-annotate.1" 2>"$tmp/man.err" | col -b >"$tmp/annotate.txt"
[[ -s $tmp/man.err ]] && bad "man -l warned: $(cat "$tmp/man.err")"
grep -qE 'calltree-annotate +- +callgrind_annotate' "$tmp/annotate.txt" && ok "man calltree-annotate NAME" ||
  bad "man calltree-annotate NAME: $(head -5 "$tmp/annotate.txt")"
"$bin" annotate --help | grep -oE -- '--[a-z-]+' | sort -u >"$tmp/help_flags"
missing=$(while read -r fl; do grep -qF -- "$fl" "$tmp/annotate.txt" || echo "$fl"; done <"$tmp/help_flags")
[[ -z $missing ]] && ok "every --help flag in the man page" || bad "flags not in the man page: $missing"
grep -q -- '--show=A,B,C' "$tmp/annotate.txt" && ok "flag with its value name" || bad "no --show=A,B,C"
grep -q 'EXIT STATUS' "$tmp/annotate.txt" && ok "EXIT STATUS section" || bad "no EXIT STATUS"
# groff's own check: no warning for any page.
for p in "$tmp"/man/*.1; do
  w=$(groff -man -Tutf8 -ww -z "$p" 2>&1)
  [[ -z $w ]] || bad "groff warns on $(basename "$p"): $w"
done
# (Into a file first: with pipefail, grep -q leaving early could fail the pipeline on SIGPIPE.)
MANWIDTH=100 man -l "$tmp/man/calltree.1" 2>/dev/null | col -b >"$tmp/calltree.txt"
grep -q 'calltree annotate' "$tmp/calltree.txt" && ok "calltree(1) lists the commands" ||
  bad "calltree(1) has no command list"
grep -q '^LIBRARY' "$tmp/calltree.txt" && grep -q 'calltree(3) and share/doc/calltree/library.md' "$tmp/calltree.txt" && ok "calltree(1) points to the library's calltree(3)" ||
  bad "calltree(1) does not mention the library"
# calltree(3), written by hand (docs/calltree.3): groff has nothing to say of it either.
page3=$(dirname "$0")/../../docs/calltree.3
w=$(groff -man -Tutf8 -ww -z "$page3" 2>&1)
[[ -z $w ]] && ok "calltree(3) renders without a warning" || bad "groff warns on calltree.3: $w"
exit $fail
