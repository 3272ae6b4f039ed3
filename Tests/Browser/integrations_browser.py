#!/usr/bin/env python3
"""`tagflow enhance` on the real example sites of each host (Python stdlib + headless Chromium).

Builds Integrations/examples/{hugo,jekyll,mkdocs,pelican} with their real generators
(Integrations/examples/build-all.sh), copies each built folder, runs `tagflow enhance` with the
host's preset and checks, per host:
  - exit 0, twice; the second run changes no byte of any file;
  - every tag list of the built site (found here by an independent reading of the host's markup,
    Integrations/examples/MARKUP.md) became exactly one chip block, with the same names, links and
    counts in the same order, and nothing else became a block; every post page has one; the tags
    page's block is a weighted cloud;
  - bytes: each page is the built page with each tag list element replaced by its block and one
    stylesheet link (to assets/tagflow-chips.css, relative to the page) inserted before </head>;
    pages without a list are byte-identical, other files identical; the only new file is the
    stylesheet; no <script> and no .wasm is added;
and then serves each enhanced site on loopback (under the site's path prefix) and opens a few
pages (home, tags page, posts) in Chromium at 320, 375, 768 and 1280 px with the pinned fonts of
chips_browser.py, running its in-page checks on every visible block (positions equal the numbers
written for the active breakpoint, no overlaps, chips inside their block and in reading order,
text inside its chip), checks that the page links the stylesheet and that it loaded, and that
the theme's own CSS does not override the chip rules (margins, padding, the link's font).
Failures listed in KNOWN_BUGS (reported, not yet fixed) are printed as KNOWN BUG and not counted.

Usage: Tests/Browser/integrations_browser.py [--tagflow PATH] [--chromium PATH] [--host H ...] [--keep]
A host that is not installed is SKIPPED, and so is everything without Chromium (exit 0; with $CI
set, exit 1). scripts/install-hosts.sh installs the hosts.
"""
import argparse
import functools
import html
import html.parser
import http.server
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXAMPLES = os.path.join(ROOT, "Integrations", "examples")
sys.path.insert(0, HERE)
# chips_browser lets loopback through the driver's dead proxy when it is imported.
from chips_browser import CHECK_JS, FONTS, WIDTHS, open_page  # noqa: E402
import chromium_cdp as cdp  # noqa: E402

STYLESHEET = "assets/tagflow-chips.css"

# The 8 posts are the same on every host (MARKUP.md); their slugs name the post pages.
SLUGS = sorted(f[:-3] for f in os.listdir(os.path.join(EXAMPLES, "mkdocs", "docs", "posts")) if f.endswith(".md"))
# Posts opened in the browser: C++ (escaping, `c` slug) and Café (non-ASCII).
BROWSER_POSTS = ["templates-and-generics", "coffee-stops-in-kyoto"]


def has_class(attrs, name):
    return name in (attrs.get("class") or "").split()


class Host:
    """One example site: how to find its tag lists (independently of tagflow) and its pages."""

    def __init__(self, name, preset, is_list, tag_href, post_page, tags_page, extra_pages, prefix):
        self.name, self.preset = name, preset
        self.is_list = is_list      # (tag, attrs) -> the element is a candidate tag list
        self.tag_href = tag_href    # an item's href (entities decoded) goes to a tag page
        self.post_page = post_page  # slug -> regex of the post page's path
        self.tags_page = tags_page  # the page listing every tag with its count, or None
        self.extra_pages = extra_pages
        self.prefix = prefix        # the path the site is served under


def config_value(path, pattern, default=""):
    try:
        with open(path, encoding="utf-8") as f:
            m = re.search(pattern, f.read(), re.M)
    except OSError:
        return default
    return m.group(1) if m else default


def url_prefix(url_or_path):
    """The path a site lives under ("/", "/blog/") from its base URL or base path."""
    path = urllib.parse.urlparse(url_or_path).path.strip("/")
    return "/" + path + "/" if path else "/"


