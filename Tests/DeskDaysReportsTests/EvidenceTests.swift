import DeskDaysCore
@testable import DeskDaysReports
import Foundation
import Testing

/// `deskdays evidence`: the SHA-256 it prints (Nettle), the page's day
/// table, and the page printed to PDF by headless Chromium without clipping.
@Suite struct EvidenceTests {
    /// FIPS 180-4 test vectors: empty, "abc", the two-block message, a million "a".
    @Test func sha256KnownAnswers() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    static let long = "The badge reader at the east door was out of order all week; I signed the visitor book at "
        + "reception each morning (see the facilities ticket) — ENDOFNOTE"

    /// March 2026 in London with a night shift, Wi-Fi and NFC, a manual
    /// record with a long note, a removal, and rule names that must not show.
    static func page(note: String = long) -> EvidencePage {
        var policy = Policy(timeZone: TimeZone(identifier: "Europe/London")!)
        policy.period = .month
        policy.minHours = 4
        policy.dayStartMinutes = 4 * 60
        let today = Scenarios.date("2026-03-20")
        func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
        let checkIns = [
            AutomaticCheckIn(date: Scenarios.date("2026-03-16"), source: .nfc, rule: "secret-desk-rule", at: at("2026-03-16T08:52:00Z")),
            AutomaticCheckIn(date: Scenarios.date("2026-03-16"), source: .wifi, rule: "Corp-SSID-rule", at: at("2026-03-16T08:55:00Z")),
            AutomaticCheckIn(date: Scenarios.date("2026-03-17"), source: .gps, rule: "secret-fence", at: at("2026-03-17T22:00:00Z")),
        ]
        let signs = [
            LatestSign(date: Scenarios.date("2026-03-16"), source: .wifi, at: at("2026-03-16T17:40:00Z"), kind: .departure),
            LatestSign(date: Scenarios.date("2026-03-17"), source: .gps, at: at("2026-03-18T03:30:00Z"), kind: .departure),
        ]
        let records = [
            DayRecord(id: 1, date: Scenarios.date("2026-03-18"), status: .office, origin: .manual, note: note,
                      recordedAt: at("2026-03-19T09:00:00Z")),
            DayRecord(id: 2, date: Scenarios.date("2026-03-02"), status: .vacation, origin: .manual, recordedAt: at("2026-02-20T09:00:00Z")),
            // A plan from the calendar, and an end-of-day fallback.
            DayRecord(id: 3, date: Scenarios.date("2026-03-25"), status: .office, origin: .calendar, recordedAt: at("2026-03-01T09:00:00Z")),
            DayRecord(id: 4, date: Scenarios.date("2026-03-04"), status: .remote, origin: .fallback, recordedAt: at("2026-03-04T20:00:00Z")),
        ]
        let presence = DayPresence.days(checkIns: checkIns, signs: signs, policy: policy, now: at("2026-03-20T12:00:00Z"))
        let engine = PolicyEngine(policy: policy)
        let report = engine.report(today: today, records: records, checkIns: checkIns, presence: presence)
        let resolved = Resolver.resolve(report.period.span, records: records, checkIns: checkIns, short: engine.shortDates(presence))
        return EvidencePage(policy: policy, report: report, resolved: resolved, presence: presence, records: records,
                            removals: [.init(date: Scenarios.date("2026-03-05"), origin: .automatic, entry: "qr check-in",
                                             removedAt: at("2026-03-06T10:00:00Z"))],
                            settings: [("End-of-day fallback", "remote at 20:00")], generated: at("2026-03-20T12:00:00Z"))
    }

