/* coll_time.c - the SMPI side of scripts/smpi_crosscheck.sh: times one collective call.
 *
 *   smpirun ... ./coll_time allreduce|alltoall BYTES
 *
 * allreduce: MPI_Allreduce of BYTES/4 ints (MPI_SUM); alltoall: MPI_Alltoall with BYTES/P
 * bytes per destination (BYTES = one rank's send buffer, collsim's --size). Buffers are
 * SMPI_SHARED_MALLOC'ed (timing only). All ranks leave a barrier, run the collective once
 * and rank 0 prints "time_s <max end - min start>" (simulated seconds).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, P;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    if (argc != 3) {
        if (rank == 0)
            fprintf(stderr, "usage: coll_time allreduce|alltoall BYTES\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    long bytes = atol(argv[2]);
    int alltoall = strcmp(argv[1], "alltoall") == 0;
    char *in = SMPI_SHARED_MALLOC((size_t)bytes), *out = SMPI_SHARED_MALLOC((size_t)bytes);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (alltoall)
        MPI_Alltoall(in, (int)(bytes / P), MPI_BYTE, out, (int)(bytes / P), MPI_BYTE,
                     MPI_COMM_WORLD);
    else
        MPI_Allreduce(in, out, (int)(bytes / 4), MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    double t1 = MPI_Wtime(), start, end;
    MPI_Reduce(&t0, &start, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&t1, &end, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("time_s %.12g\n", end - start);
    SMPI_SHARED_FREE(in);
    SMPI_SHARED_FREE(out);
    MPI_Finalize();
    return 0;
}
