import Foundation

/// Reads the build cache's records field by field, each field up to its separator.
struct RecordReader {
    let bytes: UnsafeRawBufferPointer
    private var position = 0

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { position >= bytes.count }

    /// The bytes not read yet.
    var rest: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[min(position, bytes.count)...]) }

    /// The bytes up to the next `separator`, which is passed over; `nil` when there is none.
    mutating func field(endingWith separator: UInt8) -> UnsafeRawBufferPointer? {
        let start = position
        while position < bytes.count, bytes[position] != separator { position += 1 }
        guard position < bytes.count else { return nil }
        position += 1
        return UnsafeRawBufferPointer(rebasing: bytes[start..<position - 1])
    }

    /// A decimal number, with a `-` for a negative one; `nil` for anything else.
    static func number(_ digits: UnsafeRawBufferPointer) -> Int? {
        var value = 0
        var negative = false
        for (offset, digit) in digits.enumerated() {
            if offset == 0, digit == UInt8(ascii: "-"), digits.count > 1 {
                negative = true
                continue
            }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit), value < Int.max / 10 - 10 else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        guard !digits.isEmpty else { return nil }
        return negative ? -value : value
    }
}

/// A file written beside its place a megabyte at a time, then renamed over it, so that a large
/// record is never held whole in memory nor seen half written.
final class StreamedFile {
    /// What is to be written next; ``writeIfFull()`` writes it out once it is large.
    var buffer: [UInt8] = []
    private let path: String
    private let temporary: String
    private var descriptor: Int32
    private var failed = false

    /// Starts a file that will replace the one at `path`; `nil` when it cannot be made.
    init?(replacing path: String) {
        self.path = path
        temporary = OutputWriter.temporaryPath(beside: path)
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
        buffer.reserveCapacity(Self.chunk + 4096)
    }

    deinit {
        if descriptor >= 0 {
            close(descriptor)
            unlink(temporary)
        }
    }

    private static let chunk = 1 << 20

    /// Writes the buffer out once it holds a megabyte.
    func writeIfFull() {
        if buffer.count >= Self.chunk { writeBuffer() }
    }

    private func writeBuffer() {
        if !failed, !buffer.withUnsafeBytes({ OutputWriter.writeAll($0, to: descriptor) }) { failed = true }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes the rest and renames the file over its place; false, with nothing replaced, when
    /// any write failed.
    func finish() -> Bool {
        writeBuffer()
        let closed = close(descriptor) == 0
        descriptor = -1
        guard !failed, closed, rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }
}
