import CheckInMethods
import DeskDaysConfig
import DeskDaysDoctor
import GPSBus
import NFCAdapter
import Wired

/// What `deskdays doctor` finds about the methods, as the command asks it
/// (every entry of the method table), with the daemons' answers given.
struct Diagnosis {
    let doctor: Doctor
    let probes: DoctorProbes

    init(system: SystemView = SystemView(),
         pcscReaders: @escaping @Sendable () -> NFCTagReader.PCSCAnswer = { .unreachable },
         gpsProbe: @escaping @Sendable (GPSSettings) -> GPSSourceProbe? = { _ in nil },
         gpsdSendsFixes: @escaping @Sendable () -> Bool = { false },
         defaultGateways: @escaping @Sendable () -> [Gateway]? = { nil }) {
        doctor = Doctor(system: system)
        probes = DoctorProbes(pcscReaders: pcscReaders, gpsProbe: gpsProbe, gpsdSendsFixes: gpsdSendsFixes, defaultGateways: defaultGateways)
    }

    func diagnose(_ configuration: Configuration) -> [Doctor.Section] {
        CheckInMethod.diagnose(doctor, probes, configuration)
    }
}
