package io.vgpu.state.dra;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The API server's rules for a node-local {@code resource.k8s.io/v1} ResourceSlice (spec/dra-spec.md §1,
 * Kubernetes' {@code ValidateResourceSlice}), checked before anything is published: the fabric8 mock API
 * server the tests run against validates nothing, and a real one would refuse the whole slice for one bad
 * value. Pure; every problem is reported, each with the field it concerns.
 */
public final class SliceValidator {

    /** Devices per slice. */
    public static final int MAX_DEVICES = 128;
    /** Devices per slice when any device has taints. */
    public static final int MAX_DEVICES_WITH_TAINTS = 64;
    /** Attributes and capacities per device, together. */
    public static final int MAX_ATTRIBUTES_AND_CAPACITIES = 32;
    /** Taints per device. */
    public static final int MAX_TAINTS = 16;
    /** Entries of {@code validValues}. */
    public static final int MAX_VALID_VALUES = 10;
    /** Characters of a string attribute. */
    public static final int MAX_STRING = 64;

    private static final String LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final Pattern DNS_LABEL = Pattern.compile(LABEL);
    private static final Pattern DNS_SUBDOMAIN = Pattern.compile(LABEL + "(\\." + LABEL + ")*");
    private static final Pattern C_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern LABEL_NAME = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
    private static final Set<String> EFFECTS = Set.of(DeviceTaint.NO_SCHEDULE, DeviceTaint.NO_EXECUTE, "None");

    private SliceValidator() {
    }

    /**
     * Every rule {@code content}, published as object {@code name}, breaks; empty when it is valid.
     */
    public static List<String> validate(String name, SliceContent content) {
        List<String> out = new ArrayList<>();
        dnsSubdomain(out, "metadata.name", name, 253);
        dnsSubdomain(out, "spec.driver", content.driver(), 63);
        poolName(out, content.pool().name());
        if (content.nodeName().isEmpty()) {
            out.add("spec.nodeName: must be set for a node-local slice");
        } else {
            dnsSubdomain(out, "spec.nodeName", content.nodeName(), 253);
        }
        if (content.pool().generation() < 0) {
            out.add("spec.pool.generation: " + content.pool().generation() + " must not be negative");
        }
        if (content.pool().resourceSliceCount() <= 0) {
            out.add("spec.pool.resourceSliceCount: " + content.pool().resourceSliceCount() + " must be greater than zero");
        }
        boolean tainted = content.devices().stream().anyMatch(d -> !d.taints().isEmpty());
        int max = tainted ? MAX_DEVICES_WITH_TAINTS : MAX_DEVICES;
        if (content.devices().size() > max) {
            out.add("spec.devices: " + content.devices().size() + " devices, at most " + max
                    + (tainted ? " when a device has taints" : "") + " are allowed");
            return out;
        }
        Set<String> names = new HashSet<>();
        for (SliceDevice device : content.devices()) {
            String path = "spec.devices[" + device.name() + "]";
            if (!names.add(device.name())) {
                out.add(path + ": duplicate device name");
            }
            device(out, path, device);
        }
        return List.copyOf(out);
    }

    private static void device(List<String> out, String path, SliceDevice device) {
        if (device.name().length() > 63 || !DNS_LABEL.matcher(device.name()).matches()) {
            out.add(path + ".name: \"" + device.name() + "\" is not a DNS label (lower case, digits, '-', at most 63)");
        }
        int entries = device.attributes().size() + device.capacity().size();
        if (entries > MAX_ATTRIBUTES_AND_CAPACITIES) {
            out.add(path + ": " + entries + " attributes and capacities, at most " + MAX_ATTRIBUTES_AND_CAPACITIES);
        }
        for (Map.Entry<String, DeviceAttribute> e : device.attributes().entrySet()) {
            String at = path + ".attributes[" + e.getKey() + "]";
            qualifiedName(out, at, e.getKey());
            attribute(out, at, e.getValue());
        }
        for (Map.Entry<String, DeviceCapacity> e : device.capacity().entrySet()) {
            String at = path + ".capacity[" + e.getKey() + "]";
            qualifiedName(out, at, e.getKey());
            e.getValue().requestPolicy().ifPresent(policy -> {
                if (!device.allowMultipleAllocations()) {
                    out.add(at + ".requestPolicy: only allowed when allowMultipleAllocations is true");
                }
                requestPolicy(out, at + ".requestPolicy", e.getValue().value(), policy);
            });
        }
        if (device.taints().size() > MAX_TAINTS) {
            out.add(path + ".taints: " + device.taints().size() + " taints, at most " + MAX_TAINTS);
        }
        for (int i = 0; i < device.taints().size(); i++) {
            taint(out, path + ".taints[" + i + "]", device.taints().get(i));
        }
    }

    private static void attribute(List<String> out, String at, DeviceAttribute value) {
        if (value instanceof DeviceAttribute.StringValue s && s.value().length() > MAX_STRING) {
            out.add(at + ".string: " + s.value().length() + " characters, at most " + MAX_STRING);
        }
        if (value instanceof DeviceAttribute.VersionValue v && !SemanticVersions.isValid(v.value())) {
            out.add(at + ".version: \"" + v.value() + "\" is not a semver 2.0.0 version of at most "
                    + SemanticVersions.MAX_LENGTH + " characters");
        }
    }

    private static void requestPolicy(List<String> out, String at, Quantity value, DeviceCapacity.RequestPolicy policy) {
        boolean values = !policy.validValues().isEmpty();
        boolean range = policy.validRange().isPresent();
        if (values && range) {
            out.add(at + ": validValues and validRange cannot both be set");
            return;
        }
        if ((values || range) && policy.defaultValue().isEmpty()) {
            out.add(at + ".default: required with " + (values ? "validValues" : "validRange"));
            return;
        }
        if (values) {
            validValues(out, at + ".validValues", value, policy.defaultValue().get(), policy.validValues());
        } else if (range) {
            validRange(out, at + ".validRange", value, policy.defaultValue().get(), policy.validRange().get());
        }
    }

