# Sourced by the fuzz scripts whose code imports other modules of the
# package (ics, csv, journal, inbox); not a target itself
# (make fuzz runs fuzz/*.sh). `swift_module NAME FILES...` compiles NAME
# as SwiftPM would, but instrumented like the fuzz program (libFuzzer
# coverage + AddressSanitizer): its interface goes to $WORK/modules, its
# object is added to MODULE_OBJECTS (objects and libraries for the final link).
MODULE_OBJECTS=()
swift_module() {
    local name=$1
    shift
    mkdir -p "$WORK/modules"
    swiftc -sanitize=fuzzer,address -parse-as-library -O -wmo -module-name "$name" \
        -I "$WORK/modules" -I Sources/CIntl \
        -emit-module -emit-module-path "$WORK/modules/$name.swiftmodule" \
        -c "$@" -o "$WORK/$name.o"
    MODULE_OBJECTS+=("$WORK/$name.o")
}

# Flags every later compile needs to see the modules' C dependencies.
MODULE_FLAGS=(-I Sources/CNettle)

# Localization and DeskDaysCore (its SHA-256 is Nettle's, through
# Sources/CNettle: linked, not instrumented), which every one of those
# programs needs.
swift_core_modules() {
    swift_module Localization Sources/Localization/*.swift
    swift_module DeskDaysCore "${MODULE_FLAGS[@]}" Sources/DeskDaysCore/*.swift
    MODULE_OBJECTS+=(-lnettle)
}
