/* test_live.c: live inputs through the path ev2hp reads them, against a server in a thread.
 *
 * A thread plays the program: it listens on a Unix socket in a fresh temporary directory
 * and writes exact eventlogs built with the test writer, in steps the test controls, and
 * records what the client writes back. Cases: the control message's bytes and their
 * delivery while the input is read (ENOTSOCK for a file), a dropped connection made
 * again (repeated definitions not doubled, the cut census counted, the gap marked), a
 * stop flag ending a stream that never ends, a bounded wait for a program that never
 * listens, the socket addresses ev2hp accepts, and the lock the input shares with the
 * server's threads (held while it assembles, free while it waits). Every case is
 * bounded by alarm().
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "evwriter.h"
#include "read/connect.h"
#include "read/control.h"
#include "census/input.h"
#include "read/progress.h"

#define CASE_SECONDS 20

/* ------------------------------------------------------------------ the program side */

struct program {
    char dir[64];
    char path[128];
    char name[160];              /* the input's name for ev2hp: unix:path */
    int listen_fd;
    pthread_t thread;
    /* What to send: for each connection, the bytes before and after the pause. */
    struct evw *first, *second;
    size_t first_cut;            /* connection 1 sends first[0..first_cut) and closes;
                                  * 0: all of first, kept open until the client closes */
    bool wait_control;           /* connection 1: read a control message before the end */
    bool never_end;              /* connection 1: send first minus its end, then wait */
    bool reset;                  /* connection 1 ends with a reset, not an orderly close */
    unsigned unheard_first;      /* connections closed before a byte, before connection 1 */
    unsigned unheard;            /* after connection 1, as many closed before a byte;
                                  * UINT_MAX: every one until none comes for a second */
    double wait;                 /* the client's --wait (0: 5 s) */
    unsigned char received[64];
    size_t received_len;
    volatile sig_atomic_t stop;  /* for the client, set by stopper() */
};

static void send_all(int fd, const unsigned char *p, size_t n)
{
    while (n) {
        ssize_t put = send(fd, p, n, MSG_NOSIGNAL);
        if (put <= 0)
            return;
        p += put;
        n -= (size_t)put;
    }
}

/* Reads what the client writes until n bytes are in or the client closes. */
static void receive(struct program *pg, int fd, size_t n)
{
    while (pg->received_len < n) {
        struct pollfd p = { .fd = fd, .events = POLLIN };
        if (poll(&p, 1, CASE_SECONDS * 1000) <= 0)
            return;
        ssize_t got = recv(fd, pg->received + pg->received_len,
                           sizeof pg->received - pg->received_len, 0);
        if (got <= 0)
            return;
        pg->received_len += (size_t)got;
    }
}

/* Accepts n connections and closes each before sending anything; false when none comes
 * for a second (the client gave up). */
static bool close_unheard(struct program *pg, unsigned n)
{
    for (unsigned k = 0; k < n; k++) {
        struct pollfd p = { .fd = pg->listen_fd, .events = POLLIN };
        int fd;
        if (poll(&p, 1, 1000) <= 0 || (fd = accept(pg->listen_fd, NULL, NULL)) < 0)
            return false;
        close(fd);
    }
    return true;
}

