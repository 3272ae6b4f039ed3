/// The scripts measuring tells apart: text of different scripts is shaped in separate runs
/// (no kerning or ligatures across them), each with its OpenType script's lookups.
enum Script: UInt8 {
    case common = 0
    case latin, greek, cyrillic, han, kana, hangul, hebrew, arabic, other

    /// The OpenType script tag whose lookups apply.
    var tag: UInt32 {
        switch self {
        case .common, .other: return 0x4446_4C54  // DFLT
        case .latin: return 0x6C61_746E  // latn
        case .greek: return 0x6772_656B  // grek
        case .cyrillic: return 0x6379_726C  // cyrl
        case .han: return 0x6861_6E69  // hani
        case .kana: return 0x6B61_6E61  // kana
        case .hangul: return 0x6861_6E67  // hang
        case .hebrew: return 0x6865_6272  // hebr
        case .arabic: return 0x6172_6162  // arab
        }
    }

    /// The script of a scalar: letters by block; marks, digits, punctuation and symbols are common.
    static func of(_ scalar: Unicode.Scalar) -> Script {
        let value = scalar.value
        if value < 0x80 {
            return (value | 0x20) >= 0x61 && (value | 0x20) <= 0x7A ? .latin : .common
        }
        // The most common letters need no property lookup.
        switch value {
        case 0x4E00...0x9FFF, 0x3400...0x4DBF: return .han
        case 0xAC00...0xD7A3: return .hangul
        case 0x3041...0x3096, 0x30A1...0x30FA: return .kana
        case 0x00C0...0x00D6, 0x00D8...0x00F6, 0x00F8...0x024F: return .latin
        case 0x0391...0x03A1, 0x03A3...0x03CE: return .greek
        case 0x0400...0x0481, 0x048A...0x04FF: return .cyrillic
        case 0x05D0...0x05EA: return .hebrew
        default: break
        }
        // Kana-Hiragana common marks (prolonged sound mark, voicing marks) join the run they are in.
        if value == 0x30FC || value == 0xFF70 || (0x3099...0x309C).contains(value) || value == 0xFF9E || value == 0xFF9F
        {
            return .common
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .letterNumber:
            break
        default:
            return .common
        }
        switch value {
        case 0x00AA, 0x00BA, 0x00C0...0x02AF, 0x1D00...0x1DBF, 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF,
            0xAB30...0xAB6F, 0xFB00...0xFB06, 0xFF21...0xFF3A, 0xFF41...0xFF5A:
            return .latin
        case 0x0370...0x03FF, 0x1F00...0x1FFF:
            return .greek
        case 0x0400...0x052F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F:
            return .cyrillic
        case 0x3041...0x3096, 0x309D...0x309F, 0x30A1...0x30FA, 0x30FD...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF6F,
            0xFF71...0xFF9D,
            0x1B000...0x1B16F:
            return .kana
        case 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7FF, 0xFFA0...0xFFDC:
            return .hangul
        case 0x2E80...0x2FDF, 0x3005, 0x3007, 0x3021...0x3029, 0x3038...0x303B, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xF900...0xFAFF, 0x20000...0x3FFFF:
            return .han
        case 0x0590...0x05FF, 0xFB1D...0xFB4F:
            return .hebrew
        case 0x0600...0x06FF, 0x0750...0x077F, 0x0870...0x08FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF:
            return .arabic
        default:
            return .other
        }
    }
}
