#!/usr/bin/env python3
"""Keeps the GitHub Pages workflow (site-example/.github/workflows/publish.yml) honest:

- the "Publishing with GitHub Actions" block of docs/publishing.md is the file, byte for byte;
- it is valid YAML with the parts the docs promise: push to main, Pages permissions and a
  concurrency group, Tagflow set up by this repository's action (action.yml) at the release tag
  of the current version, upload-pages-artifact and deploy-pages;
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
check("actions/checkout" in uses, "no actions/checkout")
# Tagflow comes from this repository's action, at the tag of the version the source says.
version = subprocess.run([str(ROOT / "scripts/version.sh")], capture_output=True, text=True,
                         check=True).stdout.strip()
setup = [step["uses"] for step in steps if re.fullmatch(r"[\w.-]+/tagflow@[\w.-]+", step.get("uses", ""))]
check(setup == [f"OWNER/tagflow@v{version}"],
      f"Tagflow is not set up by OWNER/tagflow@v{version} (the action at this version's tag), got {setup}")
action = yaml.safe_load((ROOT / "action.yml").read_text())
check(action.get("runs", {}).get("using") == "composite" and "version" in action.get("inputs", {}),
      "action.yml is not the composite Set up Tagflow action with a version input")
setup_step = next((step for step in steps if step.get("uses", "") in setup), None)
check(setup_step is not None and steps.index(setup_step) < next(
    (i for i, step in enumerate(steps) if "tagflow " in step.get("run", "")), len(steps)),
    "Tagflow is used before the action sets it up")
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
