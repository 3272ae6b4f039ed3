import Testing

@testable import TagflowLayout

/// Compile-only: the public value types stay `Sendable` (STYLE.md B8).
@Suite struct SendableTests {
    private func requireSendable<T: Sendable>(_: T.Type) {}

    @Test func publicTypesAreSendable() {
        requireSendable(LayoutUnit.self)
        requireSendable(LayoutSize.self)
        requireSendable(LayoutPoint.self)
        requireSendable(LayoutRect.self)
        requireSendable(ProposedSize.self)
        requireSendable(FlowLayout.self)
        requireSendable(FlowLayout.Cache.self)
        requireSendable(FlowItem.self)
        requireSendable(FlowLayoutResult.self)
        requireSendable(LayoutPlacement.self)
        requireSendable(FixedSizeSubview.self)
        requireSendable(LayoutDirection.self)
        requireSendable(FlowLayout.Justification.self)
        requireSendable(FlowLayout.Alignment.self)
    }
}
