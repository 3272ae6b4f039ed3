/// The per-size scale factors of one font, computed as FreeType, Skia and HarfBuzz do in Chromium.
struct FontScale {
    /// FreeType's 16.16 `x_scale`: `round(size·64·65536 / unitsPerEm)`.
    let freeTypeScale: Int64
    /// HarfBuzz's `x_mult`: `(size·65536 << 16) / unitsPerEm`, for GPOS and `kern` values.
    let harfBuzzMultiplier: Int64
    /// The bitmap advance factor `size / ppem` (bitmap fonts only).
    let bitmapScale: Float
    let bitmapPPEM: Int
    let unitsPerEm: Int64

    init(_ font: TableStorage, size: Double) {
        let upem = Int64(font.unitsPerEm)
        unitsPerEm = upem
        let size26 = Int64((size * 64).rounded(.towardZero))
        freeTypeScale = ((size26 << 16) + upem / 2) / upem
        let hbScale = Int64((size * 65536).rounded(.towardZero))
        harfBuzzMultiplier = (hbScale << 16) / upem
        bitmapPPEM = font.bitmapPPEM
        bitmapScale = font.bitmapPPEM > 0 ? Float(size) / Float(font.bitmapPPEM) : 0
    }

    /// A glyph advance in HarfBuzz units (1/65536 px): FreeType's `FT_MulDiv(units, x_scale, 64)`.
    @inline(__always)
    func advance(_ units: Int) -> Int64 {
        if bitmapPPEM > 0 {
            let pixels = (Int64(units) * Int64(bitmapPPEM) + unitsPerEm / 2) / unitsPerEm
            return Int64(Float(pixels) * bitmapScale * 65536)
        }
        return (Int64(units) * freeTypeScale + 32) >> 6
    }

    /// A GPOS or `kern` adjustment in HarfBuzz units: `em_mult`.
    @inline(__always)
    func adjustment(_ units: Int32) -> Int64 {
        (Int64(units) * harfBuzzMultiplier + 32768) >> 16
    }
}

/// One run of clusters shaped together: same font, same script.
struct Segment {
    var font: Int
    var script: Script
    /// Whether `script` is provisional: the run has only common characters so far.
    var weak: Bool
    /// Whether the run started at a U+00B7 MIDDLE DOT (only Latin, Greek or Han may join it).
    var middleDot: Bool = false
    /// The bidirectional embedding level (0 left-to-right).
    var level: UInt8 = 0
    var emoji: Bool
    var start: Int
    var end: Int
}

/// Measures strings with a ``FontStack`` at one size and letter-spacing.
struct Measurer {
    let fonts: [TableStorage]
    let scales: [FontScale]
    let letterSpacing: Float
    let features: UInt8
    let size: Double

    init(stack: FontStack, size: Double, letterSpacing: Double) {
        // Sizes and spacings a browser would not draw are clamped, so arithmetic cannot overflow.
        let size = size.isFinite ? min(max(size, 0), 100_000) : 0
        let letterSpacing = letterSpacing.isFinite ? min(max(letterSpacing, -100_000), 100_000) : 0
        fonts = stack.tables.map(\.storage)
        scales = fonts.map { FontScale($0, size: size) }
        self.letterSpacing = Float(letterSpacing)
        self.size = size
        features =
            letterSpacing == 0
            ? FeatureBit.alwaysOn | FeatureBit.ligatures | FeatureBit.contextual
            : FeatureBit.alwaysOn
    }

    /// Whether a grapheme cluster is an emoji sequence (variation selector 16, skin tone, ZWJ,
    /// flag, keycap or tag sequence), which Chromium draws with a color emoji font when one is listed.
    static func isEmojiSequence(_ scalars: Character.UnicodeScalarView, first: Unicode.Scalar) -> Bool {
        for scalar in scalars.dropFirst() {
            switch scalar.value {
            case 0xFE0F, 0x20E3, 0x1F3FB...0x1F3FF, 0xE0020...0xE007F: return true
            case 0x200D: if first.properties.isEmoji && first.value > 0xFF { return true }
            case 0xFE0E: return false
            default: break
            }
        }
        return (0x1F1E6...0x1F1FF).contains(first.value)
    }

