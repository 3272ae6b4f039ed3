import TagflowServer

/// Compile-only: these types cross tasks (the rebuild loop, request handlers), so they must stay `Sendable`.
func requireSendable<T: Sendable>(_: T.Type) {}

func pinSendableConformances() {
    requireSendable(PreviewServer.self)
    requireSendable(PreviewServer.Configuration.self)
    requireSendable(PreviewServer.Event.self)
    requireSendable(PreviewState.self)
    requireSendable(PreviewState.Snapshot.self)
    requireSendable(PreviewBuilder.self)
    requireSendable(SafeFileSystem.self)
    requireSendable(RequestPath.self)
    requireSendable(SiteWatcher.self)
    requireSendable(SiteSnapshot.self)
    requireSendable(ChangeSet.self)
}
