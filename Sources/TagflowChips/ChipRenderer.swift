internal import TagflowHTML
public import TagflowLayout
public import TagflowMetrics

/// Lays out chips at build time and writes them as HTML whose positions need no script.
///
/// ```swift
/// let renderer = ChipRenderer()
/// let html = renderer.html(for: [Chip(label: "Swift", url: "/tags/swift/"), Chip(label: "C++")])
/// let css = renderer.stylesheet()   // once per site
/// ```
///
/// A block is laid out once per breakpoint width with ``/TagflowLayout/FlowLayout``; each `<li>` carries its
/// position at every breakpoint as CSS custom properties, and container queries in the shared
/// stylesheet pick the widest breakpoint that fits the block. Below the narrowest breakpoint, or
/// without container queries, the same markup is an ordinary wrapping list.
public struct ChipRenderer: Sendable {
    /// The look and the breakpoints.
    public var style: ChipStyle
    /// The fonts that measure chip text, in the CSS order of ``ChipStyle/fontFamily``.
    public var fonts: FontStack
    /// The text of the chip that stands for `count` hidden chips (`+12 more`), in the page's
    /// language; measured like any chip's.
    public var moreLabel: @Sendable (_ count: Int) -> String = { "+\($0) more" }

    /// Creates a renderer.
    public init(style: ChipStyle = ChipStyle(), fonts: FontStack = .default) {
        self.style = style
        self.fonts = fonts
    }

    /// A laid-out chip block: every chip's box and its position at every breakpoint.
    public struct Block: Sendable, Hashable {
        /// Chip sizes, in order.
        public var sizes: [LayoutSize]
        /// For each breakpoint, the frame of each chip, or `nil` for a chip hidden there.
        public var frames: [[LayoutRect?]]
        /// For each breakpoint, the block height.
        public var heights: [LayoutUnit]
        /// For each breakpoint, the "+N more" chip's frame and N, when chips are hidden.
        public var more: [(frame: LayoutRect, hidden: Int, size: LayoutSize)?]

        /// Two blocks are equal when their sizes, frames, heights and "+N more" chips are.
        public static func == (lhs: Block, rhs: Block) -> Bool {
            lhs.sizes == rhs.sizes && lhs.frames == rhs.frames && lhs.heights == rhs.heights
                && lhs.more.map { $0?.frame } == rhs.more.map { $0?.frame }
                && lhs.more.map { $0?.hidden } == rhs.more.map { $0?.hidden }
        }