HOSTS = [
    # PaperMod markup on posts and /tags/, Tagflow's partials (data-tagflow) on / and /posts/.
    Host("hugo", "hugo",
         lambda t, a: t == "ul" and ("data-tagflow" in a or has_class(a, "post-tags") or has_class(a, "terms-tags")),
         re.compile(r"^(https://example\.org)?/tags/[^/]+/$"),
         lambda s: r"posts/%s/index\.html" % re.escape(s), "tags/index.html", ["index.html", "posts/index.html"],
         url_prefix(config_value(os.path.join(EXAMPLES, "hugo", "hugo.toml"), r'^baseURL\s*=\s*"([^"]*)"'))),
    Host("jekyll", "jekyll",
         lambda t, a: (t == "p" and has_class(a, "post-tags")) or (t == "ul" and has_class(a, "tag-cloud")),
         re.compile(r"^/tags/[^/]+/$"),
         lambda s: r"\d{4}/\d\d/\d\d/%s\.html" % re.escape(s), "tags/index.html", ["index.html"],
         url_prefix(config_value(os.path.join(EXAMPLES, "jekyll", "_config.yml"), r'^baseurl:\s*"?([^"\n]*)"?'))),
    # Material's tags plugin: nav.md-tags on posts (none when [hidden]); its tags index has no list.
    Host("mkdocs", "mkdocs-material",
         lambda t, a: t == "nav" and has_class(a, "md-tags") and "hidden" not in a,
         re.compile(r"^(\.\./)*tags/#tag:[^/]+$"),
         lambda s: r"posts/%s/index\.html" % re.escape(s), None, ["index.html", "tags/index.html"],
         url_prefix(config_value(os.path.join(EXAMPLES, "mkdocs", "mkdocs.yml"), r'^site_url:\s*"?([^"\n]*)"?'))),
    # notmyidea: an unclassed <p> of tag links on every article, an unclassed <ul> on tags.html;
    # categories.html and authors.html look the same but link elsewhere.
    Host("pelican", "pelican",
         lambda t, a: t in ("p", "ul") and "class" not in a and "id" not in a,
         re.compile(r"^(\./|(\.\./)+)tag/[^/]+\.html$"),
         lambda s: r"%s\.html" % re.escape(s), "tags.html", ["index.html", "tag/japan.html"],
         url_prefix(config_value(os.path.join(EXAMPLES, "pelican", "pelicanconf.py"), r'^SITEURL\s*=\s*"([^"]*)"'))),
]

# Failures seen and reported: shown as KNOWN BUG and not counted. Each matches narrowly (host, page
# regex, kind, and optionally a "match" predicate on the message); when one no longer happens the
# suite fails, so that it is removed with the fix.
KNOWN_BUGS = []


def known_bug(host, page, kind, message):
    for i, bug in enumerate(KNOWN_BUGS):
        if (bug["host"] == host and kind in bug["kinds"] and re.fullmatch(bug["page"], page)
                and bug.get("match", lambda m: True)(message)):
            return i
    return None


# -- an independent reading of the built HTML: where the tag lists are ---------------------------

def text(b):
    """Bytes of the page (read as latin-1, so offsets are byte offsets) back to real text."""
    return b.encode("latin-1").decode("utf-8", "replace")


