#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Text of a content file, normalised the way every later step expects it.
///
/// A UTF-8 byte order mark is dropped and CRLF (or a lone CR) line endings become LF, so that
/// line numbers and the `---` fences work the same for files written on any system.
package enum SourceText {
    /// Decodes a file's bytes as the generic `decode(_:)` does, validating them as one contiguous
    /// buffer (a content file's bytes, read in place).
    package static func decode(_ bytes: UnsafeRawBufferPointer) -> String? {
        bytes.withMemoryRebound(to: UInt8.self) { buffer in
            var body = buffer[...]
            if body.starts(with: byteOrderMark) { body = body.dropFirst(3) }
            guard let text = String(validating: UnsafeBufferPointer(rebasing: body), as: UTF8.self) else { return nil }
            return normalizingLineEndings(text)
        }
    }

    /// The offset of the first `byte` in `bytes`, found with `memchr` (a loop over a buffer's
    /// bytes showed in a large build).
    package static func firstOffset(of byte: UInt8, in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress, let found = memchr(base, Int32(byte), bytes.count) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Decodes `bytes` as UTF-8, strips a leading BOM and normalises line endings.
    ///
    /// - Returns: The text, or `nil` when the bytes are not valid UTF-8 (the caller names the file).
    package static func decode(_ bytes: some Collection<UInt8>) -> String? {
        var body = bytes[...]
        if body.starts(with: byteOrderMark) { body = body.dropFirst(3) }
        guard let text = String(validating: body, as: UTF8.self) else { return nil }
        return normalizingLineEndings(text)
    }

    /// Replaces CRLF and lone CR with LF; returns `text` itself when it has no CR.
    package static func normalizingLineEndings(_ text: String) -> String {
        var text = text
        // Through the raw bytes: a scan of the UTF-8 view showed in a large build.
        guard text.withUTF8({ firstOffset(of: UInt8(ascii: "\r"), in: UnsafeRawBufferPointer($0)) != nil }) else {
            return text
        }
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count)
        var previousWasCR = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\r") {
                out.append(UInt8(ascii: "\n"))
                previousWasCR = true
                continue
            }
            if !(byte == UInt8(ascii: "\n") && previousWasCR) { out.append(byte) }
            previousWasCR = false
        }
        return String(decoding: out, as: UTF8.self)
    }
}
