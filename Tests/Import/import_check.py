#!/usr/bin/env python3
"""End-to-end test of `tagflow import hugo|jekyll`.

Builds small real Hugo and Jekyll sites with the real generators, imports each with
`tagflow import`, builds and checks the result with `tagflow`, and compares the two outputs:
every post address the old generator published must lead (directly or through a redirect page)
to the same post in the Tagflow site, with the same title, date and tags.

    TAGFLOW=.build/debug/tagflow python3 Tests/Import/import_check.py [-v]

Needs `hugo` (0.146 or later) and `jekyll` (4.x, with the minima theme and jekyll-feed) on PATH;
either missing skips its tests, unless CI is set in the environment (then it fails).
Standard library only.
"""

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest
from datetime import datetime
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

REPO = Path(__file__).resolve().parents[2]
TIMEOUT = 120

# A 1×1 PNG, the photo of the page bundle.
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63f8cfc0f01f0005000201e2a1d36d0000000049454e44ae426082"
)


# MARK: - Running things


def tagflow_binary():
    given = os.environ.get("TAGFLOW")
    if given:
        return str(Path(given).resolve())
    for candidate in (REPO / ".build/debug/tagflow", Path.cwd() / ".build/debug/tagflow"):
        if candidate.is_file():
            return str(candidate)
    return str(REPO / ".build/debug/tagflow")


def run(args, cwd, env=None, check=True):
    """Runs a command; returns (exit status, stdout + stderr). Fails the test when check is set."""
    merged = dict(os.environ)
    for key, value in (env or {}).items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
    try:
        done = subprocess.run(
            [str(a) for a in args], cwd=str(cwd), env=merged, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"timed out after {TIMEOUT} s: {' '.join(map(str, args))}")
    output = done.stdout.decode("utf-8", "replace")
    if check and done.returncode != 0:
        raise AssertionError(
            f"`{' '.join(map(str, args))}` (in {cwd}) exited with {done.returncode}:\n{output}")
    return done.returncode, output


def require_tool(name):
    """Skips the calling test class when a generator is missing (fails under CI)."""
    if shutil.which(name):
        return
    message = f"`{name}` is not on PATH"
    if os.environ.get("CI"):
        raise AssertionError(message + " (CI is set, so this is a failure, not a skip)")
    print(f"skipped: {message}", file=sys.stderr)
    raise unittest.SkipTest(message)


def tree_hashes(root):
    """SHA-256 of every file under root, by relative path (symbolic links by their target)."""
    result = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = Path(folder, name)
            relative = str(path.relative_to(root))
            if path.is_symlink():
                result[relative] = "link:" + os.readlink(path)
            else:
                result[relative] = hashlib.sha256(path.read_bytes()).hexdigest()
    return result


def write(path, text):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")


def keep_or_clean(temp):
    """Removes a temporary folder, or with KEEP_TEMP=1 keeps it and says where it is."""
    if os.environ.get("KEEP_TEMP"):
        temp._finalizer.detach()
        print(f"\nkept {temp.name}", file=sys.stderr)
    else:
        temp.cleanup()


# MARK: - Reading HTML


class Element:
    def __init__(self, tag, attrs, ancestors):
        self.tag = tag
        self.attrs = {k: (v if v is not None else "") for k, v in attrs}
        self.ancestors = ancestors
        self.parts = []

    @property
    def text(self):
        return re.sub(r"\s+", " ", "".join(self.parts)).strip()

    @property
    def classes(self):
        return self.attrs.get("class", "").split()

    def inside(self, tag, cls=None):
        return any(a.tag == tag and (cls is None or cls in a.classes) for a in self.ancestors)


