#if OpenAPI
import Foundation
import HTTPMock
import Yams
import _HTTPMockJSON

/// The text of one file of an OpenAPI document read into a JSON value: JSON when it starts with `{` or `[`, YAML
/// otherwise (JSON being YAML too, a file that is neither reads as YAML and says why not).
enum DocumentText {
    /// Files larger than this are refused: a document of 1,000 operations is a few MB.
    static let sizeLimit = 64 * 1024 * 1024
    /// YAML nodes read from one file at most: aliases can make a small file expand to billions of nodes.
    static let nodeLimit = 2_000_000

    /// What reading a file gave: its value, or what stops it from being read.
    enum Reading {
        case success(JSONValue)
        case failure(String)
    }

    /// The value the file holds, or the problem that stops it from being read.
    static func read(_ data: Data) -> Reading {
        guard data.count <= sizeLimit else {
            return .failure("it is \(data.count) bytes, more than the \(sizeLimit) an OpenAPI document may have here")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return .failure("it is not UTF-8 text; save it as UTF-8")
        }
        let first = text.first { !$0.isWhitespace && $0 != "\u{FEFF}" }
        let looksLikeJSON = first == "{" || first == "["
        if looksLikeJSON, let value = JSONValue.parse(Data(text.utf8)) { return .success(value) }
        return yaml(text, looksLikeJSON: looksLikeJSON)
    }

    private static func yaml(_ text: String, looksLikeJSON: Bool) -> Reading {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch {
            // Yams says where (line and column) and what it expected.
            let what = looksLikeJSON ? "it starts as JSON but is neither valid JSON nor valid YAML" : "its YAML has a syntax error"
            return .failure("\(what): \(String(describing: error).prefix(300))")
        }
        guard let node else { return .failure("it is empty") }
        var budget = nodeLimit
        var problem: String?
        let value = convert(node, depth: 0, budget: &budget, problem: &problem)
        if let problem { return .failure(problem) }
        return .success(value)
    }

    private static func convert(_ node: Node, depth: Int, budget: inout Int, problem: inout String?) -> JSONValue {
        budget -= 1
        guard problem == nil else { return .null }
        guard budget >= 0 else {
            problem = "it holds more than \(nodeLimit) YAML values (aliases expanded); split it, or write it without aliases"
            return .null
        }
        guard depth < 256 else {
            problem = "it nests values more than 256 deep\(node.mark.map { " (at line \($0.line))" } ?? "")"
            return .null
        }
        switch node {
        case .scalar(let scalar):
            return Self.scalar(scalar, tag: node.tag)
        case .sequence(let sequence):
            return .array(sequence.map { convert($0, depth: depth + 1, budget: &budget, problem: &problem) })
        case .mapping(let mapping):
            var members: [String: JSONValue] = [:]
            for (key, value) in mapping {
                guard let name = key.string else {
                    problem = "a key\(key.mark.map { " at line \($0.line)" } ?? "") is not a string; quote it"
                    return .null
                }
                if members[name] != nil {
                    problem = "the key \"\(name)\"\(key.mark.map { " at line \($0.line)" } ?? "") appears twice in one mapping; keep one"
                    return .null
                }
                members[name] = convert(value, depth: depth + 1, budget: &budget, problem: &problem)
            }
            return .object(members)
        case .alias:
            problem = "it holds a YAML alias that could not be read\(node.mark.map { " (at line \($0.line))" } ?? "")"
            return .null
        }
    }

    /// A scalar as YAML's core schema resolves it; a timestamp stays the text it was (`2024-05-01`).
    private static func scalar(_ scalar: Node.Scalar, tag: Tag) -> JSONValue {
        let node = Node.scalar(scalar)
        switch tag.rawValue {
        case Tag.Name.null.rawValue: return .null
        case Tag.Name.bool.rawValue: return node.bool.map(JSONValue.bool) ?? .string(scalar.string)
        // An integer too large for 64 bits (18446744073709551615) is still a number: as a double, as JSON readers do.
        case Tag.Name.int.rawValue: return node.int.map(JSONValue.int) ?? Double(scalar.string).map(JSONValue.double) ?? .string(scalar.string)
        case Tag.Name.float.rawValue: return node.float.map(JSONValue.double) ?? .string(scalar.string)
        default: return .string(scalar.string)
        }
    }
}
#endif
