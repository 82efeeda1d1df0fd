/* main.c - the collsim command: dispatches to a subcommand (see cli.h). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "version.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *help;
} command;

static const command commands[] = {
    {"list", cmd_list, "list the algorithms with their constraints and parameters"},
    {"verify", cmd_verify, "verify schedules symbolically over rank counts"},
    {"topo", cmd_topo, "build a topology: figures, SimGrid platform, routes, route check"},
    {"sim", cmd_sim, "simulate one collective on a topology, print one result row"},
    {"run", cmd_run, "run a Lua scenario (a sweep): results.csv, manifest.json, plots"},
    {"draw", cmd_draw, "pictures of a topology and of a collective's per-step link loads"},
    {"traffic", cmd_traffic, "internal/external bytes of algorithms on a real allocation + group map"},
    {"dump", cmd_dump, "write a schedule as GOAL (LogGOPSim) or JSON lines"},
    {"check", cmd_check, "CI check of an algorithm over ranks, sizes, topologies (JUnit)"},
    {"calibrate", cmd_calibrate, "fit endpoint costs from OSU / CSV ping-pong, bandwidth, message-rate tables"},
    {"merge", cmd_merge, "combine the outputs of `collsim run --shard K/N` runs into one"},
};

static void print_usage(FILE *f)
{
    fprintf(f, "usage: collsim <command> [options]   (collsim <command> --help)\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "  %-10s %s\n", "version", "print the version");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_usage(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0 || strcmp(name, "help") == 0) {
        print_usage(stdout);
        return 0;
    }
    if (strcmp(name, "version") == 0 || strcmp(name, "--version") == 0) {
        printf("collsim %s (git %s)\n", COLLSIM_VERSION, COLLSIM_GIT_REV);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(name, commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "collsim: unknown command '%s'\n", name);
    print_usage(stderr);
    return EXIT_USAGE;
}