static void *program_run(void *arg)
{
    struct program *pg = arg;
    if (!close_unheard(pg, pg->unheard_first))
        return NULL;
    int fd = accept(pg->listen_fd, NULL, NULL);
    if (fd < 0)
        return NULL;
    const struct evw *w = pg->first;
    if (pg->first_cut) {
        send_all(fd, w->data, pg->first_cut);
        if (pg->reset) {
            /* Closing with the client's bytes unread resets the connection: wait for
             * the control message the client sends, and leave it unread. */
            struct pollfd p = { .fd = fd, .events = POLLIN };
            poll(&p, 1, CASE_SECONDS * 1000);
        }
        close(fd);
        if (!close_unheard(pg, pg->unheard))
            return NULL;
        fd = accept(pg->listen_fd, NULL, NULL);
        if (fd < 0)
            return NULL;
        w = pg->second;
        /* GHC 9.0 restarting its logging for a new client may flush an empty block of
         * a capability before the header: a block marker, bytes of no eventlog. */
        static const unsigned char stray_block[24] = { 0x00, 0x12, 0, 0, 0, 0, 0, 1, 0, 0,
                                                       0, 0, 0, 24 };
        send_all(fd, stray_block, sizeof stray_block);
    }
    /* The stream minus its end-of-data marker (2 bytes), then the marker. */
    send_all(fd, w->data, w->len - 2);
    if (pg->wait_control)
        receive(pg, fd, CONTROL_MESSAGE_SIZE);
    if (pg->never_end) {
        receive(pg, fd, sizeof pg->received);   /* until the client closes */
        close(fd);
        return NULL;
    }
    send_all(fd, w->data + w->len - 2, 2);
    receive(pg, fd, sizeof pg->received);
    close(fd);
    return NULL;
}

