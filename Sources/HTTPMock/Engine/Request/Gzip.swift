import Foundation

/// gzip data (RFC 1952) decoded: the DEFLATE streams (RFC 1951) of its members inflated and checked against their
/// CRC-32 and length. Foundation on Linux has no zlib, so the package reads the format itself.
package enum Gzip {
    /// What is wrong with data that was to be gzip, said so that a person can find it.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        package var description: String
        /// The data inflates past the limit it was given.
        package var isTooLarge = false
    }

    /// The contents of `data`: one gzip member, or several in a row, their contents joined. Bytes after a member
    /// that do not start another are ignored, as Java's `GZIPInputStream` (which WireMock reads with) ignores them.
    /// Throws when `data` is no gzip, is cut short, fails its checks, or inflates past `limit` bytes.
    package static func decompress(_ data: Data, limit: Int) throws(Failure) -> Data {
        let bytes = [UInt8](data)
        return try bytes.withUnsafeBufferPointer { (input) throws(Failure) -> Data in
            var output: [UInt8] = []
            output.reserveCapacity(min(limit, max(64, bytes.count * 4)))
            var position = 0
            var member = 0
            while true {
                let header: Int
                do throws(Failure) {
                    header = try headerLength(input, at: position)
                } catch {
                    // The first member must be gzip; what follows a member and is none is left, as Java leaves it.
                    if member == 0 { throw error }
                    break
                }
                let start = output.count
                var reader = BitReader(bytes: input, position: position + header)
                try inflate(&reader, into: &output, limit: limit)
                position = reader.alignedPosition
                guard position + 8 <= input.count else {
                    throw Failure(description: "the gzip data ends before the CRC-32 and length that close member \(member + 1)")
                }
                let crc = UInt32(littleEndianAt: position, in: input)
                let size = UInt32(littleEndianAt: position + 4, in: input)
                position += 8
                let produced = output[start...]
                guard UInt32(truncatingIfNeeded: produced.count) == size else {
                    throw Failure(description: "member \(member + 1) of the gzip data inflates to \(produced.count) bytes where its trailer says \(size)")
                }
                guard CRC32.checksum(produced) == crc else {
                    throw Failure(description: "member \(member + 1) of the gzip data fails its CRC-32 check (it was changed or cut)")
                }
                member += 1
                if position >= input.count { break }
            }
            return Data(output)
        }
    }

    /// The length of the member header at `position` (RFC 1952, 2.3).
    private static func headerLength(_ input: UnsafeBufferPointer<UInt8>, at position: Int) throws(Failure) -> Int {
        guard position + 10 <= input.count, input[position] == 0x1F, input[position + 1] == 0x8B else {
            throw Failure(description: "the data does not start with gzip's magic bytes 1F 8B and a 10-byte header")
        }
        guard input[position + 2] == 8 else {
            throw Failure(description: "the gzip header names compression method \(input[position + 2]); only 8 (DEFLATE) exists")
        }
        // Reserved flag bits are left unread, as Java's GZIPInputStream leaves them.
        let flags = input[position + 3]
        var index = position + 10
        if flags & 0x04 != 0 {  // FEXTRA
            guard index + 2 <= input.count else { throw Failure(description: "the gzip header's extra field is cut short") }
            index += 2 + Int(input[index]) + Int(input[index + 1]) << 8
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {  // FNAME, FCOMMENT: text ending with a zero byte
            while index < input.count, input[index] != 0 { index += 1 }
            index += 1
        }
        if flags & 0x02 != 0 { index += 2 }  // FHCRC
        guard index <= input.count else { throw Failure(description: "the gzip header is cut short") }
        return index - position
    }

    // MARK: DEFLATE (RFC 1951)

    /// Reads bits from the lowest of each byte up, as DEFLATE packs them.
    private struct BitReader {
        let bytes: UnsafeBufferPointer<UInt8>
        var position: Int
        var buffer: UInt64 = 0
        var count = 0

        init(bytes: UnsafeBufferPointer<UInt8>, position: Int) {
            self.bytes = bytes
            self.position = position
        }

        /// The next `width` bits (at most 32) as a number, the first read the lowest.
        mutating func bits(_ width: Int) throws(Failure) -> Int {
            while count < width {
                guard position < bytes.count else { throw Failure(description: "the DEFLATE data of the gzip body is cut short") }
                buffer |= UInt64(bytes[position]) << UInt64(count)
                position += 1
                count += 8
            }
            let value = Int(buffer & ((1 << UInt64(width)) - 1))
            buffer >>= UInt64(width)
            count -= width
            return value
        }

        /// Drops the bits left in the byte under way and gives back the whole bytes read ahead.
        mutating func alignToByte() {
            position -= count / 8
            buffer = 0
            count = 0
        }

        /// The position of the next whole byte, once the DEFLATE data has ended.
        var alignedPosition: Int { position - count / 8 }
    }

    /// A canonical Huffman code (RFC 1951, 3.2.2), decoded a bit at a time: how many codes have each length, and
    /// the symbols in code order.
    private struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int] = []

        init(lengths: ArraySlice<Int>) throws(Failure) {
            for length in lengths { counts[length] += 1 }
            counts[0] = 0
            var left = 1
            for length in 1...15 {
                left = left << 1 - counts[length]
                guard left >= 0 else { throw Failure(description: "a Huffman code of the DEFLATE data has more codes than its lengths allow") }
            }
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (symbol, length) in lengths.enumerated() where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }

        func decode(_ reader: inout BitReader) throws(Failure) -> Int {
            var code = 0
            var first = 0
            var index = 0
            for length in 1...15 {
                code |= try reader.bits(1)
                let count = counts[length]
                if code - first < count { return symbols[index + code - first] }
                index += count
                first = (first + count) << 1
                code <<= 1
            }
            throw Failure(description: "the DEFLATE data holds a code its Huffman table does not have")
        }
    }

    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
                                       4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    /// The order in which a dynamic block gives the lengths of its code-length code.
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private static let fixed: (literals: Huffman, distances: Huffman) = {
        var lengths = [Int](repeating: 8, count: 288)
        for symbol in 144..<256 { lengths[symbol] = 9 }
        for symbol in 256..<280 { lengths[symbol] = 7 }
        // Fixed lengths are a complete code: neither can fail.
        let literals = try! Huffman(lengths: lengths[...])
        let distances = try! Huffman(lengths: [Int](repeating: 5, count: 30)[...])
        return (literals, distances)
    }()

    /// Inflates one DEFLATE stream from `reader` onto `output`.
    private static func inflate(_ reader: inout BitReader, into output: inout [UInt8], limit: Int) throws(Failure) {
        let start = output.count
        var last = false
        while !last {
            last = try reader.bits(1) == 1
            switch try reader.bits(2) {
            case 0:
                reader.alignToByte()
                let length = try reader.bits(16)
                let complement = try reader.bits(16)
                guard length == ~complement & 0xFFFF else {
                    throw Failure(description: "a stored block of the DEFLATE data has a length that does not match its complement")
                }
                guard reader.position + length <= reader.bytes.count else {
                    throw Failure(description: "a stored block of the DEFLATE data is cut short")
                }
                guard output.count + length <= limit else { throw tooLarge(limit) }
                output.append(contentsOf: reader.bytes[reader.position..<reader.position + length])
                reader.position += length
            case 1:
                try inflateBlock(&reader, fixed.literals, fixed.distances, into: &output, start: start, limit: limit)
            case 2:
                let (literals, distances) = try dynamicCodes(&reader)
                try inflateBlock(&reader, literals, distances, into: &output, start: start, limit: limit)
            default:
                throw Failure(description: "the DEFLATE data has a block of the reserved type 3")
            }
        }
    }

    private static func tooLarge(_ limit: Int) -> Failure {
        Failure(description: "it inflates past \(limit) bytes", isTooLarge: true)
    }

    /// The literal/length and distance codes a dynamic block starts with (RFC 1951, 3.2.7).
    private static func dynamicCodes(_ reader: inout BitReader) throws(Failure) -> (Huffman, Huffman) {
        let literalCount = try reader.bits(5) + 257
        let distanceCount = try reader.bits(5) + 1
        let codeLengthCount = try reader.bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else {
            throw Failure(description: "a dynamic block of the DEFLATE data declares more codes than DEFLATE has")
        }
        var codeLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeLengthCount { codeLengths[codeLengthOrder[index]] = try reader.bits(3) }
        let codeLengthCode = try Huffman(lengths: codeLengths[...])
        var lengths: [Int] = []
        lengths.reserveCapacity(literalCount + distanceCount)
        while lengths.count < literalCount + distanceCount {
            let symbol = try codeLengthCode.decode(&reader)
            var repeated = 0
            var value = 0
            switch symbol {
            case 0...15:
                lengths.append(symbol)
                continue
            case 16:
                guard let previous = lengths.last else {
                    throw Failure(description: "a dynamic block of the DEFLATE data repeats a length before giving one")
                }
                value = previous
                repeated = 3 + (try reader.bits(2))
            case 17: repeated = 3 + (try reader.bits(3))
            default: repeated = 11 + (try reader.bits(7))
            }
            guard lengths.count + repeated <= literalCount + distanceCount else {
                throw Failure(description: "a dynamic block of the DEFLATE data gives more code lengths than it declared")
            }
            lengths.append(contentsOf: repeatElement(value, count: repeated))
        }
        guard lengths[256] != 0 else { throw Failure(description: "a dynamic block of the DEFLATE data has no code to end it") }
        return (try Huffman(lengths: lengths[..<literalCount]), try Huffman(lengths: lengths[literalCount...]))
    }

    /// Inflates one Huffman-coded block; a distance may reach back to `start`, where this stream's output began.
    private static func inflateBlock(_ reader: inout BitReader, _ literals: Huffman, _ distances: Huffman,
                                     into output: inout [UInt8], start: Int, limit: Int) throws(Failure) {
        while true {
            let symbol = try literals.decode(&reader)
            if symbol < 256 {
                guard output.count < limit else { throw tooLarge(limit) }
                output.append(UInt8(symbol))
                continue
            }
            if symbol == 256 { return }
            let index = symbol - 257
            guard index < lengthBase.count else { throw Failure(description: "the DEFLATE data uses the unused length code \(symbol)") }
            let length = lengthBase[index] + (try reader.bits(lengthExtra[index]))
            let distanceSymbol = try distances.decode(&reader)
            guard distanceSymbol < distanceBase.count else {
                throw Failure(description: "the DEFLATE data uses the unused distance code \(distanceSymbol)")
            }
            let distance = distanceBase[distanceSymbol] + (try reader.bits(distanceExtra[distanceSymbol]))
            guard distance <= output.count - start else {
                throw Failure(description: "the DEFLATE data refers \(distance) bytes back, before its start")
            }
            guard output.count + length <= limit else { throw tooLarge(limit) }
            // Grown first, then copied byte by byte from `distance` back (the source may overlap what is copied).
            let end = output.count + length
            output.append(contentsOf: repeatElement(0, count: length))
            output.withUnsafeMutableBufferPointer { buffer in
                for index in (end - length)..<end { buffer[index] = buffer[index - distance] }
            }
        }
    }
}

