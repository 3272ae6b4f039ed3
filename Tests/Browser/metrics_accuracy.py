#!/usr/bin/env python3
"""Accuracy harness: TagflowMetrics (`tagflow measure`) against headless Chromium.

Usage:
    python3 Tests/Browser/metrics_accuracy.py [TAGFLOW] [--labels-out FILE] [--json-out FILE]

TAGFLOW is the `tagflow` executable (default: $TAGFLOW, then .build/debug/tagflow).

A corpus of labels (>= 2 000, generated deterministically below: ASCII words and tags,
C++/C#/.NET punctuation, kerning pairs, ligature words, accented Latin, Cyrillic, Greek, CJK,
kana, Hangul, emoji with skin tones, ZWJ sequences and flags, combining marks, and a few
Hebrew labels mixing directions) is measured in Chromium, each label in its own direction as a
chip draws it (`unicode-bidi: plaintext`), with the same font files (each loaded with @font-face
from its file, through an isolated fontconfig, hinting pinned to slight) and with
`tagflow measure`, for:

    DejaVu Sans 16 px, Liberation Sans 13 px, Inter 14 px,
    each with Noto Sans CJK and Noto Color Emoji as fallbacks (and a letter-spacing run).

It prints the distribution of width differences (in 1/64 px) per font and the height
agreement, and exits 1 when a target is missed, for the left-to-right labels:
    widths equal to the 1/64 px for >= 99.9% of labels (DejaVu Sans, Liberation Sans) and
    >= 99.5% (Inter); never more than 1/64 px off; heights equal.
Labels with right-to-left text are measured and reported separately.
Without Chromium it prints "SKIPPED: chromium not found" and exits 0 (1 when $CI is set).
Python 3 standard library only.
"""

import argparse
import json
import os
import pathlib
import random
import shutil
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))

FONT_DIRS = {
    "dejavu": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "liberation": "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
    "inter": "/usr/share/fonts/opentype/inter/Inter-Regular.otf",
    "cjk": "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "emoji": "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
}

# name, primary, size px, letter-spacing px, target share of exact widths
RUNS = [
    ("DejaVu Sans 16px", "dejavu", 16, 0, 0.999),
    ("Liberation Sans 13px", "liberation", 13, 0, 0.999),
    ("Inter 14px", "inter", 14, 0, 0.995),
    ("DejaVu Sans 15px letter-spacing 0.5px", "dejavu", 15, 0.5, 0.999),
    ("Liberation Sans 16px letter-spacing 1px", "liberation", 16, 1, 0.999),
    ("Inter 12.5px letter-spacing -0.25px", "inter", 12.5, -0.25, 0.995),
]

# ---------------------------------------------------------------------------------------------
# The corpus

WORDS = """swift rust go python javascript typescript kotlin java scala haskell ocaml elixir erlang
clojure ruby perl php lua julia zig nim dart fortran cobol pascal ada lisp scheme racket prolog
linux macos windows android ios ipados watchos tvos visionos freebsd openbsd debian ubuntu fedora
arch alpine nixos docker kubernetes podman terraform ansible puppet chef nginx apache caddy
postgres postgresql mysql sqlite redis mongodb cassandra kafka rabbitmq elasticsearch graphql rest
grpc http https websocket tcp udp quic dns tls ssl oauth jwt saml ldap api sdk cli gui tui
frontend backend fullstack devops sre security privacy performance testing debugging profiling
concurrency async await actors threads locks atomics memory allocation garbage collection
compilers interpreters parsers lexers llvm gcc clang wasm webassembly webgpu opengl vulkan metal
directx shaders graphics rendering typography fonts kerning ligatures unicode emoji layout flexbox
grid css html markdown yaml toml json xml csv protobuf avro parquet arrow pandas numpy scipy
matplotlib pytorch tensorflow jax keras sklearn machine learning deep neural networks transformers
llm embeddings vectors search ranking recommendation statistics probability algebra calculus
geometry topology category theory types generics protocols traits interfaces closures lambdas
functional reactive declarative imperative objects inheritance composition patterns architecture
microservices monolith serverless cloud aws azure gcp cloudflare vercel netlify heroku github
gitlab bitbucket git mercurial subversion ci cd pipelines actions workflows releases versioning
semver changelog documentation tutorials guides howto tips tricks news opinion review interview
podcast video talk conference meetup community open source licensing mit apache bsd gpl
accessibility i18n l10n localization internationalization design ux ui figma sketch
photography travel cooking coffee tea books reading writing music guitar piano running cycling
hiking climbing gardening woodworking electronics arduino raspberry keyboard mechanical vim emacs
vscode xcode intellij neovim tmux zsh bash fish shell scripting automation productivity career
leadership management hiring remote work life family health fitness science physics chemistry
biology astronomy space history philosophy economics politics law finance crypto blockchain""".split()

