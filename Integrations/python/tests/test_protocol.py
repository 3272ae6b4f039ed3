"""`tagflow chips --serve` against the real binary, raw and through ChipServer.

The server's blocks and stylesheet must equal what the one-shot `tagflow chips` prints for the
same input: the protocol is a faster way to the same output, not a second renderer.
"""

import json
import selectors
import subprocess
import tempfile
import unittest
from pathlib import Path

from tagflow_test_support import ChipBlocks, require_binary

from tagflow_integrations.client import ChipServer, TagflowError


def one_shot(binary, *arguments, stdin=None):
    result = subprocess.run([binary, "chips", *arguments], input=stdin, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise AssertionError(f"tagflow chips {' '.join(arguments)} failed: {result.stderr}")
    return result.stdout


class RawProtocolTests(unittest.TestCase):
    """The wire format itself: one line in, one flushed line out, exit 0 at end of input."""

    def setUp(self):
        self.binary = require_binary(self, serve=True)
        self.process = subprocess.Popen(
            [self.binary, "chips", "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.addCleanup(self._end)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.process.stdout, selectors.EVENT_READ)

    def _end(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if not stream.closed:
                stream.close()
        self.selector.close()

    def ask(self, line: bytes) -> dict:
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()
        # The answer must arrive while the input stays open: a server that does not flush
        # after each response would hang a build, so wait a bounded time, not forever.
        self.assertTrue(self.selector.select(timeout=60), f"no answer to {line!r} within 60 s")
        reply = self.process.stdout.readline()
        self.assertTrue(reply.endswith(b"\n"), reply)
        self.assertEqual(reply.count(b"\n"), 1)
        return json.loads(reply)

    def test_a_session(self):
        block = self.ask(json.dumps({"chips": [{"label": "Swift", "url": "/tags/swift/"}], "label": "Tags"}).encode())
        self.assertNotIn("error", block)
        self.assertTrue(block["html"].startswith('<div class="tf-flow">'), block["html"][:80])
        css = self.ask(b'{"css": true}')
        self.assertIn(".tf-flow", css["css"])
        for bad in (b"not json", b'{"chips": [{"url": "/no-label/"}]}', b"[1, 2]", b'{"neither": 1}'):
            answer = self.ask(bad)
            self.assertEqual(set(answer), {"error"}, bad)
            self.assertIsInstance(answer["error"], str)
            self.assertTrue(answer["error"])
        # Still serving after the errors, and the same answer as before.
        again = self.ask(json.dumps({"chips": [{"label": "Swift", "url": "/tags/swift/"}], "label": "Tags"}).encode())
        self.assertEqual(again, block)
        self.process.stdin.close()
        self.assertEqual(self.process.wait(timeout=60), 0)


class ChipServerTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def setUp(self):
        self.binary = require_binary(self, serve=True)
        self.server = ChipServer(executable=self.binary)
        self.addCleanup(self.server.close)

    def test_blocks_equal_the_one_shot_command(self):
        chips = [
            {"label": "Swift", "url": "/tags/swift/", "count": 12},
            {"label": "C++", "url": "/tags/c-plus-plus/"},
            {"label": "标签布局"},
            {"label": "<script>alert(1)</script>", "url": "/tags/x/?a=1&b=2"},
        ]
        html = self.server.html(chips, label="Post tags")
        expected = one_shot(self.binary, "--format", "html", "--label", "Post tags", stdin=json.dumps(chips))
        self.assertEqual(html, expected.rstrip("\n"))
        [block] = ChipBlocks(html).blocks
        self.assertEqual(block["label"], "Post tags")
        self.assertEqual([chip["text"].strip() for chip in block["chips"]], [chip["label"] for chip in chips])
        self.assertEqual(block["chips"][0]["count"], "12")
        self.assertEqual(block["chips"][3]["href"], "/tags/x/?a=1&b=2")
        self.assertNotIn("<script>", html)

    def test_plain_labels_current_and_weights(self):
        html = self.server.html(
            [
                "Plain",
                "Linked -> /tags/linked/",  # a string reads as on tagflow's command line
                {"label": "Here", "url": "/tags/here/", "current": True},
                {"label": "Heavy", "weight": 2},
            ]
        )
        [block] = ChipBlocks(html).blocks
        plain, linked, here, heavy = block["chips"]
        self.assertEqual((plain["text"], plain["href"]), ("Plain", None))
        self.assertEqual((linked["text"], linked["href"]), ("Linked", "/tags/linked/"))
        self.assertTrue(here["current"])
        self.assertEqual(heavy["weight"], 2)

    def test_the_server_weighs_by_count_when_asked(self):
        chips = [{"label": f"t{count}", "count": count} for count in (1, 3, 10, 40, 100)]
        unweighted = ChipBlocks(self.server.html(chips)).blocks[0]["chips"]
        weighted = ChipBlocks(self.server.html(chips, weighted=True)).blocks[0]["chips"]
        self.assertEqual({chip["weight"] for chip in unweighted}, {0})
        steps = [chip["weight"] for chip in weighted]
        self.assertEqual(steps, sorted(steps), "more uses, never a smaller step")
        self.assertEqual(steps[0], 0)
        self.assertGreater(steps[-1], 0)

    def test_css_equals_the_one_shot_stylesheet_and_is_asked_once(self):
        css = self.server.css()
        self.assertEqual(css, one_shot(self.binary, "--format", "css"))
        self.assertIs(self.server.css(), css)

    def test_config_reaches_the_server(self):
        config = Path(self.folder.name) / "chips.yml"
        config.write_text("font_size: 19\nbreakpoints: [300, 700]\n")
        with ChipServer(executable=self.binary, config=config) as server:
            css = server.css()
            html = server.html(["Swift"])
        self.assertEqual(css, one_shot(self.binary, "--format", "css", "--config", str(config)))
        self.assertNotEqual(css, self.server.css())
        self.assertIn("min-width:700px", css)
        self.assertEqual(html, one_shot(self.binary, "--format", "html", "--config", str(config), "Swift").rstrip("\n"))

    def test_an_error_is_raised_with_its_message_and_the_process_goes_on(self):
        self.server.html(["Warm-up"])
        process = self.server._process
        with self.assertRaises(TagflowError) as raised:
            self.server.html([{"url": "/tags/no-label/"}])
        self.assertTrue(str(raised.exception).startswith("tagflow chips: "), str(raised.exception))
        self.assertGreater(len(str(raised.exception)), len("tagflow chips: "))
        self.assertIn("tf-flow", self.server.html(["After"]))
        self.assertIs(self.server._process, process, "one process for the whole build")
        self.server.close()
        self.assertEqual(process.returncode, 0, "end of input ends the server with exit 0")
        # A closed server starts a new process when used again.
        self.assertIn("tf-flow", self.server.html(["Reopened"]))
        self.assertIsNot(self.server._process, process)


if __name__ == "__main__":
    unittest.main()