class Page(HTMLParser):
    """Every element of an HTML file with its attributes, text and ancestors."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self, path):
        super().__init__(convert_charrefs=True)
        self.path = Path(path)
        self.elements = []
        self.open = []
        self.feed(self.path.read_text(encoding="utf-8", errors="replace"))
        self.close()

    def handle_starttag(self, tag, attrs):
        element = Element(tag, attrs, list(self.open))
        self.elements.append(element)
        if tag not in self.VOID:
            self.open.append(element)

    def handle_startendtag(self, tag, attrs):
        self.elements.append(Element(tag, attrs, list(self.open)))

    def handle_endtag(self, tag):
        for index in range(len(self.open) - 1, -1, -1):
            if self.open[index].tag == tag:
                del self.open[index:]
                return

    def handle_data(self, data):
        for element in self.open:
            element.parts.append(data)

    def all(self, tag, cls=None, inside=None):
        """Elements by tag (and class), optionally inside an ancestor given as (tag, class)."""
        return [
            e for e in self.elements
            if e.tag == tag and (cls is None or cls in e.classes) and (inside is None or e.inside(*inside))
        ]

    def first(self, tag, cls=None, inside=None):
        found = self.all(tag, cls, inside)
        return found[0] if found else None

    def refresh_target(self):
        """The address a redirect page sends to (its meta refresh), or None."""
        for meta in self.all("meta"):
            if meta.attrs.get("http-equiv", "").lower() == "refresh":
                match = re.search(r"url\s*=\s*['\"]?([^'\"\s>]+)", meta.attrs.get("content", ""), re.I)
                if match:
                    return match.group(1)
        return None

    def canonical(self):
        for link in self.all("link"):
            if "canonical" in link.attrs.get("rel", "").split():
                return link.attrs.get("href")
        return None


def url_path(url):
    """The path of an address, absolute or from the root (`https://x/a/` and `/a/` both → `/a/`)."""
    return unquote(urlsplit(url).path) or "/"


def url_of_file(site, path):
    """The address a web server gives a file of a built site (`a/index.html` → `/a/`)."""
    relative = Path(path).relative_to(site).as_posix()
    if relative == "index.html":
        return "/"
    if relative.endswith("/index.html"):
        return "/" + relative[: -len("index.html")]
    return "/" + relative


def file_of_url(site, url):
    """The file a web server serves for an address in a built site, or None."""
    path = url_path(url)
    candidates = [path + "index.html"] if path.endswith("/") else [path, path + "/index.html"]
    for candidate in candidates:
        file = Path(site, candidate.lstrip("/"))
        if file.is_file():
            return file
    return None


# MARK: - What the old generator published


class OldPost:
    """A post page written by Hugo or Jekyll with the test's own layout (h1, time, span.tag)."""

    def __init__(self, site, path, page):
        self.url = url_of_file(site, path)
        self.page = page
        self.title = page.first("h1").text
        time = page.first("time")
        self.date = time.text
        self.datetime = time.attrs.get("datetime")
        self.tags = sorted(span.text for span in page.all("span", "tag"))
        self.categories = sorted(span.text for span in page.all("span", "category"))

    def __repr__(self):
        return f"{self.url} ({self.title!r}, {self.date}, tags {self.tags})"


def old_site(site, is_post):
    """The posts of a built Hugo or Jekyll site, and its redirect pages (address → target)."""
    posts, redirects = {}, {}
    for path in sorted(Path(site).rglob("*.html")):
        page = Page(path)
        target = page.refresh_target()
        if target is not None:
            redirects[url_of_file(site, path)] = url_path(target)
        elif is_post(page):
            post = OldPost(site, path, page)
            posts[post.url] = post
    return posts, redirects


# MARK: - The Tagflow site


class TagflowPost:
    def __init__(self, site, path, page):
        self.file = path
        self.url = url_of_file(site, path)
        self.page = page
        header = ("header", "post-header")
        h1 = page.first("h1", inside=header)
        time = page.first("time", inside=header)
        self.title = h1.text if h1 else None
        self.datetime = time.attrs.get("datetime") if time else None
        self.date = self.datetime[:10] if self.datetime else None
        links = [a for a in page.all("a", inside=header) if a.attrs.get("href", "").startswith("/tags/")]
        self.tags = sorted(a.text for a in links)
        self.tag_hrefs = [a.attrs["href"] for a in links]

    def content_links(self):
        return {a.text: a.attrs.get("href", "") for a in self.page.all("a", inside=("div", "content"))}

    def __repr__(self):
        return f"{self.url} ({self.title!r}, {self.datetime}, tags {self.tags})"