PUNCT = ["C++", "C#", ".NET", "F#", "ASP.NET", "Node.js", "Vue.js", "Next.js", "D3.js", "Objective-C",
         "C/C++", "R&D", "Q&A", "A/B testing", "i/o", "100%", "$5", "€10", "£3", "¥100", "v1.2.3",
         "2.0", "3.14", "1,000", "e-mail", "co-op", "(draft)", "[wip]", "{json}", "<html>", "a->b",
         "x => y", "foo_bar", "--flag", "#hashtag", "@mention", "~/.config", "*.swift", "key: value",
         "\"quoted\"", "'single'", "it's", "rock'n'roll", "what?", "wow!", "semi;colon", "a + b = c",
         "50/50", "24/7", "9:41", "12:30", "3x4", "1920x1080", "4K", "H.264", "MP3", "UTF-8",
         "ISO-8859-1", "RFC 2616", "No. 5", "St. John", "Mr. T", "Dr. Who", "P.S.", "U.S.A.",
         "e.g.", "i.e.", "etc.", "…", "—", "–", "«quote»", "„Zitat“", "‘curly’", "“double”",
         "•", "§ 3", "¶", "©", "®", "™", "°C", "±1", "×", "÷", "≠", "≤", "≥", "∞", "√2", "π", "µs",
         "Ω", "→", "←", "↑", "★", "♥", "✓", "✗", "…and more", "#1", "#swift", "#100DaysOfCode",
         "2024", "2025-01-01", "11", "111", "1/2", "0.5", "-1", "+1", "$$$", "%%", "&&", "||", "!!",
         "??", "::", "//", "/* */", "<!-- -->", "0x1F", "#FF0000", "rgb(0,0,0)", "10px", "1.5em"]

KERN = ["AV", "AVA", "AW", "AY", "AT", "Av", "Aw", "Ay", "FA", "Fa", "Fo", "LT", "LV", "LW", "LY",
        "Ly", "PA", "Pa", "Po", "P.", "P,", "RT", "RV", "RW", "RY", "TA", "Ta", "Te", "To", "Tr",
        "Tu", "Tw", "Ty", "T.", "T,", "T-", "VA", "Va", "Ve", "Vo", "V.", "V,", "WA", "Wa", "We",
        "Wo", "W.", "YA", "Ya", "Ye", "Yo", "Yu", "Y.", "Y,", "ff", "r.", "r,", "v.", "w.", "y.",
        "11", "L'", "A'", "\"A\"", "'A'", "AVAWAY", "WAVY", "Toyota", "Tokyo", "Yves", "Wolf",
        "VAT", "TAX", "LAVA", "AVATAR", "Taiwan", "Typography", "Victory", "Waltz", "Yacht",
        "Paw", "Fly", "Try", "To be", "A V", "A T", "Y A", "T A", "L T", "P A", "W A", "A Y",
        "F.A.Q.", "V.A.T.", "T.V.", "Y.M.C.A."]

LIGA = ["office", "affine", "waffle", "flow", "fjord", "shuffle", "efficient", "fluffy", "difficult",
        "offline", "afflict", "baffle", "coffee", "official", "suffix", "fifty", "fifth", "flight",
        "flavor", "float", "fly", "fluent", "Firefox", "Flutter", "Fluent UI", "workflow", "config",
        "file", "files", "profile", "profiling", "fi", "fl", "ff", "ffi", "ffl", "fff", "ffff",
        "off-by-one", "staff", "stuff", "cliff", "buffer", "effect", "traffic", "affiliate"]

LATIN = ["café", "naïve", "résumé", "Ångström", "Straße", "Łódź", "Dvořák", "Škoda", "Zürich",
         "São Paulo", "Málaga", "Curaçao", "Gdańsk", "Kraków", "Brașov", "İstanbul", "Ærø", "Øresund",
         "façade", "jalapeño", "piñata", "crème brûlée", "déjà vu", "über", "Ōsaka", "Hà Nội", "Việt",
         "Ðakovo", "ÀÁÂÃÄÅ", "àáâãäå", "ÈÉÊË", "èéêë", "ÌÍÎÏ", "ìíîï", "ÒÓÔÕÖ", "òóôõö", "ÙÚÛÜ",
         "ùúûü", "Ýÿ", "Çç", "Ññ", "Œuvre", "œuf", "ŁĄĘ", "żółć", "Ţara", "ğış", "Ĳssel", "Ŵŷ"]

