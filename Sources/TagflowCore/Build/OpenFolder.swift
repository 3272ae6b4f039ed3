import Foundation

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

    /// Opens a folder.
    ///
    /// - Throws: `CocoaError` naming the folder, with the POSIX error underneath
    ///   (``ContentLoader/reason(_:)`` prints it).
    init(path: String) throws(CocoaError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CocoaError.posix(.fileReadUnknown, errno, path: path) }
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
