/// The 3-bit Type Name Format of an NDEF record header (NFC Forum NDEF 1.0, 3.2.6).
public enum TypeNameFormat: UInt8, Sendable, CaseIterable {
    case empty = 0, wellKnown, media, absoluteURI, external, unknown, unchanged, reserved
}

/// One NDEF record after chunk reassembly: what the type says and the
/// payload bytes, not yet interpreted.
public struct NDEFRecord: Sendable, Equatable {
    public var typeNameFormat: TypeNameFormat
    public var type: [UInt8]
    public var identifier: [UInt8]
    public var payload: [UInt8]

    public init(typeNameFormat: TypeNameFormat, type: [UInt8] = [], identifier: [UInt8] = [],
                payload: [UInt8] = []) {
        self.typeNameFormat = typeNameFormat
        self.type = type
        self.identifier = identifier
        self.payload = payload
    }

    /// True for an NFC Forum well-known record of the given RTD name ("T", "U", "Sp").
    public func isWellKnown(_ name: String) -> Bool {
        typeNameFormat == .wellKnown && type == Array(name.utf8)
    }
}
