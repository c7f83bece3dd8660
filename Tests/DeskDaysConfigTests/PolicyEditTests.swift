import DeskDaysConfig
import Foundation
import Testing

/// `ConfigEditor.replacingPolicy` (`setup`, `policy adopt`): the policy's
/// tables go, with the comments above their headers; every other table,
/// key and comment stays byte for byte.
struct PolicyEditTests {
    static let text = """
        # My laptop's configuration.

        # The rule HR sent.
        [policy]
        period = "quarter"  # a quarter

        [policy.target]
        kind = "percent"
        value = 50

        # Sent by the site.
        [[holidays]]
        date = "2026-12-24"
        name = "Closed"

        # Remind me late.
        [checkin]
        reminder_time = "11:00"

        """

    @Test func adoptingRemovesThePolicyAndItsHolidays() throws {
        let edited = try #require(ConfigEditor.replacingPolicy(in: Self.text, with: ""))
        #expect(edited == "# My laptop's configuration.\n\n# Remind me late.\n[checkin]\nreminder_time = \"11:00\"\n")
        let (configuration, problems) = ConfigLoader.parse(edited, file: "config.toml")
        #expect(problems.isEmpty && !configuration.ownsPolicy && configuration.checkin.reminderTime?.description == "11:00")
    }

    @Test func setupReplacesThePolicyAndKeepsTheHolidays() throws {
        let policy = "[policy]\nperiod = \"month\"\n\n[policy.target]\nkind = \"days_per_week\"\nvalue = 3\n"
        let edited = try #require(ConfigEditor.replacingPolicy(in: Self.text, with: policy, holidays: false))
        #expect(edited.hasPrefix("# My laptop's configuration.\n\n" + policy))
        #expect(edited.contains("# Sent by the site.\n[[holidays]]\ndate = \"2026-12-24\"") && edited.contains("# Remind me late.\n[checkin]"))
        #expect(!edited.contains("# The rule HR sent.") && !edited.contains("# a quarter"))
        let (configuration, problems) = ConfigLoader.parse(edited, file: "config.toml")
        #expect(problems.isEmpty && configuration.policy.period == .month && configuration.policy.holidays.count == 1)
    }

    @Test func aFileWithoutAPolicyGetsItAfterItsLeadingComments() throws {
        let edited = try #require(ConfigEditor.replacingPolicy(in: "# Mine.\n[desktop]\ntray = false\n", with: "[policy]\nperiod = \"year\"\n"))
        #expect(edited == "# Mine.\n\n[policy]\nperiod = \"year\"\n\n[desktop]\ntray = false\n")
        #expect(ConfigLoader.parse(edited, file: "config.toml").1.isEmpty)
    }

    /// A policy written as dotted keys or an inline table is not for this edit: nil, and nothing is guessed.
    @Test func dottedOrInlinePoliciesAreLeftToTheUser() {
        #expect(ConfigEditor.replacingPolicy(in: "policy.period = \"month\"\n[checkin]\nreminder_time = \"off\"\n", with: "") == nil)
        #expect(ConfigEditor.replacingPolicy(in: "policy = { period = \"month\" }\n", with: "") == nil)
    }
}
