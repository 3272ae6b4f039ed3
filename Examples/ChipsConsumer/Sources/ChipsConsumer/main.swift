// Writes OUTPUT/index.html, a page with two chip blocks, and OUTPUT/chips.css, their stylesheet,
// the way another site generator would: its own tags in, Tagflow's chip blocks out.
//
//     swift run ChipsConsumer [OUTPUT [FONT]]     (default: _site, the built-in metrics)
//
// With a .ttf/.otf FONT, chips are measured with it and the page ships it with @font-face.

import Foundation
import TagflowChips

/// A tag as the host generator models it.
struct Tag {
    var name: String
    var slug: String
    var count: Int
}

let tags = [
    Tag(name: "Swift", slug: "swift", count: 12),
    Tag(name: "Server-side Swift", slug: "server-side-swift", count: 4),
    Tag(name: "CSS", slug: "css", count: 7),
    Tag(name: "Flexbox", slug: "flexbox", count: 2),
    Tag(name: "Typography", slug: "typography", count: 3),
    Tag(name: "Café culture", slug: "cafe-culture", count: 1),
    Tag(name: "标签布局", slug: "标签布局", count: 1),
    Tag(name: "C++", slug: "c-plus-plus", count: 5),
    Tag(name: "AVAWAY", slug: "avaway", count: 1),
    Tag(name: "Static sites", slug: "static-sites", count: 9),
]
let postTags = ["Swift", "CSS", "Flexbox", "Static sites"]

// The look and the widths to lay out for; CSS container queries pick the widest that fits.
var style = ChipStyle()
style.breakpoints = [320, 480, 640]
style.colors.background = "#f3f0ff"

// Measure with the built-in metrics, or with the font file the page ships and draws with.
let output = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "_site", isDirectory: true)
let fontFile = CommandLine.arguments.dropFirst(2).first.map { URL(fileURLWithPath: $0) }
var fontFace = ""
if let fontFile {
    style.fontFamily = #""Site Chips", "Noto Sans CJK JP", "Noto Color Emoji", sans-serif"#
    fontFace = "@font-face{font-family:\"Site Chips\";src:url(\"\(fontFile.lastPathComponent)\")}\n"
}
let renderer = try ChipRenderer(style: style, fonts: chipFonts(fontFile: fontFile))

// A post's tags: one chip per tag, linking to its page.
let postChips = tags.filter { postTags.contains($0.name) }.map { tag in
    Chip(label: tag.name, url: "/tags/\(tag.slug)/")
}
let postBlock = renderer.html(for: postChips, label: "Tags of this post")

// A tag cloud: counts shown, text sized by use, at most two rows and a "+N more" chip.
let weights = Chip.weights(for: tags.map(\.count), steps: style.weightScale.count)
let cloudChips = zip(tags, weights).map { tag, weight in
    Chip(label: tag.name, url: "/tags/\(tag.slug)/", count: tag.count, weight: weight)
}
let cloudBlock = renderer.html(for: cloudChips, label: "All tags", rowLimit: 2, moreURL: "/tags/")

// One stylesheet for every block on every page.
let css = renderer.stylesheet(fontFace: fontFace)

let page = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Chip blocks from another generator</title>
    <link rel="stylesheet" href="chips.css">
    </head>
    <body>
    <h1>Laid out at build time</h1>
    <h2>Tags of this post</h2>
    \(postBlock)
    <h2>All tags</h2>
    \(cloudBlock)
    </body>
    </html>

    """

try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
try page.write(to: output.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
try css.write(to: output.appendingPathComponent("chips.css"), atomically: true, encoding: .utf8)
if let fontFile {
    let copy = output.appendingPathComponent(fontFile.lastPathComponent)
    try? FileManager.default.removeItem(at: copy)
    try FileManager.default.copyItem(at: fontFile, to: copy)
}

// The same post block laid out by hand with TagflowMetrics and TagflowLayout, for a generator that
// writes its own markup: its positions at 320 px equal the renderer's.
let manual = layOutByHand(postTags, width: 320)
let positions = manual.frames.map { "[\($0.minX.pixels), \($0.minY.pixels), \($0.width.pixels)]" }
try "[\(positions.joined(separator: ", "))]\n".write(
    to: output.appendingPathComponent("positions-320.json"), atomically: true, encoding: .utf8)
print("wrote \(output.path)/index.html, chips.css and positions-320.json")
