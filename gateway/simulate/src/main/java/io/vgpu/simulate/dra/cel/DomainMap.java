package io.vgpu.simulate.dra.cel;

import java.util.AbstractMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code device.attributes} and {@code device.capacity}: a map of domains whose lookup of an unknown domain
 * yields an empty map (so {@code device.attributes['other.io'].x} fails on {@code x}, not on the domain),
 * while {@code 'other.io' in device.attributes} stays false — upstream's "map with default" wrapper.
 * The {@code in} operator is rebound to {@link #containsDomain} by {@link SelectorEnvironment}.
 */
final class DomainMap extends AbstractMap<String, Map<String, Object>> {

    private final Map<String, Map<String, Object>> domains;

    DomainMap(Map<String, Map<String, Object>> domains) {
        this.domains = Map.copyOf(domains);
    }

    @Override
    public Set<Entry<String, Map<String, Object>>> entrySet() {
        return domains.entrySet();
    }

    @Override
    public Map<String, Object> get(Object key) {
        Map<String, Object> inner = domains.get(key);
        return inner == null ? Map.of() : inner;
    }

    @Override
    public boolean containsKey(Object key) {
        return domains.containsKey(key);
    }

    boolean containsDomain(Object key) {
        return domains.containsKey(key);
    }
}
