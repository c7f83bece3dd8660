/* The detection floor for bench/nfc.sh: pcscd itself. Waits with
 * SCardGetStatusChange on one reader and, on each card insertion, connects
 * and reads the UID (FF CA 00 00 00); prints "done <unix time>" per tap.
 * Nothing else: no NDEF, no matching, no storage.
 * Usage: nfc_floor READER COUNT */
#include <PCSC/winscard.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

int main(int argc, char **argv)
{
	SCARDCONTEXT context;
	SCARD_READERSTATE state = { .szReader = argv[1], .dwCurrentState = SCARD_STATE_UNAWARE };
	int count = atoi(argv[2]), seen = 0, present = 0;
	if (argc != 3 || SCardEstablishContext(SCARD_SCOPE_SYSTEM, NULL, NULL, &context) != SCARD_S_SUCCESS)
		return 2;
	printf("ready\n");
	fflush(stdout);
	while (seen < count) {
		if (SCardGetStatusChange(context, INFINITE, &state, 1) != SCARD_S_SUCCESS)
			return 1;
		state.dwCurrentState = state.dwEventState & ~SCARD_STATE_CHANGED;
		if (!(state.dwEventState & SCARD_STATE_PRESENT)) {
			present = 0;
			continue;
		}
		if (present)
			continue;
		present = 1;
		SCARDHANDLE card;
		DWORD protocol, length = 16;
		BYTE apdu[] = { 0xFF, 0xCA, 0x00, 0x00, 0x00 }, response[16];
		if (SCardConnect(context, argv[1], SCARD_SHARE_SHARED, SCARD_PROTOCOL_T0 | SCARD_PROTOCOL_T1,
				 &card, &protocol) != SCARD_S_SUCCESS)
			continue;
		LONG rv = SCardTransmit(card, protocol == SCARD_PROTOCOL_T0 ? SCARD_PCI_T0 : SCARD_PCI_T1,
					apdu, sizeof apdu, NULL, response, &length);
		SCardDisconnect(card, SCARD_LEAVE_CARD);
		if (rv == SCARD_S_SUCCESS && length > 2) {
			struct timeval now;
			gettimeofday(&now, NULL);
			printf("done %ld.%06ld\n", (long)now.tv_sec, (long)now.tv_usec);
			fflush(stdout);
			seen++;
		}
	}
	SCardReleaseContext(context);
	return 0;
}
