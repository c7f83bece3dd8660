// gettext and setlocale, which glibc provides but Swift's Glibc module does
// not export (libintl.h): the one place DeskDays reaches them (Localization).
#include <libintl.h>
#include <locale.h>
