internal import CTextScan

/// Escaping text for HTML element content and attribute values.
///
/// Every Tagflow module that writes HTML escapes through here, so there is one rule: the five
/// characters `&`, `<`, `>`, `"` and `'` become entities, byte by byte. Working on UTF-8 bytes
/// rather than on `Character`s matters for correctness as well as speed: a combining mark joins
/// the character before it into one `Character`, so `"` followed by U+0301 is a single
/// `Character` that is not equal to `"`, and a per-`Character` escaper lets that quote through,
/// where it ends an attribute value. No byte of a multi-byte UTF-8 sequence is below 0x80, so
/// replacing these ASCII bytes never splits one.
public enum HTMLEscaping {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by `&amp;`, `&lt;`, `&gt;`, `&quot;` and
    /// `&#39;`.
    ///
    /// - Returns: The escaped text; `text` itself when it has nothing to escape.
    public static func escaped(_ text: String) -> String {
        var text = text
        let extra = text.withUTF8 { bytes in
            var index = firstSpecial(in: bytes, from: 0)
            var extra = 0
            while index < bytes.count {
                extra &+= extraLength(of: bytes[index])
                index = firstSpecial(in: bytes, from: index + 1)
            }
            return extra
        }
        guard extra > 0 else { return text }
        return text.withUTF8 { bytes in
            String(unsafeUninitializedCapacity: bytes.count + extra) { output in
                var index = 0
                for byte in bytes {
                    let entity: StaticString
                    switch byte {
                    case UInt8(ascii: "&"): entity = "&amp;"
                    case UInt8(ascii: "<"): entity = "&lt;"
                    case UInt8(ascii: ">"): entity = "&gt;"
                    case UInt8(ascii: "\""): entity = "&quot;"
                    case UInt8(ascii: "'"): entity = "&#39;"
                    default:
                        output[index] = byte
                        index += 1
                        continue
                    }
                    entity.withUTF8Buffer { entityBytes in
                        for entityByte in entityBytes {
                            output[index] = entityByte
                            index += 1
                        }
                    }
                }
                return index
            }
        }
    }

    /// Appends the UTF-8 of `text`, escaped as ``escaped(_:)`` escapes it, to `output`.
    ///
    /// For writers that build a page as bytes: no escaped copy of `text` is made first.
    public static func appendEscaped(_ text: String, to output: inout [UInt8]) {
        forEachEscapedPiece(of: text) { output.append(contentsOf: $0) }
    }

    /// The UTF-8 of `text`, escaped as ``escaped(_:)`` escapes it, in pieces: runs of `text`
    /// and entities, in order, for writers with a buffer of their own.
    public static func forEachEscapedPiece(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var text = text
        text.withUTF8 { forEachEscapedPiece(of: $0, body) }
    }

    /// Appends UTF-8 `bytes`, escaped as ``escaped(_:)`` escapes text, to `output`.
    public static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        forEachEscapedPiece(of: bytes) { output.append(contentsOf: $0) }
    }

    /// ``forEachEscapedPiece(of:_:)`` of UTF-8 bytes.
    public static func forEachEscapedPiece(
        of bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        // Runs without anything to escape are copied whole.
        var runStart = 0
        while true {
            let index = firstSpecial(in: bytes, from: runStart)
            if index > runStart { body(UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
            guard index < bytes.count, let entity = entity(for: bytes[index]) else { return }
            entity.withUTF8Buffer(body)
            runStart = index + 1
        }
    }

    /// The index of the first byte at or after `start` that is escaped, or `bytes.count`.
    ///
    /// Sixteen bytes at a time (`CTextScan`): a byte at a time, the scan of the texts a build
    /// shows was a measurable share of its instructions.
    @inline(__always)
    private static func firstSpecial(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard start < bytes.count, let base = bytes.baseAddress else { return bytes.count }
        return start + tagflow_find_html_special(base + start, bytes.count - start)
    }

    /// The entity that stands for `byte`, if it is escaped.
    @inline(__always)
    private static func entity(for byte: UInt8) -> StaticString? {
        switch byte {
        case UInt8(ascii: "&"): "&amp;"
        case UInt8(ascii: "<"): "&lt;"
        case UInt8(ascii: ">"): "&gt;"
        case UInt8(ascii: "\""): "&quot;"
        case UInt8(ascii: "'"): "&#39;"
        default: nil
        }
    }

    /// How many bytes escaping `byte` adds.
    @inline(__always)
    private static func extraLength(of byte: UInt8) -> Int {
        switch byte {
        case UInt8(ascii: "&"): 4  // &amp;
        case UInt8(ascii: "<"), UInt8(ascii: ">"): 3  // &lt; &gt;
        case UInt8(ascii: "\""), UInt8(ascii: "'"): 5  // &quot; &#39;
        default: 0
        }
    }
}
