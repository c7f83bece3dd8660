import Localization

/// Decodes an NDEF message (NFC Forum NDEF 1.0): a sequence of records from
/// MB to ME, chunked records reassembled into one.
///
/// Header byte: `MB ME CF SR IL TNF(3)`, then TYPE LENGTH, PAYLOAD LENGTH
/// (1 byte with SR, else 4), ID LENGTH (with IL), TYPE, ID, PAYLOAD.
/// Example: `D1 01 08 54 02 65 6E 6E 66 63 70 79` is one well-known Text
/// record ("T") holding "nfcpy" in English.
///
/// Bytes after the record carrying ME are ignored, as ndeflib does: on a
/// Type 2 tag the TLV length already bounds the message.
public enum NDEFMessage {
    /// The records of `bytes`; an empty input is the empty message.
    public static func decode(_ bytes: [UInt8]) throws(NDEFError) -> [NDEFRecord] {
        var reader = ByteReader(bytes)
        var records: [NDEFRecord] = []
        var chunk: NDEFRecord?
        var index = 0
        while !reader.isAtEnd {
            let header = try RecordHeader(&reader)
            if (index == 0) != header.messageBegin { throw .messageBeginFlag(recordIndex: index) }
            let record = try header.readBody(&reader)
            index += 1
            if header.messageEnd, header.chunkFlag {
                throw .chunking(tr("CF flag set in last record"))
            }
            if var open = chunk {
                guard record.typeNameFormat == .unchanged, record.identifier.isEmpty else {
                    throw .chunking(tr("a middle or last chunk must be TNF unchanged without an ID"))
                }
                open.payload += record.payload
                if header.chunkFlag { chunk = open } else { records.append(open); chunk = nil }
            } else if record.typeNameFormat == .unchanged {
                throw .chunking(tr("TNF unchanged outside a chunked record"))
            } else if header.chunkFlag {
                chunk = record
            } else {
                records.append(record)
            }
            if header.messageEnd { return records }
        }
        if index == 0 { return [] }
        throw .messageEndMissing
    }
}

/// The fixed part of a record header, checked against the TNF rules.
private struct RecordHeader {
    let messageBegin: Bool
    let messageEnd: Bool
    let chunkFlag: Bool
    let typeNameFormat: TypeNameFormat
    let typeLength: UInt64
    let payloadLength: UInt64
    let identifierLength: UInt64

    init(_ reader: inout ByteReader) throws(NDEFError) {
        let flags = try reader.byte()
        messageBegin = flags & 0x80 != 0
        messageEnd = flags & 0x40 != 0
        chunkFlag = flags & 0x20 != 0
        let shortRecord = flags & 0x10 != 0
        let hasIdentifier = flags & 0x08 != 0
        typeNameFormat = TypeNameFormat(rawValue: flags & 0x07)!
        typeLength = UInt64(try reader.byte())
        payloadLength = shortRecord ? UInt64(try reader.byte()) : UInt64(try reader.uint32())
        identifierLength = hasIdentifier ? UInt64(try reader.byte()) : 0
        switch typeNameFormat {
        case .empty:
            guard typeLength == 0, payloadLength == 0, identifierLength == 0 else {
                throw .typeNameFormat(tr("an empty record (TNF 0) must be 0 type, id and payload length"))
            }
        case .wellKnown, .media, .absoluteURI, .external:
            guard typeLength > 0 else {
                throw .typeNameFormat(tr("TNF \(typeNameFormat.rawValue) must be given a type"))
            }
        case .unknown, .unchanged:
            guard typeLength == 0 else {
                throw .typeNameFormat(tr("TNF \(typeNameFormat.rawValue) must be without a type"))
            }
        case .reserved:
            throw .typeNameFormat(tr("TNF 7 is reserved"))
        }
    }

    func readBody(_ reader: inout ByteReader) throws(NDEFError) -> NDEFRecord {
        let declared = typeLength + identifierLength + payloadLength
        guard declared <= UInt64(reader.remaining) else {
            throw .bufferUnderflow(needed: Int(clamping: declared), available: reader.remaining)
        }
        let type = try reader.bytes(typeLength)
        let identifier = try reader.bytes(identifierLength)
        let payload = try reader.bytes(payloadLength)
        return NDEFRecord(typeNameFormat: typeNameFormat, type: type, identifier: identifier,
                          payload: payload)
    }
}
