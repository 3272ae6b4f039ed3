"""The MkDocs plugin on a real site: mkdocs-material with its tags plugin, built by `mkdocs build`.

Each build runs MkDocs as its own process, as a user would, so the plugin is found through the
installed package's entry point (pip install ./Integrations/python).
"""

import shutil
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

INDEX = textwrap.dedent(
    """\
    ---
    tags:
      - Swift
      - C++
      - Layout
    ---
    # Home

    ```chips Languages
    Swift -> /languages/swift/
    Rust
    ```

    ```python
    print("chips")
    ```
    """
)

OTHER = textwrap.dedent(
    """\
    ---
    tags:
      - Swift
    ---
    # Other

    No chips block here.
    """
)


def material_tags(html):
    """The tags Material writes into a page's header: `.md-tag` links (or spans) in `.md-tags`."""
    return TagLinks(html, lambda tag, attributes: "md-tag" in (attributes.get("class") or "").split()).pairs


class MkDocsSite(unittest.TestCase):
    def setUp(self):
        require_modules(self, "mkdocs", "material")
        require_installed(self)
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.root = Path(folder.name)
        docs = self.root / "docs"
        docs.mkdir()
        (docs / "index.md").write_text(INDEX)
        (docs / "other.md").write_text(OTHER)
        (docs / "tags.md").write_text("# Tags\n\n<!-- material/tags -->\n")

    def build(self, binary, plugins="[tags, tagflow]", site="site", extra=""):
        config = (
            "site_name: Chips test\n"
            "site_url: https://example.org/docs/\n"
            f"site_dir: {site}\n"
            "theme:\n"
            "  name: material\n"
            "  font: false\n"  # Material would fetch its web font otherwise
            f"plugins: {plugins}\n"
        ) + extra
        (self.root / "mkdocs.yml").write_text(config)
        return subprocess.run(
            [sys.executable, "-m", "mkdocs", "build"],
            cwd=self.root,
            env=host_environment(binary),
            capture_output=True,
            text=True,
            timeout=600,
        )

    def page(self, site, path):
        return (self.root / site / path).read_text(encoding="utf-8")


class MkDocsBuildTests(MkDocsSite):
    def setUp(self):
        super().setUp()
        self.binary = require_binary(self, serve=True, enhance=True)

    def test_tag_lists_and_chips_fences_become_chip_blocks(self):
        # The same site without tagflow says which tags, with which links, each page shows.
        reference = self.build(self.binary, plugins="[tags]", site="reference")
        self.assertEqual(reference.returncode, 0, reference.stderr)
        expected = {path: material_tags(self.page("reference", path)) for path in ("index.html", "other/index.html")}
        self.assertEqual([label for label, _ in expected["other/index.html"]], ["Swift"])
        self.assertEqual(sorted(label for label, _ in expected["index.html"]), ["C++", "Layout", "Swift"])

        built = self.build(self.binary)
        self.assertEqual(built.returncode, 0, built.stderr)
        for path, tags in expected.items():
            html = self.page("site", path)
            chips = ChipBlocks(html)
            self.assertIn(tags, chips.pairs(), f"{path}: the tag list as chips, same labels and links")
            # Material's list is gone; its links keep their `md-tag` class inside the chips (the chip
            # stylesheet's layout rules are !important, so the class cannot move or resize them:
            # test_chips_render_where_tagflow_placed_them checks that in a browser).
            self.assertNotIn('class="md-tags"', html, f"{path}: no Material tag list left")
            hrefs = {href for _, href in tags}
            self.assertTrue(all(link["in_block"] for link in chips.links if link["href"] in hrefs), path)
            # The stylesheet, linked once per page.
            self.assertEqual(html.count("assets/tagflow-chips.css"), 1, path)

        css = (self.root / "site" / "assets" / "tagflow-chips.css").read_text()
        self.assertIn(".tf-flow", css)

        index = self.page("site", "index.html")
        [fence] = [block for block in ChipBlocks(index).blocks if block["label"] == "Languages"]
        # site_url's path is the base path of root-relative links in chips blocks.
        self.assertEqual(
            [(chip["text"], chip["href"]) for chip in fence["chips"]],
            [("Swift", "/docs/languages/swift/"), ("Rust", None)],
        )
        self.assertIn('<code class="language-python">print(&quot;chips&quot;)', index)

    def test_chips_render_where_tagflow_placed_them(self):
        # In Material's content column, whose CSS styles every `ul`, `li` and `.md-tag` there.
        built = self.build(self.binary)
        self.assertEqual(built.returncode, 0, built.stderr)
        blocks = rendered_chips(self, self.root / "site" / "index.html")
        self.assertEqual(len(blocks), 2, "the page's tags and its ```chips block")
        assert_chips_in_place(self, blocks, "index.html")

    def test_fenced_false_leaves_chips_fences_to_markdown(self):
        built = self.build(self.binary, plugins="\n  - tags\n  - tagflow:\n      fenced: false")
        self.assertEqual(built.returncode, 0, built.stderr)
        index = self.page("site", "index.html")
        self.assertIn("Swift -&gt; /languages/swift/", index)  # as text, however Markdown takes it
        self.assertNotIn("Rust", [label for labels in ChipBlocks(index).labels() for label in labels])
        # The tag list is still replaced: `fenced` is only about ```chips blocks.
        self.assertTrue(ChipBlocks(index).blocks)


class MkDocsErrorTests(MkDocsSite):
    """How a build fails: with tagflow's message, and no traceback."""

    def test_missing_tagflow_stops_the_build_with_the_install_hint(self):
        built = self.build("/nonexistent/tagflow")
        output = built.stdout + built.stderr
        self.assertNotEqual(built.returncode, 0)
        self.assertIn("$TAGFLOW is '/nonexistent/tagflow', which is not an executable file", output)
        self.assertIn("make install", output)
        self.assertNotIn("Traceback", output)
        self.assertFalse((self.root / "site" / "index.html").exists(), "stopped before building")

    def test_a_bad_chips_block_names_the_page(self):
        (self.root / "docs" / "index.md").write_text("# Home\n")  # the one block is the bad one
        (self.root / "docs" / "bad.md").write_text("# Bad\n\n```chips\nX -> javascript:alert(1)\n```\n")
        # Any executable passes the plugin's early check; the block fails before tagflow is asked.
        built = self.build(shutil.which("true"))
        output = built.stdout + built.stderr
        self.assertNotEqual(built.returncode, 0)
        self.assertIn("Error reading page 'bad.md'", output)
        self.assertIn("chips block: 'X' links to 'javascript:alert(1)', which is not allowed", output)
        self.assertNotIn("Traceback", output)


if __name__ == "__main__":
    unittest.main()
