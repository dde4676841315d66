import Foundation

/// Finds a key written twice in one JSON object. `JSONDecoder` keeps one of the two silently, so a definition file
/// with `"status": 200, …, "status": 500` would serve whichever it kept; such a file is refused instead.
enum DuplicateKeys {
    struct Found {
        /// The key path of the object, as ``KeyPath`` writes it (`mocks[0].response`).
        let path: String
        let key: String
        /// The byte offset of the second occurrence.
        let offset: Int
    }

    private enum Frame {
        case object(keys: Set<String>, current: String?, expectingKey: Bool)
        case array(index: Int)
    }

    /// The first key written twice in one object, or `nil` when there is none. Text that is not valid JSON gives
    /// `nil` (the decoder reports it); the scan never recurses, so deep nesting cannot overflow the stack.
    static func find(in data: Data) -> Found? {
        data.withUnsafeBytes { raw -> Found? in
            let bytes = raw.bindMemory(to: UInt8.self)
            var stack: [Frame] = []
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "{"):
                    stack.append(.object(keys: [], current: nil, expectingKey: true))
                case UInt8(ascii: "["):
                    stack.append(.array(index: 0))
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if stack.popLast() == nil { return nil }
                case UInt8(ascii: ","):
                    switch stack.last {
                    case .array(let position)?: stack[stack.count - 1] = .array(index: position + 1)
                    case .object(let keys, let current, _)?: stack[stack.count - 1] = .object(keys: keys, current: current, expectingKey: true)
                    case nil: return nil
                    }
                case UInt8(ascii: "\""):
                    let start = index
                    var escaped = false
                    index += 1
                    while index < bytes.count {
                        if bytes[index] == UInt8(ascii: "\\") { escaped = true; index += 2; continue }
                        if bytes[index] == UInt8(ascii: "\"") { break }
                        index += 1
                    }
                    guard index < bytes.count else { return nil }
                    if case .object(var keys, _, true)? = stack.last {
                        let slice = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<index])
                        guard let key = escaped ? unescape(UnsafeBufferPointer(rebasing: bytes[start...index])) : String(decoding: slice, as: UTF8.self) else {
                            return nil
                        }
                        if !keys.insert(key).inserted { return Found(path: path(of: stack.dropLast()), key: key, offset: start) }
                        stack[stack.count - 1] = .object(keys: keys, current: key, expectingKey: false)
                    }
                default:
                    break
                }
                index += 1
            }
            return nil
        }
    }

    /// The text of a quoted JSON string with escapes (`"a\u0062"`).
    private static func unescape(_ quoted: UnsafeBufferPointer<UInt8>) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(quoted), options: [.fragmentsAllowed])) as? String
    }

    private static func path(of frames: ArraySlice<Frame>) -> String {
        var text = ""
        for frame in frames {
            switch frame {
            case .array(let index): text += "[\(index)]"
            case .object(_, let current, _): text += text.isEmpty ? (current ?? "") : "." + (current ?? "")
            }
        }
        return text.isEmpty ? "the top level" : text
    }
}
