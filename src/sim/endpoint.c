/* endpoint.c - endpoint costs: configuration, precedence, description, NIC ports and the
 * injection rule (endpoint.h). */
#include "sim/endpoint.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/units.h"
#include "common/util.h"
#include "topologies/endpoint_keys.h"
#include "topologies/topology.h"

void endpoint_config_init(endpoint_config *c)
{
    memset(c, 0, sizeof *c);
}

int endpoint_active(const endpoint_config *c)
{
    return c->send_overhead_s > 0 || c->recv_overhead_s > 0 || c->msg_gap_s > 0 ||
           c->envelope_B > 0 || c->eager_set;
}

/* "<the parser's message> (allowed: ...)" */
static int fail_value(cs_error *err, const char *allowed)
{
    char msg[CS_ERROR_MAX];
    snprintf(msg, sizeof msg, "%s", err->msg);
    return cs_fail(err, "%s (allowed: %s)", msg, allowed);
}

static int set_time(const char *value, double *out, cs_error *err)
{
    double v = 0;
    if (strcmp(value, "0") != 0 && parse_time(value, &v, err) < 0)
        return fail_value(err, "a time from 0 to 1s, e.g. 1.2us, 250ns, 0");
    if (v > ENDPOINT_MAX_TIME_S)
        return cs_fail(err, "'%s' is more than 1s per message (allowed: a time from 0 to 1s, "
                            "e.g. 1.2us, 250ns, 0)", value);
    *out = v;
    return 0;
}

static int set_size(const char *value, int64_t max, int64_t *out,
                    cs_error *err)
{
    int64_t v;
    if (parse_size(value, &v, err) < 0)
        return fail_value(err, "a size >= 0, e.g. 64B, 8KiB, 0");
    if (v < 0 || v > max)
        return cs_fail(err, "'%s' is out of range (allowed: 0 .. %lld bytes)", value,
                       (long long)max);
    *out = v;
    return 0;
}

int endpoint_set(endpoint_config *c, const char *key, const char *value, cs_error *err)
{
    int rc;
    unsigned bit;
    if (strcmp(key, "send_overhead") == 0) {
        rc = set_time(value, &c->send_overhead_s, err), bit = EP_SEND_OVERHEAD;
    } else if (strcmp(key, "recv_overhead") == 0) {
        rc = set_time(value, &c->recv_overhead_s, err), bit = EP_RECV_OVERHEAD;
    } else if (strcmp(key, "msg_gap") == 0) {
        rc = set_time(value, &c->msg_gap_s, err), bit = EP_MSG_GAP;
    } else if (strcmp(key, "envelope") == 0) {
        rc = set_size(value, ENDPOINT_MAX_ENVELOPE_B, &c->envelope_B, err), bit = EP_ENVELOPE;
    } else if (strcmp(key, "eager_limit") == 0) {
        rc = set_size(value, INT64_MAX / 2, &c->eager_limit_B, err), bit = EP_EAGER_LIMIT;
        c->eager_set = rc == 0 || c->eager_set;
    } else {
        return cs_fail(err, "unknown endpoint key '%s' (allowed: %s)", key, TOPO_ENDPOINT_KEYS);
    }
    if (rc == 0)
        c->given |= bit;
    return rc;
}

void endpoint_merge(endpoint_config *base, const endpoint_config *over)
{
    if (over->given & EP_SEND_OVERHEAD)
        base->send_overhead_s = over->send_overhead_s;
    if (over->given & EP_RECV_OVERHEAD)
        base->recv_overhead_s = over->recv_overhead_s;
    if (over->given & EP_MSG_GAP)
        base->msg_gap_s = over->msg_gap_s;
    if (over->given & EP_ENVELOPE)
        base->envelope_B = over->envelope_B;
    if (over->given & EP_EAGER_LIMIT) {
        base->eager_limit_B = over->eager_limit_B;
        base->eager_set = over->eager_set;
    }
    base->given |= over->given;
}

