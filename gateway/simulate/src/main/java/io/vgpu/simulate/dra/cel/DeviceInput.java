package io.vgpu.simulate.dra.cel;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import java.util.HashMap;
import java.util.Map;

/**
 * The CEL variable {@code device} for one device of a slice (spec §2): {@code driver},
 * {@code allowMultipleAllocations} (false when unset), {@code attributes} and {@code capacity} as
 * {@code map<domain, map<id, value>>}, where a name without a domain lands under the driver's domain.
 * Attribute values are int (long), bool, string or {@link Semver}; capacities are {@link QuantityValue}s
 * of the published {@code value} (not what is left). Build once per device and reuse for every selector.
 */
public final class DeviceInput {

    private final Map<String, Object> variables;

    private DeviceInput(Map<String, Object> variables) {
        this.variables = variables;
    }

    /**
     * The input for {@code device} published by {@code driver}.
     *
     * @throws SelectorException when an attribute holds no supported value (a list attribute, whose gate
     *     is off, or an empty one) or a version that is not semver; upstream fails the attempt the same way
     */
    public static DeviceInput of(String driver, Device device) throws SelectorException {
        Map<String, Map<String, Object>> attributes = new HashMap<>();
        if (device.getAttributes() != null) {
            for (Map.Entry<String, DeviceAttribute> e : device.getAttributes().entrySet()) {
                put(attributes, driver, e.getKey(), valueOf(e.getKey(), e.getValue()));
            }
        }
        Map<String, Map<String, Object>> capacity = new HashMap<>();
        if (device.getCapacity() != null) {
            for (Map.Entry<String, DeviceCapacity> e : device.getCapacity().entrySet()) {
                put(capacity, driver, e.getKey(), quantity(e.getKey(), e.getValue().getValue()));
            }
        }
        Map<String, Object> fields = Map.of(
                "driver", driver,
                "allowMultipleAllocations", Boolean.TRUE.equals(device.getAllowMultipleAllocations()),
                "attributes", new DomainMap(attributes),
                "capacity", new DomainMap(capacity));
        return new DeviceInput(Map.of("device", fields));
    }

    Map<String, Object> variables() {
        return variables;
    }

    private static void put(Map<String, Map<String, Object>> domains, String driver, String name, Object value) {
        int slash = name.indexOf('/');
        String domain = slash < 0 ? driver : name.substring(0, slash);
        String id = slash < 0 ? name : name.substring(slash + 1);
        domains.computeIfAbsent(domain, d -> new HashMap<>()).put(id, value);
    }

    private static Object valueOf(String name, DeviceAttribute a) throws SelectorException {
        if (a == null) {
            throw new SelectorException("attribute " + name + ": unsupported attribute value");
        }
        if (a.getInt() != null) {
            return a.getInt();
        }
        if (a.getBool() != null) {
            return a.getBool();
        }
        if (a.getString() != null) {
            return a.getString();
        }
        if (a.getVersion() != null) {
            try {
                return Semver.parse(a.getVersion());
            } catch (IllegalArgumentException e) {
                throw new SelectorException("attribute " + name + ": parse semantic version: " + e.getMessage(), e);
            }
        }
        throw new SelectorException("attribute " + name + ": unsupported attribute value (list attributes need DRAListTypeAttributes)");
    }

    private static QuantityValue quantity(String name, Quantity q) throws SelectorException {
        try {
            return QuantityValue.parse(q == null ? null : q.toString());
        } catch (IllegalArgumentException e) {
            throw new SelectorException("capacity " + name + ": " + e.getMessage(), e);
        }
    }
}
