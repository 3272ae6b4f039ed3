"""The Python-Markdown extension: ```chips fences become chip blocks, other fences stay code."""

import importlib.util
import textwrap
import unittest

from tagflow_test_support import ChipBlocks, require_binary, require_installed, require_modules

try:
    import markdown

    from tagflow_integrations.markdown import TagflowExtension, is_safe_url, parse_chips
except ImportError:  # reported per test by require_modules
    markdown = None

from tagflow_integrations.client import ChipServer, TagflowError

PAGE = textwrap.dedent(
    """\
    # Notes

    ```python
    print("<b>" -> 1)
    ```

    ```chips Languages
    Swift -> /tags/swift/
    C++ -> /tags/c-plus-plus/

    Rust
    ```

    Between the blocks.

    ~~~chips
    Zig -> https://ziglang.org/
    ~~~

    ````markdown
    ```chips
    An example, not a block
    ```
    ````
    """
)


class NeedsMarkdown(unittest.TestCase):
    def setUp(self):
        require_modules(self, "markdown")


class ParseTests(NeedsMarkdown):
    def test_lines(self):
        content = "  Swift -> /tags/swift/ \n\nRust\nZig->https://ziglang.org/\n\tC# -> tags/c-sharp/\n"
        self.assertEqual(
            parse_chips(content),
            [
                {"label": "Swift", "url": "/tags/swift/"},
                {"label": "Rust"},
                {"label": "Zig", "url": "https://ziglang.org/"},
                {"label": "C#", "url": "tags/c-sharp/"},
            ],
        )

    def test_the_first_arrow_splits(self):
        self.assertEqual(parse_chips("a -> b -> /c/"), [{"label": "a", "url": "b -> /c/"}])

    def test_base_path_goes_before_root_relative_urls_only(self):
        chips = parse_chips("A -> /tags/a/\nB -> //cdn.example/b\nC -> c/\nD -> https://d.example/", base_path="/blog/")
        self.assertEqual(
            [chip["url"] for chip in chips], ["/blog/tags/a/", "//cdn.example/b", "c/", "https://d.example/"]
        )
        self.assertEqual(parse_chips("A -> /a/", base_path="/")[0]["url"], "/a/")

    def test_errors_say_what_to_write(self):
        for content in ("-> /tags/x/", "X ->", "   \n\n"):
            with self.assertRaises(TagflowError) as raised:
                parse_chips(content)
            self.assertIn("chips block", str(raised.exception))
        with self.assertRaises(TagflowError) as raised:
            parse_chips("Bad -> ")
        self.assertIn("write `Label -> /path/` or just `Label`", str(raised.exception))

    def test_unsafe_links_are_refused_unless_allowed(self):
        for url in (
            "javascript:alert(1)",
            " JavaScript:x",
            "java\tscript:x",
            "vbscript:x",
            "file:///etc/passwd",
            "data:text/html,<b>",
        ):
            self.assertFalse(is_safe_url(url), url)
            with self.assertRaises(TagflowError):
                parse_chips(f"X -> {url}")
            self.assertEqual(parse_chips(f"X -> {url}", unsafe=True)[0]["url"], url.strip(" \t"))
        for url in (
            "/tags/x/",
            "tags/x/",
            "https://x.example/",
            "mailto:a@b.example",
            "data:image/png;base64,AA",
            "./javascript:x",
            "?q=javascript:x",
            "#javascript:x",
            "javascript",
        ):
            self.assertTrue(is_safe_url(url), url)


class FencesWithoutTagflowTests(NeedsMarkdown):
    """Documents without a ```chips block never need tagflow, and are converted as before."""

    def test_other_fences_are_untouched(self):
        text = PAGE.split("```chips Languages")[0] + PAGE.split("~~~\n\n")[1]
        plain = markdown.markdown(text, extensions=["fenced_code"])
        # An executable that does not exist: any attempt to start tagflow would raise.
        extension = TagflowExtension(tagflow="/nonexistent/tagflow")
        self.assertEqual(markdown.markdown(text, extensions=[extension, "fenced_code"]), plain)
        self.assertIn('<code class="language-python">print(&quot;&lt;b&gt;&quot; -&gt; 1)', plain)
        self.assertIn("```chips\nAn example, not a block\n```", plain)

    def test_an_unclosed_chips_fence_stays_text(self):
        text = "```chips\nSwift\n\nno closing fence\n"
        extension = TagflowExtension(tagflow="/nonexistent/tagflow")
        self.assertEqual(markdown.markdown(text, extensions=[extension]), markdown.markdown(text))

    def test_a_bad_block_is_an_error_before_tagflow_is_needed(self):
        extension = TagflowExtension(tagflow="/nonexistent/tagflow")
        with self.assertRaises(TagflowError) as raised:
            markdown.markdown("```chips\nX -> javascript:alert(1)\n```\n", extensions=[extension])
        self.assertIn("not allowed", str(raised.exception))

    def test_the_css_option_is_checked(self):
        with self.assertRaises(TagflowError):
            TagflowExtension(css="external")


