/* sim_mailbox.c - the mailbox of a (from, to, tag) channel, cached (see sim_mailbox.h). */
#include "sim/sim_mailbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/mailbox.h>

#include "common/util.h"

/* "a>b" or "a>b#t", then the kind's suffix; job k > 0 of several (jobs.h) prefixes "Jk:" */
static sg_mailbox_t by_name(int32_t job, int32_t from, int32_t to, int32_t tag, int kind)
{
    static const char *const suffix[] = {"", ":c", ":d"};
    char name[80];
    int n = job > 0 ? snprintf(name, sizeof name, "J%d:", job) : 0;
    if (tag == 0)
        snprintf(name + n, sizeof name - (size_t)n, "%d>%d%s", from, to, suffix[kind]);
    else
        snprintf(name + n, sizeof name - (size_t)n, "%d>%d#%d%s", from, to, tag, suffix[kind]);
    return sg_mailbox_by_name(name);
}

static void add_entry(sim_mailboxes *m, uint64_t key, int64_t tag, sg_mailbox_t mb)
{
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 64;
        m->mb = xrealloc(m->mb, m->cap * sizeof *m->mb);
        m->tag = xrealloc(m->tag, m->cap * sizeof *m->tag);
        m->next = xrealloc(m->next, m->cap * sizeof *m->next);
    }
    int64_t first = -1; /* prepended to the pair's chain */
    u64map_get(&m->first, key, &first);
    m->mb[m->n] = mb;
    m->tag[m->n] = tag;
    m->next[m->n] = first;
    u64map_put(&m->first, key, (int64_t)m->n++);
}

static sg_mailbox_t lookup(const sim_mailboxes *m, uint64_t key, int64_t tag)
{
    int64_t e;
    if (u64map_get(&m->first, key, &e))
        for (; e >= 0; e = m->next[e])
            if (m->tag[e] == tag)
                return m->mb[e];
    return NULL;
}

sg_mailbox_t sim_mailbox(sim_mailboxes *m, int32_t job, int32_t from, int32_t to, int32_t tag,
                         int kind)
{
    uint64_t key = (uint64_t)(uint32_t)from << 32 | (uint32_t)to;
    int64_t chan = (int64_t)tag * 4 + kind; /* the (tag, kind) of the pair's channel */
    sg_mailbox_t mb = lookup(m, key, chan);
    if (mb)
        return mb;
    /* sg_mailbox_by_name is a simcall: other actors run meanwhile and may change the
     * cache (even add this channel), so nothing of it is held across the call */
    mb = by_name(job, from, to, tag, kind);
    if (!lookup(m, key, chan))
        add_entry(m, key, chan, mb);
    return mb;
}

void sim_mailboxes_free(sim_mailboxes *m)
{
    u64map_free(&m->first);
    free(m->mb);
    free(m->tag);
    free(m->next);
    memset(m, 0, sizeof *m);
}
