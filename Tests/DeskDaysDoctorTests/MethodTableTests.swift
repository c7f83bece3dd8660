import CheckInMethods
import DeskDaysConfig
import DeskDaysCore
import DeskDaysDoctor
import Testing

/// The one table of check-in methods: each entry's parts agree on the
/// method, and the configuration's sections are the table's.
struct MethodTableTests {
    @Test func everySectionHasOneEntryInTheSameOrder() {
        #expect(CheckInMethod.all.map(\.name) == MethodSection.all.map(\.name))
        #expect(Set(CheckInMethod.all.map(\.name)).count == CheckInMethod.all.count)
    }

    @Test func anEntrysAdapterEnrolmentAndDoctorSectionAreItsMethod() {
        var configuration = Configuration()
        for method in CheckInMethod.all {
            #expect(method.adapter(configuration, .manual(start: .init(timeIntervalSince1970: 0))).source == method.section.source)
            #expect(method.enroll.configuration.commandName == method.name)
            #expect(method.doctor(Doctor(), DoctorProbes(), configuration).name == method.name)
        }
        // Enabling a section enables that method alone.
        configuration.wired.enabled = true
        #expect(CheckInMethod.adapters(for: configuration, clock: .system).map(\.source) == [.wired])
        #expect(configuration.anyMethodEnabled)
        #expect(!Configuration().anyMethodEnabled)
    }
}
