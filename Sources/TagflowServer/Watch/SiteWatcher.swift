package import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files that changed between two looks at a site, as site-relative paths.
///
/// A rebuild gets the change set, so that a later version can rebuild only the pages a change affects.
package struct ChangeSet: Sendable, Hashable {
    /// Files that appeared.
    package var added: Set<String> = []
    /// Files whose contents, size or identity (an editor's save-by-rename) changed.
    package var modified: Set<String> = []
    /// Files that disappeared.
    package var removed: Set<String> = []

    /// Creates a change set.
    package init(added: Set<String> = [], modified: Set<String> = [], removed: Set<String> = []) {
        self.added = added
        self.modified = modified
        self.removed = removed
    }

    /// Whether nothing changed.
    package var isEmpty: Bool { added.isEmpty && modified.isEmpty && removed.isEmpty }

    /// Every path that changed, sorted.
    package var paths: [String] { (added.union(modified).union(removed)).sorted() }
}

/// What identifies one version of a file: its device and inode, size and modification time.
package struct FileStamp: Sendable, Hashable {
    /// The device and inode: a save-by-rename gives a new inode.
    package var device: UInt64
    /// The inode number.
    package var inode: UInt64
    /// The size in bytes.
    package var size: Int64
    /// The modification time in nanoseconds since 1970.
    package var modified: Int64
}

/// The files of a site at one moment.
package struct SiteSnapshot: Sendable, Equatable {
    /// Site-relative path → stamp.
    package var files: [String: FileStamp]

    /// The changes from `earlier` to this snapshot.
    package func changes(since earlier: SiteSnapshot) -> ChangeSet {
        var changes = ChangeSet()
        for (path, stamp) in files {
            if let old = earlier.files[path] {
                if old != stamp { changes.modified.insert(path) }
            } else {
                changes.added.insert(path)
            }
        }
        for path in earlier.files.keys where files[path] == nil { changes.removed.insert(path) }
        return changes
    }
}

