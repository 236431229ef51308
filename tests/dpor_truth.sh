#!/usr/bin/env bash
# dpor_truth.sh SECONDS BINARY STRUCTURE[/S1,S2..] [BINARY STRUCTURE[/S..] ...] — DPOR
# is sound where it can be compared (issue 29): for every scenario of each structure
# (or only the named ones: those whose full search is known to end), Relacy's full
# search runs up to SECONDS (a named one up to six times that, and one that does not
# end fails instead of being skipped); where it ends, DPOR must end too, with
#   - the same verdict (and, for a failure, a failure of its own), and
#   - the same set of distinct outcomes (what a scenario's outcome() returns after
#     after(), over the passing executions: --outcomes), for scenarios that have one;
# at load depth 1, the load choices of Relacy's tree searches. It prints both searches'
# executions (DPOR explores one execution per class; the full search every schedule).
# Other scenarios whose full search does not end in SECONDS are listed, not compared.
set -u
budget=$1; shift
source "$(dirname "$0")/truth_lib.sh"
compared=0
while [ $# -ge 2 ]; do
  binary=$1 spec=$2 structure=${2%%/*}; shift 2
  scenarios=$("$binary" "$structure" --list | sed -n 's|^[^/]*/\([^ ]*\) .*|\1|p')
  limit=$budget named=0
  case $spec in
    */*) listed=$scenarios scenarios="" named=1
         # Named because their full search ends: six times the budget (a loaded
         # machine), and one that still does not end fails — it is not skipped.
         limit=$(awk -v b="$budget" 'BEGIN { print b * 6 }')
         for s in $(tr , ' ' <<<"${spec#*/}"); do  # (comma-separated) a named scenario that does not exist is an error, not a skip
           if grep -qx "$s" <<<"$listed"; then scenarios="$scenarios $s"; else fail "$structure/$s: no such scenario"; fi
         done ;;
  esac
  for s in $scenarios; do
    "$binary" "$structure" --scenario "$s" --scheduler full --outcomes --max-seconds "$limit" --quiet \
      --json "$dir/full.json" >"$dir/full.out" 2>&1
    full_rc=$?
    if [ $full_rc -eq 2 ] && [ $named = 1 ]; then
      fail "$structure/$s: named as a scenario whose full search ends, but it did not end in ${limit}s: nothing compared"
      continue
    fi
    if [ $full_rc -eq 2 ]; then echo "skip: $structure/$s (full search did not end in ${limit}s)"; continue; fi
    "$binary" "$structure" --scenario "$s" --scheduler dpor --outcomes --quiet --json "$dir/dpor.json" \
      >"$dir/dpor.out" 2>&1
    dpor_rc=$?
    verdict=$(/usr/bin/python3 - "$dir/full.json" "$dir/dpor.json" "$full_rc" "$dpor_rc" <<'PY'
import json, sys
full = json.load(open(sys.argv[1]))['runs'][0]
dpor = json.load(open(sys.argv[2]))['runs'][0]
frc, drc = int(sys.argv[3]), int(sys.argv[4])
problems = []
if frc != drc or full['verdict'] != dpor['verdict']:
    problems.append('verdict: full %s (exit %d), dpor %s (exit %d)' % (full['verdict'], frc, dpor['verdict'], drc))
if full['verdict'] == 'pass':
    if not dpor.get('exhaustive'):
        problems.append('dpor did not end')
    if full.get('outcomes') != dpor.get('outcomes'):
        problems.append('outcomes: full %s, dpor %s' % (full.get('outcomes'), dpor.get('outcomes')))
    if not full.get('outcomes_complete', True) or not dpor.get('outcomes_complete', True):
        problems.append('outcome sets overflowed')
print('; '.join(problems) if problems else 'same: %s, %d outcomes, full %d executions, dpor %d (%d classes)' % (
    full['verdict'], len(full.get('outcomes', [])), full['iterations'], dpor['iterations'], dpor.get('classes', 0)))
PY
)
    compared=$((compared + 1))
    case $verdict in
      same:*) ok "$structure/$s: $verdict" ;;
      *) fail "$structure/$s: $verdict" ;;
    esac
  done
done
[ $compared -gt 0 ] || fail "no scenario's full search ended: nothing compared"
echo "dpor truth: $compared compared, $failed failed"
[ $failed -eq 0 ]
