/* result.c - result rows: derived metrics and the CSV / JSON writers (see result.h).
 *
 * One table lists the columns (name, type, place in sim_row); both writers walk it, so
 * a column is added in one place. Sweep rows add a second table (sweep_fields) and a
 * layout interleaving the two (result.h).
 */
#include "sim/result.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "common/json.h"

double busbw_factor(coll_kind c, int32_t P)
{
    switch (c) {
    case COLL_ALLREDUCE: return 2.0 * (P - 1) / P;
    case COLL_BCAST:
    case COLL_REDUCE:
    case COLL_P2P: return 1.0;
    case COLL_GATHER:
    case COLL_SCATTER:
    case COLL_ALLGATHER:
    case COLL_REDUCE_SCATTER:
    case COLL_ALLTOALL:
    case COLL_ALLTOALLV: return (double)(P - 1) / P;
    case COLL__COUNT: break;
    }
    return NAN;
}

void sim_row_set_metrics(sim_row *r, coll_kind c, const traffic_counts *tc, double time_s,
                         double algbw_bytes)
{
    r->bytes_host = tc->bytes_class[LINK_HOST];
    r->bytes_local = tc->bytes_class[LINK_LOCAL];
    r->bytes_global = tc->bytes_class[LINK_GLOBAL];
    r->bytes_intergroup_msgs = tc->bytes_intergroup_msgs;
    r->max_link_bytes = tc->max_link_bytes;
    r->messages = tc->messages;
    r->steps = tc->steps;
    r->time_s = time_s;
    r->algbw_Bps = time_s > 0 ? algbw_bytes / time_s : NAN;
    r->busbw_Bps = r->algbw_Bps * busbw_factor(c, r->ranks);
}

/* ---- the columns -------------------------------------------------------------------- */

typedef enum { COL_TEXT, COL_I32, COL_I64, COL_U64, COL_LONG, COL_DOUBLE } col_type;

typedef struct column {
    const char *name;
    col_type type;
    size_t offset; /* in sim_row, or in sweep_fields for sweep_columns */
} column;

#define COL(name, type) {#name, type, offsetof(sim_row, name)}
static const column columns[] = {
    COL(topology, COL_TEXT),        COL(collective, COL_TEXT),
    COL(algorithm, COL_TEXT),       COL(params, COL_TEXT),
    COL(ranks, COL_I32),            COL(ranks_per_node, COL_I32),
    COL(size_bytes, COL_I64),       COL(placement, COL_TEXT),
    COL(model, COL_TEXT),           COL(time_s, COL_DOUBLE),
    COL(algbw_Bps, COL_DOUBLE),     COL(busbw_Bps, COL_DOUBLE),
    COL(bytes_host, COL_I64),       COL(bytes_local, COL_I64),
    COL(bytes_global, COL_I64),     COL(bytes_intergroup_msgs, COL_I64),
    COL(max_link_bytes, COL_I64),   COL(messages, COL_I64),
    COL(steps, COL_I32),            COL(sim_wall_s, COL_DOUBLE),
    COL(sim_peak_rss_kb, COL_LONG),
};
#define NCOLUMNS (sizeof columns / sizeof columns[0])

#define SW(name, type) {#name, type, offsetof(sweep_fields, name)}
static const column sweep_columns[] = {
    SW(point, COL_I64),      SW(id, COL_TEXT),          SW(status, COL_TEXT),
    SW(rep, COL_I32),        SW(seed, COL_U64),         SW(root, COL_I32),
    SW(dst, COL_I32),        SW(dims, COL_TEXT),        SW(workload, COL_TEXT),
    SW(reduce_Bps, COL_DOUBLE), SW(copy_Bps, COL_DOUBLE), SW(error, COL_TEXT),
};

/* A sweep row is made of runs of consecutive columns of the two tables (result.h gives
 * the order). Metric runs are empty in the row of a failed point. */
typedef struct segment {
    int sweep; /* 1: sweep_columns, 0: columns */
    size_t first, count;
    sweep_col_role role;
} segment;
static const segment sweep_layout[] = {
    {1, 0, 5, SWEEP_COL_POINT},    /* point id status rep seed */
    {0, 0, 9, SWEEP_COL_POINT},    /* topology .. model */
    {1, 5, 6, SWEEP_COL_POINT},    /* root dst dims workload reduce_Bps copy_Bps */
    {0, 9, 10, SWEEP_COL_METRIC},  /* time_s .. steps */
    {1, 11, 1, SWEEP_COL_ERROR},   /* error */
};
#define NSEGMENTS (sizeof sweep_layout / sizeof sweep_layout[0])
_Static_assert(NCOLUMNS == 21, "sweep_layout lists the sim_row columns by position");

/* A number column (not COL_TEXT) of the struct at base in its text form; "" for NAN. */
static void number_text(const void *base, const column *c, char *buf, size_t n)
{
    const char *p = (const char *)base + c->offset;
    double d;
    switch (c->type) {
    case COL_I32: snprintf(buf, n, "%d", *(const int32_t *)p); break;
    case COL_I64: snprintf(buf, n, "%lld", (long long)*(const int64_t *)p); break;
    case COL_U64: snprintf(buf, n, "%llu", (unsigned long long)*(const uint64_t *)p); break;
    case COL_LONG: snprintf(buf, n, "%ld", *(const long *)p); break;
    case COL_DOUBLE:
        memcpy(&d, p, sizeof d);
        if (isnan(d))
            buf[0] = '\0';
        else
            snprintf(buf, n, "%.10g", d);
        break;
    case COL_TEXT: buf[0] = '\0'; break;
    }
}

