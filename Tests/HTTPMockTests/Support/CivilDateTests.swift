import Foundation
import Testing
@testable import HTTPMock

/// `CivilDate` against Foundation's Gregorian calendar from 1700 to 2370, before and after 1970 (Foundation counts
/// days before October 1582 in the Julian calendar; `CivilDate` is proleptic Gregorian, as ISO 8601 is).
@Suite struct CivilDateTests {
    @Test func everyDayMatchesFoundationsCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var mismatches: [Int] = []
        for days in stride(from: -98_627, through: 146_097, by: 1) where days % 7 == 0 || abs(days) < 1_500 {
            let date = Date(timeIntervalSince1970: Double(days) * 86_400)
            let expected = calendar.dateComponents([.year, .month, .day], from: date)
            let civil = CivilDate.from(daysSince1970: days)
            if civil.year != expected.year || civil.month != expected.month || civil.day != expected.day { mismatches.append(days) }
        }
        #expect(mismatches.isEmpty, "days since 1970 that differ: \(mismatches.prefix(10))")
    }
}
