# truth_lib.sh — sourced by the runner self-tests (*_truth.sh): a scratch directory
# ($dir, removed at exit), the ok/fail tally ($failed), and
#   run NAME WANT_STATUS -- COMMAND...
# which runs a model or stress command with --quiet --json --junit into $dir
# (stdout NAME.out, stderr NAME.err), checks its exit status and holds its report
# to verdict_rules.py. Returns 0 if both hold. And
#   runs_of FILE sorted|ordered
# prints the runs of a {"runs":[...]} report without their seconds, one JSON
# line each, sorted or in the report's order (to compare runs' work and verdicts),
#   run_shard NAME -- COMMAND...
# runs a shard as `run` does, where the exit status may be 0 or 1 (its own runs').
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

runs_of() {  # FILE sorted|ordered
  /usr/bin/python3 - "$@" <<'EOF'
import json, sys
runs = [json.dumps({k: v for k, v in r.items() if k != "seconds"}, sort_keys=True)
        for r in json.load(open(sys.argv[1]))["runs"]]
print("\n".join(sorted(runs) if sys.argv[2] == "sorted" else runs))
EOF
}

# A shard's exit status is its own runs' (0 or 1): run it, then hold its report to the rules.
run_shard() {  # NAME -- COMMAND...
  local name=$1; shift 2
  timeout 600 "$@" --quiet --json "$dir/$name.json" --junit "$dir/$name.xml" >"$dir/$name.out" 2>"$dir/$name.err"
  local rc=$?
  [ $rc -le 1 ] || { fail "$name: exit $rc"; cat "$dir/$name.err"; return 1; }
  /usr/bin/python3 "$here/verdict_rules.py" $rc "$dir/$name.json" "$dir/$name.xml" >"$dir/$name.rules" ||
    { fail "$name: $(cat "$dir/$name.rules")"; return 1; }
}
