#!/usr/bin/env bash
# verify_truth.sh LIN_MODEL PROBES LFCHECK — lfcheck verify (harness/lin/verify_main.cpp)
# says what it did, on lfcheck's structures (LIN_MODEL: lfcheck-lin-model) and the probe
# specs (PROBES: lfcheck-lin-model-probes), at small bounds (seconds):
#   docs      the command README.md and docs/verify.md show, run as written, prints what
#             they show
#   verified  every scenario of shutdown 2x2 (+1) ended: VERIFIED, exit 0, the JSON's
#             verified_up_to, ended = scenarios = of_scenarios, the model's bounds
#   fault     treiber.pop_gives_up at 2x2 (+1): FAILED, exit 1, a replay file that
#             reproduces it; --jobs 2 reports the same (smallest) failing scenario
#   limit     a search stopped by --dpor-executions: NOT VERIFIED, exit 2, the scenarios
#             that did not end named, never a pass
#   budget    --max-seconds cut short: NOT VERIFIED (stopped by the budget), exit 2
#   refused   a spec without an alphabet is refused (exit 2), never sampled
#   interrupt SIGINT: exit 2, the record says how far it got (ended < scenarios)
#   shards    3 shards of one bound: lfcheck merge of all is VERIFIED, of 2 INCOMPLETE,
#             with one cut short by its budget (or a part's count edited) NOT VERIFIED;
#             the shards of a fault merge to the unsharded run's failing scenario
#   ladder    --ladder names the largest bounds verified within its budget, and a fault's
#             ladder fails (one that verified smaller bounds first: no verified_up_to)
#   stale     a run refused before its reports are written leaves no earlier report
#   merge     an unsharded verify pass whose counts do not add up merges to an error
#   usage     bad arguments: one line, exit 2; a bound a closing-call spec cannot have, refused
set -u
lin=$1 probes=$2 lfcheck=$3
source "$(dirname "$0")/truth_lib.sh"
j() {  # FILE EXPR: a Python expression over the first run r of a report
  /usr/bin/python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))["runs"][0]; print(eval(sys.argv[2]))' "$1" "$2"
}

# --- the command README.md and docs/verify.md show, as written ---------------------------
LFCHECK_BUILD_DIR=$(dirname "$(dirname "$lin")") LFCHECK_SKIP_SETUP=1 "$lfcheck" verify treiber --threads 2 --calls 2 --prefix 1 \
  >"$dir/readme.out" 2>"$dir/readme.err"
rc=$?
[ $rc = 0 ] && grep -q '^verify treiber up to 2×2 (+1): 156 scenarios (3,600 before reduction by threads, values: x23.08)$' "$dir/readme.out" &&
  grep -q '^VERIFIED up to 2×2 (+1): treiber — 156 of 156 scenarios ended, ' "$dir/readme.out" &&
  ok "the documented command: ./lfcheck verify treiber --threads 2 --calls 2 --prefix 1 says what the docs show" ||
  { fail "the documented command: exit $rc"; head -3 "$dir/readme.out"; tail -3 "$dir/readme.err"; }

# --- verified --------------------------------------------------------------------------
if run verified 0 -- "$lin" verify shutdown --threads 2 --calls 2 --prefix 1; then
  got=$(j "$dir/verified.json" '(r["verified_up_to"], r["ended"] == r["scenarios"] == r["of_scenarios"] > 0, r["executions"] > 0, "no preemption bound" in r["bounds"])')
  [ "$got" = "('2×2 (+1)', True, True, True)" ] && grep -q '^VERIFIED up to 2×2 (+1): shutdown' "$dir/verified.out" &&
    ok "verified: shutdown 2×2 (+1), every scenario ended, the bounds named" || fail "verified: $got"
fi

# --- fault: a smallest failing scenario, its replay, the same with --jobs 2 -------------
for jobs in 1 2; do
  run fault$jobs 1 -- "$lin" verify treiber --fault pop_gives_up --threads 2 --calls 2 --prefix 1 --jobs $jobs \
    --artifacts "$dir/arts$jobs" || continue
