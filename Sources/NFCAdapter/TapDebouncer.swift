/// One tap, one event: a tag resting on a reader is reported once and the
/// reader is re-armed only when the tag is seen gone (docs/design.md, adapters
/// own their debounce). Pure state, keyed by reader.
struct TapDebouncer {
    private var occupied: Set<String> = []

    /// A tag is on `reader`; true when this is a new tap to report.
    mutating func present(_ reader: String) -> Bool {
        occupied.insert(reader).inserted
    }

    /// The reader is empty (or gone): the next tag on it is a new tap.
    mutating func absent(_ reader: String) {
        occupied.remove(reader)
    }
}