def is_tagflow_post(page):
    return page.first("article", "post") is not None


def tagflow_posts(site):
    """Every post page of a built Tagflow site (not the redirect pages), by address."""
    result = {}
    for path in sorted(Path(site, "posts").glob("*/index.html")):
        page = Page(path)
        if page.refresh_target() is None and is_tagflow_post(page):
            post = TagflowPost(site, path, page)
            result[post.url] = post
    return result


def follow(site, url):
    """What the Tagflow site serves at an old address: (final page file, how it got there), or
    (None, why not). A redirect page is followed once; its target must be a page itself."""
    file = file_of_url(site, url)
    if file is None:
        return None, f"nothing at {url}"
    page = Page(file)
    target = page.refresh_target()
    if target is None:
        return file, f"{url} is the page"
    canonical = page.canonical()
    if canonical is None or url_path(canonical) != url_path(target):
        return None, f"{url} is a redirect to {target} whose canonical link is {canonical}"
    final = file_of_url(site, target)
    if final is None:
        return None, f"{url} redirects to {target}, which does not exist"
    if Page(final).refresh_target() is not None:
        return None, f"{url} redirects to {target}, which is another redirect"
    return final, f"{url} redirects to {target}"


# MARK: - Shared checks


class ImportCase(unittest.TestCase):
    """Runs `tagflow import`, `build` and `check` on a source site, and compares the results."""

    generator = None  # "hugo" or "jekyll"

    @classmethod
    def import_site(cls, source, name, extra=()):
        """Imports, builds and checks; returns a dict of what happened (asserted in the tests)."""
        tagflow = tagflow_binary()
        if not Path(tagflow).is_file():
            raise AssertionError(f"no tagflow binary at {tagflow} (set TAGFLOW)")
        destination = Path(source).parent / name
        before = tree_hashes(source)
        result = {"source": Path(source), "site": destination / "_site", "destination": destination}
        status, output = run([tagflow, "import", cls.generator, source, destination, *extra], cwd=source.parent,
                             check=False)
        result["import"] = (status, output)
        result["source_changes"] = diff_trees(before, tree_hashes(source))
        if status == 0:
            result["build"] = run([tagflow, "build", destination], cwd=source.parent, check=False)
            result["check"] = run([tagflow, "check", destination], cwd=source.parent, check=False)
        return result

    # Each of these takes one imported site (the dict from import_site) and the old site's output.

    def check_import_ran(self, imported):
        status, output = imported["import"]
        self.assertEqual(status, 0, f"tagflow import {self.generator} failed:\n{output}")
        self.assertEqual(imported["source_changes"], [], "tagflow import changed the source site")
        status, output = imported["build"]
        self.assertEqual(status, 0, f"tagflow build failed:\n{output}")
        self.assertNotIn("error:", output, f"tagflow build printed an error:\n{output}")
        status, output = imported["check"]
        self.assertEqual(status, 0, f"tagflow check failed:\n{output}")

    def check_posts(self, imported, old_posts, old_redirects):
        """Every old post address leads to a Tagflow post with the same title, date and tags; and
        every redirect the old site had to a post still leads to that post."""
        status, output = imported["import"]
        self.assertEqual(status, 0, output)
        site = imported["site"]
        new_posts = tagflow_posts(site)
        self.assertTrue(old_posts, "the old site has no posts: the fixture is broken")
        self.assertEqual(
            len(new_posts), len(old_posts),
            f"{self.generator} published {len(old_posts)} posts: {sorted(old_posts)}\n"
            f"Tagflow published {len(new_posts)}: {sorted(new_posts)}")
        landed = {}
        for url, old in sorted(old_posts.items()):
            with self.subTest(old_url=url):
                file, how = follow(site, url)
                self.assertIsNotNone(file, f"{self.generator} published the post {old}; in Tagflow's site: {how}")
                new = new_posts.get(url_of_file(site, file))
                self.assertIsNotNone(new, f"{how}, which is not a Tagflow post page")
                landed[url] = new
                self.assertNotIn(
                    new.url, [p.url for u, p in landed.items() if u != url],
                    f"two {self.generator} posts lead to one Tagflow post {new.url}")
                self.assertEqual(new.title, old.title, f"title of {url} ({how})")
                # The same instant; and the same day wherever both show it in the same zone (Hugo
                # shows each date at the offset it is written with, Tagflow every date in the
                # site's zone).
                old_instant = datetime.fromisoformat(old.datetime)
                new_instant = datetime.fromisoformat(new.datetime)
                self.assertEqual(
                    new_instant, old_instant,
                    f"date of {url} ({how}): {self.generator} had {old.datetime}, Tagflow <time datetime="
                    f"\"{new.datetime}\">")
                if old_instant.utcoffset() == new_instant.utcoffset():
                    self.assertEqual(new.date, old.date, f"day of {url} ({how}) in one zone")
                self.assertEqual(
                    sorted(t.lower() for t in new.tags), sorted(t.lower() for t in old.tags),
                    f"tags of {url} ({how})")
                for href in new.tag_hrefs:
                    self.assertIsNotNone(file_of_url(site, href), f"tag link {href} on {new.url} leads nowhere")
        for url, target in sorted(old_redirects.items()):
            if target not in old_posts:
                continue
            with self.subTest(old_redirect=url):
                file, how = follow(site, url)
                self.assertIsNotNone(file, f"{self.generator} had a redirect {url} → {target}; in Tagflow's site: {how}")
                expected = landed.get(target)
                if expected is not None:
                    self.assertEqual(url_of_file(site, file), expected.url,
                                     f"{url} should lead to the post of {target}: {how}")
        return new_posts, landed

    def check_old_page(self, imported, url, title):
        """An old page address (not a post) leads to a Tagflow page with that title."""
        file, how = follow(imported["site"], url)
        self.assertIsNotNone(file, f"{self.generator} published the page {url}; in Tagflow's site: {how}")
        h1 = Page(file).first("h1")
        self.assertEqual(h1.text if h1 else None, title, f"the page at {url} ({how})")
        return url_of_file(imported["site"], file)


