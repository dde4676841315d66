import Dispatch
import Foundation
import OpenAPIBench

// Usage: OpenAPIInstructions floor|httpMock|urlSession client|transport COUNT
// Makes the route, sends one request to warm it, then COUNT more. No top-level `await`: the requests run on a Task
// while the main thread waits on a semaphore, because valgrind 3.19 crashes under the `dispatch_main()` that an
// async main calls. Instructions per request: run it twice under callgrind with two counts and divide the difference.
let arguments = CommandLine.arguments
guard arguments.count == 4, let route = OpenAPIRoute(rawValue: arguments[1]), ["client", "transport"].contains(arguments[2]),
      let count = Int(arguments[3]) else {
    print("usage: OpenAPIInstructions floor|httpMock|urlSession client|transport COUNT")
    exit(2)
}
let viaClient = arguments[2] == "client"
let done = DispatchSemaphore(value: 0)
Task.detached {  // detached: top-level code is on the main actor, whose thread waits below
    do {
        let benchmark = try OpenAPIBenchmark(route: route)
        var total = 0
        for _ in 0...count { total += try await viaClient ? benchmark.callClient() : benchmark.callTransport() }
        print("\(route.rawValue) \(arguments[2]) \(count): \(total)")
    } catch {
        print("failed: \(error)")
        exit(1)
    }
    done.signal()
}
done.wait()
