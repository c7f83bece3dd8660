import DeskDaysMemo
#if canImport(Glibc)
import Glibc
#endif

// `deskdays`: the command users call. It answers `status` and `report` from
// the remembered answer when nothing they depend on has changed (AnswerMemo;
// a status bar asks every few seconds), and otherwise replaces itself with
// `deskdays-cli`, which runs every command (and hands the hardware ones to
// `deskdays-hardware`). It links no Foundation, SQLite or argument parser,
// so a replay costs little more than starting a process.
let (cli, looked) = Companion.locate("deskdays-cli")
guard let cli else {
    Companion.fail("deskdays: deskdays-cli is not installed (looked for \(looked.joined(separator: " and "))); "
                   + "reinstall DeskDays with `make install`.")
}
if AnswerMemo.replay(arguments: CommandLine.arguments, identity: cli) {
    exit(0)
}
let reason = Companion.execute(cli)
Companion.fail("deskdays: cannot start \(cli) (\(reason)); reinstall DeskDays with `make install`.")
