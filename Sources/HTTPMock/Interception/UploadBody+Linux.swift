#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking

/// On Linux an upload task's body (`upload(for:from:)`, `uploadTask(with:fromFile:)`) is in neither `httpBody`
/// nor `httpBodyStream`: only in the task's internal `knownBody`. Read it by reflection; if corelibs renames the
/// field, this returns `nil` and matching sees no body instead of crashing.
enum UploadBody {
    static func read(from task: URLSessionTask) -> Data? {
        var mirror: Mirror? = Mirror(reflecting: task)
        while let current = mirror {
            if let known = current.children.first(where: { $0.label == "knownBody" })?.value {
                return payload(known)
            }
            mirror = current.superclassMirror
        }
        return nil
    }

    private static func payload(_ known: Any) -> Data? {
        var value = known
        let optional = Mirror(reflecting: value)
        if optional.displayStyle == .optional {
            guard let wrapped = optional.children.first?.value else { return nil }
            value = wrapped
        }
        guard let associated = Mirror(reflecting: value).children.first?.value else { return nil }
        switch associated {
        case let data as Data: return data
        case let data as DispatchData: return Data(data)
        case let url as URL: return try? Data(contentsOf: url, options: .mappedIfSafe)
        default: return nil
        }
    }
}
#endif