int endpoint_resolve(const char *topology, const endpoint_config *over, endpoint_config *out,
                     cs_error *err)
{
    endpoint_config_init(out);
    topo_endpoint_keys keys;
    if (topo_spec_endpoint_keys(topology, &keys, err) < 0)
        return -1;
    for (int i = 0; i < keys.n; i++)
        if (endpoint_set(out, keys.items[i].key, keys.items[i].value, err) < 0) {
            cs_error_prefix(err, "%s: %s", keys.items[i].where, keys.items[i].key);
            return -1;
        }
    if (over)
        endpoint_merge(out, over);
    return 0;
}

void endpoint_describe(const endpoint_config *c, char *buf, size_t n)
{
    size_t len = strlen(buf);
    const char *names[3] = {"send_overhead", "recv_overhead", "msg_gap"};
    double times[3] = {c->send_overhead_s, c->recv_overhead_s, c->msg_gap_s};
    for (int i = 0; i < 3 && len < n; i++)
        if (times[i] > 0)
            len += (size_t)snprintf(buf + len, n - len, " %s=%.6gns", names[i], times[i] * 1e9);
    if (c->envelope_B > 0 && len < n)
        len += (size_t)snprintf(buf + len, n - len, " envelope=%lld", (long long)c->envelope_B);
    if (c->eager_set && len < n)
        snprintf(buf + len, n - len, " eager_limit=%lld", (long long)c->eager_limit_B);
}

void endpoint_canonical_text(const endpoint_config *c, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    const char *names[3] = {"send_overhead", "recv_overhead", "msg_gap"};
    double times[3] = {c->send_overhead_s, c->recv_overhead_s, c->msg_gap_s};
    for (int i = 0; i < 3 && len < n; i++)
        if (c->given & (EP_SEND_OVERHEAD << i))
            len += (size_t)snprintf(buf + len, n - len, "%s=%.17g\n", names[i], times[i]);
    if ((c->given & EP_ENVELOPE) && len < n)
        len += (size_t)snprintf(buf + len, n - len, "envelope=%lld\n", (long long)c->envelope_B);
    if ((c->given & EP_EAGER_LIMIT) && len < n)
        snprintf(buf + len, n - len, "eager_limit=%lld\n", (long long)c->eager_limit_B);
}

/* ---- NIC ports -------------------------------------------------------------------------- */

/* Links a host can send on: its host link (nic_ports of them), else its outgoing links. */
static int host_ports(const topology *t, int32_t h)
{
    if (t->host_link && t->host_link[h] >= 0)
        return t->nic_ports > 1 ? t->nic_ports : 1;
    int n = 0;
    for (int64_t i = t->inc_first[h]; i < t->inc_first[h + 1]; i++) {
        const topo_link *l = &t->links[t->inc_link[i]];
        n += l->sharing != LINK_ONE_WAY || l->a == h;
    }
    return n > 0 ? n : 1;
}

void endpoint_ports_init(endpoint_ports *p, const topology *t)
{
    p->first = xmalloc(((size_t)t->nhosts + 1) * sizeof *p->first);
    p->first[0] = 0;
    for (int32_t h = 0; h < t->nhosts; h++)
        p->first[h + 1] = p->first[h] + host_ports(t, h);
    p->free_at = xcalloc((size_t)p->first[t->nhosts] + 1, sizeof *p->free_at);
}

void endpoint_ports_free(endpoint_ports *p)
{
    free(p->first);
    free(p->free_at);
    p->first = NULL;
    p->free_at = NULL;
}

double endpoint_inject_at(const endpoint_config *c, endpoint_ports *p, int32_t src_host,
                          int32_t dst_host, double ready)
{
    if (src_host == dst_host || c->msg_gap_s <= 0)
        return ready;
    int64_t best = p->first[src_host];
    for (int64_t i = best + 1; i < p->first[src_host + 1]; i++)
        if (p->free_at[i] < p->free_at[best])
            best = i;
    double at = p->free_at[best] > ready ? p->free_at[best] : ready;
    p->free_at[best] = at + c->msg_gap_s;
    return at;
}
