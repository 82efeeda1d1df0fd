/* ring_ahead.c - the SMPI side of scripts/ring_ahead_smpi.sh: times one ring allreduce
 * written the way libbine's allreduce_ring (github.com/HLC-Lab/pico, libbine/
 * libbine_allreduce.c; Open MPI's base ring) communicates, in collsim's own code:
 *
 *   reduce-scatter: post the receive of block r-1, send block r (blocking); for k = 2 ..
 *   P-1 post the receive of the next block, wait for the previous one, reduce it, send
 *   it; wait for the last block, reduce it; allgather: P-1 MPI_Sendrecv to r+1 / from r-1.
 *
 *   smpirun ... ./ring_ahead BYTES [REDUCE_BPS]
 *
 * SMPI charges no simulated time for MPI_Reduce_local (it is inside the MPI library, not
 * benchmarked user code); with REDUCE_BPS > 0 every reduction of b bytes also takes
 * b / REDUCE_BPS seconds (smpi_execute_flops at the host's speed), as collsim's
 * --reduce-rate charges it.
 * BYTES/4 ints cut into P blocks (the first BYTES/4 mod P blocks one int larger), buffers
 * SMPI_SHARED_MALLOC'ed (timing only). All ranks leave a barrier, run it once and rank 0
 * prints "time_s <max end - min start>" (simulated seconds).
 */
#include <mpi.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <stdlib.h>

static long block_start(long b, long count, int P)
{
    long early = count / P + 1, late = count / P, split = count % P;
    return b < split ? b * early : split * early + (b - split) * late;
}

static int block_len(long b, long count, int P)
{
    return (int)(block_start(b + 1, count, P) - block_start(b, count, P));
}

static double reduce_bps; /* 0: reductions take no simulated time (SMPI's own rule) */

static void reduce(const int *in, int *inout, int len)
{
    MPI_Reduce_local(in, inout, len, MPI_INT, MPI_SUM);
    if (reduce_bps > 0)
        smpi_execute_flops((double)len * sizeof(int) / reduce_bps *
                           sg_host_get_speed(sg_host_self()));
}

static void ring(int *buf, int *in[2], long count, int rank, int P)
{
    int next = (rank + 1) % P, prev = (rank + P - 1) % P, cur = 0, maxlen = block_len(0, count, P);
    MPI_Request req[2];
    MPI_Irecv(in[cur], maxlen, MPI_INT, prev, 0, MPI_COMM_WORLD, &req[cur]);
    MPI_Send(buf + block_start(rank, count, P), block_len(rank, count, P), MPI_INT, next, 0,
             MPI_COMM_WORLD);
    for (int k = 2; k < P; k++) {
        int b = (rank + P - k + 1) % P;
        cur ^= 1;
        MPI_Irecv(in[cur], maxlen, MPI_INT, prev, 0, MPI_COMM_WORLD, &req[cur]);
        MPI_Wait(&req[cur ^ 1], MPI_STATUS_IGNORE);
        reduce(in[cur ^ 1], buf + block_start(b, count, P), block_len(b, count, P));
        MPI_Send(buf + block_start(b, count, P), block_len(b, count, P), MPI_INT, next, 0,
                 MPI_COMM_WORLD);
    }
    MPI_Wait(&req[cur], MPI_STATUS_IGNORE);
    reduce(in[cur], buf + block_start(next, count, P), block_len(next, count, P));
    for (int k = 0; k < P - 1; k++) {
        int rb = (rank + P - k) % P, sb = (rank + 1 + P - k) % P;
        MPI_Sendrecv(buf + block_start(sb, count, P), block_len(sb, count, P), MPI_INT, next, 0,
                     buf + block_start(rb, count, P), maxlen, MPI_INT, prev, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, P;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    if (argc < 2 || argc > 3 || P < 3) {
        if (rank == 0)
            fprintf(stderr, "usage: ring_ahead BYTES [REDUCE_BPS] (at least 3 ranks)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    reduce_bps = argc == 3 ? atof(argv[2]) : 0;
    long count = atol(argv[1]) / 4;
    int *buf = SMPI_SHARED_MALLOC((size_t)count * sizeof(int));
    int *in[2] = {SMPI_SHARED_MALLOC((size_t)(count / P + 1) * sizeof(int)),
                  SMPI_SHARED_MALLOC((size_t)(count / P + 1) * sizeof(int))};
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    ring(buf, in, count, rank, P);
    double t1 = MPI_Wtime(), start, end;
    MPI_Reduce(&t0, &start, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&t1, &end, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("time_s %.12g\n", end - start);
    SMPI_SHARED_FREE(buf);
    SMPI_SHARED_FREE(in[0]);
    SMPI_SHARED_FREE(in[1]);
    MPI_Finalize();
    return 0;
}
