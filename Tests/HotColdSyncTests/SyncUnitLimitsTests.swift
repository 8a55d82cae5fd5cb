import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// `systemd/hotcold-sync.service` walls the service's memory and CPU behind the client's own
/// caps: above what a sync needs (HostileServerTests holds it under 64 MB), below what would
/// hurt the machine. (`systemd-analyze verify` of the unit is UnitFileTests'.)
@Suite(.offCooperativePool) struct SyncUnitLimitsTests {
    func setting(_ key: String) throws -> String {
        let text = try String(contentsOf: TestData.repo("systemd/hotcold-sync.service"), encoding: .utf8)
        let line = try #require(text.split(separator: "\n").last { $0.hasPrefix(key + "=") }, "no \(key)=")
        return String(line.dropFirst(key.count + 1))
    }

    @Test func memoryAndCPUAreWalled() throws {
        let memory = try setting("MemoryMax")
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        let bytes = try #require(memory.last.flatMap { units[$0] }.flatMap { u in Int(memory.dropLast()).map { $0 * u } },
                                 "MemoryMax=\(memory) is not a size")
        #expect(bytes > 64 << 20 && bytes <= 256 << 20, "MemoryMax=\(memory)")
        #expect(try setting("MemorySwapMax") == "0", "no swapping past the wall")
        let quota = try setting("CPUQuota")
        let percent = try #require(quota.hasSuffix("%") ? Int(quota.dropLast()) : nil, "CPUQuota=\(quota)")
        #expect(percent > 0 && percent <= 100, "CPUQuota=\(quota)")
    }
}
