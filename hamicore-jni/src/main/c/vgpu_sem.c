/* Process-shared semaphores in the mapped region; see vgpu_sem.h. */
#include "vgpu_sem.h"

#include <errno.h>
#include <semaphore.h>
#include <time.h>

unsigned int vg_sem_size(void)
{
    return (unsigned int) sizeof(sem_t);
}

unsigned int vg_sem_align(void)
{
    return (unsigned int) _Alignof(sem_t);
}

int vg_sem_init(void *addr, unsigned int value)
{
    return sem_init((sem_t *) addr, 1, value) == 0 ? 0 : errno;
}

int vg_sem_timed_wait(void *addr, long long timeout_ms)
{
    sem_t *sem = (sem_t *) addr;
    if (timeout_ms <= 0) {
        while (sem_trywait(sem) != 0) {
            if (errno != EINTR) {
                return errno == EAGAIN ? ETIMEDOUT : errno;
            }
        }
        return 0;
    }
    struct timespec deadline;
    if (clock_gettime(CLOCK_REALTIME, &deadline) != 0) {
        return errno;
    }
    deadline.tv_sec += (time_t) (timeout_ms / 1000);
    deadline.tv_nsec += (long) (timeout_ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec += 1;
        deadline.tv_nsec -= 1000000000L;
    }
    while (sem_timedwait(sem, &deadline) != 0) {
        if (errno != EINTR) {
            return errno;
        }
    }
    return 0;
}

int vg_sem_post(void *addr)
{
    return sem_post((sem_t *) addr) == 0 ? 0 : errno;
}

int vg_sem_value(void *addr, int *value)
{
    return sem_getvalue((sem_t *) addr, value) == 0 ? 0 : errno;
}