done
if [ -s "$dir/fault1.json" ] && [ -s "$dir/fault2.json" ]; then
  a=$(j "$dir/fault1.json" '(r["failure"], r["scenario"], r["failing_index"])')
  b=$(j "$dir/fault2.json" '(r["failure"], r["scenario"], r["failing_index"])')
  [[ "$a" == *"NOT LINEARIZABLE"* ]] && [ "$a" = "$b" ] &&
    ok "fault: pop_gives_up caught, the same smallest scenario with --jobs 1 and 2: $a" ||
    fail "fault: jobs 1 $a, jobs 2 $b"
  replay=$(j "$dir/fault1.json" 'r.get("replay", "")')
  if [ -s "$replay" ]; then
    LFCHECK_SKIP_SETUP=1 "$lfcheck" --build "$(dirname "$(dirname "$lin")")" replay "$replay" >"$dir/replay.out" 2>&1
    rc=$?
    [ $rc = 1 ] && grep -q "reproduced: NOT LINEARIZABLE" "$dir/replay.out" && ok "fault: its replay file reproduces it" ||
      { fail "fault: replay exit $rc"; tail -3 "$dir/replay.out"; }
  else
    fail "fault: no replay file ($replay)"
  fi
fi

# --- limit: not ended, named, never a pass ------------------------------------------------
if run limit 2 -- "$lin" verify treiber --threads 2 --calls 1 --prefix 1 --dpor-executions 3; then
  got=$(j "$dir/limit.json" '(r["verdict"], r["ended"] < r["scenarios"], r["not_ended"] > 0, len(r.get("not_ended_scenarios", [])) > 0, "verified_up_to" in r)')
  [ "$got" = "('error', True, True, True, False)" ] && grep -q 'NOT VERIFIED up to 2×1 (+1).*stopped at the execution limit (3)' "$dir/limit.out" &&
    ok "limit: NOT VERIFIED, the scenarios that did not end named" || fail "limit: $got"
fi

# --- budget ---------------------------------------------------------------------------------
if run budget 2 -- "$lin" verify treiber --threads 2 --calls 3 --prefix 1 --max-seconds 1; then
  got=$(j "$dir/budget.json" '(r["verdict"], r.get("stopped"), r["ended"] < r["scenarios"])')
  [ "$got" = "('error', 'budget', True)" ] && ok "budget: cut short is NOT VERIFIED (stopped by the budget)" || fail "budget: $got"
fi

# --- refused: no alphabet ------------------------------------------------------------------
"$probes" verify probe_sync_counter >"$dir/refused.out" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "declares no call alphabet.*verify never samples" "$dir/refused.out" &&
  ok "refused: a spec without an alphabet, exit 2" || { fail "refused: exit $rc"; cat "$dir/refused.out"; }

# --- interrupt ---------------------------------------------------------------------------------
if interrupt int INT 'scenarios' -- "$lin" verify treiber --threads 2 --calls 3 --prefix 1; then
  got=$(j "$dir/int.json" '(r["verdict"], r.get("stopped"), r["ended"] < r["scenarios"], r["failure"].startswith("interrupted"))')
  [ "$got" = "('error', 'interrupt', True, True)" ] && ok "interrupt: exit 2, how far it got" || fail "interrupt: $got"
fi

# --- shards -----------------------------------------------------------------------------------
for i in 0 1 2; do run_shard shard$i -- "$lin" verify shutdown --threads 2 --calls 2 --prefix 1 --shard $i/3; done
"$lfcheck" merge "$dir/shard0.json" "$dir/shard1.json" "$dir/shard2.json" --json "$dir/merged.json" >"$dir/merge.out" 2>&1
rc=$?
got=$(/usr/bin/python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]; whole = json.load(open(sys.argv[2]))["runs"][0]
print((r["verdict"], r.get("verified_up_to"), r["ended"] == r["of_scenarios"] == whole["of_scenarios"], r.get("shards")))' \
  "$dir/merged.json" "$dir/verified.json" 2>&1)
[ $rc = 0 ] && [ "$got" = "('pass', '2×2 (+1)', True, 3)" ] && grep -q 'shutdown: VERIFIED up to 2×2 (+1) (3 shards)' "$dir/merge.out" &&
  ok "shards: the merge of all 3 is VERIFIED up to 2×2 (+1)" || { fail "shards: merge exit $rc, $got"; cat "$dir/merge.out"; }
"$lfcheck" merge "$dir/shard0.json" "$dir/shard2.json" --json "$dir/merged2.json" >"$dir/merge2.out" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "INCOMPLETE: shards 1 of 3 are missing" "$dir/merged2.json" &&
  ok "shards: the merge of 2 of 3 is INCOMPLETE (exit 2)" || { fail "shards: merge of 2 exit $rc"; cat "$dir/merge2.out"; }
