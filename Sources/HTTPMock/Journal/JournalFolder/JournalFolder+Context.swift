import Foundation

extension JournalFolder {
    /// Stores `value` under `key`, for another process to ``retrieve(_:as:)``. Storing again replaces it.
    ///
    /// ```swift
    /// try folder.store("user_id", value: "12345")           // in the app
    /// let id: String? = folder.retrieve("user_id")          // in the test
    /// ```
    ///
    /// - Parameters:
    ///   - key: Letters, digits, `.`, `_` and `-` (it names a file); not starting with `.`.
    ///   - value: Any `Encodable` value; it is stored as JSON.
    /// - Throws: ``HTTPMockError`` for a bad key, a value that does not encode, or a folder that cannot be written.
    public func store<Value: Encodable>(_ key: String, value: Value) throws(HTTPMockError) {
        let file = try contextFile(for: key)
        let data: Data
        do {
            data = try JSONEncoder().encode(value)
        } catch {
            throw HTTPMockError(.invalidContext, "context value for \"\(key)\" does not encode as JSON: \(error)")
        }
        do {
            try Self.writeAtomically(data, to: file)
        } catch {
            throw HTTPMockError(.invalidJournalFolder, "journal folder \(url.path): context \"\(key)\" cannot be written (\(error.localizedDescription))")
        }
    }

    /// The value stored under `key`, or `nil` if there is none or it is not a `Value`.
    public func retrieve<Value: Decodable>(_ key: String, as type: Value.Type = Value.self) -> Value? {
        guard let file = try? contextFile(for: key), let data = try? Data(contentsOf: file) else { return nil }
        return try? JSONDecoder().decode(Value.self, from: data)
    }

    /// The keys that have a stored value, sorted.
    ///
    /// ```swift
    /// #expect(folder.contextKeys == ["session", "user_id"])
    /// ```
    public var contextKeys: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: contextURL.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && $0.hasSuffix(".json") }.map { String($0.dropLast(".json".count)) }.sorted()
    }

    /// The stored bytes under `key`, as written (JSON); `nil` if there are none.
    package func contextData(for key: String) -> Data? {
        guard let file = try? contextFile(for: key) else { return nil }
        return try? Data(contentsOf: file)
    }

    /// Removes every stored context value.
    public func clearContext() {
        let files = (try? FileManager.default.contentsOfDirectory(at: contextURL, includingPropertiesForKeys: nil)) ?? []
        for file in files { try? FileManager.default.removeItem(at: file) }
    }

    private func contextFile(for key: String) throws(HTTPMockError) -> URL {
        let allowed = key.unicodeScalars.allSatisfy {
            ($0.isASCII && CharacterSet.alphanumerics.contains($0)) || $0 == "." || $0 == "_" || $0 == "-"
        }
        guard !key.isEmpty, allowed, !key.hasPrefix(".") else {
            throw HTTPMockError(.invalidContext, "context key \"\(key)\" is not usable as a file name; use letters, digits, \".\", \"_\" and \"-\" (not starting with \".\")")
        }
        return contextURL.appendingPathComponent(key + ".json")
    }
}
