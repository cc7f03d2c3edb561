/* table.h: the one status of a bounded table's insert.
 *
 * The interning table, the band table, the cost-centre and info-table tables all grow
 * with the input up to a cap (limits.h), so an insert can fail in two ways the caller
 * reports differently: the cap was reached (the input has more than ev2hp keeps: a
 * limit, said as such) or memory ran out.
 */
#ifndef EV2HP_TABLE_H
#define EV2HP_TABLE_H

enum table_status { TABLE_OK, TABLE_FULL, TABLE_NO_MEMORY };

#endif
