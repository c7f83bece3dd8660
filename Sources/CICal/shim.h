#ifndef CICAL_SHIM_H
#define CICAL_SHIM_H
// libical 3 (Debian's libical-dev): the iCalendar parser and recurrence
// expansion behind the `[calendar]` vdir (Sources/DeskDaysCalendar).
#include <libical/ical.h>
#endif
