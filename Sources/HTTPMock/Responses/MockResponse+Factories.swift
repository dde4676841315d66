import Foundation

extension MockResponse {
    /// A JSON body encoded from `value`; `Content-Type: application/json`.
    ///
    /// A value that fails to encode makes the registration fail with the encoder's reason.
    public static func encodable<T: Encodable>(
        _ value: T,
        status: Status = .ok,
        lifetime: Lifetime = .single,
        delivery: Delivery = .instant,
        headers: [String: String] = [:],
        encoder: JSONEncoder = JSONEncoder()
    ) -> MockResponse {
        do {
            return MockResponse(status: status, headers: headers, content: .data(try encoder.encode(value)),
                                contentType: "application/json", lifetime: lifetime, delivery: delivery)
        } catch {
            return invalid(.invalidResponse("a \(T.self) value could not be encoded as JSON: \(error)"),
                           status: status, headers: headers, lifetime: lifetime, delivery: delivery)
        }
    }

    /// A JSON body serialised from a dictionary of JSON values; `Content-Type: application/json`.
    ///
    /// Values must be JSON types (`String`, numbers, `Bool`, `NSNull`, arrays and dictionaries of them);
    /// anything else makes the registration fail, naming the value.
    public static func dictionary(
        _ object: [String: Any],
        status: Status = .ok,
        lifetime: Lifetime = .single,
        delivery: Delivery = .instant,
        headers: [String: String] = [:]
    ) -> MockResponse {
        guard JSONSerialization.isValidJSONObject(object),
              let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            return invalid(.invalidResponse("the dictionary \(object) holds a value that is not JSON (use strings, numbers, booleans, NSNull, arrays and dictionaries)"),
                           status: status, headers: headers, lifetime: lifetime, delivery: delivery)
        }
        return MockResponse(status: status, headers: headers, content: .data(data),
                            contentType: "application/json", lifetime: lifetime, delivery: delivery)
    }

    /// A UTF-8 text body; `Content-Type: text/plain; charset=utf-8` unless you name another.
    ///
    /// ```swift
    /// MockResponse.plaintext("Service temporarily unavailable", status: .serviceUnavailable)
    /// MockResponse.plaintext("<h1>Hi</h1>", contentType: "text/html; charset=utf-8")
    /// ```
    public static func plaintext(
        _ text: String,
        contentType: String = "text/plain; charset=utf-8",
        status: Status = .ok,
        lifetime: Lifetime = .single,
        delivery: Delivery = .instant,
        headers: [String: String] = [:]
    ) -> MockResponse {
        MockResponse(status: status, headers: headers, content: .data(Data(text.utf8)),
                     contentType: contentType, lifetime: lifetime, delivery: delivery)
    }

    /// No body.
    public static func empty(
        status: Status = .ok,
        lifetime: Lifetime = .single,
        delivery: Delivery = .instant,
        headers: [String: String] = [:]
    ) -> MockResponse {
        MockResponse(status: status, headers: headers, content: .data(Data()), contentType: nil,
                     lifetime: lifetime, delivery: delivery)
    }

    /// The contents of a file in `bundle`. `Content-Type` is inferred from the extension unless given.
    ///
    /// A file that is missing from the bundle makes the registration fail, naming the file and the bundle.
    public static func file(
        named name: String,
        extension fileExtension: String? = nil,
        in bundle: Bundle = .main,
        status: Status = .ok,
        lifetime: Lifetime = .single,
        delivery: Delivery = .instant,
        headers: [String: String] = [:],
        contentType: String? = nil
    ) -> MockResponse {
        guard let url = bundle.url(forResource: name, withExtension: fileExtension) else {
            let file = fileExtension.map { "\(name).\($0)" } ?? name
            return invalid(.missingFile("\"\(file)\" is not in the bundle at \(bundle.bundleURL.path); add it to the target's resources or check the name"),
                           status: status, headers: headers, lifetime: lifetime, delivery: delivery)
        }
        return file(url: url, status: status, lifetime: lifetime, delivery: delivery, headers: headers,
                    contentType: contentType)
    }

    /// The contents of the file at `url`: absolute, or relative to the current directory.
    /// `Content-Type` is inferred from the extension unless given.
    ///
    /// The file is checked when the response is registered (a missing or unreadable file is an error there,
    /// never an empty body) and read each time it is served, so it costs no memory while queued. It is read from
    /// its real path, symbolic links resolved at registration: a server answers `500` naming the file when it was
    /// deleted since, or replaced by a symbolic link.
    public static func file(
        url: URL,
        status: Status = .ok,
        lifetime: Lifetime = .single,
        delivery: Delivery = .instant,
        headers: [String: String] = [:],
        contentType: String? = nil
    ) -> MockResponse {
        let resolved = url.isFileURL ? url.standardizedFileURL : URL(fileURLWithPath: url.path)
        var isDirectory: ObjCBool = false
        let problem: HTTPMockError?
        if !FileManager.default.fileExists(atPath: resolved.path, isDirectory: &isDirectory) {
            problem = .missingFile("no file at \(resolved.path) (current directory: \(FileManager.default.currentDirectoryPath))")
        } else if isDirectory.boolValue {
            problem = .missingFile("\(resolved.path) is a folder, not a file")
        } else if !FileManager.default.isReadableFile(atPath: resolved.path) {
            problem = .missingFile("\(resolved.path) cannot be read (check its permissions)")
        } else {
            problem = nil
        }
        // Served from its real path, links resolved now: a server that sends it opens that path and no link on
        // its way, so what is served is what was checked here.
        let served = problem == nil ? LocalFile.realPath(resolved.path).map { URL(fileURLWithPath: $0) } ?? resolved : resolved
        return MockResponse(status: status, headers: headers, content: .file(served),
                            contentType: contentType ?? ContentType.infer(fromExtension: resolved.pathExtension),
                            lifetime: lifetime, delivery: delivery, problem: problem)
    }

    /// The contents of the file at `url`. Same as ``file(url:status:lifetime:delivery:headers:contentType:)``.
    public static func file(
        _ url: URL,
        status: Status = .ok,
        lifetime: Lifetime = .single,
        delivery: Delivery = .instant,
        headers: [String: String] = [:],
        contentType: String? = nil
    ) -> MockResponse {
        file(url: url, status: status, lifetime: lifetime, delivery: delivery, headers: headers, contentType: contentType)
    }

    /// The request fails with `error` instead of getting a response, as it would offline or on a dropped
    /// connection. `URLError`s reach the caller unchanged.
    ///
    /// ```swift
    /// MockResponse.failure(URLError(.notConnectedToInternet))
    /// ```
    public static func failure(
        _ error: any Error & Sendable,
        lifetime: Lifetime = .single,
        delivery: Delivery = .instant
    ) -> MockResponse {
        MockResponse(headers: [:], content: .failure(error), contentType: nil, lifetime: lifetime, delivery: delivery)
    }

    static func invalid(
        _ problem: HTTPMockError, status: Status, headers: [String: String], lifetime: Lifetime, delivery: Delivery
    ) -> MockResponse {
        MockResponse(status: status, headers: headers, content: .data(Data()), contentType: nil,
                     lifetime: lifetime, delivery: delivery, problem: problem)
    }
}
