#!/usr/bin/env bash
# model_slices_truth.sh MODEL_TREIBER — --first-failure runs the sampled runs in
# round-robin slices (harness/model/plan_slices.hpp, issue 17), and slicing changes which
# iterations run first, never which iterations run or what they find.
#   same work     a sliced random run (2,500 iterations: slices of 1,000, 1,000,
#                 500) reports one run of 2,500 iterations, as the unsliced run
#   same counts   a sliced PCT run (10,000 iterations in 10 slices, each calibrated on its
#                 own) counts what the unsliced run counts: its executions longer than k
#                 (every slice's, not slice 0's alone: issue 46, item 6), the same k, and
#                 its 8 calibration executions per slice said in calibration_executions,
#                 so that iterations - calibration_executions is the same 10,000
#   same failure  a fault's failing iteration, on its own scenario, is the same
#                 sliced (--first-failure) as unsliced
#   round robin   treiber.take_all_drops_last (pop_vs_drain_aba, the fourth
#                 scenario, shows it at its first iteration; the three before
#                 cannot) is found after a slice of each earlier scenario: 3,001
#                 executions in all, where the unsliced plan ran 300,001
set -u
model=$1
source "$(dirname "$0")/truth_lib.sh"
field() { /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['runs'][int(sys.argv[2])].get(sys.argv[3], ''))" "$@"; }
total() { /usr/bin/python3 -c "import json,sys; print(sum(r['iterations'] for r in json.load(open(sys.argv[1]))['runs']))" "$1"; }
nruns() { /usr/bin/python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['runs']))" "$1"; }

# --- same work ------------------------------------------------------------------------
one=(treiber --scenario push_push_pop --scheduler random --iterations 2500 --jobs 1)
if run sliced 0 -- "$model" "${one[@]}" --first-failure && run whole 0 -- "$model" "${one[@]}"; then
  if [ "$(nruns "$dir/sliced.json")" = 1 ] && [ "$(field "$dir/sliced.json" 0 iterations)" = 2500 ] &&
     [ "$(field "$dir/sliced.json" 0 slices)" = 3 ] && [ "$(field "$dir/whole.json" 0 iterations)" = 2500 ] &&
     grep -q "round-robin slices" "$dir/sliced.out"; then
    ok "same work: 3 slices reported as one run of 2500 iterations, as unsliced"
  else
    fail "same work: sliced $(nruns "$dir/sliced.json") run(s), $(field "$dir/sliced.json" 0 iterations) iterations in $(field "$dir/sliced.json" 0 slices) slices; unsliced $(field "$dir/whole.json" 0 iterations)"
  fi
fi

# --- same counts: PCT sliced and unsliced ---------------------------------------------------
pct=(treiber --scenario push_vs_pop --scheduler pct --depth 3 --iterations 10000 --jobs 1)
if run pct-sliced 0 -- "$model" "${pct[@]}" --first-failure && run pct-whole 0 -- "$model" "${pct[@]}"; then
  counts() { /usr/bin/python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['runs'][0]; print(*(r.get(k) for k in ('iterations', 'calibration_executions', 'longer_than_pct_steps', 'pct_steps', 'slices')))" "$1"; }
  read -r si sc sl sk ss <<<"$(counts "$dir/pct-sliced.json")"
  read -r wi wc wl wk _ <<<"$(counts "$dir/pct-whole.json")"
  if [ "$ss" = 10 ] && [ "$sc" = $((8 * ss)) ] && [ "$wc" = 8 ] && [ $((si - sc)) = 10000 ] && [ $((wi - wc)) = 10000 ] &&
     [ "$sl" = "$wl" ] && [ "$sk" = "$wk" ]; then
    ok "same counts: PCT sliced as unsliced: 10000 iterations past calibration ($sc and $wc calibration executions), $sl longer than k=$sk"
  else
    fail "same counts: sliced iterations $si, calibration $sc, longer $sl, k $sk, slices $ss; unsliced $wi, $wc, $wl, k $wk"
  fi
fi

# --- same failure ------------------------------------------------------------------------
own=(treiber --scenario push_vs_take_all --fault treiber.take_all_drops_last --scheduler random --iterations 3000 --jobs 1)
iteration() { sed -n 's/.*failing iteration \([0-9]*\).*/\1/p;s/^state=\([0-9]*\).*/\1/p' "$1" | head -1; }
if run own-sliced 1 -- "$model" "${own[@]}" --first-failure --artifacts "$dir/a1" &&
   run own-whole 1 -- "$model" "${own[@]}" --artifacts "$dir/a2"; then
  s1=$(grep -h "^state=" "$dir"/a1/*.replay | head -1) s2=$(grep -h "^state=" "$dir"/a2/*.replay | head -1)
  [ -n "$s1" ] && [ "$s1" = "$s2" ] && ok "same failure: the same failing execution sliced and unsliced ($s1)" ||
    fail "same failure: sliced '$s1', unsliced '$s2'"
fi

# --- round robin ----------------------------------------------------------------------------
if run rr 1 -- "$model" treiber --fault treiber.take_all_drops_last --scheduler random --jobs 1 --first-failure; then
  ran=$(sed -n 's/.*stopped after the first failure (\([0-9]*\) executions ran).*/\1/p' "$dir/rr.out")
  sc=$(/usr/bin/python3 -c "import json,sys; print([r['scenario'] for r in json.load(open(sys.argv[1]))['runs'] if r['verdict']=='fail'])" "$dir/rr.json")
  [ -n "$ran" ] && [ "$ran" -le 3001 ] && [ "$sc" = "['pop_vs_drain_aba']" ] &&
    ok "round robin: $sc failed after $ran executions in all (unsliced: 300001)" ||
    fail "round robin: failing $sc after '${ran}' executions"
fi
echo "model slices truth: $failed failed"
[ $failed -eq 0 ]