        /// Hashes the sizes, frames and heights.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(sizes)
            hasher.combine(frames)
            hasher.combine(heights)
        }
    }

    /// Measures chips and lays them out at every breakpoint.
    ///
    /// - Parameters:
    ///   - chips: The chips, in reading order.
    ///   - rowLimit: Show at most this many rows, ending with a "+N more" chip; `nil` for all.
    /// - Returns: The block geometry.
    /// - Complexity: O(*n* × *b*) for *n* chips and *b* breakpoints.
    public func layout(_ chips: [Chip], rowLimit: Int? = nil) -> Block {
        let sizes = chips.map { size(of: $0) }
        let items = sizes.map { FlowItem(size: $0) }
        var layout = style.flowLayout
        layout.lineLimit = rowLimit
        var frames: [[LayoutRect?]] = []
        var heights: [LayoutUnit] = []
        var more: [(frame: LayoutRect, hidden: Int, size: LayoutSize)?] = []
        for breakpoint in style.breakpoints {
            let width = LayoutUnit(pixels: breakpoint)
            let result: FlowLayoutResult
            if rowLimit != nil {
                result = layout.layout(items, in: width) { hidden in FlowItem(size: self.moreSize(hidden)) }
            } else {
                result = layout.layout(items, in: width)
            }
            var placed = [LayoutRect?](repeating: nil, count: chips.count)
            for (index, frame) in result.frames.enumerated() { placed[index] = frame }
            frames.append(placed)
            heights.append(result.size.height)
            more.append(result.overflowIndicatorFrame.map { ($0, result.hiddenCount, $0.size) })
        }
        return Block(sizes: sizes, frames: frames, heights: heights, more: more)
    }

    /// The box of one chip.
    public func size(of chip: Chip) -> LayoutSize {
        let scale = self.scale(chip.weight)
        let size = style.fontSize * scale
        // The count is its own inline box (`<span class="tf-n">`), and a browser rounds each
        // inline box's width up to 1/64 px on its own: measure the two the same way.
        guard let count = chip.count else {
            return style.boxSize(textWidth: fonts.measure(chip.label, size: size).width, scale: scale)
        }
        let width = fonts.measure(chip.label + " ", size: size).width + fonts.measure(String(count), size: size).width
        return style.boxSize(textWidth: width, scale: scale)
    }

    func moreSize(_ hidden: Int) -> LayoutSize {
        style.boxSize(textWidth: fonts.measure(moreLabel(hidden), size: style.fontSize).width, scale: 1)
    }

    func scale(_ weight: Int) -> Double {
        guard !style.weightScale.isEmpty else { return 1 }
        return style.weightScale[min(max(weight, 0), style.weightScale.count - 1)]
    }

    /// The HTML of a chip block.
    ///
    /// - Parameters:
    ///   - chips: The chips, in reading order.
    ///   - label: The list's accessible name.
    ///   - rowLimit: Show at most this many rows; the last place goes to a "+N more" chip.
    ///   - moreURL: Where the "+N more" chip links.
    /// - Returns: A `<div class="tf-flow">` holding a `<ul>` of chips.
    public func html(for chips: [Chip], label: String = "Tags", rowLimit: Int? = nil, moreURL: String? = nil) -> String
    {
        html(for: chips, block: layout(chips, rowLimit: rowLimit), label: label, moreURL: moreURL)
    }

    /// The HTML of a block laid out with ``layout(_:rowLimit:)``.
    public func html(for chips: [Chip], block: Block, label: String, moreURL: String?) -> String {
        // Written as bytes: a build draws a block per post, and through string interpolation and
        // appends this was a measurable share of it (docs/performance.md).
        var out = HTMLBytes(capacity: 256 + chips.count * (112 + 24 * block.frames.count))
        out += #"<div class="tf-flow"><ul class="tf-chips" aria-label=""#
        out.appendEscaped(label)
        out += #"" style=""#
        for (index, height) in block.heights.enumerated() {
            if index > 0 { out += ";" }
            out += "--h"
            out.append(index)
            out += ":"
            out.append(height)
        }
        out += "\">"
        for (index, chip) in chips.enumerated() {
            out += "<li"
            if chip.weight > 0 {
                out += #" class="tf-w"#
                out.append(min(chip.weight, style.weightScale.count - 1))
                out += "\""
            }
            out += #" style="width:"#
            out.append(block.sizes[index].width)
            out += "px"
            for breakpoint in block.frames.indices {
                guard let frame = block.frames[breakpoint][index] else {
                    out += ";--d"
                    out.append(breakpoint)
                    out += ":none"
                    continue
                }
                out.appendOffsets(frame, breakpoint: breakpoint)
            }
            out += "\">"
            if let url = chip.url {
                out += #"<a href=""#
                out.appendEscaped(url)
                out += "\""
                if chip.isCurrent { out += #" aria-current="page""# }
                for attribute in chip.linkAttributes where attribute.hasSafeName {
                    out += " "
                    out.append(attribute.name)
                    out += "=\""
                    out.appendEscaped(attribute.value)
                    out += "\""
                }
                out += ">"
                out.appendText(of: chip)
                out += "</a>"
            } else {
                out += "<span>"
                out.appendText(of: chip)
                out += "</span>"
            }
            out += "</li>"
        }
        // One "+N more" chip per breakpoint that hides chips, shown only at its own breakpoint.
        for (breakpoint, more) in block.more.enumerated() {
            guard let more else { continue }
            out += #"<li class="tf-more" style="width:"#
            out.append(more.size.width)
            out += "px"
            for other in block.more.indices where other != breakpoint {
                out += ";--d"
                out.append(other)
                out += ":none"
            }
            out.appendOffsets(more.frame, breakpoint: breakpoint)
            out += "\">"
            let text = moreLabel(more.hidden)
            if let moreURL {
                out += #"<a href=""#
                out.appendEscaped(moreURL)
                out += "\">"
                out.appendEscaped(text)
                out += "</a>"
            } else {
                out += "<span>"
                out.appendEscaped(text)
                out += "</span>"
            }
            out += "</li>"
        }
        out += "</ul></div>"
        return out.text
    }

    /// The stylesheet every page with chip blocks links once.
    ///
    /// Every rule is `!important`: a block may sit in another generator's theme, whose rules for
    /// `ul`, `li` and link classes (`.md-typeset ul li`, `.md-tag`) are more specific and would
    /// move or resize the chips away from the positions computed for them, or paint half of a
    /// chip in the theme's colours. The colours are set with `chips.colors`.
    public func stylesheet(fontFace: String = "") -> String {
        let s = style
        let sized =
            "box-sizing:border-box!important;min-width:0!important;max-width:none!important;float:none!important"
        var css = "/* Tagflow chips: positions are computed at build time; no script places a chip. */\n"
        css += fontFace
        css += ".tf-flow{container-type:inline-size!important;margin:.5rem 0}\n"
        css += ".tf-chips{list-style:none!important;margin:0!important;padding:0!important;display:flex!important;"
        css += "flex-wrap:wrap!important;align-items:\(cssAlign)!important;"
        css += "gap:\(px(s.rowGap)) \(px(s.columnGap))!important;justify-content:\(cssJustify)!important}\n"
        css += ".tf-chips>li{flex:none!important;\(sized);margin:0!important;padding:0!important;"
        css += "height:\(px(s.height(scale: 1)))!important;list-style:none!important;"
        css += "font:\(px(s.fontSize))/\(px(s.lineHeight)) \(s.fontFamily)!important;letter-spacing:0!important;"
        css += "word-spacing:0!important;font-kerning:normal!important;font-variant-ligatures:normal!important;"
        css += "text-transform:none!important}\n"
        css += ".tf-chips>li::before,.tf-chips>li::after{content:none!important}\n"
        for (index, scale) in s.weightScale.enumerated() where index > 0 {
            css += ".tf-chips>li.tf-w\(index){height:\(px(s.height(scale: scale)))!important;"
            css += "font-size:\(px(s.fontSize * scale))!important;"
            css += "line-height:\(px((s.lineHeight * scale).rounded()))!important}\n"
        }
        css += ".tf-chips>li>a,.tf-chips>li>span{display:block!important;\(sized);position:static!important;"
        css += "width:100%!important;height:100%!important;margin:0!important;"
        css += "padding:\(px(s.paddingY)) \(px(s.paddingX))!important;"
        css += "border:\(px(s.border)) solid \(s.colors.borderColor)!important;font:inherit!important;"
        css += "letter-spacing:inherit!important;text-transform:inherit!important;"
        css += "border-radius:\(px(s.radius))!important;background:\(s.colors.background)!important;"
        css += "color:\(s.colors.text)!important;box-shadow:none!important;text-align:center!important;"
        css += "white-space:nowrap!important;text-decoration:none!important;overflow:visible!important;"
        // Each label runs in its own direction, as it was measured (`C++` on a right-to-left page
        // stays `C++`, not `++C`).
        css += "unicode-bidi:plaintext!important}\n"
        css += ".tf-chips>li>a:hover{text-decoration:underline!important}\n"
        css +=
            ".tf-chips>li>a:focus-visible{outline:3px solid \(s.colors.text)!important;outline-offset:2px!important}\n"
        css += ".tf-chips>li>a[aria-current]{border-color:\(s.colors.text)!important;"
        css += "box-shadow:inset 0 0 0 1px \(s.colors.text)!important}\n"
        css += ".tf-chips .tf-n{opacity:\(s.countOpacity)!important}\n"
        css += ".tf-chips>li.tf-more{display:none!important}\n"
        css += "@media (prefers-color-scheme:dark){.tf-chips>li>a,.tf-chips>li>span{"
        css += "border-color:\(s.colors.darkBorderColor)!important;background:\(s.colors.darkBackground)!important;"
        css += "color:\(s.colors.darkText)!important}"
        css += ".tf-chips>li>a:focus-visible{outline-color:\(s.colors.darkText)!important}"
        css += ".tf-chips>li>a[aria-current]{border-color:\(s.colors.darkText)!important;"
        css += "box-shadow:inset 0 0 0 1px \(s.colors.darkText)!important}}\n"
        for (index, breakpoint) in s.breakpoints.enumerated() {
            let offset: String
            switch s.justification {
            case .center: offset = " + (100% - \(breakpoint)px) / 2"
            case .end: offset = " + (100% - \(breakpoint)px)"
            default: offset = ""
            }
            css +=
                "@container (min-width:\(breakpoint)px){.tf-chips{display:block!important;position:relative!important;"
            css +=
                "height:calc(var(--h\(index)) * 1px)!important}.tf-chips>li,.tf-chips>li.tf-more{position:absolute!important;"
            css +=
                "left:calc(var(--x\(index),0) * 1px\(offset))!important;top:calc(var(--y\(index),0) * 1px)!important;"
            css += "display:var(--d\(index),block)!important}"
            // Right to left, the same positions are measured from the right edge: the flex-wrap
            // fallback runs right to left by itself, and a wider block keeps the rows at the start.
            css += ".tf-chips:dir(rtl)>li,.tf-chips:dir(rtl)>li.tf-more{left:auto!important;"
            css += "right:calc(var(--x\(index),0) * 1px\(offset))!important}}\n"
        }
        return css
    }

    private var cssAlign: String {
        switch style.alignment {
        case .start: "flex-start"
        case .end: "flex-end"
        case .firstBaseline: "baseline"
        case .stretch: "stretch"
        case .center: "center"
        }
    }

    private var cssJustify: String {
        switch style.justification {
        case .center: "center"
        case .end: "flex-end"
        case .spaceBetween: "space-between"
        case .spaceAround: "space-around"
        case .spaceEvenly: "space-evenly"
        case .start: "flex-start"
        }
    }

    /// A length in px, as short as it can be written exactly (1/64 px steps have at most 6 decimals).
    func number(_ unit: LayoutUnit) -> String {
        var out = HTMLBytes(capacity: 32)
        out.append(unit)
        return out.text
    }

    private func px(_ value: Double) -> String { number(LayoutUnit(cssPixels: value)) + "px" }

    func escape(_ text: String) -> String { HTMLEscaping.escaped(text) }
}

