#!/usr/bin/env python3
"""Tagflow against Hugo on the shared benchmark corpus, side by side in one run.

    python3 scripts/bench.py [--posts 1000] [--runs 5] [--seed 42] [--tagflow PATH] [--no-hugo]

Generates the corpus with ../shared/bench/gen_corpus.py (kept in .build-bench-corpus/ so later
runs reuse it), then builds it RUNS times with Tagflow and with Debian's `hugo` in alternation,
each into an emptied folder (a full build, as run_hugo.sh does for Hugo). Then, with the output
and cache of the last Tagflow build in place, it times Tagflow again with nothing changed, and
after editing one post. Prints medians of wall time, CPU time and peak memory, and the ratios.

The machine is shared and noisy: only the ratios of one run mean much, never an absolute time.
Build Tagflow first: `swift build -c release --product tagflow`.
"""
import argparse
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def run(cmd, env=None):
    """Runs cmd; returns (wall seconds, CPU seconds, peak MiB). Fails loudly on a non-zero exit."""
    start = time.monotonic()
    process = subprocess.Popen(
        cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.stderr.write(output.decode(errors="replace"))
        sys.exit(f"error: {' '.join(map(str, cmd))} failed")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def median(rows, column):
    return statistics.median(row[column] for row in rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--posts", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--tagflow", default=str(ROOT / ".build/release/tagflow"))
    parser.add_argument("--bench-dir", default=str(ROOT.parent / "shared/bench"),
                        help="the folder with gen_corpus.py and run_hugo.sh")
    parser.add_argument("--no-hugo", action="store_true", help="time Tagflow only")
    args = parser.parse_args()

    tagflow = pathlib.Path(args.tagflow)
    if not tagflow.exists():
        sys.exit(f"error: {tagflow} not found; build it with `swift build -c release --product tagflow`")
    bench = pathlib.Path(args.bench_dir)
    hugo = shutil.which("hugo") if not args.no_hugo else None
    if not args.no_hugo and not hugo:
        print("note: hugo is not installed (apt-get install hugo); timing Tagflow only")

    work = ROOT / ".build-bench-corpus"
    corpus = work / f"posts-{args.posts}-seed-{args.seed}"
    if not (corpus / "site.yml").exists():
        print(f"generating {args.posts} posts into {corpus}")
        subprocess.run([sys.executable, str(bench / "gen_corpus.py"), str(corpus), "--posts", str(args.posts),
                        "--seed", str(args.seed)], check=True, stdout=subprocess.DEVNULL)
    tagflow_out, hugo_out = work / "out-tagflow", work / "out-hugo"
    hugo_env = dict(os.environ, HUGO_MARKUP_HIGHLIGHT_CODEFENCES="false")

    full, hugo_rows = [], []
    for index in range(args.runs):
        shutil.rmtree(tagflow_out, ignore_errors=True)
        full.append(run([str(tagflow), "build", str(corpus), "--output", str(tagflow_out), "--quiet", "--no-cache"]))
        if hugo:
            hugo_rows.append(run([str(bench / "run_hugo.sh"), str(corpus), str(hugo_out)], env=hugo_env))
        print(f"run {index + 1}/{args.runs}: tagflow {full[-1][0]:.2f} s"
              + (f", hugo {hugo_rows[-1][0]:.2f} s" if hugo else ""), flush=True)

    # With the cache: one build to fill it, then builds with nothing changed and with one post edited.
    shutil.rmtree(tagflow_out, ignore_errors=True)
    run([str(tagflow), "build", str(corpus), "--output", str(tagflow_out), "--quiet"])
    unchanged = [run([str(tagflow), "build", str(corpus), "--output", str(tagflow_out), "--quiet"])
                 for _ in range(args.runs)]
    post = sorted((corpus / "posts").glob("*.md"))[len(list((corpus / "posts").glob("*.md"))) // 2]
    original = post.read_bytes()
    edited = []
    try:
        for index in range(args.runs):
            post.write_bytes(original + f"\n\nEdited for the benchmark ({index}).\n".encode())
            edited.append(run([str(tagflow), "build", str(corpus), "--output", str(tagflow_out), "--quiet"]))
    finally:
        post.write_bytes(original)
        run([str(tagflow), "build", str(corpus), "--output", str(tagflow_out), "--quiet"])

    print()
    print(f"{args.posts} posts, {args.runs} runs each, medians (wall and CPU in s, peak memory in MiB)")
    print(f"{'':34} {'wall':>8} {'cpu':>8} {'peak':>8}")
    rows = [("tagflow, full build", full)]
    if hugo:
        rows.append(("hugo, full build (no highlighting)", hugo_rows))
    rows += [("tagflow, nothing changed", unchanged), ("tagflow, one post edited", edited)]
    for name, data in rows:
        print(f"{name:34} {median(data, 0):8.3f} {median(data, 1):8.3f} {median(data, 2):8.1f}")
    if hugo:
        print()
        print(f"tagflow / hugo: wall {median(full, 0) / median(hugo_rows, 0):.3f}, "
              f"peak memory {median(full, 2) / median(hugo_rows, 2):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
