import Testing

@testable import TagflowCore

/// `Digest` tells inputs apart, and gives the same digest for the same input in every process.
@Suite struct DigestTests {
    private static func digest(_ bytes: [UInt8]) -> Digest {
        var digest = Digest()
        digest.update(bytes)
        return digest
    }

    /// Every byte counts, in the four-lane part of a long input and in the serial part after it.
    @Test func everyByteChangesTheDigest() {
        for length in [7, 8, 63, 64, 65, 100, 1_000] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let original = Self.digest(bytes)
            var seen: Set<Digest> = [original]
            for index in bytes.indices {
                var changed = bytes
                changed[index] ^= 0x01
                seen.insert(Self.digest(changed))
            }
            #expect(seen.count == bytes.count + 1, "length \(length)")
        }
    }

    /// Moving bytes between lanes, or adding zero bytes, changes the digest.
    @Test func orderAndLengthCount() {
        let words = (0..<64).map { UInt8($0) }
        var swapped = words
        swapped.swapAt(0, 8)
        #expect(Self.digest(words) != Self.digest(swapped))
        for length in 0..<100 {
            #expect(
                Self.digest([UInt8](repeating: 0, count: length))
                    != Self.digest([UInt8](repeating: 0, count: length + 1)), "\(length)")
        }
        var joined = Digest()
        joined.update("ab")
        joined.update("c")
        var split = Digest()
        split.update("a")
        split.update("bc")
        #expect(joined != split)
    }

    /// A digest is stored in the build cache and compared by later runs: the same input gives
    /// the same digest in every process (this value changes only with ``BuildCache/formatVersion``;
    /// format 5 changed what pages' inputs stand for, not the digests).
    @Test func isTheSameInEveryProcess() {
        var digest = Digest()
        digest.update(String(repeating: "Tagflow builds blogs with tags. ", count: 10))
        digest.update(UInt64(42))
        #expect(BuildCache.formatVersion == 5)
        #expect(digest.description.count == 32)
        #expect(digest.description == Self.recorded)
    }

    private static let recorded = "e6f81d41e844d81628738658f2a7510f"
}
