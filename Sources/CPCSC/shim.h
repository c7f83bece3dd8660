#ifndef CPCSC_SHIM_H
#define CPCSC_SHIM_H
#include <PCSC/winscard.h>
#include <PCSC/reader.h>

// SCARD_PCI_T0 is the address of a global behind a macro, which Swift cannot import.
static inline const SCARD_IO_REQUEST *CPCSC_PCI_T0(void) { return SCARD_PCI_T0; }
// SCARD_PCI_T1: the same, for T=1 (contactless readers report T=1).
static inline const SCARD_IO_REQUEST *CPCSC_PCI_T1(void) { return SCARD_PCI_T1; }

#endif
