public import ArgumentParser
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
            MetricsCommand.self, MeasureCommand.self, ChipsCommand.self,
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

    /// Runs `tagflow` with `arguments` (without the program name) and exits with its status.
    ///
    /// The process exits on the thread where the command finished. Top-level code in `main.swift`
    /// runs on the main actor, and an `exit` there waited for a hop back to it: on Linux a new
    /// thread for the main queue, which started only when a core was free. At the end of a build
    /// neither is (the last pages are written while the model is freed), and a profile of a
    /// 1 000-post build on disk showed the hop taking 4 of its 120 ms.
    ///
    /// Not isolated to an actor, so it runs on the global executor (the package does not adopt
    /// `NonisolatedNonsendingByDefault`; with it, this would need `@concurrent`, which Swift 6.1
    /// lacks).
    public static func main(_ arguments: [String]) async -> Never {
        exit(await run(arguments))
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
                return usageErrorStatus
            }
            if !message.isEmpty { Console.error(message) }
            return code.rawValue
        }
    }
}