CYRILLIC = ["Привет", "Москва", "Россия", "Україна", "Київ", "Беларусь", "Санкт-Петербург", "язык",
            "программирование", "Тест", "АВТО", "ТАТУ", "Гора", "Ёлка", "щука", "Жук", "Съезд",
            "Шрифт", "Лось", "ГУГЛ", "Сербия", "Београд", "Љубав", "Њујорк", "Џем", "ЯНДЕКС", "Юг"]

GREEK = ["Αθήνα", "λόγος", "Ελλάδα", "αβγδε", "ΑΒΓΔΕ", "Ωμέγα", "φιλοσοφία", "ψυχή", "Κρήτη",
         "ΤΑΥ", "ΑΥΤΟ", "ΑΥΓΟ", "Σωκράτης", "μάθημα", "ΰΐ", "Όλυμπος"]

CJK = ["漢字", "日本語", "中文", "東京", "北京", "上海", "大阪", "京都", "台灣", "香港", "プログラミング",
       "言語", "人工知能", "機械学習", "開発者", "設計", "性能", "安全", "自由", "文化", "日記", "写真",
       "料理", "旅行", "音楽", "読書", "技術", "科学", "数学", "物理", "歴史", "経済", "政治", "未来"]

KANA = ["カタカナ", "ひらがな", "トウキョウ", "スウィフト", "ラスト", "パイソン", "ジャバスクリプト",
        "コーヒー", "テスト", "データベース", "ネットワーク", "サーバー", "クラウド", "セキュリティ",
        "ありがとう", "こんにちは", "さようなら", "すし", "ラーメン", "ゲーム", "アニメ", "マンガ",
        "ヴァイオリン", "ウィキペディア", "ファイル", "フォント", "カーニング", "リガチャ"]

HANGUL = ["한국어", "서울", "부산", "프로그래밍", "개발자", "컴퓨터", "인공지능", "데이터", "음악",
          "여행", "커피", "안녕하세요", "감사합니다", "한글", "맛집", "사진"]

HEBREW = ["שלום", "עברית", "שלום עולם", "ירושלים", "תל אביב", "abc שלום", "שלום 123", "C++ עברית",
          "(שלום)", "Tag: שלום!", "AV שלום AV", "שלום 2024 עולם"]

EMOJI = ["👍", "👍🏻", "👍🏼", "👍🏽", "👍🏾", "👍🏿", "👋🏽", "🙏🏿", "💪🏻", "🧑‍💻", "👩‍💻", "👨‍👩‍👧‍👦",
         "👩‍❤️‍👨", "🏳️‍🌈", "🏴‍☠️", "🇯🇵", "🇺🇸", "🇩🇪", "🇫🇷", "🇧🇷", "🇺🇦", "🇪🇺", "🚀", "🔥", "✨",
         "🎉", "💡", "📚", "🐛", "🦀", "🐍", "🍎", "☕", "❤️", "⭐", "✅", "❌", "⚡", "🌍", "😀",
         "😂", "🤔", "🥳", "🫠", "🧵", "🧪", "🛠️", "⚙️", "1️⃣", "#️⃣", "👩🏽‍🚀", "🧑🏿‍🤝‍🧑🏻", "🤷‍♂️",
         "🏃🏻‍♀️", "👁️‍🗨️"]

MARKS = ["e\u0301", "n\u0303", "a\u0308\u0301", "o\u0302", "u\u0308", "c\u0327", "A\u030A",
         "i\u0307", "e\u0301te\u0301", "Z\u0324\u0354", "x\u0305", "q\u0323", "s\u030C", "y\u0306",
         "re\u0301sume\u0301", "nai\u0308ve", "Cafe\u0301", "g\u0301", "a\u0331", "o\u0328"]


def is_rtl(label):
    """Whether a label has right-to-left (Hebrew, Arabic) characters."""
    return any(0x0590 <= ord(c) <= 0x08FF or 0xFB1D <= ord(c) <= 0xFEFF for c in label)


