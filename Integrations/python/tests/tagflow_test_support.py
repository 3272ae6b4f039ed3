"""Shared helpers of the tests: the source tree on sys.path, and what a test needs to run.

A test that needs something missing here (the tagflow binary, a host, the installed package) is
skipped with its reason printed, so the suite runs anywhere; with CI=true the same thing is a
failure, so a CI machine that lacks it cannot pass by skipping.
"""

from __future__ import annotations

import html.parser
import importlib.metadata
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import unittest
from pathlib import Path
from typing import Callable, Optional

SOURCE = Path(__file__).resolve().parent.parent  # Integrations/python
# The unit tests exercise the source tree, whatever copy may be installed.
sys.path.insert(0, str(SOURCE))

IN_CI = os.environ.get("CI", "").lower() == "true"
_printed = set()


def unavailable(test: unittest.TestCase, reason: str) -> None:
    """Skips ``test`` (printing why, once) or, in CI, fails it."""
    if IN_CI:
        test.fail(f"{reason} (CI=true: required)")
    if reason not in _printed:
        _printed.add(reason)
        sys.stderr.write(f"\nskipped: {reason}\n")
    raise unittest.SkipTest(reason)


def tagflow_binary() -> Optional[str]:
    """The binary the protocol and host tests run: $TAGFLOW, else ``tagflow`` on PATH."""
    candidate = os.environ.get("TAGFLOW") or shutil.which("tagflow")
    if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
        return os.path.abspath(candidate)
    return None


def _help(binary: str, *arguments: str) -> str:
    result = subprocess.run([binary, *arguments, "--help"], capture_output=True, text=True, timeout=60)
    return result.stdout + result.stderr


def require_binary(test: unittest.TestCase, serve: bool = False, enhance: bool = False) -> str:
    """The tagflow binary, with `chips --serve` and/or `enhance` when asked for."""
    binary = tagflow_binary()
    if binary is None:
        unavailable(test, "no tagflow binary: set TAGFLOW=/path/to/tagflow or put tagflow on PATH")
    if serve and "--serve" not in _help(binary, "chips"):
        unavailable(test, f"{binary} has no `tagflow chips --serve` yet")
    if enhance and "--preset" not in _help(binary, "enhance"):
        unavailable(test, f"{binary} has no `tagflow enhance` yet")
    return binary


def require_modules(test: unittest.TestCase, *names: str) -> None:
    for name in names:
        spec = importlib.util.find_spec(name)
        # A namespace package is not the host: this source tree's pelican/plugins/ makes one.
        if spec is None or spec.origin in (None, "namespace"):
            unavailable(test, f"Python module {name!r} is missing: pip install mkdocs mkdocs-material pelican markdown")


def require_installed(test: unittest.TestCase) -> None:
    """The package installed (hosts find plugins through its metadata) and equal to the source.

    A copy installed before the last edit would make host tests check old code, so it counts as
    missing. The source folder itself is left out of the search: a build there leaves metadata.
    """
    search = [entry for entry in sys.path if entry and Path(entry).resolve() != SOURCE]
    dist = next(iter(importlib.metadata.distributions(name="tagflow-integrations", path=search)), None)
    if dist is None:
        unavailable(test, "tagflow-integrations is not installed: pip install ./Integrations/python")
    stale = []
    for file in dist.files or []:
        if file.suffix == ".py" and file.parts[0] in ("tagflow_integrations", "pelican"):
            source = SOURCE / Path(*file.parts)
            if not source.is_file() or source.read_bytes() != Path(dist.locate_file(file)).read_bytes():
                stale.append(str(file))
    if stale:
        unavailable(
            test,
            "the installed tagflow-integrations differs from the source "
            f"({', '.join(stale)}): pip install --force-reinstall ./Integrations/python",
        )


def host_environment(binary: str, source_on_path: bool = False) -> dict[str, str]:
    """The environment of a host build run as its own process.

    TAGFLOW names the binary; the host imports the installed package, or with ``source_on_path``
    this source tree; wide console lines keep messages whole (Pelican's console wraps at 80).
    """
    env = dict(os.environ, TAGFLOW=binary, NO_MKDOCS_2_WARNING="1", COLUMNS="1000")
    env.pop("PYTHONPATH", None)
    if source_on_path:
        env["PYTHONPATH"] = str(SOURCE)
    return env


class TagLinks(html.parser.HTMLParser):
    """The (label, href) of each element that ``matches(tag, attributes)``: a host's own tag list."""

    def __init__(self, text: str, matches: Callable[[str, dict[str, Optional[str]]], bool]):
        super().__init__(convert_charrefs=True)
        self.matches = matches
        self.pairs: list[tuple] = []
        self._open: Optional[list] = None
        self._tag = ""
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if self._open is None and self.matches(tag, attributes):
            self._open, self._tag = ["", attributes.get("href")], tag

    def handle_endtag(self, tag):
        if self._open is not None and tag == self._tag:
            self.pairs.append((self._open[0].strip(), self._open[1]))
            self._open = None

    def handle_data(self, data):
        if self._open is not None:
            self._open[0] += data


