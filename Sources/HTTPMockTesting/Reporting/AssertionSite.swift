import Testing

/// Where an assertion was written, so a failure points at the caller's line in Swift Testing and in XCTest.
///
/// Every assertion takes `fileID`, `filePath`, `line` and `column` with defaults that capture the call site;
/// a helper that wraps an assertion can pass its own caller's values through.
struct AssertionSite: Sendable {
    /// `Module/File.swift`.
    let fileID: String
    /// The full path, as XCTest wants it.
    let filePath: StaticString
    /// The line, from 1.
    let line: UInt
    /// The column, from 1.
    let column: UInt

    /// The place in the caller's source that a failure is reported at.
    init(fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }

    /// The same place, as Swift Testing spells it.
    var sourceLocation: SourceLocation {
        SourceLocation(fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column))
    }
}