def corpus():
    """The labels, deterministic (fixed seed), at least 2 000."""
    rng = random.Random(20261121)
    labels = []
    seen = set()

    def add(s):
        if s and s not in seen:
            seen.add(s)
            labels.append(s)

    for group in (PUNCT, KERN, LIGA, LATIN, CYRILLIC, GREEK, CJK, KANA, HANGUL, HEBREW, EMOJI, MARKS):
        for s in group:
            add(s)
    for w in WORDS:
        add(w)
        add(w.capitalize())
        if len(w) <= 5:
            add(w.upper())
    for w in WORDS[::3]:
        add("#" + w)
    # Two- and three-word tags, mixed case.
    while len(labels) < 1500:
        n = rng.choice([2, 2, 3])
        words = [rng.choice(WORDS) for _ in range(n)]
        style = rng.randrange(4)
        if style == 1:
            words = [x.capitalize() for x in words]
        elif style == 2:
            words[0] = words[0].capitalize()
        sep = rng.choice([" ", " ", "-", "_", " & ", "/", ". "])
        add(sep.join(words))
    # Mixed scripts and symbols.
    pools = [KERN, LIGA, LATIN, CYRILLIC, GREEK, CJK, KANA, HANGUL, EMOJI, MARKS, PUNCT]
    while len(labels) < 2200:
        a = rng.choice(rng.choice(pools))
        b = rng.choice(rng.choice(pools))
        add(rng.choice([a + " " + b, a + b, b + " " + a, a + "·" + b, "(" + a + ")"]))
    # Emoji attached to words, and words with kerning-prone capitals.
    while len(labels) < 2500:
        w = rng.choice(WORDS)
        e = rng.choice(EMOJI)
        k = rng.choice(KERN)
        add(rng.choice([w + " " + e, e + " " + w.capitalize(), k + w, w.upper() + " " + k]))
    return labels


# ---------------------------------------------------------------------------------------------
# Chromium

PAGE_JS = r"""
function __measure(cfg) {
  const host = document.getElementById("host");
  host.textContent = "";
  host.style.fontFamily = cfg.families.map(f => `"${f}"`).join(", ");
  host.style.fontSize = cfg.size + "px";
  host.style.letterSpacing = cfg.ls + "px";
  const spans = [];
  for (const s of cfg.strings) {
    const row = document.createElement("div");
    row.className = "row";
    const sp = document.createElement("span");
    sp.textContent = s;
    row.appendChild(sp);
    host.appendChild(row);
    spans.push(sp);
  }
  return spans.map(sp => { const r = sp.getBoundingClientRect(); return [r.width, r.height]; });
}
"""

PAGE_CSS = """
html, body { margin: 0; padding: 0; }
#host { font-kerning: auto; font-weight: 400; font-style: normal; text-rendering: auto; width: 100000px; }
.row { display: block; white-space: nowrap; line-height: normal; }
.row span { display: inline-block; white-space: nowrap; line-height: normal; unicode-bidi: plaintext; }
"""


def open_font_page(files):
    """A Chromium page with `files` as @font-face families; returns (browser, families)."""
    import chromium_cdp as cdp
    families = ["tf-font-%d" % i for i in range(len(files))]
    browser = cdp.Browser(files, fc_match_xml=cdp.hinting_xml("slight"), hinting="slight")
    css = "".join(cdp.font_face_css(family, path) for family, path in zip(families, files))
    browser.load_html(
        "<!DOCTYPE html><html><head><meta charset='utf-8'><style>" + css + PAGE_CSS +
        "</style><script>" + cdp.JS_LOAD_FONTS + PAGE_JS +
        "</script></head><body><div id='host'></div></body></html>")
    return browser, families


def measure_on_page(browser, families, labels, size, letter_spacing):
    """Chromium's (width, height) in px for each label, in `families` at `size`."""
    sample = "".join(sorted(set("".join(labels))))
    load = browser.evaluate("__loadFonts(%s, %s, %s)" % (
        json.dumps(families), json.dumps(size), json.dumps(sample)))
    bad = {k: v for k, v in load["status"].items() if v != "loaded"}
    if bad:
        raise SystemExit("font(s) failed to load in Chromium: %s" % bad)
    cfg = {"families": families, "size": size, "ls": letter_spacing, "strings": labels}
    return browser.evaluate("__measure(%s)" % json.dumps(cfg))


def chromium_measure(labels, runs, fonts):
    results = {}
    # One browser per primary font: fallback can only reach that run's own files.
    for primary in dict.fromkeys(r[1] for r in runs):
        browser, families = open_font_page([fonts[primary], fonts["cjk"], fonts["emoji"]])
        try:
            for run in runs:
                if run[1] == primary:
                    results[run[0]] = measure_on_page(browser, families, labels, run[2], run[3])
            version = browser.version.get("product")
        finally:
            browser.close()
    return results, version


