"""The Pelican plugin on a real site (the default theme), built by `pelican` in its own process.

Both ways of naming the plugin are built: the namespace plugin `tagflow`, which needs the package
installed beside Pelican (pip install ./Integrations/python), and the module path
`tagflow_integrations.pelican`, run here from this source tree.
"""

import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

from tagflow_test_support import (
    ChipBlocks,
    TagLinks,
    assert_chips_in_place,
    host_environment,
    rendered_chips,
    require_binary,
    require_installed,
    require_modules,
)

ARTICLE = textwrap.dedent(
    """\
    Title: Hello
    Date: 2024-03-05
    Tags: Swift, C++, Layout

    Body text.

    ```chips Languages
    Swift -> /languages/swift/
    Rust
    ```

    ```python
    print("chips")
    ```
    """
)

SETTINGS = textwrap.dedent(
    """\
    SITENAME = "Chips test"
    SITEURL = ""
    PATH = "content"
    TIMEZONE = "UTC"
    DEFAULT_LANG = "en"
    FEED_ALL_ATOM = None
    CATEGORY_FEED_ATOM = None
    TRANSLATION_FEED_ATOM = None
    AUTHOR_FEED_ATOM = None
    AUTHOR_FEED_RSS = None
    """
)


def theme_tags(html):
    """The default theme's tag links: plain `<a href="/tag/….html">` after "tags:"."""
    return TagLinks(
        html, lambda tag, attributes: tag == "a" and (attributes.get("href") or "").startswith("/tag/")
    ).pairs


class PelicanSite(unittest.TestCase):
    def setUp(self):
        require_modules(self, "pelican", "markdown")
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.root = Path(folder.name)
        (self.root / "content").mkdir()
        (self.root / "content" / "hello.md").write_text(ARTICLE)

    def build(self, binary, settings="", output="output", source_on_path=False):
        (self.root / "pelicanconf.py").write_text(SETTINGS + settings)
        return subprocess.run(
            [sys.executable, "-m", "pelican", "content", "-s", "pelicanconf.py", "-o", output],
            cwd=self.root,
            env=host_environment(binary, source_on_path=source_on_path),
            capture_output=True,
            text=True,
            timeout=600,
        )

    def page(self, output, path):
        return (self.root / output / path).read_text(encoding="utf-8")


class PelicanBuildTests(PelicanSite):
    def setUp(self):
        super().setUp()
        self.binary = require_binary(self, serve=True, enhance=True)
        # The site without the plugin: which tag links each page shows.
        reference = self.build(self.binary, "PLUGINS = []\n", output="reference")
        self.assertEqual(reference.returncode, 0, reference.stdout + reference.stderr)
        self.expected = {path: theme_tags(self.page("reference", path)) for path in ("hello.html", "index.html")}
        self.assertEqual(
            self.expected["hello.html"],
            [("Swift", "/tag/swift.html"), ("C++", "/tag/c.html"), ("Layout", "/tag/layout.html")],
        )

    def check_enhanced(self, output):
        for path, tags in self.expected.items():
            html = self.page(output, path)
            chips = ChipBlocks(html)
            self.assertIn(tags, chips.pairs(), f"{path}: the tag list as chips, same labels and links")
            self.assertTrue(all(link["in_block"] for link in chips.links if link["href"].startswith("/tag/")), path)
            self.assertEqual(html.count("assets/tagflow-chips.css"), 1, f"{path}: the stylesheet linked once")
        self.assertIn(".tf-flow", (self.root / output / "assets" / "tagflow-chips.css").read_text())

    def check_fence(self, output):
        html = self.page(output, "hello.html")
        [fence] = [block for block in ChipBlocks(html).blocks if block["label"] == "Languages"]
        self.assertEqual(
            [(chip["text"], chip["href"]) for chip in fence["chips"]], [("Swift", "/languages/swift/"), ("Rust", None)]
        )
        self.assertIn('<div class="highlight"><pre>', html)  # the python fence, as codehilite makes it
        self.assertEqual(html.count("<style>"), 1)

    def test_as_namespace_plugin(self):
        require_installed(self)
        built = self.build(self.binary, 'PLUGINS = ["tagflow"]\n')
        self.assertEqual(built.returncode, 0, built.stdout + built.stderr)
        self.check_enhanced("output")
        self.check_fence("output")

    def test_by_module_path(self):
        built = self.build(self.binary, 'PLUGINS = ["tagflow_integrations.pelican"]\n', source_on_path=True)
        self.assertEqual(built.returncode, 0, built.stdout + built.stderr)
        self.check_enhanced("output")
        self.check_fence("output")

    def test_chips_render_where_tagflow_placed_them(self):
        built = self.build(self.binary, 'PLUGINS = ["tagflow_integrations.pelican"]\n', source_on_path=True)
        self.assertEqual(built.returncode, 0, built.stdout + built.stderr)
        blocks = rendered_chips(self, self.root / "output" / "hello.html")
        self.assertEqual(len(blocks), 2, "the article's tags and its ```chips block")
        assert_chips_in_place(self, blocks, "hello.html")

    def test_fenced_false(self):
        built = self.build(
            self.binary, 'PLUGINS = ["tagflow_integrations.pelican"]\nTAGFLOW_FENCED = False\n', source_on_path=True
        )
        self.assertEqual(built.returncode, 0, built.stdout + built.stderr)
        self.check_enhanced("output")
        html = self.page("output", "hello.html")
        self.assertNotIn("Languages", [block["label"] for block in ChipBlocks(html).blocks])
        self.assertIn("Swift -&gt; /languages/swift/", html)


class PelicanErrorTests(PelicanSite):
    def test_missing_tagflow_stops_the_build_with_the_install_hint(self):
        built = self.build("/nonexistent/tagflow", 'PLUGINS = ["tagflow_integrations.pelican"]\n', source_on_path=True)
        output = built.stdout + built.stderr
        self.assertEqual(built.returncode, 1, output)
        self.assertIn("$TAGFLOW is '/nonexistent/tagflow', which is not an executable file", output)
        self.assertIn("make install", output)
        self.assertNotIn("Traceback", output)
        self.assertFalse((self.root / "output" / "hello.html").exists(), "stopped before writing")


if __name__ == "__main__":
    unittest.main()
