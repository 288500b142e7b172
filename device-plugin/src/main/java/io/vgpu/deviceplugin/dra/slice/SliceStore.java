package io.vgpu.deviceplugin.dra.slice;

import io.vgpu.state.codec.Decoded;
import io.vgpu.state.dra.SliceObject;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * The API-server operations on this driver's ResourceSlices ({@code resource.k8s.io/v1}). Every call is a
 * live request with a timeout; none blocks the caller. A stage fails with {@link Conflict} when the
 * object changed or exists already (409), {@link Gone} when it does not exist (404), else with the
 * client's error.
 */
public interface SliceStore {

    /** LIST the slices of driver {@code gpu.vgpu.io} on {@code node} (field selectors, checked again here). */
    CompletionStage<List<Stored>> list(String node);

    /** CREATE; answers the object as stored (what the API server kept of it). */
    CompletionStage<SliceObject> create(SliceObject slice);

    /** UPDATE (PUT, guarded by the slice's resourceVersion); answers the object as stored. */
    CompletionStage<SliceObject> update(SliceObject slice);

    /** DELETE by name; a slice that is gone already is not an error. */
    CompletionStage<Void> delete(String name);

    /**
     * Watches the slices of this driver on {@code node} (an informer: re-lists after a broken watch);
     * {@code events} runs on an informer thread (hand off quickly). The handle stops it.
     */
    AutoCloseable watch(String node, Consumer<Event> events);

    /**
     * A slice as listed.
     *
     * @param name            {@code metadata.name}
     * @param resourceVersion {@code metadata.resourceVersion}
     * @param object          the slice, or why it could not be read
     */
    record Stored(String name, String resourceVersion, Decoded<SliceObject> object) {

        /** Requires all parts. */
        public Stored {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(resourceVersion, "resourceVersion");
            Objects.requireNonNull(object, "object");
        }
    }

    /**
     * A change of one slice.
     *
     * @param deleted         it is gone
     * @param name            its name
     * @param resourceVersion the version of the change ("" for a deletion)
     */
    record Event(boolean deleted, String name, String resourceVersion) {
    }

    /** The object changed since it was read, or exists already (HTTP 409). */
    final class Conflict extends RuntimeException {
        /** With the API's message. */
        public Conflict(String message) {
            super(message);
        }
    }

    /** The object does not exist (HTTP 404). */
    final class Gone extends RuntimeException {
        /** With the API's message. */
        public Gone(String message) {
            super(message);
        }
    }
}
