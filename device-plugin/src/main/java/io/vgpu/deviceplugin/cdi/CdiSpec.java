package io.vgpu.deviceplugin.cdi;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * One CDI spec file (Container Device Interface spec v1.1.0, spec/dra-spec.md §5.1): a kind
 * ({@code <vendor>/<class>}), at least one device, and edits every container that gets any of the
 * devices receives. The {@code cdiVersion} is not chosen by the caller: {@link #cdiVersion()} is the
 * lowest version the fields used allow ({@link CdiVersions}), so that older runtimes load the file.
 *
 * <p>The constructor enforces the rules a runtime's loader enforces (kind syntax, device names,
 * unique names, absolute paths), so a spec that exists can be written. Pure value; immutable.
 *
 * @param kind           {@code <vendor>/<class>}, e.g. {@code k8s.gpu.vgpu.io/claim}
 * @param annotations    spec-level annotations (need cdiVersion 0.6.0); may be empty
 * @param devices        the devices, in file order; names unique
 * @param containerEdits applied once when any device of the spec is injected
 */
public record CdiSpec(String kind, Map<String, String> annotations, List<CdiDevice> devices,
                      ContainerEdits containerEdits) {

    /**
     * @throws IllegalArgumentException for a bad kind, no device, or a repeated device name
     */
    public CdiSpec {
        CdiNames.requireKind(kind);
        annotations = annotations == null ? Map.of() : new TreeMap<>(annotations);
        devices = List.copyOf(devices);
        containerEdits = containerEdits == null ? ContainerEdits.NONE : containerEdits;
        if (devices.isEmpty()) {
            throw new IllegalArgumentException("a CDI spec needs at least one device");
        }
        Set<String> names = new HashSet<>();
        for (CdiDevice d : devices) {
            if (!names.add(d.name())) {
                throw new IllegalArgumentException("CDI device name " + d.name() + " appears twice in kind " + kind);
            }
        }
    }

    /** A spec without annotations. */
    public CdiSpec(String kind, List<CdiDevice> devices, ContainerEdits containerEdits) {
        this(kind, Map.of(), devices, containerEdits);
    }

    /** The lowest CDI version whose loaders accept every field this spec uses. */
    public String cdiVersion() {
        return CdiVersions.minimum(this);
    }

    /** {@code <kind>=<device name>}: what a runtime is asked to inject, e.g. {@code k8s.gpu.vgpu.io/claim=<uid>-gpu-gpu-0}. */
    public String qualifiedName(CdiDevice device) {
        Objects.requireNonNull(device, "device");
        return CdiNames.qualified(kind, device.name());
    }

    /** The device called {@code name}, or null. */
    public CdiDevice device(String name) {
        return devices.stream().filter(d -> d.name().equals(name)).findFirst().orElse(null);
    }
}
