import Foundation

/// A task executor with a thread of its own, for tests that run async services (a daemon's
/// `ServiceGroup`) while the tests around them block the few threads of the shared
/// cooperative pool: `Task(executorPreference: executor) { … }` runs there, child tasks and
/// default actors included, so the services keep running whatever the other tests do.
public final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    public init(name: String) {
        let t = Thread { [unowned self] in self.loop() }
        t.name = name
        t.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        condition.lock()
        jobs.append(unowned)
        condition.signal()
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