# A shard whose scenarios did not all end (its budget cut it short): the merge of all three
# is NOT VERIFIED (exit 2), never the verified bound; and a part that says pass while its
# counts fall short (an edited report) is not taken at its word.
run shard1-cut 2 -- "$lin" verify shutdown --threads 2 --calls 2 --prefix 1 --shard 1/3 --max-seconds 0.001
"$lfcheck" merge "$dir/shard0.json" "$dir/shard1-cut.json" "$dir/shard2.json" --json "$dir/merged-cut.json" >"$dir/merge-cut.out" 2>&1
rc=$?
got=$(j "$dir/merged-cut.json" '(r["verdict"], "verified_up_to" in r, r["failure"].startswith("NOT VERIFIED up to 2×2 (+1)"))')
[ $rc = 2 ] && [ "$got" = "('error', False, True)" ] && ok "shards: a shard cut short by its budget: the merge is NOT VERIFIED (exit 2)" ||
  { fail "shards: merge with a cut shard: exit $rc, $got"; cat "$dir/merge-cut.out"; }
/usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); d["runs"][0]["ended"] -= 1; json.dump(d, open(sys.argv[2], "w"))' "$dir/shard1.json" "$dir/shard1-short.json"
"$lfcheck" merge "$dir/shard0.json" "$dir/shard1-short.json" "$dir/shard2.json" --json "$dir/merged-short.json" >"$dir/merge-short.out" 2>&1
rc=$?
[ $rc = 2 ] && [ "$(j "$dir/merged-short.json" 'r["verdict"]')" = error ] &&
  ok "shards: a part that says pass with one scenario short of ended: the merge is NOT VERIFIED (exit 2)" ||
  { fail "shards: merge with a short part: exit $rc"; cat "$dir/merge-short.out"; }
for i in 0 1; do run_shard fshard$i -- "$lin" verify treiber --fault pop_gives_up --threads 2 --calls 2 --prefix 1 --shard $i/2; done
"$lfcheck" merge "$dir/fshard0.json" "$dir/fshard1.json" --json "$dir/fmerged.json" >"$dir/fmerge.out" 2>&1
rc=$?
if [ -s "$dir/fault1.json" ]; then
  a=$(j "$dir/fault1.json" '(r["scenario"], r["failing_index"])') b=$(j "$dir/fmerged.json" '(r["scenario"], r["failing_index"])')
  [ $rc = 1 ] && [ "$a" = "$b" ] && ok "shards: a fault's shards merge to the unsharded run's smallest failing scenario" ||
    fail "shards: fault merge exit $rc: $b, unsharded $a"
fi

# --- ladder ---------------------------------------------------------------------------------
if run ladder 0 -- "$lin" verify shutdown --ladder --max-seconds 5; then
  got=$(j "$dir/ladder.json" '("2×1 (+1)" in r["verified_bounds"], "3×1 (+1)" in r["verified_bounds"], "2×2 (+1)" in r["verified_bounds"], bool(r.get("verified_up_to")))')
  [ "$got" = "(True, True, True, True)" ] && ok "ladder: shutdown verified up to $(j "$dir/ladder.json" 'r["verified_up_to"]') in 5 s" ||
    fail "ladder: $got"
fi
run ladder-fault 1 -- "$lin" verify shutdown --ladder --max-seconds 30 --fault acquire_gives_up &&
  ok "ladder: a fault's ladder fails at $(j "$dir/ladder-fault.json" 'r["verify_bound"]')"
# A ladder that verifies smaller bounds and then fails: verified_up_to is the ladder's
# verdict, so the failing record keeps those bounds in verified_bounds only (run's verdict
# rules: no verified_up_to on a fail run).
if run ladder-fails-later 1 -- "$lin" verify shutdown --ladder --max-seconds 30 --fault shutdown.relaxed_release; then
  got=$(j "$dir/ladder-fails-later.json" '(r["verify_bound"], r["verified_bounds"], "verified_up_to" in r)')
  [ "$got" = "('2×2 (+1)', ['2×1 (+1)', '3×1 (+1)'], False)" ] &&
    ok "ladder: verified 2×1 and 3×1, failed at 2×2: no verified_up_to on the failing record" ||
    fail "ladder that fails later: $got"
fi

