#!/usr/bin/env bash
# nightly_truth.sh LFCHECK — ./lfcheck nightly (tools/nightly.py) plans, shards, stops
# and reports as it says, on a stand-in driver with scripted outcomes
# (tests/fake_driver.py) and a build of two structures ("fake": every layer; "plain":
# stress only), in seconds (LFCHECK_NIGHTLY_FIRST_SECONDS: the stand-in's chunks take
# fractions of a second, so budgets of seconds fit every part's first chunk).
#   plan     every part of the plan ran, the shares add up to the budget, every part's
#            first chunk comes before any part's second (no part starves the ones after
#            it), the model and lin parts repeat chunks at new seeds while their share
#            lasts (a model part: a DPOR chunk, then PCT), the stress parts get their
#            share as --duration; report and exit status agree
#   verify   the verify part runs its ladder for its share in the second phase, and the
#            summary says "verified up to ..." (a night with time left for it)
#   sizing   a model chunk is sized to the time its part has left (its iterations), so
#            the part keeps to its share
#   shards   3 shards of one night run every part of the unsharded plan once; ./lfcheck
#            merge of the 3 is the night (exit 0), of 2 of them INCOMPLETE (exit 2); the
#            merge of a sharded --fault night gives its verdict on the fault; the merged
#            JUnit of a failing night names every run apart (TSan and ASan runs of one
#            workload, chunks) and attaches each failure's table
#   groups   the kill matrix runs in row groups (mutants --shard J/G): every row of the
#            matrix once, its faults counted once (2 faults, not 2 per group)
#   report   a JSON that cannot be written: exit 2 and no JUnit (never an all-pass JUnit
#            beside no JSON)
#   fault    --fault: the fault's failure is in the report with its replay line, exit 1;
#            a --fault night in which no part caught the fault fails (MISSED), never exit 0
#   missed   a kill-matrix row whose fault no layer caught fails the night (exit 1)
#   died     a chunk killed by a signal (no report) is an error run (exit 2)
#   sigterm  SIGTERM halfway: the running chunk is stopped, the parts not started are
#            "interrupted: not run", the report is written, exit 2
#   deadline a chunk still running at the budget's end (plus the grace) is stopped and
#            its run is an error that says so; a part that could not start before the
#            grace ended is an error run too (its minimum did not happen), exit 2
#   matrix   a night with time for little more than every part's first chunk still runs
#            a kill-matrix row (and every part but verify, which has no first chunk); an over-budget correct-code cell is an error (not
#            checked), not "not what it said"
#   nosub    a build without sanitizer sub-builds: no TSan/ASan parts and no kill matrix
#            (listed as not checked), lin on its model layer only, exit 0
#   fuzz     a build with the DPOR fuzzer (lfcheck's own) has a dpor-fuzz part that runs
#            it for its share (--max-seconds) and counts its programs; a --fault night
#            lists it as not checked; a build without it (a project's) has no such part
#   reuse    a reused --out never lends an earlier night's chunk report to this night
#   usage    bad arguments are one line and exit 2, before anything is built; a short
#            fault name of two structures is refused as ambiguous
set -u
lfcheck=$1
source "$(dirname "$0")/truth_lib.sh"
build=$dir/build
mkdir -p "$build"
printf 'lfcheck-manifest 1\nproject\tfake\nsanitizer_subbuilds\tON\n' >"$build/lfcheck-manifest.txt"
printf 'structure\tfake\tmodel,lin-model,stress,props,spec\t-\n' >>"$build/lfcheck-manifest.txt"
printf 'structure\tplain\tstress\tNO_MODEL\n' >>"$build/lfcheck-manifest.txt"
export LFCHECK_NIGHTLY_FIRST_SECONDS='{"model":0.2,"lin":0.2,"tsan":0.2,"asan":0.2,"dpor-fuzz":0.2,"kill-matrix":0.2,"kill-matrix.correct":0.2}' FAKE_SECONDS=0.2
night() {  # NAME ARGS...: tools/nightly.py on the stand-in driver; its exit status
  local name=$1; shift
  timeout 300 /usr/bin/python3 "$here/../tools/nightly.py" --driver "$here/fake_driver.py" --build "$build" \
    --out "$dir/$name.out.d" --json "$dir/$name.json" --junit "$dir/$name.xml" "$@" >"$dir/$name.out" 2>"$dir/$name.err"
}
held() {  # NAME WANT RC: the night's exit status is WANT ($rc: RC) and its report holds to verdict_rules.py
  local name=$1 want=$2
  rc=$3
  if [ "$rc" -ne "$want" ]; then
    fail "$name: exit $rc, want $want"; tail -n 12 "$dir/$name.out" "$dir/$name.err"; return 1
  fi
  /usr/bin/python3 "$here/verdict_rules.py" "$rc" "$dir/$name.json" "$dir/$name.xml" >"$dir/$name.rules" ||
    { fail "$name: $(cat "$dir/$name.rules")"; return 1; }
  return 0
}
nightly() {  # NAME WANT -- ARGS: a night, held as above
  local name=$1 want=$2; shift 3
  night "$name" "$@"
  held "$name" "$want" $?
}
# The nights that sleep most of their budget (verify, groups: two thirds of this test's
# wall when run in turn, little CPU) start at once in the background: early NAME -- ARGS;
# later NAME WANT waits for one and holds it as nightly does, where its checks stand.
declare -A early_pid
early() {
  local name=$1; shift 2
  night "$name" "$@" &
  early_pid[$name]=$!
}
later() {
  wait "${early_pid[$1]}"
  held "$1" "$2" $?
}
q() {  # FILE EXPR: a Python expression over the report d (nightly: d["nightly"], runs: d["runs"])
  /usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); n = d["nightly"]; runs = d["runs"]
