#ifndef CICAL_SHIM_H
#define CICAL_SHIM_H
// libical 3 (Debian's libical-dev): the iCalendar parser, recurrence
// expansion and writer behind Sources/ICal, the one iCalendar module.
#include <libical/ical.h>
#endif
