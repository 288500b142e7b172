package io.vgpu.deviceplugin.cdi;

import java.util.Map;
import java.util.TreeMap;

/**
 * One device of a CDI spec: a name unique in its spec and the edits a container gets when that
 * device is injected (on top of the spec's own edits).
 *
 * @param name           letters, digits, {@code -_.}; a letter or digit at both ends ({@link CdiNames#requireDeviceName})
 * @param annotations    device-level annotations (need cdiVersion 0.6.0); may be empty
 * @param containerEdits the device's edits
 */
public record CdiDevice(String name, Map<String, String> annotations, ContainerEdits containerEdits) {

    /** @throws IllegalArgumentException for a bad name */
    public CdiDevice {
        CdiNames.requireDeviceName(name);
        annotations = annotations == null ? Map.of() : new TreeMap<>(annotations);
        containerEdits = containerEdits == null ? ContainerEdits.NONE : containerEdits;
    }

    /** A device without annotations. */
    public CdiDevice(String name, ContainerEdits containerEdits) {
        this(name, Map.of(), containerEdits);
    }
}
