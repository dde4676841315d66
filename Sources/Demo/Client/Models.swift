/// The placeholder API's resources.
struct Post: Codable, Sendable {
    let userId: Int
    let id: Int
    let title: String
}

struct Album: Codable, Sendable {
    let userId: Int
    let id: Int
    let title: String
}

struct ToDo: Codable, Sendable {
    let userId: Int
    let id: Int
    let title: String
    let completed: Bool
}