static void program_listen(struct program *pg)
{
    strcpy(pg->dir, "/tmp/ev2hp-live-XXXXXX");
    assert_non_null(mkdtemp(pg->dir));
    snprintf(pg->path, sizeof pg->path, "%s/sock", pg->dir);
    snprintf(pg->name, sizeof pg->name, "unix:%s", pg->path);
    pg->listen_fd = socket(AF_UNIX, SOCK_STREAM, 0);
    assert_true(pg->listen_fd >= 0);
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    strcpy(a.sun_path, pg->path);
    assert_int_equal(bind(pg->listen_fd, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(listen(pg->listen_fd, 2), 0);
    assert_int_equal(pthread_create(&pg->thread, NULL, program_run, pg), 0);
}

static void program_end(struct program *pg)
{
    pthread_join(pg->thread, NULL);
    close(pg->listen_fd);
    unlink(pg->path);
    rmdir(pg->dir);
    evw_free(pg->first);
    evw_free(pg->second);
}

/* ------------------------------------------------------------------ eventlogs */

/* A -hc run's start: header, run information, HEAP_PROF_BEGIN and two cost centres,
 * as the runtime sends it to every client. */
static struct evw *run_start(void)
{
    struct evw *w = evw_new();
    evw_ghc9_header(w, true);
    evw_rts_identifier(w, 1, "GHC-9.0.2 rts_l");
    static const char *const argv[] = { "prog" };
    evw_program_args(w, 1, argv, 1);
    evw_prof_begin(w, 2, 1, 0);
    evw_cost_centre(w, 3, 1, "main", "Main");
    evw_cost_centre(w, 3, 2, "go", "Main");
    return w;
}

static void census(struct evw *w, uint64_t t, uint64_t bytes)
{
    static const uint32_t stack[] = { 2, 1 };
    evw_sample_begin(w, t, 0);
    evw_sample_stack(w, t, bytes, stack, 2);
    evw_sample_end(w, t, 0);
}

/* A whole run of one census: 100 bytes at 10 ns. */
static struct evw *one_census_run(void)
{
    struct evw *w = run_start();
    census(w, 10, 100);
    evw_data_end(w);
    return w;
}

/* Connection 1's stream: a run whose second census the connection cuts (first_cut). */
static void first_cut_in_second_census(struct program *pg)
{
    pg->first = run_start();
    census(pg->first, 10, 100);
    pg->first_cut = pg->first->len + 30;
    census(pg->first, 20, 200);
}

/* ------------------------------------------------------------------ the client side */

struct seen {
    char text[512];
    size_t len;
    int markers;
    char marker[64];
};

static int on_frame(void *ctx, const struct census_frame *f)
{
    struct seen *s = ctx;
    uint64_t total = 0;
    for (size_t i = 0; i < f->count; i++)
        total += f->entries[i].bytes;
    s->len += (size_t)snprintf(s->text + s->len, sizeof s->text - s->len, "%llu:%llu;",
                               (unsigned long long)f->time_ns, (unsigned long long)total);
    return 0;
}

static int on_marker(void *ctx, uint64_t t, const char *text, size_t len)
{
    (void)t;
    struct seen *s = ctx;
    s->markers++;
    snprintf(s->marker, sizeof s->marker, "%.*s", (int)len, text);
    return 0;
}

static struct input *open_live(const char *name, struct seen *seen, double wait,
                               const volatile sig_atomic_t *stop, struct ev_error *err)
{
    struct input_options opt = { .path = name, .wait_seconds = wait, .stop = stop };
    struct census_events ev = { on_frame, on_marker, NULL, seen, NULL, NULL };
    return input_open(&opt, &ev, err);
}

/* The program pg listening, and ev2hp's input connected to it (waiting up to pg->wait
 * or 5 s, stopped by *stop when not NULL); what it reads goes to seen. */
static struct input *connect_to(struct program *pg, struct seen *seen,
                                const volatile sig_atomic_t *stop)
{
    program_listen(pg);
    struct ev_error err = { 0 };
    struct input *in = open_live(pg->name, seen, pg->wait > 0 ? pg->wait : 5, stop, &err);
    assert_non_null(in);
    return in;
}

/* Reads in to its end: one_census_run's census whole, nothing damaged; then in and the
 * program pg end. */
static void expect_one_census(struct input *in, struct seen *seen, struct program *pg)
{
    struct ev_error err = { 0 };
    struct input_outcome out;
    assert_int_equal(input_read(in, &out, &err), INPUT_OK);
    assert_false(out.damaged);
    assert_string_equal(seen->text, "10:100;");
    input_free(in);
    program_end(pg);
}

/* ------------------------------------------------------------------ cases */

static void test_control_message_bytes(void **state)
{
    (void)state;
    static const unsigned char want[] = {
        0xF0, 0x9E, 0x97, 0x8C, 0x00, 0x0F, 'e', 'v', 'e', 'n', 't', 'l', 'o', 'g', '-',
        's', 'o', 'c', 'k', 'e', 't', 0x05,
    };
    unsigned char msg[CONTROL_MESSAGE_SIZE];
    assert_int_equal(sizeof want, CONTROL_MESSAGE_SIZE);
    assert_int_equal(control_message(CONTROL_REQUEST_HEAP_CENSUS, msg), sizeof want);
    assert_memory_equal(msg, want, sizeof want);
    control_message(CONTROL_START_HEAP_PROFILING, msg);
    assert_int_equal(msg[CONTROL_MESSAGE_SIZE - 1], 3);
    assert_memory_equal(msg, want, sizeof want - 1);
    control_message(CONTROL_STOP_HEAP_PROFILING, msg);
    assert_int_equal(msg[CONTROL_MESSAGE_SIZE - 1], 4);
}

/* The message reaches the program while the main thread reads; the program answers
 * with the rest of the stream only once it has the message. */
static void test_control_reaches_the_program(void **state)
{
    (void)state;
    alarm(CASE_SECONDS);
    struct program pg = { .wait_control = true, .first = one_census_run() };
    struct seen seen = { 0 };
    struct input *in = connect_to(&pg, &seen, NULL);
    assert_int_equal(input_send_control(in, CONTROL_REQUEST_HEAP_CENSUS), 0);
    expect_one_census(in, &seen, &pg);
    unsigned char want[CONTROL_MESSAGE_SIZE];
    control_message(CONTROL_REQUEST_HEAP_CENSUS, want);
    assert_int_equal(pg.received_len, CONTROL_MESSAGE_SIZE);
    assert_memory_equal(pg.received, want, CONTROL_MESSAGE_SIZE);
}

static void test_control_refused_on_a_file(void **state)
{
    (void)state;
    char path[] = "/tmp/ev2hp-live-file-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    struct evw *w = one_census_run();
    assert_int_equal(write(fd, w->data, w->len), (ssize_t)w->len);
    close(fd);
    evw_free(w);
    struct seen seen = { 0 };
    struct ev_error err = { 0 };
    struct input *in = open_live(path, &seen, 0, NULL, &err);
    assert_non_null(in);
    errno = 0;
    assert_int_equal(input_send_control(in, CONTROL_REQUEST_HEAP_CENSUS), -1);
    assert_int_equal(errno, ENOTSOCK);
    input_free(in);
    unlink(path);
}

/* How connection 1 ends inside the second census: closed, or reset; then how many
 * connections close before their first byte (a program restarting its listener) before
 * connection 2 starts again with a stray block, the header and the definitions, then a
 * third census and the end. */
struct drop {
    bool reset;
    unsigned unheard;
};

static void dropped_connection(void **state)
{
    const struct drop *drop = *state;
    bool reset = drop->reset;
    alarm(CASE_SECONDS);
    struct program pg = { .reset = reset, .unheard = drop->unheard };
    first_cut_in_second_census(&pg);
    pg.second = run_start();
    census(pg.second, 30, 300);
    evw_data_end(pg.second);
    struct seen seen = { 0 };
    struct input *in = connect_to(&pg, &seen, NULL);
    struct ev_error err = { 0 };
    if (reset)
        assert_int_equal(input_send_control(in, CONTROL_REQUEST_HEAP_CENSUS), 0);
    struct input_outcome out;
    assert_int_equal(input_read(in, &out, &err), INPUT_OK);
    /* The census cut by the gap is gone, the others are whole; nothing is damage, and
     * the repeated HEAP_PROF_BEGIN and cost centres are not warned about. */
    assert_string_equal(seen.text, "10:100;30:300;");
    assert_false(out.damaged);
    assert_int_equal(out.reconnections, 1);
    assert_int_equal(out.lost_to_gaps, 1);
    assert_int_equal(seen.markers, 1);
    assert_string_equal(seen.marker, "ev2hp: connection lost");
    bool gap_said = false;
    for (size_t i = 0; i < out.warning_count; i++) {
        assert_null(strstr(out.warnings[i].what, "HEAP_PROF_BEGIN"));
        assert_null(strstr(out.warnings[i].what, "defined again"));
        gap_said |= strstr(out.warnings[i].what, "the connection closed at") != NULL;
    }
    assert_true(gap_said);
    input_free(in);
    program_end(&pg);
}

/* Connection 1 ends inside the second census, and every later connection closes before
 * its first byte: within --wait the input keeps connecting, then ends where connection 1
 * did, saying so (not "not an eventlog"), with the first census kept. */
static void test_unheard_connections_end_the_input(void **state)
{
    (void)state;
    alarm(CASE_SECONDS);
    struct program pg = { .unheard = UINT_MAX, .wait = 0.5 };
    first_cut_in_second_census(&pg);
    struct seen seen = { 0 };
    struct input *in = connect_to(&pg, &seen, NULL);
    struct ev_error err = { 0 };
    struct input_outcome out;
    double start = progress_clock();
    assert_int_equal(input_read(in, &out, &err), INPUT_OK);
    assert_true(progress_clock() - start >= 0.4);
    assert_string_equal(seen.text, "10:100;");
    assert_true(out.damaged);
    assert_int_equal(out.reconnections, 0);
    assert_non_null(strstr(out.damage.what, "the connection closed before the end-of-data "
                                            "marker, and then no program listening after "
                                            "0.5 s ("));
    assert_non_null(strstr(out.damage.what, " connections closed before their first byte)"));
    input_free(in);
    program_end(&pg);
}

static void *stopper(void *arg)
{
    struct timespec ts = { 0, 300 * 1000000L };
    nanosleep(&ts, NULL);
    ((struct program *)arg)->stop = 1;
    return NULL;
}

/* A program that closes its first connections before their first byte (its listener
 * restarting): ev2hp connects again within --wait and reads the run whole. */
static void test_unheard_first_connections_are_made_again(void **state)
{
    (void)state;
    alarm(CASE_SECONDS);
    struct program pg = { .unheard_first = 3, .first = one_census_run() };
    struct seen seen = { 0 };
    expect_one_census(connect_to(&pg, &seen, NULL), &seen, &pg);
}

/* Every connection closed before its first byte: no input after --wait, and the error
 * says what the connections did (not "not an eventlog"). */
static void test_only_unheard_connections_are_no_input(void **state)
{
    (void)state;
    alarm(CASE_SECONDS);
    struct program pg = { .unheard_first = UINT_MAX };
    program_listen(&pg);
    struct seen seen = { 0 };
    struct ev_error err = { 0 };
    assert_null(open_live(pg.name, &seen, 0.3, NULL, &err));
    assert_non_null(strstr(err.what, "no program listening after 0.3 s ("));
    assert_non_null(strstr(err.what, " connections closed before their first byte)"));
    program_end(&pg);
}

/* A program that never ends its stream: the stop flag ends the reading, what was read
 * stands, and it is not called damage. */
static void test_stop_flag_ends_a_live_input(void **state)
{
    (void)state;
    alarm(CASE_SECONDS);
    struct program pg = { .never_end = true, .first = one_census_run() };
    struct seen seen = { 0 };
    struct input *in = connect_to(&pg, &seen, &pg.stop);
    struct ev_error err = { 0 };
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, stopper, &pg), 0);
    struct input_outcome out;
    assert_int_equal(input_read(in, &out, &err), INPUT_OK);
    pthread_join(t, NULL);
    assert_true(out.stopped);
    assert_false(out.damaged);
    assert_string_equal(seen.text, "10:100;");
    input_free(in);   /* closes the connection: the program's thread ends */
    program_end(&pg);
}

