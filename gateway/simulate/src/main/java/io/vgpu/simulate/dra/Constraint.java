package io.vgpu.simulate.dra;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A claim constraint tracked during one search (spec §3.3.4 step 6). {@link #add} checks a candidate and,
 * when it passes, counts it; every successful {@code add} is undone by exactly one {@link #remove} with the
 * same arguments when the search backtracks. A constraint applies to the requests it lists (a parent name
 * covers its subrequests; {@code req/sub} names one), or to all when it lists none.
 */
abstract class Constraint {

    private final Set<String> requests;
    private final String attribute;

    Constraint(List<String> requests, String attribute) {
        this.requests = Set.copyOf(requests);
        this.attribute = attribute;
    }

    static Constraint matchAttribute(List<String> requests, String attribute) {
        return new Match(requests, attribute);
    }

    static Constraint distinctAttribute(List<String> requests, String attribute) {
        return new Distinct(requests, attribute);
    }

    final boolean add(String request, String subRequest, DeviceId id, Device device) {
        if (!appliesTo(request, subRequest)) {
            return true;
        }
        String value = valueKey(id, device);
        return value != null && accept(value);
    }

    final void remove(String request, String subRequest, DeviceId id, Device device) {
        if (appliesTo(request, subRequest)) {
            forget(valueKey(id, device));
        }
    }

    abstract boolean accept(String value);

    abstract void forget(String value);

    private boolean appliesTo(String request, String subRequest) {
        return requests.isEmpty() || requests.contains(request)
                || (subRequest != null && requests.contains(request + "/" + subRequest));
    }

    /**
     * The attribute's typed value as a comparable key ({@code string:x}, {@code int:3}), or null when the
     * device lacks it: looked up by its full name, or by its id alone when the domain is the driver's.
     */
    private String valueKey(DeviceId id, Device device) {
        Map<String, DeviceAttribute> attributes = Nulls.map(device.getAttributes());
        DeviceAttribute a = attributes.get(attribute);
        int slash = attribute.indexOf('/');
        if (a == null && slash > 0 && attribute.substring(0, slash).equals(id.driver())) {
            a = attributes.get(attribute.substring(slash + 1));
        }
        if (a == null) {
            return null;
        }
        if (a.getString() != null) {
            return "string:" + a.getString();
        }
        if (a.getInt() != null) {
            return "int:" + a.getInt();
        }
        if (a.getBool() != null) {
            return "bool:" + a.getBool();
        }
        return a.getVersion() != null ? "version:" + a.getVersion() : null;
    }

    /** All devices share one value: the first fixes it. */
    private static final class Match extends Constraint {
        private String value;
        private int devices;

        Match(List<String> requests, String attribute) {
            super(requests, attribute);
        }

        @Override
        boolean accept(String candidate) {
            if (devices > 0 && !candidate.equals(value)) {
                return false;
            }
            value = candidate;
            devices++;
            return true;
        }

        @Override
        void forget(String candidate) {
            devices--;
        }
    }

    /** Values pairwise different. */
    private static final class Distinct extends Constraint {
        private final Map<String, Integer> seen = new HashMap<>();

        Distinct(List<String> requests, String attribute) {
            super(requests, attribute);
        }

        @Override
        boolean accept(String candidate) {
            if (seen.containsKey(candidate)) {
                return false;
            }
            seen.put(candidate, 1);
            return true;
        }

        @Override
        void forget(String candidate) {
            seen.remove(candidate);
        }
    }
}
