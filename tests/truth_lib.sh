# truth_lib.sh — sourced by the runner self-tests (*_truth.sh): a scratch directory
# ($dir, removed at exit), the ok/fail tally ($failed), and
#   run NAME WANT_STATUS -- COMMAND...
# which runs a model or stress command with --quiet --json --junit into $dir
# (stdout NAME.out, stderr NAME.err), checks its exit status and holds its report
# to verdict_rules.py. Returns 0 if both hold.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
ok() { echo "ok:   $*"; }

run() {
  local name=$1 want=$2; shift 3
  timeout 600 "$@" --quiet --json "$dir/$name.json" --junit "$dir/$name.xml" >"$dir/$name.out" 2>"$dir/$name.err"
  local rc=$?
  if [ "$rc" -ne "$want" ]; then
    fail "$name: exit $rc, want $want"; tail -n 8 "$dir/$name.out" "$dir/$name.err"; return 1
  fi
  /usr/bin/python3 "$here/verdict_rules.py" "$rc" "$dir/$name.json" "$dir/$name.xml" >"$dir/$name.rules" ||
    { fail "$name: $(cat "$dir/$name.rules")"; return 1; }
  return 0
}
