import NL80211
import Testing

/// The shared nl80211 vectors decoded by the parser: attribute layout, SSID,
/// BSSID, family resolution, errors and mlme events.
@Suite struct VectorTests {
    static let netlinkVectors = Vector.all.filter { $0.layout != .opaque }

    @Test("every netlink vector splits into the annotated attributes", arguments: netlinkVectors.map(\.index))
    func layout(index: Int) throws {
        let vector = Vector.all[index]
        let attributes: [NetlinkAttribute]
        switch vector.layout {
        case .attributes:
            attributes = try NetlinkAttribute.parse(vector.bytes)
        case .generic:
            let message = try GenericNetlinkMessage(payload: vector.bytes)
            #expect(Int(message.command) == vector.genericCommand)
            attributes = message.attributes
        case .message:
            let messages = try NetlinkMessage.parseAll(vector.bytes)
            #expect(messages.count == 1)
            #expect(Int(messages[0].type) == vector.headerType)
            #expect(Int(messages[0].sequence) == vector.headerSequence)
            if messages[0].type == NetlinkMessage.typeError { return }
            let message = try messages[0].generic()
            #expect(Int(message.command) == vector.genericCommand)
            attributes = message.attributes
        case .opaque:
            return
        }
        #expect(attributes.map { Int($0.type) } == vector.attributes.map(\.type))
        #expect(attributes.map { $0.payload.count + 4 } == vector.attributes.map(\.length))
    }

    @Test func ssidAttributeOfAuthenticate() throws {
        let vector = try #require(Vector.named("test_captured_authenticate_open").first)
        let attributes = try NetlinkAttribute.parse(vector.bytes)
        let ssid = try #require(attributes.first(NL80211.Attribute.ssid))
        #expect(SSID(bytes: ssid.payload) == SSID("Test-WIFI"))
        #expect(MACAddress(bytes: try #require(attributes.first(NL80211.Attribute.mac)).payload) != nil)
    }

    @Test("scan results: BSSID and the SSID element of the IEs",
          arguments: [("test_captured_new_scan_results_event", "02:00:00:00:01:00", "Test-WIFI"),
                      ("test_get_scan_reply", "d6:b2:6a:a8:bc:b1", "Test-WIFI"),
                      ("testScanData", "18:a6:f7:99:81:90", "COLEMANCDA")])
    func scanResult(test: String, bssid: String, ssid: String) throws {
        let vector = try #require(Vector.named(test).first)
        let generic = vector.layout == .message
            ? try NetlinkMessage.parseAll(vector.bytes)[0].generic()
            : try GenericNetlinkMessage(payload: vector.bytes)
        #expect(generic.command == NL80211.Command.newScanResults)
        let bss = try ScannedBSS(attributes: generic.attributes)
        #expect(bss.bssid == MACAddress(bssid))
        #expect(bss.ssid == SSID(ssid))
        #expect(bss.ssid?.description == ssid)
    }

    @Test func informationElementsAlone() throws {
        let vector = try #require(Vector.named("test_parse_ies").first)
        let attribute = try #require(try NetlinkAttribute.parse(vector.bytes).first)
        #expect(attribute.type == NL80211.BSSAttribute.informationElements)
        #expect(try InformationElements.ssid(in: attribute.payload) == SSID("Test-WIFI"))
        #expect(try InformationElements.parse(attribute.payload).map(\.id).prefix(3) == [0, 1, 3])
    }

    @Test func familyResolutionReply() throws {
        let vector = try #require(Vector.named("testResolveGenericFamilyResponse").first)
        let message = try #require(try NetlinkMessage.parseAll(vector.bytes).first)
        #expect(message.type == GenericNetlinkControl.familyID)
        let family = try ControlFamily(attributes: message.generic().attributes)
        #expect(family.id == 0x1C)
        #expect(family.name == Array("nl80211".utf8))
        #expect(family.multicastGroups["mlme"] != nil)
        #expect(family.multicastGroups["scan"] != nil)
    }

    @Test func familyResolutionRequest() throws {
        let vector = try #require(Vector.named("testResolveGenericFamilyCommand").first)
        let message = try #require(try NetlinkMessage.parseAll(vector.bytes).first)
        let generic = try message.generic()
        #expect(generic.command == GenericNetlinkControl.commandGetFamily)
        #expect(generic.attributes.first(GenericNetlinkControl.attributeFamilyName)?.cString() == Array("nl80211".utf8))
    }

    @Test func kernelErrorAndAck() throws {
        let vectors = Vector.named("testErrorMessage")
        #expect(vectors.count == 2)
        let error = try NetlinkMessage.parseAll(vectors[0].bytes)[0]
        #expect(error.type == NetlinkMessage.typeError)
        #expect(try error.errorCode() == 95)  // EOPNOTSUPP
        #expect(try NetlinkMessage.parseAll(vectors[1].bytes)[0].errorCode() == 0)
    }

    @Test func mlmeEvents() throws {
        let connect = try NetlinkMessage.parseAll(try #require(Vector.named("test_captured_connect_result_event").first).bytes)[0]
        guard case .connect(let connectIndex, let success) = try MLMEEvent(connect.generic()) else {
            Issue.record("not a connect"); return
        }
        #expect(success)
        #expect(connectIndex != nil)
        let disconnect = try NetlinkMessage.parseAll(try #require(Vector.named("test_captured_disconnect_event").first).bytes)[0]
        guard case .disconnect(let index) = try MLMEEvent(disconnect.generic()) else {
            Issue.record("not a disconnect"); return
        }
        #expect(index != nil)
        let frame = try NetlinkMessage.parseAll(try #require(Vector.named("test_captured_frame_event").first).bytes)[0]
        #expect(try MLMEEvent(frame.generic()).changesLink == false)
    }
}
