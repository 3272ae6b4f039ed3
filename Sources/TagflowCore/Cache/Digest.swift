/// A 128-bit fingerprint of bytes, for telling whether a build's inputs changed.
///
/// Fast (long inputs 32 bytes a step in four independent lanes) and stable across runs and
/// machines, unlike Swift's `Hasher`, which is seeded per process. Not cryptographic: it guards
/// against accidents (an edited file), not against someone crafting a collision in their own
/// blog. Digests are stored in the build cache: a change to how they are made must change
/// ``BuildCache/formatVersion``.
struct Digest: Sendable, Hashable, CustomStringConvertible {
    private var first: UInt64 = 0x9E37_79B9_7F4A_7C15
    private var second: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private var length: UInt64 = 0

    init() {}

    /// Adds bytes.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        if bytes.count >= 64 {
            // Each step of a lane waits for its last multiply; four lanes keep the core busy (with
            // one chain of steps, digesting the source files was a measurable share of a build).
            var lanes = (first, second, first ^ 0x6A09_E667_F3BC_C908, second ^ 0xBB67_AE85_84CA_A73B)
            while offset + 32 <= bytes.count {
                lanes.0 = Self.round(lanes.0, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                lanes.1 = Self.round(lanes.1, bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
                lanes.2 = Self.round(lanes.2, bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
                lanes.3 = Self.round(lanes.3, bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
                offset += 32
            }
            mix(lanes.0)
            mix(lanes.1)
            mix(lanes.2)
            mix(lanes.3)
        }
        while offset + 8 <= bytes.count {
            mix(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        if offset < bytes.count {
            var tail: UInt64 = 0
            for (shift, byte) in bytes[offset...].enumerated() { tail |= UInt64(byte) << (8 * UInt64(shift)) }
            mix(tail ^ 0xFF00_0000_0000_0000)
        }
        length &+= UInt64(bytes.count)
    }

    /// Adds bytes.
    mutating func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }

    /// Adds a string, length first, so `"ab" + "c"` and `"a" + "bc"` differ.
    mutating func update(_ text: String) {
        var text = text
        update(UInt64(text.utf8.count))
        text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// Adds a number.
    mutating func update(_ number: UInt64) { mix(number ^ 0xA5A5_A5A5_A5A5_A5A5) }

    /// Adds another digest.
    mutating func update(_ other: Digest) {
        update(other.first)
        update(other.second)
    }

    private mutating func mix(_ word: UInt64) {
        first =
            ((first ^ (word &* 0x87C3_7B91_1142_53D5)) << 31 | (first ^ (word &* 0x87C3_7B91_1142_53D5)) >> 33)
            &* 0x4CF5_AD43_2745_937F
        second =
            ((second ^ (word &* 0x52DC_E729_DA3E_D5B1)) << 27 | (second ^ (word &* 0x52DC_E729_DA3E_D5B1)) >> 37)
            &* 0x9FB2_1C65_1E98_DF25 &+ first
    }

    /// One lane's step (xxHash64's round).
    @inline(__always)
    private static func round(_ lane: UInt64, _ word: UInt64) -> UInt64 {
        let sum = lane &+ word &* 0xC2B2_AE3D_27D4_EB4F
        return (sum << 31 | sum >> 33) &* 0x9E37_79B1_85EB_CA87
    }

    private static func finish(_ value: UInt64) -> UInt64 {
        var value = value
        value ^= value >> 33
        value &*= 0xFF51_AFD7_ED55_8CCD
        value ^= value >> 33
        value &*= 0xC4CE_B9FE_1A85_EC53
        return value ^ value >> 33
    }

    /// The 128 bits the digest finishes to: what page records keep and compare.
    var value: DigestValue {
        let high = Self.finish(first ^ length)
        return DigestValue(high: high, low: Self.finish(second ^ high))
    }

    /// 32 hexadecimal digits.
    var description: String { value.description }
}

/// A finished ``Digest``: compared as two words, written and read back as 32 hexadecimal
/// digits (the build cache's page records).
struct DigestValue: Sendable, Hashable, CustomStringConvertible {
    var high: UInt64
    var low: UInt64

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Reads the 32 hexadecimal digits ``description`` writes; `nil` for anything else.
    init?(_ text: some StringProtocol) {
        guard let value = Array(text.utf8).withUnsafeBytes(DigestValue.init(bytes:)) else { return nil }
        self = value
    }

    /// Reads the 32 hexadecimal digits ``description`` writes, as bytes; `nil` for anything else.
    init?(bytes digits: UnsafeRawBufferPointer) {
        guard digits.count == 32 else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        for (index, digit) in digits.enumerated() {
            let nibble: UInt8
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = digit - UInt8(ascii: "a") + 10
            default: return nil
            }
            if index < 16 { words.0 = words.0 << 4 | UInt64(nibble) } else { words.1 = words.1 << 4 | UInt64(nibble) }
        }
        (high, low) = words
    }

    var description: String {
        // Written digit by digit into one buffer: a digest is printed for each of a build's pages.
        String(unsafeUninitializedCapacity: 32) { buffer in
            let digits: StaticString = "0123456789abcdef"
            for (offset, value) in [(0, high), (16, low)] {
                for index in 0..<16 {
                    let nibble = Int((value >> UInt64(60 - 4 * index)) & 0xF)
                    buffer[offset + index] = digits.utf8Start[nibble]
                }
            }
            return 32
        }
    }
}
