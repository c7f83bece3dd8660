import DeskDaysConfig
import Foundation
import QR

/// An on-demand scan (`deskdays checkin --qr`, `deskdays qr scan --camera`):
/// the camera is opened for at most `timeout` seconds and closed at the first
/// code that matches a rule. Every frame is decoded (no change detection: a
/// scan is short and the user is moving the code into view).
public enum CameraScan {
    public enum Outcome: Sendable, Equatable {
        /// A code matching `rule` was seen; `payload` is for the user's screen only.
        case matched(rule: String, payload: String)
        /// Codes were seen, none of them the user's (payloads for display).
        case noMatch(seen: [String])
    }

    /// Blocks the calling thread until a match or the timeout.
    public static func run(settings: QRSettings, timeout: Double = 30) throws(CameraError) -> Outcome {
        let matcher = PayloadMatcher(payloads: settings.payloads, prefixes: settings.prefixes)
        let camera = try V4L2Camera(device: settings.device)
        let scanner = QRDecoder()
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        var seen: [String] = []
        while ContinuousClock.now < deadline {
            guard let frame = try camera.latestLuma(timeout: 0.5) else { continue }
            for payload in scanner.scan(frame) {
                if let rule = matcher.rule(for: payload) { return .matched(rule: rule, payload: payload) }
                if !seen.contains(payload) { seen.append(payload) }
            }
        }
        return .noMatch(seen: seen)
    }

    /// The codes (distinct, in the decoder's order) of the first frame in which any
    /// QR code decodes, whether or not a rule matches it, or none after
    /// `timeout` seconds (`enroll qr`, which learns a code no rule knows yet).
    /// Blocks the calling thread.
    public static func firstCodes(device: String, timeout: Double = 30) throws(CameraError) -> [String] {
        let camera = try V4L2Camera(device: device)
        let scanner = QRDecoder()
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while ContinuousClock.now < deadline {
            guard let frame = try camera.latestLuma(timeout: 0.5) else { continue }
            let codes = scanner.scan(frame).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            if !codes.isEmpty { return codes }
        }
        return []
    }
}