    @Test func theDayTableHoldsEveryDateWithItsEvidence() {
        let page = Self.page()
        let rows = page.dayRows()
        #expect(rows.count == 31)
        #expect(rows[15] == ["2026-03-16", "mon", "workday", "office", "automatic", "nfc 08:52; wifi 08:55–17:40",
                             "08:52", "17:40", "8.8", ""])
        // The night shift ends at 03:30 on the 18th, still the 17th's day.
        #expect(rows[16] == ["2026-03-17", "tue", "workday", "office", "automatic", "gps 22:00–03:30", "22:00", "03:30", "5.5", ""])
        #expect(rows[17][3...4] == ["office", "manual"])
        #expect(rows[17][9] == Self.long)
        #expect(rows[20][2] == "non-workday")
        let html = page.html()
        for secret in ["secret-desk-rule", "Corp-SSID-rule", "secret-fence"] { #expect(!html.contains(secret)) }
        #expect(html.contains(page.digest()))
        #expect(html.contains("removed: qr check-in"))
        #expect(html.contains("2026-03-19 09:00 +00:00"))
        #expect(html.contains("Day starts at</th><td>04:00"))
        // The digest is over the table as printed: a different note is a different digest.
        #expect(page.digest() == SHA256.hex(page.tableText()))
        #expect(Self.page(note: "another note").digest() != page.digest())
    }

    @Test(.enabled(if: Tools.has("chromium") && Tools.has("pdftotext") && Tools.has("pdfinfo"),
                   "chromium or poppler-utils not installed: apt-get install chromium poppler-utils"),
          arguments: [("A4", "(A4)"), ("letter", "(letter)")])
    func printsToPDFWithoutClipping(paper: String, named: String) async throws {
        let folder = try Tools.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = Self.page()
        let html = folder.appendingPathComponent("evidence.html"), pdf = folder.appendingPathComponent("evidence.pdf")
        // The printer's paper, as a print dialog would choose it.
        try page.html().replacingOccurrences(of: "</style>", with: "@page{size:\(paper)}</style>")
            .write(to: html, atomically: true, encoding: .utf8)
        let status = try await Tools.run("chromium", [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-pdf-header-footer",
            "--user-data-dir=\(folder.appendingPathComponent("profile").path)",
            "--print-to-pdf=\(pdf.path)", html.absoluteString,
        ], timeout: 120)
        #expect(status == 0)
        let text = folder.appendingPathComponent("evidence.txt"), info = folder.appendingPathComponent("info.txt")
        #expect(try await Tools.run("pdftotext", [pdf.path, text.path]) == 0)
        #expect(try await Tools.runCapturing("pdfinfo", [pdf.path], to: info) == 0)
        let pageInfo = try String(contentsOf: info, encoding: .utf8)
        #expect(pageInfo.contains(named), "\(pageInfo)")
        // Everything on the page reached the paper: every date, the digest, the
        // end of the longest note and of the footer (nothing ran off the right edge).
        let printed = try String(contentsOf: text, encoding: .utf8)
        let words = Set(printed.split(whereSeparator: { $0.isWhitespace }).map(String.init))
        for date in page.report.period.span { #expect(printed.contains(date.description), "\(date) missing from the PDF") }
        #expect(printed.replacingOccurrences(of: "\n", with: "").contains(page.digest()), "the digest is not printed whole")
        #expect(words.contains("ENDOFNOTE"))
        #expect(printed.contains("fallback."))
        #expect(printed.contains("gps 22:00–03:30"))
        // Column names are whole on paper: headers wrap at spaces only, never inside a word ("wee kday").
        // (pdftotext may join a header to its neighbour's, "weekdayday"; a broken one prints as two words.)
        // And so are the words of the status, kind and origin columns ("vacatio n", "planned_of fice").
        for name in EvidencePage.columns + ["planned_office", "vacation", "non-workday", "automatic", "fallback", "remote"] {
            #expect(printed.contains(name), "\(name) is not printed whole")
            for cut in 1..<name.count {
                let head = String(name.prefix(cut)), tail = String(name.dropFirst(cut))
                #expect(!(words.contains(head) && words.contains(tail)), "\(name) is broken into \(head) \(tail)")
            }
        }
    }
}
