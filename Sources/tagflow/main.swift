import TagflowCommands

// The executable stays thin: everything is in TagflowCommands, where tests can reach it.
await TagflowCLI.main(Array(CommandLine.arguments.dropFirst()))
