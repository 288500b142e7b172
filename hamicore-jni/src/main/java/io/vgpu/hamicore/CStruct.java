package io.vgpu.hamicore;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A C struct laid out by the System V rules gcc applies (natural alignment, no packing): each
 * field starts at the next multiple of its alignment, and sizeof is rounded up to the struct's
 * alignment. The offsets are computed here, not typed in, and the conformance suite checks them
 * against the numbers gcc printed ({@code hamicore-layout.json}).
 *
 * @param name    the C struct name
 * @param sizeof  total size in bytes
 * @param alignof alignment in bytes
 * @param fields  the fields in declaration order
 */
record CStruct(String name, int sizeof, int alignof, List<Field> fields) {

    CStruct {
        fields = List.copyOf(fields);
    }

    /**
     * One field.
     *
     * @param name   the C field name
     * @param offset byte offset from the start of the struct
     * @param type   the field's C type
     */
    record Field(String name, int offset, CType type) {
        int size() {
            return type.size();
        }

        /** Element count of an array field, 0 for a scalar. */
        int count() {
            return type.count();
        }

        /** Element size of an array field, 0 for a scalar. */
        int stride() {
            return type.isArray() ? type.element().size() : 0;
        }
    }

    static Builder named(String name) {
        return new Builder(name);
    }

    Optional<Field> find(String fieldName) {
        return fields.stream().filter(f -> f.name().equals(fieldName)).findFirst();
    }

    /** The field's offset; an unknown name is a programming error in the layout tables. */
    int offsetOf(String fieldName) {
        return find(fieldName)
                .orElseThrow(() -> new IllegalArgumentException(name + " has no field " + fieldName))
                .offset();
    }

    boolean has(String fieldName) {
        return find(fieldName).isPresent();
    }

    /** This struct used as a field type. */
    CType type() {
        return CType.struct(name, sizeof, alignof);
    }

    /** Declares fields in order, placing each at its natural alignment. */
    static final class Builder {
        private final String name;
        private final List<Field> fields = new ArrayList<>();
        private int end;
        private int align = 1;

        private Builder(String name) {
            this.name = name;
        }

        Builder field(String fieldName, CType type) {
            int offset = roundUp(end, type.align());
            fields.add(new Field(fieldName, offset, type));
            end = offset + type.size();
            align = Math.max(align, type.align());
            return this;
        }

        CStruct build() {
            return new CStruct(name, roundUp(end, align), align, fields);
        }

        private static int roundUp(int value, int alignment) {
            return (value + alignment - 1) / alignment * alignment;
        }
    }
}
