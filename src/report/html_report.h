/* html_report.h: the proof page, an HTML report a publisher reads in a browser.
 *
 * One self-contained page per run (inline CSS and SVG, no script needed to read or
 * print it): a summary at the top (games by status, findings by code, a table of the
 * games and an index of the findings, each linking to its place), then each input.
 * An article (WXF records in [game] blocks inside free text) is shown whole, line by
 * line as written, every replayed record marked by its status and every finding placed
 * under the line it is on, with the board before the bad move and at every DIAG
 * marker. A record file gives a section per game with findings: its tags, its moves
 * (numbered, variations indented, the bad move marked), its findings with boards;
 * games without errors or warnings are folded into one list, so a database of tens of
 * thousands of games still gives a page a browser opens (HTML_MAX_SECTIONS sections at
 * most, the rest listed).
 *
 * Games arrive one at a time and their arena is gone afterwards, so each game's
 * section is rendered at once into a temporary file, and an article's findings are
 * kept (as rendered HTML) until the page is written at the end. */
#ifndef ARBITER_REPORT_HTML_REPORT_H
#define ARBITER_REPORT_HTML_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "record/record.h"
#include "report/summary.h"

/* Game sections written in full at most; later games with findings are only listed. */
#define HTML_MAX_SECTIONS 2000

typedef struct html_report html_report;

/* NULL when out of memory or no temporary file can be made. */
html_report *html_report_open(FILE *out);

/* Take one replayed game. path: the input it came from, to show an article's text
 * (NULL when its offsets do not match the file). False on a write error. */
bool html_report_game(html_report *h, const rec_game *g, const char *path);

/* Write the page (with the run's summary) to out and free everything. False on a
 * write error. */
bool html_report_close(html_report *h, const summary *s);

/* Free without writing (after a failure). */
void html_report_discard(html_report *h);

#endif
