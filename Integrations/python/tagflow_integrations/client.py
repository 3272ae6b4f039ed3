"""Run the ``tagflow`` executable: find it, keep one chip server per build, enhance a built site.

Tagflow's layout engine is a Swift program, so every integration talks to it as a subprocess:
``tagflow chips --serve`` (JSON Lines on stdin/stdout) for chip blocks made while Markdown is
converted, and ``tagflow enhance DIR`` for tag lists in a site that is already built.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import tempfile
import threading
import weakref
from collections.abc import Iterable, Mapping
from typing import Any, Optional, Union

__all__ = [
    "ENV_VAR",
    "ChipServer",
    "TagflowError",
    "TagflowNotFound",
    "enhance",
    "find_tagflow",
    "normalize_base_path",
    "shared_server",
]

#: The environment variable that names the executable when no explicit path is configured.
ENV_VAR = "TAGFLOW"

PathLike = Union[str, "os.PathLike[str]"]
Chip = Union[str, Mapping[str, Any]]

logger = logging.getLogger(__name__)

INSTALL_HINT = (
    "The Tagflow integrations run the `tagflow` program, which is not part of this Python "
    "package. Build and install it from the Tagflow source (`make && sudo make install` puts it "
    "in /usr/local/bin, `make install PREFIX=~/.local` in ~/.local/bin), then either put it on "
    "PATH or name it: set the environment variable TAGFLOW=/path/to/tagflow, or the `tagflow` "
    "option (MkDocs plugin, Markdown extension) or TAGFLOW_PATH (pelicanconf.py)."
)


class TagflowError(RuntimeError):
    """``tagflow`` reported an error, or could not be run; the message says which and why."""


class TagflowNotFound(TagflowError):
    """No ``tagflow`` executable where one was looked for."""


def find_tagflow(path: Optional[PathLike] = None) -> str:
    """Return the absolute path of the ``tagflow`` executable to run.

    Looks at ``path`` (a file, or a command name looked up on PATH), then ``$TAGFLOW``, then PATH.
    A path that is given but wrong is an error rather than a reason to fall back: running some
    other ``tagflow`` than the one configured would hide the mistake.
    """
    if path:
        return _executable(os.fspath(path), "the configured tagflow path")
    from_env = os.environ.get(ENV_VAR)
    if from_env:
        return _executable(from_env, f"${ENV_VAR}")
    found = shutil.which("tagflow")
    if found:
        return os.path.abspath(found)
    raise TagflowNotFound("cannot find the `tagflow` executable on PATH. " + INSTALL_HINT)


def _executable(candidate: str, source: str) -> str:
    # shutil.which checks a name with a directory part as a file and looks a bare name up on
    # PATH; the result is made absolute so a later change of working directory cannot break it.
    found = shutil.which(os.path.expanduser(candidate))
    if not found:
        raise TagflowNotFound(f"{source} is {candidate!r}, which is not an executable file. " + INSTALL_HINT)
    return os.path.abspath(found)


def normalize_base_path(path: Optional[str]) -> Optional[str]:
    """``"blog"``, ``"/blog"`` or ``"/blog/"`` as ``"/blog/"``; ``None`` for the root or nothing."""
    if not path:
        return None
    trimmed = path.strip().strip("/")
    return f"/{trimmed}/" if trimmed else None


class ChipServer:
    """One ``tagflow chips --serve`` process, started on first use and reused for every block.

    Starting ``tagflow`` costs more than laying out a block, so a build keeps one process for all
    its pages. Use it as a context manager or call :meth:`close`; a server still open when the
    interpreter exits is closed then. Safe to share between threads: requests are serialized.
    """

    def __init__(self, executable: Optional[PathLike] = None, config: Optional[PathLike] = None):
        self.executable = executable
        self.config = config
        self._lock = threading.Lock()
        self._process: Optional[subprocess.Popen] = None
        self._stop: Optional[weakref.finalize] = None
        self._stderr: Any = None
        self._css: Optional[str] = None

    def html(self, chips: Iterable[Chip], label: Optional[str] = None, weighted: bool = False) -> str:
        """A chip block's HTML (``<div class="tf-flow">…</div>``).

        Each chip is a string, ``Label`` or ``Label -> url`` as on tagflow's command line, or a
        mapping with ``label`` and optionally ``url``, ``count``, ``weight`` (a step, 0…n) and
        ``current``. ``label`` is the list's accessible name (tagflow's default: "Tags");
        ``weighted`` asks the server to weigh the chips by their counts, for a tag cloud.
        """
        # Strings go as they are: the server reads them as its command line does.
        request: dict[str, Any] = {"chips": [chip if isinstance(chip, str) else dict(chip) for chip in chips]}
        if label is not None:
            request["label"] = label
        if weighted:
            request["weighted"] = True
        return self._ask(request, "html")

    def css(self) -> str:
        """The stylesheet every chip block needs, the same for all blocks (so asked for once)."""
        if self._css is None:
            self._css = self._ask({"css": True}, "css")
        return self._css

    def close(self) -> None:
        """Ends the process (closing its input, which it answers by exiting 0). Idempotent."""
        with self._lock:
            if self._stop is not None:
                self._stop()
            self._process = self._stop = self._stderr = None

    def __enter__(self) -> ChipServer:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def _ask(self, request: Mapping[str, Any], key: str) -> str:
        # json.dumps escapes newlines inside strings, so one request is always exactly one line.
        line = (json.dumps(request, ensure_ascii=False) + "\n").encode("utf-8")
        with self._lock:
            process = self._start()
            try:
                process.stdin.write(line)
                process.stdin.flush()
                reply = process.stdout.readline()
            except OSError:  # a broken pipe: the process is gone, and _stopped says why
                reply = b""
            if not reply:
                raise self._stopped()
        try:
            response = json.loads(reply)
        except ValueError:
            response = None
        if not isinstance(response, dict):
            raise TagflowError(
                f"`tagflow chips --serve` answered with something other than a JSON object: {reply[:200]!r}"
            )
        if "error" in response:
            raise TagflowError(f"tagflow chips: {response['error']}")
        value = response.get(key)
        if not isinstance(value, str):
            raise TagflowError(f"`tagflow chips --serve` answered without {key!r}: {reply[:200]!r}")
        return value

    def _start(self) -> subprocess.Popen:
        if self._process is not None:
            return self._process
        command = [find_tagflow(self.executable), "chips", "--serve"]
        if self.config:
            command.append(f"--config={os.fspath(self.config)}")
        # stderr goes to a file, not a pipe: nobody reads it while the server runs, and a full
        # pipe would block the server. It is read when the server stops, to say why.
        stderr = tempfile.TemporaryFile()
        try:
            process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr)
        except OSError as error:
            stderr.close()
            raise TagflowError(f"cannot run {command[0]}: {error}") from error
        self._process, self._stderr = process, stderr
        # A finalizer rather than __del__: it also runs at interpreter exit, and it holds the
        # process, not the server, so an unused server can still be garbage-collected.
        self._stop = weakref.finalize(self, _stop_process, process, stderr)
        return process

    def _stopped(self) -> TagflowError:
        """The error for a server that closed its output; forgets it, so the next request starts a new one."""
        process, stderr = self._process, self._stderr
        try:
            status = process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            status = None
        message = _read(stderr)
        self._stop()
        self._process = self._stop = self._stderr = None
        why = f"exit status {status}" if status is not None else "output closed"
        text = f"`tagflow chips --serve` stopped ({why})"
        if message:
            text += f":\n{message}"
        if status == 2:  # bad usage: most likely a tagflow from before --serve existed
            text += "\nThis tagflow may be too old to have `tagflow chips --serve`; install a newer one."
        return TagflowError(text)


def _stop_process(process: subprocess.Popen, stderr: Any) -> None:
    # End of input is the protocol's way to stop: the server exits 0 by itself.
    try:
        process.stdin.close()
    except OSError:
        pass
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    process.stdout.close()
    # Warnings (an unknown key in the chip settings, say) would otherwise never be seen.
    warnings = _read(stderr)
    if warnings and process.returncode == 0:
        logger.warning("tagflow chips: %s", warnings)
    stderr.close()


def _read(stderr: Any) -> str:
    if stderr is None or stderr.closed:
        return ""
    stderr.seek(0)
    return stderr.read().decode("utf-8", "replace").strip()


_shared: dict[tuple[Optional[str], Optional[str]], ChipServer] = {}
_shared_lock = threading.Lock()


def shared_server(executable: Optional[PathLike] = None, config: Optional[PathLike] = None) -> ChipServer:
    """The process-wide server for these settings.

    Hosts make a new Markdown converter (and extension) for every page, so the server cannot live
    in the extension; keeping it here gives a whole build one ``tagflow`` process per setting.
    """
    key = (
        os.fspath(executable) if executable else None,
        os.path.abspath(os.fspath(config)) if config else None,
    )
    with _shared_lock:
        server = _shared.get(key)
        if server is None:
            server = _shared[key] = ChipServer(executable, config)
        return server


def enhance(
    site_dir: PathLike,
    presets: Iterable[str] = (),
    selectors: Iterable[str] = (),
    config: Optional[PathLike] = None,
    base_path: Optional[str] = None,
    strict: bool = False,
    executable: Optional[PathLike] = None,
) -> subprocess.CompletedProcess:
    """Run ``tagflow enhance`` over a built site, rewriting its tag lists as chip blocks in place.

    Returns the finished process: ``stdout`` holds the one-line summary, ``stderr`` any warnings.
    Raises :class:`TagflowError` with tagflow's own messages when it fails.
    """
    command = [find_tagflow(executable), "enhance", os.path.abspath(os.fspath(site_dir))]
    # --option=value keeps a value that starts with "-" (a selector, say) from reading as an option.
    if config:
        command.append(f"--config={os.fspath(config)}")
    command += [f"--preset={preset}" for preset in _strings(presets)]
    command += [f"--selector={selector}" for selector in _strings(selectors)]
    base = normalize_base_path(base_path)
    if base:
        command.append(f"--base-path={base}")
    if strict:
        command.append("--strict")
    result = subprocess.run(
        command, stdin=subprocess.DEVNULL, capture_output=True, text=True, encoding="utf-8", errors="replace"
    )
    if result.returncode != 0:
        details = (result.stderr.strip() or result.stdout.strip() or "no message").rstrip()
        if result.returncode == 2:  # bad usage: an unknown option, or no `enhance` at all
            details += "\nThis tagflow may be too old to have `tagflow enhance`; install a newer one."
        raise TagflowError(f"tagflow enhance failed (exit status {result.returncode}):\n{details}")
    return result


def _strings(values: Union[str, Iterable[str], None]) -> list[str]:
    # A lone string is one value, not a sequence of one-letter presets.
    if values is None:
        return []
    if isinstance(values, str):
        return [values]
    return [str(value) for value in values]