    /// Whether a color emoji font forms its sequences with substitutions (Noto Color Emoji), rather
    /// than drawing each cluster as one glyph (the built-in emoji fallback).
    static func ligatesEmoji(_ font: TableStorage) -> Bool {
        guard font.bitmapPPEM > 0, let index = font.scriptIndex(for: Script.common.tag) else { return false }
        return !font.scripts[index].substitutions.isEmpty
    }

    /// Characters of an emoji sequence that draw nothing unless a ligature takes them in: ZWJ
    /// and the tag characters of subdivision flags.
    @inline(__always)
    static func isInvisibleInEmoji(_ value: UInt32) -> Bool {
        value == 0x200D || (0xE0020...0xE007F).contains(value)
    }

    /// Measures printable ASCII text without shaping when no substitution can apply to it and its
    /// pair adjustments are precomputed: advances plus the pair matrix, no allocation.
    static func measureSimpleASCII(
        _ text: String, font: TableStorage, size: Double, letterSpacing: Double
    ) -> TextMeasurement? {
        var text = text
        return text.withUTF8 { bytes -> TextMeasurement? in
            guard !bytes.isEmpty else { return nil }
            var hasLetter = false
            return font.asciiAdvances.withUnsafeBufferPointer { advances -> TextMeasurement? in
                for byte in bytes {
                    guard byte >= 0x20 && byte <= 0x7E, advances[Int(byte) - 0x20] != 0xFFFF else { return nil }
                    hasLetter = hasLetter || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
                }
                let scriptIndex = hasLetter ? font.latinIndex : font.commonIndex
                let size = size.isFinite ? min(max(size, 0), 100_000) : 0
                let letterSpacing = letterSpacing.isFinite ? min(max(letterSpacing, -100_000), 100_000) : 0
                let scale = FontScale(font, size: size)
                var total: Float = 0
                if scriptIndex >= 0 {
                    let mask: UInt8 = letterSpacing == 0 ? 1 : 2
                    let ok = font.asciiTriggers[scriptIndex].withUnsafeBufferPointer { triggers -> Bool in
                        for byte in bytes where triggers[Int(byte) - 0x20] & mask != 0 { return false }
                        return true
                    }
                    guard ok else { return nil }
                    let script = font.scripts[scriptIndex]
                    let matrix = font.pairMatrices[scriptIndex]
                    let positions = !script.positionings.isEmpty || (script.usesKernTable && font.kernTable != nil)
                    if positions && matrix.isEmpty { return nil }
                    matrix.withUnsafeBufferPointer { matrix in
                        var previous = -1
                        for byte in bytes {
                            let slot = Int(byte) - 0x20
                            if previous >= 0 {
                                let advance = scale.advance(Int(advances[previous]))
                                let adjustment = matrix.isEmpty ? 0 : scale.adjustment(matrix[previous * 95 + slot])
                                total += Float(advance + adjustment) / 65536
                            }
                            previous = slot
                        }
                        total += Float(scale.advance(Int(advances[previous]))) / 65536
                    }
                } else {
                    for byte in bytes { total += Float(scale.advance(Int(advances[Int(byte) - 0x20]))) / 65536 }
                }
                if letterSpacing != 0 { total += Float(letterSpacing) * Float(bytes.count) }
                let width = total.isFinite ? Int((min(max(total, 0), 1e12) * 64).rounded(.up)) : 0
                let metrics = VerticalMetrics(font, size: size)
                return TextMeasurement(width: width, height: metrics.ascent + metrics.descent)
            }
        }
    }

