#!/usr/bin/python3
"""validate_trace.py TRACE.json [--min-flows N]: checks a Chrome/Perfetto trace
written by lfcheck is well formed and shows the failing execution: JSON with
traceEvents; every event has ph, ts, pid and tid; at least one thread is named
(thread_name metadata) and every named thread has at least one slice (ph X) — an
empty trace, or a thread of the execution with nothing on its track, is a problem;
complete slices of one thread nest (never partly overlap); every flow start (ph s)
pairs with exactly one flow end (ph f) of the same id, not earlier than it. Exit 0
if so, 1 with the first problems otherwise."""
import json
import sys

def main():
    path = sys.argv[1]
    min_flows = int(sys.argv[sys.argv.index("--min-flows") + 1]) if "--min-flows" in sys.argv else 0
    with open(path) as f:
        trace = json.load(f)
    events = trace["traceEvents"]
    problems = []
    for i, e in enumerate(events):
        for key in ("ph", "ts", "pid", "tid"):
            if key not in e:
                problems.append(f"event {i} lacks {key}: {e}")
    named = {e.get("tid") for e in events if e.get("ph") == "M" and e.get("name") == "thread_name"}
    if not named:
        problems.append("no thread is named (no thread_name metadata): the trace shows no execution")
    slices = {}
    for e in events:
        if e.get("ph") == "X":
            if e.get("dur", -1) < 0:
                problems.append(f"slice without a non-negative dur: {e}")
            slices.setdefault(e["tid"], []).append((e["ts"], e["ts"] + e["dur"], e["name"]))
    for tid, spans in slices.items():
        spans.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for begin, end, name in spans:
            while stack and stack[-1][1] <= begin:
                stack.pop()
            if stack and end > stack[-1][1]:
                problems.append(f"thread {tid}: slice {name} [{begin},{end}] overlaps {stack[-1][2]} "
                                f"[{stack[-1][0]},{stack[-1][1]}] without nesting")
            stack.append((begin, end, name))
    for tid in sorted(t for t in named if t not in slices):
        problems.append(f"thread {tid} has no slice: its part of the execution is missing")
    starts, ends = {}, {}
    for e in events:
        if e.get("ph") == "s":
            starts.setdefault(e["id"], []).append(e)
        elif e.get("ph") == "f":
            ends.setdefault(e["id"], []).append(e)
    for fid in set(starts) | set(ends):
        s, f = starts.get(fid, []), ends.get(fid, [])
        if len(s) != 1 or len(f) != 1:
            problems.append(f"flow {fid}: {len(s)} starts, {len(f)} ends")
        elif f[0]["ts"] < s[0]["ts"]:
            problems.append(f"flow {fid} ends before it starts")
    if len(starts) < min_flows:
        problems.append(f"{len(starts)} flows, expected at least {min_flows}")
    if problems:
        print(f"{path}: {len(problems)} problems")
        for p in problems[:20]:
            print("  " + p)
        return 1
    kinds = {}
    for e in events:
        kinds[e["ph"]] = kinds.get(e["ph"], 0) + 1
    print(f"{path}: well formed ({len(events)} events: {kinds}, {len(starts)} flows)")
    return 0

sys.exit(main())
