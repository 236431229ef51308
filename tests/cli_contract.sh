#!/usr/bin/env bash
# cli_contract.sh LFCHECK BUILD_DIR — the command-line contract of DESIGN §6:
# --help works everywhere (exit 0), bad input is one line on stderr and exit 2,
# and the JSON outputs have the documented fields. Uses the already-built tree.
set -u
lfcheck=$1
export LFCHECK_BUILD_DIR=$2 LFCHECK_SKIP_SETUP=1
failed=0
expect() {  # expect STATUS DESCRIPTION -- command...
  local want=$1 what=$2; shift 3
  "$@" >/tmp/lfcheck-cli.out 2>/tmp/lfcheck-cli.err
  local rc=$?
  if [ $rc -ne "$want" ]; then
    echo "FAIL: $what: exit $rc, want $want"; cat /tmp/lfcheck-cli.out /tmp/lfcheck-cli.err | tail -5
    failed=$((failed + 1))
  else
    echo "ok:   $what (exit $rc)"
  fi
}
expect 0 "lfcheck --help" -- "$lfcheck" --help
expect 2 "no command" -- "$lfcheck"
expect 2 "unknown command" -- "$lfcheck" frobnicate
for c in run test model stress props faults mutants replay bench merge lin verify dpor-fuzz; do
  expect 0 "$c --help" -- "$lfcheck" $c --help
done
expect 2 "model: unknown structure" -- "$lfcheck" model nosuch
expect 2 "model: bad number" -- "$lfcheck" model treiber --iterations 12x
expect 2 "model: zero iterations" -- "$lfcheck" model treiber --iterations 0
expect 2 "model: bad scheduler" -- "$lfcheck" model treiber --scheduler dfs
expect 2 "model: unknown fault" -- "$lfcheck" model treiber --fault nosuch
expect 2 "model: unknown option" -- "$lfcheck" model --frob
expect 2 "model: missing value" -- "$lfcheck" model treiber --bound
expect 2 "model: bad shard" -- "$lfcheck" model treiber --shard 3/3
expect 2 "model: depth 0" -- "$lfcheck" model treiber --scheduler pct --depth 0
expect 2 "model: bad budget" -- "$lfcheck" model treiber --max-seconds -1
expect 2 "merge: no file" -- "$lfcheck" merge
expect 2 "dpor-fuzz: bad load depth" -- "$lfcheck" dpor-fuzz --load-depth 3
expect 2 "dpor-fuzz: unknown feature" -- "$lfcheck" dpor-fuzz --exclude nosuch
expect 2 "dpor-fuzz: --keep without --program" -- "$lfcheck" dpor-fuzz --keep 1
expect 2 "dpor-fuzz: --keep past the program" -- "$lfcheck" dpor-fuzz --seed 1 --program 0 --keep 999
expect 2 "dpor-fuzz: bad --break-dpor" -- "$lfcheck" dpor-fuzz --break-dpor none
expect 2 "dpor-fuzz: a focus it has none of" -- "$lfcheck" dpor-fuzz --focus invariant
expect 2 "dpor-fuzz: a focus it excludes" -- "$lfcheck" dpor-fuzz --focus block-sync --exclude block-sync
expect 2 "stress: threads 0" -- "$lfcheck" stress treiber --threads 0
expect 2 "stress: ops and duration" -- "$lfcheck" stress treiber --ops 10 --duration 1
expect 2 "stress: bad sanitizer" -- "$lfcheck" stress treiber --sanitizer memory
expect 2 "stress: unknown structure" -- "$lfcheck" stress nosuch
# Under ASan the lin.* workloads of a structure with workloads of its own are a binary of
# their own, built on first use (cmake/Lfcheck.cmake): a run that selects them (lin, or a
# lin failure's replay line) goes there, never to lfcheck-stress-NAME, which has none of
# them. Set-up is skipped here: the binary lists them if a run built it, else is named missing.
lin_asan() {  # DESCRIPTION -- command...
  local what=$1; shift 2
  "$@" >/tmp/lfcheck-cli.out 2>/tmp/lfcheck-cli.err
  local rc=$?
  if [ $rc -eq 2 ] && grep -q "missing .*/sanitizer-address/stress/lfcheck-lin-stress-treiber " /tmp/lfcheck-cli.err; then
    echo "ok:   $what: needs lfcheck-lin-stress-treiber, not built (exit 2)"
  elif [ $rc -eq 0 ] && grep -q "treiber/lin.scenarios" /tmp/lfcheck-cli.out; then
    echo "ok:   $what: ran lfcheck-lin-stress-treiber (exit 0)"
  else
    echo "FAIL: $what: exit $rc, want lfcheck-lin-stress-treiber run or named missing"
    tail -n 3 /tmp/lfcheck-cli.out /tmp/lfcheck-cli.err; failed=$((failed + 1))
  fi
}
lin_asan "stress --sanitizer address --workload 'lin.*'" -- \
  "$lfcheck" stress treiber --sanitizer address --workload 'lin.*' --list
