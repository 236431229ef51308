#!/usr/bin/python3
"""drain_profile.py: where a drain of the Looper spends its instructions, cache
misses and branch mispredictions, for DeliQueue and the legacy queue.

Runs bench/drain_profile.cpp (lfcheck-drain-profile VARIANT N) under valgrind's
callgrind with cache and branch simulation, collecting inside the drain only,
one record per instruction address. Every address of the drain binary is then
looked up with `addr2line -i` (its inline chain, outermost function first) and
given to the first function of the chain that names a step (STEPS below); code
from other objects (libc) by its function's name. The counts are deterministic
(simulated, not timed) and reported per delivered message.

Simulated caches: I1 and D1 as valgrind detects them, LL fixed at the host's
32 MiB, 16-way (valgrind's detection reads a 512 MiB LL on these VMs).
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

from one_line_argparse import OneLineParser

EVENTS_SHOWN = (("instructions", ("Ir",)), ("d1_misses", ("D1mr", "D1mw")),
                ("ll_misses", ("DLmr", "DLmw")), ("mispredicts", ("Bcm", "Bim")),
                ("branches", ("Bc", "Bi")))
LL = "--LL=33554432,16,64"

# (queue, qualified function without template arguments) -> step. A chain is read
# from its outermost function in: the first one listed here names the step, so
# heap inserts inside the sweep count as sweep, heap pops inside delivery as heap.
STEPS = {
    "deli": [
        (r"::SteadyClock::now$|steady_clock::now$", "clock"),
        (r"DeliQueue::(sweep|sweep_stack|drain_removed|reclaim|confirm_sweep)$", "sweep"),
        (r"DeliQueue::claim$", "claim"),
        (r"DeliQueue::(order_remove|front|candidate)$|DaryHeap::", "heap pop"),
        (r"DeliQueue::unlink$", "unlink"),
    ],
    "locked": [
        (r"::SteadyClock::now$|steady_clock::now$", "clock"),
        (r"::mutex::(lock|unlock)$", "lock"),
        (r"LockedMessageQueue::candidate$", "head"),
        (r"LockedMessageQueue::unlink_after$", "unlink"),
    ],
}
LIBC_STEPS = [(r"pthread_mutex|__lll_lock|__lll_unlock", "lock"),
              (r"clock_gettime|__vdso|steady_clock::now", "clock"),
              (r"memset|memcpy|memmove|malloc|free|operator new|operator delete|_int_|unlink_chunk|alloc_perturb",
               "allocation (libc)")]


def strip_templates(name):
    """'a::B<x, y<z> >::f(int)' -> 'a::B::f' (arguments and template arguments dropped)."""
    out, depth = [], 0
    for ch in name:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth = max(depth - 1, 0)
        elif depth == 0:
            out.append(ch)
    s = "".join(out)
    return s.split("(", 1)[0].strip()


def run_callgrind(driver, variant, n):
    with tempfile.NamedTemporaryFile(suffix=".cg", delete=False) as f:
        path = f.name
    cmd = ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=lfcheck_drain_*",
           "--cache-sim=yes", "--branch-sim=yes", LL, "--dump-instr=yes", "--compress-strings=no",
           "--compress-pos=no", f"--callgrind-out-file={path}", driver, variant, str(n)]
    # Bind every symbol at start-up: lazy binding would run the dynamic linker
    # inside the first drain call.
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       env=dict(os.environ, LD_BIND_NOW="1"))
    if p.returncode != 0:
        sys.stderr.write(p.stdout)
        raise SystemExit(f"drain profile: callgrind on {driver} {variant} {n} failed (exit {p.returncode})")
    events, rows = [], []  # rows: (object, function, address, counts)
    ob = fn = ""
    skip_next = False
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("ob="):
            ob = line[3:]
        elif line.startswith("fn="):
            fn = line[3:]
        elif line.startswith("calls="):
            skip_next = True  # the next cost line is the call's inclusive cost
        elif line.startswith("0x"):
            if skip_next:
                skip_next = False
                continue
            parts = line.split()
            counts = [int(v) for v in parts[2:]]  # parts[1] is the line
            rows.append((ob, fn, int(parts[0], 16), counts))
    os.unlink(path)
    return events, rows


def inline_chains(driver, addresses):
    """address -> [function, ...] outermost first, from addr2line -i."""
    if not addresses:
        return {}
    p = subprocess.run(["addr2line", "-a", "-i", "-f", "-C", "-e", driver] + [hex(a) for a in addresses],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        raise SystemExit(f"drain profile: addr2line failed: {p.stdout[:300]}")
    chains, current, lines = {}, None, p.stdout.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("0x"):
            current = int(lines[i], 16)
            chains[current] = []
            i += 1
            continue
        chains[current].append(strip_templates(lines[i]))  # function; the next line is file:line
        i += 2
    return {a: list(reversed(c)) for a, c in chains.items()}  # addr2line prints innermost first


def step_of(variant, chain):
    for pattern, step in STEPS[variant]:  # clock first: a clock read is the clock's wherever it is
        if step == "clock" and any(re.search(pattern, f) for f in chain):
            return step
    for f in chain:
        for pattern, step in STEPS[variant]:
            if re.search(pattern, f):
                return step
    return "loop and rest"


def profile(driver, variant, n):
    events, rows = run_callgrind(driver, variant, n)
    exe = os.path.realpath(driver)
    mine = sorted({a for ob, _, a, _ in rows if os.path.realpath(ob) == exe})
    chains = inline_chains(driver, mine)
    unknown = sum(1 for a in mine if all(f.startswith("??") for f in chains.get(a, ["??"])))
    if not mine:
        raise SystemExit(f"drain profile: callgrind recorded nothing inside lfcheck_drain_* of {driver} "
                         "(no symbols: a stripped binary?)")
    if unknown * 2 > len(mine):
        # Without debug information every instruction would land in "loop and rest":
        # a profile that names no step is an error, not a figure.
        raise SystemExit(f"drain profile: {driver} has no usable debug information "
                         f"({unknown} of {len(mine)} addresses unknown to addr2line)")
    steps = collections.defaultdict(lambda: collections.Counter())
    for ob, fn, addr, counts in rows:
        if os.path.realpath(ob) == exe:
            step = step_of(variant, chains.get(addr, [fn]))
        else:
            step = next((s for pat, s in LIBC_STEPS if re.search(pat, fn)),
                        f"other: {strip_templates(fn)} ({os.path.basename(ob).split('.so')[0]})")
        for e, v in zip(events, counts):
            steps[step][e] += v
    def shown(c):
        return {name: round(sum(c[e] for e in evs) / n, 2) for name, evs in EVENTS_SHOWN}
    total = collections.Counter()
    for c in steps.values():
        total.update(c)
    return {"queue": variant, "backlog": n, "per_message": shown(total),
            "steps": {s: shown(c) for s, c in sorted(steps.items(), key=lambda kv: -kv[1]["Ir"])}}


def print_profile(r, out=sys.stdout):
    pm = r["per_message"]
    print(f'  drain profile {r["queue"]:>6} backlog:{r["backlog"]}: per message {pm["instructions"]} instructions, '
          f'{pm["d1_misses"]} D1 misses, {pm["ll_misses"]} LL misses, {pm["mispredicts"]} mispredicts', file=out)
    for s, c in r["steps"].items():
        print(f'    {s:<22} {c["instructions"]:>9} Ir {c["d1_misses"]:>7} D1m {c["ll_misses"]:>7} LLm '
              f'{c["mispredicts"]:>7} mispredicts', file=out)


def main():
    ap = OneLineParser(prog="drain_profile.py", description=__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("driver", help="lfcheck-drain-profile (release build)")
    ap.add_argument("--backlog", type=int, action="append", help="messages per drain (default 1000 and 100000)")
    a = ap.parse_args()
    for n in a.backlog or [1000, 100000]:
        for variant in ("deli", "locked"):
            print_profile(profile(a.driver, variant, n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
