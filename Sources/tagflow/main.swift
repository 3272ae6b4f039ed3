import Foundation
import TagflowCommands

// The executable stays thin: everything is in TagflowCommands, where tests can reach it.
// Before the first `await`, which starts the threads that run the command.
TagflowCLI.growHeapsInLargeSteps()
// Back on the main thread, the process exits with the command's status.
exit(await TagflowCLI.run(Array(CommandLine.arguments.dropFirst())))
