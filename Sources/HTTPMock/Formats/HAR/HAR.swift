import Foundation

/// An HTTP Archive (HAR 1.2): the format browser developer tools and HTTP debugging proxies save traffic in.
///
/// Read one to replay it (``HTTPMock/loadHAR(at:options:)``), or build one from a mock's journal to open the
/// traffic in a browser's network panel (``HTTPMock/exportHAR(redaction:)``). Decoding is lenient: fields that
/// other tools leave out get their HAR defaults. Encoding writes every field HAR 1.2 requires.
public struct HAR: Codable, Sendable {
    /// The archive's content.
    public var log: Log

    /// An archive with this log.
    public init(log: Log) { self.log = log }

    /// The root of a HAR file.
    public struct Log: Codable, Sendable {
        /// The HAR version, `1.2`.
        public var version: String
        /// The program that wrote the file.
        public var creator: Creator
        /// The requests, in the order they started.
        public var entries: [Entry]

        /// A log of `entries`, written by HTTPMock unless `creator` says otherwise.
        public init(version: String = "1.2", creator: Creator = .httpMock, entries: [Entry]) {
            self.version = version
            self.creator = creator
            self.entries = entries
        }

        enum CodingKeys: String, CodingKey { case version, creator, entries }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            version = try container.decodeIfPresent(String.self, forKey: .version) ?? "1.2"
            creator = try container.decodeIfPresent(Creator.self, forKey: .creator) ?? Creator(name: "unknown", version: "")
            entries = try container.decodeIfPresent([Entry].self, forKey: .entries) ?? []
        }
    }

    /// The program that wrote the file.
    public struct Creator: Codable, Sendable {
        /// The program's name.
        public var name: String
        /// The program's version.
        public var version: String

        /// A creator with this name and version.
        public init(name: String, version: String) {
            self.name = name
            self.version = version
        }

        /// HTTPMock itself.
        public static let httpMock = Creator(name: "HTTPMock", version: "1.0")
    }

    /// One request and its response.
    public struct Entry: Codable, Sendable {
        /// When the request started, ISO 8601 with milliseconds (`2026-11-22T08:00:00.000Z`).
        public var startedDateTime: String
        /// Total time in milliseconds.
        public var time: Double
        /// What was sent.
        public var request: Request
        /// What came back.
        public var response: Response
        /// Cache use (empty).
        public var cache: Cache
        /// Where the time went.
        public var timings: Timings

        /// An entry with all its parts.
        public init(startedDateTime: String, time: Double, request: Request, response: Response,
                    cache: Cache = Cache(), timings: Timings) {
            self.startedDateTime = startedDateTime
            self.time = time
            self.request = request
            self.response = response
            self.cache = cache
            self.timings = timings
        }

        enum CodingKeys: String, CodingKey { case startedDateTime, time, request, response, cache, timings }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            startedDateTime = try container.decodeIfPresent(String.self, forKey: .startedDateTime) ?? ""
            time = try container.decodeIfPresent(Double.self, forKey: .time) ?? 0
            request = try container.decode(Request.self, forKey: .request)
            response = try container.decode(Response.self, forKey: .response)
            cache = try container.decodeIfPresent(Cache.self, forKey: .cache) ?? Cache()
            timings = try container.decodeIfPresent(Timings.self, forKey: .timings) ?? Timings(wait: time)
        }
    }

    /// A header, query item or cookie: a name and a value.
    public struct Pair: Codable, Sendable, Hashable {
        /// The name, as written.
        public var name: String
        /// The value; `""` when there is none.
        public var value: String

        /// A pair.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }

        enum CodingKeys: String, CodingKey { case name, value }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            value = try container.decodeIfPresent(String.self, forKey: .value) ?? ""
        }
    }

    /// Cache use; HTTPMock writes it empty.
    public struct Cache: Codable, Sendable {
        /// No cache information.
        public init() {}
    }

    /// Where the time went, in milliseconds; `-1` for a phase that does not apply.
    public struct Timings: Codable, Sendable {
        /// Sending the request.
        public var send: Double
        /// Waiting for the first byte of the response.
        public var wait: Double
        /// Reading the response.
        public var receive: Double

        /// Timings; usually all the time is `wait`.
        public init(send: Double = 0, wait: Double, receive: Double = 0) {
            self.send = send
            self.wait = wait
            self.receive = receive
        }

        enum CodingKeys: String, CodingKey { case send, wait, receive }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            send = try container.decodeIfPresent(Double.self, forKey: .send) ?? 0
            wait = try container.decodeIfPresent(Double.self, forKey: .wait) ?? 0
            receive = try container.decodeIfPresent(Double.self, forKey: .receive) ?? 0
        }
    }
}