parts = {p["part"]: p for p in n["parts"]}
print(eval(sys.argv[2]))' "$1" "$2"
}

FAKE_LOG=$dir/verify.log early verify -- --budget 120 --seed 5
early groups -- --budget 60 --seed 5

# plan
if FAKE_LOG=$dir/plan.log nightly plan 0 -- --budget 20 --seed 5; then
  got=$(q "$dir/plan.json" 'sorted(p for p in parts if not p.startswith("kill-matrix"))')
  want="['asan.fake', 'asan.plain', 'lin.fake', 'model.fake', 'tsan.fake', 'tsan.plain', 'verify.fake']"
  [ "$got" = "$want" ] && ok "plan: the parts of both structures" || fail "plan: parts $got, want $want"
  share=$(q "$dir/plan.json" 'round(sum(p["share_seconds"] for p in n["parts"]))')
  [ "$share" = 20 ] && ok "plan: the shares add up to the budget" || fail "plan: shares $share, want 20"
  chunks=$(q "$dir/plan.json" 'parts["model.fake"]["chunks"] > 2 and parts["lin.fake"]["chunks"] > 2')
  [ "$chunks" = True ] && ok "plan: model and lin repeat chunks while their share lasts" ||
    fail "plan: model/lin chunks $(q "$dir/plan.json" '(parts["model.fake"]["chunks"], parts["lin.fake"]["chunks"])')"
  seeds=$(grep '^lin fake' "$dir/plan.log" | sed 's/.*--seed \([0-9]*\).*/\1/' | sort | uniq -d | wc -l)
  [ "$seeds" = 0 ] && ok "plan: every lin chunk has its own seed" || fail "plan: lin chunks repeat a seed"
  grep -q '^stress plain --sanitizer address --duration [0-9]* --threads' "$dir/plan.log" &&
    ok "plan: a stress part runs for its share (--duration)" || fail "plan: no ASan stress run of plain with --duration"
  grep -q '^mutants --seeds 1 --first-seed 6 --shard' "$dir/plan.log" &&
    ok "plan: the kill matrix at the night's seed" || fail "plan: no kill matrix run at seed 6"
  grep -q '^split of the night: model' "$dir/plan.out" && ok "plan: the split is stated" || fail "plan: no split line"
  first_all=$(/usr/bin/python3 - "$dir/plan.out" <<'PY'
import re, sys
seen, second_at, last_first = {}, None, None
for i, line in enumerate(open(sys.argv[1])):
    m = re.match(r"\[nightly [^\]]*\] (\S+) chunk (\d+):", line)
    if m:
        if m.group(2) == "0":
            last_first = i
        elif second_at is None:
            second_at = i
print(second_at is None or last_first < second_at)
PY
)
  [ "$first_all" = True ] && ok "plan: every part's first chunk before any part's second" ||
    fail "plan: a part's second chunk ran before another part's first"
  spent=$(q "$dir/plan.json" 'n["seconds"] <= 20 + 5')
  [ "$spent" = True ] && ok "plan: within the budget" || fail "plan: took $(q "$dir/plan.json" 'n["seconds"]') s of 20"