/// A chip block's HTML as it is written: UTF-8 bytes in a buffer of its own.
///
/// A block is a few hundred short pieces (tags, digits, property names): appending each to an
/// `[UInt8]` (uniqueness and capacity checks, then a copy) cost more than the copy itself.
struct HTMLBytes: ~Copyable {
    private var start: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    /// The text written.
    ///
    /// Copied without checking that it is UTF-8: it is by construction, since every append is a
    /// static string, a number, or a string's UTF-8 whole or cut at ASCII bytes (escaping), never
    /// inside a character. Checking was a sizeable part of drawing a block.
    var text: String {
        let written = UnsafeBufferPointer(start: start, count: count)
        if #available(macOS 26, *) {
            return String(copying: UTF8Span(unchecked: written.span))
        }
        return String(decoding: written, as: UTF8.self)
    }

    static func += (out: inout HTMLBytes, literal: StaticString) {
        literal.withUTF8Buffer { out.append($0) }
    }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    mutating func appendEscaped(_ text: String) { HTMLEscaping.forEachEscapedPiece(of: text) { append($0) } }

    /// Appends bytes, in a buffer twice as large when they do not fit.
    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        let needed = count + bytes.count
        if needed > capacity {
            let grown = max(needed, capacity * 2)
            let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            larger.initialize(from: start, count: count)
            start.deallocate()
            start = larger
            capacity = grown
        }
        (start + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    /// A whole number in decimal.
    mutating func append(_ number: Int) {
        appendDecimal(number.magnitude, negative: number < 0, sixtyFourths: 0)
    }

    /// A length in px, as short as it can be written exactly (1/64 px steps have at most 6 decimals).
    mutating func append(_ unit: LayoutUnit) {
        let raw = unit.rawValue
        appendDecimal(raw.magnitude / 64, negative: raw < 0, sixtyFourths: raw.magnitude % 64)
    }

    /// `whole` and `sixtyFourths`/64 in decimal, with no trailing zeros.
    ///
    /// Written into a small buffer and appended at once: chip blocks are mostly numbers, and
    /// appending each digit by itself and reversing them showed in a build's instruction count.
    /// The decimals are copied from ``sixtyFourthsDecimals``: worked out digit by digit they were
    /// a large part of what a number cost.
    private mutating func appendDecimal(_ whole: UInt, negative: Bool, sixtyFourths: UInt) {
        // 20 digits of a UInt, a sign, a point and 6 decimals.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 28) { buffer in
            var start = 21
            var end = 21
            if sixtyFourths != 0 {
                Self.sixtyFourthsDecimals.withUTF8Buffer { table in
                    let entry = Int(sixtyFourths & 63) * 8
                    let length = Int(table[entry] &- UInt8(ascii: "0"))
                    for offset in 0..<length { buffer[end + offset] = table[entry + 1 + offset] }
                    end += length
                }
            }
            var rest = whole
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            if negative {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            append(UnsafeBufferPointer(rebasing: buffer[start..<end]))
        }
    }

    /// The decimals of *n*/64 for *n* from 0 to 63, in 8 bytes each: their length as a digit,
    /// then `.` and the digits without trailing zeros, padded with spaces (4/64: `5.0625  `).
    static let sixtyFourthsDecimals: StaticString = """
        0       7.0156256.03125 7.0468755.0625  7.0781256.09375 7.109375\
        4.125   7.1406256.15625 7.1718755.1875  7.2031256.21875 7.234375\
        3.25    7.2656256.28125 7.2968755.3125  7.3281256.34375 7.359375\
        4.375   7.3906256.40625 7.4218755.4375  7.4531256.46875 7.484375\
        2.5     7.5156256.53125 7.5468755.5625  7.5781256.59375 7.609375\
        4.625   7.6406256.65625 7.6718755.6875  7.7031256.71875 7.734375\
        3.75    7.7656256.78125 7.7968755.8125  7.8281256.84375 7.859375\
        4.875   7.8906256.90625 7.9218755.9375  7.9531256.96875 7.984375
        """

    /// A chip's position at a breakpoint, where it is not the block's corner.
    mutating func appendOffsets(_ frame: LayoutRect, breakpoint: Int) {
        if frame.minX != .zero {
            self += ";--x"
            append(breakpoint)
            self += ":"
            append(frame.minX)
        }
        if frame.minY != .zero {
            self += ";--y"
            append(breakpoint)
            self += ":"
            append(frame.minY)
        }
    }

    /// A chip's label, and its count.
    mutating func appendText(of chip: Chip) {
        appendEscaped(chip.label)
        if let count = chip.count {
            self += #" <span class="tf-n">"#
            append(count)
            self += "</span>"
        }
    }
}
