// libFuzzer entry point over the NMEA framer, the sentence decoders, cycle
// assembly, the JSON line and the geofence monitor: built from
// Sources/NMEA alone by fuzz/nmea.sh. Any input must neither crash nor
// trap, and feeding it in two pieces must give what feeding it whole gives.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNMEA(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    var whole = NMEAStreamDecoder()
    var split = NMEAStreamDecoder()
    var monitor = GeofenceMonitor(fences: [
        Geofence(name: "f", latitude: 48.1, longitude: 11.5, radiusM: 150, dwellS: 5),
    ])
    var first: [Fix] = []
    var second: [Fix] = []
    var line: [UInt8] = []
    whole.feed(bytes) { fix in
        first.append(fix)
        fix.appendJSONLine(to: &line)
        _ = monitor.update(fix)
    }
    let cut = count / 2
    split.feed(bytes[..<cut]) { second.append($0) }
    split.feed(bytes[cut...]) { second.append($0) }
    if first != second || whole.statistics != split.statistics {
        fatalError("splitting the input changed the result")
    }
    // Every accepted sentence goes through every decoder, whatever its kind.
    var framer = NMEAFramer()
    for case .sentence(let sentence) in framer.feed(bytes) {
        _ = try? GGA(sentence)
        _ = try? RMC(sentence)
        _ = try? GLL(sentence)
        _ = try? GNS(sentence)
        _ = try? GSA(sentence)
        _ = try? VTG(sentence)
        _ = try? ZDA(sentence)
    }
    return 0
}
