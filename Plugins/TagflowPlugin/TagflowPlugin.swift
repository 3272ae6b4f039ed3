import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory tagflow build`: runs the `tagflow` command
/// line on a blog kept in a Swift package, with no separate install.
///
/// The package folder is the working directory, so it is the default site folder (`site.yml`,
/// `posts/`… beside `Package.swift`) and relative paths in the arguments start there. Every
/// argument after the verb goes to `tagflow` as is: `tagflow build --drafts`, `tagflow check
/// --strict`, `tagflow new post "Hello"`. `tagflow serve` needs network access, which SwiftPM
/// asks for on every run of a plugin that declares it, so it has its own verb, `tagflow-serve`.
@main
struct TagflowPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        if arguments.first == "serve" {
            let command = ["swift package --allow-network-connections local tagflow-serve"] + arguments.dropFirst()
            throw TagflowPluginError(
                "the preview server has a verb of its own, as it listens on a local port: "
                    + command.joined(separator: " "))
        }
        try TagflowTool.run(
            TagflowTool.build(with: packageManager), arguments: arguments, in: context.package.directoryURL)
    }
}
