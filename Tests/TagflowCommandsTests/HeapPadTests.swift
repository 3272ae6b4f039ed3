import CTagflowSupport
import Testing

@testable import TagflowCommands

/// The executable's malloc setting (`TagflowCLI.growHeapsInLargeSteps`).
@Suite struct HeapPadTests {
    @Test(
        arguments: [
            ([:], 16 << 20),
            (["GLIBC_TUNABLES": "glibc.malloc.arena_max=2"], 16 << 20),
            (["GLIBC_TUNABLES": "glibc.malloc.arena_max=2:glibc.malloc.top_pad=1048576"], nil),
            (["MALLOC_TOP_PAD_": "0"], nil),
        ] as [([String: String], Int?)])
    func theUsersOwnSettingWins(environment: [String: String], pad: Int?) {
        #expect(TagflowCLI.heapTopPad(environment: environment) == pad)
    }

    /// glibc takes the setting (here its default, 128 KiB, which leaves the test process as it
    /// was); elsewhere there is none to take.
    @Test func mallocTakesThePad() {
        #if os(Linux)
            #expect(tagflow_set_heap_top_pad(128 * 1024) == 0)
        #else
            #expect(tagflow_set_heap_top_pad(128 * 1024) == -1)
        #endif
    }
}
