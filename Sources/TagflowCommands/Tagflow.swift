public import ArgumentParser
internal import CTagflowSupport
import Foundation
import TagflowCore

/// The `tagflow` command.
public struct Tagflow: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "tagflow",
        abstract: "A static site generator for blogs with tags, laid out at build time.",
        version: TagflowVersion.current,
        subcommands: [
            BuildCommand.self, CheckCommand.self, ServeCommand.self, NewCommand.self, LayoutCommand.self,
            MetricsCommand.self, MeasureCommand.self, ChipsCommand.self, EnhanceCommand.self, ImportCommand.self,
        ],
        defaultSubcommand: nil
    )

    public init() {}
}

/// Runs `tagflow` with arguments and returns its exit status: 0 on success, 1 when the site has
/// errors, 2 on bad usage.
public enum TagflowCLI {
    /// Exit status for a site with errors.
    public static let siteErrorStatus: Int32 = 1
    /// Exit status for bad usage.
    public static let usageErrorStatus: Int32 = 2

    /// Asks glibc's malloc to make each thread's heap writable whole when it makes it.
    ///
    /// A heap is 64 MiB of address space, made writable a few pages at a time as it fills, each
    /// time with an `mprotect` that changes the mapping while the other threads take page faults
    /// in it. With `M_TOP_PAD` at 64 MiB a heap is writable from the start, which takes those
    /// `mprotect`s and most of those faults away and makes a build faster (docs/performance.md,
    /// "Heaps made writable whole"). Writable is not in memory: a page counts only once it is
    /// touched, and peak memory is the same. Setting the pad turns off glibc's own rise of the
    /// threshold above which a block is mapped by itself (from 128 KiB up to 32 MiB as large
    /// blocks are freed); without that rise a large build maps and unmaps many blocks and takes
    /// more page faults, so the threshold is set where the rise ends.
    ///
    /// Call it first thing, on the main thread: a heap made before keeps the defaults. Only the
    /// executable does this; a program using Tagflow's libraries keeps its own malloc settings,
    /// and a user's own setting of either (environment variables) is left as it is.
    ///
    /// - Returns: Whether malloc took the settings (not where it is not glibc's, or the user set them).
    @discardableResult
    public static func growHeapsInLargeSteps() -> Bool {
        // `getenv`, not `ProcessInfo.environment`: that makes a dictionary of the whole
        // environment (and, the first time, looks up `String: Hashable` through the runtime's
        // table of every conformance in the binary), all of it on the one core a build starts
        // on, before any other work can begin.
        let variable = { (name: String) in getenv(name).map { String(cString: $0) } }
        guard let steps = mallocSteps(environment: variable) else { return false }
        return tagflow_set_malloc_steps(Int32(steps.topPad), Int32(steps.mmapThreshold)) == 0
    }

    /// The malloc settings to ask for.
    ///
    /// - Parameter environment: The value of an environment variable, `nil` when it is not set.
    /// - Returns: The settings, or `nil` when the user chose either (`MALLOC_TOP_PAD_`,
    ///   `MALLOC_MMAP_THRESHOLD_`, or their names in `GLIBC_TUNABLES`).
    static func mallocSteps(environment: (String) -> String?) -> (topPad: Int, mmapThreshold: Int)? {
        if environment("MALLOC_TOP_PAD_") != nil || environment("MALLOC_MMAP_THRESHOLD_") != nil { return nil }
        let tunables = environment("GLIBC_TUNABLES") ?? ""
        if tunables.contains("glibc.malloc.top_pad=") || tunables.contains("glibc.malloc.mmap_threshold=") {
            return nil
        }
        return (topPad: 64 << 20, mmapThreshold: 32 << 20)
    }

    /// Parses `arguments` (without the program name), runs the command and reports errors.
    public static func run(_ arguments: [String]) async -> Int32 {
        // What failed, for the last line of a failure: `build failed`, `check failed`.
        var verb = "build"
        do {
            var command = try Tagflow.parseAsRoot(arguments)
            if command is CheckCommand { verb = "check" }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return 0
        } catch let failure as BuildFailure {
            Console.printDiagnostics(failure.diagnostics)
            let errors = failure.diagnostics.filter { $0.severity == .error }.count
            let warnings = failure.diagnostics.count - errors
            let counted =
                errors > 0
                ? "\(errors) error\(errors == 1 ? "" : "s")"
                : "\(warnings) warning\(warnings == 1 ? "" : "s") (--strict)"
            Console.error("\(verb) failed: \(counted)")
            return siteErrorStatus
        } catch let error as TagflowError {
            Console.printDiagnostics([Diagnostic(.error, error)])
            return siteErrorStatus
        } catch {
            let code = Tagflow.exitCode(for: error)
            let message = Tagflow.fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { print(message) }
                return 0
            }
            if code == .validationFailure {
                Console.standardError(message)
                if let typo = arguments.first, !typo.hasPrefix("-"),
                    let command = Suggestion.closest(
                        to: typo, in: Tagflow.configuration.subcommands.compactMap { $0.configuration.commandName })
                {
                    Console.standardError("Did you mean '\(command)'?")
                }
                return usageErrorStatus
            }
            if !message.isEmpty { Console.error(message) }
            return code.rawValue
        }
    }
}
