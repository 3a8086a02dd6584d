#!/bin/bash
# The bash completion script (generated from toggle's own --help by
# tools/completion/gen_completion.py): loaded into bash, it completes every
# command and every option that `toggle CMD --help` shows, the value words
# of --engine, --lattice, --metric, --format, --colormap (each one accepted
# by toggle), and file names for file options.
# usage: test_completion.sh /path/to/toggle /path/to/completion-script
set -u
T="$1"
SCRIPT="$2"
. "$(dirname "$0")/harness.sh"

# complete WORDS...: the completions bash offers for the last word
complete_words() {
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _toggle;
             printf "%s\n" "${COMPREPLY[@]}"' _ "$SCRIPT" toggle "$@" 2>/dev/null
}
has() { # name, word wanted, words to complete...
    local name="$1" want="$2"; shift 2
    if complete_words "$@" | grep -qxF -- "$want"; then ok; else bad "$name: '$*' does not offer $want"; fi
}

[ -s "$SCRIPT" ] || { echo "no completion script at $SCRIPT"; exit 1; }
bash -n "$SCRIPT" && ok || bad "the script does not parse"
cmds=$("$T" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF >= 2 && /^  [a-z]/ {print $1}')
for c in $cmds; do
    has "command $c" "$c" "${c:0:2}"
    for o in $("$T" "$c" --help | grep -oE '^ +(-h, )?--[a-z][a-z0-9-]*' | grep -oE -- '--[a-z0-9-]+'); do
        has "$c $o" "$o" "$c" "${o:0:3}"
    done
done
has engine-gf2 gf2 solve --engine g
has engine-transfer transfer solve --engine ""
has lattice-hex hex nullity --lattice h
has metric presses generate --metric p
has colormap-magma magma render --colormap ma
has format-ppm ppm sweep --format p
touch "$tmp/board-file.txt"
has file-option "$tmp/board-file.txt" solve --start "$tmp/board-f"
# a value to type (RxC) is not completed with options or files
[ -z "$(complete_words solve --grid "")" ] && ok || bad "--grid offers words"
# every value word offered is one toggle accepts
for e in $(complete_words solve --engine ""); do
    [ "$e" = list ] && continue
    out=$("$T" solve --grid 3x3 --engine "$e" 2>&1); rc=$?
    # an engine may decline this board (exit 1 with its reason), never "unknown engine"
    if grep -q "unknown engine" <<<"$out" || [ $rc -eq 2 ]; then bad "--engine $e: $out"; else ok; fi
done
for l in $(complete_words solve --lattice ""); do
    "$T" nullity --grid 4x4 --lattice "$l" >/dev/null && ok || bad "--lattice $l refused"
done
for m in $(complete_words solve --metric ""); do
    "$T" solve --grid 3x3 --fewest --metric "$m" >/dev/null && ok || bad "--metric $m refused"
done
for f in $(complete_words render --format ""); do
    "$T" render --grid 3x3 --format "$f" --out "$tmp/x" --force >/dev/null && ok || bad "--format $f refused"
done
for m in $(complete_words render --colormap ""); do
    [ "$m" = list ] && continue
    "$T" render --grid 2x2 --colormap "$m" --out "$tmp/x.png" --force >/dev/null || bad "--colormap $m refused"
done
finish cli-completion