    private static void validValues(List<String> out, String at, Quantity value, Quantity defaultValue, List<Quantity> options) {
        if (options.size() > MAX_VALID_VALUES) {
            out.add(at + ": " + options.size() + " values, at most " + MAX_VALID_VALUES);
            return;
        }
        for (int i = 0; i + 1 < options.size(); i++) {
            if (options.get(i).compareTo(options.get(i + 1)) > 0) {
                out.add(at + "[" + (i + 1) + "]: " + options.get(i + 1) + " is out of ascending order");
            }
        }
        Set<Quantity> seen = new HashSet<>();
        for (Quantity option : options) {
            if (!seen.add(option)) {
                out.add(at + ": " + option + " is listed twice");
            }
            if (option.compareTo(value) > 0) {
                out.add(at + ": " + option + " is larger than the capacity value " + value);
            }
        }
        if (!options.contains(defaultValue)) {
            out.add(at + ": the default " + defaultValue + " is not one of the valid values");
        }
    }

    private static void validRange(List<String> out, String at, Quantity value, Quantity defaultValue,
                                   DeviceCapacity.ValidRange range) {
        Quantity min = range.min();
        if (min.compareTo(value) > 0) {
            out.add(at + ".min: " + min + " is larger than the capacity value " + value);
        }
        if (defaultValue.compareTo(min) < 0) {
            out.add(at + ".min: the default " + defaultValue + " is less than min " + min);
        }
        Optional<Quantity> max = range.max();
        if (max.isPresent()) {
            if (min.compareTo(max.get()) > 0) {
                out.add(at + ".max: min " + min + " is larger than max " + max.get());
            }
            if (max.get().compareTo(value) > 0) {
                out.add(at + ".max: " + max.get() + " is larger than the capacity value " + value);
            }
            if (defaultValue.compareTo(max.get()) > 0) {
                out.add(at + ".max: the default " + defaultValue + " is more than max " + max.get());
            }
        }
        if (range.step().isEmpty()) {
            return;
        }
        Quantity step = range.step().get();
        if (step.number().signum() <= 0) {
            out.add(at + ".step: " + step + " must be positive");
            return;
        }
        if (min.plus(step).compareTo(value) > 0) {
            out.add(at + ".step: one step above min (" + min.plus(step) + ") is larger than the capacity value " + value);
        }
        if (!defaultValue.onGrid(min, step)) {
            out.add(at + ".step: the default " + defaultValue + " is not min " + min + " plus a multiple of " + step);
        }
        if (max.isPresent() && !max.get().onGrid(min, step)) {
            out.add(at + ".step: max " + max.get() + " is not min " + min + " plus a multiple of " + step);
        }
    }

    private static void taint(List<String> out, String at, DeviceTaint taint) {
        if (!labelKey(taint.key())) {
            out.add(at + ".key: \"" + taint.key() + "\" is not a qualified name ([prefix/]name)");
        }
        if (!taint.value().isEmpty() && (taint.value().length() > 63 || !LABEL_NAME.matcher(taint.value()).matches())) {
            out.add(at + ".value: \"" + taint.value() + "\" is not a label value");
        }
        if (!EFFECTS.contains(taint.effect())) {
            out.add(at + ".effect: \"" + taint.effect() + "\" is not NoSchedule, NoExecute or None");
        }
    }

    /** An attribute or capacity key: a C identifier of at most 32, optionally after a domain of at most 63. */
    private static void qualifiedName(List<String> out, String at, String name) {
        String[] parts = name.split("/", -1);
        boolean ok = switch (parts.length) {
            case 1 -> cIdentifier(parts[0]);
            case 2 -> !parts[0].isEmpty() && parts[0].length() <= 63 && DNS_SUBDOMAIN.matcher(parts[0]).matches()
                    && cIdentifier(parts[1]);
            default -> false;
        };
        if (!ok) {
            out.add(at + ": \"" + name + "\" is not a C identifier of at most 32 characters, optionally after a "
                    + "DNS subdomain of at most 63 and '/'");
        }
    }

    private static boolean cIdentifier(String id) {
        return id.length() <= 32 && C_IDENTIFIER.matcher(id).matches();
    }

    private static boolean labelKey(String key) {
        int slash = key.indexOf('/');
        String name = slash < 0 ? key : key.substring(slash + 1);
        if (slash >= 0) {
            String prefix = key.substring(0, slash);
            if (prefix.isEmpty() || prefix.length() > 253 || !DNS_SUBDOMAIN.matcher(prefix).matches()) {
                return false;
            }
        }
        return !name.isEmpty() && name.length() <= 63 && LABEL_NAME.matcher(name).matches();
    }

    private static void dnsSubdomain(List<String> out, String field, String value, int maxLength) {
        if (value == null || value.isEmpty() || value.length() > maxLength || !DNS_SUBDOMAIN.matcher(value).matches()) {
            out.add(field + ": \"" + value + "\" is not a DNS subdomain (lower case, digits, '-', '.', at most "
                    + maxLength + ")");
        }
    }

    private static void poolName(List<String> out, String pool) {
        if (pool.isEmpty() || pool.length() > 253) {
            out.add("spec.pool.name: \"" + pool + "\" must have 1 to 253 characters");
            return;
        }
        for (String part : pool.split("/", -1)) {
            if (!DNS_SUBDOMAIN.matcher(part).matches()) {
                out.add("spec.pool.name: \"" + pool + "\" is not DNS subdomains joined by '/'");
                return;
            }
        }
    }
}
