#if CommandLineTool
#if canImport(Glibc)
import Glibc
#endif

/// How the `httpmock` process asks its allocator for memory.
enum ProcessMemory {
    /// glibc grows each thread's heap by the few pages a request for memory needs, with one `mprotect` call each
    /// time: loading a folder of 10,000 mapping files on two cores made some 4,500 of them, a few milliseconds of
    /// its start. Growing by 16 MB at a time (`mallopt(M_TOP_PAD, …)`) makes some 60; pages are still touched only
    /// when used. `mallopt` is looked up by name, as Swift's Glibc module leaves out `malloc.h`; where there is
    /// none (another C library), nothing changes.
    static func growInLargerSteps() {
        #if canImport(Glibc)
        typealias MallocOption = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: MallocOption.self)
        let topPad: Int32 = -2  // M_TOP_PAD in glibc's malloc.h
        _ = mallopt(topPad, 16 << 20)
        #endif
    }
}
#endif
