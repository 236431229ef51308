#!/usr/bin/env bash
# dpor_faults.sh MODELS_DIR [SECONDS] — every model-layer seeded fault under DPOR alone,
# scenario by scenario (issue 29): for each fault F of each structure S, runs
#   MODELS_DIR/lfcheck-model-S S --fault F --scenario X --scheduler dpor --max-seconds SECONDS
# over S's scenarios in order until one fails (exit 1), and prints the scenario, its
# executions to the failure and seconds; a fault no scenario fails is MISSED (exit 1
# at the end). SECONDS (default 20) bounds each scenario's search, so a scenario whose
# search does not end costs that much before the next is tried. A measurement, not a
# test: ./lfcheck test holds the faults to the default plan (model.*.faults_caught).
set -u
models=$1 budget=${2:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
missed=0
for s in treiber removal shutdown timers deliqueue; do
  bin=$models/lfcheck-model-$s
  for f in $("$bin" "$s" --list-faults | grep "caught by: [^]]*model" | awk '{print $1}'); do
    found=""
    start=$(date +%s.%N)
    for sc in $("$bin" "$s" --list | sed -n 's|^[^/]*/\([^ ]*\) .*|\1|p'); do
      "$bin" "$s" --fault "$f" --scenario "$sc" --scheduler dpor --max-seconds "$budget" --quiet \
        --json "$tmp/f.json" --artifacts "$tmp/arts" >"$tmp/f.out" 2>&1
      if [ $? -eq 1 ]; then
        found="$sc: $(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['runs'][0]; print(r['iterations'], 'executions,', r['seconds'], 's')" "$tmp/f.json")"
        break
      fi
    done
    [ -n "$found" ] || missed=$((missed + 1))
    printf '%s: %s (the fault'"'"'s scenarios up to it: %.1f s)\n' "$f" "${found:-MISSED}" "$(echo "$(date +%s.%N) - $start" | bc)"
  done
done
[ $missed -eq 0 ]
