#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder held open, so that paths inside it are looked up from it (`openat`, `mkdirat`).
///
/// The kernel then walks only the part of each path inside the folder, not the folders above it
/// again for every file: a build reads each post and makes each page and its folder, and a path
/// to them is often eight folders deep.
final class OpenFolder: Sendable {
    /// The folder's path.
    let path: String
    /// The open folder.
    let descriptor: Int32

    /// Opens a folder; `nil` when it cannot be opened (callers then use whole paths, and report
    /// what fails there).
    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
