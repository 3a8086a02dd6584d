#!/bin/bash
# meson test (suite docs): docs/toggle.1 and `toggle --help` must agree.
# Every subcommand that `toggle --help` lists must have a section (.SS) in the
# man page and every section a subcommand; every option that `toggle --help`
# or `toggle CMD --help` shows must appear in the man page (anywhere: some
# commands share a usage text).
# usage: check_man.sh /path/to/toggle /path/to/toggle.1
set -u
T="$1"
MAN="$2"
fail=0
# The man page as plain text: roff's \- is a hyphen, \f[BIR] are fonts.
text=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\(em/--/g' "$MAN")
help=$("$T" --help) || { echo "toggle --help failed"; exit 1; }
cmds=$(printf '%s\n' "$help" | sed -n '/^Commands:/,/^$/p' | awk 'NF >= 2 && /^  [a-z]/ {print $1}')
[ -n "$cmds" ] || { echo "no commands found in toggle --help"; exit 1; }
sections=$(printf '%s\n' "$text" | awk '$1 == ".SS" {print $2}')
opts() { grep -oE '(^|[ (,|[])--?[a-z][a-z0-9-]*' | sed -E 's/^[^-]*//' | sort -u; }
for o in $(printf '%s\n' "$help" | opts); do
    grep -qF -- "$o" <<<"$text" || { echo "toggle --help: option $o is not in the man page"; fail=1; }
done
for c in $cmds; do
    grep -qx -- "$c" <<<"$sections" || { echo "command '$c' has no .SS section in the man page"; fail=1; }
    chelp=$("$T" "$c" --help 2>&1) || { echo "toggle $c --help failed"; fail=1; continue; }
    for o in $(printf '%s\n' "$chelp" | opts); do
        grep -qF -- "$o" <<<"$text" || { echo "toggle $c --help: option $o is not in the man page"; fail=1; }
    done
done
for s in $sections; do
    grep -qx -- "$s" <<<"$cmds" || { echo "man page section '$s' is not a command in toggle --help"; fail=1; }
done
[ $fail -eq 0 ] && echo "man page matches: $(echo $cmds)"
exit $fail