# --- the record beside the exit status ------------------------------------------------------
# A run that stops before writing its reports (a usage error at the bound) leaves no earlier
# run's pass behind: the binary and the driver remove --json/--junit first.
"$lin" verify shutdown --threads 2 --calls 1 --prefix 0 --quiet --json "$dir/stale.json" --junit "$dir/stale.xml" >/dev/null 2>&1
[ -s "$dir/stale.json" ] && [ -s "$dir/stale.xml" ] || fail "stale: the first run wrote no report (the check below would mean nothing)"
"$lin" verify shutdown --calls 8 --json "$dir/stale.json" --junit "$dir/stale.xml" >/dev/null 2>&1
rc=$?
[ $rc = 2 ] && [ ! -e "$dir/stale.json" ] && [ ! -e "$dir/stale.xml" ] &&
  ok "stale: a refused run leaves no earlier report beside its exit 2" || fail "stale: exit $rc, an earlier report is left"
"$lin" verify shutdown --threads 2 --calls 1 --prefix 0 --quiet --json "$dir/stale.json" >/dev/null 2>&1
[ -s "$dir/stale.json" ] || fail "stale: the run before the driver's refusal wrote no report (the check below would mean nothing)"
LFCHECK_SKIP_SETUP=1 "$lfcheck" verify nosuchstructure --json "$dir/stale.json" >/dev/null 2>&1
rc=$?
[ $rc = 2 ] && [ ! -e "$dir/stale.json" ] && ok "stale: ./lfcheck verify refused before the binary runs: no earlier report" ||
  fail "stale: ./lfcheck verify exit $rc, an earlier report is left"

# A subset of the alphabet is another spec: only --check-reduction takes --letters-seed
# (a plain verify of shutdown.acquire_gives_up over letters seed 5 said VERIFIED, exit 0).
"$lin" verify shutdown --threads 2 --calls 1 --prefix 1 --fault shutdown.acquire_gives_up --letters-seed 5 \
  >"$dir/letters.out" 2>"$dir/letters.err"
rc=$?
[ $rc = 2 ] && grep -q "letters-seed is for --check-reduction only" "$dir/letters.err" &&
  ok "usage: --letters-seed without --check-reduction is refused, exit 2" || fail "letters-seed: exit $rc"

# lfcheck merge holds an unsharded verify record to its own counts: a pass with 1 of 156
# scenarios ended (a hand-edited or truncated file) is an error, never VERIFIED.
printf '%s\n' '{"runs":[{"structure":"treiber","check":"verify","verify_bound":"2×2 (+1)","scenarios":156,' \
  '"of_scenarios":156,"ended":1,"not_ended":155,"not_run":0,"verdict":"pass","verified_up_to":"2×2 (+1)"}]}' \
  >"$dir/fake-whole.json"
"$lfcheck" merge "$dir/fake-whole.json" --json "$dir/fake-merged.json" >"$dir/fake-merge.out" 2>&1
rc=$?
[ $rc = 2 ] && [ "$(j "$dir/fake-merged.json" '(r["verdict"], "verified_up_to" in r)')" = "('error', False)" ] &&
  ! grep -q "VERIFIED up to" "$dir/fake-merge.out" &&
  ok "merge: a verify pass whose counts do not add up is an error (exit 2)" ||
  { fail "merge: an inconsistent verify pass: exit $rc"; cat "$dir/fake-merge.out"; }

# --- usage ----------------------------------------------------------------------------------
for args in "--threads 4" "--calls 0" "--prefix 9" "--reduce most" "--ladder --shard 0/2" "--frob" "--letters-seed 3"; do
  "$lin" verify treiber $args >"$dir/usage.out" 2>"$dir/usage.err"
  rc=$?
  [ $rc = 2 ] && [ "$(wc -l <"$dir/usage.err")" = 1 ] && ok "usage: $args is one line, exit 2" ||
    { fail "usage: $args: exit $rc"; cat "$dir/usage.err"; }
done

# A bound past what a spec with a closing call allows (shutdown: at most 7 calls and the
# closing one per thread) is refused, never enumerated at 7 calls and named "2×8".
"$lin" verify shutdown --calls 8 --list >"$dir/closer.out" 2>"$dir/closer.err"
rc=$?
[ $rc = 2 ] && grep -q "ends every thread with a closing call: at most 7 calls per thread" "$dir/closer.err" &&
  ! grep -q "up to 2×8" "$dir/closer.out" && ok "usage: --calls 8 on a spec with a closing call is refused, exit 2" ||
  { fail "usage: --calls 8 on shutdown: exit $rc"; head -2 "$dir/closer.out" "$dir/closer.err"; }

echo "verify truth: $failed failed"
[ $failed -eq 0 ]
