#!/usr/bin/env bash
# dpor_fuzz_truth.sh FUZZER — the DPOR fuzzer's run says what ran, never more:
#   batches   its programs in batches of child processes (--batch N) count and find
#             exactly what one process (--batch 0) does
#   shards    --shard 0/2 and 1/2 together are the unsharded run's programs
#   budget    --max-seconds stops starting programs: a pass that says where it stopped
#   died      a batch whose process dies (here: SIGKILL) is NOT COMPARED: exit 2, an
#             error record naming its programs — never a pass
#   sigterm   SIGTERM: the run stops, reports what it compared, exit 2 ("interrupted")
#   superset  a comparison where DPOR found outcomes the full search did not, and missed
#             none, is shown (a line with the counts and its replay line) and counted
#             (the summary, the JSON's findings), never a disagreement: exit 0. The
#             program (seed 31 #115, 3 threads, a loop that writes) has them because DPOR's
#             give-way rule, decided by counts of the other threads' steps, lets through
#             every schedule Relacy's yield priorities let through and some more; were
#             DPOR's rule Relacy's, pick another.
# Each run's JSON and JUnit hold to verdict_rules.py.
set -u
fuzzer=$1
source "$(dirname "$0")/truth_lib.sh"
core=(--exclude hook-allocations,standalone-hints,invariant,await-writes,block-constructors,timed-waits
      --threads 2 --load-depth 1 --seed 2)
counts() {  # FILE: the summary record's counts
  /usr/bin/python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
print(r["programs"], r["comparisons"], r["full_executions"], r["dpor_executions"], json.dumps(r["findings"], sort_keys=True))' "$1"
}
# batches
if run one 0 -- "$fuzzer" "${core[@]}" --programs 30 --batch 0 && run many 0 -- "$fuzzer" "${core[@]}" --programs 30 --batch 7; then
  [ "$(counts "$dir/one.json")" = "$(counts "$dir/many.json")" ] &&
    grep -q "^dpor-fuzz: [0-9]* comparisons, 0 disagreements$" "$dir/one.out" &&
    ! grep -q "no program compared" "$dir/one.out" "$dir/many.out" &&
    ok "batches: 30 programs in batches of 7 = in one process ($(counts "$dir/one.json" | cut -d' ' -f1-2))" ||
    fail "batches: $(counts "$dir/many.json") vs $(counts "$dir/one.json")"
fi
# shards
if run s0 0 -- "$fuzzer" "${core[@]}" --programs 30 --shard 0/2 && run s1 0 -- "$fuzzer" "${core[@]}" --programs 30 --shard 1/2; then
  got=$(/usr/bin/python3 -c 'import json, sys
a, b, c = (json.load(open(f))["runs"][0] for f in sys.argv[1:])
print(a["programs"] + b["programs"] == c["programs"] and a["full_executions"] + b["full_executions"] == c["full_executions"])' \
    "$dir/s0.json" "$dir/s1.json" "$dir/one.json")
  [ "$got" = True ] && ok "shards: 0/2 and 1/2 are the unsharded run's programs" || fail "shards: $got"
fi
# superset
if run superset 0 -- "$fuzzer" --seed 31 --threads 2-3 --program 115 --load-depth 1 --keep 3-8; then
  got=$(/usr/bin/python3 -c 'import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
print(len(runs), runs[0]["disagreements"], runs[0]["findings"].get("load depth 1: outcomes only dpor found"))' "$dir/superset.json")
  [ "$got" = "1 0 1" ] && grep -q "^program 115, load depth 1: outcomes only dpor found: [0-9]* of its" "$dir/superset.out" &&
    grep -q "^  replay: ./lfcheck dpor-fuzz --seed 31 .*--program 115 --load-depth 1 --keep 3-8" "$dir/superset.out" &&
    grep -q "^dpor-fuzz: 1 comparison with outcomes only dpor found" "$dir/superset.out" &&
    ok "superset: outcomes only dpor found are shown and counted, not a disagreement" ||
    { fail "superset: records, disagreements, count: $got"; tail -n 8 "$dir/superset.out"; }
fi
# budget
if run budget 0 -- "$fuzzer" "${core[@]}" --max-seconds 1; then
  [ "$(field "$dir/budget.json" 0 stopped)" = "the time budget (--max-seconds)" ] &&
    ok "budget: a pass that says it stopped at its budget" || fail "budget: stopped '$(field "$dir/budget.json" 0 stopped)'"
fi
# died: the first batch's process is killed.
"$fuzzer" "${core[@]}" --programs 40 --batch 20 --quiet --json "$dir/died.json" --junit "$dir/died.xml" \
  >"$dir/died.out" 2>&1 &
pid=$!
for _ in $(seq 600); do child=$(pgrep -P $pid | head -1); [ -n "$child" ] && break; sleep 0.05; done
[ -n "${child:-}" ] && kill -KILL "$child"
wait $pid; rc=$?
if [ $rc = 2 ] && /usr/bin/python3 "$here/verdict_rules.py" $rc "$dir/died.json" "$dir/died.xml" >/dev/null &&
   [ "$(field "$dir/died.json" 0 verdict)" = error ] && grep -q '^NOT COMPARED: programs 0 to 19' "$dir/died.out"; then
  ok "died: a killed batch is NOT COMPARED (exit 2, an error record)"
else
  fail "died: exit $rc, verdict $(field "$dir/died.json" 0 verdict)"; tail -5 "$dir/died.out"
fi
# sigterm
interrupt term TERM 'programs' -- "$fuzzer" "${core[@]}" --programs 1000000 --batch 5 &&
  { [ "$(field "$dir/term.json" 0 failure)" = interrupted ] && ok "sigterm: exit 2, an error record 'interrupted'" ||
      fail "sigterm: failure '$(field "$dir/term.json" 0 failure)'"; }
echo "dpor_fuzz_truth: $failed failed"
[ $failed -eq 0 ]
