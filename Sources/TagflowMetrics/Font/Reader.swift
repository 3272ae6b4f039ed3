/// A bounds-checked big-endian cursor over the bytes of one font table.
///
/// Every read checks the bounds of the table it was made for and throws a ``FontError``
/// naming the table and the absolute byte offset in the file. The reader never copies the
/// bytes: it holds the file's array (copy-on-write) and an index into it.
struct Reader {
    /// The whole file.
    let bytes: [UInt8]
    /// The tag of the table being read, for error messages.
    let tag: String
    /// The first byte of the readable range (absolute offset in `bytes`).
    let start: Int
    /// One past the last byte of the readable range (absolute offset in `bytes`).
    let end: Int
    /// The next byte to read (absolute offset in `bytes`).
    var position: Int

    /// Makes a reader over `length` bytes of `bytes` starting at `offset`, checked against the file size.
    init(_ bytes: [UInt8], tag: String, offset: Int = 0, length: Int? = nil) throws(FontError) {
        let length = length ?? (bytes.count - offset)
        guard offset >= 0, length >= 0, offset <= bytes.count, length <= bytes.count - offset else {
            throw FontError(tag: tag, offset: offset, reason: "table of \(length) bytes does not fit in the file")
        }
        self.bytes = bytes
        self.tag = tag
        self.start = offset
        self.end = offset + length
        self.position = offset
    }

    private init(bytes: [UInt8], tag: String, start: Int, end: Int) {
        self.bytes = bytes
        self.tag = tag
        self.start = start
        self.end = end
        self.position = start
    }

    /// Makes an error at the current position.
    func error(_ reason: String, at offset: Int? = nil) -> FontError {
        FontError(tag: tag, offset: offset ?? position, reason: reason)
    }

    /// A reader over the same table starting at `relative` bytes from the table start.
    func at(_ relative: Int) throws(FontError) -> Reader {
        guard relative >= 0, relative <= end - start else {
            throw error("offset \(relative) is outside the table", at: start)
        }
        var copy = self
        copy.position = start + relative
        return copy
    }

    /// A reader whose table starts at `relative` bytes from this reader's table start
    /// (OpenType subtables count their offsets from their own start).
    func subtable(at relative: Int) throws(FontError) -> Reader {
        guard relative >= 0, relative <= end - start else {
            throw error("subtable offset \(relative) is outside the table", at: start)
        }
        return Reader(bytes: bytes, tag: tag, start: start + relative, end: end)
    }

    /// A reader whose table starts at the current position.
    var here: Reader {
        Reader(bytes: bytes, tag: tag, start: position, end: end)
    }

    /// Moves the position by `count` bytes.
    mutating func skip(_ count: Int) throws(FontError) {
        guard count >= 0, count <= end - position else { throw error("truncated: cannot skip \(count) bytes") }
        position += count
    }

    /// Checks that `count` more bytes can be read.
    func require(_ count: Int) throws(FontError) {
        guard count >= 0, count <= end - position else { throw error("truncated: \(count) bytes needed") }
    }

    /// Reads one unsigned byte.
    mutating func u8() throws(FontError) -> UInt8 {
        try require(1)
        defer { position += 1 }
        return bytes[position]
    }

    /// Reads a big-endian `uint16`.
    mutating func u16() throws(FontError) -> UInt16 {
        try require(2)
        defer { position += 2 }
        return UInt16(bytes[position]) << 8 | UInt16(bytes[position + 1])
    }

    /// Reads a big-endian `int16`.
    mutating func i16() throws(FontError) -> Int16 {
        Int16(bitPattern: try u16())
    }

    /// Reads a big-endian `uint32`.
    mutating func u32() throws(FontError) -> UInt32 {
        try require(4)
        defer { position += 4 }
        return UInt32(bytes[position]) << 24 | UInt32(bytes[position + 1]) << 16
            | UInt32(bytes[position + 2]) << 8 | UInt32(bytes[position + 3])
    }

    /// Reads a big-endian 24-bit unsigned integer.
    mutating func u24() throws(FontError) -> UInt32 {
        try require(3)
        defer { position += 3 }
        return UInt32(bytes[position]) << 16 | UInt32(bytes[position + 1]) << 8 | UInt32(bytes[position + 2])
    }

    /// Reads a four-character tag.
    mutating func tag4() throws(FontError) -> String {
        let value = try u32()
        return Reader.tagString(value)
    }

    /// Reads `count` big-endian `uint16` values.
    mutating func u16Array(_ count: Int) throws(FontError) -> [UInt16] {
        try require(count * 2)
        var out = [UInt16]()
        out.reserveCapacity(count)
        for _ in 0..<count { out.append(try u16()) }
        return out
    }

    /// Turns a 32-bit tag into its four characters.
    static func tagString(_ value: UInt32) -> String {
        var scalars = String.UnicodeScalarView()
        for shift in stride(from: 24, through: 0, by: -8) {
            let byte = UInt8(truncatingIfNeeded: value >> UInt32(shift))
            scalars.append(Unicode.Scalar(byte >= 0x20 && byte < 0x7F ? byte : 0x3F))
        }
        return String(scalars)
    }
}
