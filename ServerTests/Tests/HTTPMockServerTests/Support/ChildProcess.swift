import Foundation

/// Whether the suite runs under AddressSanitizer (`HTTPMOCK_SANITIZED=address`, as `.ci/run` sets it): Foundation's
/// `Process.run` trips it (in corelibs, not in HTTPMock), so tests that launch a process skip that run.
let runsUnderAddressSanitizer = ProcessInfo.processInfo.environment["HTTPMOCK_SANITIZED"] == "address"

/// An executable this package builds (`httpmock`, `AppUnderTest`), run in a child process whose standard input,
/// output and error the test holds.
final class ChildProcess: @unchecked Sendable {  // reason: `process` and the pipes are set up once in init; what changes later is behind `Guarded`
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let lines = Guarded(LineBuffer())
    private let errorText = Guarded(Data())

    private struct LineBuffer {
        var pending = Data()
        var lines: [String] = []
        var closed = false
    }

    /// The executable `name`, built next to the tests.
    static func executable(_ name: String) throws -> URL {
        var candidates: [URL] = []
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(folder.appendingPathComponent(name))
            folder = folder.deletingLastPathComponent()
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw ChildProcessError("\(name) not found; looked in \(candidates.map(\.path))")
        }
        return found
    }

    /// Runs `name` with `arguments` to its end: its exit status, standard output and standard error. For a command
    /// that ends by itself: the pipes are read to their end on threads of their own, with no readability handler
    /// (corelibs' dispatch sources for them have crashed the test process when many processes came and went).
    static func runToEnd(_ name: String, arguments: [String] = []) async throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = try executable(name)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let read: @Sendable (FileHandle) async -> Data = { handle in
            await withCheckedContinuation { continuation in
                Thread.detachNewThread { continuation.resume(returning: handle.readDataToEndOfFile()) }
            }
        }
        async let out = read(output.fileHandleForReading)
        async let err = read(errors.fileHandleForReading)
        let (outData, errData) = await (out, err)
        let status = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }
        }
        return (status, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    /// Starts `name` with `arguments`, and `environment` added to this process's; with `descriptorLimit`, through
    /// `sh` with `ulimit -n` set to it first.
    init(_ name: String, arguments: [String] = [], environment: [String: String] = [:], descriptorLimit: Int? = nil) throws {
        if let descriptorLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", try Self.executable(name).path] + arguments
        } else {
            process.executableURL = try Self.executable(name)
            process.arguments = arguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        let lines = self.lines
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            lines.withLock { buffer in
                if data.isEmpty {
                    buffer.closed = true
                    handle.readabilityHandler = nil
                    return
                }
                buffer.pending.append(data)
                while let newline = buffer.pending.firstIndex(of: UInt8(ascii: "\n")) {
                    buffer.lines.append(String(decoding: buffer.pending[buffer.pending.startIndex..<newline], as: UTF8.self))
                    buffer.pending = Data(buffer.pending[(newline + 1)...])
                }
            }
        }
        let errorText = self.errorText
        errors.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            errorText.withLock { $0.append(data) }
        }
        try process.run()
    }

    /// The next line the process writes on standard output.
    func nextLine(timeout: TimeInterval = 60) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let (line, closed) = lines.withLock { buffer -> (String?, Bool) in
                buffer.lines.isEmpty ? (nil, buffer.closed) : (buffer.lines.removeFirst(), false)
            }
            if let line { return line }
            if closed { throw ChildProcessError("the process closed its output; it said: \(standardError)") }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        throw ChildProcessError("no line on standard output in \(Int(timeout)) s; standard error: \(standardError)")
    }

    /// Waits until standard error holds `text` (the process says it on its own schedule).
    func waitForError(containing text: String, timeout: TimeInterval = 60) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if standardError.contains(text) { return }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        throw ChildProcessError("standard error never said \"\(text)\"; it said: \(standardError)")
    }

    /// Writes `line` to the process's standard input.
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// What the process wrote on standard error so far.
    var standardError: String { String(decoding: errorText.current, as: UTF8.self) }

    /// Sends SIGTERM and waits for the process to end; its exit status.
    func terminate() async -> Int32 {
        if process.isRunning { process.terminate() }
        return await waitForExit()
    }

    /// Waits for the process to end (closing its standard input first); its exit status.
    func waitForExit() async -> Int32 {
        try? input.fileHandleForWriting.close()
        let process = self.process
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}

/// A value behind a lock, shared with the pipes' reading threads.
final class Guarded<Value>: @unchecked Sendable {  // reason: every access to `value` goes through `lock`
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }

    var current: Value { withLock { $0 } }
}

struct ChildProcessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Every folder ``temporaryFolder(_:)`` made, removed when the test process ends (a run left a hundred behind
/// before, and a folder of thousands slows down whatever lists it: Foundation's `Bundle.main` lists the folder of
/// the executable).
private let madeFolders: Guarded<[URL]> = {
    atexit(removeMadeFolders)
    return Guarded([])
}()

private func removeMadeFolders() {
    for folder in madeFolders.withLock({ $0 }) { try? FileManager.default.removeItem(at: folder) }
}

/// A new empty folder under the temporary directory, with `files` (relative path: contents) in it; removed when
/// the test process ends.
func temporaryFolder(_ files: [String: String] = [:]) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("httpmock-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    madeFolders.withLock { $0.append(folder) }
    for (path, contents) in files {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
    }
    return folder
}
