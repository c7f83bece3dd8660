import DeskDaysCLI

// `deskdays`: every command; those that need the hardware libraries hand
// over to `deskdays-hardware` (see `HardwareCommand`). `status` and
// `report` asked again with nothing changed print the remembered answer.
if !OutputMemo.replay() {
    await DeskDays.start()
}
