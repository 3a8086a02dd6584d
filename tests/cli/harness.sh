# Shared by the CLI's shell tests (sourced): a scratch directory removed at
# exit, pass/fail counters, and the summary line with the exit status.
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# finish NAME: print "NAME: P passed, F failed" and exit 0 only when none failed
finish() {
    echo "$1: $pass passed, $fail failed"
    [ $fail -eq 0 ]
    exit
}
