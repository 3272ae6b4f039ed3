import Testing

@testable import TagflowMetrics

@Suite struct ArabicShapingTests {
    /// The forms of a string's characters, one letter per character: i initial, m medial,
    /// f final, s isolated, - none (ZWJ and ZWNJ have no glyph and are left out).
    func forms(_ text: String) -> String {
        var forms = ArabicJoining.Forms()
        var glyph = 0
        for scalar in text.unicodeScalars {
            let drawn = scalar.value != 0x200C && scalar.value != 0x200D
            forms.add(ArabicJoining.type(of: scalar.value), glyph: drawn ? glyph : nil)
            if drawn { glyph += 1 }
        }
        var bits = forms.bits
        while bits.count < glyph { bits.append(0) }
        return String(
            bits.map { bit -> Character in
                switch bit {
                case FeatureBit.initial: return "i"
                case FeatureBit.medial: return "m"
                case FeatureBit.final: return "f"
                case FeatureBit.isolated: return "s"
                default: return "-"
                }
            })
    }

    @Test func lettersTakeTheFormOfTheirNeighbours() {
        #expect(forms("بيت") == "imf")  // dual, dual, dual
        #expect(forms("ب") == "s")
        #expect(forms("دار") == "sss")  // right-joining letters never join forward
        #expect(forms("لا") == "if")
        #expect(forms("سلام") == "imfs")  // alef joins only backward: meem stands alone
        #expect(forms("مدرسة") == "ifsif")
        // Marks are transparent: the letters around a vowel sign still join.
        #expect(forms("بَت") == "i-f")
        // Hamza (U+0621) joins neither side; spaces and Latin letters break joining.
        #expect(forms("بءب") == "s-s")
        #expect(forms("ب ب") == "s-s")
        #expect(forms("بxب") == "s-s")
        // ZWNJ separates, ZWJ and tatweel join.
        #expect(forms("ب\u{200C}ب") == "ss")
        #expect(forms("ب\u{200D}") == "i")
        #expect(forms("\u{200D}ب") == "f")
        #expect(forms("بـب") == "imf")
    }

    @Test func joiningTypesAreTheUnicodeData() {
        let dual: [UInt32] = [0x0628, 0x0633, 0x0644, 0x0645, 0x064A, 0x06CC, 0x06A9, 0x06AF, 0x067E, 0x0686, 0x06C1]
        for value in dual { #expect(ArabicJoining.type(of: value) == .dual, "U+\(String(value, radix: 16))") }
        let right: [UInt32] = [0x0627, 0x062F, 0x0631, 0x0632, 0x0648, 0x0629, 0x0622, 0x0698, 0x0688, 0x06D2]
        for value in right { #expect(ArabicJoining.type(of: value) == .right, "U+\(String(value, radix: 16))") }
        for value: UInt32 in [0x0621, 0x0660, 0x0020, 0x0041, 0x05D0, 0x200C] {
            #expect(ArabicJoining.type(of: value) == .nonJoining, "U+\(String(value, radix: 16))")
        }
        for value: UInt32 in [0x064E, 0x0651, 0x0670, 0x05B8, 0x0301, 0x200B] {
            #expect(ArabicJoining.type(of: value) == .transparent, "U+\(String(value, radix: 16))")
        }
        #expect(ArabicJoining.type(of: 0x0640) == .dual)
        #expect(ArabicJoining.type(of: 0x200D) == .dual)
    }

    /// Widths Chromium 156 drew (getBoundingClientRect, 1/64 px) at 16 px with each font alone.
    static let chromiumWidths: [(font: String, text: String, width: Int)] = [
        ("dejavu", "برمجة", 2609), ("dejavu", "تقنية", 1970), ("dejavu", "سفر", 1941), ("dejavu", "لا", 584),
        ("dejavu", "سلام", 2103), ("dejavu", "مرحبا", 2368), ("dejavu", "ذكاء اصطناعي", 6142),
        // Noto Sans Arabic kerns reh before hah with a chained contextual positioning lookup.
        ("arabic", "مرحبا", 2155), ("arabic", "القاهرة", 2682), ("arabic", "برمجة", 2328),
        ("arabic", "شُكْرًا", 1947), ("arabic", "تقنية", 2044), ("arabic", "لا", 596),
        ("naskh", "كتاب", 1844), ("naskh", "تقنية", 1824), ("naskh", "سلام", 1800), ("naskh", "مرحبا", 2090),
    ]

    @Test(.enabled(if: SystemFonts.enabled, "needs Debian's fonts"))
    func arabicWordsMeasureAsChromiumDrawsThem() throws {
        for item in ArabicShapingTests.chromiumWidths {
            let stack = FontStack([try SystemFonts.table(item.font)])
            #expect(stack.measure(item.text, size: 16).width == item.width, "\(item.font): \(item.text)")
        }
    }

    @Test(.enabled(if: SystemFonts.enabled, "needs Debian's fonts"))
    func arabicFormsAreLookedUpOnlyForArabicScript() throws {
        // DejaVu Sans has `init`/`medi`/`fina` lookups only under `arab`: the table keeps them there.
        let dejavu = try SystemFonts.table("dejavu").storage
        for (index, script) in dejavu.scripts.enumerated() {
            let hasForms = script.substitutionFeatures.contains { $0 & FeatureBit.forms != 0 }
            #expect(hasForms == (script.tag == Script.arabic.tag), "script \(index)")
        }
    }
}
