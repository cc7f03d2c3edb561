/* report_assets.h: the HTML report's JavaScript and CSS, embedded at build time.
 *
 * The files are the scripts of share/report (REPORT_JS in Makefile.am, concatenated in
 * that order into report_js) and share/report/report.css, real files that are linted and
 * formatted where they live; Makefile.am turns them into byte arrays in the generated
 * report_assets.c (od, sed: no tool beyond POSIX), so the binary carries them and the
 * report needs nothing else when it is opened.
 */
#ifndef EV2HP_REPORT_ASSETS_H
#define EV2HP_REPORT_ASSETS_H

#include <stddef.h>

extern const unsigned char report_js[];
extern const size_t report_js_len;
extern const unsigned char report_css[];
extern const size_t report_css_len;

#endif
