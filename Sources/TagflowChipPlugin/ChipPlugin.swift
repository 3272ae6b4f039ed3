public import Foundation
public import TagflowChips
public import TagflowCore
import TagflowHTML
import TagflowLayout
import TagflowMarkdown
import TagflowMetrics

extension Plugin {
    /// Lays out every list of tags as a chip block, and renders ```` ```chips ```` fenced blocks.
    ///
    /// Reads `chips:` from `site.yml`; writes `assets/chips.css` (and the chip font, when the
    /// site names one, so the measured font is the rendered font).
    public static let chips = Plugin(name: "chips") { context in
        let config = context.config.chips
        guard config.enabled else { return }
        var setup = try ChipSetup(config: config, siteRoot: context.siteRoot, basePath: context.config.basePath)
        let strings = SiteStrings(language: context.config.language, overrides: context.config.strings)
        setup.renderer.moreLabel = { strings.counted("more_tags", $0) }
        if let font = setup.font { context.assets[font.path] = font.bytes }
        context.assets["assets/chips.css"] = Array(setup.stylesheet.utf8)
        context.stylesheets.append("/assets/chips.css")
        context.tagListRenderer = ChipTagLists(
            renderer: setup.renderer, config: config, tagsURL: context.config.basePath + "/tags/", strings: strings)
        context.embedRenderers["chips"] = ChipEmbeds(
            renderer: setup.renderer, basePath: context.config.basePath,
            allowsUnsafeURLs: context.config.markdown.unsafe)
    }
}

/// A chip renderer made from `chips:` settings, with its stylesheet and, when the settings name a
/// font file, that font for the output.
public struct ChipSetup: Sendable {
    /// The renderer.
    public var renderer: ChipRenderer
    /// The whole stylesheet, `@font-face` included.
    public var stylesheet: String
    /// The font file to ship (output path and bytes), when one is named.
    public var font: (path: String, bytes: [UInt8])?

    /// Reads the font (if any) and builds the renderer.
    ///
    /// - Parameters:
    ///   - config: The settings.
    ///   - siteRoot: The folder `config.font` is relative to.
    ///   - basePath: The site's path prefix, for the font URL.
    /// - Throws: ``TagflowError`` when the font cannot be read or is not a font.
    public init(config: ChipsConfig, siteRoot: URL, basePath: String) throws {
        // The site's settings over the style's defaults, which are written only there.
        var style = ChipStyle()
        style.fontSize = config.fontSize ?? style.fontSize
        style.lineHeight = config.lineHeight ?? style.lineHeight
        style.paddingX = config.paddingX ?? style.paddingX
        style.paddingY = config.paddingY ?? style.paddingY
        style.border = config.border ?? style.border
        style.radius = config.radius ?? style.radius
        style.columnGap = config.columnGap ?? style.columnGap
        style.rowGap = config.rowGap ?? style.rowGap
        if let justify = config.justify {
            style.justification = justify == "center" ? .center : justify == "end" ? .end : .start
        }
        if let align = config.align { style.alignment = align == "start" ? .start : align == "end" ? .end : .center }
        style.breakpoints = config.breakpoints ?? style.breakpoints
        let colors = config.colors
        style.colors.text = colors["text"] ?? style.colors.text
        style.colors.background = colors["background"] ?? style.colors.background
        style.colors.borderColor = colors["border"] ?? style.colors.borderColor
        style.colors.darkText = colors["dark_text"] ?? style.colors.darkText
        style.colors.darkBackground = colors["dark_background"] ?? style.colors.darkBackground
        style.colors.darkBorderColor = colors["dark_border"] ?? style.colors.darkBorderColor
        style.weightScale = config.weights ?? style.weightScale
        var fonts = FontStack.default
        var fontFace = ""
        if !config.font.isEmpty {
            let url = siteRoot.appendingPathComponent(config.font)
            // Through a symbolic link the setting could ship any file on the machine.
            if let real = SiteFiles.realPath(url.path), let site = SiteFiles.realPath(siteRoot.path),
                !real.hasPrefix(site + "/")
            {
                throw TagflowError(
                    location: SourceLocation(path: config.font), step: "plugins",
                    message: "chips.font resolves to '\(real)', outside the site folder",
                    hint: "copy the font into the site")
            }
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw TagflowError(
                    location: SourceLocation(path: config.font), step: "plugins",
                    message: "chips.font cannot be read", hint: "give a .ttf, .otf or .ttc file inside the site")
            }
            do {
                let table = try MetricsTable(fontFile: Array(data))
                fonts = FontStack([table, .cjkFallback, .emojiFallback])
            } catch {
                throw TagflowError(
                    location: SourceLocation(path: config.font), step: "plugins",
                    message: "chips.font is not a usable font: \(error)", hint: "give a .ttf, .otf or .ttc file")
            }
            let name = url.lastPathComponent
            font = ("assets/chips/\(name)", Array(data))
            fontFace =
                "@font-face{font-family:\"Tagflow Chips\";src:url(\"\(basePath)/assets/chips/\(name)\");"
                + "font-display:block}\n"
            style.fontFamily = #""Tagflow Chips", "Noto Sans CJK JP", "Noto Color Emoji", sans-serif"#
        }
        renderer = ChipRenderer(style: style, fonts: fonts)
        stylesheet =
            renderer.stylesheet(fontFace: fontFace)
            + ".tf-collapsible:has(details[open])>.tf-collapsed{display:none}\n"
            + ".tf-collapsible summary{cursor:pointer;margin:.25rem 0}\n"
    }
}

