package io.vgpu.gateway.extender;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * kube-scheduler's {@code ExtenderBindingResult}: {@code {"Error":""}} on success, the message otherwise
 * (always HTTP 200, spec §2.3).
 *
 * @param error "" on success
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record ExtenderBindingResult(@JsonProperty("Error") String error) {

    /** The success answer. */
    public static final ExtenderBindingResult OK = new ExtenderBindingResult("");

    /** A failure answer. */
    public static ExtenderBindingResult failed(String message) {
        return new ExtenderBindingResult(message == null || message.isEmpty() ? "bind failed" : message);
    }

    /** True when the bind succeeded. */
    public boolean ok() {
        return error.isEmpty();
    }
}
