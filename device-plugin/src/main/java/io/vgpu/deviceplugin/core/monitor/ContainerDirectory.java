package io.vgpu.deviceplugin.core.monitor;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A per-container directory {@code <hook>/vgpu/containers/<podUID>_<containerName>/} as the
 * device plugin creates it and the monitor scans it (spec §2.2, §4.2).
 *
 * @param podUid        the part before the first {@code _}
 * @param containerName the rest (container names cannot contain {@code _}; pod UIDs are hex and {@code -})
 */
public record ContainerDirectory(String podUid, String containerName) {

    public ContainerDirectory {
        Objects.requireNonNull(podUid, "podUid");
        Objects.requireNonNull(containerName, "containerName");
    }

    /**
     * Splits a directory name at the first {@code _}; empty when there is no {@code _} or either
     * part is empty (HAMi skips such entries with a warning).
     */
    public static Optional<ContainerDirectory> parse(String directoryName) {
        int cut = directoryName.indexOf('_');
        if (cut <= 0 || cut == directoryName.length() - 1) {
            return Optional.empty();
        }
        return Optional.of(new ContainerDirectory(directoryName.substring(0, cut), directoryName.substring(cut + 1)));
    }

    /** The directory name, {@code <podUID>_<containerName>}. */
    public String directoryName() {
        return podUid + "_" + containerName;
    }

    /** What the monitor does with a directory on one scan. */
    public enum Retention {
        /** The pod runs on this node: load and track the region. */
        TRACK,
        /** Unknown pod, but the directory is younger than the resync interval: leave it, do not load it. */
        GRACE,
        /** Unknown pod and an old directory: forget the region and delete the directory. */
        REMOVE
    }

    /**
     * HAMi's rule ({@code ContainerLister.Update}): a directory of a pod not among the node's pods is
     * kept while {@code modified + resync} is after {@code now} (the pod informer may lag behind the
     * device plugin), and removed afterwards.
     *
     * @param podOnNode whether {@link #podUid()} is among the pods scheduled on this node
     * @param modified  the directory's modification time
     * @param now       the current time
     * @param resync    {@code HAMI_RESYNC_INTERVAL} (default 5 minutes)
     */
    public static Retention retention(boolean podOnNode, Instant modified, Instant now, Duration resync) {
        if (podOnNode) {
            return Retention.TRACK;
        }
        return modified.plus(resync).isAfter(now) ? Retention.GRACE : Retention.REMOVE;
    }
}
