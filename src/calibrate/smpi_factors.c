/* smpi_factors.c - SimGrid SMPI's default smpi/lat-factor and smpi/bw-factor tables (the
 * values of SimGrid 3.32's configuration defaults, printed by its --help-cfg and listed in
 * /work/shared/reference/kautz-2dfc.md 3.2): for a message of s bytes on the wire, the
 * route's latency is multiplied by lat(s) and its bandwidth by bw(s), each the value of
 * the largest threshold strictly below s, 1 when there is none (s = 0): the rule of
 * SimGrid's FactorSet (src/kernel/resource/FactorSet.cpp, "size <= threshold: use the
 * previous value"). SMPI puts 16 bytes of envelope on every message (smpi_request.cpp,
 * "payload_size_ = size_ + 16"), so a 0 B MPI message is looked up as 16 B.
 * CAL_FACTORS_NONE is 1 everywhere. */
#include "calibrate/calibrate.h"

typedef struct {
    double from, factor;
} step;

static const step lat_steps[] = {{65472, 11.6436}, {15424, 3.48845}, {9376, 2.59299},
                                 {5776, 2.18796},  {3484, 1.88101},  {1426, 1.61075},
                                 {732, 1.9503},    {257, 1.95341},   {0, 2.01467}};
static const step bw_steps[] = {{65472, 0.940694}, {15424, 0.697866}, {9376, 0.58729},
                                {5776, 1.08739},   {3484, 0.77493},   {1426, 0.608902},
                                {732, 0.341987},   {257, 0.338112},   {0, 0.812084}};

static double lookup(const step *t, size_t n, double bytes)
{
    for (size_t i = 0; i < n; i++)
        if (bytes > t[i].from)
            return t[i].factor;
    return 1.0;
}

double cal_lat_factor(cal_factors f, double bytes)
{
    return f == CAL_FACTORS_SMPI ? lookup(lat_steps, sizeof lat_steps / sizeof *lat_steps, bytes)
                                 : 1.0;
}

double cal_bw_factor(cal_factors f, double bytes)
{
    return f == CAL_FACTORS_SMPI ? lookup(bw_steps, sizeof bw_steps / sizeof *bw_steps, bytes)
                                 : 1.0;
}
