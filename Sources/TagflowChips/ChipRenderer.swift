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
        style.boxSize(textWidth: fonts.measure(Self.moreLabel(hidden), size: style.fontSize).width, scale: 1)
    }

    static func moreLabel(_ hidden: Int) -> String { "+\(hidden) more" }

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
        var out = "<div class=\"tf-flow\"><ul class=\"tf-chips\" aria-label=\"\(escape(label))\" style=\""
        out.reserveCapacity(256 + chips.count * (96 + 24 * block.frames.count))
        out += block.heights.enumerated().map { "--h\($0.offset):\(number($0.element))" }.joined(separator: ";")
        out += "\">"
        for (index, chip) in chips.enumerated() {
            out += "<li"
            if chip.weight > 0 { out += " class=\"tf-w\(min(chip.weight, style.weightScale.count - 1))\"" }
            out += " style=\"width:\(number(block.sizes[index].width))px"
            for breakpoint in block.frames.indices {
                guard let frame = block.frames[breakpoint][index] else {
                    out += ";--d\(breakpoint):none"
                    continue
                }
                if frame.minX != .zero { out += ";--x\(breakpoint):\(number(frame.minX))" }
                if frame.minY != .zero { out += ";--y\(breakpoint):\(number(frame.minY))" }
            }
            out += "\">"
            let text = escape(chip.label) + (chip.count.map { " <span class=\"tf-n\">\($0)</span>" } ?? "")
            if let url = chip.url {
                out += "<a href=\"\(escape(url))\"\(chip.isCurrent ? " aria-current=\"page\"" : "")>\(text)</a>"
            } else {
                out += "<span>\(text)</span>"
            }
            out += "</li>"
        }
        // One "+N more" chip per breakpoint that hides chips, shown only at its own breakpoint.
        for (breakpoint, more) in block.more.enumerated() {
            guard let more else { continue }
            out += "<li class=\"tf-more\" style=\"width:\(number(more.size.width))px"
            for other in block.more.indices where other != breakpoint { out += ";--d\(other):none" }
            if more.frame.minX != .zero { out += ";--x\(breakpoint):\(number(more.frame.minX))" }
            if more.frame.minY != .zero { out += ";--y\(breakpoint):\(number(more.frame.minY))" }
            let text = Self.moreLabel(more.hidden)
            out += "\">" + (moreURL.map { "<a href=\"\(escape($0))\">\(text)</a>" } ?? "<span>\(text)</span>") + "</li>"
        }
        out += "</ul></div>"
        return out
    }

    /// The stylesheet every page with chip blocks links once.
    public func stylesheet(fontFace: String = "") -> String {
        let s = style
        var css = "/* Tagflow chips: positions are computed at build time; no script places a chip. */\n"
        css += fontFace
        css += ".tf-flow{container-type:inline-size;margin:.5rem 0}\n"
        css += ".tf-chips{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;align-items:\(cssAlign);"
        css += "gap:\(px(s.rowGap)) \(px(s.columnGap));justify-content:\(cssJustify)}\n"
        css += ".tf-chips>li{flex:none;box-sizing:border-box;margin:0;padding:0;height:\(px(s.height(scale: 1)));"
        css += "font:\(px(s.fontSize))/\(px(s.lineHeight)) \(s.fontFamily);letter-spacing:0;word-spacing:0;"
        css += "font-kerning:normal;font-variant-ligatures:normal;text-transform:none}\n"
        for (index, scale) in s.weightScale.enumerated() where index > 0 {
            css += ".tf-chips>li.tf-w\(index){height:\(px(s.height(scale: scale)));"
            css += "font-size:\(px(s.fontSize * scale));line-height:\(px((s.lineHeight * scale).rounded()))}\n"
        }
        css += ".tf-chips>li>a,.tf-chips>li>span{display:block;box-sizing:border-box;width:100%;height:100%;"
        css += "padding:\(px(s.paddingY)) \(px(s.paddingX));border:\(px(s.border)) solid \(s.colors.borderColor);"
        css += "border-radius:\(px(s.radius));background:\(s.colors.background);color:\(s.colors.text);"
        css += "text-align:center;white-space:nowrap;text-decoration:none;overflow:visible}\n"
        css += ".tf-chips>li>a:hover{text-decoration:underline}\n"
        css += ".tf-chips>li>a:focus-visible{outline:3px solid \(s.colors.text);outline-offset:2px}\n"
        css +=
            ".tf-chips>li>a[aria-current]{font-weight:inherit;border-color:\(s.colors.text);box-shadow:inset 0 0 0 1px \(s.colors.text)}\n"
        css += ".tf-chips .tf-n{opacity:\(s.countOpacity)}\n"
        css += ".tf-chips>li.tf-more{display:none}\n"
        css +=
            "@media (prefers-color-scheme:dark){.tf-chips>li>a,.tf-chips>li>span{border-color:\(s.colors.darkBorderColor);"
        css += "background:\(s.colors.darkBackground);color:\(s.colors.darkText)}"
        css += ".tf-chips>li>a:focus-visible{outline-color:\(s.colors.darkText)}"
        css +=
            ".tf-chips>li>a[aria-current]{border-color:\(s.colors.darkText);box-shadow:inset 0 0 0 1px \(s.colors.darkText)}}\n"
        for (index, breakpoint) in s.breakpoints.enumerated() {
            let offset: String
            switch s.justification {
            case .center: offset = " + (100% - \(breakpoint)px) / 2"
            case .end: offset = " + (100% - \(breakpoint)px)"
            default: offset = ""
            }
            css += "@container (min-width:\(breakpoint)px){.tf-chips{display:block;position:relative;"
            css += "height:calc(var(--h\(index)) * 1px)}.tf-chips>li,.tf-chips>li.tf-more{position:absolute;"
            css += "left:calc(var(--x\(index),0) * 1px\(offset));top:calc(var(--y\(index),0) * 1px);"
            css += "display:var(--d\(index),block)}}\n"
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
        // Written digit by digit into the string's own buffer: through `String(_:)` and
        // interpolation this was 2% of a 10 000-post build (a dozen numbers per chip).
        let raw = unit.rawValue
        let whole = raw.magnitude / 64
        var fraction = raw.magnitude % 64 * 15_625  // fraction / 64 = fraction × 0.015625
        return String(unsafeUninitializedCapacity: 32) { buffer in
            var count = 0
            if raw < 0 {
                buffer[0] = UInt8(ascii: "-")
                count = 1
            }
            let start = count
            var rest = whole
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            buffer[start..<count].reverse()
            guard fraction != 0 else { return count }
            buffer[count] = UInt8(ascii: ".")
            count += 1
            // Six decimals at most; stop at the last one that is not zero.
            var place: UInt = 100_000
            while fraction != 0 {
                buffer[count] = UInt8(ascii: "0") + UInt8(fraction / place)
                fraction %= place
                place /= 10
                count += 1
            }
            return count
        }
    }

    private func px(_ value: Double) -> String { number(LayoutUnit(cssPixels: value)) + "px" }

    func escape(_ text: String) -> String { HTMLEscaping.escaped(text) }
}
