// libFuzzer entry point over one control-socket line: the codec every
// client and the agent share (`WireObject`, Sources/AgentSocket) and the
// version check. Built from AgentSocket's codec files and Sources/Localization
// by fuzz/control.sh. Any input must neither crash nor trap, and a line that
// is read must be written back as a line that reads as the same object.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControlLine(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    guard case .success(let object) = WireObject.parse(bytes) else { return 0 }
    let line = object.line()
    guard line.last == UInt8(ascii: "\n"), !line.dropLast().contains(UInt8(ascii: "\n")) else {
        fatalError("a message was written on more than one line")
    }
    var written = object
    // `.other` (a nested value) is written as null: compare what survives.
    for field in ControlMessage.Field.allCases where object[field] == .other { written[field] = .null }
    guard case .success(let again) = WireObject.parse(line.dropLast()), again == written else {
        fatalError("a message did not read back as itself")
    }
    _ = ControlMessage.versionProblem(object)
    _ = AnswerScope(object)
    return 0
}
