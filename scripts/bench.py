#!/usr/bin/env python3
"""Tagflow against Hugo on the shared benchmark corpus, side by side in one run.

    python3 scripts/bench.py [--posts 1000] [--runs 5] [--seed 42] [--tagflow PATH] [--no-hugo]
                             [--serve-edits 10] [--out-dir DIR] [--no-settle] [--highlight]

Both generators build without code highlighting unless `--highlight` turns it on in both (Hugo
through its environment, Tagflow through a `markdown.highlight` line this script keeps in the
corpus's site.yml).

Generates the corpus with Benchmarks/Corpus/gen_corpus.py (kept in .build-bench-corpus/ so later
runs reuse it), then builds it RUNS times with Tagflow and with Debian's `hugo` in alternation,
each into a new folder of its own (a full build; run_hugo.sh's own `rm -rf` then finds nothing to
delete). The folders are deleted after the last timed build, not between builds: on some file
systems creating files soon after deleting many is slow, and that cost would fall on whichever
build came next, and the disk is synced before each timed build, so that no build pays for
writing back another one's files. Then, with the output
and cache of the last Tagflow build in place, it times Tagflow again with nothing changed, and
after editing one post. Prints medians of wall time, CPU time and peak memory, and the ratios.

Last, it runs `tagflow serve` on the corpus and edits posts while it runs: SERVE_EDITS edits of
a post's text, of a post's title, and of a post's tags (which changes the taxonomy): a new tag,
and a tag other posts have (which changes its count); and two edits that assemble the site
again: a series the post joins, and a date four years earlier (the post moves). For each it
reads the rebuild time the server prints ("Rebuilt in 12 ms (…)") and measures, from the save,
how long until that line appears (the watcher's polling and quiet period included).

A run starts by waiting until six minutes have passed since the last one deleted its folders
(unless they are on a tmpfs, or with `--no-settle`): see docs/performance.md, "File systems".

Each run also times the floor: writing the same folders and files, of the same sizes, with no
generator at all (a small Python writer, into a new folder like the others). No generator can
beat it; on a file system that is slow to allocate inodes it is most of a build. `--out-dir` puts
the three output folders elsewhere, e.g. on a tmpfs (`--out-dir /dev/shm/bench`), to time the
generators without the disk.

The machine is shared and noisy: only the ratios of one run mean much, never an absolute time.
Build Tagflow first with `make`: the release build `make install` installs, with the Swift runtime
linked in (it starts about 7 ms sooner than a `swift build -c release` binary, which loads the
runtime's libraries and binds their symbols at each start).
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
    """Runs cmd; returns (wall seconds, CPU seconds, peak MiB). Fails loudly on a non-zero exit.

    The disk is synced first, outside the timing: otherwise the kernel writes back the files of
    the build before (a few hundred MB) while this one runs, on the same two cores, and each
    build is timed with part of another one's cost, more of it the longer it runs.
    """
    os.sync()
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


class Server:
    """A `tagflow serve` process whose output lines are read on a thread."""

    def __init__(self, tagflow, corpus):
        import queue
        import threading
        self.lines = queue.Queue()
        self.process = subprocess.Popen(
            [str(tagflow), "serve", str(corpus), "--port", "0"], stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

        def pump():
            for line in self.process.stdout:
                self.lines.put((time.monotonic(), line.rstrip("\n")))
        threading.Thread(target=pump, daemon=True).start()

    def wait_for(self, prefix, timeout=600):
        """The (time, line) of the next line starting with prefix; exits on a failed build."""
        import queue
        deadline = time.monotonic() + timeout
        while True:
            try:
                at, line = self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                sys.exit(f"error: `tagflow serve` printed no '{prefix}' line in {timeout} s")
            if line.startswith(prefix):
                return at, line
            if "build failed" in line:
                sys.exit(f"error: the served build failed: {line}")

    def stop(self):
        self.process.send_signal(2)
        self.process.wait(timeout=60)


def serve_edits(tagflow, corpus, count):
    """Edits posts while `tagflow serve` runs; returns {kind: [(rebuild ms, save-to-rebuilt ms, files)]}."""
    import re
    posts = sorted((corpus / "posts").glob("*.md"))
    originals = {}
    # The first four keep the post in its place (the site's shape stays); the last two assemble
    # the site again: a series the post joins, and a date four years earlier (so that a leap day
    # stays a day), which moves the post.
    results = {"text": [], "title": [], "tags (a new tag)": [], "tags (a tag in use)": [], "series": [],
               "date (the post moves)": []}
    server = Server(tagflow, corpus)
    try:
        server.wait_for("Built ")
        for index in range(count):
            for kind in results:
                post = posts[(index * 7919 + len(originals) * 104729) % len(posts)]
                original = originals.setdefault(post, post.read_bytes())
                text = post.read_text()
                if kind == "text":
                    text += f"\nEdited for the benchmark ({index}).\n"
                elif kind == "title":
                    text = re.sub(r'^title: .*$', f'title: "Retitled for the benchmark {index}"', text, count=1,
                                  flags=re.M)
                elif kind == "series":
                    text = re.sub(r'^title: ', f'series: "Benchmark series {index}"\ntitle: ', text, count=1,
                                  flags=re.M)
                elif kind == "date (the post moves)":
                    text = re.sub(r'^date: (\d{4})', lambda m: f"date: {int(m.group(1)) - 4}", text, count=1,
                                  flags=re.M)
                elif kind == "tags (a new tag)":
                    text = re.sub(r'^tags:\n', f'tags:\n  - "benchmark edit {index}"\n', text, count=1, flags=re.M)
                else:
                    # A tag the next post lists and this one does not: its count changes.
                    own = set(re.findall(r'^  - "(.*)"$', text, flags=re.M))
                    other = posts[(posts.index(post) + 1) % len(posts)].read_text()
                    tag = next((t for t in re.findall(r'^  - "(.*)"$', other, flags=re.M) if t not in own), None)
                    if tag is None:
                        continue
                    text = re.sub(r'^tags:\n', f'tags:\n  - "{tag}"\n', text, count=1, flags=re.M)
                time.sleep(0.6)
                saved = time.monotonic()
                post.write_text(text)
                at, line = server.wait_for("Rebuilt in ")
                match = re.match(r"Rebuilt in (\d+) ms \((\d+) of", line)
                if not match:
                    sys.exit(f"error: a full rebuild after a {kind} edit: {line}")
                results[kind].append((float(match.group(1)), (at - saved) * 1000, int(match.group(2))))
    finally:
        server.stop()
        for post, original in originals.items():
            post.write_bytes(original)
    return results


# The shared generator, copied into the repository (same output for the same seed), so that a
# clone can reproduce every figure; run_hugo.sh and the Hugo site stay in ../shared/bench.
CORPUS_GENERATOR = ROOT / "Benchmarks" / "Corpus" / "gen_corpus.py"


def generated_corpus(posts, seed):
    """The corpus of `posts` posts from `seed`, generated into .build-bench-corpus/ unless it is there."""
    corpus = ROOT / ".build-bench-corpus" / f"posts-{posts}-seed-{seed}"
    if not (corpus / "site.yml").exists():
        print(f"generating {posts} posts into {corpus}")
        subprocess.run([sys.executable, str(CORPUS_GENERATOR), str(corpus), "--posts", str(posts),
                        "--seed", str(seed)], check=True, stdout=subprocess.DEVNULL)
    return corpus


HIGHLIGHT_MARK = "# set by scripts/bench.py"


def set_highlighting(corpus, on):
    """Says in the corpus's site.yml whether Tagflow highlights code (on is its default)."""
    site = corpus / "site.yml"
    lines = [line for line in site.read_text().splitlines() if HIGHLIGHT_MARK not in line]
    if not on:
        lines.append("markdown: {highlight: false}  " + HIGHLIGHT_MARK)
    site.write_text("\n".join(lines) + "\n")


