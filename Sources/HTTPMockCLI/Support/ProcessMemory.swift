#if CommandLineTool
#if canImport(Glibc)
import Glibc
#endif

/// How the `httpmock` process asks its allocator for memory.
enum ProcessMemory {
    /// glibc grows each thread's heap by the few pages a request for memory needs, with one `mprotect` call each
    /// time: loading a folder of 10,000 mapping files on two cores made some 4,500 of them, a few milliseconds of
    /// its start. Growing by 16 MB at a time (`M_TOP_PAD`) makes some 80; pages are still touched only when used.
    /// Setting it stops glibc raising its `mmap` threshold as large blocks are freed, which would have every large
    /// body of a long-running server mapped and unmapped again: the threshold is set where glibc's raising ends
    /// (32 MB on 64-bit systems), as a server that served one large body would have it. `mallopt` is looked up by
    /// name, as Swift's Glibc module leaves out `malloc.h`; with another C library, nothing changes.
    static func growInLargerSteps() {
        #if canImport(Glibc)
        typealias MallocOption = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: MallocOption.self)
        // M_MMAP_THRESHOLD and M_TOP_PAD in glibc's malloc.h.
        let (mmapThreshold, topPad): (Int32, Int32) = (-3, -2)
        _ = mallopt(mmapThreshold, 32 << 20)
        _ = mallopt(topPad, 16 << 20)
        #endif
    }
}
#endif
