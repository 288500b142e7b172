package io.vgpu.gateway.kube;

import io.vgpu.gateway.core.port.WriteOutcome;

/**
 * One answered (or unanswered) API call. Never an exception: transport failures, timeouts and overload have
 * {@code status == 0} and an {@code error} text.
 *
 * @param method HTTP method
 * @param path   request path
 * @param status HTTP status, or 0 when no answer came
 * @param body   response body ("" when none)
 * @param error  the API server's Status message for an error status, or what went wrong without an answer;
 *               "" on success
 */
record ApiResponse(String method, String path, int status, String body, String error) {

    /** A call that got no answer. */
    static ApiResponse unanswered(String method, String path, String error) {
        return new ApiResponse(method, path, 0, "", error);
    }

    /** 2xx. */
    boolean ok() {
        return status >= 200 && status < 300;
    }

    /** 404. */
    boolean notFound() {
        return status == 404;
    }

    /** 409. */
    boolean conflict() {
        return status == 409;
    }

    /** The outcome of a write. */
    WriteOutcome toWrite() {
        if (ok()) {
            return new WriteOutcome.Written();
        }
        return status == 0 ? new WriteOutcome.Unreachable(error) : new WriteOutcome.Refused(status, error);
    }
}
