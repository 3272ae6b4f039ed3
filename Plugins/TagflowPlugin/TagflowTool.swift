import Foundation
import PackagePlugin

/// Builds the `tagflow` executable and runs it in a folder.
enum TagflowTool {
    /// Builds the `tagflow` product (debug) through SwiftPM and returns the executable.
    ///
    /// A plugin could name `tagflow` as a dependency and use `context.tool(named:)` instead, but
    /// then SwiftPM builds `tagflow` and everything under it a second time, as a host tool, in
    /// every `swift build` of this package. Asked for at run time, `tagflow` is built like any
    /// other product: once, and only when a plugin runs.
    ///
    /// - Throws: ``TagflowPluginError`` when the build fails.
    static func build(with packageManager: PackageManager) throws -> URL {
        var parameters = PackageManager.BuildParameters(configuration: .debug)
        parameters.echoLogs = true
        let result = try packageManager.build(.product("tagflow"), parameters: parameters)
        guard result.succeeded else {
            throw TagflowPluginError("could not build tagflow (the build log is above)")
        }
        guard let tool = result.builtArtifacts.first(where: { $0.kind == .executable }) else {
            throw TagflowPluginError("building tagflow gave no executable")
        }
        return tool.url
    }

    /// Runs `tagflow` with `arguments` in `folder`, its output going where the plugin's goes.
    ///
    /// - Throws: ``TagflowPluginError`` when it cannot start or exits with a non-zero status.
    static func run(_ tool: URL, arguments: [String], in folder: URL) throws {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        process.currentDirectoryURL = folder
        do {
            try process.run()
        } catch {
            throw TagflowPluginError("could not start \(tool.path): \(error)")
        }
        // The tool runs in a process group of its own, out of reach of Ctrl-C, and SwiftPM stops
        // a plugin with SIGINT, then SIGTERM: pass them on, so `tagflow serve` stops (and removes
        // its temporary folder) with the plugin rather than living on. Set up after the launch,
        // as an ignored signal would stay ignored in the tool.
        let pid = process.processIdentifier
        let forwarders = [SIGINT, SIGTERM, SIGHUP].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { kill(pid, signalNumber) }
            source.resume()
            return source
        }
        defer { for forwarder in forwarders { forwarder.cancel() } }
        process.waitUntilExit()
        let command = (["tagflow"] + arguments.prefix(1)).joined(separator: " ")
        switch (process.terminationReason, process.terminationStatus) {
        case (.exit, 0):
            return
        case (.exit, 1):
            throw TagflowPluginError("\(command) failed: the site has errors (listed above)")
        case (.exit, 2):
            throw TagflowPluginError(
                "\(command) failed: bad usage (said above; put --help after the command for its options)")
        case (.exit, let status):
            throw TagflowPluginError("\(command) failed with exit status \(status)")
        case (.uncaughtSignal, let signal):
            throw TagflowPluginError("\(command) was stopped by signal \(signal)")
        @unknown default:
            throw TagflowPluginError("\(command) failed")
        }
    }
}

/// Why the plugin failed, printed by SwiftPM as `error: …`.
struct TagflowPluginError: Error, CustomStringConvertible {
    /// What went wrong.
    var description: String

    init(_ description: String) { self.description = description }
}
