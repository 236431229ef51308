#!/usr/bin/env bash
# stress_lin_shards_truth.sh STRESS LIN_MODEL LFCHECK — shards of a stress run and of
# a lin model run do the work of one plain run, once (issue 17). STRESS is the plain
# lfcheck-stress, LIN_MODEL lfcheck-lin-model-treiber, LFCHECK the lfcheck script
# (for `lfcheck merge`). Every run's report goes through verdict_rules.py.
#   stress shards  3 shards (--shard I/3, and GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS)
#                  run exactly the unsharded run's workloads, same seed and budget,
#                  none twice; GTEST_SHARD_STATUS_FILE is touched; merge of the 3
#                  = the unsharded JSON up to order and seconds; a shard with no
#                  workload exits 2
#   lin shards     3 shards run scenarios I, I+3, ... of the unsharded run: their
#                  scenario counts add up to it, and merge sums the 3 parts into
#                  the unsharded JSON (up to seconds); 2 of the 3 merge to an
#                  INCOMPLETE error (exit 2); with a seeded fault the merge fails
#                  with the unsharded run's failing scenario; a shard with no
#                  scenario exits 2
set -u
stress=$1 lin=$2 lfcheck=$3
source "$(dirname "$0")/truth_lib.sh"

# Runs the 3 shards of COMMAND (shard 1 through GoogleTest's variables) as
# NAME0..NAME2 and prints their JSON files.
three_shards() {  # NAME -- COMMAND...
  local name=$1 i; shift 2
  for i in 0 1 2; do
    if [ $i = 1 ]; then
      GTEST_SHARD_INDEX=1 GTEST_TOTAL_SHARDS=3 GTEST_SHARD_STATUS_FILE="$dir/$name.status" \
        run_shard $name$i -- "$@" >&2
    else
      run_shard $name$i -- "$@" --shard $i/3 >&2
    fi || return 1
    echo "$dir/$name$i.json"
  done
}

# lfcheck merge of the shards' JSON must exit 0 and equal the unsharded report (up to
# order and seconds) and obey the verdict rules.
merge_equals() {  # LAYER UNSHARDED.json SHARD.json...
  local layer=$1 want=$2; shift 2
  "$lfcheck" merge "$@" --json "$dir/$layer-merged.json" >"$dir/$layer-merge.out" 2>&1
  local rc=$?
  if [ $rc -ne 0 ]; then
    fail "$layer merge: exit $rc, want 0"; cat "$dir/$layer-merge.out"
  elif [ "$(runs_of "$dir/$layer-merged.json" sorted)" != "$(runs_of "$want" sorted)" ]; then
    fail "$layer merge: the merged JSON differs from the unsharded one:"
    diff <(runs_of "$dir/$layer-merged.json" sorted) <(runs_of "$want" sorted)
  elif ! /usr/bin/python3 "$here/verdict_rules.py" 0 "$dir/$layer-merged.json" >"$dir/$layer-merge.rules"; then
    fail "$layer merge: $(cat "$dir/$layer-merge.rules")"
  else
    ok "$layer merge: the unsharded JSON up to order and seconds ($(runs_of "$want" sorted | wc -l) runs), exit 0"
  fi
}

# --- stress: workloads --------------------------------------------------------------
splan=("$stress" treiber --threads 2 --ops 4000 --seed 11)
if run stress 0 -- "${splan[@]}"; then
  workloads=$(runs_of "$dir/stress.json" ordered | wc -l)
  if parts=$(three_shards sshard -- "${splan[@]}"); then
    all=$(for p in $parts; do runs_of "$p" ordered; done | sort)
    if [ "$all" = "$(runs_of "$dir/stress.json" sorted)" ]; then
      ok "stress: 3 shards ran exactly the unsharded run's $workloads workloads (same seed, ops, verdicts), none twice"
    else
      fail "stress: the 3 shards' runs differ from the unsharded run's:"
      diff <(echo "$all") <(runs_of "$dir/stress.json" sorted)
    fi
    [ -e "$dir/sshard.status" ] && ok "stress: GTEST_SHARD_STATUS_FILE touched" ||
      fail "stress: GTEST_SHARD_STATUS_FILE not touched"
    merge_equals stress "$dir/stress.json" $parts
  fi
  # More shards than workloads: the last shard has none.
  n=$((workloads + 1))
  "${splan[@]}" --shard $workloads/$n --quiet >"$dir/sempty.out" 2>&1
  rc=$?
  [ $rc -eq 2 ] && grep -q "has no workload" "$dir/sempty.out" &&
    ok "stress: shard $workloads/$n has no workload: exit 2, says so" ||
    { fail "stress: an empty shard exits $rc"; cat "$dir/sempty.out"; }
