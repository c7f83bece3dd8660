import Localization
import ArgumentParser
import DeskDaysConfig
import DeskDaysCore
import Foundation

/// What every `enroll` command does once it has learnt a rule: append it to
/// the configuration, say so, and point out a method that is switched off.
package enum Enrollment {
    /// Appends `block` to the configuration at `path`; `rule` names it for the user.
    package static func append(_ block: String, rule: String, to path: String) throws {
        do {
            try ConfigEditor.appendBlock(block, to: path)
        } catch {
            throw CLIError(tr("cannot write \(path) (\(ConfigLoader.reason(error))); check the file is readable text and its folder writable."))
        }
        print(tr("Added \(rule) to \(path)."))
    }

    /// The hint printed after enrolling for a method whose `[section] enabled` is false.
    package static func remindIfOff(_ enabled: Bool, method: String, section: String) {
        if !enabled { print(tr("\(method) check-ins are off: `deskdays enable \(section)` turns them on.")) }
    }
}

/// `--name`, as every enrolment checks it: a rule name the configuration accepts.
package func checkRuleName(_ name: String) throws {
    if let problem = RuleName.problem(name) {
        throw ValidationError(tr("--name \(name): \(problem)."))
    }
}
