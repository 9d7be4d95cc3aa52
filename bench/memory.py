#!/usr/bin/env python3
"""memory.py — where each daemon's resident memory is, mapping by mapping.

`compare.py` says how much (VmRSS, Pss); this says where: it starts each
daemon the way compare.py does (the same headless sway, session bus, user
and configs), reads /proc/PID/smaps idle and again with one toast at
rest, and sums Rss and Pss by what each mapping is:

- the daemon's own binary: its code (r-x) and its data (relro, .data,
  .bss: the binary's other mappings);
- the brk heap, and the anonymous mappings, told apart as well as smaps
  lets: thread stacks (an anonymous mapping right above a no-access guard
  of one page or more, as glibc makes them), malloc arenas (an anonymous
  mapping that, with the no-access remainder after it, fills a 64 MiB
  window, as glibc reserves them), and the rest (large allocations that
  malloc maps by themselves, the Swift runtime's metadata);
- shared memory (memfd and /dev/shm: the wl_shm buffers);
- each shared library, by its name (libpango-1.0, libcairo, libc…), the
  dozen largest shown and the rest summed;
- fontconfig's caches, the font files, the locale archive, other files,
  and the kernel's
  [stack], [vdso], [vvar].

Usage: python3 bench/memory.py                 Perch and mako 1.7.1
       BENCH_PEERS=mako-1.7,dunst python3 bench/memory.py
       BENCH_PERCH_BEFORE=DIR …                with an earlier Perch build
Needs what compare.py needs; runs the host's peers only (the Debian 13
root's mako 1.10 and fnott are started by compare.py alone).
"""

import collections
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import compare  # noqa: E402  (Bench, the daemons, wait_idle)

MAPPING = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ \d+\s*(.*)$")
FIELD = re.compile(r"^(\w+):\s+(\d+) kB$")
ARENA_WINDOW = 64 << 20
SHOWN_LIBRARIES = 12


def read_smaps(pid):
    """[(start, end, perms, path, {field: kB})] in address order."""
    maps = []
    with open("/proc/%d/smaps" % pid) as f:
        for line in f:
            m = MAPPING.match(line)
            if m:
                maps.append((int(m.group(1), 16), int(m.group(2), 16), m.group(3), m.group(4).strip(), {}))
                continue
            m = FIELD.match(line)
            if m and maps:
                maps[-1][4][m.group(1)] = int(m.group(2))
    return maps


def library_name(path):
    """libpango-1.0.so.0.5000.4 → libpango-1.0."""
    base = os.path.basename(path)
    return base.split(".so")[0] if ".so" in base else base


def classify(maps, binary):
    """{category: (Rss, Pss)} in kB."""
    sums = collections.defaultdict(lambda: [0, 0])
    real_binary = os.path.realpath(binary)
    for i, (start, end, perms, path, fields) in enumerate(maps):
        rss, pss = fields.get("Rss", 0), fields.get("Pss", 0)
        if rss == 0 and pss == 0:
            continue
        if path and os.path.realpath(path) == real_binary:
            what = "own code" if "x" in perms else "own data (relro, .data, .bss)"
        elif path == "[heap]":
            what = "heap (brk)"
        elif path in ("[stack]", "[vdso]", "[vvar]", "[vsyscall]"):
            what = "kernel: " + path
        elif path.startswith("/memfd:") or path.startswith("/dev/shm/") or "(deleted)" in path and "memfd" in path:
            what = "shared memory (wl_shm buffers)"
        elif path == "":
            below = maps[i - 1] if i > 0 else None
            above = maps[i + 1] if i + 1 < len(maps) else None
            if below and below[1] == start and below[2].startswith("---") and below[3] == "":
                what = "anonymous: thread stacks"
            elif above and above[0] == end and above[2].startswith("---") and above[3] == "" \
                    and start % ARENA_WINDOW == 0 and (above[1] - start) == ARENA_WINDOW:
                what = "anonymous: malloc arenas"
            elif start % ARENA_WINDOW == 0 and end - start == ARENA_WINDOW:
                what = "anonymous: malloc arenas"
            else:
                what = "anonymous: other (large allocations, runtime metadata)"
        elif "fontconfig" in path:
            what = "fontconfig caches"
        elif "/fonts/" in path:
            what = "font files"
        elif path.endswith("locale-archive"):
            what = "locale archive"
        elif ".so" in os.path.basename(path):
            what = "lib " + library_name(path)
        else:
            what = "other files"
        sums[what][0] += rss
        sums[what][1] += pss
    return {k: tuple(v) for k, v in sums.items()}


