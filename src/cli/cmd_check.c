/* placeholder replaced below */
#include "cli/cli.h"
int cmd_check(int argc, char **argv) { (void)argc; (void)argv; return 2; }
