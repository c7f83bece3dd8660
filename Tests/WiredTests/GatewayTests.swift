import DeskDaysConfig
import NL80211
import Testing
import Wired

/// The wired method's decisions on plain values: which gateways are the
/// default ones now, which rule a MAC names, which events are worth a
/// re-read, and a gateway's MAC kept across a neighbour entry's churn.
@Suite struct GatewayTests {
    static let v4 = IPAddress(family: .ipv4, bytes: [10, 200, 0, 1])!
    static let v4Other = IPAddress(family: .ipv4, bytes: [10, 200, 0, 9])!
    static let v6 = IPAddress(family: .ipv6, bytes: [0xfe, 0x80] + [UInt8](repeating: 0, count: 13) + [1])!
    static let office: [UInt8] = [0x02, 0, 0, 0, 0x0a, 0x01]
    static let home: [UInt8] = [0x02, 0, 0, 0, 0x0b, 0x01]
    static let up: UInt32 = 0x1 | 0x40 | 0x1_0000
    static let noCarrier: UInt32 = 0x1

    static func eth0(_ flags: UInt32 = up) -> LinkEntry { LinkEntry(index: 2, name: "eth0", flags: flags) }
    static func defaultRoute(_ gateway: IPAddress, table: UInt32 = 254, type: UInt8 = 1, prefix: UInt8 = 0,
                             change: RouteObject.Change = .added) -> RouteEntry {
        RouteEntry(family: gateway.family, prefixLength: prefix, table: table, type: type,
                   nextHops: [.init(interfaceIndex: 2, gateway: gateway)], change: change)
    }
    static func neighbour(_ address: IPAddress, _ mac: [UInt8]?, state: UInt16 = 0x02) -> NeighbourEntry {
        NeighbourEntry(interfaceIndex: 2, address: address, lladdr: mac, state: state)
    }

    static let settings: WiredSettings = {
        var settings = WiredSettings()
        settings.enabled = true
        settings.networks = [.init(name: "hq", gatewayMACs: ["02:00:00:00:0a:01"]),
                             .init(name: "hq-again", gatewayMACs: ["02:00:00:00:0a:01"])]
        return settings
    }()

    @Test func aDefaultRouteThroughAnUpLinkGivesItsGatewayAndResolvedMAC() {
        let snapshot = RouteSnapshot(links: [Self.eth0()], routes: [Self.defaultRoute(Self.v4)],
                                     neighbours: [Self.neighbour(Self.v4, Self.office, state: 0x04)])
        #expect(snapshot.gateways.count == 1)
        #expect(snapshot.gateways.first?.interfaceName == "eth0")
        #expect(snapshot.gateways.first?.mac == MACAddress(bytes: Self.office))
        // The first rule in file order that lists the MAC.
        #expect(snapshot.gateways.first.flatMap(GatewayMatcher(Self.settings).rule(for:)) == "hq")
    }

    @Test func noCarrierMeansNoGatewayEvenThoughTheKernelKeepsTheRoute() {
        let snapshot = RouteSnapshot(links: [Self.eth0(Self.noCarrier)], routes: [Self.defaultRoute(Self.v4)],
                                     neighbours: [Self.neighbour(Self.v4, Self.office, state: 0x80)])
        #expect(snapshot.gateways.isEmpty)
    }

    @Test(arguments: [
        (UInt16(0x01), false), // INCOMPLETE
        (UInt16(0x20), false), // FAILED
        (UInt16(0x40), false), // NOARP
        (UInt16(0x02), true), (UInt16(0x04), true), (UInt16(0x08), true), (UInt16(0x10), true), (UInt16(0x80), true),
    ])
    func onlyResolvedNeighbourStatesGiveAMAC(state: UInt16, resolved: Bool) {
        let snapshot = RouteSnapshot(links: [Self.eth0()], routes: [Self.defaultRoute(Self.v4)],
                                     neighbours: [Self.neighbour(Self.v4, Self.office, state: state)])
        #expect((snapshot.gateways.first?.mac != nil) == resolved)
    }

    @Test func notEveryRouteIsADefaultRoute() {
        let routes = [
            Self.defaultRoute(Self.v4, prefix: 24),         // a subnet route
            Self.defaultRoute(Self.v4, table: 255),         // the local table
            Self.defaultRoute(Self.v4, type: 7),            // unreachable default
            RouteEntry(family: .ipv4, prefixLength: 0, nextHops: [.init(interfaceIndex: 2, gateway: nil)]), // default dev wg0
        ]
        #expect(RouteSnapshot(links: [Self.eth0()], routes: routes).gateways.isEmpty)
        // Another table (policy routing) does count.
        #expect(RouteSnapshot(links: [Self.eth0()], routes: [Self.defaultRoute(Self.v4, table: 100)]).gateways.count == 1)
    }

