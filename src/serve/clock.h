/* clock.h: the monotonic clock as the live server's threads use it: seconds to compare,
 * deadlines for pthread_cond_timedwait, and conditions that wait on that clock (a change
 * of the wall clock must not stretch or cut a wait). */
#ifndef EV2HP_CLOCK_H
#define EV2HP_CLOCK_H

#include <pthread.h>
#include <time.h>

/* Monotonic seconds. */
double clock_seconds(void);
/* The monotonic time ms milliseconds from now, for pthread_cond_timedwait. */
struct timespec clock_after_ms(long ms);
/* Initialises a condition whose timed waits use the monotonic clock. */
void clock_cond_init(pthread_cond_t *cond);

#endif