class ListFinder(html.parser.HTMLParser):
    """Finds the elements `host.is_list` accepts whose items all link to tag pages.

    Each list is (start, end, items) in byte offsets of the page; an item is
    {"name", "href", "count"}: the link's text without <sup>, its href, and its count (data-count,
    a <sup> inside the link, or a number that is the first text after the link inside its <li>).
    Of nested candidates, the innermost that holds items is the list."""

    def __init__(self, host, data):
        super().__init__(convert_charrefs=True)
        self.host, self.lists = host, []
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", data)]
        self.open = []     # candidates being read, outermost first
        self.item = None   # the item being read
        self.tail_of, self.tail = None, ""  # the item whose following text (in its <li>) is read
        self.li_depth = 0  # open <li> elements inside the candidates
        self.feed(data)
        self.close()

    def here(self):
        line, col = self.getpos()
        return self.line_starts[line - 1] + col

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for c in self.open:
            if tag == c["tag"]:
                c["depth"] += 1
        if self.host.is_list(tag, a) and not any(c["tag"] == tag for c in self.open):
            self.open.append({"tag": tag, "depth": 1, "start": self.here(), "items": [], "other": []})
            return
        if not self.open:
            return
        if tag == "li":
            self.li_depth += 1
            self.tail_of = None
        is_item = (tag == "a" and a.get("href") is not None) or (tag == "span" and has_class(a, "md-tag"))
        if is_item and self.item is None:
            href = a.get("href")
            if href is not None and not self.host.tag_href.match(text(href)):
                for c in self.open:
                    c["other"].append(text(href))
            self.item = {"tag": tag, "name": "", "href": text(href) if href is not None else None,
                         "count": int(a["data-count"]) if (a.get("data-count") or "").isdigit() else None,
                         "sup": 0, "suptext": "", "in_li": self.li_depth > 0}
            self.tail_of = None
        elif self.item is not None and tag == "sup":
            self.item["sup"] += 1

    def handle_endtag(self, tag):
        if not self.open:
            return
        if tag == "li":
            self.tail_of = None
            self.li_depth = max(0, self.li_depth - 1)
        if self.item is not None:
            if tag == "sup":
                self.item["sup"] -= 1
            elif tag == self.item["tag"]:
                item = self.item
                if item["count"] is None and item["suptext"].strip().isdigit():
                    item["count"] = int(item["suptext"].strip())
                entry = {"name": " ".join(text(item["name"]).split()), "href": item["href"], "count": item["count"]}
                self.open[-1]["items"].append(entry)
                self.item = None
                self.tail_of, self.tail = (entry if item["in_li"] else None), ""
        inner = self.open[-1]
        if tag == inner["tag"]:
            for c in self.open:
                if c["tag"] == tag:
                    c["depth"] -= 1
            if inner["depth"] == 0:
                end = self.rawdata.index(">", self.here()) + 1
                self.open.pop()
                if inner["items"] and not inner["other"]:
                    self.lists.append((inner["start"], end, inner["items"]))
                elif self.open and inner["items"]:
                    self.open[-1]["items"] += inner["items"]

    def handle_data(self, data):
        if self.item is not None:
            if self.item["sup"]:
                self.item["suptext"] += data
            else:
                self.item["name"] += data
        elif self.tail_of is not None:
            self.tail += data
            if self.tail.strip():
                m = re.match(r"\s*\(?(\d+)\)?", self.tail)
                if m and self.tail_of["count"] is None:
                    self.tail_of["count"] = int(m.group(1))
                self.tail_of = None


def tag_lists(host, data):
    return ListFinder(host, data.decode("latin-1")).lists


# -- what enhance wrote ---------------------------------------------------------------------------

BLOCK = re.compile(rb'<div class="tf-flow"[^>]*>.*?</ul></div>', re.S)
LINK = re.compile(rb'<link rel="stylesheet" href="([^"]*tagflow-chips\.css)">')
CHIP = re.compile(rb'<li((?: [a-z-]+="[^"]*")*)><(a|span)((?: [a-z-]+="[^"]*")*)>(.*?)</\2></li>', re.S)
COUNT = re.compile(rb' ?<span class="tf-n">(\d+)</span>$')


def chips(block):
    """The chips of a block: [{"name", "href", "count", "weight"}], or None if malformed."""
    m = re.fullmatch(rb'<div class="tf-flow"><ul class="tf-chips"( [^>]*)?>(.*)</ul></div>', block, re.S)
    if not m:
        return None
    body, out, pos = m.group(2), [], 0
    for c in CHIP.finditer(body):
        if c.start() != pos:
            return None
        pos = c.end()
        attrs = dict(re.findall(rb'([a-z-]+)="([^"]*)"', c.group(3)))
        li = dict(re.findall(rb'([a-z-]+)="([^"]*)"', c.group(1)))
        label, n = c.group(4), COUNT.search(c.group(4))
        if n:
            label = label[:n.start()]
        if b"<" in label:
            return None
        weight = re.search(rb"\btf-w(\d)\b", li.get(b"class", b""))
        out.append({"name": " ".join(html.unescape(text(label.decode("latin-1"))).split()),
                    "href": html.unescape(text(attrs[b"href"].decode("latin-1"))) if b"href" in attrs else None,
                    "count": int(n.group(1)) if n else None,
                    "weight": int(weight.group(1)) if weight else 0})
    return out if pos == len(body) else None


