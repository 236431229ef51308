#!/usr/bin/env bash
# model_crash_verdict.sh PROBES — a crash in scenario code under Relacy is a verdict
# (issue 16), never a dead checker. PROBES is lfcheck-model-probes; its crash probes
# (models/selftest/probe_models.cpp) divide by a size a racing thread left at 0
# (SIGFPE), read a page a racing thread unmapped (SIGSEGV) and call abort() (SIGABRT).
#   verdict    exit 1, JSON failure "CRASH: SIG...", under random and bound
#   evidence   the per-thread table (ending in the crash step at the probe's line),
#              the history with the crashing thread's stack, a trace that parses,
#              a replay file naming the crash
#   the rest   one invocation with every probe scenario: the crashes are verdicts
#              and the scenarios after them still run (the counted probe passes)
#   replay     the replay file reproduces the crash verdict, 10 times out of 10
set -u
probes=$1
source "$(dirname "$0")/truth_lib.sh"
field() { /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['runs'][int(sys.argv[2])].get(sys.argv[3], ''))" "$@"; }
src_line() { grep -n "$1" "$here/../models/selftest/probe_models.cpp" | head -1 | cut -d: -f1; }

check_crash() {  # scenario signal scheduler marker-in-source
  local sc=$1 sig=$2 s=$3 marker=$4 name=$1-$3 arts=$dir/artifacts-$1-$3
  run "$name" 1 -- "$probes" probe --scenario "$sc" --scheduler "$s" --iterations 2000 --artifacts "$arts" || return
  local f stem=$arts/probe.$sc.$s line
  f=$(field "$dir/$name.json" 0 failure)
  [ "$f" = "CRASH: $sig" ] && ok "$name: verdict CRASH: $sig, exit 1" || { fail "$name: failure '$f', want CRASH: $sig"; return; }
  grep -q "FAILED: CRASH: $sig" "$dir/$name.out" || fail "$name: the terminal report does not say CRASH: $sig"
  line=$(src_line "$marker")
  # The table's last row is the crash step, at the probe's own line.
  if [ -s "$stem.table.txt" ] && grep -q "^source: models/selftest/probe_models.cpp" "$stem.table.txt" &&
     tail -n 1 "$stem.table.txt" | grep -q "!! CRASH: $sig (.*) *:$line\b"; then
    ok "$name: table ends in the crash step at probe_models.cpp:$line"
  else
    fail "$name: table $stem.table.txt lacks the crash step at probe_models.cpp:$line"; cat "$stem.table.txt" 2>/dev/null | tail -5
  fi
  grep -q "crashing thread's stack" "$stem.history.txt" 2>/dev/null && grep -q "probe_models.cpp:$line" "$stem.history.txt" &&
    ok "$name: history holds the crashing thread's stack" || fail "$name: no crash stack in $stem.history.txt"
  /usr/bin/python3 "$here/validate_trace.py" "$stem.trace.json" >"$dir/$name.trace-check" 2>&1 &&
    ok "$name: trace parses" || fail "$name: trace: $(head -3 "$dir/$name.trace-check")"
  grep -q "^failure=CRASH: $sig" "$stem.replay" 2>/dev/null && grep -q "^state=." "$stem.replay" &&
    ok "$name: replay file names the crash" || fail "$name: replay file $stem.replay missing or without the crash"
}

check_crash crash_divide SIGFPE random 'SIGFPE when n == 0'
check_crash crash_divide SIGFPE bound 'SIGFPE when n == 0'
check_crash crash_unmapped SIGSEGV random 'SIGSEGV once thread 0'
check_crash crash_unmapped SIGSEGV bound 'SIGSEGV once thread 0'
check_crash crash_abort SIGABRT bound 'std::abort();  // thread 0'

# --- every probe in one process: a crash does not end the others ---------------
if run all 1 -- "$probes" probe --scheduler bound --artifacts "$dir/artifacts-all"; then
  summary=$(/usr/bin/python3 - "$dir/all.json" <<'EOF'
import json, sys
runs = {r["scenario"]: r for r in json.load(open(sys.argv[1]))["runs"]}
want = {"crash_divide": "CRASH: SIGFPE", "crash_unmapped": "CRASH: SIGSEGV", "crash_abort": "CRASH: SIGABRT"}
bad = [f"{k}: {runs.get(k, {}).get('failure', 'not run')}" for k, v in want.items() if runs.get(k, {}).get("failure") != v]
if runs.get("counted", {}).get("verdict") != "pass": bad.append("counted did not pass")
if runs.get("order", {}).get("verdict") != "pass": bad.append("order (after the crashes) did not pass")
print("; ".join(bad) if bad else "ok")
EOF
)
  [ "$summary" = ok ] && ok "all probes in one process: crashes are verdicts, the other scenarios ran and passed" ||
    fail "all probes in one process: $summary"
fi

# --- the replay reproduces the crash, 10/10 ------------------------------------
for pair in crash_divide.random:SIGFPE crash_unmapped.bound:SIGSEGV; do
  stem=${pair%%:*} sig=${pair##*:} sc=${stem%%.*} s=${stem##*.}
  replay=$dir/artifacts-$sc-$s/probe.$sc.$s.replay
  [ -s "$replay" ] || { fail "replay $stem: no replay file"; continue; }
  same=0
  for i in 1 2 3 4 5 6 7 8 9 10; do
    run "replay-$stem-$i" 1 -- "$probes" --replay "$replay" --artifacts "$dir/replayed" >/dev/null || continue
    [ "$(field "$dir/replay-$stem-$i.json" 0 failure)" = "CRASH: $sig" ] && [ "$(field "$dir/replay-$stem-$i.json" 0 iterations)" = 1 ] &&
      same=$((same + 1))
  done
  [ $same -eq 10 ] && ok "replay $stem: CRASH: $sig in 10/10 replays (1 execution each)" ||
    fail "replay $stem: CRASH: $sig in only $same/10 replays"
done

echo "model crash verdict: $failed failed"
[ $failed -eq 0 ]
