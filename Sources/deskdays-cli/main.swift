import DeskDaysCLI

// `deskdays-cli`: every command, started by `deskdays` (Sources/deskdays)
// when it has no remembered answer; the hardware commands hand over to
// `deskdays-hardware` (see `HardwareCommand`).
await DeskDays.start()
