import Foundation

/// A string, number or boolean, read as text.
struct Scalar: Decodable {
    let text: String
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(String.self) { text = value }
        else if let value = try? container.decode(Int.self) { text = String(value) }
        else if let value = try? container.decode(Double.self) { text = String(value) }
        else if let value = try? container.decode(Bool.self) { text = String(value) }
        else {
            throw DecodingError.typeMismatch(String.self, .init(codingPath: decoder.codingPath,
                debugDescription: "expected a string, a number or a boolean"))
        }
    }
}
