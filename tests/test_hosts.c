/* test_hosts.c: the Host names the live server answers (serve/hosts.h), case by case: the
 * bound address however a Host header writes it (a port, brackets, another spelling of
 * the same IPv6 address), localhost (any case, a trailing dot), the --serve and
 * --allow-host names, any address literal when bound to every address, and what a page
 * of another site sends after rebinding its name (its own name, names that start or end
 * like an allowed one, malformed headers). --allow-host's own check of a name too.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "serve/hosts.h"

/* h accepts every Host header in yes and refuses every one in no (both end with NULL). */
static void answers(const struct hosts *h, const char *const yes[], const char *const no[])
{
    for (size_t i = 0; yes[i]; i++)
        if (!hosts_accept(h, yes[i]))
            fail_msg("\"%s\" is refused", yes[i]);
    for (size_t i = 0; no[i]; i++)
        if (hosts_accept(h, no[i]))
            fail_msg("\"%s\" is accepted", no[i]);
}

static void loopback(void **state)
{
    (void)state;
    struct hosts h;
    const char *allowed[] = { "prof.internal" };
    hosts_init(&h, "127.0.0.1", NULL, allowed, 1);
    const char *yes[] = { "127.0.0.1", "127.0.0.1:8080", "localhost", "LocalHost:1",
                          "localhost.", "prof.internal", "PROF.INTERNAL:80", NULL };
    const char *no[] = { "evil.example", "evil.example:8080", "127.0.0.2", "10.0.0.1",
                         "localhost.evil.example", "127.0.0.1.evil.example", "prof.internal.evil",
                         "evilprof.internal", "[::1]", "[127.0.0.1]", ":8080", "", "[", "[::1",
                         "[::1]x", NULL };
    answers(&h, yes, no);
    assert_true(hosts_accept(&h, NULL));   /* no Host: no browser */
}

static void ipv6_and_named(void **state)
{
    (void)state;
    struct hosts h;
    hosts_init(&h, "::1", "ip6-localhost", NULL, 0);
    const char *yes[] = { "[::1]:8080", "[0:0::1]", "ip6-localhost:8080", NULL };
    const char *no[] = { "127.0.0.1", "[::2]", NULL };
    answers(&h, yes, no);
}

static void every_address(void **state)
{
    (void)state;
    struct hosts h;
    hosts_init(&h, "0.0.0.0", "0.0.0.0", NULL, 0);
    const char *yes[] = { "10.1.2.3:8080", "[fe80::1]", "localhost", NULL };
    const char *no[] = { "evil.example", NULL };
    answers(&h, yes, no);
}

static void allow_host_names(void **state)
{
    (void)state;
    assert_true(hosts_valid_name("prof.internal"));
    assert_true(hosts_valid_name("a-b.c9"));
    assert_false(hosts_valid_name(""));
    assert_false(hosts_valid_name("a b"));
    assert_false(hosts_valid_name("a/b"));
    assert_false(hosts_valid_name("a:80"));
    assert_false(hosts_valid_name("\xc3\xa9vil"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(loopback),
        cmocka_unit_test(ipv6_and_named),
        cmocka_unit_test(every_address),
        cmocka_unit_test(allow_host_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
