/// Arabic joining: the contextual form (isolated, initial, medial or final) each letter of Arabic
/// text takes, decided from the Unicode joining types as HarfBuzz's Arabic shaper decides it
/// before the font's `isol`, `fina`, `medi` and `init` lookups run.
enum ArabicJoining {
    /// A character's Unicode `Joining_Type` (ArabicShaping.txt), reduced to what the forms need:
    /// join-causing characters (tatweel, ZWJ) behave as dual-joining ones, as in HarfBuzz.
    enum JoiningType: UInt8 {
        /// Never joins (spaces, digits, Latin letters, hamza).
        case nonJoining
        /// Skipped when deciding the neighbours' forms (marks and format characters).
        case transparent
        /// Joins only to the character before it (alef, dal, reh, waw...).
        case right
        /// Joins to both sides (beh, seen, lam...), and the join-causing tatweel and ZWJ.
        case dual
    }

    /// The joining type of a code point: the Arabic, Syriac, NKo and Mandaic blocks from the
    /// Unicode 14 table; ZWJ joins, ZWNJ and everything else outside marks never joins.
    static func type(of value: UInt32) -> JoiningType {
        switch value {
        case 0x0600..<0x0900:
            if let type = arabicBlockType(value) { return type }
        case 0x200D:
            return .dual
        case 0x200C:
            return .nonJoining
        default:
            break
        }
        guard Measurer.mayBeMark(value) || (0x200B...0x206F).contains(value) || value == 0xFEFF,
            let scalar = Unicode.Scalar(value)
        else { return .nonJoining }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return .transparent
        default: return .nonJoining
        }
    }

    private static func arabicBlockType(_ value: UInt32) -> JoiningType? {
        switch value {
        case 0x0620, 0x0626, 0x0628, 0x062A...0x062E, 0x0633...0x063F, 0x0641...0x0647, 0x0649...0x064A,
            0x066E...0x066F, 0x0678...0x0687, 0x069A...0x06BF, 0x06C1...0x06C2, 0x06CC, 0x06CE, 0x06D0...0x06D1,
            0x06FA...0x06FC, 0x06FF, 0x0712...0x0714, 0x071A...0x071D, 0x071F...0x0727, 0x0729, 0x072B,
            0x072D...0x072E, 0x074E...0x0758, 0x075C...0x076A, 0x076D...0x0770, 0x0772, 0x0775...0x0777,
            0x077A...0x077F, 0x07CA...0x07EA, 0x0841...0x0845, 0x0848, 0x084A...0x0853, 0x0855, 0x0860,
            0x0862...0x0865, 0x0868, 0x0886, 0x0889...0x088D, 0x08A0...0x08A9, 0x08AF...0x08B0,
            0x08B3...0x08B8, 0x08BA...0x08C8,
            // Join-causing: tatweel, NKo lajanyalan, Arabic kashida variants.
            0x0640, 0x07FA, 0x0883...0x0885:
            return .dual
        case 0x0622...0x0625, 0x0627, 0x0629, 0x062F...0x0632, 0x0648, 0x0671...0x0673, 0x0675...0x0677,
            0x0688...0x0699, 0x06C0, 0x06C3...0x06CB, 0x06CD, 0x06CF, 0x06D2...0x06D3, 0x06D5, 0x06EE...0x06EF,
            0x0710, 0x0715...0x0719, 0x071E, 0x0728, 0x072A, 0x072C, 0x072F, 0x074D, 0x0759...0x075B,
            0x076B...0x076C, 0x0771, 0x0773...0x0774, 0x0778...0x0779, 0x0840, 0x0846...0x0847, 0x0849, 0x0854,
            0x0856...0x0858, 0x0867, 0x0869...0x086A, 0x0870...0x0882, 0x088E, 0x08AA...0x08AC, 0x08AE,
            0x08B1...0x08B2, 0x08B9:
            return .right
        default:
            return nil
        }
    }

    /// Decides forms as characters arrive in logical order: each character's form, and a change
    /// to the previous joining character's form, is known once its successor is seen.
    struct Forms {
        /// Per glyph: the feature bit of its form (``FeatureBit/isolated`` ...), or 0.
        private(set) var bits: [UInt8] = []
        /// The glyph of the last non-transparent character, or -1 when it had no glyph (ZWJ).
        private var previousGlyph = -1
        /// Whether the last non-transparent character can join the one after it.
        private var previousJoinsForward = false

        /// Records the character drawn by glyph `glyph` (or by none, `nil`: ZWJ and ZWNJ).
        mutating func add(_ type: JoiningType, glyph: Int?) {
            if let glyph {
                while bits.count <= glyph { bits.append(0) }
            }
            switch type {
            case .transparent:
                return
            case .nonJoining:
                previousJoinsForward = false
                previousGlyph = -1
            case .right, .dual:
                let joined = previousJoinsForward
                if joined && previousGlyph >= 0 {
                    // The previous letter now joins forward: isolated becomes initial, final medial.
                    bits[previousGlyph] =
                        bits[previousGlyph] == FeatureBit.final ? FeatureBit.medial : FeatureBit.initial
                }
                if let glyph { bits[glyph] = joined ? FeatureBit.final : FeatureBit.isolated }
                previousGlyph = glyph ?? -1
                previousJoinsForward = type == .dual
            }
        }
    }
}
