"""Finding the executable, and how the client reports a tagflow that is missing or fails.

These need no real tagflow: the "executables" are small shell scripts written per test, each
standing for one situation (an old tagflow, a failing enhance) the client must explain.
"""

import os
import stat
import tempfile
import textwrap
import unittest
from pathlib import Path
from unittest import mock

import tagflow_test_support  # noqa: F401 - puts the source tree on sys.path

from tagflow_integrations.client import (
    ChipServer,
    TagflowError,
    TagflowNotFound,
    enhance,
    find_tagflow,
    normalize_base_path,
    shared_server,
)


class ScriptsTestCase(unittest.TestCase):
    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.folder = Path(folder.name)

    def script(self, name: str, body: str) -> Path:
        path = self.folder / name
        path.write_text("#!/bin/sh\n" + textwrap.dedent(body))
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
        return path


class FindTagflowTests(ScriptsTestCase):
    def test_missing_everywhere_says_how_to_install_and_name_it(self):
        with mock.patch.dict(os.environ, {"PATH": str(self.folder)}):
            os.environ.pop("TAGFLOW", None)  # patch.dict restores it afterwards
            with self.assertRaises(TagflowNotFound) as raised:
                find_tagflow()
        message = str(raised.exception)
        self.assertIn("cannot find the `tagflow` executable on PATH", message)
        self.assertIn("make install", message)
        self.assertIn("TAGFLOW=/path/to/tagflow", message)
        self.assertIn("TAGFLOW_PATH", message)

    def test_a_wrong_explicit_path_is_an_error_not_a_fallback(self):
        on_path = self.script("tagflow", "exit 0\n")
        with mock.patch.dict(os.environ, {"PATH": str(on_path.parent), "TAGFLOW": str(on_path)}):
            with self.assertRaises(TagflowNotFound) as raised:
                find_tagflow(self.folder / "nowhere" / "tagflow")
        self.assertIn("the configured tagflow path", str(raised.exception))
        self.assertIn("not an executable file", str(raised.exception))

    def test_a_wrong_environment_variable_is_named(self):
        with mock.patch.dict(os.environ, {"TAGFLOW": "/no/such/tagflow"}):
            with self.assertRaises(TagflowNotFound) as raised:
                find_tagflow()
        self.assertIn("$TAGFLOW is '/no/such/tagflow'", str(raised.exception))

    def test_a_file_that_is_not_executable_is_not_taken(self):
        plain = self.folder / "tagflow"
        plain.write_text("not a program")
        with self.assertRaises(TagflowNotFound):
            find_tagflow(plain)

    def test_order_explicit_then_environment_then_path(self):
        explicit = self.script("explicit-tagflow", "exit 0\n")
        from_env = self.script("env-tagflow", "exit 0\n")
        bin_folder = self.folder / "bin"
        bin_folder.mkdir()
        on_path = bin_folder / "tagflow"
        on_path.write_text("#!/bin/sh\n")
        on_path.chmod(0o755)
        with mock.patch.dict(os.environ, {"PATH": str(bin_folder), "TAGFLOW": str(from_env)}):
            self.assertEqual(find_tagflow(explicit), str(explicit))
            self.assertEqual(find_tagflow(), str(from_env))
            del os.environ["TAGFLOW"]
            self.assertEqual(find_tagflow(), str(on_path))
            # A bare name is looked up on PATH, and the answer is absolute.
            self.assertEqual(find_tagflow("tagflow"), str(on_path))

    def test_a_relative_path_becomes_absolute(self):
        self.script("tagflow", "exit 0\n")
        previous = os.getcwd()
        os.chdir(self.folder)
        self.addCleanup(os.chdir, previous)
        self.assertEqual(find_tagflow("./tagflow"), str(self.folder.resolve() / "tagflow"))