fi

# sizing: a model chunk of 1M iterations takes 6 s, the first (the default plan) 0.6 s;
# the model part's share is 4 s: later chunks are sized to the time left, not run whole
if FAKE_MODEL_SECONDS=6 FAKE_LOG=$dir/size.log nightly size 0 -- --budget 20 --seed 5; then
  got=$(q "$dir/size.json" 'parts["model.fake"]["seconds"] <= parts["model.fake"]["allotted_seconds"] + 0.5')
  [ "$got" = True ] && ok "sizing: the model part's chunks fit its share" ||
    fail "sizing: model part took $(q "$dir/size.json" '(parts["model.fake"]["seconds"], parts["model.fake"]["allotted_seconds"])')"
  grep -q '^model fake --scheduler pct --iterations [1-9][0-9]\{4,5\} ' "$dir/size.log" &&
    ok "sizing: a chunk of fewer iterations where the share has no time for 1M" || fail "sizing: no smaller chunk"
fi

# shards
all_parts=$(q "$dir/plan.json" 'sorted(parts)' 2>/dev/null)
shard_parts=""
for i in 0 1 2; do
  nightly shard$i 0 -- --budget 10 --seed 5 --shard $i/3 || continue
  shard_parts="$shard_parts $(q "$dir/shard$i.json" '" ".join(parts)')"
done
got=$(/usr/bin/python3 -c 'import sys; print(sorted(sys.argv[1].split()))' "$shard_parts")
[ "$got" = "$all_parts" ] && ok "shards: 3 shards run the unsharded plan's parts, each once" ||
  fail "shards: parts $got, want $all_parts"
"$lfcheck" merge "$dir/shard0.json" "$dir/shard1.json" "$dir/shard2.json" --json "$dir/merged.json" >"$dir/merge.out" 2>&1
rc=$?
[ $rc = 0 ] && ok "shards: the merge of all 3 is the night (exit 0)" || { fail "shards: merge exit $rc"; cat "$dir/merge.out"; }
"$lfcheck" merge "$dir/shard0.json" "$dir/shard2.json" --json "$dir/merged2.json" >"$dir/merge2.out" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "INCOMPLETE: the nightly's shards 1/3 are missing" "$dir/merge2.out" &&
  ok "shards: the merge of 2 of 3 is INCOMPLETE (exit 2)" || { fail "shards: merge of 2 exit $rc"; cat "$dir/merge2.out"; }

# the merged JUnit of a failing sharded night: every run named apart (TSan and ASan runs
# of one workload, the chunks of a part), every failure with its table attached
for i in 0 1; do
  nightly vshard$i 1 -- --budget 10 --seed 5 --fault fake.a --shard $i/2
done
"$lfcheck" merge "$dir/vshard0.json" "$dir/vshard1.json" --json "$dir/vmerged.json" --junit "$dir/vmerged.xml" \
  >"$dir/vmerge.out" 2>&1
rc=$?
if [ $rc = 1 ] && /usr/bin/python3 "$here/verdict_rules.py" 1 "$dir/vmerged.json" "$dir/vmerged.xml" >"$dir/vmerge.rules"; then
  got=$(/usr/bin/python3 - "$dir/vmerged.xml" <<'PY'
import collections, sys, xml.etree.ElementTree as ET
cases = list(ET.parse(sys.argv[1]).iter("testcase"))
twice = [k for k, n in collections.Counter((c.get("classname"), c.get("name")) for c in cases).items() if n > 1]
fails = [e for e in ET.parse(sys.argv[1]).iter("failure")]
print(len(twice), len(fails), sum("table row" in (e.text or "") for e in fails))
PY
)
  set -- $got
  [ "$1" = 0 ] && ok "shards: the merged JUnit of a failing night names every run apart" ||
    fail "shards: the merged JUnit names $1 testcases twice"
  [ "$2" -ge 4 ] && [ "$2" = "$3" ] && ok "shards: every failure in the merged JUnit carries its table" ||
    fail "shards: $3 of $2 failures in the merged JUnit carry their table"
else
  fail "shards: merged failing night: exit $rc (want 1): $(cat "$dir/vmerge.rules" 2>/dev/null)"; tail -5 "$dir/vmerge.out"
