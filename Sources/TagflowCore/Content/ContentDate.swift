package import Foundation

/// A post's date: an instant, independent of the machine's time zone and locale.
///
/// Read from front matter (`2024-03-05`, `2024-03-05 09:30`, `2024-03-05T09:30:00+02:00`,
/// `…Z`) or from a `YYYY-MM-DD-` file name prefix. A date written without a zone is in the
/// site's time zone. Never read from file system times, which CI checkouts reset.
public struct ContentDate: Sendable, Hashable, Comparable {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: Int64

    /// Creates a date from seconds since the Unix epoch.
    public init(secondsSince1970: Int64) { self.secondsSince1970 = secondsSince1970 }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.secondsSince1970 < rhs.secondsSince1970 }

    /// `text` without the white space (`CharacterSet.whitespaces`) at either end.
    static func trimmedOfWhitespace(_ text: String) -> String {
        // A date almost always starts and ends with an ASCII character that is not a space or a
        // tab, which no trimming changes; Foundation's trimming of each showed in a large build.
        let utf8 = text.utf8
        if let first = utf8.first, let last = utf8.last, first < 0x80, last < 0x80,
            first != 0x20, first != 0x09, last != 0x20, last != 0x09
        {
            return text
        }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// Parses a front matter date.
    ///
    /// - Parameters:
    ///   - text: The date as written.
    ///   - timeZone: The zone for dates and times written without one.
    /// - Returns: The date, or `nil` when `text` is not one of the accepted forms or not a real day.
    package static func parse(_ text: String, timeZone: TimeZone) -> ContentDate? {
        var scanner = DigitScanner(trimmedOfWhitespace(text))
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
            let month = scanner.number(digits: 2), scanner.skip("-"),
            let day = scanner.number(digits: 2), (1...12).contains(month), (1...daysIn(month, year)).contains(day)
        else { return nil }
        var hour = 0
        var minute = 0
        var second = 0
        var offset: Int?
        if scanner.skip("T") || scanner.skip("t") || scanner.skip(" ") {
            guard let h = scanner.number(digits: 2), scanner.skip(":"), let m = scanner.number(digits: 2),
                h < 24, m < 60
            else { return nil }
            hour = h
            minute = m
            if scanner.skip(":") {
                guard let s = scanner.number(digits: 2), s < 61 else { return nil }
                second = min(s, 59)
                if scanner.skip(".") || scanner.skip(",") {
                    guard scanner.skipDigits() else { return nil }
                }
            }
            _ = scanner.skip(" ")
            if scanner.skip("Z") || scanner.skip("z") {
                offset = 0
            } else if let sign = scanner.sign() {
                guard let oh = scanner.number(digits: 2), oh < 24 else { return nil }
                _ = scanner.skip(":")
                let om = scanner.number(digits: 2) ?? 0
                guard om < 60 else { return nil }
                offset = sign * (oh * 3600 + om * 60)
            }
        }
        guard scanner.atEnd else { return nil }
        let local =
            Int64(daysFromCivil(year: year, month: month, day: day)) * 86_400
            + Int64(hour * 3600 + minute * 60 + second)
        if let offset { return ContentDate(secondsSince1970: local - Int64(offset)) }
        // Local wall time in `timeZone`: guess with the offset at that instant, then correct once.
        let guess = local - Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(local))))
        let corrected = local - Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(guess))))
        return ContentDate(secondsSince1970: corrected)
    }

    /// The date from a `YYYY-MM-DD-` file name prefix, at midnight in `timeZone`.
    package static func fromFileName(_ name: String, timeZone: TimeZone) -> ContentDate? {
        let utf8 = Array(name.utf8.prefix(11))
        guard utf8.count == 11, utf8[10] == UInt8(ascii: "-") else { return nil }
        return parse(String(decoding: utf8[0..<10], as: UTF8.self), timeZone: timeZone)
    }

    /// The time zone with a tz database name, or `nil`.
    package static func timeZone(named name: String) -> TimeZone? {
        if name == "UTC" || name == "Z" { return TimeZone(identifier: "UTC") }
        return TimeZone(identifier: name)
    }

    /// The calendar fields of this instant in `timeZone`.
    package func components(in timeZone: TimeZone) -> (
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offset: Int
    ) {
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(secondsSince1970)))
        let local = secondsSince1970 + Int64(offset)
        let days = Int(local.floorDivided(by: 86_400))
        let secondsOfDay = Int(local - Int64(days) * 86_400)
        let (year, month, day) = Self.civil(fromDays: days)
        return (year, month, day, secondsOfDay / 3600, secondsOfDay % 3600 / 60, secondsOfDay % 60, offset)
    }

    /// `2024-03-05`.
    package func isoDay(in timeZone: TimeZone) -> String {
        let c = components(in: timeZone)
        return Self.text { out in
            Self.writeDay(c, to: &out)
        }
    }

    /// `2024-03-05T09:30:00+01:00` (RFC 3339, as Atom and sitemaps want).
    package func rfc3339(in timeZone: TimeZone) -> String {
        let c = components(in: timeZone)
        return Self.text { out in
            Self.writeDay(c, to: &out)
            out.append(UInt8(ascii: "T"))
            out.append(c.hour, width: 2)
            out.append(UInt8(ascii: ":"))
            out.append(c.minute, width: 2)
            out.append(UInt8(ascii: ":"))
            out.append(c.second, width: 2)
            if c.offset == 0 {
                out.append(UInt8(ascii: "Z"))
            } else {
                let magnitude = abs(c.offset)
                out.append(c.offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
                out.append(magnitude / 3600, width: 2)
                out.append(UInt8(ascii: ":"))
                out.append(magnitude % 3600 / 60, width: 2)
            }
        }
    }

    /// The day as the site's strings write it (`date_format`: `5 March 2024`, `5. März 2024`,
    /// `2024年3月5日`), the same text on every machine, whatever its locale.
    package func displayDay(in timeZone: TimeZone, strings: SiteStrings) -> String {
        let c = components(in: timeZone)
        return strings.day(year: c.year, month: c.month, day: c.day)
    }

    private static func writeDay(
        _ c: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offset: Int), to out: inout DateText
    ) {
        out.append(c.year, width: 4)
        out.append(UInt8(ascii: "-"))
        out.append(c.month, width: 2)
        out.append(UInt8(ascii: "-"))
        out.append(c.day, width: 2)
    }

    /// A date's text, written byte by byte on the stack and copied into a string of its size.
    ///
    /// String interpolation made each RFC 3339 date costly, and a build makes two per post. A
    /// string made with room for the longest date kept that room for each of the dates a build
    /// holds.
    private static func text(_ write: (inout DateText) -> Void) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DateText.capacity) { buffer in
            var out = DateText(buffer: buffer)
            write(&out)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<out.count]), as: UTF8.self)
        }
    }

    static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}

