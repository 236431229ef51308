#!/usr/bin/env bash
# verify_reduction_truth.sh LIN_MODEL PROBES [DRAWS] [SEED] [DRAW_SECONDS] — lfcheck verify's reductions
# (harness/lin/enumeration.hpp: interchangeable threads, values of their own) held to the
# unreduced enumeration, scenario by scenario (verify --check-reduction: every scenario
# over the alphabets runs, and so does every scenario each reduction claims stands with
# it; a claim that does not hold fails the check, and the reduced and unreduced
# enumerations must reach the same verdict):
#   probes   a spec whose thread 2 is not interchangeable (probe_thread2_counter) and
#            one that is not data-independent (probe_value2_register), each claiming it
#            is: the check must FAIL on both — the oracle can see an unsound reduction
#   random   DRAWS (default 16) random specs and bounds, from SEED (default: random,
#            printed first): one of lfcheck's five specs, a pseudo-random subset of its
#            letters (--letters-seed: another, smaller spec), correct or with one of its
#            seeded faults, at 2 or 3 threads of 1 or 2 calls and a prefix of 0 or 1: the
#            check must pass on every draw whose searches all ended, and most must
#            end; DRAW_SECONDS (default: none) is each draw's --max-seconds, a draw
#            it cuts is a skip like one whose search did not end, and the draws go on
#            until DRAWS are checked (at most 3 x DRAWS draws)
set -u
lin=$1 probes=$2 draws=${3:-16} seed=${4:-$(( (RANDOM << 15) ^ RANDOM ))} draw_seconds=${5:-}
source "$(dirname "$0")/truth_lib.sh"
echo "seed: $seed"
RANDOM=$seed

# --- probes: an unsound claim is caught ------------------------------------------------
run thread2 1 -- "$probes" verify probe_thread2_counter --threads 3 --calls 1 --prefix 0 --check-reduction &&
  grep -q "BROKEN threads:" "$dir/thread2.out" &&
  ok "probes: thread 2 not interchangeable: the check fails ($(grep -c BROKEN "$dir/thread2.out") broken claims shown)"
run value2 1 -- "$probes" verify probe_value2_register --threads 2 --calls 1 --prefix 1 --check-reduction &&
  grep -q "BROKEN values:" "$dir/value2.out" &&
  ok "probes: a value-dependent register: the check fails"
# ... and each passes with the reduction its claim is false for turned off.
run thread2-off 0 -- "$probes" verify probe_thread2_counter --threads 3 --calls 1 --prefix 0 --check-reduction --reduce values &&
  ok "probes: the same counter with the thread reduction off: the check passes"
run value2-off 0 -- "$probes" verify probe_value2_register --threads 2 --calls 1 --prefix 1 --check-reduction --reduce threads &&
  ok "probes: the same register with the values reduction off: the check passes"

# ... and a check cut by its --max-seconds budget is NOT CHECKED (exit 2), names the
# budget, counts only the scenarios it compared, and calls no claim broken: a search the
# budget cut has no verdict to compare.
run budget 2 -- "$lin" verify treiber --threads 2 --calls 2 --prefix 1 --check-reduction --max-seconds 1 &&
  grep -q "budget ended after" "$dir/budget.json" && ! grep -q BROKEN "$dir/budget.out" &&
  ! grep -q "432 checked" "$dir/budget.out" &&
  ok "budget: a check cut by --max-seconds is not checked, no claim broken: $(head -1 "$dir/budget.out" | sed 's/.*; //')" ||
  fail "budget: $(head -3 "$dir/budget.out")"

# --- random specs and bounds ------------------------------------------------------------
structures=(treiber shutdown deliqueue removal timers)
checked=0 unended=0
# Without DRAW_SECONDS: DRAWS draws, at least 3/4 of them checked. With it: draws until
# DRAWS are checked (a cut draw is replaced by a new one), at most 3 x DRAWS draws.
limit=$draws
[ -n "$draw_seconds" ] && limit=$((draws * 3))
for ((d = 0; d < limit; d++)); do
  [ -n "$draw_seconds" ] && [ $checked -ge "$draws" ] && break
  s=${structures[RANDOM % ${#structures[@]}]}
  mapfile -t faults < <("$lin" "$s" --list-faults | awk '{print $1}')
  fault=""
  ((RANDOM % 2)) && fault=${faults[RANDOM % ${#faults[@]}]}
  threads=$((2 + RANDOM % 2)) calls=1 prefix=$((RANDOM % 2)) letters=$((1 + RANDOM))
  [ $threads = 2 ] && calls=$((1 + RANDOM % 2))
  args=(verify "$s" --check-reduction --threads $threads --calls $calls --prefix $prefix --letters-seed $letters
        --dpor-executions 200000)
  # DRAW_SECONDS (./lfcheck test): a draw that needs longer is a skip, counted below.
  [ -n "$draw_seconds" ] && args+=(--max-seconds "$draw_seconds")
  [ -n "$fault" ] && args+=(--fault "$fault")
  name=draw$d
  timeout 600 "$lin" "${args[@]}" --quiet --json "$dir/$name.json" --junit "$dir/$name.xml" >"$dir/$name.out" 2>"$dir/$name.err"
  rc=$?
  what="$s ${threads}x$calls (+$prefix) letters $letters${fault:+ fault $fault}: $(head -1 "$dir/$name.out" | sed 's/.*: //')"
  /usr/bin/python3 "$here/verdict_rules.py" "$rc" "$dir/$name.json" "$dir/$name.xml" >"$dir/$name.rules" ||
    { fail "$name ($what): $(cat "$dir/$name.rules")"; continue; }
  case $rc in
    0) checked=$((checked + 1)); ok "$name: $what" ;;
    2) unended=$((unended + 1)); echo "skip: $name: $what: $(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0].get("failure", ""))' "$dir/$name.json")" ;;
    *) fail "$name: $what: exit $rc"; grep BROKEN "$dir/$name.out" | head -5
       echo "  replay: $lin ${args[*]}" ;;
  esac
done
want=$((draws * 3 / 4))
[ -n "$draw_seconds" ] && want=$draws
[ $checked -ge $want ] && ok "random: $checked of $d draws checked ($unended with a search that did not end)" ||
  fail "random: only $checked of $d draws checked ($unended did not end), want $want"

echo "verify reduction truth: $failed failed"
[ $failed -eq 0 ]
