import NMEA

/// What the serial reader reports: the device coming and going, and fixes.
public enum SerialEvent: Sendable, Hashable {
    /// The device was opened (first time, or again after a loss).
    case connected
    /// The device vanished or failed; the reader is retrying.
    case disconnected
    case fix(Fix)
}
