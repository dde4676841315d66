import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// The journal bounds the bytes of the bodies it keeps, not only the number of entries.
@Suite struct JournalBodyBoundTests {
    private func upload(_ engine: Engine, size: Int, seed byte: UInt8) {
        var request = CapturedRequest(method: "POST", url: URL(string: "https://uploads.test/files")!)
        request = CapturedRequest(method: request.method, url: request.url, headers: request.headers,
                                  body: Data(repeating: byte, count: size))
        _ = engine.decide(request)
    }

    @Test func bodiesPastTheDefaultBoundAreKeptInPart() {
        let engine = Engine()
        // 140 uploads of 512 KiB: 70 MiB, past the default 64 MiB.
        for index in 0..<140 { upload(engine, size: 512 << 10, seed: UInt8(index)) }
        let entries = engine.journalEntries
        #expect(entries.count == 140)
        let kept = entries.reduce(0) { $0 + ($1.request.body?.count ?? 0) }
        // Before: every body was kept whole (73,400,320 bytes).
        #expect(kept <= (64 << 20) + 140 * 1_024)
        let last = entries.last
        #expect(last?.request.body?.count == 1_024)
        #expect(last?.bodyTruncation?.fullSize == 512 << 10)
        #expect(last?.bodyTruncation?.digest.hasPrefix("fnv1a64:") == true)
        #expect(entries.first?.bodyTruncation == nil)
        #expect(entries.first?.request.body?.count == 512 << 10)
    }

    @Test func theBoundIsTheUsersAndBytesComeBackAsEntriesGo() {
        let engine = Engine()
        engine.journalBodyCapacity = 2_600
        engine.journalCapacity = 2
        for index in 0..<2 { upload(engine, size: 1_500, seed: UInt8(index)) }
        // The second body would make 3,000 bytes: kept in part (1,024 bytes).
        #expect(engine.journalEntries.last?.bodyTruncation?.fullSize == 1_500)
        // The third pushes the first entry out, with its 1,500 bytes: 1,024 + 1,500 fit whole.
        upload(engine, size: 1_500, seed: 9)
        #expect(engine.journalEntries.last?.bodyTruncation == nil)
    }

    @Test func digestsTellBodiesApartAndReportsSayTheBodyWasCut() {
        let engine = Engine()
        engine.journalBodyCapacity = 0
        upload(engine, size: 4_096, seed: 1)
        upload(engine, size: 4_096, seed: 2)
        let entries = engine.journalEntries
        #expect(entries[0].bodyTruncation?.digest != entries[1].bodyTruncation?.digest)
        #expect(entries[0].bodyTruncation?.description.hasPrefix("body truncated in the journal: 4096 bytes, digest fnv1a64:") == true)
    }

    @Test func theDigestIsFNV1aOver64Bits() {
        // The published FNV-1a 64-bit values of "", "a" and "foobar".
        #expect(FNV1a.digest(of: Data()) == "fnv1a64:cbf29ce484222325")
        #expect(FNV1a.digest(of: Data("a".utf8)) == "fnv1a64:af63dc4c8601ec8c")
        #expect(FNV1a.digest(of: Data("foobar".utf8)) == "fnv1a64:85944171f73967e8")
        // A slice of a larger buffer digests its own bytes only.
        let slice = Data("xxfoobar".utf8).dropFirst(2)
        #expect(FNV1a.digest(of: slice) == "fnv1a64:85944171f73967e8")
    }
}