fi

# groups: every row group of the kill matrix, each row once
if later groups 0; then
  got=$(q "$dir/groups.json" '(sum(p["chunks"] for p in n["parts"] if p["kind"] == "kill-matrix"), sorted(r.get("fault") for r in runs if r.get("fault")), sum(1 for r in runs if r.get("correct_code")))')
  [ "$got" = "(3, ['fake.a', 'fake.b'], 1)" ] &&
    ok "groups: 3 row groups ran, the 2 faults and the correct-code cell each once" || fail "groups: (groups, faults, cells) $got"
  grep -q "2 of 2 faults caught" "$dir/groups.out" && ok "groups: the summary counts 2 faults" ||
    fail "groups: summary: $(grep 'kill matrix' "$dir/groups.out")"
fi

# report: the JSON cannot be written when the night ends (its directory became a file
# meanwhile): exit 2 and no JUnit
mkdir -p "$dir/gone"
timeout 300 /usr/bin/python3 "$here/../tools/nightly.py" --driver "$here/fake_driver.py" --build "$build" \
  --out "$dir/nojson.out.d" --json "$dir/gone/n.json" --junit "$dir/nojson.xml" --budget 10 --seed 5 \
  >"$dir/nojson.out" 2>&1 &
pid=$!
for _ in $(seq 600); do grep -q "chunk 0" "$dir/nojson.out" 2>/dev/null && break; sleep 0.1; done
rm -rf "$dir/gone" && touch "$dir/gone"
wait $pid
rc=$?
[ $rc = 2 ] && [ ! -e "$dir/nojson.xml" ] && ok "report: a JSON that cannot be written is exit 2, with no JUnit" ||
  fail "report: JSON unwritable: exit $rc, JUnit $( [ -e "$dir/nojson.xml" ] && echo written || echo absent)"

# fault
# (120 s: time left in the second phase for the verify part's ladder; every part fails at
# once, so the night ends in seconds)
if nightly fault 1 -- --budget 120 --seed 5 --fault fake.a; then
  grep -q "FAKE FAILURE: fake.a" "$dir/fault.out" && grep -q "replay: $here/fake_driver.py replay $dir/fault.out.d/artifacts/" "$dir/fault.out" &&
    ok "fault: the fault's failure and its replay line are in the summary" || fail "fault: no failure or replay line in the summary"
  got=$(q "$dir/fault.json" 'sorted({r["nightly_part"] for r in runs if r["verdict"] == "fail" and r.get("replay")})')
  [ "$got" = "['asan.fake', 'lin.fake', 'model.fake', 'tsan.fake', 'verify.fake']" ] &&
    ok "fault: every part of the fault's structure ran it and failed with a replay file" || fail "fault: failing parts $got"
  got=$(q "$dir/fault.json" 'sorted(u["part"] for u in n["unchecked"])')
  [ "$got" = "['*.plain', 'kill-matrix', 'model.plain', 'lin.plain']" ] || [[ "$got" == *"'*.plain'"*"'kill-matrix'"* ]] &&
    ok "fault: the other structure and the kill matrix are listed as not checked" || fail "fault: unchecked $got"
fi

if FAKE_HIDDEN_FAULT=1 nightly faultmissed 1 -- --budget 10 --seed 5 --fault fake.a; then
  got=$(q "$dir/faultmissed.json" '[r["failure"] for r in runs if r["verdict"] == "fail"]')
  [[ "$got" == *"MISSED"*"fake.a"* ]] && ok "fault: a --fault night that never caught the fault fails (MISSED)" ||
    fail "fault: not caught, runs failing: $got"
fi
if FAKE_HIDDEN_FAULT=1 FAKE_OUTCOMES=model=signal,lin=signal,tsan=signal,asan=signal \
     nightly faultunrun 2 -- --budget 10 --seed 5 --fault fake.a; then
  got=$(q "$dir/faultunrun.json" '[(r["verdict"], r["failure"][:11]) for r in runs if r.get("check") == "fault"]')
  [ "$got" = "[('error', 'NOT CHECKED')]" ] &&
    ok "fault: a --fault night in which no part reported is NOT CHECKED (error), not MISSED" ||
    fail "fault: no part reported: fault rows $got"
fi
for i in 0 1; do
  FAKE_HIDDEN_FAULT=1 nightly fshard$i 0 -- --budget 10 --seed 5 --fault fake.a --shard $i/2
