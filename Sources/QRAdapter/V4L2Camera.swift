import CV4L2
import Glibc
import QR
import Syscall

/// One open V4L2 capture device, streaming into mmap'ed buffers through
/// libv4l2 (which converts formats the camera cannot send natively).
///
/// Owned by one thread; `deinit` stops streaming, unmaps and closes, so the
/// camera light goes off as soon as the scan that wanted it ends.
public final class V4L2Camera {
    public let device: String
    public let format: CameraFormat
    public let width: Int
    public let height: Int
    public let bytesPerLine: Int
    private let fd: Int32
    private var buffers: [(start: UnsafeMutableRawPointer, length: Int)] = []
    private var streaming = false

    /// Opens `device` and starts streaming in the preferred format at the
    /// smallest size at least `minimumWidth × minimumHeight`.
    ///
    /// - Parameter framesPerSecond: asked of the driver (watch mode asks for
    ///   few); drivers may ignore it, the caller paces itself anyway.
    public init(device: String, minimumWidth: Int = 640, minimumHeight: Int = 480,
                framesPerSecond: Int? = nil) throws(CameraError) {
        self.device = device
        let fd = CV4L2_open(device, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw CameraError.from(errno: errno, device: device, call: "open") }
        let negotiated: (format: CameraFormat, width: Int, height: Int, bytesPerLine: Int)
        do throws(CameraError) {
            negotiated = try Self.negotiate(fd, device: device, minimumWidth: minimumWidth, minimumHeight: minimumHeight)
        } catch {
            _ = v4l2_close(fd)
            throw error
        }
        self.fd = fd
        (format, width, height, bytesPerLine) = negotiated
        // From here on every stored property is set: if a step throws,
        // deinit runs and releases what was acquired.
        if let framesPerSecond, framesPerSecond > 0 {
            var parameters = v4l2_streamparm()
            parameters.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            parameters.parm.capture.timeperframe = v4l2_fract(numerator: 1, denominator: UInt32(framesPerSecond))
            // Best effort: many drivers have fixed rates; the caller paces itself anyway.
            try? V4L2.ioctl(fd, CV4L2_VIDIOC_S_PARM, &parameters, device: device, call: "VIDIOC_S_PARM")
        }
        try mapBuffers(count: 4)
        var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        try V4L2.ioctl(fd, CV4L2_VIDIOC_STREAMON, &type, device: device, call: "VIDIOC_STREAMON")
        streaming = true
    }

    /// Checks the device is a streaming capture device, picks the format and
    /// size, and sets them; returns what the driver actually chose.
    private static func negotiate(_ fd: Int32, device: String, minimumWidth: Int, minimumHeight: Int)
        throws(CameraError) -> (format: CameraFormat, width: Int, height: Int, bytesPerLine: Int) {
        var capability = v4l2_capability()
        try V4L2.ioctl(fd, CV4L2_VIDIOC_QUERYCAP, &capability, device: device, call: "VIDIOC_QUERYCAP")
        let caps = capability.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? capability.device_caps : capability.capabilities
        guard caps & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0, caps & UInt32(V4L2_CAP_STREAMING) != 0 else {
            throw CameraError(.notACamera, device: device)
        }
        let offered = V4L2.formats(fd)
        guard let chosen = CameraFormat.preferred.first(where: { offered.contains($0.fourcc) }) else {
            throw CameraError(.unsupportedFormat(offered: offered.map(fourccText)), device: device)
        }
        let size = V4L2.frameSize(fd, fourcc: chosen.fourcc, minimumWidth: minimumWidth, minimumHeight: minimumHeight)
        var requested = v4l2_format()
        requested.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        requested.fmt.pix.width = UInt32(size.width)
        requested.fmt.pix.height = UInt32(size.height)
        requested.fmt.pix.pixelformat = chosen.fourcc
        requested.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        try V4L2.ioctl(fd, CV4L2_VIDIOC_S_FMT, &requested, device: device, call: "VIDIOC_S_FMT")
        // The driver may adjust anything it was asked for: believe what it answers.
        guard let actual = CameraFormat(fourcc: requested.fmt.pix.pixelformat) else {
            throw CameraError(.unsupportedFormat(offered: [fourccText(requested.fmt.pix.pixelformat)]), device: device)
        }
        return (actual, Int(requested.fmt.pix.width), Int(requested.fmt.pix.height), Int(requested.fmt.pix.bytesperline))
    }

    deinit {
        if streaming {
            var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
            _ = CV4L2_ioctl(fd, CV4L2_VIDIOC_STREAMOFF, &type)
        }
        for buffer in buffers { _ = v4l2_munmap(buffer.start, buffer.length) }
        _ = v4l2_close(fd)
    }