def diff_trees(before, after):
    changes = []
    for path in sorted(set(before) | set(after)):
        if path not in after:
            changes.append(f"removed {path}")
        elif path not in before:
            changes.append(f"added {path}")
        elif before[path] != after[path]:
            changes.append(f"changed {path}")
    return changes


# MARK: - Hugo


HUGO_SINGLE = """\
<!doctype html>
<html><head><meta charset="utf-8"><title>{{ .Title }}</title></head>
<body><article class="hugo-{{ .Kind }}" data-section="{{ .Section }}">
<h1>{{ .Title }}</h1><time datetime="{{ .Date.Format "2006-01-02T15:04:05Z07:00" }}">{{ .Date.Format "2006-01-02" }}</time>
{{ range .Params.tags }}<span class=tag>{{ . }}</span>{{ end }}
<div class=content>{{ .Content }}</div>
</article></body></html>
"""

HUGO_LIST = """\
<!doctype html>
<html><head><meta charset="utf-8"><title>{{ .Title }}</title></head>
<body><ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul></body></html>
"""


def edit_toml_front_matter(path, changes, extra_lines=(), body=""):
    """Edits a `hugo new` file: replaces `key = …` lines, adds lines, and sets the body."""
    text = Path(path).read_text(encoding="utf-8")
    match = re.match(r"\+\+\+\n(.*?)\n\+\+\+\n", text, re.S)
    assert match, f"{path} has no TOML front matter:\n{text}"
    lines = []
    for line in match.group(1).split("\n"):
        key = line.split("=", 1)[0].strip()
        if key in changes:
            if changes[key] is not None:
                lines.append(f"{key} = {changes[key]}")
        else:
            lines.append(line)
    lines += list(extra_lines)
    Path(path).write_text("+++\n" + "\n".join(lines) + "\n+++\n" + textwrap.dedent(body).lstrip("\n"),
                          encoding="utf-8")


