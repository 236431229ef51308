#!/usr/bin/env bash
# dpor_fuzz_bites.sh FUZZER — the DPOR fuzzer (issue 43) fails when DPOR is wrong: with
# a test-only fault that tells DPOR wrong announcements (--break-dpor: an atomic store
# announced as a load, or a free announced not at all — dependence bugs the full search
# does not see), a short run must find a disagreement (exit 1), and that disagreement
# must be the fault's: its program, replayed without the fault, agrees (exit 0). Also:
# the run's records hold to verdict_rules.py, and its replay line (./lfcheck dpor-fuzz
# ARGS; run here as FUZZER ARGS) shows it again.
set -u
fuzzer=$1
source "$(dirname "$0")/truth_lib.sh"
# Programs of 2 threads at load depth 1; --exclude leaves out the classes of issue 43's
# open findings (as model.dpor_fuzz does: tests/CMakeLists.txt), so that what it finds is the fault's.
common=(--seed 7 --programs 60 --threads 2 --load-depth 1
        --exclude hook-allocations,standalone-hints,invariant,await-writes,block-constructors,timed-waits)
for fault in store-as-load free-unannounced; do
  if run "$fault" 1 -- "$fuzzer" "${common[@]}" --break-dpor "$fault"; then
    replay=$(field "$dir/$fault.json" 1 replay)
    finding=$(field "$dir/$fault.json" 1 finding)
    [ -n "$replay" ] && ok "$fault: a disagreement found ($finding)" || { fail "$fault: no disagreement record"; continue; }
    # The replay line names the fault: it shows the disagreement again...
    read -r -a words <<<"$replay"
    [ "${words[*]:0:2}" = "./lfcheck dpor-fuzz" ] || fail "$fault: the replay line is not ./lfcheck dpor-fuzz ...: $replay"
    "$fuzzer" "${words[@]:2}" >"$dir/$fault.replay.out" 2>&1
    rc=$?
    [ $rc = 1 ] && grep -q "^DISAGREEMENT" "$dir/$fault.replay.out" && ok "$fault: its replay line shows it again" ||
      fail "$fault: replay exit $rc"
    # ... and without the fault, the same program agrees: the fault made it.
    clean=("${words[@]:2}")
    clean=("${clean[@]/--break-dpor/}"); clean=("${clean[@]/$fault/}")
    "$fuzzer" ${clean[@]} >"$dir/$fault.clean.out" 2>&1
    rc=$?
    [ $rc = 0 ] && ok "$fault: without the fault the same program agrees" ||
      { fail "$fault: without the fault, exit $rc"; tail -n 20 "$dir/$fault.clean.out"; }
  fi
done
echo "dpor_fuzz_bites: $failed failed"
[ $failed -eq 0 ]
