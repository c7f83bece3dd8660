// Every module that imports DeskDaysCore makes its plain system calls
// through the one funnel (module Syscall) and gets it with the core.
@_exported import Syscall
