#if CommandLineTool
import Foundation

/// How this process's heap grows while a large folder is read (Linux, glibc).
enum HeapGrowth {
    /// glibc grows the heap of each thread's arena by the pages one allocation needs, one `mprotect` call each:
    /// about 5,500 calls while 10,000 WireMock mapping files are read on two cores. Asked to grow it by 16 MiB at a
    /// time, it makes a few dozen. Only address space is reserved ahead: pages are still given as they are touched
    /// (the resident size after that load grows by about 1 MB). A process-wide setting, so the command sets it, never
    /// the library; elsewhere (macOS, musl) nothing is done.
    static func reserveAhead() {
        #if os(Linux)
        // `mallopt` is not in the Glibc module's view of <malloc.h>: looked up by name, as the C library exports it.
        typealias MallocOption = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let topPad: Int32 = -2  // M_TOP_PAD in <malloc.h>
        _ = unsafeBitCast(symbol, to: MallocOption.self)(topPad, 16 << 20)
        #endif
    }
}
#endif
