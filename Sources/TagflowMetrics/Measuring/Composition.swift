/// Canonical composition and decomposition of a base letter and a combining mark, as HarfBuzz
/// applies them before shaping: a cluster is composed when the font has the composed glyph, and a
/// precomposed character the font lacks is decomposed when the font has the parts.
enum Composition {
    /// `base << 16 | mark` → composed.
    static let compose: [UInt32: UInt32] = {
        var map: [UInt32: UInt32] = [:]
        for (base, mark, composed) in entries { map[base << 16 | mark] = composed }
        return map
    }()

    /// composed → (base, mark).
    static let decompose: [UInt32: (UInt32, UInt32)] = {
        var map: [UInt32: (UInt32, UInt32)] = [:]
        for (base, mark, composed) in entries { map[composed] = (base, mark) }
        return map
    }()

    private static var entries: [(UInt32, UInt32, UInt32)] {
        var out: [(UInt32, UInt32, UInt32)] = []
        var digits: [UInt32] = []
        for byte in data.utf8 {
            let value: UInt32
            switch byte {
            case 0x30...0x39: value = UInt32(byte - 0x30)
            case 0x41...0x46: value = UInt32(byte - 0x41 + 10)
            default: continue
            }
            digits.append(value)
            if digits.count == 12 {
                func number(_ at: Int) -> UInt32 {
                    digits[at] << 12 | digits[at + 1] << 8 | digits[at + 2] << 4 | digits[at + 3]
                }
                out.append((number(0), number(4), number(8)))
                digits.removeAll(keepingCapacity: true)
            }
        }
        return out
    }

    /// Normalises a cluster's scalars for a font: decomposes characters the font lacks, then
    /// composes base + mark pairs the font has, skipping blocked marks.
    static func normalize(_ scalars: inout [UInt32], for font: TableStorage) {
        // Decompose what the font lacks (recursively, e.g. ấ → â + ◌́ → a + ◌̂ + ◌́).
        var index = 0
        var guardCount = 0
        while index < scalars.count, guardCount < 64 {
            guardCount += 1
            let scalar = scalars[index]
            if scalar >= 0xC0, font.glyph(for: scalar) == 0, let (base, mark) = decompose[scalar] {
                scalars[index] = base
                scalars.insert(mark, at: index + 1)
                continue
            }
            index += 1
        }
        guard scalars.count > 1 else { return }
        // Compose marks into the starter where the font has the result.
        var starter = 0
        var lastClass: UInt8 = 0
        var out: [UInt32] = [scalars[0]]
        for scalar in scalars.dropFirst() {
            let combiningClass = Unicode.Scalar(scalar).map { $0.properties.canonicalCombiningClass.rawValue } ?? 0
            if combiningClass == 0 {
                out.append(scalar)
                starter = out.count - 1
                lastClass = 0
                continue
            }
            let blocked = lastClass != 0 && lastClass >= combiningClass
            if !blocked, let composed = compose[out[starter] << 16 | scalar], font.glyph(for: composed) != 0 {
                out[starter] = composed
                continue
            }
            lastClass = combiningClass
            out.append(scalar)
        }
        scalars = out
    }
}
