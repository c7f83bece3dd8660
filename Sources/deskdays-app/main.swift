import DeskDaysWindow
#if canImport(Glibc)
import Glibc
#endif

// The app's window (io.github.deskdays.DeskDays): everything is in module DeskDaysWindow.
exit(DeskDaysApp().run(arguments: CommandLine.arguments))
