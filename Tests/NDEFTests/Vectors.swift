import Foundation

/// The ndeflib test vectors (Tests/Fixtures/nfc/ndeflib_vectors.json, ISC),
/// loaded from the source tree so the tests need nothing outside the repository.
enum Vectors {
    nonisolated(unsafe) static let root: [String: Any] = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/nfc/ndeflib_vectors.json")
        let data = try! Data(contentsOf: url)
        return try! JSONSerialization.jsonObject(with: data) as! [String: Any]
    }()

    /// The record test group whose ndeflib class is `className`.
    static func group(_ className: String) -> [String: Any] {
        let groups = root["record_tests"] as! [[String: Any]]
        return groups.first { $0["class"] as? String == className }!
    }

    /// `decode_valid` of a group as (payload, expected init args).
    static func valid(_ className: String) -> [Case] {
        (group(className)["decode_valid"] as? [[String: Any]] ?? []).map {
            Case(payload: bytes($0["payload_hex"] as! String), args: $0["expected_init_args"] as! [Any])
        }
    }

    /// `decode_error` of a group as (payload, message fragment).
    static func invalid(_ className: String) -> [Rejection] {
        (group(className)["decode_error"] as? [[String: Any]] ?? []).map {
            Rejection(payload: bytes($0["payload_hex"] as! String), message: $0["error_contains"] as! String)
        }
    }

    /// A message test set: the first element of each pair is a Python bytes
    /// literal in quotes (`'900000 500000'`).
    static func messageSet(_ name: String) -> [(bytes: [UInt8], expected: String)] {
        let sets = root["message_tests"] as! [String: Any]
        return (sets[name] as! [[String]]).map { pair in
            (bytes(pair[0].trimmingCharacters(in: CharacterSet(charactersIn: "'"))), pair[1])
        }
    }

    /// Hex with optional spaces → bytes.
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.filter { !$0.isWhitespace })
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }

    struct Case: CustomTestStringConvertible, @unchecked Sendable {
        let payload: [UInt8]
        let args: [Any]
        var testDescription: String { hex(payload) }
    }

    struct Rejection: CustomTestStringConvertible, Sendable {
        let payload: [UInt8]
        let message: String
        var testDescription: String { hex(payload) }
    }
}

func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

import Testing