    /// Measures printable ASCII text that the primary font covers without building clusters
    /// (every byte is a grapheme cluster); `nil` when the text needs the general path.
    static func measureASCII(
        _ text: String, font: TableStorage, size: Double, letterSpacing: Double
    ) -> TextMeasurement? {
        var glyphs: [UInt16] = []
        var hasLetter = false
        var text = text
        let ok = text.withUTF8 { bytes -> Bool in
            glyphs.reserveCapacity(bytes.count)
            for byte in bytes {
                guard byte >= 0x20 && byte <= 0x7E else { return false }
                let glyph = font.direct[Int(byte)]
                guard glyph != 0 else { return false }
                hasLetter = hasLetter || (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
                glyphs.append(glyph)
            }
            return true
        }
        guard ok, !glyphs.isEmpty else { return nil }
        let size = size.isFinite ? min(max(size, 0), 100_000) : 0
        let letterSpacing = letterSpacing.isFinite ? min(max(letterSpacing, -100_000), 100_000) : 0
        let scale = FontScale(font, size: size)
        let features =
            letterSpacing == 0
            ? FeatureBit.alwaysOn | FeatureBit.ligatures | FeatureBit.contextual : FeatureBit.alwaysOn
        var total: Float
        let tag = hasLetter ? Script.latin.tag : Script.common.tag
        let count = glyphs.count
        if let scriptIndex = font.scriptIndex(for: tag) {
            var shaper = Shaper(font: font, scriptIndex: scriptIndex)
            shaper.glyphs = glyphs
            total = shaper.width(features: features, scale: scale)
        } else {
            total = 0
            for glyph in glyphs { total += Float(scale.advance(font.advance(glyph))) / 65536 }
        }
        if letterSpacing != 0 { total += Float(letterSpacing) * Float(count) }
        let width = total.isFinite ? Int((min(max(total, 0), 1e12) * 64).rounded(.up)) : 0
        let metrics = VerticalMetrics(font, size: size)
        return TextMeasurement(width: width, height: metrics.ascent + metrics.descent)
    }

    /// The width of one shaped segment in px (before letter-spacing).
    func segmentWidth(
        _ segment: Segment, glyphs: [UInt16], marks: [UInt8], forms: [UInt8], halfWidthGlyphs: [Int]
    ) -> Float {
        let font = fonts[segment.font]
        let scale = scales[segment.font]
        var total: Float = 0
        if segment.emoji {
            if Measurer.ligatesEmoji(font), let scriptIndex = font.scriptIndex(for: Script.common.tag) {
                var invisible = Set<UInt16>()
                for index in segment.start..<segment.end where marks[index] != 0 { invisible.insert(glyphs[index]) }
                var shaper = Shaper(font: font, scriptIndex: scriptIndex)
                shaper.glyphs = Array(glyphs[segment.start..<segment.end])
                shaper.substitute(features: features)
                for glyph in shaper.glyphs where !invisible.contains(glyph) {
                    total += Float(scale.advance(font.advance(glyph))) / 65536
                }
                return total
            }
            for index in segment.start..<segment.end {
                total += Float(scale.advance(font.advance(glyphs[index]))) / 65536
            }
            return total
        }
        guard let scriptIndex = font.scriptIndex(for: segment.script.tag) ?? font.scriptIndex(for: Script.common.tag)
        else {
            for index in segment.start..<segment.end {
                let isMark = font.glyphClasses.starts.isEmpty ? marks[index] != 0 : font.isMark(glyphs[index])
                if !isMark { total += Float(scale.advance(font.advance(glyphs[index]))) / 65536 }
            }
            return total
        }
        var shaper = Shaper(font: font, scriptIndex: scriptIndex)
        shaper.glyphs = Array(glyphs[segment.start..<segment.end])
        if font.glyphClasses.starts.isEmpty { shaper.unicodeMarks = Array(marks[segment.start..<segment.end]) }
        if segment.script == .arabic && segment.start < forms.count {
            shaper.forms = Array(forms[segment.start..<min(segment.end, forms.count)])
        }
        for glyph in halfWidthGlyphs where glyph >= segment.start && glyph < segment.end {
            shaper.halfWidthGlyphs.append(glyph - segment.start)
        }
        return shaper.width(features: features, scale: scale)
    }

    /// A run's width in 1/64 px: its advances plus letter-spacing after each cluster, rounded up.
    func rounded(_ total: Float, clusters: Int) -> Int {
        var total = total
        if letterSpacing != 0 { total += letterSpacing * Float(clusters) }
        return total.isFinite ? Int((min(max(total, 0), 1e12) * 64).rounded(.up)) : 0
    }

    /// The clusters whose first glyph is in `from..<to`.
    func clusterCount(_ starts: [Int], from: Int, to: Int) -> Int {
        var count = 0
        for start in starts where start >= from && start < to { count += 1 }
        return count
    }

    /// Whether a code point is in a block that holds combining marks (a cheap filter before the
    /// general category lookup).
    @inline(__always)
    static func mayBeMark(_ value: UInt32) -> Bool {
        switch value {
        case 0x0300...0x036F, 0x0483...0x0489, 0x0591...0x05C7, 0x0610...0x061A, 0x064B...0x065F, 0x0670,
            0x06D6...0x06ED, 0x0700...0x0DFF, 0x0E31...0x0FFF, 0x1000...0x109F, 0x1700...0x18AF,
            0x1A00...0x1B7F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0x2CEF...0x2CF1, 0x2DE0...0x2DFF,
            0x302A...0x302F, 0x3099...0x309A, 0xA66F...0xA6F1, 0xA800...0xABFF, 0xFB1E, 0xFE00...0xFE2F,
            0x10000...0xDFFFF, 0xE0100...0xE01EF:
            return true
        default:
            return false
        }
    }

    // MARK: Bidirectional runs

    static let leftToRight: UInt8 = 1
    static let europeanNumber: UInt8 = 2
    static let rightToLeft: UInt8 = 3
    static let arabicNumber: UInt8 = 4
    /// Arabic-script letters (`AL`): right to left, and numbers after them are Arabic numbers.
    static let arabicLetter: UInt8 = 5
    /// `+` and `-` (`ES`): part of a number between two European digits.
    static let numberSeparator: UInt8 = 6
    /// `,` `.` `/` `:` (`CS`): part of a number between two digits of one kind.
    static let commonSeparator: UInt8 = 7
    /// `#` `$` `%` `°` currency signs (`ET`): part of a European number they touch.
    static let numberTerminator: UInt8 = 8

    /// Whether a direction makes a label need bidirectional runs.
    @inline(__always)
    static func isRightToLeft(_ direction: UInt8) -> Bool {
        direction == rightToLeft || direction == arabicLetter || direction == arabicNumber
    }

    /// A simplified bidirectional class of a cluster's first character: 0 neutral, or one of
    /// `leftToRight`, `europeanNumber`, `rightToLeft`, `arabicNumber`, `arabicLetter`, and the
    /// separators and terminators that join numbers.
    static func direction(of scalar: Unicode.Scalar, script: Script) -> UInt8 {
        let value = scalar.value
        if value < 0x80 {
            switch value {
            case 0x30...0x39: return europeanNumber
            case 0x2B, 0x2D: return numberSeparator
            case 0x2C, 0x2E, 0x2F, 0x3A: return commonSeparator
            case 0x23, 0x24, 0x25: return numberTerminator
            default: return script == .common ? 0 : leftToRight
            }
        }
        switch value {
        case 0x0660...0x0669, 0x066B...0x066C, 0x0600...0x0605, 0x10E60...0x10E7E: return arabicNumber
        case 0x06F0...0x06F9: return europeanNumber
        case 0x00A0, 0x060C, 0x202F, 0x2044, 0xFE50, 0xFE52, 0xFE55, 0xFF0C, 0xFF0E, 0xFF0F, 0xFF1A:
            return commonSeparator
        case 0x207A, 0x207B, 0x208A, 0x208B, 0x2212, 0xFB29, 0xFE62, 0xFE63, 0xFF0B, 0xFF0D:
            return numberSeparator
        case 0x00A2...0x00A5, 0x00B0, 0x00B1, 0x0609, 0x060A, 0x066A, 0x2030...0x2034, 0x20A0...0x20CF, 0x212E,
            0x2213, 0xFE5F, 0xFE69, 0xFE6A, 0xFF03...0xFF05, 0xFFE0, 0xFFE1, 0xFFE5, 0xFFE6:
            return numberTerminator
        case 0x0590...0x05FF, 0x07C0...0x085F, 0xFB1D...0xFB4F, 0x10800...0x10FFF, 0x1E800...0x1EFFF:
            if scalar.properties.generalCategory == .nonspacingMark { return 0 }
            return rightToLeft
        case 0x0600...0x07BF, 0x0860...0x08FF, 0xFB50...0xFDFF, 0xFE70...0xFEFE:
            if scalar.properties.generalCategory == .nonspacingMark { return 0 }
            return arabicLetter
        case 0x1F1E6...0x1F1FF:
            // Regional indicators (flags) are left-to-right letters, unlike other emoji.
            return leftToRight
        default:
            if scalar.properties.numericType == .decimal { return europeanNumber }
            return script == .common ? 0 : leftToRight
        }
    }

    /// The weak types resolved as the Unicode Bidirectional Algorithm's rules W2 to W6 do: a
    /// European number after Arabic letters is an Arabic number; a separator between two digits
    /// of one kind, and terminators touching European digits, join the number; Arabic letters
    /// are right to left; other separators and terminators are neutral.
    static func resolvingNumbers(_ directions: [UInt8], rightToLeft paragraphRightToLeft: Bool) -> [UInt8] {
        var types = directions
        var lastStrong = paragraphRightToLeft ? rightToLeft : leftToRight
        for index in types.indices {
            switch types[index] {
            case leftToRight, rightToLeft: lastStrong = types[index]
            case arabicLetter:
                lastStrong = arabicLetter
                types[index] = rightToLeft
            case europeanNumber where lastStrong == arabicLetter: types[index] = arabicNumber
            default: break
            }
        }
        if types.count >= 3 {
            for index in 1..<(types.count - 1) {
                let before = types[index - 1]
                guard before == types[index + 1] else { continue }
                if (types[index] == numberSeparator && before == europeanNumber)
                    || (types[index] == commonSeparator && (before == europeanNumber || before == arabicNumber))
                {
                    types[index] = before
                }
            }
        }
        // Terminators next to a European number, in either direction, through other terminators.
        for index in types.indices where types[index] == europeanNumber {
            var back = index - 1
            while back >= 0 && types[back] == numberTerminator {
                types[back] = europeanNumber
                back -= 1
            }
            var ahead = index + 1
            while ahead < types.count && types[ahead] == numberTerminator {
                types[ahead] = europeanNumber
                ahead += 1
            }
        }
        for index in types.indices where types[index] >= numberSeparator { types[index] = 0 }
        return types
    }

    /// Whether a label's paragraph runs right to left: its first strong letter is right-to-left,
    /// as chips draw labels (`unicode-bidi: plaintext`).
    static func isRightToLeftParagraph(_ directions: [UInt8]) -> Bool {
        for direction in directions
        where direction == leftToRight || direction == rightToLeft || direction == arabicLetter {
            return direction != leftToRight
        }
        return false
    }

    /// Embedding levels of a paragraph (left to right at level 0, or right to left at level 1):
    /// right-to-left letters 1, numbers 2, left-to-right letters 0 or 2, and a neutral the
    /// direction of the text on both sides when they agree, else the paragraph's.
    static func levels(_ directions: [UInt8], rightToLeft paragraphRightToLeft: Bool = false) -> [UInt8] {
        let base: UInt8 = paragraphRightToLeft ? 1 : 0
        let leftLevel: UInt8 = paragraphRightToLeft ? 2 : 0
        let paragraph = paragraphRightToLeft ? rightToLeft : leftToRight
        let directions = resolvingNumbers(directions, rightToLeft: paragraphRightToLeft)
        var levels = [UInt8](repeating: base, count: directions.count)
        // The last strong letter, for numbers (W7: a European number after left-to-right text is
        // left-to-right), and the last direction a neutral sees (numbers count as right-to-left).
        var previousStrong = paragraph
        var previousForNeutral = paragraph
        for (index, direction) in directions.enumerated() {
            switch direction {
            case leftToRight:
                levels[index] = leftLevel
                previousStrong = leftToRight
                previousForNeutral = leftToRight
            case rightToLeft:
                levels[index] = 1
                previousStrong = rightToLeft
                previousForNeutral = rightToLeft
            case arabicNumber:
                levels[index] = 2
                previousForNeutral = rightToLeft
            case europeanNumber:
                let asLeft = previousStrong == leftToRight
                levels[index] = asLeft ? leftLevel : 2
                previousForNeutral = asLeft ? leftToRight : rightToLeft
            default:
                var nextForNeutral = paragraph
                for later in directions[(index + 1)...] where later != 0 {
                    switch later {
                    case leftToRight: nextForNeutral = leftToRight
                    case europeanNumber: nextForNeutral = previousStrong == leftToRight ? leftToRight : rightToLeft
                    default: nextForNeutral = rightToLeft
                    }
                    break
                }
                if previousForNeutral == nextForNeutral {
                    levels[index] = previousForNeutral == rightToLeft ? 1 : leftLevel
                }
            }
        }
        return levels
    }

    /// Splits segments where the bidirectional level changes, and sets each piece's level.
    static func splitAtLevels(_ segments: [Segment], levels: [UInt8], clusterStarts: [Int]) -> [Segment] {
        var out: [Segment] = []
        var cluster = 0
        for segment in segments {
            var piece = segment
            piece.level = 255
            while cluster < clusterStarts.count && clusterStarts[cluster] < segment.end {
                let level = levels[cluster]
                let start = clusterStarts[cluster]
                if piece.level == 255 {
                    piece.level = level
                    piece.start = start
                } else if level != piece.level {
                    piece.end = start
                    out.append(piece)
                    piece.start = start
                    piece.level = level
                }
                cluster += 1
            }
            piece.end = segment.end
            if piece.level == 255 { piece.level = out.last?.level ?? 0 }
            out.append(piece)
        }
        return out
    }

    /// Measures one line of text.
    mutating func measure(_ text: String) -> TextMeasurement {
        var glyphs: [UInt16] = []
        var marks: [UInt8] = []
        var segments: [Segment] = []
        var directions: [UInt8] = []
        var clusterStarts: [Int] = []
        var hasRightToLeft = false
        var clusters = 0
        var lastStrong: Script? = nil
        var firstStrong: Script? = nil
        var used: UInt64 = 1
        var list: [UInt32] = []
        // Joining forms are worked out from the first Arabic letter on; what comes before it
        // cannot change an Arabic letter's form.
        var joining: ArabicJoining.Forms? = nil
        // Punctuation classes per cluster, kept only once a full-width mark is seen.
        var punctuation: [PunctuationTrim.Kind] = []
        glyphs.reserveCapacity(text.utf8.count)
        marks.reserveCapacity(text.utf8.count)
        for character in text {
            clusters += 1
            let scalars = character.unicodeScalars
            guard let first = scalars.first else { continue }
            var script = Script.of(first)
            if script == .common {
                for scalar in scalars.dropFirst() {
                    let other = Script.of(scalar)
                    if other != .common {
                        script = other
                        break
                    }
                }
            }
            // U+00B7 MIDDLE DOT has script extensions Latin, Greek, Han (not Cyrillic, kana, Hangul):
            // after those it starts a new run, as Chromium's script run iterator does.
            var breaksRun = false
            if first.value == 0xB7, let strong = lastStrong, strong != .latin && strong != .greek && strong != .han {
                breaksRun = true
            }
            var effective = script
            if script == .common {
                effective = breaksRun ? .latin : (lastStrong ?? .common)
            } else {
                lastStrong = script
                if firstStrong == nil { firstStrong = script }
            }
            // Choose the font: the first that has every character of the cluster.
            var fontIndex = -1
            var emoji = false
            if first.value >= 0xA9 && scalars.count > 1 && Measurer.isEmojiSequence(scalars, first: first) {
                for (index, font) in fonts.enumerated() where font.bitmapPPEM > 0 && font.glyph(for: first.value) != 0 {
                    fontIndex = index
                    emoji = true
                    break
                }
            }
            list.removeAll(keepingCapacity: true)
            if !emoji {
                if scalars.count == 1 {
                    list.append(first.value)
                    for (index, font) in fonts.enumerated() where font.glyph(for: first.value) != 0 {
                        fontIndex = index
                        break
                    }
                    if fontIndex < 0 { fontIndex = 0 }
                } else {
                    search: for (index, font) in fonts.enumerated() {
                        list.removeAll(keepingCapacity: true)
                        for scalar in scalars
                        where !(scalar.value > 0x7F && scalar.properties.isDefaultIgnorableCodePoint) {
                            list.append(scalar.value)
                        }
                        Composition.normalize(&list, for: font)
                        for scalar in list where font.glyph(for: scalar) == 0 { continue search }
                        fontIndex = index
                        break
                    }
                    if fontIndex < 0 {
                        fontIndex = 0
                        list.removeAll(keepingCapacity: true)
                        for scalar in scalars
                        where !(scalar.value > 0x7F && scalar.properties.isDefaultIgnorableCodePoint) {
                            list.append(scalar.value)
                        }
                        Composition.normalize(&list, for: fonts[0])
                    }
                }
                if fonts[fontIndex].bitmapPPEM > 0 {
                    // A color emoji font draws the whole cluster as one glyph.
                    emoji = true
                }
            }
            if fontIndex < 64 { used |= 1 << UInt64(fontIndex) }
            let font = fonts[fontIndex]
            let start = glyphs.count
            let direction = Measurer.direction(of: first, script: script)
            hasRightToLeft = hasRightToLeft || Measurer.isRightToLeft(direction)
            directions.append(direction)
            clusterStarts.append(start)
            if script == .arabic && joining == nil { joining = ArabicJoining.Forms() }
            let kind = PunctuationTrim.kind(of: first.value)
            if kind != .other && punctuation.isEmpty {
                punctuation = [PunctuationTrim.Kind](repeating: .other, count: clusterStarts.count - 1)
            }
            if kind != .other || !punctuation.isEmpty { punctuation.append(kind) }
            if emoji {
                joining?.add(.nonJoining, glyph: glyphs.count)
                if scalars.count > 1 && Measurer.ligatesEmoji(font) {
                    // The font's ligatures decide how many glyphs the sequence takes (one for a
                    // sequence it knows, more for one it does not); `marks` flags the characters
                    // that draw nothing when left over.
                    for scalar in scalars where scalar.value != 0xFE0F && scalar.value != 0xFE0E {
                        glyphs.append(font.glyph(for: scalar.value))
                        marks.append(Measurer.isInvisibleInEmoji(scalar.value) ? 1 : 0)
                    }
                } else {
                    glyphs.append(font.glyph(for: first.value))
                    marks.append(0)
                }
            } else {
                for scalar in list {
                    glyphs.append(font.glyph(for: scalar))
                    var isMark: UInt8 = 0
                    if Measurer.mayBeMark(scalar), let value = Unicode.Scalar(scalar),
                        value.properties.generalCategory == .nonspacingMark
                    {
                        isMark = 1
                    }
                    marks.append(isMark)
                }
                if joining != nil {
                    for (offset, scalar) in list.enumerated() {
                        joining?.add(ArabicJoining.type(of: scalar), glyph: start + offset)
                    }
                    // ZWJ and ZWNJ draw nothing, but join or separate the letters around them.
                    for scalar in scalars.dropFirst() where scalar.value == 0x200C || scalar.value == 0x200D {
                        joining?.add(ArabicJoining.type(of: scalar.value), glyph: nil)
                    }
                }
            }
            if !breaksRun, var last = segments.last, last.font == fontIndex, last.emoji == emoji,
                last.script == effective
                    || (last.weak
                        && (!last.middleDot || script == .common || script == .latin || script == .greek
                            || script == .han))
            {
                if last.weak && script != .common {
                    last.script = script
                    last.weak = false
                }
                last.end = glyphs.count
                segments[segments.count - 1] = last
            } else {
                segments.append(
                    Segment(
                        font: fontIndex, script: effective, weak: script == .common && (lastStrong == nil || breaksRun),
                        emoji: emoji, start: start,
                        end: glyphs.count))
                segments[segments.count - 1].middleDot = breaksRun
            }
        }
        // Leading common text takes the first strong script, as ICU's script runs do.
        if let firstStrong {
            for index in segments.indices where segments[index].script == .common {
                segments[index].script = firstStrong
            }
        }
        if hasRightToLeft {
            segments = Measurer.splitAtLevels(
                segments,
                levels: Measurer.levels(directions, rightToLeft: Measurer.isRightToLeftParagraph(directions)),
                clusterStarts: clusterStarts)
        }
        var halfWidthGlyphs: [Int] = []
        if !punctuation.isEmpty {
            for (cluster, trimmed) in PunctuationTrim.trimmed(punctuation).enumerated() where trimmed {
                halfWidthGlyphs.append(clusterStarts[cluster])
            }
        }
        var width = 0
        var total: Float = 0
        var runLevel = segments.first?.level ?? 0
        var runStart = 0
        for segment in segments {
            if segment.level != runLevel {
                // Each bidirectional run is its own item in Chromium, rounded up on its own.
                width += rounded(total, clusters: clusterCount(clusterStarts, from: runStart, to: segment.start))
                total = 0
                runLevel = segment.level
                runStart = segment.start
            }
            total += segmentWidth(
                segment, glyphs: glyphs, marks: marks, forms: joining?.bits ?? [], halfWidthGlyphs: halfWidthGlyphs)
        }
        width += rounded(total, clusters: clusterCount(clusterStarts, from: runStart, to: glyphs.count + 1))
        var ascent = 0
        var descent = 0
        for index in fonts.indices where index < 64 && used & (1 << UInt64(index)) != 0 {
            let metrics = VerticalMetrics(fonts[index], size: size)
            ascent = max(ascent, metrics.ascent)
            descent = max(descent, metrics.descent)
        }
        return TextMeasurement(width: width, height: ascent + descent)
    }
}
