/* stream.c - collsim's own MPI bandwidth and message-rate programs for the SMPI calibration
 * test (tests/cli/calibrate.sh). The first half of the ranks send to the second half
 * (rank i to rank i + P/2, P/2 pairs): each window is WINDOW MPI_Isend of one size, the
 * receiver's MPI_Irecv and MPI_Waitall, then a 4-byte acknowledgement back, as the OSU
 * osu_bw / osu_mbw_mr loops do. Output in the layout of osu_bw ("bw": size, MB/s of one
 * pair) or osu_mbw_mr ("mr": size, MB/s and messages/s of all pairs, with the pairs and
 * window header), each size timed after one untimed window, sizes 1 B .. MAX (powers of two; mr from 0 B).
 * usage: stream bw|mr [MAX_BYTES [WINDOW [ITERS]]]   (defaults 16777216, 64, 4) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double one_size(long s, int window, int iters, int rank, int pairs, char *buf,
                       MPI_Request *req)
{
    int sender = rank < pairs, peer = sender ? rank + pairs : rank - pairs;
    char ack[4] = {0};
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = 0;
    for (int it = -1; it < iters; it++) { /* one untimed window first (OSU's skip) */
        if (it == 0)
            t0 = MPI_Wtime();
        for (int w = 0; w < window; w++) {
            if (sender)
                MPI_Isend(buf, (int)s, MPI_CHAR, peer, 100, MPI_COMM_WORLD, &req[w]);
            else
                MPI_Irecv(buf, (int)s, MPI_CHAR, peer, 100, MPI_COMM_WORLD, &req[w]);
        }
        MPI_Waitall(window, req, MPI_STATUSES_IGNORE);
        if (sender)
            MPI_Recv(ack, 4, MPI_CHAR, peer, 101, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        else
            MPI_Send(ack, 4, MPI_CHAR, peer, 101, MPI_COMM_WORLD);
    }
    double t = MPI_Wtime() - t0, tmax;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    return tmax;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int mr = argc > 1 && strcmp(argv[1], "mr") == 0;
    long max = argc > 2 ? atol(argv[2]) : 1L << 24;
    int window = argc > 3 ? atoi(argv[3]) : 64, iters = argc > 4 ? atoi(argv[4]) : 4;
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int pairs = size / 2;
    char *buf = calloc((size_t)max + 1, 1);
    MPI_Request *req = malloc((size_t)window * sizeof *req);
    if (rank == 0 && mr)
        printf("# OSU MPI Multiple Bandwidth / Message Rate Test (layout of; collsim "
               "tests/smpi/stream.c)\n# [ pairs: %d ] [ window size: %d ]\n"
               "# Size                  MB/s        Messages/s\n", pairs, window);
    else if (rank == 0)
        printf("# OSU MPI Bandwidth Test (layout of; collsim tests/smpi/stream.c)\n"
               "# [ window size: %d ]\n# Size      Bandwidth (MB/s)\n", window);
    for (long s = mr ? 0 : 1; s <= max; s = s ? 2 * s : 1) {
        double t = one_size(s, window, iters, rank, pairs, buf, req);
        double msgs = (double)pairs * window * iters;
        if (rank == 0 && mr)
            printf("%-10ld %18.4f %18.4f\n", s, msgs * s / t / 1e6, msgs / t);
        else if (rank == 0)
            printf("%-10ld %18.4f\n", s, (double)window * iters * s / t / 1e6);
    }
    free(req);
    free(buf);
    MPI_Finalize();
    return 0;
}
