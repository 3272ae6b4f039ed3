import Foundation

/// Keeps two builds from writing one output folder at the same time.
///
/// An update in place racing a full build of the same folder would leave a mix of both, and the
/// next build would call it up to date. The lock is an `flock` on a file beside the output
/// (`.NAME.tagflow-lock` in its parent folder, as the output itself is swapped by renaming): the
/// kernel releases it when the process ends however it ends, so a killed build never leaves a
/// stale lock, only a file that the next build takes over. The file holds the owner's process
/// ID, for the message, and is removed when the build is done.
final class OutputLock: Sendable {
    private let descriptor: Int32
    private let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// Removes the file while still holding the lock, so no other build can hold a lock on a
    /// file that is gone (``acquire(for:)`` checks that its locked file is still the one there).
    deinit {
        unlink(path)
        close(descriptor)
    }

    /// The lock file's path for an output folder.
    ///
    /// It is the folder the build writes, through a symbolic link (`_site` → `/srv/www`), that
    /// is locked; a mount point's lock is inside it, as its parent may not be writable.
    static func path(for output: URL) -> String {
        let folder = OutputWriter.followingLinks(output.standardizedFileURL)
        let name = ".\(folder.lastPathComponent).tagflow-lock"
        if OutputWriter.isMountPoint(folder) { return folder.path + "/" + name }
        return folder.deletingLastPathComponent().path + "/" + name
    }

    /// Takes the lock of `output`, making its parent folder if needed.
    ///
    /// - Throws: ``BuildFailure`` when another build holds it, or the lock file cannot be made.
    static func acquire(for output: URL) throws(BuildFailure) -> OutputLock {
        let lockPath = path(for: output)
        try? FileManager.default.createDirectory(
            at: URL(fileURLWithPath: lockPath).deletingLastPathComponent(), withIntermediateDirectories: true)
        while true {
            let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                let reason = String(cString: strerror(errno))
                throw failure(output, "cannot make the lock file \(lockPath): \(reason)", hint: nil)
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                let owner = (try? String(contentsOfFile: lockPath, encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                close(descriptor)
                throw failure(
                    output,
                    "another Tagflow build is writing this folder" + (owner.map { " (process \($0))" } ?? ""),
                    hint: "wait for it to finish, or build into another --output")
            }
            // The build that held it may have removed the file between our open and our lock.
            var locked = stat()
            var current = stat()
            guard fstat(descriptor, &locked) == 0, stat(lockPath, &current) == 0, locked.st_ino == current.st_ino,
                locked.st_dev == current.st_dev
            else {
                close(descriptor)
                continue
            }
            let pid = Array("\(getpid())\n".utf8)
            _ = ftruncate(descriptor, 0)
            _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
            return OutputLock(descriptor: descriptor, path: lockPath)
        }
    }

    private static func failure(_ output: URL, _ message: String, hint: String?) -> BuildFailure {
        BuildFailure(diagnostics: [
            Diagnostic(
                .error,
                TagflowError(location: SourceLocation(path: output.path), step: "output", message: message, hint: hint))
        ])
    }
}
