import DeskDaysCLI

// `deskdays-cli`: every command (the `deskdays` launcher hands it whatever
// the agent does not answer); the hardware commands go on to
// `deskdays-hardware` (see `Hardware`).
await DeskDays.start()