/// A tiny cursor over ASCII text for date parsing.
private struct DigitScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    var atEnd: Bool { index == bytes.count }

    mutating func number(digits: Int) -> Int? {
        guard index + digits <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<index + digits] {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        index += digits
        return value
    }

    mutating func skip(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue, index < bytes.count, bytes[index] == ascii else { return false }
        index += 1
        return true
    }

    mutating func skipDigits() -> Bool {
        let start = index
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
        return index > start
    }

    mutating func sign() -> Int? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }
}

/// The bytes of a date's text, for ``ContentDate``'s formats.
private struct DateText {
    /// Room for the longest text: a 20-character year (`Int.min`) and an RFC 3339 time and zone.
    static let capacity = 64

    let buffer: UnsafeMutableBufferPointer<UInt8>
    var count = 0

    mutating func append(_ byte: UInt8) {
        buffer[count] = byte
        count += 1
    }

    /// `value` in decimal, with zeros before it up to `width` characters, the minus sign counted
    /// (as `String(value)` padded on the left: -5 at width 4 is `00-5`).
    mutating func append(_ value: Int, width: Int) {
        var digitCount = 1
        var scan = value.magnitude / 10
        while scan > 0 {
            digitCount += 1
            scan /= 10
        }
        let length = digitCount + (value < 0 ? 1 : 0)
        for _ in 0..<max(0, width - length) { append(UInt8(ascii: "0")) }
        if value < 0 { append(UInt8(ascii: "-")) }
        // The digits from the last one back.
        var rest = value.magnitude
        var index = count + digitCount
        repeat {
            index -= 1
            buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        } while rest > 0
        count += digitCount
    }
}
