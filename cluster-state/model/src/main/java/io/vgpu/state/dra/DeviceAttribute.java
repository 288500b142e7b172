package io.vgpu.state.dra;

import java.util.Objects;

/**
 * One typed attribute of a device, the value CEL selectors read as
 * {@code device.attributes['<domain>'].<name>} (spec/dra-spec.md §1.2): exactly one of an integer,
 * a boolean, a string (at most 64 characters) or a semver version. The API server checks the limits;
 * so does {@link SliceValidator}, these records do not.
 */
public sealed interface DeviceAttribute {

    /** An {@code int} attribute. */
    static DeviceAttribute of(long value) {
        return new IntValue(value);
    }

    /** A {@code string} attribute. */
    static DeviceAttribute of(String value) {
        return new StringValue(value);
    }

    /** A {@code version} attribute (semver 2.0.0 text). */
    static DeviceAttribute version(String semver) {
        return new VersionValue(semver);
    }

    /** {@code {"int": value}}. */
    record IntValue(long value) implements DeviceAttribute {
    }

    /** {@code {"bool": value}}. */
    record BoolValue(boolean value) implements DeviceAttribute {
    }

    /** {@code {"string": value}}. */
    record StringValue(String value) implements DeviceAttribute {
        /** Requires a value. */
        public StringValue {
            Objects.requireNonNull(value, "value");
        }
    }

    /** {@code {"version": value}}. */
    record VersionValue(String value) implements DeviceAttribute {
        /** Requires a value. */
        public VersionValue {
            Objects.requireNonNull(value, "value");
        }
    }
}