class ChipBlocks(html.parser.HTMLParser):
    """Each ``<div class="tf-flow">`` of a page (its list's aria-label and its chips), and every
    link of the page with whether it is in a chip block."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.blocks: list[dict] = []
        self.links: list[dict] = []  # {"href", "in_block"} for every <a href> of the page
        self._depth = 0  # <div> nesting inside the current block; 0: outside any block
        self._chip: Optional[dict] = None
        self._in_count = False
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if tag == "a" and attributes.get("href") is not None:
            self.links.append({"href": attributes["href"], "in_block": bool(self._depth)})
        if tag == "div":
            if self._depth:
                self._depth += 1
            elif "tf-flow" in classes:
                self._depth = 1
                self.blocks.append({"label": None, "chips": []})
        elif not self._depth:
            return
        elif tag == "ul" and "tf-chips" in classes:
            self.blocks[-1]["label"] = attributes.get("aria-label")
        elif tag == "li" and "tf-more" not in classes:
            weight = next((int(name[4:]) for name in classes if name.startswith("tf-w")), 0)
            self._chip = {"text": "", "href": None, "current": False, "count": None, "weight": weight}
            self.blocks[-1]["chips"].append(self._chip)
        elif tag == "a" and self._chip is not None:
            self._chip["href"] = attributes.get("href")
            self._chip["current"] = "aria-current" in attributes
        elif tag == "span" and "tf-n" in classes and self._chip is not None:
            self._in_count = True
            self._chip["count"] = ""

    def handle_endtag(self, tag):
        if tag == "div" and self._depth:
            self._depth -= 1
        elif tag == "li":
            self._chip = None
        elif tag == "span":
            self._in_count = False

    def handle_data(self, data):
        if self._chip is not None:
            self._chip["count" if self._in_count else "text"] += data

    def pairs(self) -> list[list[tuple]]:
        """Each block's chips as (label, href) pairs."""
        return [[(chip["text"].strip(), chip["href"]) for chip in block["chips"]] for block in self.blocks]

    def labels(self) -> list[list[str]]:
        """Each block's chip labels (a chip's count is kept apart, in ``count``)."""
        return [[chip["text"].strip() for chip in block["chips"]] for block in self.blocks]


# Measures each chip as Chromium lays the page out: where it is in its block, how wide, and
# whether its text has the font the chip was measured with (the <li>'s). The breakpoints are
# Tagflow's defaults, which the host tests use.
PROBE = """
(() => {
  const breakpoints = [320, 480, 640, 800];
  const blocks = [];
  for (const flow of document.querySelectorAll('.tf-flow')) {
    const step = breakpoints.filter((b) => b <= flow.clientWidth).length - 1;
    const origin = flow.getBoundingClientRect();
    const chips = [];
    for (const li of flow.querySelectorAll('.tf-chips > li:not(.tf-more)')) {
      const box = li.getBoundingClientRect();
      const text = getComputedStyle(li.firstElementChild);
      const own = getComputedStyle(li);
      chips.push({
        label: li.textContent, x: box.left - origin.left, y: box.top - origin.top, width: box.width,
        placedX: parseFloat(li.style.getPropertyValue('--x' + step) || '0'),
        placedY: parseFloat(li.style.getPropertyValue('--y' + step) || '0'),
        placedWidth: parseFloat(li.style.width),
        font: [text.fontSize, text.fontWeight, text.fontFamily],
        measuredFont: [own.fontSize, own.fontWeight, own.fontFamily],
      });
    }
    blocks.push({width: flow.clientWidth, step, chips});
  }
  document.body.setAttribute('data-tagflow-probe', JSON.stringify(blocks));
})();
"""


class _ProbeResult(html.parser.HTMLParser):
    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.result: Optional[str] = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        if tag == "body":
            self.result = dict(attrs).get("data-tagflow-probe")


def rendered_chips(test: unittest.TestCase, page: Path, width: int = 1200) -> list:
    """The chip blocks of ``page`` as headless Chromium draws them (see ``PROBE``)."""
    browser = next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)
    if browser is None:
        unavailable(test, "no Chromium to render pages with (apt-get install chromium)")
    # A copy beside the page, so its stylesheets and links resolve as the page's own do.
    probe = page.with_name("tagflow-probe.html")
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", f"<script>{PROBE}</script></body>", 1))
    result = subprocess.run(
        [
            browser,
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            f"--window-size={width},900",
            "--dump-dom",
            probe.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    found = _ProbeResult(result.stdout).result
    test.assertIsNotNone(found, f"Chromium did not run the probe: {result.stderr[-2000:]}")
    return json.loads(found)


def assert_chips_in_place(test: unittest.TestCase, blocks: list, where: str) -> None:
    """Every chip where Tagflow placed it, as wide as measured, in the font it was measured in.

    A host's own CSS can break that: margins on `ul`/`li` in the content, or rules for a class the
    chips still carry, that outrank the chip stylesheet. Every chip that is off is listed.
    """
    test.assertTrue(blocks, f"{where}: no chip block")
    problems = []
    for block in blocks:
        for chip in block["chips"]:
            label = f"{where}: chip {chip['label']!r} (block {block['width']} px wide)"
            if chip["font"] != chip["measuredFont"]:
                problems.append(f"{label}: text in {chip['font']}, measured in {chip['measuredFont']}")
            if abs(chip["width"] - chip["placedWidth"]) > 0.5:
                problems.append(f"{label}: {chip['width']} px wide, measured {chip['placedWidth']}")
            # Narrower than the first breakpoint the block is an ordinary wrapping list: no places.
            if block["step"] >= 0 and max(abs(chip["x"] - chip["placedX"]), abs(chip["y"] - chip["placedY"])) > 0.5:
                problems.append(
                    f"{label}: drawn at ({chip['x']}, {chip['y']}), placed at ({chip['placedX']}, {chip['placedY']})"
                )
    if problems:
        test.fail("chips not drawn as laid out:\n" + "\n".join(problems))
