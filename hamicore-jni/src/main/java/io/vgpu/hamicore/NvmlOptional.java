package io.vgpu.hamicore;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;

/**
 * The one rule for facts an older driver may not know, shared by {@link NativeNvml} and
 * {@link FakeNvml} so that both answer the same: a call that fails with
 * {@link NvmlException#unsupported()} (NOT_SUPPORTED, or the loaded NVML lacks the function) is an
 * empty answer; every other failure propagates.
 */
final class NvmlOptional {

    private NvmlOptional() {
    }

    static <T> Optional<T> unlessUnsupported(Supplier<Optional<T>> call) {
        try {
            return call.get();
        } catch (NvmlException e) {
            if (e.unsupported()) {
                return Optional.empty();
            }
            throw e;
        }
    }

    static OptionalInt unlessUnsupportedInt(Supplier<OptionalInt> call) {
        Optional<Integer> boxed = unlessUnsupported(() -> {
            OptionalInt value = call.get();
            return value.isPresent() ? Optional.of(value.getAsInt()) : Optional.empty();
        });
        return boxed.map(OptionalInt::of).orElseGet(OptionalInt::empty);
    }
}
