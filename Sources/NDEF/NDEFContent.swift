/// What a tag rule can match in a message: the texts and URIs it carries.
public enum NDEFContent {
    /// The text of every Text record, the URI of every URI record and of
    /// every Smart Poster, in message order. A record that does not decode
    /// is left out, so one bad record does not hide a good one.
    public static func matchableStrings(in records: [NDEFRecord]) -> [String] {
        records.compactMap { record in
            if record.isWellKnown("T") { return try? TextRecord(payload: record.payload).text }
            if record.isWellKnown("U") { return try? URIRecord(payload: record.payload).uri }
            if record.isWellKnown("Sp") { return try? SmartPoster(payload: record.payload).uri }
            return nil
        }
    }
}
