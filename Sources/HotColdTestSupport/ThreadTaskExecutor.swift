import Foundation

/// A task executor with threads of its own, for tests whose work blocks or must not wait
/// behind blocked tests on the few threads of the shared cooperative pool:
/// `Task(executorPreference: executor) { … }` or `withTaskExecutorPreference` runs there,
/// child tasks and default actors included. One thread keeps a daemon's `ServiceGroup`
/// running whatever the other tests do; several let that many blocking tests progress at once
/// (``HotColdDaemonTesting``'s pool).
public final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var head = 0

    public init(name: String, threads: Int = 1) {
        for n in 0..<max(1, threads) {
            let t = Thread { [unowned self] in self.loop() }
            t.name = threads == 1 ? name : "\(name)-\(n)"
            t.start()
        }
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
            while head == jobs.count { condition.wait() }
            let job = jobs[head]
            head += 1
            // Taken jobs are dropped in batches, not one removeFirst each.
            if head > 1024, head * 2 > jobs.count { jobs.removeFirst(head); head = 0 }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
