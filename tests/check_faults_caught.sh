#!/usr/bin/env bash
# check_faults_caught.sh LAYER STRUCTURE BINARY [LISTER] [CODE_REGEX]
# Asserts that every seeded fault of STRUCTURE whose catalogue entry names LAYER
# among the layers that must catch it is caught there. Caught means the checker
# rejected the code: for model, stress and lin, exit 1 and a run in the --json that
# tools/verdicts.py calls the checker's rejection (not LINEARIZABILITY UNKNOWN,
# CRASHED (...) or NONDETERMINISTIC SCENARIO: those are errors, NOT CAUGHT), and
#   model:  the Relacy history names a line of the structure's code (CODE_REGEX;
#           default: a line in structures/);
#   props:  the gtest binary fails and prints RapidCheck's reproduce line;
#   stress: a replay line;
#   lin:    a shrunk scenario and its per-thread table.
# Every fault must name at least one known layer (checked here too), so every
# fault is held to being caught by some layer.
# The fault list comes from the catalogue (LISTER --list-faults: any binary of the
# structure; default BINARY): no copy here. lfcheck_add_structure registers this test
# only for layers some fault names (cmake/LfcheckFaultsTests.cmake).
set -u
layer=$1 structure=$2 binary=$3 model=${4:-$3} code=${5:-'structures/[^ ]*\.hpp\([0-9]+\)'}
faults=$("$model" "$structure" --list-faults) || { echo "cannot list faults"; exit 1; }
# tools/ beside tests/ (the source tree, and share/lfcheck/ of an installed lfcheck).
verdicts=$(cd "$(dirname "$0")/.." && pwd)/tools/verdicts.py
report=$(mktemp)
trap 'rm -f "$report"' EXIT
failed=0 checked=0
while IFS= read -r line; do
  [ -n "$line" ] || continue
  name=${line%% *}
  layers=${line#*caught by: }; layers=${layers%%]*}
  if ! [[ "$layers" =~ ^(model|props|stress|lin)(,(model|props|stress|lin))*$ ]]; then
    echo "BAD CATALOGUE ENTRY: $name names no known layer ('$layers')"; failed=$((failed + 1)); continue
  fi
  if [[ ",$layers," != *",$layer,"* ]]; then continue; fi
  checked=$((checked + 1))
  start=$(date +%s%N)
  rm -f "$report"
  case $layer in
    model)  out=$("$binary" "$structure" --fault "$name" --quiet --first-failure --history --json "$report" 2>&1); rc=$?
            want=$code ;;
    props)  out=$(LFCHECK_FAULT=$name "$binary" --gtest_filter="$structure.*" 2>&1); rc=$?
            want='RC_PARAMS|reproduce'
            [ $rc -ne 0 ] && rc=1 ;;
    stress) out=$("$binary" "$structure" --fault "$name" --ops 400000 --quiet --json "$report" 2>&1); rc=$?
            want='replay: [^ ]*lfcheck( --build [^ ]+)? stress' ;;
    lin)    out=$("$binary" "$structure" --fault "$name" --scenarios 200 --seed 1 --quiet --json "$report" 2>&1); rc=$?
            want='shrunk in [0-9]+ runs to: ' ;;
  esac
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  if [ $rc -ne 1 ]; then
    echo "NOT CAUGHT: $name ($layer exit $rc)"; echo "$out" | tail -20; failed=$((failed + 1))
  elif [ $layer != props ] && ! why=$(/usr/bin/python3 "$verdicts" caught "$report"); then
    echo "NOT CAUGHT: $name ($layer exit 1, but $why)"; echo "$out" | tail -20; failed=$((failed + 1))
  elif ! echo "$out" | grep -Eq "$want"; then
    echo "CAUGHT BUT UNREADABLE: $name ($layer output lacks /$want/)"; echo "$out" | tail -20
    failed=$((failed + 1))
  else
    where=$(echo "$out" | grep -Eo "$want" | head -1)
    printf 'caught: %-36s by %s in %d ms  (%s)\n' "$name" "$layer" "$ms" "$where"
  fi
done <<< "$faults"
echo "$layer layer: $checked faults checked, $((checked - failed)) caught, $failed missed"
if [ $checked -eq 0 ]; then echo "no fault of $structure names the $layer layer: nothing to check"; exit 1; fi
[ $failed -eq 0 ]
