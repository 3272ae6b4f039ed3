# Adapted from ../shared/oracle/chromium_cdp.py: the project's own copy of the DevTools-pipe driver,
# shared by the browser conformance harnesses in this folder.
"""Minimal headless-Chromium driver over the DevTools protocol (CDP) pipe.

Python 3 standard library only: Chromium is started with
``--remote-debugging-pipe`` and reads CDP messages from fd 3 and writes
them to fd 4, each message a JSON text terminated by a NUL byte. No
websocket, no network port, no extra packages.

Fonts are isolated: Chromium gets a private fontconfig configuration
(FONTCONFIG_FILE) whose only font directory holds symlinks to the font
files the caller names. System fonts are therefore invisible, and any
fallback can only land on fonts that the job listed explicitly. This keeps
results identical across machines that have different fonts installed.

Used by measure_text.py and flex_layout.py; not meant to be run directly.
"""

import fcntl
import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

# Flags shared by every launch. They are recorded in each output's "meta".
BASE_FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--remote-debugging-pipe",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-extensions",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--mute-audio",
    "--force-device-scale-factor=1",
    "--window-size=1600,1200",
    "--allow-file-access-from-files",
    # Nothing should ever go to the network; make it fail fast if it tries.
    "--proxy-server=127.0.0.1:9",
    "--proxy-bypass-list=<-loopback>",
]


class CDPError(RuntimeError):
    pass


def find_chromium(explicit=None):
    """Return the Chromium executable: --chromium, $CHROMIUM, or PATH."""
    for cand in (explicit, os.environ.get("CHROMIUM")):
        if cand:
            return cand
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        p = shutil.which(name)
        if p:
            return p
    raise SystemExit("chromium not found: install Debian's 'chromium' or pass --chromium")


def file_sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


