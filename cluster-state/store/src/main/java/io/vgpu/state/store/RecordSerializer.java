package io.vgpu.state.store;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;

import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * An explicit Compact serializer written as two functions, so that every stored or transmitted type has a schema
 * chosen here (field names are the schema: renaming one is an incompatible change; adding one is compatible when
 * the reader checks {@link CompactReader#getFieldKind} first).
 *
 * @param type     the class serialized
 * @param typeName the stable Compact type name ({@code vgpu.<Name>})
 * @param writer   writes the fields
 * @param reader   reads them back
 * @param <T>      the class serialized
 */
record RecordSerializer<T>(Class<T> type, String typeName, BiConsumer<CompactWriter, T> writer,
                           Function<CompactReader, T> reader) implements CompactSerializer<T> {

    RecordSerializer {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(typeName, "typeName");
    }

    static <T> RecordSerializer<T> of(Class<T> type, String typeName, BiConsumer<CompactWriter, T> writer,
                                      Function<CompactReader, T> reader) {
        return new RecordSerializer<>(type, typeName, writer, reader);
    }

    /** A serializer for a record without components: nothing is written and one value is read back. */
    static <T> RecordSerializer<T> marker(Class<T> type, String typeName, T value) {
        return new RecordSerializer<>(type, typeName, (w, v) -> { }, r -> value);
    }

    @Override
    public T read(CompactReader in) {
        return reader.apply(in);
    }

    @Override
    public void write(CompactWriter out, T value) {
        writer.accept(out, value);
    }

    @Override
    public String getTypeName() {
        return typeName;
    }

    @Override
    public Class<T> getCompactClass() {
        return type;
    }
}