def element_end(data, start):
    """End of the element that starts at `start` (the matching close tag of its name), or -1."""
    m = re.compile(rb"<([a-zA-Z][a-zA-Z0-9]*)").match(data, start)
    if not m:
        return -1
    depth = 0
    for t in re.compile(rb"<(/?)%s\b[^>]*>" % re.escape(m.group(1)), re.I).finditer(data, start):
        depth += -1 if t.group(1) else 1
        if depth == 0:
            return t.end()
    return -1


def files(folder):
    out = {}
    for d, _, names in os.walk(folder):
        for n in names:
            p = os.path.join(d, n)
            out[os.path.relpath(p, folder).replace(os.sep, "/")] = p
    return out


def read(path):
    with open(path, "rb") as f:
        return f.read()


def missed(rel, before, start, items, fail):
    fail(rel, "missed", "the tag list %r (%s) is not a block" % (before[start:start + 40], [i["name"] for i in items]))


def compare_page(host, rel, before, after, fail):
    """Checks one HTML page; returns (blocks, lists, chips of each block)."""
    lists = tag_lists(host, before)
    blocks = list(BLOCK.finditer(after))
    links = list(LINK.finditer(after))
    if not blocks:
        if after != before:
            fail(rel, "bytes", "has no block but its bytes changed")
        for start, end, items in lists:
            missed(rel, before, start, items, fail)
        return 0, lists, []
    want_href = os.path.relpath(STYLESHEET, os.path.dirname(rel) or ".").replace(os.sep, "/")
    if len(links) != 1:
        fail(rel, "link", "%d stylesheet links to tagflow-chips.css, not 1" % len(links))
    elif links[0].group(1).decode() != want_href:
        fail(rel, "link", "links %s, not %s" % (links[0].group(1).decode(), want_href))
    elif not after[links[0].end():].lstrip().lower().startswith(b"</head>"):
        fail(rel, "link", "the stylesheet link is not right before </head>")
    if after.count(b"tagflow-chips.css") != len(links):
        fail(rel, "link", "tagflow-chips.css is named outside the stylesheet link")
    # after = seg0 span1 seg1 span2 … ; before = seg0 removed1 seg1 removed2 …
    spans = sorted([(m.start(), m.end(), "link") for m in links] + [(m.start(), m.end(), "block") for m in blocks])
    list_at = {start: (end, items) for start, end, items in lists}
    replaced, pos, b = set(), 0, 0
    chip_lists = []
    for start, end, kind in spans + [(len(after), len(after), "end")]:
        seg = after[pos:start]
        if before[b:b + len(seg)] != seg:
            n = min(len(seg), len(before) - b)
            k = next((i for i in range(n) if before[b + i] != seg[i]), n)
            fail(rel, "bytes", "bytes changed outside the blocks at byte %d of the built page: %r became %r"
                 % (b + k, before[b + k:b + k + 40], seg[k:k + 40]))
            return len(blocks), lists, chip_lists
        b += len(seg)
        pos = end
        if kind == "end":
            if b != len(before):
                fail(rel, "bytes", "the built page goes on after the enhanced one ends: %r" % before[b:b + 60])
        elif kind == "block":
            block = after[start:end]
            got = chips(block)
            if got is None:
                fail(rel, "block", "malformed block: %r" % block[:200])
                got = []
            chip_lists.append(got)
            if b in list_at:
                stop, items = list_at[b]
                replaced.add(b)
                want = [(i["name"], i["href"], i["count"]) for i in items]
                have = [(c["name"], c["href"], c["count"]) for c in got]
                if want != have:
                    fail(rel, "chips", "chips %s, the list had %s" % (have, want))
            else:
                stop = element_end(before, b)
                removed = before[b:stop] if stop > 0 else before[b:b + 80]
                if stop < 0 or not re.match(rb"<(ul|ol|nav|p|div|section|span)\b", removed):
                    fail(rel, "bytes", "a block replaced %r, not an element" % removed[:80])
                    return len(blocks), lists, chip_lists
                words = " ".join(html.unescape(text(re.sub(rb"<[^>]*>", b" ", removed).decode("latin-1"))).split())
                missing = [c["name"] for c in got if c["name"] not in words]
                hrefs = [text(h.decode("latin-1")) for h in re.findall(rb'href="([^"]*)"', removed)]
                fail(rel, "not-a-tag-list", "a block replaced %s, which is not a tag list (links %s)%s"
                     % (removed.split(b">")[0].decode("latin-1") + ">", hrefs,
                        "; labels not in it: %s" % missing if missing else ""))
            b = stop
    for start, end, items in lists:
        if start not in replaced:
            missed(rel, before, start, items, fail)
    return len(blocks), lists, chip_lists


