import Foundation
import PackagePlugin

/// `swift package --allow-network-connections local tagflow-serve`: previews a blog kept in a
/// Swift package with `tagflow serve`, at http://127.0.0.1:8000/ unless told otherwise.
///
/// The package folder is the working directory and the default site folder; the arguments go to
/// `tagflow serve` as is (`--port 0`, `--drafts`, `--open`). Ctrl-C stops it.
@main
struct TagflowServePlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        try TagflowTool.run(
            TagflowTool.build(with: packageManager), arguments: ["serve"] + arguments,
            in: context.package.directoryURL)
    }
}
