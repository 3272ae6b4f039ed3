#!/usr/bin/env python3
"""Real-browser check of a post with images, highlighted code, a table of contents and a page bundle.

Builds a small site with `tagflow build`: a bundle post (`posts/2024-04-01-trip/index.md`) with a
wide photo and a tall one beside it, `toc: true`, and headings. Serves it on a loopback port that
holds each image back for a moment, so the text is laid out before any image arrives (as on a slow
network), and opens the post at 375 and 1280 px, light and dark. It fails on:
  - layout shift: the PerformanceObserver's layout-shift entries must add up to 0 on load (an
    image without width and height pushes the text down when it arrives);
  - an image drawn at another aspect ratio than its file's, or wider than the page;
  - horizontal overflow of the page;
  - text of the content or the table of contents under 4.5:1 contrast with its background, and
    any highlighted token under 4.5:1 with the code's (or a marked line's) background;
  - a code block drawn with more or fewer rows than it has lines (a marked line, a block, must
    not add an empty row), or a long line that widens the page instead of scrolling the block;
  - a table of contents whose links do not lead to the headings;
  - any <script>;
and, built again with `relative_links: true` and opened from the disk (file://), that the page is
styled, its first image loads and its tag links lead to files.

Usage: Tests/Browser/writing_browser.py [--tagflow PATH] [--chromium PATH]
Without Chromium it prints SKIPPED and exits 0 (exit 1 when $CI is set).
"""
import argparse
import functools
import http.server
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import chromium_cdp as cdp  # noqa: E402

cdp.BASE_FLAGS = [f for f in cdp.BASE_FLAGS if not f.startswith("--proxy-bypass-list")]
cdp.BASE_FLAGS.append("--proxy-bypass-list=127.0.0.1")

WIDTHS = [375, 1280]
SCHEMES = ["light", "dark"]
IMAGE_DELAY = 0.4  # seconds the server holds each image back

POST = """---
title: A trip to the sea
tags: [Travel, Photography]
toc: true
---
We drove to the coast for a weekend of walks and photographs, and this is what we saw on the way.

![The beach at dawn](beach.png)

## The drive

Four hours along the river, with a stop for coffee in a town whose name nobody remembers.

```swift {linenos, 2}
let coast = Trip(hours: 4) // the long way, over the hills and along the river, past every village
print("Arrived after \\(coast.hours) hours")
/* parked */ var photos: [Photo] = []
```

![The lighthouse](lighthouse.png)

### A detour

The road was closed, so we took the old one over the hills.

## The beach

Wide, empty, and colder than it looked.
"""


def png(width, height, rgb):
    """A PNG of one colour, from the standard library alone."""
    row = b"\x00" + bytes(rgb) * width
    raw = zlib.compress(row * height, 9)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


CHECK_JS = r"""
new Promise(resolve => {
  let shift = 0;
  new PerformanceObserver(list => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) shift += entry.value;
  }).observe({type: 'layout-shift', buffered: true});
  const images = [...document.querySelectorAll('.content img')];
  Promise.all(images.map(img => img.complete ? null : new Promise(r => { img.onload = r; img.onerror = r; })))
    .then(() => requestAnimationFrame(() => requestAnimationFrame(() => {
      const problems = [];
      const where = `${location.pathname} @${innerWidth}px ${matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'}`;
      if (shift > 0) problems.push(`${where}: layout shift ${shift}`);
      if (document.documentElement.scrollWidth > innerWidth)
        problems.push(`${where}: the page is ${document.documentElement.scrollWidth}px wide`);
      for (const img of images) {
        const r = img.getBoundingClientRect();
        if (!img.naturalWidth) { problems.push(`${where}: ${img.src} did not load`); continue; }
        const drawn = r.width / r.height, natural = img.naturalWidth / img.naturalHeight;
        if (Math.abs(drawn - natural) > 0.01) problems.push(`${where}: ${img.alt} drawn at ${drawn}, file ${natural}`);
        if (r.right > innerWidth) problems.push(`${where}: ${img.alt} ends at ${r.right}`);
        if (!img.getAttribute('width') || !img.getAttribute('height')) problems.push(`${where}: ${img.alt} has no size`);
      }
      const lazy = images.map(img => img.loading);
      if (lazy.join() !== 'auto,lazy' && lazy.join() !== ',lazy' && lazy.join() !== 'eager,lazy')
        problems.push(`${where}: loading ${lazy.join()}`);
      const toc = document.querySelectorAll('.toc a');
      if (toc.length !== 3) problems.push(`${where}: the table of contents has ${toc.length} links`);
      for (const a of toc) if (!document.getElementById(decodeURIComponent(a.hash.slice(1))))
        problems.push(`${where}: ${a.hash} leads nowhere`);
      // Contrast of text with the first opaque background behind it (WCAG 2 relative luminance).
      const rgb = c => c.match(/[\d.]+/g).map(Number);
      const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
        .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
      const background = el => {
        for (; el; el = el.parentElement) { const c = rgb(getComputedStyle(el).backgroundColor); if (c.length < 4 || c[3] > 0) return c; }
        return [255, 255, 255];
      };
      for (const el of document.querySelectorAll('.content p, .content h2, .content h3, .toc a, .meta, h1')) {
        const a = lum(rgb(getComputedStyle(el).color)), b = lum(background(el));
        const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        if (ratio < 4.5) problems.push(`${where}: "${el.textContent.slice(0, 30)}" contrast ${ratio.toFixed(2)}`);
      }
      for (const token of document.querySelectorAll('.content pre.code [class^="tok-"]')) {
        const a = lum(rgb(getComputedStyle(token).color)), b = lum(background(token));
        const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        if (ratio < 4.5) problems.push(`${where}: ${token.className} "${token.textContent.slice(0, 20)}" contrast ${ratio.toFixed(2)}`);
      }
      const blocks = document.querySelectorAll('.content pre.code');
      if (blocks.length !== 1 || !blocks[0].querySelector('.tok-keyword') || !blocks[0].querySelector('.line.marked'))
        problems.push(`${where}: the code block is not highlighted`);
      for (const pre of blocks) {
        const style = getComputedStyle(pre);
        const lines = pre.querySelectorAll('.line');
        const rows = (pre.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)) / parseFloat(style.lineHeight);
        if (Math.abs(rows - lines.length) > 0.25) problems.push(`${where}: ${lines.length} lines drawn as ${rows.toFixed(2)} rows`);
        if (pre.scrollWidth <= pre.clientWidth && innerWidth < 600) problems.push(`${where}: the long line does not scroll its block`);
        if (pre.getBoundingClientRect().right > innerWidth) problems.push(`${where}: the code block ends at ${pre.getBoundingClientRect().right}`);
        if (getComputedStyle(lines[0], '::before').content !== 'counter(line)') problems.push(`${where}: lines are not numbered`);
      }
      resolve({problems, shift, images: images.length, scripts: document.querySelectorAll('script').length});
    })));
})
"""


