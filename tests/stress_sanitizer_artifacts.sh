#!/usr/bin/env bash
# stress_sanitizer_artifacts.sh TSAN_STRESS — a stress run that ThreadSanitizer ends
# (issue 16) leaves the four artifacts a person needs, and each one parses: the
# per-thread table of the last operations, the Chrome/Perfetto trace, the replay file
# and a short report (the first race, both access stacks, project frames, short
# names, no symbolizer noise). The race: seeded fault removal.plain_next (plain
# accesses to `next`), which only the TSan stress sees.
set -u
stress=$1
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
ok() { echo "ok:   $*"; }

timeout 600 "$stress" removal --workload removal_storm --fault removal.plain_next --ops 4000000 --seed 1 --quiet \
  --artifacts "$dir/arts" --json "$dir/run.json" >"$dir/out" 2>"$dir/err"
rc=$?
[ $rc -eq 1 ] && ok "TSan ended the run: exit 1" || { fail "exit $rc, want 1"; tail -5 "$dir/out" "$dir/err"; }
grep -q "WARNING: ThreadSanitizer: data race" "$dir/err" && ok "the full report is on stderr" ||
  fail "no ThreadSanitizer data race report on stderr"
stem=$dir/arts/removal.removal_storm.seed1

# 1. table: a header naming the threads and rows of operations.
if [ -s "$stem.table.txt" ] && grep -q "thread 0" "$stem.table.txt" && [ "$(grep -c '|' "$stem.table.txt")" -ge 4 ]; then
  ok "table: $(wc -l <"$stem.table.txt") lines, per-thread columns"
else
  fail "table $stem.table.txt missing or without per-thread rows"
fi
# 2. trace: well-formed, every thread with slices.
/usr/bin/python3 "$here/validate_trace.py" "$stem.trace.json" >"$dir/trace-check" 2>&1 && ok "trace parses" ||
  fail "trace: $(head -3 "$dir/trace-check")"
# 3. replay file: the format, the layer, the failure, the driver's arguments and the
#    command line as printed (the driver's path, and the build tree, that work from anywhere).
if [ "$(head -1 "$stem.replay" 2>/dev/null)" = "lfcheck-replay 1" ] && grep -qx "layer=stress" "$stem.replay" &&
   grep -q "^failure=ThreadSanitizer" "$stem.replay" && grep -q "^args=stress removal .*--seed 1" "$stem.replay" &&
   grep -Eq "^command=[^ ]*lfcheck( --build [^ ]+)? stress removal .*--seed 1" "$stem.replay"; then
  ok "replay file parses: layer stress, the failure, the command"
else
  fail "replay file $stem.replay missing or malformed"; cat "$stem.replay" 2>/dev/null
fi
# 4. short report: the first race, two access stacks with project frames, short.
r=$stem.report.txt
if [ -s "$r" ]; then
  problems=$(/usr/bin/python3 - "$r" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
lines = text.splitlines()
bad = []
if not lines or not lines[0].startswith("WARNING: ThreadSanitizer: data race"): bad.append("first line is not the race's header")
accesses = [i for i, l in enumerate(lines) if re.match(r"  (Previous )?(atomic )?(read|write|Read|Write|Atomic)", l)]
if len(accesses) < 2: bad.append(f"{len(accesses)} access sections, want 2")
for i in accesses[:2]:
    frames = [l for l in lines[i + 1:i + 12] if l.startswith("      ") and re.search(r"(structures|stress|harness)/\S+:\d+$", l)]
    if not frames: bad.append(f"access '{lines[i].strip()}' has no project frame")
for noise in ("LLVMSymbolizer", "BuildId", "lfcheck-stress+0x", "std::mersenne_twister_engine", "/usr/"):
    if noise in text: bad.append(f"noise left: {noise}")
if text.count("WARNING: ThreadSanitizer") != 1: bad.append("more than the first report")
if len(text) > 8000: bad.append(f"{len(text)} bytes, want under 8000")
if not re.search(r"^SUMMARY: ThreadSanitizer: data race \S+:\d+", text, re.M): bad.append("no short SUMMARY line")
print("; ".join(bad))
PY
)
  [ -z "$problems" ] && ok "short report: the first race, both stacks, $(wc -c <"$r") bytes" || { fail "short report: $problems"; cat "$r"; }
else
  fail "no short report $r"
fi
[ ! -e "$stem.rings" ] && ok "the raw rings were rendered and removed" || fail "raw rings $stem.rings left behind"
[ "$(/usr/bin/python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['runs'][-1]; print(r['verdict'], r['failure'])" "$dir/run.json" 2>/dev/null)" = "fail ThreadSanitizer report" ] &&
  ok "JSON: the run failed with the report" || fail "JSON $dir/run.json does not record the failure"
echo "stress sanitizer artifacts: $failed failed"
[ $failed -eq 0 ]