def make_hugo_site(root, env):
    """A Hugo site made with `hugo new`: posts in TOML and YAML, a page bundle with a photo, a
    relative alias, ref and relref links, an About page and a draft."""
    run(["hugo", "new", "site", "blog"], cwd=root, env=env)
    blog = root / "blog"
    for name in ["first.md", "second.md", "swift-and-rust.md", "late-night.md", "trip/index.md", "draft.md"]:
        run(["hugo", "new", "content", "posts/" + name], cwd=blog, env=env)
    run(["hugo", "new", "content", "about.md"], cwd=blog, env=env)
    posts = blog / "content/posts"
    text = (posts / "first.md").read_text(encoding="utf-8")
    assert "draft = true" in text and "date = '" in text, f"unexpected archetype output:\n{text}"
    edit_toml_front_matter(
        posts / "first.md", {"draft": "false", "date": "'2024-01-02T10:00:00+01:00'"},
        ["tags = ['Swift', 'CI']"], body="""
        The first post. Next: [Second]({{< ref "second.md" >}}), and [About]({{< relref "/about.md" >}}).
        """)
    # The second post, rewritten with YAML front matter.
    write(posts / "second.md", """
        ---
        title: Second post
        date: 2024-02-03
        draft: false
        tags:
          - Travel
          - swift
        ---
        The second post.
        """)
    edit_toml_front_matter(
        posts / "swift-and-rust.md",
        {"draft": "false", "date": "'2024-05-06T08:00:00Z'", "title": "'Swift & Rust: a comparison'"},
        ["tags = ['Swift', 'Rust']"], body="Two languages.\n")
    # As `hugo new` writes the date on a machine in New York, late in the evening.
    edit_toml_front_matter(
        posts / "late-night.md", {"draft": "false", "date": "'2024-03-31T23:30:00-05:00'"},
        ["tags = ['Night']", "aliases = ['old-late-night']"], body="Written late.\n")
    edit_toml_front_matter(
        posts / "trip/index.md",
        {"draft": "false", "date": "'2024-04-05T12:00:00Z'", "title": "'Road trip'"},
        ["slug = 'road-trip'", "tags = ['Travel', 'Photos']"], body="""
        A page bundle.

        ![The beach](beach.png)
        """)
    (posts / "trip/beach.png").write_bytes(PNG)
    edit_toml_front_matter(blog / "content/about.md", {"draft": "false"}, body="About me.\n")
    write(blog / "layouts/single.html", HUGO_SINGLE)
    write(blog / "layouts/list.html", HUGO_LIST)
    return blog


def is_hugo_post(page):
    article = page.first("article")
    return article is not None and "hugo-page" in article.classes and article.attrs.get("data-section") == "posts"


