import DeskDaysCLI

// `deskdays`: every command; those that need the hardware libraries hand
// over to `deskdays-hardware` (see `HardwareCommand`).
await DeskDays.start()
