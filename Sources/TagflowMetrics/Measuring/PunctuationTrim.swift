/// CSS `text-spacing-trim` as Chromium applies its initial value to a one-line label.
///
/// Of two adjacent full-width punctuation marks, the one whose blank half faces the other is set
/// half width with the font's `halt` feature. Nothing is trimmed at the start of the label (the
/// first line of a paragraph keeps its opening brackets) or at its end (a label is never too long
/// for its line).
enum PunctuationTrim {
    /// A character's class for trimming (CSS Text 4, "text spacing character classes").
    enum Kind: UInt8 {
        case other
        /// Full-width opening brackets: blank on their left.
        case open
        /// Full-width closing brackets, the ideographic comma and full stop, and full-width comma
        /// and full stop: blank on their right.
        case close
        /// Katakana middle dot, full-width colon and semicolon: blank on both sides.
        case middle
        /// U+3000 IDEOGRAPHIC SPACE.
        case ideographicSpace
        /// Proportional opening brackets (`(`, `[`, `⟨`) and quotes (`“`, `‘`): a full-width opening
        /// bracket after one is trimmed.
        case openNarrow
        /// Proportional closing brackets and quotes: a full-width closing mark before one is trimmed.
        case closeNarrow
    }

    /// The class of a code point.
    @inline(__always)
    static func kind(of value: UInt32) -> Kind {
        guard value >= 0x3000 else { return narrowKind(of: value) }
        switch value {
        case 0x3000: return .ideographicSpace
        case 0x3008, 0x300A, 0x300C, 0x300E, 0x3010, 0x3014, 0x3016, 0x3018, 0x301A, 0x301D, 0xFF08, 0xFF3B, 0xFF5B,
            0xFF5F:
            return .open
        case 0x3001, 0x3002, 0x3009, 0x300B, 0x300D, 0x300F, 0x3011, 0x3015, 0x3017, 0x3019, 0x301B, 0x301E, 0x301F,
            0xFF09, 0xFF0C, 0xFF0E, 0xFF3D, 0xFF5D, 0xFF60:
            return .close
        case 0x30FB, 0xFF1A, 0xFF1B: return .middle
        default: return narrowKind(of: value)
        }
    }

    /// The class of a proportional bracket or quote (`«` and `»` are not counted), or of the middle
    /// dots `·` and `‧`.
    private static func narrowKind(of value: UInt32) -> Kind {
        switch value {
        case 0xB7, 0x2027: return .middle
        case 0x28, 0x5B, 0x7B, 0x2018, 0x201C: return .openNarrow
        case 0x29, 0x5D, 0x7D, 0x2019, 0x201D: return .closeNarrow
        case 0x2000..<0x3000, 0xFE00..<0xFF70:
            guard let scalar = Unicode.Scalar(value) else { return .other }
            switch scalar.properties.generalCategory {
            case .openPunctuation: return .openNarrow
            case .closePunctuation: return .closeNarrow
            default: return .other
            }
        default:
            return .other
        }
    }

    /// Whether each character of a label is set half width: a full-width closing mark before a
    /// closing bracket or quote, a middle mark or an ideographic space, and a full-width opening
    /// mark after an opening bracket or quote, a closing or middle mark or an ideographic space.
    static func trimmed(_ kinds: [Kind]) -> [Bool] {
        var trimmed = [Bool](repeating: false, count: kinds.count)
        for index in kinds.indices {
            switch kinds[index] {
            case .close:
                if index + 1 < kinds.count {
                    switch kinds[index + 1] {
                    case .close, .middle, .closeNarrow, .ideographicSpace: trimmed[index] = true
                    default: break
                    }
                }
            case .open:
                if index > 0, kinds[index - 1] != .other && kinds[index - 1] != .closeNarrow { trimmed[index] = true }
            default:
                break
            }
        }
        return trimmed
    }
}
