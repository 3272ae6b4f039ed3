import CTextScan
import Testing

@testable import TagflowHTML

@Suite struct HTMLEscapingTests {
    @Test func escapesTheFiveCharacters() {
        #expect(
            HTMLEscaping.escaped(#"<a href="x">Tom & Jerry's</a>"#)
                == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;")
    }

    /// The vector scan finds the first escaped byte wherever it is (in a 16-byte block, across
    /// blocks, in the last bytes), as the portable scan and a plain search do, and nothing past
    /// the end.
    @Test func findsTheFirstEscapedByteAnywhere() {
        let specials: [UInt8] = [0x26, 0x3C, 0x3E, 0x22, 0x27]
        let fillers: [UInt8] = [0x61, 0x00, 0x80, 0xE6, 0x25, 0x3D, 0x3F, 0x21, 0x28]
        for length in 0...70 {
            var bytes = (0..<length).map { fillers[$0 % fillers.count] }
            let noneFound = bytes.withUnsafeBytes { tagflow_find_html_special($0.baseAddress, $0.count) }
            #expect(noneFound == length)
            for position in 0..<length {
                for special in specials {
                    let kept = bytes[position]
                    bytes[position] = special
                    let found = bytes.withUnsafeBytes { tagflow_find_html_special($0.baseAddress, $0.count) }
                    let portable = bytes.withUnsafeBytes {
                        tagflow_find_html_special_portable($0.baseAddress, $0.count)
                    }
                    #expect(found == position && portable == position, "\(length) \(position) \(special)")
                    // A second one later does not hide the first.
                    if position + 3 < length {
                        bytes[position + 3] = specials[0]
                        #expect(
                            bytes.withUnsafeBytes { tagflow_find_html_special($0.baseAddress, $0.count) } == position)
                        bytes[position + 3] = fillers[(position + 3) % fillers.count]
                    }
                    bytes[position] = kept
                }
            }
            // A special byte just past the counted bytes is not looked at.
            let padded = bytes + [0x3C]
            #expect(padded.withUnsafeBytes { tagflow_find_html_special($0.baseAddress, length) } == length)
        }
    }

    /// Escaping equals replacing byte by byte, for texts long and short with entities anywhere.
    @Test func escapingEqualsReplacingEachByte() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        let alphabet = Array("ab &<>\"'é日🙂-".unicodeScalars).map(String.init)
        for length in 0...90 {
            for _ in 0..<20 {
                let text = (0..<length).map { _ -> String in
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    return alphabet[Int(state >> 59) % alphabet.count]
                }.joined()
                var expected: [UInt8] = []
                for byte in text.utf8 {
                    switch byte {
                    case 0x26: expected += Array("&amp;".utf8)
                    case 0x3C: expected += Array("&lt;".utf8)
                    case 0x3E: expected += Array("&gt;".utf8)
                    case 0x22: expected += Array("&quot;".utf8)
                    case 0x27: expected += Array("&#39;".utf8)
                    default: expected.append(byte)
                    }
                }
                #expect(Array(HTMLEscaping.escaped(text).utf8) == expected, "\(text)")
                var appended: [UInt8] = [0x78]
                HTMLEscaping.appendEscaped(text, to: &appended)
                #expect(appended == [0x78] + expected, "\(text)")
            }
        }
    }

    @Test func leavesOtherTextAlone() {
        for text in ["", "plain", "日本語のタグ", "emoji 🧑🏽‍💻 chips", "tab\tand\nnewline", "ampersand-free; #hash"] {
            #expect(HTMLEscaping.escaped(text) == text)
        }
    }

    /// A quote followed by a combining mark is one `Character`; escaping per `Character` missed it
    /// and left a raw `"` that closes an attribute value.
    @Test func escapesQuotesThatCombiningMarksJoinIntoOneCharacter() {
        let title = "x\"\u{301} onmouseover=\"alert(1)"
        let escaped = HTMLEscaping.escaped(title)
        #expect(!escaped.utf8.contains(UInt8(ascii: "\"")))
        #expect(escaped == "x&quot;\u{301} onmouseover=&quot;alert(1)")
        #expect(HTMLEscaping.escaped("<\u{338}b>") == "&lt;\u{338}b&gt;")
        #expect(HTMLEscaping.escaped("&\u{20DD}") == "&amp;\u{20DD}")
    }

    @Test func keepsMultiByteTextAroundEntitiesIntact() {
        #expect(HTMLEscaping.escaped("«日本» & <ü>") == "«日本» &amp; &lt;ü&gt;")
        let long = String(repeating: "é<", count: 10_000)
        #expect(HTMLEscaping.escaped(long) == String(repeating: "é&lt;", count: 10_000))
    }

    /// Escaped output has no markup characters left, and unescaping the five entities gives the
    /// input back, for every string of up to three pieces of plain, special and combining text.
    @Test func roundTripsThroughTheFiveEntities() {
        let pieces = ["a", "&", "<", ">", "\"", "'", "\u{301}", "日", "🙂", " ", "&amp;", "\u{200D}"]
        var texts = [""]
        var previous = [""]
        for _ in 1...3 {
            previous = previous.flatMap { prefix in pieces.map { prefix + $0 } }
            texts += previous
        }
        #expect(texts.count == 1 + 12 + 144 + 1_728)
        for text in texts {
            let escaped = HTMLEscaping.escaped(text)
            #expect(!escaped.utf8.contains { [0x3C, 0x3E, 0x22, 0x27].contains($0) })
            #expect(Self.unescaped(escaped) == Array(text.utf8))
        }
    }

    /// Escaping into a byte buffer appends exactly the bytes ``HTMLEscaping/escaped(_:)`` returns,
    /// after whatever the buffer held.
    @Test func appendingEscapedTextGivesTheEscapedBytes() {
        let pieces = ["a", "&", "<", ">", "\"", "'", "\u{301}", "日", "🙂", " ", "&amp;", "\u{200D}"]
        var texts = ["", String(repeating: "é<x", count: 5_000)]
        for first in pieces {
            for second in pieces { texts.append(first + second + first) }
        }
        for text in texts {
            var output = Array("prefix>".utf8)
            HTMLEscaping.appendEscaped(text, to: &output)
            #expect(output == Array("prefix>".utf8) + Array(HTMLEscaping.escaped(text).utf8), "\(text)")
            var pieces: [[UInt8]] = []
            HTMLEscaping.forEachEscapedPiece(of: text) { pieces.append(Array($0)) }
            #expect(pieces.joined().elementsEqual(HTMLEscaping.escaped(text).utf8), "\(text)")
            #expect(!pieces.contains { $0.isEmpty }, "no empty piece: \(text)")
        }
    }

    /// The five entities turned back into their bytes.
    ///
    /// It works on bytes: `String.replacing`
    /// matches whole `Character`s and would miss `&amp;` before a combining mark.
    static func unescaped(_ text: String) -> [UInt8] {
        let entities: [(String, UInt8)] = [
            ("&amp;", 0x26), ("&lt;", 0x3C), ("&gt;", 0x3E), ("&quot;", 0x22), ("&#39;", 0x27),
        ]
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var index = 0
        outer: while index < bytes.count {
            for (entity, byte) in entities where bytes[index...].starts(with: entity.utf8) {
                out.append(byte)
                index += entity.utf8.count
                continue outer
            }
            out.append(bytes[index])
            index += 1
        }
        return out
    }
}
