#!/usr/bin/env bash
# model_shards_truth.sh PROBES LFCHECK — jobs, shards and merge do the work of one
# plain run, once (issue 17). PROBES is lfcheck-model-probes, LFCHECK the lfcheck
# script (for `lfcheck merge`). Every run's report goes through verdict_rules.py.
#   jobs          --jobs 2 reports the same runs, verdicts and iterations as
#                 --jobs 1, in the same order (only the seconds may differ)
#   first failure --jobs 2 --first-failure exits 1 with the failure it found and
#                 says how many runs it did not run to their end
#   shards        3 shards (--shard I/3, and GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS)
#                 hold exactly the unsharded run's runs: same keys, none twice
#   merge         lfcheck merge of the 3 shards' JSON = the unsharded JSON up to
#                 order and seconds, its exit status = the unsharded one's, its
#                 JUnit has one testcase per run; merging a shard twice is refused
set -u
probes=$1 lfcheck=$2
source "$(dirname "$0")/truth_lib.sh"
# The probes' random and bound runs: every scenario, the window fault seeded (the
# flaky probe fails once per process, so each plan has it once per scheduler).
plan=(probe --fault probe.read_in_window --iterations 3000)
# --- jobs: same runs, same order -----------------------------------------------------
for s in random bound; do
  run jobs1-$s 1 -- "$probes" "${plan[@]}" --scheduler $s --jobs 1 &&
  run jobs2-$s 1 -- "$probes" "${plan[@]}" --scheduler $s --jobs 2 || continue
  if [ "$(runs_of "$dir/jobs1-$s.json" ordered)" = "$(runs_of "$dir/jobs2-$s.json" ordered)" ]; then
    ok "$s: --jobs 2 reports the runs of --jobs 1, in the same order ($(runs_of "$dir/jobs1-$s.json" ordered | wc -l) runs)"
  else
    fail "$s: --jobs 2 and --jobs 1 differ:"; diff <(runs_of "$dir/jobs1-$s.json" ordered) <(runs_of "$dir/jobs2-$s.json" ordered)
  fi
done

# --- jobs with --first-failure ---------------------------------------------------------
if run ff 1 -- "$probes" probe --fault probe.read_in_window --scheduler pct --depth 2 --jobs 2 --first-failure; then
  n=$(runs_of "$dir/ff.json" ordered | wc -l) f=$(runs_of "$dir/ff.json" ordered | grep -c '"verdict": "fail"')
  total=$("$probes" probe --list | wc -l)  # one pct run per probe scenario
  if [ "$f" -ge 1 ] && { [ "$n" -eq "$total" ] || grep -q "of $total runs not run to their end" "$dir/ff.out"; }; then
    ok "--jobs 2 --first-failure: $f failing of $n reported runs, the rest said to be stopped"
  else
    fail "--jobs 2 --first-failure: $n runs, $f failing"; cat "$dir/ff.out"
  fi
fi

# --- shards: exactly the unsharded work ----------------------------------------------------
for s in random bound; do
  parts=()
  for i in 0 1 2; do
    if [ $i = 1 ]; then  # one shard through GoogleTest's variables
      GTEST_SHARD_INDEX=1 GTEST_TOTAL_SHARDS=3 run_shard shard$i-$s -- "$probes" "${plan[@]}" --scheduler $s --jobs 1
    else
      run_shard shard$i-$s -- "$probes" "${plan[@]}" --scheduler $s --jobs 1 --shard $i/3
    fi || continue 2
    parts+=("$dir/shard$i-$s.json")
  done
  all=$(for p in "${parts[@]}"; do runs_of "$p" ordered; done | sort)
  if [ "$all" = "$(runs_of "$dir/jobs1-$s.json" sorted)" ]; then
    ok "$s: 3 shards hold exactly the unsharded runs ($(echo "$all" | wc -l)), none twice"
  else
    fail "$s: the 3 shards' runs differ from the unsharded run's:"; diff <(echo "$all") <(runs_of "$dir/jobs1-$s.json" sorted)
  fi

  # --- merge ---------------------------------------------------------------------------------
  "$lfcheck" merge "${parts[@]}" "${parts[@]/.json/.xml}" --json "$dir/merged-$s.json" --junit "$dir/merged-$s.xml" \
    >"$dir/merge-$s.out" 2>&1
  rc=$?
  if [ $rc -ne 1 ]; then
    fail "merge ($s): exit $rc, want 1 (as the unsharded run)"; cat "$dir/merge-$s.out"
  elif [ "$(runs_of "$dir/merged-$s.json" sorted)" != "$(runs_of "$dir/jobs1-$s.json" sorted)" ]; then
    fail "merge ($s): the merged JSON differs from the unsharded one"
  elif ! /usr/bin/python3 "$here/verdict_rules.py" 1 "$dir/merged-$s.json" "$dir/merged-$s.xml" >"$dir/merge-$s.rules"; then
    fail "merge ($s): $(cat "$dir/merge-$s.rules")"
  else
    ok "merge ($s): the unsharded JSON up to order and seconds, exit 1, JUnit consistent"
  fi
  "$lfcheck" merge "${parts[0]}" "${parts[0]}" >"$dir/twice-$s.out" 2>&1
  rc=$?
  [ $rc -eq 2 ] && grep -q "shards overlap" "$dir/twice-$s.out" && ok "merge ($s): a shard merged twice is refused (exit 2)" ||
    fail "merge ($s): a shard merged twice exits $rc"
done

echo "model shards truth: $failed failed"
[ $failed -eq 0 ]
