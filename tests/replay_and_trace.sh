#!/usr/bin/env bash
# replay_and_trace.sh LFCHECK BUILD_DIR — a seeded fault's failure produces the
# per-thread table, a well-formed trace and a replay file, and `./lfcheck replay`
# reproduces the same failure with the same exit status 10 times out of 10, for
# the random and the context-bound scheduler and for a stress failure. The replay
# line a failure prints works as printed from another directory, without
# LFCHECK_BUILD_DIR: the driver's path, and the build tree from the replay file or
# the line (issue 27; before, "./lfcheck replay ..." worked only in lfcheck's source
# tree, and `lfcheck replay FILE` outside a build tree found no build).
set -u
lfcheck=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") build=$2
here=$(cd "$(dirname "$0")" && pwd)
export LFCHECK_BUILD_DIR=$build LFCHECK_SKIP_SETUP=1
dir=$(mktemp -d)
export LFCHECK_ARTIFACTS=$dir
# Where a user of an installed driver stands: no ./lfcheck here, no build tree.
cd "$dir" || exit 1
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

check_model_case() {  # fault scenario scheduler
  local fault=$1 scenario=$2 scheduler=$3 min_flows=$4
  local out rc
  out=$("$lfcheck" model treiber --fault "$fault" --scenario "$scenario" --scheduler "$scheduler" --quiet 2>&1); rc=$?
  [ $rc -eq 1 ] || { fail "$fault/$scenario/$scheduler: exit $rc, want 1"; return; }
  local stem="$dir/treiber.$scenario.$scheduler.$fault"
  for f in table.txt trace.json history.txt replay; do
    [ -s "$stem.$f" ] || fail "$fault: $stem.$f missing"
  done
  echo "$out" | grep -q '^step  thread 0' || fail "$fault: no per-thread table on the terminal"
  echo "$out" | grep -q "replay: [^ ]*lfcheck replay $stem.replay" || fail "$fault: no replay line"
  # The line as printed, where the command ran, with no build directory in the environment.
  line=$(echo "$out" | sed -n 's/^replay: //p')
  env -u LFCHECK_BUILD_DIR bash -c "$line" >/dev/null 2>&1; rc=$?
  [ $rc -eq 1 ] || fail "$fault: the printed replay line '$line' exits $rc, want 1"
  /usr/bin/python3 "$here/validate_trace.py" "$stem.trace.json" --min-flows "$min_flows" || fail "$fault: trace"
  local verdict steps
  verdict=$(grep '!! ' "$stem.table.txt" | sed 's/^ *[0-9]* *//')
  steps=$(grep -c '^ *[0-9]' "$stem.table.txt")
  [ -n "$verdict" ] || fail "$fault: the table has no failing step"
  cp "$stem.replay" "$dir/case.replay"
  local ok=0
  for i in 1 2 3 4 5 6 7 8 9 10; do
    rm -f "$stem.table.txt"  # the replay must write it anew
    out=$("$lfcheck" replay "$dir/case.replay" 2>&1); rc=$?
    local again_verdict again_steps
    again_verdict=$(grep '!! ' "$stem.table.txt" | sed 's/^ *[0-9]* *//')
    again_steps=$(grep -c '^ *[0-9]' "$stem.table.txt")
    if [ $rc -eq 1 ] && [ "$again_verdict" = "$verdict" ] && [ "$again_steps" = "$steps" ]; then
      ok=$((ok + 1))
    else
      echo "  replay $i: exit $rc, verdict '$again_verdict' ($again_steps steps), want '$verdict' ($steps steps)"
    fi
  done
  echo "replay $fault/$scenario/$scheduler: $ok/10 reproduced ($verdict, $steps steps)"
  [ $ok -eq 10 ] || fail "$fault: replay reproduced $ok/10"
}

# relaxed_publish: 0 flows is the fault itself (push's CAS is relaxed: no release
# write for a read to pair with); the validator still requires slices on every thread.
check_model_case relaxed_publish push_push_pop random 0
check_model_case no_aba_tag pop_vs_drain_aba bound 1

# An artifact is written whole or not at all: a writer killed part-way (here by
# SIGXFSZ at a 1 KiB file-size limit; in a run, --first-failure stopping a worker
# that is writing) leaves the complete files of the run before, which still replay.
# Before write_whole_file, the history was cut to 1 KiB in place (CI saw a 0-byte
# replay file of a worker stopped mid-write).
stem="$dir/treiber.pop_vs_drain_aba.bound.no_aba_tag"
for f in history.txt table.txt trace.json replay; do cp "$stem.$f" "$dir/before.$f"; done
big=$(stat -c %s "$stem.history.txt")
(ulimit -f 1; "$lfcheck" model treiber --fault no_aba_tag --scenario pop_vs_drain_aba --scheduler bound --quiet \
  >/dev/null 2>&1) 2>/dev/null; rc=$?
if [ "$big" -le 1024 ]; then
  fail "killed writer: the history ($big bytes) fits the 1 KiB limit, so the limit kills nothing"
elif [ $rc -le 2 ]; then
  fail "killed writer: exit $rc under a 1 KiB file-size limit, want death by SIGXFSZ"
else
  whole=1
  for f in history.txt table.txt trace.json replay; do
    cmp -s "$stem.$f" "$dir/before.$f" || { whole=0; fail "killed writer: $stem.$f is not the whole earlier file ($(stat -c %s "$stem.$f") bytes, was $(stat -c %s "$dir/before.$f"))"; }
  done
  "$lfcheck" replay "$stem.replay" >/dev/null 2>&1; rc=$?
  [ $rc -eq 1 ] || { whole=0; fail "killed writer: the replay file left behind exits $rc, want 1"; }
  [ $whole = 1 ] && echo "killed writer: every artifact is the earlier whole file, and it replays (exit 1)"
fi

# Stress: the failure writes the table, trace and replay file; replay re-runs the
# same seed (the accounting failure reproduces whatever the timing).
out=$("$lfcheck" stress treiber --sanitizer none --fault take_all_drops_last --ops 50000 --seed 11 --quiet 2>&1); rc=$?
[ $rc -eq 1 ] || fail "stress fault: exit $rc"
for kind in "replay" "replay file"; do  # both printed lines, as printed, with no build directory set
  line=$(echo "$out" | sed -n "s/^  $kind: //p" | head -1)
  env -u LFCHECK_BUILD_DIR bash -c "$line" >/dev/null 2>&1; rc=$?
  [ $rc -eq 1 ] && echo "stress $kind line, as printed: exit 1" ||
    fail "stress: the printed $kind line '$line' exits $rc, want 1"
done
stem="$dir/treiber.push_pop_take_all.seed11"
[ -s "$stem.table.txt" ] && [ -s "$stem.replay" ] || fail "stress artifacts missing"
/usr/bin/python3 "$here/validate_trace.py" "$stem.trace.json" || fail "stress trace"
ok=0
for i in 1 2 3 4 5 6 7 8 9 10; do
  "$lfcheck" replay "$stem.replay" >/dev/null 2>&1 && rc=0 || rc=$?
  [ $rc -eq 1 ] && ok=$((ok + 1))
done
echo "replay stress take_all_drops_last seed 11: $ok/10 reproduced"
[ $ok -eq 10 ] || fail "stress replay reproduced $ok/10"
cd / && rm -rf "$dir"
echo "replay and trace: $failed failed"
[ $failed -eq 0 ]
