#if CommandLineTool
import Foundation

/// Tells when files under some paths change, by comparing what they hold (names, sizes, modification dates) at
/// each look: portable, and a change caught between looks is never lost.
struct Watcher {
    let paths: [URL]

    /// What the paths hold now.
    func snapshot() -> [String: String] {
        var state: [String: String] = [:]
        let manager = FileManager.default
        for path in paths {
            state[path.path] = Self.stamp(path.path)
            guard let enumerator = manager.enumerator(at: path, includingPropertiesForKeys: [.contentModificationDateKey, .fileSizeKey],
                                                      options: [.skipsHiddenFiles]) else { continue }
            for case let url as URL in enumerator {
                state[url.path] = Self.stamp(url.path)
            }
        }
        return state
    }

    private static func stamp(_ path: String) -> String {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return "absent" }
        let date = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let size = (attributes[.size] as? NSNumber)?.intValue ?? -1
        return "\(date) \(size)"
    }

    /// Calls `changed` with the paths that differ each time what the paths hold differs from the look before (the
    /// first time, from `baseline`, taken before the paths were first read), every `interval` seconds, until the
    /// task is cancelled.
    func run(every interval: Double, from baseline: [String: String], changed: @Sendable (Set<String>) -> Void) async {
        var last = baseline
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
            let now = snapshot()
            if now != last {
                let paths = Set(now.keys).union(last.keys).filter { now[$0] != last[$0] }
                last = now
                changed(paths)
            }
        }
    }
}
#endif