class HugoImportTest(ImportCase):
    """Two Hugo sites (default addresses, and `permalinks`), imported, built and compared."""

    generator = "hugo"

    @classmethod
    def setUpClass(cls):
        require_tool("hugo")
        cls.temp = tempfile.TemporaryDirectory(prefix="tagflow-import-hugo-")
        cls.addClassCleanup(keep_or_clean, cls.temp)
        root = Path(cls.temp.name)
        env = {"HUGO_CACHEDIR": str(root / "hugo-cache"), "TZ": "UTC"}
        blog = make_hugo_site(root, env)
        # The second site: the same content, posts at /:year/:month/:slug/.
        permalinks = root / "permalinks"
        shutil.copytree(blog, permalinks / "blog")
        permalinks = permalinks / "blog"
        with open(permalinks / "hugo.toml", "a", encoding="utf-8") as config:
            config.write("\n[permalinks]\n  posts = '/:year/:month/:slug/'\n")
        cls.sites = {}
        for label, source in [("default", blog), ("permalinks", permalinks)]:
            run(["hugo"], cwd=source, env=env)
            posts, redirects = old_site(source / "public", is_hugo_post)
            imported = cls.import_site(source, "imported")
            cls.sites[label] = (imported, posts, redirects)

    def test_fixture(self):
        """Hugo itself published what the test expects (guards against a Hugo that renders nothing)."""
        for label, (imported, posts, redirects) in self.sites.items():
            with self.subTest(site=label):
                self.assertEqual(len(posts), 5, f"Hugo's posts: {sorted(posts)}")
                public = imported["source"] / "public"
                first = next(p for p in posts.values() if p.title == "First")
                links = {a.text: a.attrs.get("href") for a in first.page.all("a", inside=("div", "content"))}
                second = next(p for p in posts.values() if p.title == "Second post")
                self.assertTrue(url_path(links["Second"]).endswith(second.url), links)
                self.assertEqual(url_path(links["About"]), "/about/", links)
                self.assertTrue(any(t.endswith("old-late-night/") for t in redirects), redirects)
                self.assertTrue(list(public.rglob("beach.png")), "Hugo did not publish the bundle's photo")

    def test_import_build_check(self):
        for label, (imported, _, _) in self.sites.items():
            with self.subTest(site=label):
                self.check_import_ran(imported)

    def test_posts_addresses_titles_dates_tags(self):
        for label, (imported, posts, redirects) in self.sites.items():
            with self.subTest(site=label):
                self.check_posts(imported, posts, redirects)

    def test_ref_and_relref(self):
        for label, (imported, posts, _) in self.sites.items():
            with self.subTest(site=label):
                site = imported["site"]
                about = self.check_old_page(imported, "/about/", "About")
                first = next(p for p in posts.values() if p.title == "First")
                second = next(p for p in posts.values() if p.title == "Second post")
                first_file, how = follow(site, first.url)
                second_file, how2 = follow(site, second.url)
                self.assertIsNotNone(first_file, how)
                self.assertIsNotNone(second_file, how2)
                links = TagflowPost(site, first_file, Page(first_file)).content_links()
                self.assertIn("Second", links, f"links in {first_file}: {links}")
                self.assertTrue(url_path(links["Second"]).endswith(url_of_file(site, second_file)),
                                f"ref to second.md became {links['Second']}")
                self.assertIn("About", links, f"links in {first_file}: {links}")
                self.assertTrue(url_path(links["About"]).endswith(about),
                                f"relref to /about.md became {links['About']}, the page is at {about}")

    def test_bundle_photo(self):
        for label, (imported, posts, _) in self.sites.items():
            with self.subTest(site=label):
                site = imported["site"]
                trip = next(p for p in posts.values() if p.title == "Road trip")
                file, how = follow(site, trip.url)
                self.assertIsNotNone(file, how)
                photo = file.parent / "beach.png"
                self.assertTrue(photo.is_file(), f"no beach.png beside {file}")
                self.assertEqual(photo.read_bytes(), PNG)
                images = [img.attrs.get("src", "") for img in Page(file).all("img", inside=("div", "content"))]
                self.assertTrue(images, f"no image in {file}")
                resolved = urljoin(url_of_file(site, file), images[0])
                self.assertEqual(file_of_url(site, resolved), photo, f"the image's src {images[0]}")


# MARK: - Jekyll