fi

# --- lin: scenarios --------------------------------------------------------------------
lplan=("$lin" treiber --scenarios 7 --iterations 200 --bound-executions 400 --seed 3)
if run lin 0 -- "${lplan[@]}"; then
  if parts=$(three_shards lshard -- "${lplan[@]}"); then
    counts=$(for p in $parts; do /usr/bin/python3 -c 'import json,sys; print(*[r["scenarios"] for r in json.load(open(sys.argv[1]))["runs"]])' "$p"; done | tr '\n' ' ')
    [ "$counts" = "3 2 2 " ] && ok "lin: the 3 shards ran 3, 2 and 2 of the 7 scenarios" ||
      fail "lin: the shards ran $counts scenarios, want 3 2 2"
    merge_equals lin "$dir/lin.json" $parts  # the 3 parts summed into one run
    "$lfcheck" merge $(echo $parts | cut -d' ' -f1,2) --json "$dir/lpartial.json" >"$dir/lpartial.out" 2>&1
    rc=$?
    [ $rc -eq 2 ] && grep -q "INCOMPLETE: shards 2 of 3 are missing" "$dir/lpartial.out" &&
      ok "lin merge: 2 of 3 shards are an INCOMPLETE error (exit 2)" ||
      { fail "lin merge: 2 of 3 shards exit $rc"; cat "$dir/lpartial.out"; }
  fi
  # A seeded lin fault: the unsharded run stops at its first failing scenario; the
  # merge of the shards fails with that same scenario's failure (exit 1).
  fplan=("${lplan[@]}" --fault treiber.pop_gives_up)
  if run fault 1 -- "${fplan[@]}" && parts=$(three_shards fshard -- "${fplan[@]}"); then
    "$lfcheck" merge $parts --json "$dir/fmerged.json" >"$dir/fmerge.out" 2>&1
    rc=$?
    first=$(/usr/bin/python3 - "$dir/fault.json" "$dir/fmerged.json" <<'EOF'
import json, sys
keys = ("verdict", "failure", "scenario", "failing_index")
a, b = (json.load(open(f))["runs"] for f in sys.argv[1:])
print("same" if len(b) == 1 and all(a[0].get(k) == b[0].get(k) for k in keys) and "failing_index" in a[0]
      else f"unsharded {[{k: r.get(k) for k in keys} for r in a]} merged {[{k: r.get(k) for k in keys} for r in b]}")
EOF
)
    [ $rc -eq 1 ] && [ "$first" = same ] &&
      ok "lin merge of a fault's shards: one failing run, the unsharded run's first failing scenario (exit 1)" ||
      { fail "lin merge of a fault's shards: exit $rc, $first"; cat "$dir/fmerge.out"; }
  fi
  "${lplan[@]}" --shard 8/9 --quiet --json "$dir/lempty.json" >"$dir/lempty.out" 2>&1
  rc=$?
  [ $rc -eq 2 ] && grep -q "NO WORK: shard 8/9 has none of the 7 scenarios" "$dir/lempty.out" &&
    ok "lin: shard 8/9 of 7 scenarios has none: exit 2, says so" ||
    { fail "lin: an empty shard exits $rc"; cat "$dir/lempty.out"; }
fi

echo "stress and lin shards truth: $failed failed"
[ $failed -eq 0 ]
