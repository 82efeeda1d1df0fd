/* pingpong.c - collsim's own MPI ping-pong for the SMPI calibration test
 * (tests/cli/calibrate.sh). Ranks 0 and 1 bounce one message of each size ITERS times,
 * after 2 untimed round trips (as OSU's skip iterations: they absorb the ranks' skew after
 * the barrier); rank 0 prints half the mean round trip in microseconds, in the layout of
 * osu_latency's output so that `collsim calibrate` reads it as such. Sizes: 0 B and the
 * powers of two up to MAX, plus the EXTRA sizes given (merged in order).
 * usage: pingpong [MAX_BYTES [ITERS [EXTRA...]]]   (defaults 16777216, 10) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static double round_trips(long s, int iters, int rank, char *buf)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = 0;
    for (int i = -2; i < iters && rank < 2; i++) {
        if (i == 0)
            t0 = MPI_Wtime();
        if (rank == 0) {
            MPI_Send(buf, (int)s, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(buf, (int)s, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, (int)s, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, (int)s, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
        }
    }
    return (MPI_Wtime() - t0) / (2.0 * iters);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long max = argc > 1 ? atol(argv[1]) : 1L << 24, sizes[128];
    int iters = argc > 2 ? atoi(argv[2]) : 10, rank, n = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (long s = 0; s <= max && n < 64; s = s ? 2 * s : 1)
        sizes[n++] = s;
    for (int i = 3; i < argc && n < 128; i++)
        sizes[n++] = atol(argv[i]);
    qsort(sizes, (size_t)n, sizeof *sizes, cmp_long);
    char *buf = calloc((size_t)sizes[n - 1] + 1, 1);
    if (rank == 0)
        printf("# OSU MPI Latency Test (layout of; collsim tests/smpi/pingpong.c)\n"
               "# Size          Latency (us)\n");
    for (int i = 0; i < n; i++) {
        double t = round_trips(sizes[i], iters, rank, buf);
        if (rank == 0)
            printf("%-10ld %18.4f\n", sizes[i], t * 1e6);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