lin_asan "lin --sanitizer address" -- \
  "$lfcheck" lin treiber --layer stress --sanitizer address --scenarios 1 --duration 1 --seed 7
# A bad shard is refused with its reason (not merely exit 2).
expect_says() {  # expect_says WORDS DESCRIPTION -- command...: exit 2 and stderr says WORDS
  local words=$1; shift
  expect 2 "$@"
  grep -q -- "$words" /tmp/lfcheck-cli.err || { echo "FAIL: $1: stderr lacks '$words'"; failed=$((failed + 1)); }
}
expect_says "takes I/N" "stress: bad shard" -- "$lfcheck" stress treiber --sanitizer none --shard 1
expect_says "from 0 to 1" "stress: shard index past the total" -- "$lfcheck" stress treiber --sanitizer none --shard 2/2
expect_says "GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS (total)" "stress: empty GTEST_TOTAL_SHARDS" -- \
  env GTEST_SHARD_INDEX=0 GTEST_TOTAL_SHARDS= "$lfcheck" stress treiber --sanitizer none
expect_says "from 1 to" "lin: shard of 0" -- "$lfcheck" lin treiber --layer model --shard 1/0
expect 2 "verify: unknown structure" -- "$lfcheck" verify nosuch
expect 2 "verify: threads 4" -- "$lfcheck" verify treiber --threads 4
expect 2 "verify: bad budget" -- "$lfcheck" verify treiber --max-seconds -1
expect 2 "props: unknown structure" -- "$lfcheck" props nosuch
expect 2 "props: unknown fault" -- "$lfcheck" props treiber --fault nosuch
# Names and faults are exact, never patterns.
expect 2 "props: a pattern for a name" -- "$lfcheck" props 'tre.ber'
expect 2 "props: a pattern for a fault" -- "$lfcheck" props treiber --fault 'take_all_drops_las.'
expect 2 "props: an alternation for a fault" -- "$lfcheck" props treiber --fault 'bogus|'
expect 2 "props: another structure's fault" -- "$lfcheck" props treiber --fault deliqueue.presleep_store
expect 1 "props: a real fault, short name" -- "$lfcheck" props treiber --fault take_all_drops_last
# Zero tests or zero RapidCheck cases are not a pass.
expect 2 "props: a filter that matches no test" -- "$lfcheck" props treiber --gtest_filter=typo
expect 2 "props: RC_PARAMS max_success=0" -- env RC_PARAMS=max_success=0 "$lfcheck" props treiber
expect 2 "props binary: a fault no test that ran has" -- env LFCHECK_FAULT=deliqueue.presleep_store \
  "$2/property_tests/lfcheck-props" --gtest_filter='treiber.*'
