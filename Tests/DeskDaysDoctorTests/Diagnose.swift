import CheckInMethods
import DeskDaysConfig
import DeskDaysDoctor

extension Doctor {
    /// What `deskdays doctor` finds about the methods: every entry of the
    /// method table, as the command asks it.
    func diagnose(_ configuration: Configuration) -> [Section] {
        CheckInMethod.diagnose(self, configuration)
    }
}