def check_folder(host, before_dir, after_dir, fail):
    """The static checks of one host; returns pages (rel path -> number of blocks) and stats."""
    bf, af = files(before_dir), files(after_dir)
    for rel in sorted(set(bf) - set(af)):
        fail(rel, "files", "removed by enhance")
    for rel in sorted(set(af) - set(bf)):
        if rel != STYLESHEET:
            fail(rel, "files", "added by enhance")
        if rel.endswith(".wasm"):
            fail(rel, "files", "a .wasm file was added")
    if STYLESHEET in bf:
        fail(STYLESHEET, "files", "the built site already has it; cannot tell what enhance wrote")
    elif STYLESHEET not in af:
        fail(STYLESHEET, "files", "not written")
    blocks, stats = {}, {"lists": 0, "blocks": 0, "chips": 0, "pages": 0}
    weighted = {}
    for rel in sorted(set(bf) & set(af)):
        before, after = read(bf[rel]), read(af[rel])
        if not rel.endswith(".html"):
            if before != after:
                fail(rel, "bytes", "not an HTML page, but its bytes changed")
            continue
        stats["pages"] += 1
        if len(re.findall(rb"<script", after, re.I)) != len(re.findall(rb"<script", before, re.I)):
            fail(rel, "script", "<script count %d became %d" % (len(re.findall(rb"<script", before, re.I)),
                                                               len(re.findall(rb"<script", after, re.I))))
        n, lists, chip_lists = compare_page(host, rel, before, after, fail)
        blocks[rel] = n
        stats["lists"] += len(lists)
        stats["blocks"] += n
        stats["chips"] += sum(len(c) for c in chip_lists)
        weighted[rel] = any(c["weight"] for cl in chip_lists for c in cl)
    for slug in SLUGS:
        pages = [rel for rel in blocks if re.fullmatch(host.post_page(slug), rel)]
        if len(pages) != 1:
            fail(slug, "posts", "%d post pages found for it" % len(pages))
        elif blocks[pages[0]] < 1:
            fail(pages[0], "posts", "the post page has no chip block")
    if host.tags_page:
        if blocks.get(host.tags_page, 0) < 1:
            fail(host.tags_page, "tags", "the tags page has no chip block")
        elif not weighted[host.tags_page]:
            fail(host.tags_page, "tags", "the tags page's block is not a weighted cloud")
    for rel, w in weighted.items():
        if w and rel != host.tags_page and not re.search(rb"data-tagflow", read(bf[rel])):
            fail(rel, "weighted", "a weighted block on a page that is not the tags page")
    if stats["lists"] == 0:
        fail("", "lists", "no tag list found in the built site: has the example's markup changed?")
    return blocks, stats


def enhance(tagflow, host, folder):
    try:
        r = subprocess.run([tagflow, "enhance", folder, "--preset", host.preset, "--strict"],
                           capture_output=True, text=True)
    except OSError as e:  # e.g. the binary is being rebuilt
        return 127, "could not run %s: %s" % (tagflow, e)
    return r.returncode, (r.stdout + r.stderr).strip()


# -- in the browser --------------------------------------------------------------------------------

