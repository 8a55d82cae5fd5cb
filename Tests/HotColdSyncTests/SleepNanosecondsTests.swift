import HotColdSync
import HotColdDaemonTesting
import Testing

/// The sync loop's sleeps: a configured interval or a server's figure never traps in
/// `UInt64(seconds * 1e9)`.
@Suite(.offCooperativePool) struct SleepNanosecondsTests {
    @Test func absurdWaitsAreClampedNotTrapped() {
        #expect(sleepNanoseconds(2.5) == 2_500_000_000)
        #expect(sleepNanoseconds(0) == 0)
        #expect(sleepNanoseconds(-1) == 0)
        #expect(sleepNanoseconds(.nan) == 0)
        #expect(sleepNanoseconds(1e300) == 30 * 86_400 * 1_000_000_000)
        #expect(sleepNanoseconds(.infinity) == 30 * 86_400 * 1_000_000_000)
    }
}