done
"$lfcheck" merge "$dir/fshard0.json" "$dir/fshard1.json" --json "$dir/fmerged.json" --junit "$dir/fmerged.xml" \
  >"$dir/fmerge.out" 2>&1
rc=$?
got=$(q "$dir/fmerged.json" '[r["failure"] for r in runs if r.get("check") == "fault"]' 2>&1)
[ $rc = 1 ] && [[ "$got" == *"MISSED"*"fake.a"* ]] &&
  /usr/bin/python3 "$here/verdict_rules.py" 1 "$dir/fmerged.json" "$dir/fmerged.xml" >/dev/null &&
  ok "fault: the merge of a sharded --fault night that never caught it fails (MISSED)" ||
  fail "fault: sharded, not caught: merge exit $rc, fault rows $got"

# missed
if FAKE_OUTCOMES=mutants=missed nightly missed 1 -- --budget 10 --seed 5; then
  got=$(q "$dir/missed.json" '[r["failure"] for r in runs if r.get("fault") == "fake.b" and r["verdict"] == "fail"][:1]')
  [[ "$got" == *MISSED* ]] && ok "missed: the missed fault fails the night" || fail "missed: no failing run of fake.b ($got)"
fi

# died
if FAKE_OUTCOMES=lin=signal nightly died 2 -- --budget 10 --seed 5; then
  got=$(q "$dir/died.json" '[r["failure"] for r in runs if r["nightly_part"] == "lin.fake" and r["verdict"] == "error"][:1]')
  [[ "$got" == *"NO REPORT"*"signal 11"* ]] && ok "died: a chunk killed by a signal is an error run" || fail "died: $got"
fi

# sigterm
FAKE_OUTCOMES=lin=interruptible /usr/bin/python3 "$here/../tools/nightly.py" --driver "$here/fake_driver.py" \
  --build "$build" --out "$dir/term.out.d" --json "$dir/term.json" --junit "$dir/term.xml" --budget 30 --seed 5 \
  >"$dir/term.out" 2>"$dir/term.err" &
pid=$!
for _ in $(seq 600); do grep -q "lin.fake chunk 0" "$dir/term.out" 2>/dev/null && break; sleep 0.1; done
sleep 0.5
kill -TERM $pid
wait $pid
rc=$?
if [ $rc = 2 ] && /usr/bin/python3 "$here/verdict_rules.py" 2 "$dir/term.json" "$dir/term.xml" >"$dir/term.rules"; then
  got=$(q "$dir/term.json" '(sorted(r["nightly_part"] for r in runs if r.get("failure") == "interrupted: not run"), [r["failure"] for r in runs if r["nightly_part"] == "lin.fake"], parts["model.fake"]["verdict"])')
  [[ "$got" == "(['asan.fake', 'asan.plain', "*"'tsan.fake', 'tsan.plain', 'verify.fake'], ['interrupted'], 'pass')" ]] &&
    ok "sigterm: exit 2; what finished kept, the stopped chunk and the parts not started marked" || fail "sigterm: $got"
else
  fail "sigterm: exit $rc (want 2) or report: $(cat "$dir/term.rules" 2>/dev/null)"; tail -5 "$dir/term.out"
fi

# deadline
if FAKE_OUTCOMES=model=interruptible LFCHECK_NIGHTLY_GRACE=1 nightly deadline 2 -- --budget 3 --seed 5; then
  got=$(q "$dir/deadline.json" '[r["failure"] for r in runs if r["nightly_part"] == "model.fake"][:1]')
  [[ "$got" == *"the nightly's budget ended during this run"* ]] &&
    ok "deadline: the chunk over the budget is stopped, an error that says so" || fail "deadline: $got"
  got=$(q "$dir/deadline.json" '[r["failure"] for r in runs if r["nightly_part"] == "lin.fake"]')
  [[ "$got" == '["not run: the night'"'"'s budget and its grace ended before this part"]' ]] &&
    ok "deadline: a part the budget left no time to start is an error, not left out" || fail "deadline: lin.fake $got"
fi

