# tap.sh: shared set-up for the shell tests; they print TAP for automake's tap-driver.
#
# Sourced by tests/shell/*.test. Provides: $ARBITER, $FIXTURES, a scratch $tmp removed
# on exit, and ok/not_ok/skip/plan/done_testing helpers that count for themselves.
set -u
# English messages whatever the caller speaks (i18n.test asks for other languages itself)
export LC_ALL=C
unset LANGUAGE LANG LC_MESSAGES
: "${ARBITER:?run through make check}"
: "${FIXTURES:?run through make check}"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_n=0
tap_failed=0

ok()     { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
not_ok() { tap_n=$((tap_n + 1)); tap_failed=$((tap_failed + 1)); echo "not ok $tap_n - $*"; }
skip()   { tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP $*"; }
diag()   { sed 's/^/# /'; }
done_testing() { echo "1..$tap_n"; [ "$tap_failed" -eq 0 ]; }

# expect_eq NAME EXPECTED ACTUAL
expect_eq() {
    if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1"; printf 'expected: %s\nactual:   %s\n' "$2" "$3" | diag; fi
}

# run_cmd: run "$@" capturing stdout in $tmp/out, stderr in $tmp/err, status in $status.
run_cmd() {
    status=0
    "$@" >"$tmp/out" 2>"$tmp/err" || status=$?
}
