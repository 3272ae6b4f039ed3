import Foundation
import Synchronization
import TagflowConcurrency

#if canImport(Glibc)
    import Glibc
#endif

/// The kernel's change notices for a site's folders (Linux `inotify`), so that the watcher learns
/// of a save at once and looks only at the paths that changed, instead of reading every file's
/// stamp several times a second.
///
/// ```swift
/// let events = FileEvents()                   // nil where inotify is missing
/// events?.watch(folder: "/site/posts", as: "posts")
/// switch try await events?.next(timeout: .seconds(2)) {
/// case .paths(let paths)?: …   // ["posts/a.md"]
/// case .lost?, .none?, nil: …   // look at every file
/// }
/// ```
///
/// Folders are watched one by one (inotify is not recursive); the watcher adds each folder it walks.
final class FileEvents: Sendable {
    /// What a wait for notices brought.
    enum News: Sendable {
        /// These site-relative paths (files or folders) changed.
        case paths(Set<String>)
        /// The kernel dropped notices: anything may have changed.
        case lost
        /// Nothing happened before the timeout.
        case none
    }

    #if canImport(Glibc)
        private let descriptor: Int32
        /// Watch descriptor → the site-relative folders it stands for (a folder reached through a
        /// symbolic link has two names).
        private let folders = Locked<[Int32: Set<String>]>([:])
        /// Folders the kernel would not watch (the per-user limit, `fs.inotify.max_user_watches`).
        private let unwatchedFolders = Atomic<Int>(0)

        /// Whether every folder asked for is watched; if not, changes there are found only by
        /// looking at every file.
        var watchesEverything: Bool { unwatchedFolders.load(ordering: .relaxed) == 0 }

        init?() {
            descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard descriptor >= 0 else { return nil }
        }

        deinit { close(descriptor) }

        /// Starts watching a folder (again: harmless).
        func watch(folder path: String, as relative: String) {
            let mask =
                IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB
                | IN_DELETE_SELF | IN_MOVE_SELF
            let watch = inotify_add_watch(descriptor, path, UInt32(mask))
            guard watch >= 0 else {
                unwatchedFolders.add(1, ordering: .relaxed)
                return
            }
            folders.withLock { _ = $0[watch, default: []].insert(relative) }
        }

        /// Waits up to `timeout` for changes.
        func next(timeout: Duration) async throws -> News {
            let deadline = ContinuousClock.now + timeout
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                guard let paths = read(into: &buffer) else { return .lost }
                if !paths.isEmpty { return .paths(paths) }
                if ContinuousClock.now >= deadline { return .none }
                // A short sleep between non-blocking reads: cheap, cancellable, and quick enough
                // for a preview.
                try await Task.sleep(for: .milliseconds(10))
            }
        }

        /// Reads the waiting notices: the paths they touched, an empty set for none, `nil` when
        /// some were lost.
        private func read(into buffer: inout [UInt8]) -> Set<String>? {
            var paths = Set<String>()
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    return paths  // EAGAIN: no more for now
                }
                guard count > 0 else { return paths }
                var offset = 0
                // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[]; }
                while offset + 16 <= count {
                    let (watch, mask, length) = buffer.withUnsafeBytes { bytes in
                        (
                            bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                            bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                            Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                        )
                    }
                    if mask & UInt32(IN_Q_OVERFLOW) != 0 { return nil }
                    let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                    let name = String(decoding: nameBytes, as: UTF8.self)
                    if mask & UInt32(IN_IGNORED) != 0 {
                        folders.withLock { _ = $0.removeValue(forKey: watch) }
                    }
                    for folder in folders.withLock({ $0[watch] ?? [] }) {
                        if name.isEmpty {
                            paths.insert(folder)
                        } else {
                            paths.insert(folder.isEmpty ? name : "\(folder)/\(name)")
                        }
                    }
                    offset += 16 + length
                }
            }
        }
    #else
        init?() { return nil }
        var watchesEverything: Bool { false }
        func watch(folder path: String, as relative: String) {}
        func next(timeout: Duration) async throws -> News { .none }
    #endif
}
