import SystemPackage

/// The plain reads and writes on a descriptor that DeskDays makes itself
/// (not through a C library), in one place: through swift-system's
/// `FileDescriptor`, which retries a call `EINTR` interrupted, and
/// `writeAll`, which goes on after a short write. The one atomic replace
/// of a file is `AtomicFile`, beside it.
public enum Syscall {
    /// Reads what is there into `buffer`: the byte count (0 at the end),
    /// or the error (`EAGAIN` on a non-blocking descriptor with nothing to read).
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        result { try FileDescriptor(rawValue: fd).read(into: buffer) }
    }

    /// Reads at `offset` without moving the file position (`pread`).
    public static func read(_ fd: Int32, at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        result { try FileDescriptor(rawValue: fd).read(fromAbsoluteOffset: offset, into: buffer) }
    }

    /// swift-system throws `Errno` only; its functions are declared untyped.
    private static func result(_ call: () throws -> Int) -> Result<Int, Errno> {
        do {
            return .success(try call())
        } catch let error as Errno {
            return .failure(error)
        } catch {
            return .failure(.ioError)
        }
    }

    /// Writes all of `bytes`, or throws the error that stopped it.
    public static func writeAll(_ fd: Int32, _ bytes: some Sequence<UInt8>) throws(Errno) {
        do {
            _ = try FileDescriptor(rawValue: fd).writeAll(bytes)
        } catch let error as Errno {
            throw error
        } catch {
            throw Errno.ioError
        }
    }
}
