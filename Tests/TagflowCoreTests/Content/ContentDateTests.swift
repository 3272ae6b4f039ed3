import Foundation
import Testing

@testable import TagflowCore

@Suite struct ContentDateTests {
    let utc = TimeZone(identifier: "UTC") ?? .current
    let stockholm = TimeZone(identifier: "Europe/Stockholm") ?? .current

    /// The fast path of trimming gives what Foundation's trimming gives, on every string of up to
    /// three pieces from an edge alphabet (ASCII and Unicode spaces, tabs, newlines, marks).
    @Test func trimsAsFoundationDoes() {
        let pieces = [
            "", " ", "\t", "\n", "\u{A0}", "\u{2003}", "\u{3000}", "a", "2024-01-02", "é", "\u{301}", "\u{B}",
        ]
        var strings = [""]
        for _ in 0..<3 { strings = Array(Set(strings + strings.flatMap { prefix in pieces.map { prefix + $0 } })) }
        for text in strings {
            #expect(
                ContentDate.trimmedOfWhitespace(text) == text.trimmingCharacters(in: .whitespaces),
                "\(text.debugDescription)")
        }
        #expect(ContentDate.parse(" \u{A0}2024-03-05\t", timeZone: utc)?.secondsSince1970 == 1_709_596_800)
    }

    @Test func parsesTheAcceptedForms() {
        #expect(ContentDate.parse("2024-03-05", timeZone: utc)?.secondsSince1970 == 1_709_596_800)
        #expect(ContentDate.parse("2024-03-05T09:30:00Z", timeZone: utc)?.secondsSince1970 == 1_709_631_000)
        #expect(ContentDate.parse("2024-03-05T10:30:00+01:00", timeZone: utc)?.secondsSince1970 == 1_709_631_000)
        #expect(ContentDate.parse("2024-03-05 09:30", timeZone: utc)?.secondsSince1970 == 1_709_631_000)
        #expect(ContentDate.parse("2024-03-05T09:30:00.250-0000", timeZone: utc)?.secondsSince1970 == 1_709_631_000)
    }

    @Test func datesWithoutAZoneAreInTheSiteZone() throws {
        // Midnight in Stockholm (UTC+1 in March) is 23:00 UTC the day before.
        let midnight = try #require(ContentDate.parse("2024-03-05", timeZone: stockholm))
        #expect(midnight.rfc3339(in: utc) == "2024-03-04T23:00:00Z")
        // Summer time: UTC+2.
        #expect(ContentDate.parse("2024-07-01 12:00", timeZone: stockholm)?.rfc3339(in: utc) == "2024-07-01T10:00:00Z")
    }

    @Test(arguments: [
        "2024-13-01", "2024-02-30", "2023-02-29", "24-03-05", "2024-3-5", "yesterday", "2024-03-05T25:00",
        "2024-03-05 extra", "",
    ])
    func rejectsInvalidDates(text: String) {
        #expect(ContentDate.parse(text, timeZone: utc) == nil)
    }

    @Test func leapDay() {
        #expect(ContentDate.parse("2024-02-29", timeZone: utc) != nil)
    }

    @Test func formatsTheSameOnEveryMachine() throws {
        let date = try #require(ContentDate.parse("2025-06-01T09:30:00+02:00", timeZone: utc))
        #expect(date.rfc3339(in: stockholm) == "2025-06-01T09:30:00+02:00")
        #expect(date.rfc3339(in: utc) == "2025-06-01T07:30:00Z")
        #expect(date.displayDay(in: stockholm, strings: SiteStrings(language: "en")) == "1 June 2025")
        #expect(date.isoDay(in: stockholm) == "2025-06-01")
    }

    /// The English months, written out here rather than taken from the strings under test.
    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// The formats, written byte by byte, equal the same fields put together by interpolation
    /// and `String(value)` padded with zeros, for years from before year 0 to past 9999 and for
    /// zones east and west of UTC (whole hours, half hours, and Kathmandu's +05:45).
    @Test func formatsEqualTheirInterpolatedForm() throws {
        let english = SiteStrings(language: "en")
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let zones = try ["UTC", "Europe/Stockholm", "America/St_Johns", "Asia/Kathmandu", "Pacific/Honolulu"].map {
            try #require(TimeZone(identifier: $0))
        }
        let daySeconds: Int64 = 86_400
        let instants: [Int64] = [
            0, -1, 1_709_631_000, 1_709_631_000 + 59, 253_402_300_799, 253_402_300_800, -62_135_596_800,
            -62_135_596_801, -62_167_219_200 - 5 * 365 * daySeconds, -62_167_219_200 - 400 * 365 * daySeconds,
            40_000 * 365 * daySeconds + 3_723,
        ]
        for seconds in instants {
            let date = ContentDate(secondsSince1970: seconds)
            for zone in zones {
                let c = date.components(in: zone)
                let day = "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))"
                let offset =
                    c.offset == 0
                    ? "Z"
                    : "\(c.offset < 0 ? "-" : "+")\(pad(abs(c.offset) / 3600, 2)):\(pad(abs(c.offset) % 3600 / 60, 2))"
                let label = "\(seconds) in \(zone.identifier)"
                #expect(date.isoDay(in: zone) == day, "\(label)")
                #expect(
                    date.rfc3339(in: zone)
                        == "\(day)T\(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(c.second, 2))\(offset)",
                    "\(label)")
                #expect(
                    date.displayDay(in: zone, strings: english) == "\(c.day) \(Self.months[c.month - 1]) \(c.year)",
                    "\(label)"
                )
            }
        }
        // A year before 1 BCE is padded as `String(value)` would be: the minus sign counts.
        let fiveBCE = ContentDate(secondsSince1970: -62_167_219_200 - 5 * 365 * daySeconds)
        #expect(fiveBCE.isoDay(in: zones[0]) == "00-5-01-02")
    }

    @Test func fileNamePrefix() {
        #expect(
            ContentDate.fromFileName("2024-03-05-hello.md", timeZone: utc)
                == ContentDate.parse("2024-03-05", timeZone: utc))
        #expect(ContentDate.fromFileName("hello.md", timeZone: utc) == nil)
        #expect(ContentDate.fromFileName("2024-03-05.md", timeZone: utc) == nil)
    }

    @Test func civilConversionRoundTrips() {
        for days in stride(from: -800_000, through: 800_000, by: 997) {
            let (y, m, d) = ContentDate.civil(fromDays: days)
            #expect(ContentDate.daysFromCivil(year: y, month: m, day: d) == days)
        }
    }
}