class ChipServerFailureTests(ScriptsTestCase):
    def test_nothing_runs_until_a_block_is_asked_for(self):
        server = ChipServer(executable=self.folder / "missing")  # no error yet: started lazily
        with self.assertRaises(TagflowNotFound):
            server.html(["Swift"])
        server.close()

    def test_a_tagflow_without_serve_is_explained(self):
        # What an older tagflow does with an option it does not know: usage error, status 2.
        old = self.script(
            "tagflow",
            """\
            echo "Error: Unknown option '--serve'" >&2
            exit 2
            """,
        )
        with ChipServer(executable=old) as server:
            with self.assertRaises(TagflowError) as raised:
                server.html([{"label": "Swift"}])
        message = str(raised.exception)
        self.assertIn("exit status 2", message)
        self.assertIn("Unknown option '--serve'", message)
        self.assertIn("too old", message)

    def test_an_answer_that_is_not_json_is_an_error(self):
        confused = self.script(
            "tagflow",
            """\
            read line
            echo "Usage: tagflow chips"
            cat >/dev/null
            """,
        )
        with ChipServer(executable=confused) as server, self.assertRaises(TagflowError) as raised:
            server.css()
        self.assertIn("other than a JSON object", str(raised.exception))

    def test_the_config_is_passed_and_the_server_is_started_once(self):
        # A stand-in that logs its arguments and answers every line the same way, to check what
        # the client sends; the real protocol is tested against tagflow in test_protocol.
        log = self.folder / "log"
        server_script = self.script(
            "tagflow",
            f"""\
            echo "$@" >> '{log}'
            while read line; do echo '{{"html": "<div class=\\"tf-flow\\"></div>"}}'; done
            """,
        )
        with ChipServer(executable=server_script, config="chips.yml") as server:
            self.assertEqual(server.html(["A"]), '<div class="tf-flow"></div>')
            self.assertEqual(server.html(["B"], label="L", weighted=True), '<div class="tf-flow"></div>')
        self.assertEqual(log.read_text(), "chips --serve --config=chips.yml\n")

    def test_shared_servers_are_one_per_setting(self):
        self.assertIs(shared_server("t", "a.yml"), shared_server("t", os.path.abspath("a.yml")))
        self.assertIsNot(shared_server("t", "a.yml"), shared_server("t", "b.yml"))
        self.assertIsNot(shared_server("t"), shared_server("u"))


class EnhanceTests(ScriptsTestCase):
    def test_arguments(self):
        log = self.folder / "log"
        tagflow = self.script(
            "tagflow",
            f"""\
            for argument in "$@"; do echo "$argument" >> '{log}'; done
            echo "Enhanced 3 pages"
            """,
        )
        result = enhance(
            self.folder / "site",
            presets="hugo",  # one string is one preset
            selectors=[".tags", "-odd"],
            config="tagflow.yml",
            base_path="blog",
            strict=True,
            executable=tagflow,
        )
        self.assertEqual(result.stdout.strip(), "Enhanced 3 pages")
        self.assertEqual(
            log.read_text().splitlines(),
            [
                "enhance",
                str(self.folder / "site"),
                "--config=tagflow.yml",
                "--preset=hugo",
                "--selector=.tags",
                "--selector=-odd",
                "--base-path=/blog/",
                "--strict",
            ],
        )

    def test_a_failure_raises_with_tagflow_s_message(self):
        tagflow = self.script(
            "tagflow",
            """\
            echo "site/index.html: error: no element matches the selector '.tags'" >&2
            exit 1
            """,
        )
        with self.assertRaises(TagflowError) as raised:
            enhance(self.folder, selectors=[".tags"], executable=tagflow)
        self.assertIn("tagflow enhance failed (exit status 1)", str(raised.exception))
        self.assertIn("no element matches the selector '.tags'", str(raised.exception))

    def test_a_missing_executable_gives_the_clear_error(self):
        with mock.patch.dict(os.environ, {"TAGFLOW": str(self.folder / "nope")}):
            with self.assertRaises(TagflowNotFound) as raised:
                enhance(self.folder)
        self.assertIn("make install", str(raised.exception))


class BasePathTests(unittest.TestCase):
    def test_forms(self):
        for given, expected in [
            (None, None),
            ("", None),
            ("/", None),
            ("blog", "/blog/"),
            ("/blog", "/blog/"),
            ("/blog/", "/blog/"),
            ("/a/b/", "/a/b/"),
        ]:
            self.assertEqual(normalize_base_path(given), expected, given)


if __name__ == "__main__":
    unittest.main()