/// CRC-32 as gzip computes it (the polynomial of ISO 3309, bits reflected).
private enum CRC32 {
    static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return ~crc
    }
}

private extension UInt32 {
    init(littleEndianAt position: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        self = UInt32(bytes[position]) | UInt32(bytes[position + 1]) << 8 | UInt32(bytes[position + 2]) << 16 | UInt32(bytes[position + 3]) << 24
    }
}

/// A request body's content coding (RFC 9110, 8.4), undone where a request comes in, as a server undoes it before it
/// reads the body: every face then matches, templates and journals the body the client meant.
package enum RequestContentCoding {
    /// The most bytes a gzip request body made in process may inflate to (a server uses its `maximumBodyBytes`).
    package static let inProcessLimit = 256 << 20

    /// `body` as sent with `headers`, decoded: a body whose `Content-Encoding` names `gzip` (or `x-gzip`) is inflated,
    /// once, as WireMock inflates it; any other body is as sent (`deflate` and `br` too, which WireMock leaves).
    /// Throws when a body so marked is no gzip, or inflates past `limit` bytes.
    package static func decoded(_ body: Data?, headers: HeaderFields, limit: Int) throws(Gzip.Failure) -> Data? {
        guard let body, !body.isEmpty, namesGzip(headers) else { return body }
        return try Gzip.decompress(body, limit: limit)
    }

    /// Whether a `Content-Encoding` field lists `gzip` or `x-gzip`, in any case.
    static func namesGzip(_ headers: HeaderFields) -> Bool {
        headers.values(for: "Content-Encoding").contains { value in
            value.split(separator: ",").contains { coding in
                let name = coding.trimmingCharacters(in: .whitespaces).lowercased()
                return name == "gzip" || name == "x-gzip"
            }
        }
    }

    /// `request` with its body decoded as ``decoded(_:headers:limit:)`` decodes it, the bytes sent kept in
    /// ``CapturedRequest/sentBody`` for what forwards it.
    package static func decoding(_ request: CapturedRequest, limit: Int) throws(Gzip.Failure) -> CapturedRequest {
        let body = try decoded(request.body, headers: request.headers, limit: limit)
        guard body != request.body else { return request }
        var inflated = CapturedRequest(method: request.method, url: request.url, headers: request.headers, body: body)
        inflated.clientAddress = request.clientAddress
        inflated.target = request.target
        inflated.sentBody = request.body
        return inflated
    }

    /// What a client that sent a body marked gzip that cannot be read is told.
    package static func refusal(_ failure: Gzip.Failure) -> String {
        "HTTPMock: the request body is marked Content-Encoding: gzip and cannot be read: \(failure.description). "
            + (failure.isTooLarge ? "Send a smaller body\n" : "Send it compressed, or without that header\n")
    }
}
