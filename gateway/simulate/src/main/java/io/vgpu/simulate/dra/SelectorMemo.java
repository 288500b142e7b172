package io.vgpu.simulate.dra;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.vgpu.simulate.dra.cel.DeviceInput;
import io.vgpu.simulate.dra.cel.DeviceSelectors;
import io.vgpu.simulate.dra.cel.SelectorException;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Selector results per published device, kept across allocation attempts: a selector is a pure function
 * of the device's published content, so a device object that has not been replaced gives the same answer.
 * Keyed by the device object's identity; {@link #clear} whenever slices change. Errors are not kept (they
 * are thrown again). Not thread-safe.
 */
final class SelectorMemo {

    private final DeviceSelectors selectors;
    private final Map<Device, Entry> entries = new IdentityHashMap<>();

    SelectorMemo(DeviceSelectors selectors) {
        this.selectors = selectors;
    }

    boolean matches(String driver, Device device, String expression) throws SelectorException {
        Entry entry = entries.get(device);
        if (entry == null) {
            entry = new Entry(DeviceInput.of(driver, device));
            entries.put(device, entry);
        }
        Boolean known = entry.results.get(expression);
        if (known == null) {
            known = selectors.matches(expression, entry.input);
            entry.results.put(expression, known);
        }
        return known;
    }

    void clear() {
        entries.clear();
    }

    private static final class Entry {
        final DeviceInput input;
        final Map<String, Boolean> results = new HashMap<>();

        Entry(DeviceInput input) {
            this.input = input;
        }
    }
}