JEKYLL_POST_LAYOUT = """\
<!doctype html>
<html><head><meta charset="utf-8"><title>{{ page.title }}</title></head>
<body><article class="jekyll-post">
<h1>{{ page.title }}</h1><time datetime="{{ page.date | date_to_xmlschema }}">{{ page.date | date: "%Y-%m-%d" }}</time>
{% for t in page.tags %}<span class=tag>{{ t }}</span>{% endfor %}
{% for c in page.categories %}<span class=category>{{ c }}</span>{% endfor %}
<div class=content>{{ content }}</div>
</article></body></html>
"""


def make_jekyll_site(root, env):
    """A site from `jekyll new` (minima): its welcome post with a highlight block, posts with
    categories and tags in both forms, a post_url link, folder categories, a post with its own
    permalink, one without a title, one dated in another zone, and two pages."""
    run(["jekyll", "new", "blog", "--skip-bundle"], cwd=root, env=env)
    blog = root / "blog"
    # Without bundler, `jekyll build` runs with the gems Debian installed.
    (blog / "Gemfile").unlink()
    welcome = list((blog / "_posts").glob("*-welcome-to-jekyll.markdown"))
    assert len(welcome) == 1 and "{% highlight ruby %}" in welcome[0].read_text(), "unexpected jekyll new output"
    # `jekyll new` dates it the moment it runs, and Jekyll leaves a post dated after the build out;
    # a fixed day in the past keeps the test the same at any hour.
    text = welcome[0].read_text()
    welcome[0].unlink()
    welcome[0] = welcome[0].with_name("2024-06-01-welcome-to-jekyll.markdown")
    welcome[0].write_text(re.sub(r"(?m)^date:.*$", "date: 2024-06-01 08:15:00 +0000", text, count=1))
    write(blog / "_layouts/post.html", JEKYLL_POST_LAYOUT)
    write(blog / "_posts/2024-01-02-other.md", """
        ---
        layout: post
        title: The other post
        categories: Ruby Web
        tags: ruby jekyll
        ---
        The other post.
        """)
    write(blog / "_posts/2024-01-05-linking.md", """
        ---
        layout: post
        title: "Linking: how it works"
        date: 2024-01-05 09:00:00 +0000
        categories: [Notes, meta]
        tags: links Ruby
        ---
        See [the other post]({% post_url 2024-01-02-other %}).
        """)
    write(blog / "news/_posts/2024-02-01-launch.md", """
        ---
        layout: post
        title: Launch day
        tags: [Launch, Announcement]
        ---
        We launched.
        """)
    # Jekyll merges a folder's category with the same one in the front matter (in any case).
    write(blog / "news/_posts/2024-02-05-update.md", """
        ---
        layout: post
        title: An update
        category: News
        tags: updates
        ---
        More news.
        """)
    # A singular `category:` is one category, spaces and all (`categories:` is split at spaces).
    write(blog / "_posts/2024-02-10-singular.md", """
        ---
        layout: post
        title: One category
        category: Web Development
        tags: web
        ---
        Filed under one category.
        """)
    write(blog / "_posts/2024-03-03-custom.md", """
        ---
        layout: post
        title: A custom address
        permalink: /custom/path/
        tags: meta
        ---
        Here.
        """)
    write(blog / "_posts/2024-01-10-no-title-here.md", """
        ---
        layout: post
        tags: misc
        ---
        Jekyll titles this one from its file name.
        """)
    write(blog / "_posts/2024-04-30-late.md", """
        ---
        layout: post
        title: Late
        date: 2024-04-30 22:00:00 -0500
        tags: night
        ---
        Written late, in another zone.
        """)
    write(blog / "contact.md", """
        ---
        layout: page
        title: Contact
        ---
        Write to me.
        """)
    return blog


def is_jekyll_post(page):
    return page.first("article", "jekyll-post") is not None


