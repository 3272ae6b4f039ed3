/// Which link targets Tagflow writes into `href` when a site does not allow unsafe Markdown.
///
/// The same rule cmark-gfm applies to Markdown links in its safe mode: `javascript:`,
/// `vbscript:` and `file:` are refused, and `data:` unless it is a PNG, GIF, JPEG or WebP image.
/// A browser ignores tabs and line breaks anywhere in a URL and spaces or control characters
/// before it, so those are dropped before the scheme is read (`java\tscript:` is `javascript:`).
public enum URLPolicy {
    /// Whether a link target is safe to write into a page.
    public static func isSafe(_ url: String) -> Bool {
        var scheme = ""
        var hasScheme = false
        for scalar in url.unicodeScalars {
            if scalar == "\t" || scalar == "\n" || scalar == "\r" { continue }
            if scheme.isEmpty && scalar.value <= 0x20 { continue }
            if scalar == ":" {
                hasScheme = true
                break
            }
            // A character that cannot be in a scheme means there is none: a relative URL.
            guard scalar.isASCII, scheme.count < 16 else { return true }
            scheme.unicodeScalars.append(scalar)
            if scalar == "/" || scalar == "?" || scalar == "#" { return true }
        }
        // No colon: a relative URL, even one spelt `javascript`.
        guard hasScheme else { return true }
        switch scheme.lowercased() {
        case "javascript", "vbscript", "file": return false
        case "data":
            let rest = url.drop { $0 != ":" }.dropFirst().lowercased()
            return ["image/png", "image/gif", "image/jpeg", "image/webp"].contains { rest.hasPrefix($0) }
        default: return true
        }
    }
}

/// Characters XML 1.0 does not allow, out of text meant for an XML file.
public enum XMLCharacters {
    /// `bytes` (UTF-8) without the C0 control characters XML 1.0 forbids (all but tab, line feed
    /// and carriage return; NUL too), and with U+FFFE and U+FFFF replaced by U+FFFD.
    ///
    /// A feed reader refuses a whole feed for one of them, and a title or tag may carry one from
    /// a pasted text.
    public static func sanitized(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(where: { isForbiddenControl($0) || $0 == 0xEF }) else { return bytes }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if isForbiddenControl(byte) {
                index += 1
                continue
            }
            if byte == 0xEF, index + 2 < bytes.count, bytes[index + 1] == 0xBF,
                bytes[index + 2] == 0xBE || bytes[index + 2] == 0xBF
            {
                output += [0xEF, 0xBF, 0xBD]
                index += 3
                continue
            }
            output.append(byte)
            index += 1
        }
        return output
    }

    private static func isForbiddenControl(_ byte: UInt8) -> Bool {
        byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D
    }
}