    /// Waits up to `timeout` seconds for a frame, then hands the newest
    /// filled buffer to `body` (older ones are returned to the driver unread,
    /// so a slow reader always sees the present, not a backlog). Nil on timeout.
    public func withLatestFrame<Result>(timeout: Double,
                                        _ body: (UnsafeRawBufferPointer) -> Result) throws(CameraError) -> Result? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        // A signal ends the wait like a timeout (no frame this time): the caller checks its stop first.
        switch Syscall.poll(&poller, timeout: Int32(timeout * 1000), onSignal: .return) {
        case .success(0), .failure(.interrupted): return nil
        case .success: break
        case .failure(let error): throw CameraError.from(errno: error.rawValue, device: device, call: "poll")
        }
        if poller.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0, poller.revents & Int16(POLLIN) == 0 {
            throw CameraError(.gone, device: device, call: "poll")
        }
        var newest: v4l2_buffer?
        while true {
            // Ask poll before each further dequeue: libv4l2 prints a line on
            // stderr for every DQBUF that finds the queue empty.
            if newest != nil {
                var more = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard case .success(1) = Syscall.poll(&more, timeout: 0), more.revents & Int16(POLLIN) != 0 else { break }
            }
            var buffer = v4l2_buffer()
            buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            buffer.memory = V4L2_MEMORY_MMAP.rawValue
            if case .failure(let error) = Syscall.retrying({ CV4L2_ioctl(fd, CV4L2_VIDIOC_DQBUF, &buffer) }) {
                if error == .wouldBlock { break }
                throw CameraError.from(errno: error.rawValue, device: device, call: "VIDIOC_DQBUF")
            }
            if var older = newest { try queue(&older) }
            newest = buffer
        }
        guard var buffer = newest else { return nil }
        defer { try? queue(&buffer) }
        let mapped = buffers[Int(buffer.index)]
        let used = min(Int(buffer.bytesused), mapped.length)
        return body(UnsafeRawBufferPointer(start: mapped.start, count: used))
    }

    /// The newest frame as luma, or nil on timeout or an unusable buffer
    /// (a torn MJPEG frame is skipped, not fatal).
    public func latestLuma(timeout: Double) throws(CameraError) -> LumaFrame? {
        try withLatestFrame(timeout: timeout) { bytes in
            try? format.luma(of: bytes, width: width, height: height, bytesPerLine: bytesPerLine)
        } ?? nil
    }

    private func queue(_ buffer: inout v4l2_buffer) throws(CameraError) {
        try V4L2.ioctl(fd, CV4L2_VIDIOC_QBUF, &buffer, device: device, call: "VIDIOC_QBUF")
    }

    private func mapBuffers(count: Int) throws(CameraError) {
        var request = v4l2_requestbuffers()
        request.count = UInt32(count)
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try V4L2.ioctl(fd, CV4L2_VIDIOC_REQBUFS, &request, device: device, call: "VIDIOC_REQBUFS")
        guard request.count > 0 else { throw CameraError(.system, device: device, call: "VIDIOC_REQBUFS", errno: ENOMEM) }
        for index in 0..<request.count {
            var buffer = v4l2_buffer()
            buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            buffer.memory = V4L2_MEMORY_MMAP.rawValue
            buffer.index = index
            try V4L2.ioctl(fd, CV4L2_VIDIOC_QUERYBUF, &buffer, device: device, call: "VIDIOC_QUERYBUF")
            let start = v4l2_mmap(nil, Int(buffer.length), PROT_READ | PROT_WRITE, MAP_SHARED, fd, Int64(buffer.m.offset))
            guard let start, start != MAP_FAILED else {
                throw CameraError.from(errno: errno, device: device, call: "mmap")
            }
            buffers.append((start, Int(buffer.length)))
            try queue(&buffer)
        }
    }
}

/// The libv4l2 funnel (docs/design.md, habit 4): one place that turns -1/errno into a
/// `CameraError` naming the request, and the enumeration helpers.
enum V4L2 {
    static func ioctl<Argument>(_ fd: Int32, _ request: UInt, _ argument: inout Argument,
                                device: String, call: String) throws(CameraError) {
        if case .failure(let error) = Syscall.retrying({ withUnsafeMutablePointer(to: &argument) { CV4L2_ioctl(fd, request, $0) } }) {
            throw CameraError.from(errno: error.rawValue, device: device, call: call)
        }
    }

    /// The pixel formats the device (and libv4l2's conversions) offer.
    static func formats(_ fd: Int32) -> [UInt32] {
        var codes: [UInt32] = []
        for index in 0..<64 {
            var description = v4l2_fmtdesc()
            description.index = UInt32(index)
            description.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            guard CV4L2_ioctl(fd, CV4L2_VIDIOC_ENUM_FMT, &description) == 0 else { break }
            codes.append(description.pixelformat)
        }
        return codes
    }

    /// The smallest discrete size at least `minimumWidth × minimumHeight`
    /// (else the largest); for stepwise or unknown ranges, the minimum itself,
    /// clamped to the range, and the driver adjusts it in VIDIOC_S_FMT.
    static func frameSize(_ fd: Int32, fourcc: UInt32, minimumWidth: Int, minimumHeight: Int) -> (width: Int, height: Int) {
        var discrete: [(width: Int, height: Int)] = []
        for index in 0..<256 {
            var size = v4l2_frmsizeenum()
            size.index = UInt32(index)
            size.pixel_format = fourcc
            guard CV4L2_ioctl(fd, CV4L2_VIDIOC_ENUM_FRAMESIZES, &size) == 0 else { break }
            if size.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
                discrete.append((Int(size.discrete.width), Int(size.discrete.height)))
            } else {
                let range = size.stepwise
                return (min(max(minimumWidth, Int(range.min_width)), Int(range.max_width)),
                        min(max(minimumHeight, Int(range.min_height)), Int(range.max_height)))
            }
        }
        return FrameSizeChoice.choose(from: discrete, minimumWidth: minimumWidth, minimumHeight: minimumHeight)
            ?? (minimumWidth, minimumHeight)
    }
}
