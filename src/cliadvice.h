/* cliadvice.h: what to tell a user whose command line went wrong, beyond "no".
 *
 * Two habits bring people to ev2hp's command line with the wrong words: flags of the GHC
 * runtime typed where ev2hp's belong (`ev2hp -hc prog.eventlog`: getopt would read -h,
 * ev2hp's help, and exit 0), and long options mistyped (`--outptu`). cli.c asks here,
 * before and after getopt, and words the usage error (status 2) with the answer. No side
 * effects, no printing: the answers are written into the caller's buffer.
 */
#ifndef EV2HP_CLIADVICE_H
#define EV2HP_CLIADVICE_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

/* The first argument of argv[1..argc) that reads as a flag of the GHC runtime rather than
 * ev2hp's (`+RTS`, `-RTS`, `-hc`, `-hT`, `-l`, `-p`, `-s`, `-N4`, `-i0.1`, ...), or NULL.
 * Option arguments (`--title -hc`, `-o -p`) and everything after `--` are skipped: longs
 * and shorts (getopt's option string) say which options take one. */
const char *cliadvice_rts_flag(int argc, char *const *argv, const struct option *longs,
                               const char *shorts);

/* For an unknown long option `--NAME[=...]`: the option of longs nearest to NAME by edit
 * distance (a letter inserted, deleted, changed, or two neighbours swapped), when it is
 * near enough to be a slip rather than another word; else NULL. */
const char *cliadvice_nearest_option(const char *arg, const struct option *longs);

#endif