    @Test func ipv4AndIPv6GatewaysAreBothFollowedIPv4First() {
        let snapshot = RouteSnapshot(links: [Self.eth0()], routes: [Self.defaultRoute(Self.v6), Self.defaultRoute(Self.v4)],
                                     neighbours: [Self.neighbour(Self.v6, Self.office)])
        #expect(snapshot.gateways.map(\.family) == [.ipv4, .ipv6])
        #expect(snapshot.gateways.map { $0.mac != nil } == [false, true])
    }

    @Test func anotherGatewaysMACMatchesNoRule() {
        let snapshot = RouteSnapshot(links: [Self.eth0()], routes: [Self.defaultRoute(Self.v4)],
                                     neighbours: [Self.neighbour(Self.v4, Self.home)])
        #expect(snapshot.gateways.first.flatMap(GatewayMatcher(Self.settings).rule(for:)) == nil)
    }

    @Test func onlyEventsThatCanChangeTheGatewaysAreWorthARead() {
        let snapshot = RouteSnapshot(links: [Self.eth0()], routes: [Self.defaultRoute(Self.v4)],
                                     neighbours: [Self.neighbour(Self.v4, Self.office)])
        // Links: a carrier change or a new link that is up; not a message that changes no flag (a Wi-Fi driver's).
        #expect(snapshot.isChanged(by: .link(Self.eth0(Self.noCarrier))))
        #expect(!snapshot.isChanged(by: .link(Self.eth0())))
        #expect(snapshot.isChanged(by: .link(LinkEntry(index: 3, name: "eth1", flags: Self.up))))
        #expect(!snapshot.isChanged(by: .link(LinkEntry(index: 3, name: "wlan0", flags: Self.noCarrier))))
        #expect(snapshot.isChanged(by: .link(LinkEntry(index: 2, name: "eth0", flags: Self.up, change: .removed))))
        // Routes: default ones with a gateway, coming or going.
        #expect(snapshot.isChanged(by: .route(Self.defaultRoute(Self.v4, change: .removed))))
        #expect(snapshot.isChanged(by: .route(Self.defaultRoute(Self.v6))))
        #expect(!snapshot.isChanged(by: .route(Self.defaultRoute(Self.v4, prefix: 24))))
        // Neighbours: the gateway's, with another MAC; not its ageing, not another host, not its removal.
        #expect(snapshot.isChanged(by: .neighbour(Self.neighbour(Self.v4, Self.home))))
        #expect(!snapshot.isChanged(by: .neighbour(Self.neighbour(Self.v4, Self.office, state: 0x04))))
        #expect(!snapshot.isChanged(by: .neighbour(Self.neighbour(Self.v4Other, Self.home))))
        #expect(!snapshot.isChanged(by: .neighbour(NeighbourEntry(interfaceIndex: 2, address: Self.v4, lladdr: nil,
                                                                  state: 0, change: .removed))))
        // A gateway waiting for resolution: its first resolved entry counts.
        let waiting = RouteSnapshot(links: [Self.eth0()], routes: [Self.defaultRoute(Self.v4)])
        #expect(waiting.isChanged(by: .neighbour(Self.neighbour(Self.v4, Self.office))))
        #expect(!waiting.isChanged(by: .neighbour(Self.neighbour(Self.v4, nil, state: 0x01))))
    }

    @Test func theMACIsKeptWhileTheSameGatewayStaysAndForgottenWhenItGoes() {
        var memory = GatewayMemory()
        let resolved = RouteSnapshot(links: [Self.eth0()], routes: [Self.defaultRoute(Self.v4)],
                                     neighbours: [Self.neighbour(Self.v4, Self.office)])
        let churned = RouteSnapshot(links: [Self.eth0()], routes: [Self.defaultRoute(Self.v4)],
                                    neighbours: [Self.neighbour(Self.v4, nil, state: 0x20)])
        let unplugged = RouteSnapshot(links: [Self.eth0(Self.noCarrier)], routes: [Self.defaultRoute(Self.v4)])
        #expect(memory.resolve(resolved.gateways).first?.mac == MACAddress(bytes: Self.office))
        #expect(memory.resolve(churned.gateways).first?.mac == MACAddress(bytes: Self.office))
        #expect(memory.resolve(unplugged.gateways).isEmpty)
        // Plugged in again: the old MAC is not assumed.
        #expect(memory.resolve(churned.gateways).first?.mac == nil)
    }

    @Test func addressesHaveTheirFamilysLength() {
        #expect(IPAddress(family: .ipv4, bytes: [1, 2, 3]) == nil)
        #expect(IPAddress(family: .ipv6, bytes: [1, 2, 3, 4]) == nil)
        #expect(NeighbourEntry(interfaceIndex: 2, address: Self.v4, lladdr: [1, 2, 3], state: 0x02).resolvedMAC == nil)
    }
}