def median(rows, column):
    return statistics.median(row[column] for row in rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--posts", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--tagflow", default=str(ROOT / ".build/release/tagflow"))
    parser.add_argument("--bench-dir", default=str(ROOT.parent / "shared/bench"),
                        help="the folder with run_hugo.sh and the Hugo site")
    parser.add_argument("--no-hugo", action="store_true", help="time Tagflow only")
    parser.add_argument("--serve-edits", type=int, default=10, help="edits of each kind under `tagflow serve`")
    parser.add_argument("--out-dir", help="where the output folders go (default: .build-bench-corpus)")
    parser.add_argument("--no-settle", action="store_true",
                        help="do not wait after a recent deletion of many files (see settle())")
    parser.add_argument("--highlight", action="store_true",
                        help="highlight code blocks in both generators (both are timed without by default)")
    parser.add_argument("--write-floor", nargs=2, metavar=("MANIFEST", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.write_floor:
        return write_floor(*args.write_floor)

    tagflow = pathlib.Path(args.tagflow)
    if not tagflow.exists():
        sys.exit(f"error: {tagflow} not found; build it with `make`")
    bench = pathlib.Path(args.bench_dir)
    hugo = shutil.which("hugo") if not args.no_hugo else None
    if not args.no_hugo and not hugo:
        print("note: hugo is not installed (apt-get install hugo); timing Tagflow only")

    work = ROOT / ".build-bench-corpus"
    corpus = generated_corpus(args.posts, args.seed)
    out_dir = pathlib.Path(args.out_dir) if args.out_dir else work
    out_dir.mkdir(parents=True, exist_ok=True)
    tagflow_out, hugo_out, floor_out = out_dir / "out-tagflow", out_dir / "out-hugo", out_dir / "out-floor"
    manifest = out_dir / "floor-manifest.txt"
    set_highlighting(corpus, args.highlight)
    hugo_env = dict(os.environ) if args.highlight else dict(os.environ, HUGO_MARKUP_HIGHLIGHT_CODEFENCES="false")
    highlighting = "highlighting" if args.highlight else "no highlighting"

    # Every timed build writes into a folder of its own, and the folders are deleted only after
    # the last one. Deleting a tree of 30 000 files and folders makes some file systems slow to
    # create files for minutes afterwards (ext4 without a journal passes over recently freed
    # inodes), a cost that grew with every run and fell on whichever build came next; a CI job
    # building into a fresh checkout never pays it.
    def run_folder(folder, index):
        return folder.with_name(f"{folder.name}-{index}")

    def remove_run_folders():
        removed = False
        for folder in (tagflow_out, hugo_out, floor_out):
            for old in sorted(folder.parent.glob(f"{folder.name}-*")):
                shutil.rmtree(old, ignore_errors=True)
                removed = True
        return removed

    if remove_run_folders():
        note_deletion(out_dir)
    if not args.no_settle:
        settle(out_dir)
    full, hugo_rows, floor_rows = [], [], []
    for index in range(args.runs):
        out = run_folder(tagflow_out, index)
        full.append(run([str(tagflow), "build", str(corpus), "--output", str(out), "--quiet", "--no-cache"]))
        if index == 0:
            write_manifest(out, manifest)
        if hugo:
            hugo_rows.append(run([str(bench / "run_hugo.sh"), str(corpus), str(run_folder(hugo_out, index))],
                                 env=hugo_env))
        floor_rows.append(run([sys.executable, __file__, "--write-floor", str(manifest),
                               str(run_folder(floor_out, index))]))
        print(f"run {index + 1}/{args.runs}: tagflow {full[-1][0]:.2f} s"
              + (f", hugo {hugo_rows[-1][0]:.2f} s" if hugo else "") + f", floor {floor_rows[-1][0]:.2f} s",
              flush=True)
    remove_run_folders()
    note_deletion(out_dir)

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

    served = serve_edits(tagflow, corpus, args.serve_edits) if args.serve_edits > 0 else {}

    print()
    print(f"{args.posts} posts, {args.runs} runs each, medians (wall and CPU in s, peak memory in MiB)")
    print(f"{'':40} {'wall':>8} {'cpu':>8} {'peak':>8}")
    rows = [(f"tagflow, full build ({highlighting})", full)]
    if hugo:
        rows.append((f"hugo, full build ({highlighting})", hugo_rows))
    rows.append(("floor: only writing the files", floor_rows))
    rows += [("tagflow, nothing changed", unchanged), ("tagflow, one post edited", edited)]
    for name, data in rows:
        print(f"{name:40} {median(data, 0):8.3f} {median(data, 1):8.3f} {median(data, 2):8.1f}")
    if served:
        print()
        print(f"tagflow serve, {args.serve_edits} edits of each kind, medians (ms), files rewritten")
        print(f"{'':40} {'rebuild':>8} {'save→done':>10} {'files':>6}")
        for kind, data in served.items():
            print(f"{'edit of a post’s ' + kind:40} {median(data, 0):8.0f} {median(data, 1):10.0f} "
                  f"{median(data, 2):6.0f}")
    if hugo:
        print()
        print(f"tagflow / hugo: wall {median(full, 0) / median(hugo_rows, 0):.3f}, "
              f"peak memory {median(full, 2) / median(hugo_rows, 2):.3f}; "
              f"floor / hugo: wall {median(floor_rows, 0) / median(hugo_rows, 0):.3f}")
    return 0


# How long ext4 without a journal keeps stepping past deleted inodes when it creates files: a
# minute after the deletion, five more while the inode's table block is not written back
# (fs/ext4/ialloc.c, recently_deleted). docs/performance.md, "File systems".
SETTLE_SECONDS = 6 * 60 + 10


def deletion_stamp(out_dir):
    """The file that holds when this script last deleted its output folders in out_dir."""
    return out_dir / "last-deletion"


def note_deletion(out_dir):
    """Records that this script just deleted its output folders in out_dir, for settle()."""
    deletion_stamp(out_dir).write_text(f"{time.time()}\n")


def settle(out_dir):
    """Waits until SETTLE_SECONDS have passed since this script last deleted its folders in
    out_dir (note_deletion()), unless out_dir is on a tmpfs. Otherwise the first builds of this
    run would create their files while the file system still passes over the thousands of inodes
    the last run freed, each build slowed by a different amount.
    """
    try:
        deleted = float(deletion_stamp(out_dir).read_text())
    except (OSError, ValueError):
        return
    kind = subprocess.run(["stat", "-f", "-c", "%T", str(out_dir)], capture_output=True, text=True).stdout.strip()
    left = deleted + SETTLE_SECONDS - time.time()
    if kind == "tmpfs" or left <= 0:
        return
    print(f"waiting {left:.0f} s: this script deleted its output folders {SETTLE_SECONDS - left:.0f} s ago, and "
          "creating files soon after deleting many is slow on some file systems (docs/performance.md, "
          "\"File systems\"; --no-settle skips the wait)", flush=True)
    os.sync()
    time.sleep(left)


def write_manifest(output, manifest):
    """Lists every file of a built site with its size, folders first, for write_floor."""
    lines = []
    for folder, _, files in sorted(os.walk(output)):
        relative = os.path.relpath(folder, output)
        lines.append(f"d {relative}")
        lines += [f"f {os.path.getsize(os.path.join(folder, name))} {os.path.join(relative, name)}"
                  for name in sorted(files)]
    manifest.write_text("\n".join(lines) + "\n")


def write_floor(manifest, output):
    """Writes the folders and files of MANIFEST, each file that many bytes, into OUTPUT (which the
    caller has deleted, outside the timing)."""
    os.makedirs(output)
    for line in pathlib.Path(manifest).read_text().splitlines():
        if line.startswith("d "):
            if line[2:] != ".":
                os.mkdir(os.path.join(output, line[2:]))
        else:
            _, size, path = line.split(" ", 2)
            with open(os.path.join(output, path), "wb") as file:
                file.write(b"x" * int(size))
    return 0


if __name__ == "__main__":
    sys.exit(main())
