#!/usr/bin/env python3
"""Two Tagflow binaries side by side: `tagflow serve`'s rebuild times after edits of posts.

    python3 scripts/serve-ab.py OLD NEW [--posts 10000] [--seed 42] [--rounds 3] [--edits 5]

Runs `tagflow serve` on the benchmark corpus (generated as scripts/bench.py does) with OLD, then
NEW, ROUNDS times each, and while each server runs makes EDITS edits of every kind
scripts/bench.py makes (a post's text, its title, a new tag, a tag other posts have, a series it
joins, a date that moves it), restoring
the posts after each round. Prints, for each kind, the median of the rebuild times the server
printed ("Rebuilt in 12 ms") for each binary, and NEW's as a share of OLD's.

Make each binary with `make` and copy it aside. The machine is shared and noisy: only the ratios
of one run mean much.
"""
import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--posts", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--edits", type=int, default=5, help="edits of each kind per round")
    args = parser.parse_args()
    binaries = {"old": Path(args.old).resolve(), "new": Path(args.new).resolve()}
    for path in binaries.values():
        if not path.is_file():
            sys.exit(f"error: no binary at {path}")
    corpus = bench.generated_corpus(args.posts, args.seed)
    times = {name: {} for name in binaries}
    for round_number in range(1, args.rounds + 1):
        for name, binary in binaries.items():
            print(f"round {round_number}/{args.rounds}: {name}", flush=True)
            for kind, rows in bench.serve_edits(binary, corpus, args.edits).items():
                times[name].setdefault(kind, []).extend(rebuild for rebuild, _, _ in rows)
    print(f"\n{args.posts} posts, {args.rounds} rounds of {args.edits} edits of each kind, "
          "medians of the rebuild times the server printed")
    print(f"{'edit':<22}{'old ms':>9}{'new ms':>9}{'new/old':>9}")
    for kind in times["old"]:
        old, new = statistics.median(times["old"][kind]), statistics.median(times["new"].get(kind, [0]))
        print(f"{kind:<22}{old:>9.1f}{new:>9.1f}{new / old:>9.3f}")


if __name__ == "__main__":
    main()
