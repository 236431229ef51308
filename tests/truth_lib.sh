# truth_lib.sh — sourced by the runner self-tests (*_truth.sh): a scratch directory
# ($dir, removed at exit), the ok/fail tally ($failed), and
#   run NAME WANT_STATUS -- COMMAND...
# which runs a model or stress command with --quiet --json --junit into $dir
# (stdout NAME.out, stderr NAME.err), checks its exit status and holds its report
# to verdict_rules.py. Returns 0 if both hold. And
#   runs_of FILE sorted|ordered
# prints the runs of a {"runs":[...]} report without their seconds, one JSON
# line each, sorted or in the report's order (to compare runs' work and verdicts);
# with "unsharded" also without a shard's record of its shard (shard, of_runs, plan),
#   run_shard NAME -- COMMAND...
# runs a shard as `run` does, where the exit status may be 0 or 1 (its own runs'),
#   field FILE I KEY
# prints field KEY of run I of a {"runs":[...]} report ('' if absent; booleans as
# True/False), and
#   interrupt NAME SIGNAL PATTERN -- COMMAND...
# runs COMMAND in the background with --json/--junit into $dir (NAME.out, NAME.err),
# its progress lines on as on a terminal (LFCHECK_STDERR_TTY) and SIGINT not ignored
# (a script's background job starts with it ignored), waits until its stderr shows
# PATTERN (a grep regex; 60 s at most), sends SIGNAL and sets $rc to its exit status;
# then returns 0 if it exited 2 (an interrupted run is an error) and its report holds
# to verdict_rules.py, else says why (fail).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$dir"' EXIT
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

runs_of() {  # FILE sorted|ordered [unsharded]
  /usr/bin/python3 - "$@" <<'EOF'
import json, sys
# unsharded: without what a shard's record says of its shard ("shard", "of_runs", "plan").
drop = ("seconds", "shard", "of_runs", "plan") if sys.argv[3:] == ["unsharded"] else ("seconds",)
runs = [json.dumps({k: v for k, v in r.items() if k not in drop}, sort_keys=True)
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

field() {  # FILE I KEY
  /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['runs'][int(sys.argv[2])].get(sys.argv[3], ''))" "$@"
}

interrupt() {  # NAME SIGNAL PATTERN -- COMMAND...
  local name=$1 sig=$2 pattern=$3; shift 4
  LFCHECK_STDERR_TTY=1 env --default-signal=INT "$@" --json "$dir/$name.json" --junit "$dir/$name.xml" \
    >"$dir/$name.out" 2>"$dir/$name.err" &
  local pid=$! _
  for _ in $(seq 600); do grep -q -- "$pattern" "$dir/$name.err" 2>/dev/null && break; sleep 0.1; done
  kill -"$sig" $pid
  wait $pid; rc=$?
  if [ $rc -ne 2 ]; then
    fail "$name: interrupted, exit $rc, want 2"; tail -n 5 "$dir/$name.out" "$dir/$name.err"; return 1
  fi
  /usr/bin/python3 "$here/verdict_rules.py" $rc "$dir/$name.json" "$dir/$name.xml" >"$dir/$name.rules" ||
    { fail "$name: $(cat "$dir/$name.rules")"; return 1; }
}
