/// libFuzzer entry for the NDEF parser: every input is tried as an
/// NDEF message, as a Type 2 data area and as a whole tag image. Any trap,
/// overflow or ASan report is a bug: malformed input must end in NDEFError.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNDEF(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let records = try? NDEFMessage.decode(bytes) {
        precondition(records.reduce(0) { $0 + $1.payload.count } <= bytes.count)
        _ = NDEFContent.matchableStrings(in: records)
    }
    _ = try? TextRecord(payload: bytes)
    _ = try? URIRecord(payload: bytes)
    _ = try? SmartPoster(payload: bytes)
    _ = try? Type2Tag.scan(dataArea: bytes, capacity: Int(bytes.first ?? 0) * 8)
    if let message = try? Type2Tag.ndefMessage(memory: bytes) {
        precondition(message.count <= bytes.count)
        _ = try? NDEFMessage.decode(message)
    }
    return 0
}
