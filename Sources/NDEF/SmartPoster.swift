import Localization

/// A well-known Smart Poster record ("Sp", NFC Forum SPR 1.1): a nested
/// NDEF message with exactly one URI record, optional titles, an action,
/// the resource size and MIME type, and icons.
public struct SmartPoster: Sendable, Equatable {
    /// The "act" record: what the reader should do with the URI.
    public enum Action: UInt8, Sendable { case exec = 0, save = 1, edit = 2 }

    public var uri: String
    public var titles: [TextRecord]
    public var action: Action?
    public var resourceSize: UInt32?
    public var resourceType: String?
    /// Icons as (MIME type, image bytes).
    public var icons: [Icon]

    /// An icon record of the poster (TNF media, `image/…` or `video/…`).
    public struct Icon: Sendable, Equatable {
        public var mediaType: String
        public var data: [UInt8]
    }

    /// Decodes a Smart Poster payload (itself an NDEF message).
    public init(payload: [UInt8]) throws(NDEFError) {
        let records = try NDEFMessage.decode(payload)
        let uris = records.filter { $0.isWellKnown("U") }
        guard uris.count == 1 else {
            throw .invalidPayload(tr("payload must contain exactly one URI Record, got \(uris.count)"))
        }
        uri = try URIRecord(payload: uris[0].payload).uri
        titles = []
        icons = []
        for record in records {
            if record.isWellKnown("T") {
                titles.append(try TextRecord(payload: record.payload))
            } else if record.isWellKnown("act") {
                action = try Self.action(record.payload)
            } else if record.isWellKnown("s") {
                var reader = ByteReader(record.payload)
                resourceSize = try reader.uint32()
            } else if record.isWellKnown("t") {
                guard let type = String(validating: record.payload, as: UTF8.self) else {
                    throw .invalidPayload(tr("can't decode payload as utf-8"))
                }
                resourceType = type
            } else if record.typeNameFormat == .media,
                      let type = String(validating: record.type, as: UTF8.self),
                      type.hasPrefix("image/") || type.hasPrefix("video/") {
                icons.append(Icon(mediaType: type, data: record.payload))
            }
        }
    }

    /// Decodes the payload of an "act" record.
    public static func action(_ payload: [UInt8]) throws(NDEFError) -> Action {
        var reader = ByteReader(payload)
        let value = try reader.byte()
        guard let action = Action(rawValue: value) else {
            throw .invalidPayload(tr("decoding of ACTION value \(value) is not defined"))
        }
        return action
    }
}
