import CTagflowSupport
import Testing

@testable import TagflowCommands

/// The executable's malloc settings (`TagflowCLI.growHeapsInLargeSteps`).
@Suite struct HeapPadTests {
    @Test(
        arguments: [
            ([:], true),
            (["GLIBC_TUNABLES": "glibc.malloc.arena_max=2"], true),
            (["GLIBC_TUNABLES": "glibc.malloc.arena_max=2:glibc.malloc.top_pad=1048576"], false),
            (["GLIBC_TUNABLES": "glibc.malloc.mmap_threshold=1048576"], false),
            (["MALLOC_TOP_PAD_": "0"], false),
            (["MALLOC_MMAP_THRESHOLD_": "131072"], false),
        ] as [([String: String], Bool)])
    func theUsersOwnSettingWins(environment: [String: String], isSet: Bool) {
        let steps = TagflowCLI.mallocSteps(environment: { environment[$0] })
        #expect((steps != nil) == isSet)
        if let steps {
            #expect(steps.topPad == 64 << 20 && steps.mmapThreshold == 32 << 20)
        }
    }

    /// glibc takes the settings (here its defaults, 128 KiB each, which leave the test process
    /// much as it was); elsewhere, and under a sanitizer's malloc, there are none to take.
    @Test func mallocTakesTheSettings() {
        #if os(Linux)
            // Sanitized builds (scripts/test.sh runs the suite under AddressSanitizer too) are
            // told apart by the C target, compiled with the same sanitizer.
            let expected: Int32 = tagflow_is_sanitized() == 1 ? -1 : 0
        #else
            let expected: Int32 = -1
        #endif
        #expect(tagflow_set_malloc_steps(128 * 1024, 128 * 1024) == expected)
    }
}
