/* runstat.c: runs a command and reports its wall time and peak memory, for `make bench`.
 *
 * GNU time's -v output differs between systems and is not always installed; wait4() gives
 * the child's peak resident set size directly, and a monotonic clock its wall time. The
 * command keeps the caller's standard input, output and error (the benchmark redirects
 * them), so the figures go to a file of their own:
 *
 *     runstat STATFILE COMMAND [ARG]...
 *
 * writes one line "WALL_SECONDS MAXRSS_KIB EXIT_STATUS CPU_SECONDS" to STATFILE (CPU =
 * user + system time of the child) and exits with the command's status. On a machine
 * shared with other work, CPU seconds say what the command costs; wall seconds also say
 * how long it waited for a processor.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fputs("usage: runstat STATFILE COMMAND [ARG]...\n", stderr);
        return 2;
    }
    double start = seconds_now();
    pid_t pid = fork();
    if (pid < 0) {
        perror("runstat: fork");
        return 2;
    }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror("runstat: exec");
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) {
        perror("runstat: wait4");
        return 2;
    }
    double wall = seconds_now() - start;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    FILE *out = fopen(argv[1], "w");
    if (!out) {
        perror(argv[1]);
        return 2;
    }
    double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
                 (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
    fprintf(out, "%.6f %ld %d %.6f\n", wall, ru.ru_maxrss, code, cpu);
    if (fclose(out) != 0) {
        perror(argv[1]);
        return 2;
    }
    return code;
}
