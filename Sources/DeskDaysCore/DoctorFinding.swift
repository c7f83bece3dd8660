/// One observation of `deskdays doctor`: its level, a sentence, and the
/// fix when there is one. Here rather than in DeskDaysDoctor so that a
/// module reporting its own findings (the desktop) links no hardware library.
public struct DoctorFinding: Sendable, Equatable {
    public enum Level: String, Sendable {
        case ok, note, warning, problem
    }

    public var level: Level
    public var text: String
    public var fix: String?

    public init(_ level: Level, _ text: String, fix: String? = nil) {
        self.level = level
        self.text = text
        self.fix = fix
    }
}