class RenderTests(NeedsMarkdown):
    def setUp(self):
        super().setUp()
        self.binary = require_binary(self, serve=True)

    def convert(self, text=PAGE, extensions=("fenced_code",), **options):
        extension = TagflowExtension(tagflow=self.binary, **options)
        return markdown.markdown(text, extensions=[extension, *extensions])

    def test_chips_fences_become_blocks_and_the_rest_is_markdown(self):
        html = self.convert()
        blocks = ChipBlocks(html)
        self.assertEqual(html.count('class="tf-flow"'), 2)
        self.assertEqual(blocks.labels(), [["Swift", "C++", "Rust"], ["Zig"]])
        self.assertEqual([block["label"] for block in blocks.blocks], ["Languages", "Chips"])
        self.assertEqual(blocks.blocks[0]["chips"][1]["href"], "/tags/c-plus-plus/")
        # The stash keeps the block byte for byte as tagflow wrote it (no <p>, no escaping).
        with ChipServer(executable=self.binary) as server:
            expected = server.html([{"label": "Zig", "url": "https://ziglang.org/"}], label="Chips")
        self.assertIn(expected, html)
        self.assertNotIn("<p><div", html)
        # The fences of other languages are what fenced_code makes of them without this extension.
        self.assertIn('<pre><code class="language-python">print(&quot;&lt;b&gt;&quot; -&gt; 1)\n</code></pre>', html)
        self.assertIn("```chips\nAn example, not a block\n```", html)
        self.assertIn("<p>Between the blocks.</p>", html)

    def test_inline_css_once_per_document(self):
        html = self.convert()
        self.assertEqual(html.count("<style>"), 1)
        with ChipServer(executable=self.binary) as server:
            css = server.css()
        self.assertLess(html.index("<style>"), html.index('class="tf-flow"'))
        self.assertIn(css, html)
        # The next document gets its own.
        md = markdown.Markdown(extensions=[TagflowExtension(tagflow=self.binary), "fenced_code"])
        self.assertEqual(md.convert(PAGE).count("<style>"), 1)
        self.assertEqual(md.reset().convert(PAGE).count("<style>"), 1)

    def test_css_none_leaves_the_stylesheet_to_the_site(self):
        html = self.convert(css="none")
        self.assertNotIn("<style>", html)
        self.assertEqual(html.count('class="tf-flow"'), 2)

    def test_base_path(self):
        html = self.convert("```chips\nSwift -> /tags/swift/\n```\n", base_path="/blog/")
        self.assertEqual(ChipBlocks(html).blocks[0]["chips"][0]["href"], "/blog/tags/swift/")

    def test_without_fenced_code(self):
        html = self.convert("Text\n\n```chips\nA\nB\n```\n\nMore text\n", extensions=())
        self.assertEqual(ChipBlocks(html).labels(), [["A", "B"]])
        self.assertIn("<p>More text</p>", html)

    def test_alongside_superfences(self):
        if importlib.util.find_spec("pymdownx") is None:
            self.skipTest("pymdown-extensions is not installed")
        html = self.convert(extensions=("pymdownx.superfences",))
        self.assertEqual(ChipBlocks(html).labels(), [["Swift", "C++", "Rust"], ["Zig"]])
        self.assertIn("An example, not a block", html)  # inside superfences' own code block

    def test_by_dotted_name(self):
        html = markdown.markdown(
            PAGE,
            extensions=["tagflow_integrations.markdown", "fenced_code"],
            extension_configs={"tagflow_integrations.markdown": {"tagflow": self.binary}},
        )
        self.assertEqual(html.count('class="tf-flow"'), 2)

    def test_by_entry_point_name(self):
        require_installed(self)
        html = markdown.markdown(
            PAGE, extensions=["tagflow", "fenced_code"], extension_configs={"tagflow": {"tagflow": self.binary}}
        )
        self.assertEqual(html.count('class="tf-flow"'), 2)


if __name__ == "__main__":
    unittest.main()
