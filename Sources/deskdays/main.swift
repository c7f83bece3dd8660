import DeskDaysCLI

// `deskdays`: every command; the hardware commands are handed to
// `deskdays-hardware` (see `Hardware`).
await DeskDays.start()
