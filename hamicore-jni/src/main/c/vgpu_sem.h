/*
 * The HAMi-core region's process-shared POSIX semaphores (sem at region offset 24, sem_postinit
 * at 2008920 in the v1 layout), operated in place on the mapped file. Independent of jni.h.
 *
 * For tools and tests only: HAMi's monitor never takes these locks, and a reader that did could
 * wedge every CUDA process of the container if it died holding one (HAMi#2500).
 *
 * All functions return 0 or an errno value; none of them blocks longer than its timeout.
 */
#ifndef VGPU_SEM_H
#define VGPU_SEM_H

/* sizeof(sem_t) and _Alignof(sem_t) on this platform (32 and 8 on x86_64 glibc) */
unsigned int vg_sem_size(void);
unsigned int vg_sem_align(void);

/* sem_init(addr, pshared = 1, value) */
int vg_sem_init(void *addr, unsigned int value);
/* sem_timedwait with a CLOCK_REALTIME deadline of now + timeout_ms; retried on EINTR.
 * 0 = acquired, ETIMEDOUT = not acquired in time. timeout_ms <= 0 means a single sem_trywait. */
int vg_sem_timed_wait(void *addr, long long timeout_ms);
int vg_sem_post(void *addr);
int vg_sem_value(void *addr, int *value);

#endif
