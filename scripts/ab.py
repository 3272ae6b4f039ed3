#!/usr/bin/env python3
"""Two Tagflow binaries side by side: full builds of the benchmark corpus, in alternation.

    python3 scripts/ab.py OLD NEW [--posts 10000] [--runs 12] [--seed 42] [--out-dir /dev/shm/ab]
                          [--cache] [--fresh] [--no-settle]

Builds the corpus (generated as scripts/bench.py does) with `tagflow build CORPUS --output OUT
--no-cache --quiet`, OLD then NEW, RUNS times each, removing the output folder before every build,
and prints the medians of wall time, user and system CPU time and peak memory of each, and NEW's
wall time as a share of OLD's. With `--cache` the builds run without `--no-cache`: each then
digests its inputs and records them, as a first build does and as every build of scripts/bench.py
does (the removed folder never matches the record, so nothing is skipped). Use it to tell whether
a change made a build faster: on a shared machine only the pair of one run means much. The default output folder is on tmpfs, so that the
disk's writeback does not fall on whichever build comes next; pass a folder on disk to include it,
with `--fresh` so that no build follows the deletion of another's files (and a run within six
minutes of the last one's deletion waits out the rest first, as scripts/bench.py does).

Make each binary with `make` (the release build users install) and copy it aside; compare binaries
built the same way.
"""
import argparse
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import bench  # noqa: E402  (the corpus, as the Hugo benchmark makes it)


def build(tagflow, corpus, output, cache=False):
    """One full build; returns (wall s, user s, system s, peak MiB). Fails loudly on a non-zero exit."""
    shutil.rmtree(output, ignore_errors=True)
    os.sync()  # the previous build's writeback (when OUT is on disk) is not this one's cost
    start = time.monotonic()
    process = subprocess.Popen(
        [str(tagflow), "build", str(corpus), "--output", str(output), "--quiet"] + ([] if cache else ["--no-cache"]),
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output_text = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.stderr.write(output_text.decode(errors="replace"))
        sys.exit(f"error: {tagflow} failed")
    return wall, usage.ru_utime, usage.ru_stime, usage.ru_maxrss / 1024.0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--posts", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=12)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--out-dir", default="/dev/shm/tagflow-ab")
    parser.add_argument("--cache", action="store_true",
                        help="build as `tagflow build` does by default, digesting and recording the inputs")
    parser.add_argument("--fresh", action="store_true",
                        help="each build into a new folder, all deleted after the last build (for a disk)")
    parser.add_argument("--no-settle", action="store_true",
                        help="do not wait after a recent deletion of many files (see bench.settle)")
    args = parser.parse_args()
    binaries = [pathlib.Path(args.old).resolve(), pathlib.Path(args.new).resolve()]
    for binary in binaries:
        if not binary.exists():
            sys.exit(f"error: {binary} not found")
    corpus = bench.generated_corpus(args.posts, args.seed)
    out_dir = pathlib.Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    if not args.no_settle:
        bench.settle(out_dir)  # after an earlier run's deletion, on a disk (bench.py says why)
    outputs = []
    rows = {binary: [] for binary in binaries}
    try:
        for index in range(args.runs):
            for number, binary in enumerate(binaries):
                # With --fresh each build writes a new folder, all deleted at the end (as bench.py
                # does): on some file systems, creating files soon after deleting many is slow.
                output = out_dir / (f"out-{index}-{number}" if args.fresh else "out")
                outputs.append(output)
                rows[binary].append(build(binary, corpus, output, args.cache))
            print(f"run {index + 1}/{args.runs}: " + ", ".join(
                f"{name} {rows[binary][-1][0]:.3f} s" for name, binary in zip(("old", "new"), binaries)), flush=True)
    finally:
        for output in set(outputs):
            shutil.rmtree(output, ignore_errors=True)
        bench.note_deletion(out_dir)
    print()
    print(f"{args.posts} posts, {args.runs} alternating runs each, medians")
    print(f"{'':6} {'wall s':>8} {'user s':>8} {'sys s':>8} {'peak MiB':>9}")
    for name, binary in zip(("old", "new"), binaries):
        data = rows[binary]
        print(f"{name:6} {bench.median(data, 0):8.3f} {bench.median(data, 1):8.3f} {bench.median(data, 2):8.3f} "
              f"{bench.median(data, 3):9.1f}   {binary}")
    print(f"\nnew / old: wall {bench.median(rows[binaries[1]], 0) / bench.median(rows[binaries[0]], 0):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