static void rank_finish_list(FILE *f, const double *rank_finish, int32_t n, char sep)
{
    for (int32_t i = 0; i < n; i++)
        fprintf(f, "%s%.10g", i ? (sep == ';' ? ";" : ",") : "", rank_finish[i]);
}

/* ---- CSV ------------------------------------------------------------------------------ */

void sim_row_csv_header_fields(FILE *f)
{
    for (size_t i = 0; i < NCOLUMNS; i++)
        fprintf(f, "%s%s", i ? "," : "", columns[i].name);
}

void sim_row_csv_header(FILE *f, int with_rank_finish)
{
    sim_row_csv_header_fields(f);
    fprintf(f, "%s\n", with_rank_finish ? ",rank_finish_s" : "");
}

/* RFC 4180: quote a field holding a comma, a quote or a line break. */
static void csv_text(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* One field of the struct at base. */
static void csv_field(FILE *f, const void *base, const column *c)
{
    char num[64];
    if (c->type == COL_TEXT) {
        csv_text(f, (const char *)base + c->offset);
    } else {
        number_text(base, c, num, sizeof num);
        fputs(num, f);
    }
}

void sim_row_csv_fields(FILE *f, const sim_row *r)
{
    for (size_t i = 0; i < NCOLUMNS; i++) {
        if (i)
            fputc(',', f);
        csv_field(f, r, &columns[i]);
    }
}

void sim_row_csv(FILE *f, const sim_row *r, const double *rank_finish, int32_t n)
{
    sim_row_csv_fields(f, r);
    if (rank_finish) {
        fputc(',', f);
        rank_finish_list(f, rank_finish, n, ';');
    }
    fputc('\n', f);
}

/* ---- sweep rows ------------------------------------------------------------------------ */

static const column *layout_column(const segment *sg, size_t k)
{
    return sg->sweep ? &sweep_columns[sg->first + k] : &columns[sg->first + k];
}

void sweep_row_csv_header(FILE *f)
{
    int first = 1;
    for (size_t s = 0; s < NSEGMENTS; s++)
        for (size_t k = 0; k < sweep_layout[s].count; k++, first = 0)
            fprintf(f, "%s%s", first ? "" : ",", layout_column(&sweep_layout[s], k)->name);
    fputc('\n', f);
}

void sweep_row_csv(FILE *f, const sweep_fields *sw, const sim_row *r)
{
    /* one row is one line: no control character in the free-text message */
    sweep_fields clean = *sw;
    for (char *c = clean.error; *c; c++)
        if ((unsigned char)*c < 0x20)
            *c = ' ';
    int failed = strcmp(sw->status, "ok") != 0, first = 1;
    for (size_t s = 0; s < NSEGMENTS; s++) {
        const segment *sg = &sweep_layout[s];
        for (size_t k = 0; k < sg->count; k++, first = 0) {
            if (!first)
                fputc(',', f);
            if (!(sg->role == SWEEP_COL_METRIC && failed))
                csv_field(f, sg->sweep ? (const void *)&clean : (const void *)r,
                          layout_column(sg, k));
        }
    }
    fputc('\n', f);
}

int sweep_csv_ncolumns(void)
{
    int n = 0;
    for (size_t s = 0; s < NSEGMENTS; s++)
        n += (int)sweep_layout[s].count;
    return n;
}

const char *sweep_csv_column_name(int i, int *is_text, sweep_col_role *role)
{
    for (size_t s = 0; s < NSEGMENTS; s++) {
        if (i >= 0 && (size_t)i < sweep_layout[s].count) {
            const column *c = layout_column(&sweep_layout[s], (size_t)i);
            if (is_text)
                *is_text = c->type == COL_TEXT;
            if (role)
                *role = sweep_layout[s].role;
            return c->name;
        }
        i -= (int)sweep_layout[s].count;
    }
    return NULL;
}

int sweep_csv_column(const char *name)
{
    int i = 0;
    for (size_t s = 0; s < NSEGMENTS; s++)
        for (size_t k = 0; k < sweep_layout[s].count; k++, i++)
            if (strcmp(layout_column(&sweep_layout[s], k)->name, name) == 0)
                return i;
    return -1;
}

/* ---- JSON ----------------------------------------------------------------------------- */

void sim_row_json_fields(FILE *f, const sim_row *r)
{
    char num[64];
    for (size_t i = 0; i < NCOLUMNS; i++) {
        fprintf(f, "%s\"%s\":", i ? "," : "", columns[i].name);
        if (columns[i].type == COL_TEXT) {
            json_write_string(f, (const char *)r + columns[i].offset);
        } else {
            number_text(r, &columns[i], num, sizeof num);
            fputs(num[0] ? num : "null", f);
        }
    }
}

void sim_row_json(FILE *f, const sim_row *r, const double *rank_finish, int32_t n)
{
    fputc('{', f);
    sim_row_json_fields(f, r);
    if (rank_finish) {
        fputs(",\"rank_finish_s\":[", f);
        rank_finish_list(f, rank_finish, n, ',');
        fputc(']', f);
    }
    fputs("}\n", f);
}
