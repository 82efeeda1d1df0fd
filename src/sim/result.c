/* result.c - result rows: derived metrics and the CSV / JSON writers (see result.h). */
#include "sim/result.h"

#include <math.h>
#include <string.h>

double busbw_factor(coll_kind c, int32_t P)
{
    switch (c) {
    case COLL_ALLREDUCE: return 2.0 * (P - 1) / P;
    case COLL_BCAST:
    case COLL_REDUCE: return 1.0;
    default: return (double)(P - 1) / P;
    }
}

void sim_row_set_metrics(sim_row *r, coll_kind c, const traffic_counts *tc, double time_s)
{
    r->bytes_host = tc->bytes_class[LINK_HOST];
    r->bytes_local = tc->bytes_class[LINK_LOCAL];
    r->bytes_global = tc->bytes_class[LINK_GLOBAL];
    r->bytes_intergroup_msgs = tc->bytes_intergroup_msgs;
    r->max_link_bytes = tc->max_link_bytes;
    r->messages = tc->messages;
    r->steps = tc->steps;
    r->time_s = time_s;
    r->algbw_Bps = time_s > 0 ? (double)r->size_bytes / time_s : NAN;
    r->busbw_Bps = r->algbw_Bps * busbw_factor(c, r->ranks);
}

/* ---- CSV ------------------------------------------------------------------------------ */

static const char *const columns[] = {
    "topology", "collective", "algorithm", "params", "ranks", "ranks_per_node", "size_bytes",
    "placement", "model", "time_s", "algbw_Bps", "busbw_Bps", "bytes_host", "bytes_local",
    "bytes_global", "bytes_intergroup_msgs", "max_link_bytes", "messages", "steps",
    "sim_wall_s", "sim_peak_rss_kb", NULL};

void sim_row_csv_header(FILE *f, int with_rank_finish)
{
    for (int i = 0; columns[i]; i++)
        fprintf(f, "%s%s", i ? "," : "", columns[i]);
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

static void csv_double(FILE *f, double x)
{
    if (!isnan(x))
        fprintf(f, "%.10g", x);
}

void sim_row_csv(FILE *f, const sim_row *r, const double *rank_finish, int32_t n)
{
    const char *texts[] = {r->topology, r->collective, r->algorithm, r->params};
    for (int i = 0; i < 4; i++) {
        csv_text(f, texts[i]);
        fputc(',', f);
    }
    fprintf(f, "%d,%d,%lld,", r->ranks, r->ranks_per_node, (long long)r->size_bytes);
    csv_text(f, r->placement);
    fprintf(f, ",%s,", r->model);
    csv_double(f, r->time_s);
    fputc(',', f);
    csv_double(f, r->algbw_Bps);
    fputc(',', f);
    csv_double(f, r->busbw_Bps);
    fprintf(f, ",%lld,%lld,%lld,%lld,%lld,%lld,%d,%.6f,%ld", (long long)r->bytes_host,
            (long long)r->bytes_local, (long long)r->bytes_global,
            (long long)r->bytes_intergroup_msgs, (long long)r->max_link_bytes,
            (long long)r->messages, r->steps, r->sim_wall_s, r->sim_peak_rss_kb);
    if (rank_finish) {
        fputc(',', f);
        for (int32_t i = 0; i < n; i++)
            fprintf(f, "%s%.10g", i ? ";" : "", rank_finish[i]);
    }
    fputc('\n', f);
}

/* ---- JSON ----------------------------------------------------------------------------- */

static void json_text(FILE *f, const char *key, const char *s)
{
    fprintf(f, "\"%s\":\"", key);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputs("\",", f);
}

static void json_double(FILE *f, const char *key, double x)
{
    if (isnan(x))
        fprintf(f, "\"%s\":null,", key);
    else
        fprintf(f, "\"%s\":%.10g,", key, x);
}

void sim_row_json(FILE *f, const sim_row *r, const double *rank_finish, int32_t n)
{
    fputc('{', f);
    json_text(f, "topology", r->topology);
    json_text(f, "collective", r->collective);
    json_text(f, "algorithm", r->algorithm);
    json_text(f, "params", r->params);
    fprintf(f, "\"ranks\":%d,\"ranks_per_node\":%d,\"size_bytes\":%lld,", r->ranks,
            r->ranks_per_node, (long long)r->size_bytes);
    json_text(f, "placement", r->placement);
    json_text(f, "model", r->model);
    json_double(f, "time_s", r->time_s);
    json_double(f, "algbw_Bps", r->algbw_Bps);
    json_double(f, "busbw_Bps", r->busbw_Bps);
    fprintf(f,
            "\"bytes_host\":%lld,\"bytes_local\":%lld,\"bytes_global\":%lld,"
            "\"bytes_intergroup_msgs\":%lld,\"max_link_bytes\":%lld,\"messages\":%lld,"
            "\"steps\":%d,\"sim_wall_s\":%.6f,\"sim_peak_rss_kb\":%ld",
            (long long)r->bytes_host, (long long)r->bytes_local, (long long)r->bytes_global,
            (long long)r->bytes_intergroup_msgs, (long long)r->max_link_bytes,
            (long long)r->messages, r->steps, r->sim_wall_s, r->sim_peak_rss_kb);
    if (rank_finish) {
        fputs(",\"rank_finish_s\":[", f);
        for (int32_t i = 0; i < n; i++)
            fprintf(f, "%s%.10g", i ? "," : "", rank_finish[i]);
        fputc(']', f);
    }
    fputs("}\n", f);
}
