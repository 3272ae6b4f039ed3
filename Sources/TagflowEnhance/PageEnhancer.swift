public import TagflowChips
import TagflowHTML

/// Replaces the tag lists of one HTML page with chip blocks, byte for byte: everything outside a
/// replaced element is left exactly as it was.
public struct PageEnhancer: Sendable {
    /// The chip renderer (layout, metrics, breakpoints).
    public var renderer: ChipRenderer
    /// The rules that find lists, besides `data-tagflow`.
    public var rules: [ListRule]

    /// Creates an enhancer.
    public init(renderer: ChipRenderer, rules: [ListRule]) {
        self.renderer = renderer
        self.rules = rules
    }

    /// What happened to a page.
    public struct Result: Sendable {
        /// The new bytes, or `nil` when nothing changed.
        public var bytes: [UInt8]?
        /// Lists replaced.
        public var replaced = 0
        /// How many lists each rule found (by index into ``PageEnhancer/rules``).
        public var matchesPerRule: [Int]
        /// Chip blocks already in the page (from an earlier run).
        public var ownBlocks = 0
        /// Problems, each at its 1-based line.
        public var warnings: [(line: Int, message: String)] = []
    }

    /// Enhances a page.
    ///
    /// - Parameters:
    ///   - bytes: The page (UTF-8).
    ///   - stylesheetURL: The `href` of the chip stylesheet from this page.
    /// - Returns: The new bytes when a list was replaced, with what was found.
    public func enhance(_ bytes: [UInt8], stylesheetURL: String) -> Result {
        var result = Result(matchesPerRule: Array(repeating: 0, count: rules.count))
        let tokens = HTMLScanner.tokens(of: bytes)
        let (lists, ownBlocks) = TagListFinder.lists(
            in: bytes, tokens: tokens, rules: rules, weightSteps: renderer.style.weightScale.count)
        result.ownBlocks = ownBlocks
        var replacements: [(range: Range<Int>, html: [UInt8])] = []
        for list in lists {
            if let rule = list.rule, let index = rules.firstIndex(of: rule) { result.matchesPerRule[index] += 1 }
            if let problem = list.problem {
                result.warnings.append((Self.line(of: list.range.lowerBound, in: bytes), problem))
            }
            guard let chips = list.chips else { continue }
            var html = renderer.html(for: chips, label: list.label)
            if let id = list.id, html.hasPrefix(#"<div class="tf-flow""#) {
                html =
                    #"<div class="tf-flow" id=""# + HTMLEscaping.escaped(id) + "\""
                    + html.dropFirst(#"<div class="tf-flow""#.count)
            }
            replacements.append((list.range, Array(html.utf8)))
        }
        guard !replacements.isEmpty else { return result }
        result.replaced = replacements.count

        // The stylesheet, once per page: before `</head>`, or before the first block.
        let link =
            Array(#"<link rel="stylesheet" href=""#.utf8) + Array(HTMLEscaping.escaped(stylesheetURL).utf8)
            + Array("\">".utf8)
        if !Self.linksStylesheet(tokens) {
            if let head = tokens.first(where: { $0.kind == .endTag && $0.name == "head" }),
                head.range.lowerBound < replacements[0].range.lowerBound
            {
                replacements.append((head.range.lowerBound..<head.range.lowerBound, link))
            } else {
                replacements[0].html = link + replacements[0].html
            }
        }
        replacements.sort { $0.range.lowerBound < $1.range.lowerBound }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + replacements.reduce(0) { $0 + $1.html.count })
        var position = 0
        for replacement in replacements {
            output += bytes[position..<replacement.range.lowerBound]
            output += replacement.html
            position = replacement.range.upperBound
        }
        output += bytes[position...]
        result.bytes = output
        return result
    }

    /// Whether a `<link>` to the chip stylesheet is already in the page.
    static func linksStylesheet(_ tokens: [HTMLToken]) -> Bool {
        tokens.contains { token in
            token.kind == .startTag && token.name == "link"
                && token.attribute("href")?.hasSuffix(SiteEnhancer.stylesheetName) == true
        }
    }

    /// The 1-based line of a byte offset.
    static func line(of offset: Int, in bytes: [UInt8]) -> Int {
        var line = 1
        for byte in bytes[..<min(offset, bytes.count)] where byte == 0x0A { line += 1 }
        return line
    }
}
