import HotColdProtocol
import HotColdDaemonTesting
import Testing

/// The hand-written JSON line builder (the bridge's documents, the log's gap markers): numbers
/// at the edge of the range stay finite JSON, never a trap.
@Suite(.offCooperativePool) struct JSONLineTests {
    @Test func jsonNumbersNearTheTopOfTheRangeStayFinite() {
        #expect(JSONLine.number(1.7e308, decimals: 3) == "1.7e+308")
        #expect(JSONLine.number(-1.7e308, decimals: 1) == "-1.7e+308")
        #expect(JSONLine.number(1e300, decimals: 0) == "1e+300")
        #expect(JSONLine.number(12.345, decimals: 1) == "12.3")
    }
}
