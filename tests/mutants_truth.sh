#!/usr/bin/env bash
# mutants_truth.sh — how the kill matrix (harness/mutants.py) judges each kind of
# result, with scripted stand-ins for the layer binaries (tests/fake_layer.py), so
# every case takes a second or two:
#   caught    only exit 1 with the layer's evidence; a missing binary, exit 2, a
#             signal or a bare exit 1 is an error of the cell, never a catch
set -u
here=$(cd "$(dirname "$0")" && pwd)
mutants=$here/../harness/mutants.py
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
ok() { echo "ok:   $*"; }
for layer in model stress props; do
  printf '#!/bin/sh\nexec /usr/bin/python3 %s %s "$@"\n' "$here/fake_layer.py" $layer >"$dir/$layer"
  chmod +x "$dir/$layer"
done

# matrix NAME WANT_STATUS OUTCOMES [mutants args...]: runs the matrix on the fakes.
matrix() {
  local name=$1 want=$2 outcomes=$3; shift 3
  FAKE_OUTCOMES=$outcomes timeout 120 /usr/bin/python3 "$mutants" --model "$dir/model" --stress "$dir/stress" \
    --props "${PROPS:-$dir/props}" --artifacts "$dir/artifacts" --seeds 1 --budget 3 --stress-seconds 1 \
    --json "$dir/$name.json" "$@" >"$dir/$name.out" 2>"$dir/$name.err"
  local rc=$?
  if [ $rc -ne "$want" ]; then
    fail "$name: exit $rc, want $want"; tail -n 8 "$dir/$name.out" "$dir/$name.err"; return 1
  fi
  return 0
}
# q NAME PYTHON-EXPRESSION: evaluates it on the matrix JSON (d).
q() { /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$dir/$1.json"; }

# --- only exit 1 with evidence is a catch -----------------------------------------
for case in "missing:" "exit2:props:fake.b=exit2" "signal:props:fake.b=signal" "bare1:props:fake.b=bare1"; do
  name=props-${case%%:*} outcomes=${case#*:}
  [ "$name" = props-missing ] && export PROPS=/nonexistent/lfcheck-props
  if matrix "$name" 1 "$outcomes" --layer props; then
    caught=$(q "$name" "[f['layers']['props']['caught'] for f in d['faults']]")
    errors=$(q "$name" "[len(f['layers']['props'].get('errors', [])) for f in d['faults']]")
    if [ "$name" = props-missing ]; then want_errors="[1, 1]"; else want_errors="[0, 1]"; fi
    [ "$caught" = "[False, False]" ] && [ "$errors" = "$want_errors" ] &&
      ok "$name: not caught, an error of the cell" || fail "$name: caught $caught, errors $errors"
  fi
  unset PROPS
done
matrix evidence 0 "model:fake.a=fail,props:fake.b=fail" --layer all &&
  [ "$(q evidence "[f['caught'] for f in d['faults']]")" = "[True, True]" ] &&
  ok "exit 1 with evidence: caught" || fail "exit 1 with evidence: not caught"
matrix model-bare1 1 "model:fake.a=bare1,props:fake.b=fail" --layer all &&
  [ "$(q model-bare1 "d['faults'][0]['layers']['model']['caught']")" = False ] &&
  ok "model exit 1 without a failing run in its JSON: not caught" || fail "model bare exit 1 counted as caught"


echo "mutants truth: $failed failed"
[ $failed -eq 0 ]