/// Tag lists as chip blocks.
struct ChipTagLists: TagListRenderer {
    let renderer: ChipRenderer
    let config: ChipsConfig
    let tagsURL: String
    /// The blocks' names (`aria-label`) and the cloud's "Show all" in the site's language.
    let strings: SiteStrings

    /// A post's page and a list of posts draw its tags the same way (see `html(for:role:)`).
    var drawsPostsAsSummaries: Bool { true }

    /// A post's chips are its tags' names and links only.
    var drawsCountsInPostLists: Bool { false }

    func html(for tags: [TagLink], role: TagListRole) -> String? {
        switch role {
        case .post, .summary:
            return renderer.html(for: tags.map { Chip(label: $0.name, url: $0.url) }, label: strings.text("tags"))
        case .related(let current):
            let shown = config.relatedLimit > 0 ? tags.prefix(config.relatedLimit) : tags[...]
            let chips = shown.map { Chip(label: $0.name, url: $0.url, isCurrent: $0.key == current) }
            return renderer.html(for: chips, label: strings.text("related_tags"))
        case .cloud:
            return renderer.html(for: cloud(tags), label: strings.text("all_tags"))
        case .terms(let title, let counts):
            let chips = counts ? cloud(tags) : tags.map { Chip(label: $0.name, url: $0.url) }
            return renderer.html(for: chips, label: title)
        case .children(let parent):
            return renderer.html(for: cloud(tags), label: strings.text("child_tags", ["tag": parent.name]))
        case .homeCloud:
            guard config.homeRows > 0, !tags.isEmpty else { return nil }
            // The collapsed cloud shows the most used tags first, whatever the cloud page's order.
            let chips = cloud(tags, order: "count")
            let collapsed = renderer.layout(chips, rowLimit: config.homeRows)
            guard collapsed.more.contains(where: { $0 != nil }) else {
                return renderer.html(for: chips, block: collapsed, label: strings.text("tags"), moreURL: tagsURL)
            }
            return "<div class=\"tf-collapsible\"><div class=\"tf-collapsed\">"
                + renderer.html(for: chips, block: collapsed, label: strings.text("most_used_tags"), moreURL: tagsURL)
                + "</div><details><summary>"
                + HTMLEscaping.escaped(strings.counted("show_all_tags", tags.count)) + "</summary>"
                + renderer.html(for: chips, label: strings.text("all_tags")) + "</details></div>"
        }
    }

    /// Every tag with its count, weighted on a log scale, by name or by count then name.
    func cloud(_ tags: [TagLink], order: String? = nil) -> [Chip] {
        let ordered =
            (order ?? config.cloudOrder) == "count"
            ? tags.sorted { $0.count != $1.count ? $0.count > $1.count : $0.key < $1.key } : tags
        let weights = Chip.weights(for: ordered.map(\.count), steps: renderer.style.weightScale.count)
        return zip(ordered, weights).map { Chip(label: $0.name, url: $0.url, count: $0.count, weight: $1) }
    }
}

/// ```` ```chips ```` blocks: one label per line, optionally `label -> url`.
struct ChipEmbeds: EmbedRenderer {
    let renderer: ChipRenderer
    let basePath: String
    /// `markdown.unsafe`: links are then written as given, as cmark-gfm writes Markdown links.
    var allowsUnsafeURLs = false

    func html(for embed: MarkdownEmbed) throws -> String {
        var chips: [Chip] = []
        for line in embed.content.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            if let arrow = text.range(of: "->") {
                let label = text[..<arrow.lowerBound].trimmingCharacters(in: .whitespaces)
                var url = text[arrow.upperBound...].trimmingCharacters(in: .whitespaces)
                if label.isEmpty || url.isEmpty {
                    throw TagflowError(
                        step: "render", message: "chips block: '\(text)' needs a label and a URL around '->'",
                        hint: "write `Label -> /path/` or just `Label`")
                }
                guard allowsUnsafeURLs || URLPolicy.isSafe(url) else {
                    throw TagflowError(
                        step: "render", message: "chips block: '\(label)' links to '\(url)', which is not allowed",
                        hint: "javascript:, vbscript:, file: and data: links are refused unless markdown.unsafe is on")
                }
                if url.hasPrefix("/") && !url.hasPrefix("//") { url = basePath + url }
                chips.append(Chip(label: label, url: url))
            } else {
                chips.append(Chip(label: text))
            }
        }
        guard !chips.isEmpty else {
            throw TagflowError(step: "render", message: "chips block is empty", hint: "write one label per line")
        }
        return renderer.html(for: chips, label: embed.arguments.isEmpty ? "Chips" : embed.arguments)
    }
}
