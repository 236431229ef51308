#!/usr/bin/env bash
# dpor_faults.sh MODEL [SECONDS] — every model-layer seeded fault under DPOR alone,
# scenario by scenario (issue 29). MODEL is the model runner of every structure
# (build/default/models/lfcheck-model); the faults are those its --list-faults-json
# gives the model layer (as bench/scheduler_compare.py takes them). For each fault F
# of structure S, runs
#   MODEL S --fault F --scenario X --scheduler dpor --max-seconds SECONDS
# over S's scenarios in order until one fails (exit 1), and prints the scenario, its
# executions to the failure and seconds; a fault no scenario fails is MISSED (exit 1
# at the end). SECONDS (default 20) bounds each scenario's search, so a scenario whose
# search does not end costs that much before the next is tried. A measurement, not a
# test: ./lfcheck test holds the faults to the default plan (model.*.faults_caught).
set -u
model=$1 budget=${2:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
faults=$("$model" --list-faults-json | python3 -c '
import json, sys
for f in json.load(sys.stdin)["faults"]:
    if "model" in f["expected_layers"].split(","):
        print(f["mechanism"], f["name"])') || { echo "dpor_faults: $model --list-faults-json failed" >&2; exit 2; }
[ -n "$faults" ] || { echo "dpor_faults: no model-layer fault listed" >&2; exit 2; }
missed=0
while read -r s f; do
  found=""
  start=$(date +%s.%N)
  for sc in $("$model" "$s" --list | sed -n 's|^[^/]*/\([^ ]*\) .*|\1|p'); do
    "$model" "$s" --fault "$f" --scenario "$sc" --scheduler dpor --max-seconds "$budget" --quiet \
      --json "$tmp/f.json" --artifacts "$tmp/arts" >"$tmp/f.out" 2>&1
    if [ $? -eq 1 ]; then
      found="$sc: $(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['runs'][0]; print(r['iterations'], 'executions,', r['seconds'], 's')" "$tmp/f.json")"
      break
    fi
  done
  [ -n "$found" ] || missed=$((missed + 1))
  printf '%s: %s (the fault'"'"'s scenarios up to it: %.1f s)\n' "$f" "${found:-MISSED}" "$(echo "$(date +%s.%N) - $start" | bc)"
done <<<"$faults"
[ $missed -eq 0 ]
