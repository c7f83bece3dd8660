/// One 8-bit luma image (zbar's `Y800`): what every camera format and image
/// file is reduced to before decoding.
public struct LumaFrame: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Row-major, `width` bytes a row, no padding.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height, "luma size mismatch")
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}
