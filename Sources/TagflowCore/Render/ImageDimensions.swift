import Foundation
import TagflowHTML

/// The size an image file is drawn at when nothing sizes it: read from the file's header.
///
/// PNG, GIF, JPEG (turned as its EXIF orientation says, as browsers draw it), WebP and SVG (an
/// absolute `width` and `height` on the root element; an SVG sized only by its `viewBox` has no
/// fixed size, and giving it one would change how it is drawn).
struct ImageDimensions: Sendable, Hashable {
    /// Width in CSS pixels.
    var width: Int
    /// Height in CSS pixels.
    var height: Int

    /// Creates dimensions.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The file extensions this reads, lowercased.
    static let fileExtensions: Set<String> = ["png", "gif", "jpg", "jpeg", "webp", "svg"]

    /// The largest side taken as real; a header that claims more is damaged or hostile.
    static let maximumSide = 100_000

    /// Reads the dimensions of an image file.
    ///
    /// - Parameter url: The file.
    /// - Returns: Its dimensions; `nil` when it cannot be read or is not an image this knows.
    static func read(_ url: URL) -> ImageDimensions? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        return parse { offset, count in
            guard (try? handle.seek(toOffset: UInt64(offset))) != nil,
                let data = try? handle.read(upToCount: count)
            else { return [] }
            return [UInt8](data)
        }
    }

    /// Reads dimensions from bytes.
    ///
    /// - Parameter bytes: The start of a file, or all of it.
    /// - Returns: Its dimensions; `nil` when they cannot be read.
    static func parse(_ bytes: [UInt8]) -> ImageDimensions? {
        parse { offset, count in
            guard offset < bytes.count else { return [] }
            return Array(bytes[offset..<min(bytes.count, offset + count)])
        }
    }

    /// Reads dimensions through `read(offset, count)`, which returns at most `count` bytes.
    static func parse(_ read: (Int, Int) -> [UInt8]) -> ImageDimensions? {
        let head = read(0, 32)
        let found: ImageDimensions?
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            found = png(head)
        } else if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) {
            found = head.count >= 10 ? ImageDimensions(width: le16(head, 6), height: le16(head, 8)) : nil
        } else if head.starts(with: [0xFF, 0xD8]) {
            found = jpeg(read)
        } else if head.starts(with: Array("RIFF".utf8)), head.count >= 30, Array(head[8..<12]) == Array("WEBP".utf8) {
            found = webP(head)
        } else {
            found = svg(read(0, 65_536))
        }
        guard let found, (1...maximumSide).contains(found.width), (1...maximumSide).contains(found.height) else {
            return nil
        }
        return found
    }

    private static func png(_ head: [UInt8]) -> ImageDimensions? {
        // The first chunk is IHDR: width and height, big-endian, after its length and type.
        guard head.count >= 24, Array(head[12..<16]) == Array("IHDR".utf8) else { return nil }
        return ImageDimensions(width: be32(head, 16), height: be32(head, 20))
    }

    private static func webP(_ head: [UInt8]) -> ImageDimensions? {
        switch String(decoding: head[12..<16], as: UTF8.self) {
        case "VP8 ":
            // Lossy: a key frame's start code, then 14-bit width and height.
            guard head[23] == 0x9D, head[24] == 0x01, head[25] == 0x2A else { return nil }
            return ImageDimensions(width: le16(head, 26) & 0x3FFF, height: le16(head, 28) & 0x3FFF)
        case "VP8L":
            // Lossless: a signature byte, then width − 1 and height − 1 in 14 bits each.
            guard head[20] == 0x2F else { return nil }
            let bits = le16(head, 21) | le16(head, 23) << 16
            return ImageDimensions(width: bits & 0x3FFF + 1, height: (bits >> 14) & 0x3FFF + 1)
        case "VP8X":
            // Extended: canvas width − 1 and height − 1 in 24 bits each.
            let width = Int(head[24]) | Int(head[25]) << 8 | Int(head[26]) << 16
            let height = Int(head[27]) | Int(head[28]) << 8 | Int(head[29]) << 16
            return ImageDimensions(width: width + 1, height: height + 1)
        default:
            return nil
        }
    }

    /// Walks a JPEG's segments to its frame header, noting the EXIF orientation on the way.
    private static func jpeg(_ read: (Int, Int) -> [UInt8]) -> ImageDimensions? {
        var offset = 2
        var swapsSides = false
        // A bound on segments, so a damaged file cannot keep the walk going.
        for _ in 0..<1_000 {
            let marker = read(offset, 4)
            guard marker.count == 4, marker[0] == 0xFF else { return nil }
            let kind = marker[1]
            if kind == 0xFF {  // fill byte
                offset += 1
                continue
            }
            if kind == 0x01 || (0xD0...0xD7).contains(kind) {  // markers without a length
                offset += 2
                continue
            }
            let length = be16(marker, 2)
            guard length >= 2 else { return nil }
            switch kind {
            case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                let frame = read(offset + 4, 5)
                guard frame.count == 5 else { return nil }
                let height = be16(frame, 1)
                let width = be16(frame, 3)
                return swapsSides
                    ? ImageDimensions(width: height, height: width) : ImageDimensions(width: width, height: height)
            case 0xE1:
                if let orientation = exifOrientation(read(offset + 4, min(length - 2, 65_533))) {
                    // 5–8 turn the image a quarter: browsers draw it turned (`image-orientation: from-image`).
                    swapsSides = (5...8).contains(orientation)
                }
            case 0xD9, 0xDA:  // end of image, start of scan: no frame header before them
                return nil
            default:
                break
            }
            offset += 2 + length
        }
        return nil
    }

    /// The orientation tag (0x0112) of an APP1 segment's EXIF data, if it has one.
    static func exifOrientation(_ segment: [UInt8]) -> Int? {
        guard segment.count >= 14, segment.starts(with: Array("Exif".utf8) + [0, 0]) else { return nil }
        let tiff = Array(segment[6...])
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return little ? le16(tiff, at) : be16(tiff, at)
        }
        func u32(_ at: Int) -> Int? {
            guard at >= 0, at + 4 <= tiff.count else { return nil }
            return little ? le16(tiff, at) | le16(tiff, at + 2) << 16 : be32(tiff, at)
        }
        guard let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<min(count, 1_000) {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            if tag == 0x0112 { return u16(at + 8) }
        }
        return nil
    }

    /// An SVG's root `width` and `height`, when both are absolute lengths in px (or unitless).
    private static func svg(_ bytes: [UInt8]) -> ImageDimensions? {
        guard let root = HTMLScanner.tokens(of: bytes).first(where: { $0.kind == .startTag }), root.name == "svg",
            let width = root.attribute("width").flatMap(pixels), let height = root.attribute("height").flatMap(pixels)
        else { return nil }
        return ImageDimensions(width: Int(width.rounded()), height: Int(height.rounded()))
    }

    /// A length in px: `120`, `120px`, `120.5`; `nil` for percentages, other units or garbage.
    private static func pixels(_ value: String) -> Double? {
        var number = value.trimmingCharacters(in: .whitespaces)
        if number.hasSuffix("px") { number.removeLast(2) }
        guard let pixels = Double(number), pixels.isFinite, pixels > 0 else { return nil }
        return pixels
    }

    private static func le16(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    private static func be16(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
    private static func be32(_ bytes: [UInt8], _ at: Int) -> Int { be16(bytes, at) << 16 | be16(bytes, at + 2) }
}
