import DeskDaysConfig
import Foundation
import Testing

/// `[wired]` and `[[wired.networks]]` (docs/cli.md): gateway MACs checked
/// and normalised, problems located on their line, one sentence naming the key.
@Suite struct WiredConfigTests {
    @Test func networksLoadWithTheirMACsInLowerCase() {
        let text = """
        [wired]
        enabled = true

        [[wired.networks]]
        name = "hq"
        gateway_mac = ["AA:BB:CC:DD:EE:FF", "02:00:00:00:0a:01"]

        [[wired.networks]]
        gateway_mac = ["02:00:00:00:0b:01"]
        """
        let (config, problems) = ConfigLoader.parse(text, file: "c.toml")
        #expect(problems.isEmpty, "\(problems)")
        #expect(config.wired.enabled)
        #expect(config.wired.networks == [
            .init(name: "hq", gatewayMACs: ["aa:bb:cc:dd:ee:ff", "02:00:00:00:0a:01"]),
            .init(name: "wired-2", gatewayMACs: ["02:00:00:00:0b:01"]),
        ])
        // The MAC is an identifier: it can never be a rule name (so never stored).
        #expect(config.ruleNameProblem("aa-bb-cc-dd-ee-ff") != nil)
    }

    @Test(arguments: [
        ("gateway_mac = [\"aa:bb:cc:dd:ee\"]", 2, "gateway_mac \"aa:bb:cc:dd:ee\" is not a MAC address; write it as aa:bb:cc:dd:ee:ff"),
        ("gateway_mac = [\"aa-bb-cc-dd-ee-ff\"]", 2, "is not a MAC address"),
        ("gateway_mac = [\"ａa:bb:cc:dd:ee:ff\"]", 2, "is not a MAC address"),
        ("gateway_mac = []", 2, "gateway_mac is empty"),
        ("gateway_mac = \"aa:bb:cc:dd:ee:ff\"", 2, "must be"),
        ("name = \"hq\"", 1, "a wired network needs gateway_mac"),
    ])
    func badNetworksAreOneLocatedSentence(line: String, expectedLine: Int, expected: String) {
        let (config, problems) = ConfigLoader.parse("[[wired.networks]]\n\(line)\n", file: "c.toml")
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.line == expectedLine, "\(problems)")
        #expect(problems.first?.message.contains(expected) == true, "\(problems)")
        #expect(config.wired.networks.isEmpty)
    }

    @Test func anUnknownKeyIsNamed() {
        let (_, problems) = ConfigLoader.parse("[wired]\nenable = true\n", file: "c.toml")
        #expect(problems.count == 1)
        #expect(problems.first?.message.contains("unknown key \"enable\"") == true, "\(problems)")
    }

    @Test func configShowRoundTrips() {
        var configuration = Configuration()
        configuration.wired.enabled = true
        configuration.wired.networks = [.init(name: "hq", gatewayMACs: ["aa:bb:cc:dd:ee:ff"])]
        let (again, problems) = ConfigLoader.parse(configuration.tomlText(), file: "shown.toml")
        #expect(problems.isEmpty, "\(problems)")
        #expect(again.wired == configuration.wired)
    }
}
