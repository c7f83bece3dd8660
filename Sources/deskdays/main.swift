import DeskDaysCLI

// `deskdays`: every command. The hardware commands hand over to
// `deskdays-hardware` (see `HardwareCommand`).
await DeskDays.start()
