#ifndef CNETLINK_SHIM_H
#define CNETLINK_SHIM_H
#include <netlink/netlink.h>
#include <netlink/socket.h>
#include <netlink/msg.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include <netlink/errno.h>
#include <linux/netlink.h>

// NL_AUTO_PORT and NL_AUTO_SEQ are untyped macros; typed copies let Swift pass them to genlmsg_put.
static const uint32_t CNetlink_AUTO_PORT = NL_AUTO_PORT;
// See CNetlink_AUTO_PORT: the sequence number libnl fills in on send.
static const uint32_t CNetlink_AUTO_SEQ = NL_AUTO_SEQ;

// genlmsg_put takes a dozen int widths; one wrapper fixes them (port/seq automatic, no user header).
static inline int CNetlink_genlmsg_put(struct nl_msg *msg, int family, int flags, uint8_t cmd) {
    return genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, flags, cmd, 0) != NULL ? 0 : -NLE_NOMEM;
}

// nlmsg_hdr(msg)->nlmsg_seq after nl_send_auto: the sequence number the replies will carry.
static inline uint32_t CNetlink_msg_seq(struct nl_msg *msg) {
    return nlmsg_hdr(msg)->nlmsg_seq;
}

// nl_recv returns a malloc'd buffer; freeing it here keeps libc's free out of the adapter's imports.
static inline void CNetlink_free_buffer(unsigned char *buffer) {
    free(buffer);
}

#endif
