/* packet_config.c - the packet model's options (packet.h): defaults, names, checks. */
#include <stdint.h>
#include <string.h>

#include "common/enum_names.h"
#include "sim/packet.h"

static const char *const routing_names[] = {"minimal", "adaptive", "ugal", "ecmp"};
static const char *const engine_names[] = {"loop", "actors"};

void packet_config_init(packet_config *c)
{
    memset(c, 0, sizeof *c);
    c->mtu = PK_DEFAULT_MTU;
    c->buffer = PK_DEFAULT_BUFFER;
    c->routing = PK_ROUTE_MINIMAL;
    c->seed = 1;
}

const char *pk_routing_name(pk_routing r)
{
    return enum_name(ENUM_NAMES(routing_names), (int)r);
}

int pk_routing_parse(const char *text, pk_routing *out, cs_error *err)
{
    int v;
    if (enum_parse(ENUM_NAMES(routing_names), "routing", text, &v, err) < 0)
        return -1;
    *out = (pk_routing)v;
    return 0;
}

const char *pk_engine_name(pk_engine e)
{
    return enum_name(ENUM_NAMES(engine_names), (int)e);
}

int pk_engine_parse(const char *text, pk_engine *out, cs_error *err)
{
    int v;
    if (enum_parse(ENUM_NAMES(engine_names), "packet engine", text, &v, err) < 0)
        return -1;
    *out = (pk_engine)v;
    return 0;
}

int packet_config_check(const packet_config *c, const topology *t, cs_error *err)
{
    if (c->mtu < 1 || c->mtu > PK_MAX_BUFFER)
        return cs_fail(err, "packet model: mtu %lld bytes is outside 1 B .. 1 GiB",
                       (long long)c->mtu);
    if (c->buffer < c->mtu || c->buffer > PK_MAX_BUFFER)
        return cs_fail(err, "packet model: buffer %lld bytes must hold one packet (mtu %lld) "
                            "and be at most 1 GiB", (long long)c->buffer, (long long)c->mtu);
    /* packets keep credit pools (port x virtual channel) and link counts in 32 / 16 bits */
    int64_t nvc = (c->routing == PK_ROUTE_UGAL ? 2 : 1) * (int64_t)t->max_route_hops + 1;
    int64_t stride = 1; /* pools per port: a power of two (packet_internal.h) */
    while (stride < nvc)
        stride *= 2;
    if (nvc > INT16_MAX || 2 * t->nlinks * stride + t->nhosts > INT32_MAX)
        return cs_fail(err, "packet model: %lld links with routes of up to %d hops need "
                            "%lld credit pools, more than the model's 2^31 (a smaller "
                            "topology, or --routing minimal)", (long long)t->nlinks,
                       t->max_route_hops, (long long)(2 * t->nlinks * stride + t->nhosts));
    if (c->routing == PK_ROUTE_UGAL && strcmp(t->family, "dragonfly") != 0 &&
        strcmp(t->family, "dragonflyplus") != 0)
        return cs_fail(err, "packet model: routing ugal needs a dragonfly or dragonflyplus "
                            "topology, not %s (use adaptive)", t->family);
    return 0;
}
