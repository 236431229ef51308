#!/usr/bin/env bash
# verify_faults.sh LIN_MODEL [SECONDS] [STRUCTURE...] — every seeded fault of the specs
# against lfcheck verify's enumeration (issue 44): the smallest bound whose scenarios
# catch it, and how long that took. LIN_MODEL is the lin model runner of every structure
# (build/default/models/lfcheck-lin-model). For each fault F of structure S, runs
#   LIN_MODEL verify S --fault F --ladder --max-seconds SECONDS --prefix P --suffix X
# at (P, X) = (1, 0), then (2, 0), then (1, 1), until a ladder fails: its failing bound is
# the smallest of that ladder (the ladder goes 2x1, 3x1, 2x2, 2x3, 3x2, ... and each bound's
# scenarios smallest first), the scenario its smallest failing one. A fault no ladder
# catches within SECONDS each is NOT CAUGHT with the largest bounds the correct code's
# verdict was reached at (the fault's structure verified up to them with the fault on).
# Prints one Markdown row per fault. A measurement, not a test (./lfcheck test holds a few
# faults to verify: verify.truth); SECONDS defaults to 120. VERIFY_FAULTS_SHAPES (default
# "1,0 2,0 1,1") is the list of prefix,suffix pairs to try, in order; VERIFY_FAULTS_ONLY
# (space-separated fault names, if set) measures only those.
set -u
lin=$1 budget=${2:-120}
shift 2 2>/dev/null || shift $#
structures=("$@")
[ ${#structures[@]} -gt 0 ] || structures=(treiber deliqueue removal shutdown timers)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| fault | caught at | smallest failing scenario | failure | seconds (cpu) |"
echo "|---|---|---|---|---|"
for s in "${structures[@]}"; do
  for f in $("$lin" "$s" --list-faults | awk '{print $1}'); do
    [ -z "${VERIFY_FAULTS_ONLY:-}" ] || [[ " $VERIFY_FAULTS_ONLY " == *" $f "* ]] || continue
    row=""
    for px in ${VERIFY_FAULTS_SHAPES:-1,0 2,0 1,1}; do
      set -- ${px/,/ }
      rm -f "$tmp/f.json"  # never a stale report of the fault before
      "$lin" verify "$s" --fault "$f" --ladder --max-seconds "$budget" --prefix "$1" --suffix "$2" --quiet \
        --json "$tmp/f.json" --artifacts "$tmp/arts" >"$tmp/f.out" 2>&1
      rc=$?
      row=$(python3 - "$tmp/f.json" "$rc" <<'EOF'
import json, sys
try:
    r = json.load(open(sys.argv[1]))["runs"][0]
except (OSError, ValueError, KeyError, IndexError):
    print(f"ERROR: exit {sys.argv[2]}, no report | | |")
    sys.exit()
if sys.argv[2] == "1":
    print(f"{r['verify_bound']} | {r.get('scenario', '')} | {r.get('failure', '')[:70]} | {r['seconds']:.1f} (cpu {float(r.get('cpu_seconds', 0)):.1f})")
else:
    print(f"NOT CAUGHT (verified up to {r.get('verified_up_to', 'nothing')}) | | | {r['seconds']:.1f} (cpu {float(r.get('cpu_seconds', 0)):.1f})")
EOF
)
      [ $rc -eq 1 ] && break
    done
    echo "| $f | $row |"
  done
done
