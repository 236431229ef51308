#!/usr/bin/env bash
# model_litmus_truth.sh LITMUS LITMUS_HPP table|TEST — the litmus tests of
# lfcheck-model-litmus (models/selftest/litmus/) against their known answers: the
# table at the top of LITMUS_HPP (models/selftest/litmus/litmus.hpp), one row per
# scenario:
#   scenario  C++-answer  RC11-answer  Relacy-column  weak-outcome...
# "table" checks the table; TEST (mp, s, lb, sb, r, 2p2w, corr, iriw) runs the rows of
# that test's variants:
#   table      every registered scenario has exactly one row and every row a
#              scenario; all eight tests (MP, S, LB, SB, R, 2+2W, CoRR, IRIW) are
#              there; the Relacy column agrees with the C++ one (reached and limit
#              only where C++ allows the weak outcome, unreached only where it
#              forbids it)
#   correct    without a fault every scenario passes the full search, exhaustively
#   reached    with litmus.weak_seen the full, bound-2 and DPOR searches and pct fail,
#              exit 1, USER ASSERT FAILED with the litmus check's message
#   unreached, with litmus.weak_seen the full, bound-2 and DPOR searches pass,
#   limit      exhaustively, and pct passes 100000 sampled executions
# Every run's JSON and JUnit also go through verdict_rules.py. No timing is asserted.
set -u
bin=$1 table=$2 what=$3
source "$(dirname "$0")/truth_lib.sh"
message="litmus: the weak outcome appeared"

rows=$(grep -E '^//   [a-z0-9_]+ +(allowed|forbidden) +(allowed|forbidden) +(reached|unreached|limit)( |$)' "$table" |
       awk '{print $2, $3, $4, $5}')
listed=$("$bin" litmus --list | awk '{print $1}' | sed 's|^litmus/||' | sort)
tabled=$(echo "$rows" | awk '{print $1}' | sort)
if [ "$what" = table ]; then
  if [ -z "$listed" ] || [ "$listed" != "$tabled" ]; then
    fail "table: scenarios and rows differ (< registered, > in the table):"
    diff <(echo "$listed") <(echo "$tabled")
  else
    ok "table: $(echo "$rows" | grep -c .) rows, one per registered scenario"
  fi
  for t in mp s lb sb r 2p2w corr iriw; do
    echo "$tabled" | grep -q "^${t}_" || fail "table: no variant of litmus test $t"
  done
  while read -r name cpp rc11 relacy; do
    [ -n "$name" ] || continue
    case $relacy in
      reached | limit) [ "$cpp" = allowed ] || fail "$name: '$relacy' for an outcome C++ forbids" ;;
      unreached) [ "$cpp" = forbidden ] || fail "$name: 'unreached' for an outcome C++ allows (a limit?)" ;;
    esac
  done <<< "$rows"
  echo "$failed failed"
  [ $failed -eq 0 ]
  exit
fi

mine=$(echo "$rows" | grep "^${what}_")
[ -n "$mine" ] || fail "no row of litmus test '$what' in $table"
while read -r name cpp rc11 relacy; do
  [ -n "$name" ] || continue
  if run $name-correct 0 -- "$bin" litmus --scenario $name --scheduler full --jobs 1; then
    [ "$(field "$dir/$name-correct.json" 0 exhaustive)" = True ] ||
      fail "$name, correct code, full: not exhaustive"
  fi
  for s in full bound dpor pct; do
    args=(litmus --scenario $name --fault litmus.weak_seen --scheduler $s --jobs 1)
    if [ $relacy = reached ]; then
      run $name-$s 1 -- "$bin" "${args[@]}" --first-failure --history --artifacts "$dir/arts" || continue
      got=$(field "$dir/$name-$s.json" 0 failure) it=$(field "$dir/$name-$s.json" 0 iterations)
      if [ "$got" != "USER ASSERT FAILED" ] || ! grep -qF "$message" "$dir/$name-$s.out"; then
        fail "$name, weak_seen, $s: failure '$got' without '$message'"
      else
        ok "$name ($cpp, $relacy), $s: weak outcome reached after $it executions"
      fi
    else
      run $name-$s 0 -- "$bin" "${args[@]}" || continue
      ex=$(field "$dir/$name-$s.json" 0 exhaustive) it=$(field "$dir/$name-$s.json" 0 iterations)
      if [ $s = pct ]; then
        [ "$it" = 100008 ] && ok "$name ($cpp, $relacy), pct: not reached in 100000 executions (and 8 calibration)" ||
          fail "$name, weak_seen, pct: $it executions, want 100008 (100000 and PCT's 8 calibration executions)"
      else
        [ "$ex" = True ] && ok "$name ($cpp, $relacy), $s: exhaustive, not reached ($it executions)" ||
          fail "$name, weak_seen, $s: exhaustive '$ex' after $it executions"
      fi
    fi
  done
done <<< "$mine"

echo "$failed failed"
[ $failed -eq 0 ]
