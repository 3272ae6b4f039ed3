"""A Python-Markdown extension: ```` ```chips ```` fenced blocks become Tagflow chip blocks.

The syntax is Tagflow's own: one chip per line, ``Label`` or ``Label -> url``; words after
``chips`` on the opening fence are the list's accessible name (default "Chips")::

    ```chips Languages
    Swift -> /tags/swift/
    Rust
    ```

Use it as ``markdown.markdown(text, extensions=["tagflow"])`` (or the dotted name
``tagflow_integrations.markdown``). It runs before ``fenced_code`` and ``pymdownx.superfences``,
so both may be on; fences of other languages are left to them untouched.
"""

from __future__ import annotations

import re
from typing import Optional

from markdown import Markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor

from .client import ChipServer, TagflowError, normalize_base_path, shared_server

__all__ = ["ChipsPreprocessor", "TagflowExtension", "makeExtension", "parse_chips"]

# The opening fence as fenced_code reads it: at the start of a line, three or more backticks or
# tildes. The info string's first word is the language; the rest (for chips) is the label.
OPENING = re.compile(r"^(?P<fence>`{3,}|~{3,})[ ]*(?P<info>[^\n]*?)[ \t]*$")

# Scheme-less and most schemed links are fine; these run code or read local files when clicked.
# The same rule as Tagflow's URLPolicy (and cmark-gfm's safe mode).
UNSAFE_SCHEMES = {"javascript", "vbscript", "file"}
SAFE_DATA_TYPES = ("image/png", "image/gif", "image/jpeg", "image/webp")


def is_safe_url(url: str) -> bool:
    """Whether a chip's link is safe to write into a page (see ``UNSAFE_SCHEMES``)."""
    scheme = ""
    for char in url:
        # Browsers drop tabs and line breaks anywhere in a URL, and spaces or control characters
        # before it, so "java\tscript:" is "javascript:".
        if char in "\t\n\r" or (not scheme and ord(char) <= 0x20):
            continue
        if char == ":":
            break
        if not char.isascii() or len(scheme) >= 16 or char in "/?#":
            return True  # not a scheme: a relative URL
        scheme += char
    else:
        return True  # no colon, no scheme
    scheme = scheme.lower()
    if scheme == "data":
        rest = url.split(":", 1)[1].lower()
        return rest.startswith(SAFE_DATA_TYPES)
    return scheme not in UNSAFE_SCHEMES


def parse_chips(content: str, base_path: Optional[str] = None, unsafe: bool = False) -> list[dict[str, str]]:
    """A chips block's lines as chips for :meth:`ChipServer.html`, checked as Tagflow checks them.

    Root-relative URLs (``/tags/x/``, not ``//host/``) get ``base_path`` in front, so a site
    published under a sub-path keeps working links.
    """
    prefix = (normalize_base_path(base_path) or "/").rstrip("/")
    chips: list[dict[str, str]] = []
    for line in content.split("\n"):
        text = line.strip(" \t")
        if not text:
            continue
        if "->" not in text:
            chips.append({"label": text})
            continue
        label, url = (part.strip(" \t") for part in text.split("->", 1))
        if not label or not url:
            raise TagflowError(
                f"chips block: {text!r} needs a label and a URL around '->' (write `Label -> /path/` or just `Label`)"
            )
        if not unsafe and not is_safe_url(url):
            raise TagflowError(
                f"chips block: {label!r} links to {url!r}, which is not allowed "
                "(javascript:, vbscript:, file: and data: links are refused unless the `unsafe` option is on)"
            )
        if url.startswith("/") and not url.startswith("//"):
            url = prefix + url
        chips.append({"label": label, "url": url})
    if not chips:
        raise TagflowError("chips block is empty (write one label per line)")
    return chips


class ChipsPreprocessor(Preprocessor):
    """Replaces each top-level ```` ```chips ```` fence with a stashed chip block."""

    def __init__(self, md: Markdown, extension: TagflowExtension):
        super().__init__(md)
        self.extension = extension

    def run(self, lines: list[str]) -> list[str]:
        output: list[str] = []
        styled = False  # "inline" CSS: one <style> per document, before its first block
        index = 0
        while index < len(lines):
            opening = OPENING.match(lines[index])
            close = self._closing(lines, index, opening.group("fence")) if opening else None
            if close is None:
                # Not a fence, or one never closed (fenced_code leaves those as text too).
                output.append(lines[index])
                index += 1
                continue
            language, _, arguments = opening.group("info").partition(" ")
            if language != "chips":
                # Another language's fence is copied whole, so a ```chips example inside a
                # ````markdown block stays an example.
                output.extend(lines[index : close + 1])
            else:
                html = self._block("\n".join(lines[index + 1 : close]), arguments.strip() or "Chips")
                if not styled and self.extension.getConfig("css") == "inline":
                    html = f"<style>\n{self.extension.server().css()}</style>\n{html}"
                    styled = True
                # The stash keeps the HTML away from every later Markdown step; the blank lines
                # make the placeholder a block of its own.
                output.extend(["", self.md.htmlStash.store(html), ""])
            index = close + 1
        return output

    @staticmethod
    def _closing(lines: list[str], start: int, fence: str) -> Optional[int]:
        # fenced_code's rule: the same fence string, alone on its line but for trailing spaces.
        for index in range(start + 1, len(lines)):
            if lines[index].rstrip(" ") == fence:
                return index
        return None

    def _block(self, content: str, label: str) -> str:
        config = self.extension.getConfigs()
        chips = parse_chips(content, base_path=config["base_path"], unsafe=config["unsafe"])
        return self.extension.server().html(chips, label=label)


class TagflowExtension(Extension):
    """Registers :class:`ChipsPreprocessor`. Options: see ``config`` below."""

    #: A host may subclass the preprocessor, to report errors its own way.
    preprocessor_class = ChipsPreprocessor

    def __init__(self, **kwargs):
        self.config = {
            "tagflow": ["", "Path of the tagflow executable (default: $TAGFLOW, then PATH)"],
            "config": ["", "A YAML file with chip settings, passed to `tagflow chips --config`"],
            "css": ["inline", "'inline': a <style> before each document's first block; 'none': the site links it"],
            "base_path": ["", "The site's path prefix (/blog/), put before root-relative chip URLs"],
            "unsafe": [False, "Allow javascript:, vbscript:, file: and data: chip links"],
        }
        super().__init__(**kwargs)
        if self.getConfig("css") not in ("inline", "none"):
            raise TagflowError(
                f"the tagflow Markdown extension's css option must be 'inline' or 'none', not {self.getConfig('css')!r}"
            )

    def server(self) -> ChipServer:
        # Shared, not per extension: hosts make a new extension for every page.
        return shared_server(self.getConfig("tagflow") or None, self.getConfig("config") or None)

    def extendMarkdown(self, md: Markdown) -> None:
        # 29: after normalize_whitespace (30) has unified line endings and tabs, before
        # fenced_code and superfences (25) would take the fence as code.
        md.preprocessors.register(self.preprocessor_class(md, self), "tagflow_chips", 29)


def makeExtension(**kwargs) -> TagflowExtension:  # noqa: N802 - the name Python-Markdown looks for
    return TagflowExtension(**kwargs)
