#!/usr/bin/env bash
# build_lock.sh LFCHECK — two ./lfcheck commands at once (issue 16): builds are
# serialised by the flock on the build directory, no build runs while another
# command runs a binary of that directory (none is relinked under a running
# process), and each command has its own build log. Runs the real script against a
# scratch build directory with a stand-in `cmake` (1 s "build") and a stand-in
# lfcheck-model (2 s "run") that log when they start and end.
set -u
lfcheck=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/build/models"
touch "$tmp/build/build.ninja"  # configured
# One structure with a model layer (the manifest cmake/Lfcheck.cmake writes).
printf 'structure\tstandin\tmodel\t-\n' >"$tmp/build/lfcheck-manifest.txt"
events=$tmp/events
cat >"$tmp/bin/cmake" <<STUB
#!/bin/sh
echo "build-start \$(date +%s.%N)" >>"$events"
sleep 1
echo "build-end \$(date +%s.%N)" >>"$events"
STUB
cat >"$tmp/build/models/lfcheck-model" <<STUB
#!/bin/sh
echo "run-start \$(date +%s.%N)" >>"$events"
sleep 2
echo "run-end \$(date +%s.%N)" >>"$events"
STUB
chmod +x "$tmp/bin/cmake" "$tmp/build/models/lfcheck-model"
export PATH=$tmp/bin:$PATH LFCHECK_BUILD_DIR=$tmp/build
"$lfcheck" model >"$tmp/a.out" 2>"$tmp/a.err" &
a=$!
sleep 0.3
"$lfcheck" model >"$tmp/b.out" 2>"$tmp/b.err" &
b=$!
wait $a; rc_a=$?
wait $b; rc_b=$?
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
ok() { echo "ok:   $*"; }
[ $rc_a -eq 0 ] && [ $rc_b -eq 0 ] && ok "both commands ran (exit 0)" ||
  { fail "exit statuses $rc_a and $rc_b, want 0 and 0"; cat "$tmp/a.err" "$tmp/b.err"; }
verdict=$(sort -k2 -n "$events" | awk '
  $1 == "build-start" { if (builds || runs) bad = bad " a build started while " builds " build(s) and " runs " run(s) were going;"; builds++; nb++ }
  $1 == "build-end"   { builds-- }
  $1 == "run-start"   { if (builds) bad = bad " a binary started during a build;"; runs++; nr++ }
  $1 == "run-end"     { runs-- }
  END { if (nb != 2 || nr != 2) bad = bad " " nb " builds and " nr " runs, want 2 and 2;"; print bad ? bad : "ok" }')
[ "$verdict" = ok ] && ok "builds serialised, none during another command's run" || { fail "$verdict"; sort -k2 -n "$events"; }
grep -q "waiting for another ./lfcheck command" "$tmp/b.err" && ok "the second command said it waits" ||
  fail "the second command did not say it waits: $(cat "$tmp/b.err")"
log_a=$(sed -n 's/.*(log: \(.*\))$/\1/p' "$tmp/a.err") log_b=$(sed -n 's/.*(log: \(.*\))$/\1/p' "$tmp/b.err")
[ -n "$log_a" ] && [ -n "$log_b" ] && [ "$log_a" != "$log_b" ] && ok "one build log per command" ||
  fail "build logs '$log_a' and '$log_b': want two different ones"
echo "build lock: $failed failed"
[ $failed -eq 0 ]
