import Localization
import ArgumentParser
import CommandSupport
import DeskDaysCore

/// `--name`, as every enrolment checks it: a rule name the configuration accepts.
func checkRuleName(_ name: String) throws {
    if let problem = RuleName.problem(name) {
        throw ValidationError(tr("--name \(name): \(problem)."))
    }
}