def fold_libraries(table, keep):
    """The `keep` largest libraries by Pss (over every column), the rest summed."""
    libs = collections.Counter()
    for column in table.values():
        for what, (_, pss) in column.items():
            if what.startswith("lib "):
                libs[what] += pss
    shown = {what for what, _ in libs.most_common(keep)}
    folded = {}
    for key, column in table.items():
        out = collections.defaultdict(lambda: [0, 0])
        for what, (rss, pss) in column.items():
            name = what if not what.startswith("lib ") or what in shown else "lib (the others)"
            out[name][0] += rss
            out[name][1] += pss
        folded[key] = {k: tuple(v) for k, v in out.items()}
    return folded


def measure(b, d):
    """{"idle": categories, "1 toast": categories, "total": …} for daemon d."""
    proc, _, _, _ = b.start(d)
    try:
        compare.wait_idle(proc.pid, timeout=10)
        # Past the fonts' warm-up (0.1 s after start) and its settling.
        time.sleep(0.5)
        compare.wait_idle(proc.pid, timeout=10)
        binary = os.path.realpath("/proc/%d/exe" % proc.pid)
        out = {"idle": classify(read_smaps(proc.pid), binary)}
        b.call("notify", n=1, expire=0, timeout=10)
        compare.wait_idle(proc.pid, timeout=10)
        out["1 toast"] = classify(read_smaps(proc.pid), binary)
        return out
    finally:
        b.stop(proc)


def print_table(daemons, results):
    columns = [(d, when) for d in daemons for when in ("idle", "1 toast")]
    table = {(d.name, when): results[d.name][when] for d, when in columns if d.name in results}
    table = fold_libraries(table, SHOWN_LIBRARIES)
    order = collections.Counter()
    for column in table.values():
        for what, (_, pss) in column.items():
            order[what] += pss
    head = ["Pss / Rss (kB)"] + ["%s, %s" % (d.label, when) for d, when in columns if (d.name, when) in table]
    rows = []
    for what, _ in order.most_common():
        row = [what]
        for d, when in columns:
            if (d.name, when) not in table:
                continue
            rss, pss = table[(d.name, when)].get(what, (0, 0))
            row.append("%d / %d" % (pss, rss) if rss or pss else "—")
        rows.append(row)
    total = ["total"]
    for d, when in columns:
        if (d.name, when) in table:
            column = table[(d.name, when)]
            total.append("%d / %d" % (sum(v[1] for v in column.values()), sum(v[0] for v in column.values())))
    rows.append(total)
    widths = [max(len(str(r[i])) for r in [head] + rows) for i in range(len(head))]
    line = lambda r: "| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |"
    print(line(head))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print(line(r))


def main():
    os.environ.setdefault("PERCH_TEST_USER", "perch-bench")
    daemons = compare.chosen_host_daemons()
    compare.ensure_host_packages(daemons)
    b = compare.Bench()
    results = {}
    try:
        for d in daemons:
            compare.log("memory: %s" % d.name)
            try:
                results[d.name] = measure(b, d)
            except Exception as e:  # a peer that will not start is left out, said
                compare.log("memory: %s left out: %s" % (d.name, e))
    finally:
        b.close()
    print("Resident memory by mapping, %s" % time.strftime("%Y-%m-%d %H:%M"))
    print_table(daemons, results)


if __name__ == "__main__":
    main()
