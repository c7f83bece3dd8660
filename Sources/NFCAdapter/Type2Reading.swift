import NDEF

/// Reads the NDEF area of a Type 2 tag through any transport that returns
/// 16 bytes (4 pages) for a page number: `FF B0 00 p 10` through PC/SC,
/// `30 p` through libnfc. Reads stop as soon as the NDEF TLV is complete,
/// and never beyond the data area the capability container declares.
enum Type2Reading {
    /// Thrown by `readPages` when the transport answered but refused the read.
    struct Refused: Error {}

    static func ndef(readPages: (UInt8) throws -> [UInt8]) throws -> TagReading.NDEFOutcome {
        let first: [UInt8]
        do {
            first = try readPages(UInt8(Type2Tag.capabilityContainerPage))
        } catch is Refused {
            return .unreadable
        }
        guard first.count >= 16 else { return .unreadable }
        let capacity: Int
        do {
            capacity = try Type2Tag.dataAreaSize(capabilityContainer: Array(first[0..<4]))
        } catch .notNDEFFormatted {
            return .absent
        } catch {
            return .malformed(error)
        }
        var area = Array(first[4..<16].prefix(capacity))
        while true {
            let scan: Type2Tag.Scan
            do {
                scan = try Type2Tag.scan(dataArea: area, capacity: capacity)
            } catch {
                return .malformed(error)
            }
            switch scan {
            case let .complete(bytes):
                guard let bytes else { return .absent }
                do {
                    return .strings(NDEFContent.matchableStrings(in: try NDEFMessage.decode(bytes)))
                } catch {
                    return .malformed(error)
                }
            case .needMore:
                let page = Type2Tag.firstDataPage + area.count / Type2Tag.pageSize
                guard page <= 0xFF else { return .malformed(.lengthExceedsInput(declared: UInt64(capacity), available: area.count)) }
                let chunk: [UInt8]
                do {
                    chunk = try readPages(UInt8(page))
                } catch is Refused {
                    return .unreadable
                }
                guard chunk.count == 16 else { return .unreadable }
                area += chunk.prefix(capacity - area.count)
            }
        }
    }
}