static void test_nobody_listening_is_a_bounded_wait(void **state)
{
    (void)state;
    alarm(CASE_SECONDS);
    char dir[] = "/tmp/ev2hp-live-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char name[96];
    snprintf(name, sizeof name, "unix:%s/nobody", dir);
    struct seen seen = { 0 };
    struct ev_error err = { 0 };
    double start = progress_clock();
    assert_null(open_live(name, &seen, 0.3, NULL, &err));
    double took = progress_clock() - start;
    assert_true(took >= 0.3);
    assert_string_equal(err.what, "no program listening after 0.3 s (No such file or directory)");
    rmdir(dir);
}

/* What connect_parse makes of names: a file, a Unix socket's path, a TCP host and port. */
static void test_socket_addresses(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        enum connect_kind kind;
        const char *path, *host, *port;
    } good[] = {
        { "prog.eventlog", CONNECT_NONE, NULL, NULL, NULL },
        { "unix:/run/prog.sock", CONNECT_UNIX, "/run/prog.sock", NULL, NULL },
        { "tcp:localhost:4242", CONNECT_TCP, NULL, "localhost", "4242" },
        { "tcp:[::1]:80", CONNECT_TCP, NULL, "::1", "80" },
    };
    struct connect_address a;
    struct ev_error err;
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        assert_int_equal(connect_parse(good[i].name, &a, &err), 0);
        assert_int_equal(a.kind, good[i].kind);
        if (good[i].path)
            assert_string_equal(a.path, good[i].path);
        if (good[i].host)
            assert_string_equal(a.host, good[i].host);
        if (good[i].port)
            assert_string_equal(a.port, good[i].port);
    }
    static const char *const bad[] = {
        "unix:", "tcp:host", "tcp:host:0", "tcp:host:65536", "tcp::80", "tcp:a:b:80",
        "tcp:host:8x", "tcp:[::1]80", "tcp:host:-1",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(connect_parse(bad[i], &a, &err), -1);
    char longpath[200] = "unix:";
    memset(longpath + 5, 'x', sizeof longpath - 6);
    longpath[sizeof longpath - 1] = '\0';
    assert_int_equal(connect_parse(longpath, &a, &err), -1);
}