PAGE_JS = r"""
(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const links = [...document.querySelectorAll('link[rel~=stylesheet]')]
    .filter(l => /(^|\/)assets\/tagflow-chips\.css$/.test(l.getAttribute('href')));
  const sheet = [...document.styleSheets].find(s => s.href && s.href.endsWith('/assets/tagflow-chips.css'));
  let rules = -1;
  try { rules = sheet ? sheet.cssRules.length : -1; } catch (e) {}
  const uls = [...document.querySelectorAll('ul.tf-chips')];
  const li = uls.length ? uls[0].querySelector(':scope > li') : null;
  return {status: nav && nav.responseStatus !== undefined ? nav.responseStatus : 200,
          links: links.length, loaded: !!sheet, rules, blocks: uls.length,
          hidden: uls.filter(u => u.offsetParent === null).length,
          containerWidths: uls.map(u => u.parentElement.getBoundingClientRect().width),
          position: li ? getComputedStyle(li).position : null,
          display: li ? getComputedStyle(li).display : null};
})()
"""


# The chip rules of tagflow-chips.css must be the ones in effect: a host stylesheet that wins over
# them (margins on li, a restyled link) moves chips or changes the text that was measured. Compares
# each visible chip with the declarations of the loaded sheet's own rules (a link inherits its
# font from the li). Returns one line per differing property and block.
HOST_CSS_JS = r"""
(() => {
  const sheet = [...document.styleSheets].find(s => s.href && s.href.endsWith('/assets/tagflow-chips.css'));
  if (!sheet) return [];
  const rules = {};
  for (const r of sheet.cssRules) if (r.selectorText) rules[r.selectorText] = r.style;
  const px = v => /^-?[\d.]+px$/.test(v) || v === '0px' || v === '0';
  const norm = v => v === '0' ? '0px' : v;
  const problems = new Set();
  const compare = (el, style, props, what) => {
    if (!style) return;
    const cs = getComputedStyle(el);
    for (const p of props) {
      const want = style.getPropertyValue(p);
      if (!want || !px(want) && !/^[a-z-]+$/.test(want)) continue;
      if (norm(cs.getPropertyValue(p)) !== norm(want)) problems.add(`${what} ${p} is ${cs.getPropertyValue(p)}, the chip CSS says ${want}`);
    }
  };
  const BOX = ['margin-top', 'margin-right', 'margin-bottom', 'margin-left',
               'padding-top', 'padding-right', 'padding-bottom', 'padding-left'];
  for (const ul of document.querySelectorAll('ul.tf-chips')) {
    if (ul.offsetParent === null) continue;
    compare(ul, rules['.tf-chips'], BOX, 'ul');
    for (const li of ul.children) {
      if (getComputedStyle(li).display === 'none') continue;
      compare(li, rules['.tf-chips > li'], BOX.concat(['box-sizing']), 'li');
      const w = [...li.classList].find(c => /^tf-w\d$/.test(c));
      const sized = (w && rules['.tf-chips > li.' + w]) || rules['.tf-chips > li'];
      compare(li, sized, ['font-size', 'line-height', 'height'], 'li');
      const a = li.firstElementChild;
      if (!a) continue;
      compare(a, rules['.tf-chips > li > a, .tf-chips > li > span'],
              ['display', 'box-sizing', 'white-space', 'padding-top', 'padding-right', 'padding-bottom',
               'padding-left', 'border-top-width', 'border-left-width'], a.localName);
      const lcs = getComputedStyle(li), acs = getComputedStyle(a);
      for (const p of ['font-size', 'font-weight', 'font-style', 'line-height', 'font-family', 'letter-spacing', 'word-spacing'])
        if (acs.getPropertyValue(p) !== lcs.getPropertyValue(p))
          problems.add(`${a.localName} ${p} is ${acs.getPropertyValue(p)}, its chip's is ${lcs.getPropertyValue(p)}`);
    }
  }
  return [...problems];
})()
"""


