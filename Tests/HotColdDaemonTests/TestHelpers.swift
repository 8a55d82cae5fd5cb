import Foundation
import Glibc

struct TestError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// Waits for a condition with a generous deadline (a functional bound, not a timing check).
func eventually(_ timeout: Duration = .seconds(30), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(1000)
    }
    return condition()
}
