/// The uncompressed camera layouts DeskDays turns into luma itself. Compressed
/// formats (MJPEG) are decoded by libjpeg, or converted by libv4l2 to `yuv420`.
public enum PixelFormat: String, Sendable, CaseIterable {
    /// Packed 4:2:2, `Y0 U Y1 V`: two bytes a pixel, luma in the even bytes.
    case yuyv
    /// 8-bit greyscale: already luma.
    case grey
    /// Planar 4:2:0 (I420 or YV12): the first plane is luma.
    case yuv420
    /// Packed 8-bit R G B (image files; libv4l2 can make it from any camera).
    /// Luma is BT.601 on the encoded values, as a camera's Y and libjpeg's
    /// greyscale are.
    case rgb24

    /// Bytes a row takes at least for `width` pixels (the driver may pad more).
    public func minimumBytesPerLine(width: Int) -> Int {
        switch self {
        case .yuyv: width * 2
        case .rgb24: width * 3
        case .grey, .yuv420: width
        }
    }

    /// Extracts the luma of one frame, or nil when `bytes` is too short for the
    /// stated geometry (a truncated buffer from a misbehaving driver).
    ///
    /// - Parameter bytesPerLine: the driver's stride; 0 means "no padding".
    public func luma(of bytes: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerLine: Int = 0) -> LumaFrame? {
        let minimum = minimumBytesPerLine(width: width)
        let stride = bytesPerLine == 0 ? minimum : bytesPerLine
        guard width > 0, height > 0, stride >= minimum,
              bytes.count >= stride * (height - 1) + minimum else { return nil }
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height) { out, count in
            let source = bytes.bindMemory(to: UInt8.self)
            for row in 0..<height {
                let from = row * stride, to = row * width
                switch self {
                case .grey, .yuv420:
                    for x in 0..<width { out[to + x] = source[from + x] }
                case .yuyv:
                    for x in 0..<width { out[to + x] = source[from + 2 * x] }
                case .rgb24:
                    for x in 0..<width {
                        let r = UInt32(source[from + 3 * x]), g = UInt32(source[from + 3 * x + 1]), b = UInt32(source[from + 3 * x + 2])
                        // 0.299, 0.587, 0.114 in 8-bit fixed point; the weights sum to 256, so grey stays exact.
                        out[to + x] = UInt8((77 * r + 150 * g + 29 * b + 128) >> 8)
                    }
                }
            }
            count = width * height
        }
        return LumaFrame(width: width, height: height, pixels: pixels)
    }
}
