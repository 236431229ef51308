#!/usr/bin/env bash
# validate_trace_rules.sh — the trace validator (tests/validate_trace.py) refuses a
# trace that shows nothing: an empty one, one without named threads, one where a
# thread of the execution has no slice; and accepts a small well-formed one.
set -u
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failed=0
check() {  # want name json
  printf '%s\n' "$3" >"$dir/$2.json"
  /usr/bin/python3 "$here/validate_trace.py" "$dir/$2.json" >"$dir/$2.out" 2>&1
  local rc=$?
  if [ $rc -eq "$1" ]; then echo "ok:   $2 (exit $rc)"; else echo "FAIL: $2: exit $rc, want $1"; cat "$dir/$2.out"; failed=$((failed + 1)); fi
}
meta='{"ph":"M","name":"thread_name","pid":1,"tid":0,"ts":0,"args":{"name":"thread 0"}},{"ph":"M","name":"thread_name","pid":1,"tid":1,"ts":0,"args":{"name":"thread 1"}}'
slice() { echo "{\"ph\":\"X\",\"name\":\"op\",\"pid\":1,\"tid\":$1,\"ts\":$2,\"dur\":5}"; }
check 1 empty '{"traceEvents":[]}'
check 1 unnamed "{\"traceEvents\":[$(slice 0 0)]}"
check 1 thread_without_slices "{\"traceEvents\":[$meta,$(slice 0 0)]}"
check 0 both_threads "{\"traceEvents\":[$meta,$(slice 0 0),$(slice 1 10)]}"
echo "trace validator rules: $failed failed"
[ $failed -eq 0 ]