def run_tagflow_measure(tagflow, labels, files, size, letter_spacing=0):
    """`tagflow measure` of each label with `files` as the font stack (the first is primary)."""
    cmd = [tagflow, "measure", "--font", files[0]]
    for path in files[1:]:
        cmd += ["--fallback", path]
    cmd += ["--size=%s" % size, "--letter-spacing=%s" % letter_spacing]
    proc = subprocess.run(cmd, input=json.dumps(labels, ensure_ascii=False), capture_output=True,
                          text=True)
    if proc.returncode != 0:
        raise SystemExit("tagflow measure failed (%s):\n%s" % (" ".join(cmd), proc.stderr))
    out = json.loads(proc.stdout)
    assert len(out) == len(labels), "tagflow measure returned %d results" % len(out)
    return out


def tagflow_measure(tagflow, labels, run, fonts):
    return run_tagflow_measure(tagflow, labels, [fonts[run[1]], fonts["cjk"], fonts["emoji"]], run[2], run[3])


def preflight(tagflow, font_paths):
    """The exit code when the harness cannot run (no Chromium, fonts or tagflow), else None."""
    chromium = os.environ.get("CHROMIUM") or next(
        (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
    if not chromium:
        print("SKIPPED: chromium not found")
        return 1 if os.environ.get("CI") else 0
    missing = [p for p in font_paths if not os.path.exists(p)]
    if missing:
        print("SKIPPED: fonts not installed: %s" % ", ".join(missing))
        return 1 if os.environ.get("CI") else 0
    if not os.path.exists(tagflow):
        print("tagflow executable not found: %s (build it, or pass its path)" % tagflow)
        return 1
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tagflow", nargs="?", default=os.environ.get("TAGFLOW", str(ROOT / ".build/debug/tagflow")))
    ap.add_argument("--labels-out", help="write the corpus (one JSON string per line) here")
    ap.add_argument("--json-out", help="write every measurement here")
    ap.add_argument("--show", type=int, default=15, help="mismatches to print per run")
    args = ap.parse_args(argv)

    labels = corpus()
    if args.labels_out:
        pathlib.Path(args.labels_out).write_text(
            "".join(json.dumps(s, ensure_ascii=False) + "\n" for s in labels), encoding="utf-8")
    status = preflight(args.tagflow, FONT_DIRS.values())
    if status is not None:
        return status

    t0 = time.time()
    browser, version = chromium_measure(labels, RUNS, FONT_DIRS)
    t1 = time.time()
    print("corpus: %d labels; %s; chromium %.1fs" % (len(labels), version, t1 - t0))
    ok = True
    dump = {}
    for run in RUNS:
        name, target = run[0], run[4]
        ours = tagflow_measure(args.tagflow, labels, run, FONT_DIRS)
        diffs = {}
        heights_ok = 0
        bad = []
        rtl_total = rtl_exact = 0
        n = 0
        for label, (bw, bh), mine in zip(labels, browser[name], ours):
            d = round((mine["width"] - bw) * 64)
            if is_rtl(label):
                # Right-to-left text is reported, not held to the targets (which are for
                # left-to-right labels).
                rtl_total += 1
                rtl_exact += d == 0 and mine["height"] == bh
                if d != 0 or mine["height"] != bh:
                    bad.append((label, bw * 64, mine["width"] * 64, bh, mine["height"]))
                continue
            n += 1
            diffs[d] = diffs.get(d, 0) + 1
            if mine["height"] == bh:
                heights_ok += 1
            if d != 0 or mine["height"] != bh:
                bad.append((label, bw * 64, mine["width"] * 64, bh, mine["height"]))
        exact = diffs.get(0, 0)
        near = diffs.get(1, 0) + diffs.get(-1, 0)
        worse = n - exact - near
        share = exact / n
        passed = share >= target and worse == 0 and heights_ok == n
        ok = ok and passed
        print("\n%s: %s" % (name, "PASS" if passed else "FAIL"))
        print("  left-to-right labels: widths exact: %d/%d (%.2f%%, target %.1f%%), ±1/64 px: %d, worse: %d" % (
            exact, n, 100 * share, 100 * target, near, worse))
        print("  heights equal: %d/%d" % (heights_ok, n))
        print("  distribution (1/64 px: count): " + ", ".join(
            "%+d: %d" % (k, diffs[k]) for k in sorted(diffs)))
        print("  labels with right-to-left text (not in the targets): %d/%d exact" % (rtl_exact, rtl_total))
        for label, bw, mw, bh, mh in bad[:args.show]:
            print("    %r: chromium %.0f/64 × %g, tagflow %.0f/64 × %g" % (label, bw, bh, mw, mh))
        dump[name] = [{"text": l, "chromium": b, "tagflow": m}
                      for l, b, m in zip(labels, browser[name], ours)]
    if args.json_out:
        pathlib.Path(args.json_out).write_text(json.dumps(dump, ensure_ascii=False), encoding="utf-8")
    print("\ntotal %.1fs" % (time.time() - t0))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
