package io.vgpu.deviceplugin.core.monitor;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * HAMi's {@code Observe} (spec §4.6), bit for bit: one feedback tick over every loaded container
 * region, steering HAMi-core's SM throttling through {@code recent_kernel} and
 * {@code utilization_switch}.
 *
 * <pre>
 * pass 1 (census), per container:
 *   rk = recent_kernel
 *   rk &gt; 0:  rk' = rk - 1
 *            rk' &gt; 0 and priority &gt;= 0: count the container as active on each valid UUID slot (0..15)
 *            store recent_kernel = rk'
 *   rk &lt;= 0: untouched
 * pass 2, per container (re-reading rk and the switch):
 *   blocked   = census.blocks(priority, all 16 UUID keys)      a more important container is active on a shared GPU
 *   contended = census.contends(priority, all 16 UUID keys)    blocked, or two active of the same priority
 *   blocked and rk &gt;= 0        -&gt; recent_kernel = -1   (libvgpu parks throttled launches)
 *   not blocked and rk &lt; 0     -&gt; recent_kernel = 0
 *   contended and switch != 1  -&gt; utilization_switch = 1 (throttle)
 *   not contended and switch != 0 -&gt; utilization_switch = 0
 * </pre>
 *
 * The outcome does not depend on container order. Nothing else in a region is written; the
 * region semaphore is never taken. Not thread-safe against a concurrent tick over the same
 * regions: run ticks one at a time (HAMi runs them on one goroutine every 5 s).
 */
public final class FeedbackRule {

    private FeedbackRule() {
    }

    /**
     * Runs one tick.
     *
     * @param containers every loaded region (order irrelevant)
     * @return the census of pass 1 and the number of each kind of write
     */
    public static ObserveResult observe(Collection<? extends UsageInfo> containers) {
        ActivityCensus census = census(containers);
        int blocked = 0;
        int released = 0;
        int throttled = 0;
        int unthrottled = 0;
        for (UsageInfo c : containers) {
            int priority = c.priority();
            int recentKernel = c.recentKernel();
            int utilizationSwitch = c.utilizationSwitch();
            List<String> keys = deviceKeys(c);
            if (census.blocks(priority, keys)) {
                if (recentKernel >= 0) {
                    c.setRecentKernel(-1);
                    blocked++;
                }
            } else if (recentKernel < 0) {
                c.setRecentKernel(0);
                released++;
            }
            if (census.contends(priority, keys)) {
                if (utilizationSwitch != 1) {
                    c.setUtilizationSwitch(1);
                    throttled++;
                }
            } else if (utilizationSwitch != 0) {
                c.setUtilizationSwitch(0);
                unthrottled++;
            }
        }
        return new ObserveResult(containers.size(), census, blocked, released, throttled, unthrottled);
    }

    /** Pass 1: decrements {@code recent_kernel} of active containers and counts the still-active ones. */
    private static ActivityCensus census(Collection<? extends UsageInfo> containers) {
        ActivityCensus.Builder census = ActivityCensus.builder();
        for (UsageInfo c : containers) {
            int recentKernel = c.recentKernel();
            if (recentKernel <= 0) {
                continue;
            }
            recentKernel--;
            if (recentKernel > 0) {
                for (int i = 0; i < UsageInfo.DEVICE_MAX; i++) {
                    int priority = c.priority();
                    if (c.isValidUuid(i) && priority >= 0) {
                        census.countActive(c.deviceKey(i), priority);
                    }
                }
            }
            c.setRecentKernel(recentKernel);
        }
        return census.build();
    }

    private static List<String> deviceKeys(UsageInfo c) {
        List<String> keys = new ArrayList<>(UsageInfo.DEVICE_MAX);
        for (int i = 0; i < UsageInfo.DEVICE_MAX; i++) {
            keys.add(c.deviceKey(i));
        }
        return keys;
    }

    /**
     * What one tick did.
     *
     * @param containers  regions looked at
     * @param census      pass 1's activity census
     * @param blocked     regions set to {@code recent_kernel = -1}
     * @param released    regions set from negative to {@code recent_kernel = 0}
     * @param throttled   regions set to {@code utilization_switch = 1}
     * @param unthrottled regions set to {@code utilization_switch = 0}
     */
    public record ObserveResult(int containers, ActivityCensus census, int blocked, int released, int throttled,
                                int unthrottled) {

        /** Total stores done in pass 2. */
        public int writes() {
            return blocked + released + throttled + unthrottled;
        }
    }
}
