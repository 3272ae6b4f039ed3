import Foundation
import TagflowCommands

// The executable stays thin: everything is in TagflowCommands, where tests can reach it.
exit(await TagflowCLI.run(Array(CommandLine.arguments.dropFirst())))
