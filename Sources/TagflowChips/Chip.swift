/// One chip: a label, where it links (if anywhere) and an optional count shown after it.
public struct Chip: Sendable, Hashable {
    /// The text.
    public var label: String
    /// The link target, or `nil` for a chip that is not a link.
    public var url: String?
    /// A number shown after the label (a tag's post count), or `nil`.
    public var count: Int?
    /// The weight step in ``ChipStyle/weightScale`` (0 = normal size).
    public var weight: Int
    /// Marks the chip of the page being shown (`aria-current="page"`).
    public var isCurrent: Bool
    /// More attributes for the chip's link (`rel`, `title`, `class`…), written after `href` in
    /// this order; a chip made from another generator's markup keeps its link's attributes.
    public var linkAttributes: [Attribute]

    /// An attribute of a chip's link.
    public struct Attribute: Sendable, Hashable {
        /// The attribute's name: ASCII letters, digits, `-`, `_` and `:` (others are not written).
        public var name: String
        /// The value, escaped when written.
        public var value: String

        /// Creates an attribute.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }

        /// Whether the name can be written as it is.
        var hasSafeName: Bool {
            !name.isEmpty
                && name.utf8.allSatisfy { byte in
                    (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                        || byte == 0x2D || byte == 0x5F || byte == 0x3A
                } && name.lowercased() != "href" && !name.lowercased().hasPrefix("on") && name.lowercased() != "style"
        }
    }

    /// Creates a chip.
    public init(
        label: String, url: String? = nil, count: Int? = nil, weight: Int = 0, isCurrent: Bool = false,
        linkAttributes: [Attribute] = []
    ) {
        self.label = label
        self.url = url
        self.count = count
        self.weight = weight
        self.isCurrent = isCurrent
        self.linkAttributes = linkAttributes
    }

    /// Weights on a log scale: the most used of `counts` gets `steps - 1`, a count of 1 gets 0.
    ///
    /// ```swift
    /// Chip.weights(for: [1, 2, 10, 100], steps: 4)  // [0, 0, 1, 3]
    /// ```
    public static func weights(for counts: [Int], steps: Int) -> [Int] {
        guard steps > 1, let most = counts.max(), most > 1 else { return counts.map { _ in 0 } }
        let top = log2(Double(most))
        return counts.map { count in
            let position = log2(Double(max(count, 1))) / top
            return min(steps - 1, Int((position * Double(steps - 1)).rounded(.down)))
        }
    }
}

/// log2 without Foundation (the library imports only the standard library and its siblings).
private func log2(_ value: Double) -> Double {
    guard value > 0 else { return 0 }
    var exponent = 0.0
    var mantissa = value
    while mantissa >= 2 {
        mantissa /= 2
        exponent += 1
    }
    while mantissa < 1 {
        mantissa *= 2
        exponent -= 1
    }
    // ln(m)/ln(2) for m in [1, 2) by a short series on (m-1)/(m+1).
    let t = (mantissa - 1) / (mantissa + 1)
    let t2 = t * t
    var term = t
    var sum = 0.0
    var n = 1.0
    for _ in 0..<12 {
        sum += term / n
        term *= t2
        n += 2
    }
    return exponent + 2 * sum / 0.693_147_180_559_945_3
}