/// Watches a site folder by polling: a snapshot of every file's inode, size and modification time.
///
/// ```swift
/// var watcher = SiteWatcher(root: site, ignoring: ["_site"])
/// var snapshot = watcher.snapshot()
/// let (changes, next) = try await watcher.nextChanges(after: snapshot)   // waits for a save, then for quiet
/// ```
///
/// Polling works the same on Linux and macOS, sees new folders at once, and handles what editors do: a
/// save-by-rename changes the inode, a deleted file disappears from the snapshot. Hidden files (`.git`,
/// `.post.md.swp`), editor backups (`post.md~`, `#post.md#`) and the ignored folders are skipped.
package struct SiteWatcher: Sendable {
    /// The site folder.
    package var root: URL
    /// Site-relative folders not to watch, such as the site's own output folder.
    package var ignoredFolders: Set<String>
    /// How often to look.
    package var interval: Duration
    /// How long the files must stay unchanged after a change before it is reported, so a burst of saves is one.
    package var quietPeriod: Duration
    /// The longest wait for quiet after the first change.
    package var maximumDelay: Duration
    /// The kernel's change notices, where there are any (Linux): with them the watcher waits
    /// without polling and then looks only at the paths that changed; every ``interval`` × 8 it
    /// still looks at every file, for file systems that send no notices.
    private let events: FileEvents?

    /// Creates a watcher.
    package init(
        root: URL, ignoring ignoredFolders: Set<String> = [], interval: Duration = .milliseconds(250),
        quietPeriod: Duration = .milliseconds(50), maximumDelay: Duration = .seconds(2),
        usesNotifications: Bool = true
    ) {
        self.root = root.standardizedFileURL
        self.ignoredFolders = ignoredFolders
        self.interval = interval
        self.quietPeriod = quietPeriod
        self.maximumDelay = maximumDelay
        events = usesNotifications ? FileEvents() : nil
    }

    /// Whether the kernel tells this watcher of changes (otherwise it polls).
    package var hasNotifications: Bool { events != nil }

    /// Every watched file now.
    ///
    /// Symbolic links are followed; a folder already seen (a link loop) is not read again.
    package func snapshot() -> SiteSnapshot {
        var files: [String: FileStamp] = [:]
        var visited = Set<FolderID>()
        walk(root.path, relative: "", visited: &visited, into: &files)
        return SiteSnapshot(files: files)
    }

    private struct FolderID: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    private func walk(
        _ path: String, relative: String, visited: inout Set<FolderID>, into files: inout [String: FileStamp]
    ) {
        var info = stat()
        guard stat(path, &info) == 0,
            visited.insert(FolderID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))).inserted
        else { return }
        // Watched before it is listed, so that a file made in between is not missed.
        events?.watch(folder: path, as: relative)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        for name in names where !Self.isIgnoredName(name) {
            let childRelative = relative.isEmpty ? name : "\(relative)/\(name)"
            if ignoredFolders.contains(childRelative) { continue }
            let childPath = "\(path)/\(name)"
            var info = stat()
            guard stat(childPath, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                walk(childPath, relative: childRelative, visited: &visited, into: &files)
            case S_IFREG:
                files[childRelative] = Self.stamp(info)
            default:
                continue
            }
        }
    }

    private static func stamp(_ info: stat) -> FileStamp {
        let time = info.modificationTime
        return FileStamp(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }

    /// `snapshot` with only `paths` looked at again: a file's stamp, a folder's whole tree, or
    /// their removal.
    func refreshed(_ snapshot: SiteSnapshot, paths: Set<String>) -> SiteSnapshot {
        var files = snapshot.files
        func removeTree(_ path: String) {
            files[path] = nil
            let prefix = path + "/"
            for key in files.keys where key.hasPrefix(prefix) { files[key] = nil }
        }
        for path in paths.sorted() where !path.isEmpty {
            if path.split(separator: "/").contains(where: { Self.isIgnoredName(String($0)) }) { continue }
            if ignoredFolders.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) { continue }
            let absolute = root.path + "/" + path
            var info = stat()
            guard stat(absolute, &info) == 0 else {
                removeTree(path)
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                files[path] = Self.stamp(info)
            case S_IFDIR:
                removeTree(path)
                var visited = Set<FolderID>()
                walk(absolute, relative: path, visited: &visited, into: &files)
            default:
                removeTree(path)
            }
        }
        return SiteSnapshot(files: files)
    }

    /// Whether a file or folder name is never part of a site: hidden files and editor leftovers.
    package static func isIgnoredName(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix("~") || name.hasPrefix("#") || name == "4913"
    }

    /// Waits until the files differ from `snapshot`, then until they stay the same for ``quietPeriod``.
    ///
    /// - Parameter snapshot: The files as last seen.
    /// - Returns: The changes since `snapshot`, and the snapshot they lead to.
    /// - Throws: `CancellationError` when the task is cancelled.
    package func nextChanges(after snapshot: SiteSnapshot) async throws -> (ChangeSet, SiteSnapshot) {
        // A file changed and changed back (or only ignored files changed): nothing to rebuild;
        // keep watching.
        var snapshot = snapshot
        while true {
            let latest =
                if let events { try await nextLook(after: snapshot, events: events) } else {
                    try await nextLook(after: snapshot)
                }
            let changes = latest.changes(since: snapshot)
            if !changes.isEmpty { return (changes, latest) }
            snapshot = latest
        }
    }

    /// Polls until the files differ from `snapshot` and then stay quiet; returns them then.
    private func nextLook(after snapshot: SiteSnapshot) async throws -> SiteSnapshot {
        var latest = snapshot
        while true {
            try await Task.sleep(for: interval)
            latest = self.snapshot()
            if latest != snapshot { break }
        }
        let deadline = ContinuousClock.now + maximumDelay
        while ContinuousClock.now < deadline {
            try await Task.sleep(for: quietPeriod)
            let next = self.snapshot()
            if next == latest { break }
            latest = next
        }
        return latest
    }

    /// Waits for the kernel's notices, then for quiet; returns the files then, looking again only
    /// at the paths the notices named.
    private func nextLook(after snapshot: SiteSnapshot, events: FileEvents) async throws -> SiteSnapshot {
        var touched = Set<String>()
        var looksAtEverything = false
        waiting: while true {
            // Past the watch limit, some folders send nothing: look at every file as often as
            // without notices.
            switch try await events.next(timeout: events.watchesEverything ? interval * 8 : interval) {
            case .paths(let paths):
                touched = paths
                break waiting
            case .lost:
                looksAtEverything = true
                break waiting
            case .none:
                // No notices for a while: make sure (some file systems send none).
                if self.snapshot() != snapshot {
                    looksAtEverything = true
                    break waiting
                }
            }
        }
        // Then until the files stay quiet, so that a burst of saves is one change.
        let deadline = ContinuousClock.now + maximumDelay
        quiet: while ContinuousClock.now < deadline {
            switch try await events.next(timeout: quietPeriod) {
            case .paths(let paths): touched.formUnion(paths)
            case .lost: looksAtEverything = true
            case .none: break quiet
            }
        }
        return looksAtEverything ? self.snapshot() : refreshed(snapshot, paths: touched)
    }
}
