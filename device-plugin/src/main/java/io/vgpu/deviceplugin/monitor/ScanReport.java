package io.vgpu.deviceplugin.monitor;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one {@link ContainerLister#update} did.
 *
 * @param error     empty on success; else why the scan could not run (containers directory
 *                  missing or unreadable) and nothing changed
 * @param added     directories whose region was mapped on this scan
 * @param forgotten directories whose region was dropped (directory gone, file replaced, pod gone)
 * @param deleted   directories deleted from disk (pod gone for longer than the grace period)
 * @param problems  directory name to the reason it was skipped (bad region file, bad name, I/O error)
 * @param tracked   regions tracked after the scan
 */
public record ScanReport(String error, List<String> added, List<String> forgotten, List<String> deleted,
                         Map<String, String> problems, int tracked) {

    public ScanReport {
        Objects.requireNonNull(error, "error");
        added = List.copyOf(added);
        forgotten = List.copyOf(forgotten);
        deleted = List.copyOf(deleted);
        problems = Map.copyOf(problems);
    }

    static ScanReport failed(String error, int tracked) {
        return new ScanReport(error, List.of(), List.of(), List.of(), Map.of(), tracked);
    }

    /** The scan ran. */
    public boolean ok() {
        return error.isEmpty();
    }
}