# ./lfcheck test: ctest's statuses mapped (a failing test 1, no test selected 2), on
# a stand-in build directory with one passing and one failing test.
fake=$(mktemp -d)
printf 'add_test(passes "/bin/true")\nadd_test(fails "/bin/false")\n' >"$fake/CTestTestfile.cmake"
expect 0 "test: a passing selection" -- env LFCHECK_BUILD_DIR="$fake" "$lfcheck" test -R passes
expect 1 "test: a failing test" -- env LFCHECK_BUILD_DIR="$fake" "$lfcheck" test -R fails
expect 2 "test: a selection with no test" -- env LFCHECK_BUILD_DIR="$fake" "$lfcheck" test -R nosuchtest
rm -rf "$fake"
expect 2 "replay: missing file" -- "$lfcheck" replay /nonexistent.replay
expect 2 "mutants: bad seeds" -- "$lfcheck" mutants --seeds x
# Python commands too: one line, before anything is configured or built ($unbuilt stays empty).
unbuilt=$(mktemp -d)
# one_line WHAT: the last command's error was one line on stderr.
one_line() {
  [ "$(wc -l </tmp/lfcheck-cli.err)" -eq 1 ] ||
    { echo "FAIL: $1: $(wc -l </tmp/lfcheck-cli.err) lines on stderr, want 1"; head -3 /tmp/lfcheck-cli.err; failed=$((failed + 1)); }
}
one_line "mutants: bad seeds"
expect 2 "mutants: budget 0" -- env -u LFCHECK_SKIP_SETUP LFCHECK_BUILD_DIR="$unbuilt" "$lfcheck" mutants --budget 0
one_line "mutants: budget 0"
# bench: a bad argument is a usage error before anything is configured or built.
expect 2 "bench: --plot without a file" -- env -u LFCHECK_SKIP_SETUP LFCHECK_BUILD_DIR="$unbuilt" "$lfcheck" bench --plot
one_line "bench: --plot without a file"
[ -z "$(ls -A "$unbuilt")" ] || { echo "FAIL: a usage error configured a build first"; failed=$((failed + 1)); }
rm -rf "$unbuilt"
# A binary that is not there (a build that did not make it) is a set-up error, 2.
empty=$(mktemp -d)
for c in "model treiber" "faults" "stress treiber" "stress treiber --sanitizer none" "props" "props treiber" "mutants treiber"; do
  expect 2 "$c: binary missing" -- env LFCHECK_BUILD_DIR="$empty" "$lfcheck" $c
done
rmdir "$empty"
expect 0 "faults treiber" -- "$lfcheck" faults treiber
grep -q '^treiber\.no_aba_tag ' /tmp/lfcheck-cli.out || { echo "FAIL: faults output lacks treiber.no_aba_tag"; failed=$((failed + 1)); }

# JSON of a short model run and a short stress run: the documented fields.
json=$(mktemp)
expect 0 "model json" -- "$lfcheck" model treiber --scenario push_vs_pop --scheduler random --iterations 1000 --quiet --json "$json"
for k in structure scenario scheduler iterations exhaustive verdict seconds; do
  grep -q "\"$k\":" "$json" || { echo "FAIL: model JSON lacks $k"; failed=$((failed + 1)); }
done
grep -q '"iterations":1000' "$json" || { echo "FAIL: model JSON does not report the 1000 iterations run"; failed=$((failed + 1)); }
expect 0 "stress json (no sanitizer)" -- "$lfcheck" stress treiber --sanitizer none --ops 20000 --seed 7 --quiet --json "$json"
head -1 /tmp/lfcheck-cli.out | grep -q '^seed: 7$' || { echo "FAIL: stress does not print its seed first"; failed=$((failed + 1)); }
for k in structure workload threads seed ops seconds verdict; do
  grep -q "\"$k\":" "$json" || { echo "FAIL: stress JSON lacks $k"; failed=$((failed + 1)); }
done
expect 1 "stress fault exits 1 with replay line" -- "$lfcheck" stress treiber --sanitizer none --fault take_all_drops_last --ops 20000 --seed 7 --quiet --json "$json"
grep -q 'replay: [^ ]*lfcheck --build [^ ]* stress treiber .*--seed 7' /tmp/lfcheck-cli.out || { echo "FAIL: no replay line"; failed=$((failed + 1)); }
grep -q '"verdict":"fail"' "$json" || { echo "FAIL: failing stress JSON lacks verdict fail"; failed=$((failed + 1)); }
# lin --jobs: both layers at once, the same runs and verdicts as one after the other.
expect 2 "lin: jobs 0" -- "$lfcheck" lin shutdown --jobs 0
for j in 1 2; do
  expect 0 "lin --jobs $j" -- "$lfcheck" lin shutdown --scenarios 2 --duration 2 --seed 7 --sanitizer none --jobs $j \
    --quiet --json "$json.lin$j"
done
same=$(/usr/bin/python3 -c "
import json, sys
def runs(p):
    return sorted((r['structure'], r['layer'], r.get('workload', ''), r.get('scenarios', 0), r['verdict'])
                  for r in json.load(open(p))['runs'])
a, b = runs(sys.argv[1]), runs(sys.argv[2])
print('ok' if a == b and {r[1] for r in a} == {'model', 'stress'} else 'jobs 1: %s; jobs 2: %s' % (a, b))" "$json.lin1" "$json.lin2" 2>&1)
[ "$same" = ok ] || { echo "FAIL: lin --jobs 2 differs from --jobs 1: $same"; failed=$((failed + 1)); }
rm -f "$json" "$json.lin1" "$json.lin2"
echo "cli contract: $failed failed"
[ $failed -eq 0 ]
