import Foundation
import TagflowConcurrency
package import TagflowMarkdown

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A temporary file that holds the HTML of a site's post and page bodies from the time they are
/// read until their pages are rendered.
///
/// Every page needs the whole site before it can be rendered, so a build holds every post at
/// once; their bodies were most of a large build's memory (docs/performance.md, "Memory"). In
/// this file they take disk (or the page cache) instead. The file is unlinked as soon as it is
/// made, so nothing is left behind when the process ends, however it ends.
package final class BodyStore: Sendable {
    private let descriptor: Int32
    /// Where the next text goes.
    private let end = Locked<Int>(0)

    /// A store in `folder`, or `nil` when no file can be made there; the bodies then stay in
    /// memory.
    ///
    /// - Parameter folder: The folder of the file: the system's temporary folder (`TMPDIR`) unless
    ///   given.
    package init?(folder: String = NSTemporaryDirectory()) {
        var template = Array((folder.hasSuffix("/") ? folder : folder + "/").utf8CString.dropLast())
        template += Array("tagflow-bodies.XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } }
        guard let descriptor, descriptor >= 0 else { return nil }
        // Close-on-exec: a program `tagflow serve` starts (a browser) must not keep the file alive.
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { buffer in _ = buffer.baseAddress.map { unlink($0) } }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Writes a text to the file; `nil` when it could not be written (the disk is full), and the
    /// text then stays in memory.
    fileprivate func keep(_ text: String) -> (offset: Int, count: Int)? {
        var text = text
        return text.withUTF8 { bytes -> (offset: Int, count: Int)? in
            guard let start = bytes.baseAddress else { return nil }
            let offset = end.withLock { end in
                defer { end += bytes.count }
                return end
            }
            var written = 0
            while written < bytes.count {
                let result = pwrite(
                    descriptor, start + written, bytes.count - written, off_t(offset + written))
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else { return nil }
                written += result
            }
            return (offset, bytes.count)
        }
    }

    /// The text at `offset`.
    ///
    /// - Throws: The system's error when the file cannot be read.
    fileprivate func text(at offset: Int, count: Int) throws(BodyStoreError) -> String {
        var failure: Int32?
        let text = String(unsafeUninitializedCapacity: count) { buffer in
            guard let start = buffer.baseAddress else { return 0 }
            var read = 0
            while read < count {
                let result = pread(descriptor, start + read, count - read, off_t(offset + read))
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else {
                    failure = result < 0 ? errno : EIO
                    return 0
                }
                read += result
            }
            return count
        }
        if let failure { throw BodyStoreError(code: failure) }
        return text
    }
}

/// A body could not be read back from its ``BodyStore``.
package struct BodyStoreError: Error, CustomStringConvertible {
    /// The system's error number.
    package var code: Int32

    package var description: String {
        "could not read the body's HTML back from Tagflow's temporary file: \(String(cString: strerror(code)))"
    }
}

/// The HTML of a post's or page's body: in a ``BodyStore`` when the build has one, else in memory.
package struct BodyHTML: Sendable, Hashable {
    private enum Place: Sendable {
        case memory(String)
        case file(BodyStore, offset: Int, count: Int)
    }

    private let place: Place

    /// The HTML, kept in `store` when there is one and it takes the text.
    package init(_ html: String, keptIn store: BodyStore? = nil) {
        if let store, !html.isEmpty, let kept = store.keep(html) {
            place = .file(store, offset: kept.offset, count: kept.count)
        } else {
            place = .memory(html)
        }
    }

    /// The HTML, read back from the store if it is there.
    ///
    /// - Throws: ``BodyStoreError`` when the store's file cannot be read.
    package func text() throws(BodyStoreError) -> String {
        switch place {
        case .memory(let html): html
        case .file(let store, let offset, let count): try store.text(at: offset, count: count)
        }
    }

    /// Whether the HTML is in a store's file rather than in memory.
    package var isKeptInFile: Bool {
        if case .file = place { return true }
        return false
    }

    /// Whether the HTML is empty.
    package var isEmpty: Bool {
        switch place {
        case .memory(let html): html.isEmpty
        case .file(_, _, let count): count == 0
        }
    }

    /// Equal HTML, wherever it is kept (a text that cannot be read back is equal to none).
    package static func == (lhs: BodyHTML, rhs: BodyHTML) -> Bool {
        switch (lhs.place, rhs.place) {
        case (.file(let left, let leftOffset, let leftCount), .file(let right, let rightOffset, let rightCount))
        where left === right && leftOffset == rightOffset:
            return leftCount == rightCount
        default:
            guard let left = try? lhs.text(), let right = try? rhs.text() else { return false }
            return left == right
        }
    }

    package func hash(into hasher: inout Hasher) { hasher.combine(try? text()) }
}

/// A post's or page's body as the site keeps it: its HTML, and what its pages need to know of it.
///
/// The summary and description are made from the Markdown's first paragraph and excerpt before
/// this is made (``FrontMatterReader``), so those are not kept.
package struct ContentBody: Sendable, Hashable {
    package var html: BodyHTML
    /// The headings, in document order, with the `id` each was given.
    package var headings: [MarkdownHeading]
    /// The number of words of text (code included).
    package var wordCount: Int
    /// Fenced blocks handed to plugins, in order.
    package var embeds: [MarkdownEmbed]
    /// Links to other Markdown files, in order.
    package var fileLinks: [MarkdownFileLink]

    /// A rendered document's body, its HTML kept in `store` when there is one.
    package init(_ rendered: RenderedMarkdown, keptIn store: BodyStore? = nil) {
        html = BodyHTML(rendered.html, keptIn: store)
        headings = rendered.headings
        wordCount = rendered.wordCount
        embeds = rendered.embeds
        fileLinks = rendered.fileLinks
    }
}