def serve(folder, prefix):
    """Serves folder at http://127.0.0.1:PORT{prefix}; anything outside the prefix is a 404."""
    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def inside(self, path):
            p = urllib.parse.urlsplit(path).path
            return p.startswith(prefix) or p + "/" == prefix

        def send_head(self):
            if not self.inside(self.path):
                self.send_error(404, "outside the site's path prefix %s" % prefix)
                return None
            return super().send_head()

        def translate_path(self, path):
            p = urllib.parse.urlsplit(path).path
            return super().translate_path("/" + p[len(prefix):] if self.inside(path) else "/")

    class Server(http.server.ThreadingHTTPServer):
        def handle_error(self, request, client_address):
            # The browser drops requests of a page it navigates away from (Material's search index).
            if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
                super().handle_error(request, client_address)

    server = Server(("127.0.0.1", 0), functools.partial(Handler, directory=folder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def browser_pages(host, blocks):
    pages = list(host.extra_pages)
    if host.tags_page:
        pages.insert(1, host.tags_page)
    for slug in BROWSER_POSTS:
        pages += [rel for rel in sorted(blocks) if re.fullmatch(host.post_page(slug), rel)]
    # URL paths: folder/index.html is served as folder/.
    return [(re.sub(r"(^|/)index\.html$", r"\1", rel), blocks.get(rel, 0)) for rel in dict.fromkeys(pages)]


def check_in_browser(browser, host, folder, blocks, fail, stats):
    server = serve(folder, host.prefix)
    try:
        base = "http://127.0.0.1:%d%s" % (server.server_address[1], host.prefix)
        for rel, want_blocks in browser_pages(host, blocks):
            for width in WIDTHS:
                where = "%s @%dpx" % (rel or "(home)", width)
                open_page(browser, base + urllib.parse.quote(rel), width)
                page = browser.evaluate(PAGE_JS)
                stats["views"] += 1
                if page["status"] != 200:
                    fail(where, "serve", "HTTP %s" % page["status"])
                    continue
                if page["blocks"] != want_blocks:
                    fail(where, "browser", "%d blocks in the DOM, %d in the file" % (page["blocks"], want_blocks))
                if want_blocks:
                    if page["links"] != 1:
                        fail(where, "browser", "%d links to the stylesheet" % page["links"])
                    if not page["loaded"] or page["rules"] <= 0:
                        fail(where, "browser", "the stylesheet did not load (%s rules)" % page["rules"])
                    if page["hidden"] == page["blocks"]:
                        fail(where, "browser", "no block is visible")
                    # From 320 px of container the chips are placed by the written positions.
                    if max(page["containerWidths"]) >= 320 and page["position"] != "absolute":
                        fail(where, "browser", "the first chip is position:%s, not absolute" % page["position"])
                for problem in browser.evaluate(HOST_CSS_JS):
                    fail(where, "host-css", "the page's CSS overrides the chip CSS: " + problem)
                result = browser.evaluate(CHECK_JS)
                stats["blocks"] += result["blocks"]
                stats["chips"] += result["chips"]
                stats["positioned"] += result["positioned"]
                for problem in result["problems"]:
                    fail(where, "layout", problem)
    finally:
        server.shutdown()
        server.server_close()


# -- main ------------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tagflow", default=os.environ.get("TAGFLOW", os.path.join(ROOT, ".build/debug/tagflow")))
    ap.add_argument("--chromium")
    ap.add_argument("--host", action="append", choices=[h.name for h in HOSTS], help="only this host (repeatable)")
    ap.add_argument("--keep", action="store_true", help="keep the temp folder (built and enhanced sites)")
    args = ap.parse_args()
    ci = bool(os.environ.get("CI"))
    try:
        cdp.find_chromium(args.chromium)
    except SystemExit:
        print("SKIPPED: chromium not found")
        return 1 if ci else 0
    if not os.access(args.tagflow, os.X_OK):
        print("FAIL: no tagflow binary at %s (swift build, or set TAGFLOW)" % args.tagflow)
        return 1
    hosts = [h for h in HOSTS if not args.host or h.name in args.host]
    started = time.time()
    work = tempfile.mkdtemp(prefix="tagflow-integrations-")
    failures, known_seen, known_count, summaries, skipped = [], set(), {}, [], []
    try:
        built = os.path.join(work, "built")
        env = dict(os.environ)
        env.pop("CI", None)  # a missing host is judged here, per host
        build = subprocess.run([os.path.join(EXAMPLES, "build-all.sh"), built], capture_output=True, text=True, env=env)
        build_failed = build.returncode != 0
        fonts = [cdp.resolve_font(f, ROOT) for f in FONTS]
        with cdp.Browser(fonts, chromium=args.chromium, fc_match_xml=cdp.hinting_xml("slight"), hinting="slight") as browser:
            for host in hosts:
                host_failures = []

                def fail(page, kind, message, host=host, host_failures=host_failures):
                    bug = known_bug(host.name, page, kind, message)
                    if bug is not None:
                        if bug not in known_seen:
                            print("  KNOWN BUG %s: %s" % (host.name, KNOWN_BUGS[bug]["why"]))
                        known_seen.add(bug)
                        known_count[bug] = known_count.get(bug, 0) + 1
                        return
                    host_failures.append("%s %s: %s" % (host.name, page or "(site)", message))

                t0 = time.time()
                if shutil.which(host.name) is None:
                    skipped.append(host.name)
                    print("SKIPPED %s: %s is not installed (scripts/install-hosts.sh installs it)" % (host.name, host.name))
                    if ci:
                        host_failures.append("%s: not installed and $CI is set" % host.name)
                    failures += host_failures
                    continue
                before = os.path.join(built, host.name)
                if not os.path.isdir(before):
                    host_failures.append("%s: the example did not build:\n%s" % (host.name, build.stderr.strip()[-3000:]))
                    failures += host_failures
                    continue
                after = os.path.join(work, host.name + "-enhanced")
                again = os.path.join(work, host.name + "-again")
                shutil.copytree(before, after, symlinks=True)
                rc, out = enhance(args.tagflow, host, after)
                if rc != 0:
                    fail("", "enhance", "tagflow enhance --preset %s --strict exited %d: %s" % (host.preset, rc, out))
                    failures += host_failures
                    continue
                blocks, stats = check_folder(host, before, after, fail)
                # A second run changes nothing.
                shutil.copytree(after, again, symlinks=True)
                rc, out2 = enhance(args.tagflow, host, again)
                if rc != 0:
                    fail("", "again", "the second run exited %d: %s" % (rc, out2))
                fa, fb = files(after), files(again)
                if set(fa) != set(fb):
                    fail("", "again", "the second run changed the files: %s" % sorted(set(fa) ^ set(fb)))
                for rel in sorted(set(fa) & set(fb)):
                    if read(fa[rel]) != read(fb[rel]):
                        fail(rel, "again", "the second run changed its bytes")
                bstats = {"views": 0, "blocks": 0, "chips": 0, "positioned": 0}
                check_in_browser(browser, host, after, blocks, fail, bstats)
                summaries.append("%-8s %2d HTML pages, %2d tag lists, %2d blocks (%3d chips) on %2d pages; "
                                 "browser: %2d page views, %3d blocks, %4d chips, %4d positions compared; %4.1f s; %s"
                                 % (host.name, stats["pages"], stats["lists"], stats["blocks"], stats["chips"],
                                    sum(1 for n in blocks.values() if n), bstats["views"], bstats["blocks"],
                                    bstats["chips"], bstats["positioned"], time.time() - t0,
                                    "FAIL (%d)" % len(host_failures) if host_failures else "ok"))
                print(summaries[-1])
                failures += host_failures
        if build_failed and not failures:
            failures.append("build-all.sh exited %d:\n%s" % (build.returncode, build.stderr.strip()[-3000:]))
        for i, bug in enumerate(KNOWN_BUGS):
            if i in known_count:
                print("  known bug seen %d times: %s: %s" % (known_count[i], bug["host"], bug["why"][:90]))
            elif bug["host"] in [h.name for h in hosts] and bug["host"] not in skipped:
                failures.append("%s: a known bug no longer happens, remove it from KNOWN_BUGS: %s"
                                % (bug["host"], bug["why"]))
        for f in failures[:60]:
            print("  FAIL " + f)
        if len(failures) > 60:
            print("  … and %d more" % (len(failures) - 60))
        print("%s in %.1f s" % ("%d failures" % len(failures) if failures else "all checks passed", time.time() - started))
        return 1 if failures else 0
    finally:
        if args.keep:
            print("kept", work)
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
