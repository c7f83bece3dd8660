import Localization
import DeskDaysCore
import CQRencode
import Foundation
import QR

/// A QR code made by libqrencode: the module grid, and its renderings for
/// `deskdays qr make` (a PNG to print, or UTF-8 half blocks on a terminal).
public struct QRCodeImage: Sendable {
    /// Modules a side, without the quiet zone.
    public let size: Int
    /// Row-major; true is a dark module.
    public let modules: [Bool]

    /// The quiet zone the QR specification asks for, in modules.
    public static let quietZone = 4

    /// The error correction level: the share of the code that may be
    /// damaged (smudged, creased, glared, out of focus) and still read.
    public enum Level: String, CaseIterable, Sendable {
        case L, M, Q, H

        /// Per cent of the codewords that can be restored (the QR specification's figures).
        public var recoverablePercent: Int {
            switch self {
            case .L: 7
            case .M: 15
            case .Q: 25
            case .H: 30
            }
        }

        var qrencode: QRecLevel {
            switch self {
            case .L: QR_ECLEVEL_L
            case .M: QR_ECLEVEL_M
            case .Q: QR_ECLEVEL_Q
            case .H: QR_ECLEVEL_H
            }
        }
    }

    /// The level the code was made with.
    public let level: Level

    /// Encodes `payload` as UTF-8 bytes (byte mode) at `level`; H (the
    /// default) is what an office code taped to a wall and photographed at
    /// an angle, in poor light, needs: a short payload stays a small code.
    public init(payload: String, level: Level = .H) throws(QREncodeError) {
        let bytes = Array(payload.utf8)
        self.level = level
        guard let code = bytes.withUnsafeBufferPointer({
            QRcode_encodeData(Int32($0.count), $0.baseAddress, 0, level.qrencode)
        }) else {
            throw QREncodeError(errno: errno)
        }
        defer { QRcode_free(code) }
        let size = Int(code.pointee.width)
        self.size = size
        // libqrencode's byte per module: bit 0 is "dark", the other bits say which function pattern it belongs to.
        modules = (0..<size * size).map { code.pointee.data[$0] & 1 == 1 }
    }

    /// The code as luma, black on white, `scale` pixels a module, with the quiet zone.
    public func luma(scale: Int = 8) -> LumaFrame {
        let side = (size + 2 * Self.quietZone) * scale
        var pixels = [UInt8](repeating: 255, count: side * side)
        for row in 0..<size {
            for column in 0..<size where modules[row * size + column] {
                let top = (row + Self.quietZone) * scale, left = (column + Self.quietZone) * scale
                for y in top..<(top + scale) {
                    for x in left..<(left + scale) { pixels[y * side + x] = 0 }
                }
            }
        }
        return LumaFrame(width: side, height: side, pixels: pixels)
    }

    /// The code in UTF-8 half blocks, two module rows a text line. Light
    /// modules are drawn (as `qrencode -t UTF8` does), so the code reads
    /// correctly on the usual light-on-dark terminal.
    public func terminalText() -> String {
        let side = size + 2 * Self.quietZone
        func light(_ row: Int, _ column: Int) -> Bool {
            let r = row - Self.quietZone, c = column - Self.quietZone
            guard (0..<size).contains(r), (0..<size).contains(c) else { return true }
            return !modules[r * size + c]
        }
        var lines: [String] = []
        for row in stride(from: 0, to: side, by: 2) {
            var line = ""
            for column in 0..<side {
                let upper = light(row, column), lower = row + 1 < side ? light(row + 1, column) : false
                switch (upper, lower) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

/// libqrencode could not encode the payload (too long for the largest code, or out of memory).
public struct QREncodeError: Error, CustomStringConvertible, Sendable {
    public let errno: Int32
    public var description: String {
        errno == ERANGE ? tr("the payload is too long for a QR code (at most about 1,270 bytes at error correction H, 2,950 at L)")
                        : tr("libqrencode failed: \(String(cString: strerror(errno)))")
    }
}
