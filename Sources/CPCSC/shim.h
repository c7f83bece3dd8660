#ifndef CPCSC_SHIM_H
#define CPCSC_SHIM_H
#include <PCSC/winscard.h>
#include <PCSC/reader.h>
#endif
