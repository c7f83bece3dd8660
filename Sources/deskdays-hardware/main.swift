import DeskDaysCLI

// `deskdays-hardware`: the same command tree as `deskdays`, with the work of
// the hardware commands linked in. `deskdays` hands these commands over to
// it; it is not meant to be run by hand (but works when it is).
Hardware.runner = { command in
    switch command {
    case let command as AgentCommand: try await command.runAgent()
    case let command as DoctorCommand: try await command.runDoctor()
    case let command as EnrollNFC: try await command.runEnroll()
    case let command as EnrollQR: try command.runEnroll()
    case let command as EnrollWiFi: try await command.runEnroll()
    case let command as QRCommand.Make: try command.runMake()
    case let command as QRCommand.Scan: try command.runScan()
    case let command as QRCommand.BenchFrames: try command.runBench()
    default: throw CLIError("\(type(of: command)) has no implementation in deskdays-hardware; this is a bug.")
    }
}
Hardware.cameraRule = { settings, timeout in
    guard case .matched(let rule, _) = try cameraScan(settings: settings, timeout: timeout) else { return nil }
    return rule
}
await DeskDays.start()
