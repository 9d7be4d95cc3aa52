import Testing
@testable import PerchCore

/// 2026-12-01 12:00:00 UTC.
private let noon: Int64 = 1_796_126_400

@Suite("Age text")
struct AgeTextTests {
    private func age(_ secondsAgo: Int64, offset: Int = 0) -> String {
        AgeText.describe(noon - secondsAgo, now: noon, utcOffset: offset)
    }

    @Test("under a minute is now, as is a time in the future")
    func now() {
        #expect(age(0) == "now")
        #expect(age(59) == "now")
        #expect(age(-30) == "now")
    }

    @Test("under an hour counts whole minutes")
    func minutes() {
        #expect(age(60) == "1 min")
        #expect(age(2 * 60 + 59) == "2 min")
        #expect(age(3599) == "59 min")
    }

    @Test("the same local day counts whole hours")
    func hours() {
        #expect(age(3600) == "1 h")
        #expect(age(11 * 3600 + 59 * 60) == "11 h")
    }

    @Test("the local day before says yesterday and the local time")
    func yesterday() {
        // 2026-11-30 17:04 UTC is 18:04 at UTC+1.
        #expect(AgeText.describe(1_796_058_240, now: noon, utcOffset: 3600) == "yesterday 18:04")
        #expect(AgeText.describe(1_796_058_240, now: noon, utcOffset: 0) == "yesterday 17:04")
    }

    @Test("before yesterday: day, month and local time")
    func older() {
        // 2026-11-28 08:05 UTC.
        #expect(AgeText.describe(1_795_853_100, now: noon, utcOffset: 3600) == "28 Nov 09:05")
        // West of UTC the evening before: 27 Nov 23:05 at UTC−9.
        #expect(AgeText.describe(1_795_853_100, now: noon, utcOffset: -9 * 3600) == "27 Nov 23:05")
    }

    @Test("the offset decides which day it was: an hour across UTC midnight")
    func dayByOffset() {
        let lateUTC: Int64 = 1_796_081_400  // 2026-11-30 23:30 UTC
        let afterMidnightUTC: Int64 = 1_796_085_000  // 2026-12-01 00:30 UTC
        #expect(AgeText.describe(lateUTC, now: afterMidnightUTC, utcOffset: 0) == "yesterday 23:30")
        // At UTC+1 both are on 1 Dec.
        #expect(AgeText.describe(lateUTC, now: afterMidnightUTC, utcOffset: 3600) == "1 h")
    }

    @Test("civil dates: the epoch, a leap day, a time before 1970")
    func civil() {
        #expect(AgeText.civilDate(daysSinceEpoch: 0) == (1970, 1, 1))
        #expect(AgeText.civilDate(daysSinceEpoch: 19782) == (2024, 2, 29))
        #expect(AgeText.civilDate(daysSinceEpoch: -1) == (1969, 12, 31))
        #expect(AgeText.civilDate(daysSinceEpoch: 20788) == (2026, 12, 1))
    }
}
