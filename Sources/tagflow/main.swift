import TagflowCommands

// The executable stays thin: everything is in TagflowCommands, where tests can reach it.
// Before the first `await`, which starts the threads that run the command.
TagflowCLI.growHeapsInLargeSteps()
await TagflowCLI.main(Array(CommandLine.arguments.dropFirst()))
