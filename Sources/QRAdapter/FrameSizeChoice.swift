/// Which of a camera's discrete frame sizes to capture at: the smallest (by
/// area) that is at least the minimum in both directions, since more pixels
/// only cost decoding time once a code is legible; if none is that large,
/// the largest there is.
enum FrameSizeChoice {
    static func choose(from sizes: [(width: Int, height: Int)], minimumWidth: Int, minimumHeight: Int) -> (width: Int, height: Int)? {
        let largeEnough = sizes.filter { $0.width >= minimumWidth && $0.height >= minimumHeight }
        if let smallest = largeEnough.min(by: { $0.width * $0.height < $1.width * $1.height }) { return smallest }
        return sizes.max(by: { $0.width * $0.height < $1.width * $1.height })
    }
}
