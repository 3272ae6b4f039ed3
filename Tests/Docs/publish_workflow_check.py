#!/usr/bin/env python3
"""Keeps the GitHub Pages workflow (site-example/.github/workflows/publish.yml) honest:

- the "Publishing with GitHub Actions" block of docs/publishing.md is the file, byte for byte;
- it is valid YAML with the parts the docs promise: push to main, Pages permissions and a
  concurrency group, libcmark-gfm from apt, Swift 6, a .build cache keyed on Package.swift and
  Package.resolved, a release build of tagflow, upload-pages-artifact and deploy-pages;
- every `tagflow` command in it uses a subcommand and options that the built CLI's --help lists;
- that `tagflow build` command, with a sample Pages URL, builds site-example (so --strict passes).

    python3 Tests/Docs/publish_workflow_check.py     # uses $TAGFLOW or .build/debug/tagflow
"""
import os
import pathlib
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / "site-example/.github/workflows/publish.yml"
failures = []

try:
    import yaml
except ImportError:  # PyYAML ships with most Pythons here; install it where it does not.
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "pyyaml"], check=True)
    import yaml


def check(condition, message):
    if not condition:
        failures.append(message)


text = WORKFLOW.read_text()
guide = (ROOT / "docs/publishing.md").read_text()
section = guide.split("## Publishing with GitHub Actions", 1)
check(len(section) == 2, "docs/publishing.md has no 'Publishing with GitHub Actions' section")
block = re.search(r"^```yaml\n(.*?)^```$", section[-1], re.S | re.M)
check(block is not None and block.group(1) == text,
      "docs/publishing.md's workflow block differs from site-example/.github/workflows/publish.yml")

workflow = yaml.safe_load(text)
triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true
check("main" in (triggers or {}).get("push", {}).get("branches", []), "not triggered by a push to main")
permissions = workflow.get("permissions", {})
check(permissions.get("pages") == "write" and permissions.get("id-token") == "write",
      f"permissions need pages: write and id-token: write, got {permissions}")
check(bool(workflow.get("concurrency", {}).get("group")), "no concurrency group")

jobs = workflow["jobs"]
build = jobs.get("build", {})
steps = build.get("steps", [])
runs = "\n".join(step.get("run", "") for step in steps)
uses = {step["uses"].split("@")[0]: step for step in steps if "uses" in step}
container = build.get("container", "")
container = container.get("image", "") if isinstance(container, dict) else container
setup = uses.get("swift-actions/setup-swift", {}).get("with", {}).get("swift-version", "")
check(re.match(r"swift:6\.", container) or str(setup).startswith("6"),
      "Swift 6 comes neither from a swift:6.x container nor from swift-actions/setup-swift")
check(re.search(r"apt-get install[^\n]*(\\\n[^\n]*)*libcmark-gfm-dev", runs)
      and "libcmark-gfm-extensions-dev" in runs and "libsource-highlight-dev" in runs,
      "libcmark-gfm-dev, libcmark-gfm-extensions-dev and libsource-highlight-dev are not installed")
check("actions/checkout" in uses, "no actions/checkout")
cache = uses.get("actions/cache", {}).get("with", {})
check(".build" in cache.get("path", ""), "the cache does not hold .build")
check("Package.swift" in cache.get("key", "") and "Package.resolved" in cache.get("key", ""),
      "the cache key does not hash Package.swift and Package.resolved")
check(re.search(r"swift build\b.*-c release.*--product tagflow", runs), "no release build of tagflow")
artifact = uses.get("actions/upload-pages-artifact", {}).get("with", {}).get("path")
check(artifact is not None, "no actions/upload-pages-artifact")
deploy = jobs.get("deploy", {})
check(deploy.get("needs") in ("build", ["build"]), "the deploy job does not wait for build")
check(any(step.get("uses", "").startswith("actions/deploy-pages@") for step in deploy.get("steps", [])),
      "no actions/deploy-pages")
check(deploy.get("environment", {}).get("name") == "github-pages", "deploy is not in the github-pages environment")

# Every tagflow command: a known subcommand, known options.
tagflow = pathlib.Path(os.environ.get("TAGFLOW", ROOT / ".build/debug/tagflow"))
if not tagflow.exists():
    sys.exit(f"error: {tagflow} is not built (swift build, or set TAGFLOW)")
commands = []
for line in runs.replace("\\\n", " ").splitlines():
    words = shlex.split(line.strip(), comments=True) if line.strip() else []
    for index, word in enumerate(words):  # a word in command position
        if (word == "tagflow" or word.endswith("/tagflow")) and (index == 0 or words[index - 1] in ("&&", "||", ";", "|")):
            rest = words[index + 1:]
            ends = [i for i, w in enumerate(rest) if w in ("&&", "||", ";", "|")]
            commands.append(rest[:ends[0]] if ends else rest)
check(any(c[:1] == ["build"] for c in commands), "no `tagflow build` in the workflow")
for arguments in commands:
    subcommand = arguments[0]
    help_text = subprocess.run([str(tagflow), subcommand, "--help"], capture_output=True, text=True)
    check(help_text.returncode == 0, f"`tagflow {subcommand}` is not a command")
    known = set(re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)", help_text.stdout))
    for argument in arguments[1:]:
        option = argument.split("=", 1)[0]
        if option.startswith("-"):
            check(option in known, f"`tagflow {subcommand}` has no option {option}")
    if subcommand == "build":
        check("--strict" in arguments and "--base-url" in arguments, "tagflow build lacks --strict or --base-url")
        output = arguments[arguments.index("--output") + 1] if "--output" in arguments else "_site"
        check(output == artifact, f"the site is built into {output} but {artifact} is uploaded")
        # Run it on site-example, as the workflow would in a copy of it.
        with tempfile.TemporaryDirectory() as temporary:
            run = [str(tagflow)] + [
                "https://owner.github.io/repo/" if "${{" in a else (f"{temporary}/_site" if a == output else a)
                for a in arguments
            ] + ["--quiet"]
            result = subprocess.run(run, cwd=ROOT / "site-example", capture_output=True, text=True)
            check(result.returncode == 0, f"{' '.join(run[1:])} failed on site-example:\n{result.stderr}")
            index = pathlib.Path(temporary, "_site/index.html")
            check(index.exists() and 'href="/repo/assets/' in index.read_text(),
                  "the built site's links do not carry the /repo/ base path")

for failure in failures:
    print(f"error: {failure}", file=sys.stderr)
print("publish workflow: ok" if not failures else f"publish workflow: {len(failures)} problems", flush=True)
sys.exit(1 if failures else 0)