class JekyllImportTest(ImportCase):
    """A Jekyll site from `jekyll new`, imported, built and compared."""

    generator = "jekyll"

    @classmethod
    def setUpClass(cls):
        require_tool("jekyll")
        cls.temp = tempfile.TemporaryDirectory(prefix="tagflow-import-jekyll-")
        cls.addClassCleanup(keep_or_clean, cls.temp)
        root = Path(cls.temp.name)
        # No bundler: `jekyll` runs with the gems installed beside it.
        env = {"TZ": "UTC", "JEKYLL_ENV": "development", "BUNDLE_GEMFILE": None, "RUBYOPT": None}
        cls.source = make_jekyll_site(root, env)
        run(["jekyll", "build", "--quiet"], cwd=cls.source, env=env)
        cls.posts, cls.redirects = old_site(cls.source / "_site", is_jekyll_post)
        cls.imported = cls.import_site(cls.source, "imported")
        cls.with_categories = cls.import_site(cls.source, "imported-categories", ["--categories-as-tags"])

    def post(self, title):
        return next(p for p in self.posts.values() if p.title == title)

    def test_fixture(self):
        """Jekyll itself published what the test expects."""
        self.assertEqual(len(self.posts), 9, f"Jekyll's posts: {sorted(self.posts)}")
        expected = [
            "/ruby/web/2024/01/02/other.html", "/notes/meta/2024/01/05/linking.html",
            "/news/2024/02/01/launch.html", "/news/2024/02/05/update.html",
            "/web development/2024/02/10/singular.html", "/custom/path/", "/2024/01/10/no-title-here.html",
            "/2024/05/01/late.html",
        ]
        for url in expected:
            self.assertIn(url, self.posts)
        self.assertEqual(self.post("No Title Here").url, "/2024/01/10/no-title-here.html")
        self.assertTrue((self.source / "_site/about/index.html").is_file())
        self.assertTrue((self.source / "_site/contact.html").is_file())

    def test_import_build_check(self):
        self.check_import_ran(self.imported)

    def test_posts_addresses_titles_dates_tags(self):
        self.check_posts(self.imported, self.posts, self.redirects)

    def test_categories_as_tags(self):
        """With --categories-as-tags, a post's tags are its tags and the categories Jekyll gave it."""
        self.check_import_ran(self.with_categories)
        site = self.with_categories["site"]
        self.assertEqual(len(tagflow_posts(site)), len(self.posts))
        for url, old in sorted(self.posts.items()):
            with self.subTest(old_url=url):
                file, how = follow(site, url)
                self.assertIsNotNone(file, how)
                new = TagflowPost(site, file, Page(file))
                expected = sorted({t.lower() for t in old.tags + old.categories})
                self.assertEqual(
                    sorted({t.lower() for t in new.tags}), expected,
                    f"tags of {url} ({how}); Jekyll's tags {old.tags}, categories {old.categories}")

    def test_pages(self):
        self.check_old_page(self.imported, "/about/", "About")
        self.check_old_page(self.imported, "/contact.html", "Contact")

    def test_post_url(self):
        site = self.imported["site"]
        linking, how = follow(site, self.post("Linking: how it works").url)
        other, how2 = follow(site, self.post("The other post").url)
        self.assertIsNotNone(linking, how)
        self.assertIsNotNone(other, how2)
        links = TagflowPost(site, linking, Page(linking)).content_links()
        self.assertIn("the other post", links, f"links in {linking}: {links}")
        self.assertTrue(url_path(links["the other post"]).endswith(url_of_file(site, other)),
                        f"post_url 2024-01-02-other became {links['the other post']}")

    def test_highlight(self):
        site = self.imported["site"]
        welcome = next(p for p in self.posts.values() if p.title == "Welcome to Jekyll!")
        file, how = follow(site, welcome.url)
        self.assertIsNotNone(file, how)
        blocks = [pre for pre in Page(file).all("pre", "code") if pre.attrs.get("data-lang") == "ruby"]
        self.assertEqual(len(blocks), 1, f"no <pre class=\"code\" data-lang=\"ruby\"> in {file}")
        self.assertIn("print_hi", blocks[0].text)
        self.assertNotIn("highlight", blocks[0].text)


if __name__ == "__main__":
    unittest.main(verbosity=int(os.environ.get("VERBOSE", "1")))
