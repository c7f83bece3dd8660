#if canImport(Glibc)
import Glibc
#endif
import Syscall

/// An open serial device in raw mode: the only type in DeskDays that makes
/// termios calls. It owns its file descriptor and closes it in `deinit`;
/// it is used from one thread only (the reader's).
final class SerialPort {
    /// Outcome of one wait-and-read.
    enum ReadResult {
        case data(Int)
        /// No data: the interrupt descriptor became readable, or a signal arrived.
        case interrupted
        /// The device is gone (USB unplug, pty closed) or failed.
        case lost(SerialError)
    }

    private let descriptor: Int32

    /// The termios speeds for the bauds receivers use.
    static func speed(for baud: Int) -> speed_t? {
        switch baud {
        case 4800: speed_t(B4800)
        case 9600: speed_t(B9600)
        case 19200: speed_t(B19200)
        case 38400: speed_t(B38400)
        case 57600: speed_t(B57600)
        case 115_200: speed_t(B115200)
        default: nil
        }
    }

    /// Opens `path` (a device node or a udev symlink to one) in raw mode:
    /// 8N1, no flow control, no echo, no line discipline, so NMEA bytes
    /// arrive as the receiver sent them. Non-blocking, because reads are
    /// gated by `poll()`, which also watches the reader's stop pipe: a
    /// prompt stop without a timeout, so an idle port never wakes us.
    init(path: String, baud: Int) throws(SerialError) {
        guard let speed = SerialPort.speed(for: baud) else { throw .unsupportedBaud(baud) }
        let fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw SerialError("open") }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else {
            let error = SerialError("tcgetattr")
            close(fd)
            throw error
        }
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
        settings.c_cflag &= ~(tcflag_t(CRTSCTS) | tcflag_t(CSTOPB))
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard cfsetispeed(&settings, speed) == 0, cfsetospeed(&settings, speed) == 0,
              tcsetattr(fd, TCSANOW, &settings) == 0 else {
            let error = SerialError("tcsetattr")
            close(fd)
            throw error
        }
        descriptor = fd
    }

    deinit {
        close(descriptor)
    }

    /// Waits, without a timeout, for input or for `interrupt` to become
    /// readable (a stop request), then reads what is there.
    func read(into buffer: UnsafeMutableRawBufferPointer, interrupt: Int32) -> ReadResult {
        var requests = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                        pollfd(fd: interrupt, events: Int16(POLLIN), revents: 0)]
        // A signal returns here as `.interrupted`: the reader checks its stop, then waits again.
        switch Syscall.poll(&requests, timeout: -1, onSignal: .return) {
        case .success: break
        case .failure(.interrupted): return .interrupted
        case .failure(let error): return .lost(SerialError("poll", code: error.rawValue))
        }
        let request = requests[0]
        if request.revents == 0 { return .interrupted }
        // Read even when POLLHUP is set: the last bytes may still be queued.
        switch Syscall.read(descriptor, into: buffer) {
        case .success(let count) where count > 0: return .data(count)
        // 0 bytes after POLLIN is end of file: the other side is gone.
        case .success: return .lost(SerialError("read", code: EIO))
        case .failure(.wouldBlock):
            if request.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                return .lost(SerialError("poll", code: EIO))
            }
            return .interrupted
        case .failure(let error): return .lost(SerialError("read", code: error.rawValue))
        }
    }
}
