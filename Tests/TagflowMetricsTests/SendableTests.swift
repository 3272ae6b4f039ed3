import TagflowMetrics
import Testing

/// Pins the public types' `Sendable` conformances (compile-time check).
@Suite struct SendableTests {
    func requireSendable<T: Sendable>(_: T.Type) {}

    @Test func publicTypesAreSendable() {
        requireSendable(MetricsTable.self)
        requireSendable(FontStack.self)
        requireSendable(TextMeasurement.self)
        requireSendable(FontError.self)
    }
}