class Browser:
    """One Chromium process, one page target, driven synchronously."""

    def __init__(self, font_files=(), chromium=None, extra_flags=(),
                 system_fonts=False, fc_match_xml="", hinting=None,
                 verbose=False):
        self.verbose = verbose
        self.exe = find_chromium(chromium)
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="chromium-oracle-"))
        self.font_dir = self.tmp / "fonts"
        self.font_dir.mkdir()
        for i, f in enumerate(font_files):
            src = pathlib.Path(f).resolve()
            os.symlink(src, self.font_dir / f"{i:02d}-{src.name}")
        env = dict(os.environ)
        self.fontconfig_desc = {
            "fonts": "system fonts + listed files" if system_fonts
            else "isolated: only the listed font files",
            "hinting": hinting or "system"}
        if system_fonts:
            # The machine's own fontconfig setup, plus a user config (read by
            # the system's 50-user.conf) that adds our directory and rules.
            ucfg = self.tmp / "xdg" / "fontconfig"
            ucfg.mkdir(parents=True)
            (ucfg / "fonts.conf").write_text(
                '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n'
                "<fontconfig>\n"
                f"  <dir>{self.font_dir}</dir>\n"
                f"{fc_match_xml}"
                "</fontconfig>\n")
            env["XDG_CONFIG_HOME"] = str(self.tmp / "xdg")
        else:
            conf = self.tmp / "fonts.conf"
            conf.write_text(
                '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n'
                "<fontconfig>\n"
                f"  <dir>{self.font_dir}</dir>\n"
                f"  <cachedir>{self.tmp / 'fc-cache'}</cachedir>\n"
                f"{fc_match_xml}"
                "</fontconfig>\n")
            env["FONTCONFIG_FILE"] = str(conf)
            env.pop("FONTCONFIG_PATH", None)
        self.flags = BASE_FLAGS + list(extra_flags) + [
            f"--user-data-dir={self.tmp / 'profile'}", "about:blank"]
        # Pipes: we write to child's fd 3, read from child's fd 4.
        to_child_r, self._to_child_w = os.pipe()
        self._from_child_r, from_child_w = os.pipe()

        def _setup_fds():
            # Runs in the child before exec: put the pipe ends on fds 3/4
            # and close everything else above stderr.
            a = fcntl.fcntl(to_child_r, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(from_child_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)
            os.closerange(5, 65536)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        self._log = open(self.tmp / "chromium.log", "wb")
        self.proc = subprocess.Popen(
            [self.exe] + self.flags, stdin=subprocess.DEVNULL,
            stdout=self._log, stderr=self._log, env=env,
            preexec_fn=_setup_fds, close_fds=False,
            start_new_session=True)
        os.close(to_child_r)
        os.close(from_child_w)
        self._buf = b""
        self._next_id = 0
        self._events = []
        self.session = None
        try:
            self.version = self.call("Browser.getVersion")
            self._attach()
        except BaseException:
            log = (self.tmp / "chromium.log").read_text(errors="replace")[-2000:]
            self.close()
            raise CDPError("chromium failed to start:\n" + log)

    # -- protocol -----------------------------------------------------------
    def _send(self, msg):
        data = json.dumps(msg).encode() + b"\0"
        view = memoryview(data)
        while view:
            n = os.write(self._to_child_w, view)
            view = view[n:]

    def _recv(self):
        while b"\0" not in self._buf:
            chunk = os.read(self._from_child_r, 1 << 20)
            if not chunk:
                raise CDPError("chromium closed the pipe; log: %s" %
                               (self.tmp / "chromium.log"))
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=True):
        self._next_id += 1
        mid = self._next_id
        msg = {"id": mid, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        self._send(msg)
        while True:
            m = self._recv()
            if m.get("id") == mid:
                if "error" in m:
                    raise CDPError(f"{method}: {m['error']}")
                return m.get("result", {})
            if "method" in m:
                self._events.append(m)

    def wait_event(self, method, timeout=60):
        deadline = time.time() + timeout
        while True:
            for i, e in enumerate(self._events):
                if e["method"] == method:
                    return self._events.pop(i)
            if time.time() > deadline:
                raise CDPError(f"timeout waiting for {method}")
            m = self._recv()
            if "method" in m:
                self._events.append(m)

    def _attach(self):
        t = self.call("Target.createTarget", {"url": "about:blank"}, session=False)
        a = self.call("Target.attachToTarget",
                      {"targetId": t["targetId"], "flatten": True}, session=False)
        self.session = a["sessionId"]
        self.call("Page.enable")
        self.call("Runtime.enable")

    # -- helpers ------------------------------------------------------------
    def load_html(self, html):
        """Write html to a file in the temp dir and navigate there (file://)."""
        self._page_no = getattr(self, "_page_no", 0) + 1
        page = self.tmp / f"page{self._page_no}.html"
        page.write_text(html, encoding="utf-8")
        self._events = [e for e in self._events if e["method"] != "Page.loadEventFired"]
        self.call("Page.navigate", {"url": page.as_uri()})
        self.wait_event("Page.loadEventFired")

    def evaluate(self, expression, await_promise=True):
        r = self.call("Runtime.evaluate", {
            "expression": expression, "awaitPromise": await_promise,
            "returnByValue": True})
        if "exceptionDetails" in r:
            raise CDPError("JS exception: " + json.dumps(r["exceptionDetails"])[:2000])
        return r["result"].get("value")

    def close(self):
        try:
            self.call("Browser.close", session=False)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            # Only the process (group) we started ourselves.
            os.killpg(self.proc.pid, 15)
            self.proc.wait(timeout=10)
        for fd in (self._to_child_w, self._from_child_r):
            try:
                os.close(fd)
            except OSError:
                pass
        self._log.close()
        if not self.verbose:
            shutil.rmtree(self.tmp, ignore_errors=True)
        else:
            print("kept temp dir", self.tmp, file=sys.stderr)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def resolve_font(ref, base_dir):
    """Turn a font reference from an input file into an absolute file path.

    "fontconfig:<pattern>" (e.g. "fontconfig:DejaVu Sans:style=Book") is
    looked up with the machine's fc-match, and must match the family asked
    for (fc-match itself would silently substitute another font) and be
    face 0 of its file (@font-face always loads face 0 of a collection).
    Anything else is a path: relative paths are tried against base_dir (the
    input file's folder) and then the current directory.
    """
    if ref.startswith("fontconfig:"):
        pattern = ref[len("fontconfig:"):]
        try:
            out = subprocess.run(
                ["fc-match", "--format=%{file}\n%{index}\n%{family}", pattern],
                capture_output=True, text=True, check=True).stdout.split("\n")
        except (OSError, subprocess.CalledProcessError) as e:
            raise SystemExit(f"fc-match failed for {ref!r}: {e}")
        path, index, families = out[0], out[1], out[2].split(",")
        want = pattern.split(":")[0].strip().lower()
        if want and want not in [f.strip().lower() for f in families]:
            raise SystemExit(f"{ref!r}: fontconfig has no such family "
                             f"(fc-match offered {families[0]!r}); install it")
        if index not in ("", "0"):
            raise SystemExit(f"{ref!r} is face {index} of {path}; @font-face "
                             "can only load face 0 of a collection")
        return path
    cand = pathlib.Path(ref)
    if not cand.is_absolute():
        for root in (pathlib.Path(base_dir), pathlib.Path.cwd()):
            if (root / cand).exists():
                return str((root / cand).resolve())
    if not cand.exists():
        raise SystemExit(f"font file not found: {ref}")
    return str(cand.resolve())


def font_face_css(family, path):
    """@font-face rule loading one exact file through a file:// URL."""
    uri = pathlib.Path(path).resolve().as_uri()
    return ('@font-face { font-family: "%s"; src: url("%s"); '
            "font-display: block; }\n" % (family, uri))


def css_family_list(families):
    return ", ".join('"%s"' % f for f in families)


# JS run in the page before measuring: makes sure every @font-face is loaded
# (document.fonts.load for each family with a sample of the text to render).
JS_LOAD_FONTS = r"""
async function __loadFonts(families, sizePx, sample) {
  const out = {};
  for (const fam of families) {
    try {
      const faces = await document.fonts.load(`${sizePx}px "${fam}"`, sample || "a");
      out[fam] = faces.length;
    } catch (e) { out[fam] = "error: " + e; }
  }
  await document.fonts.ready;
  const st = {};
  for (const f of document.fonts) st[f.family.replace(/"/g, "")] = f.status;
  return {loaded: out, status: st};
}
"""


def meta(browser, font_files):
    return {
        "chromium": browser.version.get("product"),
        "user_agent": browser.version.get("userAgent"),
        "flags": [f for f in browser.flags if not f.startswith("--user-data-dir")
                  and f != "about:blank"],
        "fontconfig": browser.fontconfig_desc,
        "fonts": [{"file": os.path.basename(f), "bytes": os.path.getsize(f),
                   "sha256": file_sha256(f)} for f in font_files],
    }


# Hinting presets. Chromium on Linux takes hinting from fontconfig, and it
# decides glyph advances from it: with "full" hinting every glyph advance
# (and kerning) is rounded to whole pixels; with "slight" or "none" it uses
# subpixel positioning and the unhinted (fractional) advances, as Chromium
# on macOS, Windows and Android does. Debian's own default is slight.
HINTING = ("slight", "none", "full", "system")


def hinting_xml(hinting):
    if hinting in (None, "system"):
        return ""
    style = {"slight": "hintslight", "none": "hintnone", "full": "hintfull"}[hinting]
    on = "false" if hinting == "none" else "true"
    return ('  <match target="pattern">\n'
            f'    <edit name="hinting" mode="assign"><bool>{on}</bool></edit>\n'
            f'    <edit name="hintstyle" mode="assign"><const>{style}</const></edit>\n'
            '    <edit name="antialias" mode="assign"><bool>true</bool></edit>\n'
            '  </match>\n')


def add_common_args(ap):
    """Command-line options shared by measure_text.py and flex_layout.py."""
    ap.add_argument("--chromium", help="Chromium executable (default: $CHROMIUM or 'chromium' on PATH)")
    ap.add_argument("--hinting", choices=HINTING, default="slight",
                    help="fontconfig hinting given to Chromium (default slight = "
                    "fractional advances; 'system' = leave the machine's fontconfig "
                    "rules; 'full' = whole-pixel advances)")
    ap.add_argument("--system-fonts", action="store_true",
                    help="let Chromium see the machine's installed fonts for fallback "
                    "(default: only the font files named in the input)")
    ap.add_argument("--keep-temp", action="store_true",
                    help="keep the temp dir (generated page, chromium.log)")


def browser_from_args(args, font_files):
    return Browser(font_files, chromium=args.chromium,
                   system_fonts=args.system_fonts,
                   fc_match_xml=hinting_xml(args.hinting),
                   hinting=args.hinting, verbose=args.keep_temp)