/* input_options.lock (what --serve shares with the server's threads): the callbacks run
 * with it held, and it is free while the input waits for the program. The program sends
 * a census, then waits for a control message before the end; a "server" thread takes
 * the lock once the census is in and only then sends the message: were the lock held
 * across the wait, neither would go on (the alarm ends the case). */
struct guarded {
    pthread_mutex_t mu;
    bool held;                     /* by the input (set inside the lock) */
    int frames, frames_held;
    struct seen seen;
    struct input *in;
};

static void guard_lock(void *ctx)
{
    struct guarded *g = ctx;
    pthread_mutex_lock(&g->mu);
    g->held = true;
}

static void guard_unlock(void *ctx)
{
    struct guarded *g = ctx;
    g->held = false;
    pthread_mutex_unlock(&g->mu);
}

static int guarded_frame(void *ctx, const struct census_frame *f)
{
    struct guarded *g = ctx;
    g->frames++;
    g->frames_held += g->held;
    return on_frame(&g->seen, f);
}

static void *server_thread(void *arg)
{
    struct guarded *g = arg;
    for (;;) {
        pthread_mutex_lock(&g->mu);
        int frames = g->frames;
        pthread_mutex_unlock(&g->mu);
        if (frames)
            break;
        struct timespec ms = { 0, 1000000 };
        nanosleep(&ms, NULL);
    }
    input_send_control(g->in, CONTROL_REQUEST_HEAP_CENSUS);
    return NULL;
}

