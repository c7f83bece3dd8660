# Sourced by the fuzz scripts whose code imports other modules of the
# package (fuzz/ics.sh, fuzz/csv.sh, fuzz/journal.sh); not a target itself
# (make fuzz runs fuzz/*.sh). `swift_module NAME FILES...` compiles NAME
# as SwiftPM would, but instrumented like the fuzz program (libFuzzer
# coverage + AddressSanitizer): its interface goes to $WORK/modules, its
# object is added to MODULE_OBJECTS for the final link.
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

# swift-system's SystemPackage (DeskDaysCore's AtomicFile), as `swift build`
# left it in .build/debug (built first if it is not there): its interface in
# MODULE_FLAGS for every later compile, its objects linked uninstrumented.
MODULE_FLAGS=()
swift_system_package() {
    [ -e .build/debug/Modules/SystemPackage.swiftmodule ] || swift build --product deskdays-cli
    MODULE_FLAGS=(-I .build/debug/Modules -I .build/checkouts/swift-system/Sources/CSystem/include)
    MODULE_OBJECTS+=(.build/debug/SystemPackage.build/*.swift.o .build/debug/CSystem.build/*.c.o)
}

# Localization and DeskDaysCore, which every one of those programs needs.
swift_core_modules() {
    swift_system_package
    swift_module Localization Sources/Localization/*.swift
    swift_module DeskDaysCore "${MODULE_FLAGS[@]}" Sources/DeskDaysCore/*.swift
}
