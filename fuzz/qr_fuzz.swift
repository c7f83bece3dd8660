/// libFuzzer entry for the pure QR logic: the first bytes choose a
/// frame geometry and stride, the rest is a camera buffer for every pixel
/// format; payload rules see the bytes as text. A short or odd buffer must
/// give nil, never a trap or an out-of-bounds read.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQR(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    guard size >= 4 else { return 0 }
    let width = Int(bytes[0] % 64), height = Int(bytes[1] % 64), padding = Int(bytes[2] % 16)
    let buffer = UnsafeRawBufferPointer(rebasing: bytes[4...])
    var detector = ChangeDetector(step: 1 + Int(bytes[3] % 8))
    for format in PixelFormat.allCases {
        let stride = format.minimumBytesPerLine(width: width) + padding
        if let frame = format.luma(of: buffer, width: width, height: height, bytesPerLine: bytes[3] & 1 == 0 ? 0 : stride) {
            precondition(frame.width == width && frame.height == height && frame.pixels.count == width * height)
            _ = detector.admit(frame)
            _ = detector.admit(frame)
        }
    }
    let text = String(decoding: buffer, as: UTF8.self)
    let parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let matcher = PayloadMatcher(payloads: Array(parts.prefix(2)), prefixes: Array(parts.dropFirst(2).prefix(2)))
    if let rule = matcher.rule(for: parts.last ?? "") {
        precondition(rule.hasPrefix("payload-") || rule.hasPrefix("prefix-"))
    }
    var debouncer = SightingDebouncer(rearmAfter: Double(bytes[3]))
    for (index, part) in parts.prefix(16).enumerated() { _ = debouncer.admit(part, at: Double(index)) }
    return 0
}