# matrix
if FAKE_SECONDS=1 nightly nomatrix 0 -- --budget 3 --seed 5; then
  got=$(q "$dir/nomatrix.json" '(sum(p["chunks"] for p in n["parts"] if p["kind"] == "kill-matrix"), sorted(p["part"] for p in n["parts"] if p["chunks"] == 0 and p["kind"] not in ("kill-matrix", "verify")))')
  [ "$got" = "(1, [])" ] &&
    ok "matrix: a budget with time for every part's first chunk only still runs a kill-matrix row (and every part)" ||
    fail "matrix: (rows run, parts without a chunk) $got"
fi
if FAKE_OUTCOMES=mutants=overbudget nightly overbudget 2 -- --budget 10 --seed 5; then
  got=$(q "$dir/overbudget.json" 'sorted({r["failure"] for r in runs if r["verdict"] != "pass"})')
  [ "$got" = "['correct code: over budget: not checked']" ] &&
    ok "matrix: an over-budget correct-code cell is an error, and mutants' exit 1 is what its matrix says" ||
    fail "matrix: over budget: $got"
fi

# nosub
# verify: a night with time left for the verify part's ladder (at least 10 s of its share)
if later verify 0; then
  grep -q '^verify fake --ladder --max-seconds [0-9]* ' "$dir/verify.log" && grep -q '^  fake: verified up to 2×1 (+1)' "$dir/verify.out" &&
    [ "$(q "$dir/verify.json" 'parts["verify.fake"].get("verified_up_to")')" = "2×1 (+1)" ] &&
    ok "verify: the verify part's ladder, and the summary says how far it verified" ||
    fail "verify: no verify ladder, or the summary does not say what it verified"
fi
sed 's/^sanitizer_subbuilds\tON/sanitizer_subbuilds\tOFF/' "$build/lfcheck-manifest.txt" >"$dir/manifest.off"
mkdir -p "$dir/nosub-build" && cp "$dir/manifest.off" "$dir/nosub-build/lfcheck-manifest.txt"
if FAKE_LOG=$dir/nosub.log build=$dir/nosub-build nightly nosub 0 -- --budget 10 --seed 5; then
  got=$(q "$dir/nosub.json" 'sorted(parts)')
  [ "$got" = "['lin.fake', 'model.fake', 'verify.fake']" ] && ok "nosub: only the model, verify and lin parts" || fail "nosub: parts $got"
  lins=$(grep -c '^lin ' "$dir/nosub.log") others=$(grep '^lin ' "$dir/nosub.log" | grep -vc -- '--layer model')
  [ "$lins" -ge 1 ] && [ "$others" = 0 ] && ok "nosub: lin runs its model layer only ($lins chunks)" ||
    fail "nosub: $lins lin chunks, $others without --layer model"
  got=$(q "$dir/nosub.json" 'sorted(u["part"] for u in n["unchecked"] if "sub-builds" in u["reason"])')
  [[ "$got" == *"'asan.fake'"*"'kill-matrix'"*"'tsan.plain'"* ]] && ok "nosub: what it cannot run is listed, with why" ||
    fail "nosub: unchecked $got"
fi

# fuzz
mkdir -p "$dir/fuzz-build/models" && cp "$build/lfcheck-manifest.txt" "$dir/fuzz-build/"
printf '#!/bin/sh\nexit 2\n' >"$dir/fuzz-build/models/lfcheck-dpor-fuzz" && chmod +x "$dir/fuzz-build/models/lfcheck-dpor-fuzz"
if FAKE_LOG=$dir/fuzz.log build=$dir/fuzz-build nightly fuzz 0 -- --budget 20 --seed 5; then
  got=$(q "$dir/fuzz.json" '(parts["dpor-fuzz.lfcheck"]["chunks"], parts["dpor-fuzz.lfcheck"]["work"].get("programs"))')
  [ "$got" = "(1, 40)" ] && ok "fuzz: the dpor-fuzz part ran once, its programs counted" || fail "fuzz: part $got"
  grep -q '^dpor-fuzz --seed [0-9]* --max-seconds [0-9]* --quiet' "$dir/fuzz.log" &&
    ok "fuzz: it runs for its share (--max-seconds)" || fail "fuzz: no dpor-fuzz run with --max-seconds"
  grep -q '^dpor fuzz (dpor against the full search): pass 40 programs' "$dir/fuzz.out" &&
    ok "fuzz: the summary has its line" || fail "fuzz: no summary line"
