/* testlocale.h: a locale whose decimal point is a comma, for the tests that check that
 * writers do not depend on LC_NUMERIC (base/format.h).
 *
 * de_DE.UTF-8 is used when the system has it. Otherwise `make check` has compiled it once
 * with localedef (Debian: the locales package, in bootstrap) into tests/locale under the
 * build directory (Makefile.am, check_DATA), found through LOCPATH, so the tests need no
 * root and no system change.
 * Header-only (static functions) so each test stays one program.
 */
#ifndef EV2HP_TESTLOCALE_H
#define EV2HP_TESTLOCALE_H

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEST_COMMA_LOCALE "de_DE.UTF-8"

/* Sets LC_NUMERIC to a locale whose printf("%.2f", 1.5) is "1,50": 0, or -1 when no such
 * locale can be had (then the caller fails: a check under the C locale proves nothing). */
static inline int set_comma_locale(void)
{
    if (!setlocale(LC_NUMERIC, TEST_COMMA_LOCALE)) {
        /* compiled by the Makefile (check_DATA) before any test runs */
        setenv("LOCPATH", "tests/locale", 1);
        if (!setlocale(LC_NUMERIC, TEST_COMMA_LOCALE))
            return -1;
    }
    char buf[16];
    snprintf(buf, sizeof buf, "%.2f", 1.5);
    return strcmp(buf, "1,50") == 0 ? 0 : -1;
}

static inline void reset_locale(void)
{
    setlocale(LC_NUMERIC, "C");
}

#endif
