/* rabenseifner.c - the SMPI side of scripts/bench/sim_scale.sh: collsim's allreduce
 * `rabenseifner` (order=farthest, docs/algorithms.md) written as MPI point-to-point code,
 * for P a power of two.
 *
 *   smpirun ... ./rabenseifner BYTES
 *
 * Reduce-scatter, step s = 0 .. k-1 (P = 2^k): exchange with r xor 2^(k-1-s) (distance
 * halving); of the current window (n / 2^s bytes) keep the aligned half holding block r,
 * send the other half (n / 2^(s+1) bytes). Allgather, step s = 0 .. k-1: exchange with
 * r xor 2^s (distance doubling), sending the window held (n / 2^(k-s) bytes) and
 * receiving the peer's. One MPI_Sendrecv per step, as collsim's steps (a send and a
 * receive at once). Timing only, like collsim's flow models with --reduce-rate free: the
 * buffers are SMPI_SHARED_MALLOC'ed and no arithmetic is done. Rank 0 prints
 * "time_s <max end - min start>" (simulated seconds) after a barrier.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, P;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    long n = argc == 2 ? atol(argv[1]) : 0;
    int k = 0;
    while ((1 << k) < P)
        k++;
    if (argc != 2 || n <= 0 || (1 << k) != P || n % P != 0) {
        if (rank == 0)
            fprintf(stderr, "usage: rabenseifner BYTES (P a power of two dividing BYTES)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    char *buf = SMPI_SHARED_MALLOC((size_t)n), *tmp = SMPI_SHARED_MALLOC((size_t)n);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    long lo = 0, len = n; /* the window this rank still reduces */
    for (int s = 0; s < k; s++) {
        int d = 1 << (k - 1 - s), peer = rank ^ d;
        long half = len / 2;
        long keep = (rank & d) ? lo + half : lo, give = (rank & d) ? lo : lo + half;
        MPI_Sendrecv(buf + give, (int)half, MPI_BYTE, peer, 0, tmp + keep, (int)half, MPI_BYTE,
                     peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        lo = keep;
        len = half;
    }
    for (int s = 0; s < k; s++) {
        int d = 1 << s, peer = rank ^ d;
        long other = (rank & d) ? lo - len : lo + len;
        MPI_Sendrecv(buf + lo, (int)len, MPI_BYTE, peer, 1, buf + other, (int)len, MPI_BYTE,
                     peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        lo = lo < other ? lo : other;
        len *= 2;
    }
    double t1 = MPI_Wtime(), start, end;
    MPI_Reduce(&t0, &start, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&t1, &end, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("time_s %.10g\n", end - start);
    SMPI_SHARED_FREE(buf);
    SMPI_SHARED_FREE(tmp);
    MPI_Finalize();
    return 0;
}