def serve(folder):
    class SlowImages(http.server.SimpleHTTPRequestHandler):
        def do_GET(self):
            if self.path.endswith(".png"):
                time.sleep(IMAGE_DELAY)
            super().do_GET()

        def log_message(self, *args):
            pass

    handler = functools.partial(SlowImages, directory=folder)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    # The browser drops connections it no longer needs (a favicon at shutdown): not a problem.
    server.handle_error = lambda request, address: None
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tagflow", default=os.environ.get("TAGFLOW", os.path.join(ROOT, ".build/debug/tagflow")))
    ap.add_argument("--chromium")
    args = ap.parse_args()
    try:
        cdp.find_chromium(args.chromium)
    except SystemExit:
        print("SKIPPED: chromium not found")
        return 1 if os.environ.get("CI") else 0
    work = tempfile.mkdtemp(prefix="tagflow-writing-")
    try:
        source = os.path.join(work, "blog")
        bundle = os.path.join(source, "posts", "2024-04-01-trip")
        os.makedirs(bundle)
        with open(os.path.join(source, "site.yml"), "w") as f:
            f.write("title: Sea and sky\n")
        with open(os.path.join(bundle, "index.md"), "w") as f:
            f.write(POST)
        with open(os.path.join(bundle, "beach.png"), "wb") as f:
            f.write(png(1600, 900, (70, 130, 180)))
        with open(os.path.join(bundle, "lighthouse.png"), "wb") as f:
            f.write(png(400, 700, (200, 60, 50)))
        site = os.path.join(work, "site")
        subprocess.run([args.tagflow, "build", source, "-o", site, "-q"], check=True)
        server = serve(site)
        url = "http://127.0.0.1:%d/posts/trip/" % server.server_address[1]
        problems, views, shifts = [], 0, []
        with cdp.Browser([], chromium=args.chromium, system_fonts=True) as browser:
            for scheme in SCHEMES:
                browser.call("Emulation.setEmulatedMedia",
                             {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
                for width in WIDTHS:
                    browser.call("Emulation.setDeviceMetricsOverride",
                                 {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": False})
                    # The load event waits for the images; the observer is given the shifts
                    # since the navigation (`buffered`).
                    browser._events = [e for e in browser._events if e["method"] != "Page.loadEventFired"]
                    browser.call("Page.navigate", {"url": url})
                    browser.wait_event("Page.loadEventFired")
                    result = browser.evaluate(CHECK_JS)
                    views += 1
                    shifts.append(result["shift"])
                    problems += result["problems"]
                    if result["images"] != 2:
                        problems.append(f"{scheme} @{width}px: {result['images']} images in the content")
                    if result["scripts"]:
                        problems.append(f"{scheme} @{width}px: {result['scripts']} <script> elements")
            # relative_links: the same site opened from the disk is styled, its images show, and
            # following a tag's link reaches the tag's page.
            with open(os.path.join(source, "site.yml"), "a") as f:
                f.write("relative_links: true\n")
            on_disk = os.path.join(work, "on-disk")
            subprocess.run([args.tagflow, "build", source, "-o", on_disk, "-q"], check=True)
            browser._events = [e for e in browser._events if e["method"] != "Page.loadEventFired"]
            browser.call("Page.navigate", {"url": "file://" + os.path.join(on_disk, "posts/trip/index.html")})
            browser.wait_event("Page.loadEventFired")
            state = browser.evaluate(
                "(() => ({sheets: [...document.styleSheets].map(s => { try { return s.cssRules.length; }"
                " catch (e) { return 0; } }),"
                " images: [...document.images].filter(i => i.loading !== 'lazy').map(i => i.naturalWidth),"
                " tag: (document.querySelector('a[href*=\"tags/\"]') || {}).href}))()")
            if not state["sheets"] or 0 in state["sheets"]:
                problems.append(f"file://: stylesheets not loaded: {state['sheets']}")
            if 0 in state["images"]:
                problems.append(f"file://: images not loaded: {state['images']}")
            tag = state["tag"] or ""
            if not tag.startswith("file://") or not os.path.isfile(tag[len("file://"):].split("#")[0]):
                problems.append(f"file://: the tag link {tag!r} leads to no file")
        server.shutdown()
        print(f"writing in Chromium: {views} views of a bundle post (images held back {IMAGE_DELAY} s), "
              f"layout shift {max(shifts):.4f} at most")
        for problem in problems[:50]:
            print("  FAIL " + problem)
        if problems:
            print("%d problems" % len(problems))
            return 1
        print("all checks passed")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
