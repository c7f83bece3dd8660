#ifndef CNETLINKROUTE_SHIM_H
#define CNETLINKROUTE_SHIM_H
// libnl-route-3: rtnetlink links, routes and neighbours, parsed by libnl into
// objects (the wired check-in method). Everything here imports as is.
#include <netlink/netlink.h>
#include <netlink/socket.h>
#include <netlink/msg.h>
#include <netlink/cache.h>
#include <netlink/object.h>
#include <netlink/addr.h>
#include <netlink/errno.h>
#include <netlink/handlers.h>
#include <netlink/route/link.h>
#include <netlink/route/route.h>
#include <netlink/route/nexthop.h>
#include <netlink/route/neighbour.h>
#include <linux/rtnetlink.h>

#endif
