import Foundation
import Testing

@testable import TagflowMetrics

/// One width measured in Chromium (fixture `chromium-widths.json`, recorded by the accuracy harness).
struct ChromiumCase: Decodable, Sendable, CustomTestStringConvertible {
    var font: String
    var size: Double
    var letterSpacing: Double
    var text: String
    var width: Int
    var height: Int

    var testDescription: String { "\(font) \(size)px ls \(letterSpacing): \(text.debugDescription)" }

    static let all: [ChromiumCase] = {
        struct File: Decodable { var cases: [ChromiumCase] }
        guard let url = Bundle.module.url(forResource: "Fixtures/chromium-widths", withExtension: "json"),
            let data = try? Data(contentsOf: url), let file = try? JSONDecoder().decode(File.self, from: data)
        else { return [] }
        return file.cases
    }()
}

@Suite struct MeasuringTests {
    /// Text beyond ASCII is shaped once per stack: a repeat gives what the shaper gives, a
    /// change of tables starts afresh, and the kept measurements stay within their bound.
    @Test func keepsWhatTheShaperMeasured() {
        var stack = FontStack.default.withFallback(.emojiFallback)
        let texts = ["標籤", "タグ 🏷️", "Ελληνικά", "café"]
        for text in texts {
            var shaper = Measurer(stack: stack, size: 14, letterSpacing: 0.5)
            let shaped = shaper.measure(text)
            #expect(stack.measure(text, size: 14, letterSpacing: 0.5) == shaped, "\(text)")
            #expect(stack.measure(text, size: 14, letterSpacing: 0.5) == shaped, "\(text), again")
        }
        #expect(stack.keptMeasurementCount == texts.count)
        // Canonically equivalent texts are different texts to a font: each is shaped for itself.
        #expect(
            ShapedTexts.Key(text: "café", size: 14, letterSpacing: 0)
                != ShapedTexts.Key(text: "cafe\u{301}", size: 14, letterSpacing: 0))
        for text in ["cafe\u{301}", "café"] {
            var shaper = Measurer(stack: stack, size: 14, letterSpacing: 0.5)
            #expect(stack.measure(text, size: 14, letterSpacing: 0.5) == shaper.measure(text), "\(Array(text.utf8))")
        }
        #expect(stack.keptMeasurementCount == texts.count + 1)
        // Without the CJK fallback the same text measures otherwise; nothing kept may answer.
        let withFallback = stack.measure("標籤", size: 14)
        stack.tables = [.liberationSans]
        var shaper = Measurer(stack: stack, size: 14, letterSpacing: 0)
        let alone = shaper.measure("標籤")
        #expect(alone != withFallback)
        #expect(stack.measure("標籤", size: 14) == alone)
        for index in 0..<(ShapedTexts.limit + 10) {
            _ = stack.measure("標籤 \(index)", size: 14)
        }
        #expect(stack.keptMeasurementCount <= ShapedTexts.limit)
    }

    /// The emoji fallback's written-out ranges are what a scan of every code point up to U+1FFFF
    /// and the tag characters finds with this standard library's Unicode data.
    @Test func theEmojiRangesAreTheUnicodeData() {
        var scanned: [ClosedRange<UInt32>] = []
        for block: ClosedRange<UInt32> in [0x23...0x1FFFF, 0xE0000...0xE007F] {
            var start: UInt32? = nil
            for code in block {
                let isEmoji = Unicode.Scalar(code).map { $0.properties.isEmoji } ?? false
                let mapped = isEmoji || (0xE0020...0xE007F).contains(code) || code == 0x20E3 || code == 0xFE0F
                if mapped, start == nil { start = code }
                if !mapped, let first = start {
                    scanned.append(first...(code - 1))
                    start = nil
                }
            }
            if let first = start { scanned.append(first...block.upperBound) }
        }
        let hex = { (code: UInt32) in "0x" + String(code, radix: 16, uppercase: true) }
        #expect(
            BuiltInTables.emojiRanges == scanned,
            "BuiltInTables.emojiRanges should be: \(scanned.map { "\(hex($0.lowerBound))...\(hex($0.upperBound))" })")
        #expect(scanned.count > 100)
        // And the table maps them: the fallback measures an emoji and not a letter.
        #expect(BuiltInTables.emoji.storage.glyph(for: 0x1F3F7) != 0)
        #expect(BuiltInTables.emoji.storage.glyph(for: 0x41) == 0)
    }

    @Test func fixturesAreThere() {
        #expect(ChromiumCase.all.count > 400)
    }

    @Test(
        .enabled(if: SystemFonts.enabled, "needs Debian's DejaVu, Liberation, Inter and Noto fonts"),
        arguments: ChromiumCase.all)
    func equalsChromium(_ item: ChromiumCase) throws {
        let stack = try SystemFonts.stack(item.font)
        let measured = stack.measure(item.text, size: item.size, letterSpacing: item.letterSpacing)
        #expect(measured.width == item.width)
        #expect(measured.height == item.height * 64)
    }

    @Test(.enabled(if: SystemFonts.enabled, "needs Debian's fonts"))
    func kernsLigaturesAndContextualAlternates() throws {
        let liberation = FontStack([try SystemFonts.table("liberation")])
        // Kerning, also with the space glyph.
        #expect(liberation.measure("AVAWAY", size: 13).width == 3313)
        #expect(liberation.measure("A V", size: 13).width == 1296)
        let dejavu = FontStack([try SystemFonts.table("dejavu")])
        // ffi ligature in DejaVu Sans, and no ligature with letter-spacing.
        #expect(dejavu.measure("ffi", size: 16).width == 990)
        #expect(dejavu.measure("ffi", size: 16, letterSpacing: 1).width > 1006 + 3 * 64 - 1)
        // Inter's calt: "3x4" uses the multiplication-sign alternate.
        let inter = FontStack([try SystemFonts.table("inter")])
        #expect(inter.measure("3x4", size: 14).width == 1736)
    }

    @Test(.enabled(if: SystemFonts.enabled, "needs Debian's fonts"))
    func bidirectionalRunsAreRoundedSeparately() throws {
        // Chromium 156: each bidirectional run is shaped and rounded up on its own.
        let liberation = FontStack([try SystemFonts.table("liberation")])
        #expect(liberation.measure("שלום 123 עולם", size: 13).width == 5369)
        #expect(liberation.measure("C++ עברית", size: 13).width == 4005)
        #expect(liberation.measure("Tag: שלום!", size: 13).width == 3865)
        let dejavu = FontStack([try SystemFonts.table("dejavu")])
        #expect(dejavu.measure("abc שלום def", size: 16).width == 6398)
        #expect(dejavu.measure("שלום 123 עולם", size: 16).width == 7054)
    }

    @Test(.enabled(if: SystemFonts.enabled, "needs Debian's fonts"))
    func labelsRunInTheDirectionOfTheirFirstLetter() throws {
        // Chromium 156, `unicode-bidi: plaintext` as chips draw labels: a label whose first strong
        // letter is right-to-left is a right-to-left paragraph, so its runs split differently.
        let dejavu = FontStack([try SystemFonts.table("dejavu")])
        let widths: [(String, Int)] = [
            ("123 שלום", 4547), ("שלום abc", 4433), ("עם Swift", 4162), ("عربي Swift", 5156),
            ("(مقدمة)", 3501), ("[טיוטה]", 3304), ("שלום (hello)", 5866),
        ]
        for (text, width) in widths {
            #expect(dejavu.measure(text, size: 16).width == width, "\(text)")
        }
    }

    @Test(.enabled(if: SystemFonts.enabled, "needs Debian's fonts"))
    func numbersKeepTheirSeparatorsInRightToLeftLabels() throws {
        // Chromium 156, plaintext: "2.0" or "1/2" is one left-to-right number inside the label.
        let dejavu = FontStack([try SystemFonts.table("dejavu"), try SystemFonts.table("arabic")])
        let widths: [(String, Int)] = [
            ("גרסה 2.0", 4288), ("עדכון 2.1.3", 5231), ("تحديث 1.4.2", 5706),
            ("1/2 كوب سكر", 6268), ("מרתון 42.2 ק\"מ", 7329), ("كيكة 2.0", 3866),
        ]
        for (text, width) in widths {
            #expect(dejavu.measure(text, size: 16).width == width, "\(text)")
        }
        // A flag is a left-to-right letter: the label below is a left-to-right paragraph.
        let noto = FontStack([
            try SystemFonts.table("noto-sans"), try SystemFonts.table("hebrew"), try SystemFonts.table("cjk"),
            try SystemFonts.table("emoji"),
        ])
        #expect(noto.measure("🇮🇱 ישראל", size: 15).width == 4030)
    }

    @Test(.enabled(if: SystemFonts.enabled, "needs Debian's fonts"))
    func emojiSequencesTakeTheGlyphsTheFontsLigaturesLeave() throws {
        // Chromium 156, 16 px, Noto Color Emoji: a known sequence is one glyph; a modifier or a
        // person after a sequence the font does not know is a glyph of its own.
        let stack = FontStack([try SystemFonts.table("dejavu"), try SystemFonts.table("emoji")])
        for known in ["🧑🏻‍💻", "👨‍👩‍👧‍👦", "🏳️‍🌈", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "1️⃣", "🇯🇵"] {
            #expect(stack.measure(known, size: 16).width == 1278, "\(known)")
        }
        for unknown in ["🧑‍💻🏻", "👍🏻🏻", "🏳️‍🌈🏻", "👨‍👩‍👧‍👦‍🐶"] {
            #expect(stack.measure(unknown, size: 16).width == 2556, "\(unknown)")
        }
        // The built-in emoji fallback has no ligatures: one glyph a cluster.
        #expect(FontStack.default.measure("🧑‍💻🏻", size: 16).width == 1278)
    }

    @Test func rightToLeftParagraphsResolveNeutralsAndNumbers() {
        let (l, r, en, an, n) = (
            Measurer.leftToRight, Measurer.rightToLeft, Measurer.europeanNumber,
            Measurer.arabicNumber, UInt8(0)
        )
        // "abc def" inside a right-to-left paragraph: letters 2, the space between them too.
        #expect(Measurer.levels([r, n, l, n, l, n, r], rightToLeft: true) == [1, 1, 2, 2, 2, 1, 1])
        // Numbers are 2 in either paragraph after right-to-left text; a neutral before them is 1.
        #expect(Measurer.levels([r, n, en], rightToLeft: true) == [1, 1, 2])
        #expect(Measurer.levels([r, n, en]) == [1, 1, 2])
        // After left-to-right text a European number is left-to-right (W7); an Arabic one is not.
        #expect(Measurer.levels([l, n, en]) == [0, 0, 0])
        #expect(Measurer.levels([l, n, an, n, r]) == [0, 0, 2, 1, 1])
        // Brackets at the edges take the paragraph's direction.
        #expect(Measurer.levels([n, r, n], rightToLeft: true) == [1, 1, 1])
        #expect(Measurer.levels([n, r, n]) == [0, 1, 0])
        // Separators inside numbers, and terminators touching them, join the number (W4, W5); after
        // Arabic letters European digits are Arabic numbers (W2), and only `,` `.` `/` `:` join those.
        let (es, cs, et, al) = (
            Measurer.numberSeparator, Measurer.commonSeparator, Measurer.numberTerminator,
            Measurer.arabicLetter
        )
        #expect(Measurer.resolvingNumbers([r, n, en, cs, en], rightToLeft: true) == [r, n, en, en, en])
        #expect(Measurer.resolvingNumbers([en, es, en, cs, n], rightToLeft: false) == [en, en, en, n, n])
        #expect(Measurer.resolvingNumbers([et, et, en, et], rightToLeft: false) == [en, en, en, en])
        #expect(Measurer.resolvingNumbers([al, n, en, es, en], rightToLeft: true) == [r, n, an, n, an])
        #expect(Measurer.resolvingNumbers([al, n, en, cs, en], rightToLeft: true) == [r, n, an, an, an])
        #expect(Measurer.levels([r, n, en, cs, en], rightToLeft: true) == [1, 1, 2, 2, 2])
        #expect(Measurer.isRightToLeftParagraph([n, en, al, l]))
        #expect(Measurer.isRightToLeftParagraph([n, en, r, l]))
        #expect(!Measurer.isRightToLeftParagraph([n, l, r]))
        #expect(!Measurer.isRightToLeftParagraph([n, en]))
    }

    @Test(.enabled(if: SystemFonts.enabled, "needs Debian's fonts"))
    func freeTypeScaleIsInexactForOddUnitsPerEm() throws {
        let cjk = FontStack([try SystemFonts.table("cjk")])
        // Four 1000-unit glyphs at 16 px: 64.000122 px, rounded up to 64 + 1/64 px.
        #expect(cjk.measure("漢字漢字", size: 16).width == 64 * 64 + 1)
    }

    @Test func builtInStackMeasuresWithoutFonts() {
        let stack = FontStack.default
        #expect(stack.measure("AVAWAY", size: 13) == TextMeasurement(width: 3313, height: 15 * 64))
        #expect(stack.measure("office", size: 13).width == 1974)
        #expect(stack.measure("C++", size: 13).width == 1573)
        // CJK fallback: 1 em per ideograph, and Noto Sans CJK's taller line.
        #expect(stack.measure("漢字漢字", size: 16).width == 64 * 64 + 1)
        #expect(stack.measure("漢字", size: 13).height == 19 * 64)
        // Emoji fallback: one glyph per cluster, 136/109 em.
        for emoji in ["👍", "👍🏽", "👨‍👩‍👧‍👦", "🇯🇵", "❤️", "1️⃣"] {
            #expect(stack.measure(emoji, size: 16).width == 1278, "\(emoji)")
            #expect(stack.measure(emoji, size: 13).width == 1039, "\(emoji)")
        }
        #expect(stack.measure("", size: 13) == TextMeasurement(width: 0, height: 15 * 64))
    }

    @Test(.enabled(if: SystemFonts.enabled, "needs Debian's fonts"), arguments: ["dejavu", "liberation", "inter"])
    func fastPathsAgreeWithShaping(_ name: String) throws {
        let stack = try SystemFonts.stack(name)
        var generator = SeededGenerator(state: 99)
        let alphabet = Array("AVWYTLPFaeoyrvw.,-:x0123456789 fil'\"()#+")
        for _ in 0..<400 {
            let length = Int.random(in: 1...12, using: &generator)
            let text = String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
            for spacing in [0.0, 0.5] {
                var general = Measurer(stack: stack, size: 13.5, letterSpacing: spacing)
                #expect(stack.measure(text, size: 13.5, letterSpacing: spacing) == general.measure(text), "\(text)")
            }
        }
    }

    @Test func letterSpacingIsAddedAfterEveryCluster() {
        let stack = FontStack.default
        let plain = stack.measure("e\u{301}👍🏽a", size: 16).width
        let spaced = stack.measure("e\u{301}👍🏽a", size: 16, letterSpacing: 2).width
        #expect(spaced - plain == 3 * 2 * 64)
    }

    @Test func anySizeAndHostileValuesAreSafe() {
        let stack = FontStack.default
        #expect(stack.measure("Tag", size: 0).width == 0)
        #expect(stack.measure("Tag", size: .nan).width == 0)
        // Values a browser would not draw count as 0.
        #expect(stack.measure("Tag", size: .infinity).width == 0)
        #expect(stack.measure("Tag", size: 13, letterSpacing: -.infinity) == stack.measure("Tag", size: 13))
        #expect(stack.measure("Tag", size: 13, letterSpacing: -100).width == 0)
        #expect(stack.measure(String(repeating: "W", count: 10_000), size: 1e9).width > 0)
    }

    @Test func widthGrowsWithSize() {
        let stack = FontStack.default
        var previous = 0
        for size in stride(from: 8.0, through: 40, by: 0.25) {
            let width = stack.measure("Swift Concurrency", size: size).width
            #expect(width >= previous)
            previous = width
        }
    }

    @Test func measuringIsSendable() async {
        let stack = FontStack.default
        let widths = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<4 { group.addTask { stack.measure("AVAWAY 漢字 👍🏽", size: 13).width } }
            var out: [Int] = []
            for await width in group { out.append(width) }
            return out
        }
        #expect(Set(widths).count == 1)
    }
}
