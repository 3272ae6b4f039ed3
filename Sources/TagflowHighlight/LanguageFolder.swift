internal import Foundation

/// Puts Tagflow's own language definitions, embedded in the binary, into a folder that
/// Source-highlight can read (it reads definitions, and the files they include, only from files).
///
/// The folder is in the user's cache (`$XDG_CACHE_HOME/tagflow` or `~/.cache/tagflow`), named by a
/// digest of the definitions, so each version writes it once and a copied binary needs nothing
/// beside it. Without a writable cache, a folder of the process's own in the temporary directory
/// is used and removed when the process exits.
enum LanguageFolder {
    /// The folder, or `nil` when none could be written (code in those languages is then plain).
    static let path: String? = {
        let digest = LanguageDefinitions.digest
        for base in cacheBases() {
            let folder = base + "/tagflow/highlight-\(digest)"
            if isComplete(folder) || write(to: folder) { return folder }
        }
        return temporaryFolder()
    }()

    private static func cacheBases() -> [String] {
        let environment = ProcessInfo.processInfo.environment
        var bases: [String] = []
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { bases.append(cache) }
        if let home = environment["HOME"], home.hasPrefix("/") { bases.append(home + "/.cache") }
        return bases
    }

    private static func isComplete(_ folder: String) -> Bool {
        LanguageDefinitions.files.allSatisfy { name, text in
            (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)) == text
        }
    }

    /// Writes the files into a fresh folder beside `folder` and renames it into place, so that
    /// another process never reads a half-written definition.
    private static func write(to folder: String) -> Bool {
        let manager = FileManager.default
        let parent = (folder as NSString).deletingLastPathComponent
        let staging = folder + ".\(ProcessInfo.processInfo.processIdentifier).tmp"
        do {
            try manager.createDirectory(atPath: parent, withIntermediateDirectories: true)
            try? manager.removeItem(atPath: staging)
            try manager.createDirectory(atPath: staging, withIntermediateDirectories: false)
            for (name, text) in LanguageDefinitions.files {
                try Data(text.utf8).write(to: URL(fileURLWithPath: staging + "/" + name))
            }
            if rename(staging, folder) != 0 {
                // Another process won the race (or an old, incomplete folder is in the way).
                try? manager.removeItem(atPath: staging)
                if !isComplete(folder) {
                    try? manager.removeItem(atPath: folder)
                    guard rename(staging, folder) == 0 else { return false }
                }
            }
            return isComplete(folder)
        } catch {
            try? manager.removeItem(atPath: staging)
            return false
        }
    }

    private static func temporaryFolder() -> String? {
        var template = Array((NSTemporaryDirectory() + "tagflow-highlight-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { return nil }
        let folder = String(cString: made)
        for (name, text) in LanguageDefinitions.files {
            guard (try? Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))) != nil else {
                return nil
            }
        }
        TemporaryFolders.removeAtExit(folder)
        return folder
    }
}

/// Folders removed when the process exits normally.
private enum TemporaryFolders {
    nonisolated(unsafe) private static var folders: [String] = []
    private static let registered: Void = { atexit { TemporaryFolders.removeAll() } }()

    static func removeAtExit(_ folder: String) {
        _ = registered
        folders.append(folder)
    }

    private static func removeAll() {
        for folder in folders { try? FileManager.default.removeItem(atPath: folder) }
    }
}

/// Tagflow's own language definitions, from `Languages/` (`scripts/embed-files.py` writes them
/// into `LanguageDefinitions+Files.swift`).
enum LanguageDefinitions {}