fi
if build=$dir/fuzz-build nightly fuzzfault 1 -- --budget 10 --seed 5 --fault fake.a; then
  got=$(q "$dir/fuzzfault.json" '[u["part"] for u in n["unchecked"] if u["part"] == "dpor-fuzz"], "dpor-fuzz.lfcheck" in parts')
  [ "$got" = "(['dpor-fuzz'], False)" ] && ok "fuzz: a --fault night lists it as not checked" || fail "fuzz: --fault: $got"
fi
got=$(q "$dir/plan.json" '[p for p in parts if p.startswith("dpor-fuzz")]' 2>/dev/null)
[ "$got" = "[]" ] && ok "fuzz: a build without the fuzzer has no dpor-fuzz part" || fail "fuzz: without it: $got"

# reuse
nightly reuse1 0 -- --budget 10 --seed 5 && mv "$dir/reuse1.out.d" "$dir/reuse.out.d"
if FAKE_OUTCOMES=lin=signal timeout 300 /usr/bin/python3 "$here/../tools/nightly.py" --driver "$here/fake_driver.py" \
     --build "$build" --out "$dir/reuse.out.d" --json "$dir/reuse.json" --budget 10 --seed 5 >"$dir/reuse.out" 2>&1 ||
   true; then
  got=$(q "$dir/reuse.json" '[r["verdict"] for r in runs if r["nightly_part"] == "lin.fake"]')
  [ "$got" = "['error']" ] && ok "reuse: a chunk that wrote nothing is an error, not an earlier night's pass" ||
    fail "reuse: lin.fake runs $got"
fi

# the least budget: refused up front, with the smallest that works, and nothing run
: >"$dir/least.log"
env -u LFCHECK_NIGHTLY_FIRST_SECONDS FAKE_LOG=$dir/least.log LFCHECK_BUILD_DIR=$build LFCHECK_SKIP_SETUP=1 \
  "$lfcheck" nightly --budget 2m --seed 5 >"$dir/least.out" 2>"$dir/least.err"
rc=$?
[ $rc = 2 ] && [ "$(wc -l <"$dir/least.err")" = 1 ] && grep -q "the smallest that works is --budget 3m" "$dir/least.err" &&
  ! grep -q . "$dir/least.log" && ok "least: --budget 2m refused up front: the smallest that works is 3m" ||
  fail "least: exit $rc: $(cat "$dir/least.err"); ran: $(head -3 "$dir/least.log")"
timeout 300 env -u LFCHECK_NIGHTLY_FIRST_SECONDS /usr/bin/python3 "$here/../tools/nightly.py" --driver "$here/fake_driver.py" \
  --build "$build" --out "$dir/least3.out.d" --json "$dir/least3.json" --budget 2m --seed 5 --fault fake.a \
  >"$dir/least3.out" 2>"$dir/least3.err"
rc=$?
# (a --fault night runs the fault's structure only: fewer parts, a smaller least budget)
[ $rc = 1 ] && ok "least: a --fault night's smaller plan fits 2m (exit 1: its fault found)" ||
  fail "least: --fault fake.a --budget 2m: exit $rc: $(tail -2 "$dir/least3.err")"

# usage (through ./lfcheck: refused before anything is built)
for bad in "--budget x" "--budget 1m" "--shard 2/2" "--seed 0" "--threads 1" "--bogus"; do
  env -u LFCHECK_NIGHTLY_FIRST_SECONDS LFCHECK_BUILD_DIR=$build LFCHECK_SKIP_SETUP=1 "$lfcheck" nightly $bad \
    >"$dir/usage.out" 2>"$dir/usage.err"
  rc=$?
  [ $rc = 2 ] && [ "$(wc -l <"$dir/usage.err")" = 1 ] && ok "usage: nightly $bad: exit 2, one line" ||
    { fail "usage: nightly $bad: exit $rc"; cat "$dir/usage.err"; }
done

/usr/bin/python3 "$here/../tools/nightly.py" --driver "$here/fake_driver.py" --build "$build" --out "$dir/amb.out.d" \
  --budget 10 --seed 5 --fault a >"$dir/ambiguous.out" 2>"$dir/ambiguous.err"
rc=$?
[ $rc = 2 ] && grep -q "fault 'a' is ambiguous: fake.a, plain.a" "$dir/ambiguous.err" &&
  ok "usage: an ambiguous fault name is refused (exit 2)" || fail "usage: ambiguous: exit $rc: $(cat "$dir/ambiguous.err")"

echo "nightly_truth: $failed failed"
[ $failed -eq 0 ]