static void test_lock_free_while_waiting(void **state)
{
    (void)state;
    alarm(CASE_SECONDS);
    struct program pg = { .wait_control = true };
    pg.first = run_start();
    census(pg.first, 10, 100);
    evw_data_end(pg.first);
    program_listen(&pg);
    struct guarded g = { .mu = PTHREAD_MUTEX_INITIALIZER };
    struct input_lock lock = { guard_lock, guard_unlock, &g };
    struct input_options opt = { .path = pg.name, .wait_seconds = 5, .lock = &lock };
    struct census_events ev = { guarded_frame, NULL, NULL, &g, NULL, NULL };
    struct ev_error err = { 0 };
    g.in = input_open(&opt, &ev, &err);
    assert_non_null(g.in);
    pthread_t server;
    assert_int_equal(pthread_create(&server, NULL, server_thread, &g), 0);
    struct input_outcome out;
    assert_int_equal(input_read(g.in, &out, &err), INPUT_OK);
    pthread_join(server, NULL);
    assert_int_equal(g.frames, 1);
    assert_int_equal(g.frames_held, 1);
    assert_false(g.held);   /* input_read returns with the lock released */
    assert_int_equal(pthread_mutex_trylock(&g.mu), 0);
    pthread_mutex_unlock(&g.mu);
    assert_string_equal(g.seen.text, "10:100;");
    input_free(g.in);
    program_end(&pg);
    assert_int_equal(pg.received_len, CONTROL_MESSAGE_SIZE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_control_message_bytes),
        cmocka_unit_test(test_control_reaches_the_program),
        cmocka_unit_test(test_control_refused_on_a_file),
        cmocka_unit_test(test_lock_free_while_waiting),
        { "test_dropped_connection_goes_on", dropped_connection, NULL, NULL,
          &(struct drop){ .reset = false } },
        { "test_reset_connection_goes_on", dropped_connection, NULL, NULL,
          &(struct drop){ .reset = true } },
        { "test_unheard_connections_are_made_again", dropped_connection, NULL, NULL,
          &(struct drop){ .unheard = 3 } },
        cmocka_unit_test(test_unheard_connections_end_the_input),
        cmocka_unit_test(test_unheard_first_connections_are_made_again),
        cmocka_unit_test(test_only_unheard_connections_are_no_input),
        cmocka_unit_test(test_stop_flag_ends_a_live_input),
        cmocka_unit_test(test_nobody_listening_is_a_bounded_wait),
        cmocka_unit_test(test_socket_addresses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
