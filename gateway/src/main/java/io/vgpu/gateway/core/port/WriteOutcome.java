package io.vgpu.gateway.core.port;

/**
 * The result of one write to the Kubernetes API, as an outcome value (failures are expected and the caller
 * must decide: roll back a reservation, release a lock, answer {@code Error}).
 *
 * <pre>
 *  Written      2xx
 *  Refused      the API server answered with an error status (404 gone, 409 conflict, 422 invalid, 5xx ...)
 *  Unreachable  no answer: timeout, connection failure, client rate limit or in-flight bound exceeded
 * </pre>
 */
public sealed interface WriteOutcome permits WriteOutcome.Written, WriteOutcome.Refused, WriteOutcome.Unreachable {

    /** True for {@link Written}. */
    boolean ok();

    /** "" for {@link Written}, else the error text (the API server's Status message when it sent one). */
    String message();

    /** The write was applied. */
    record Written() implements WriteOutcome {

        @Override
        public boolean ok() {
            return true;
        }

        @Override
        public String message() {
            return "";
        }
    }

    /**
     * The API server refused the write.
     *
     * @param status  the HTTP status code
     * @param message the Status message, e.g. {@code pods "p" not found}
     */
    record Refused(int status, String message) implements WriteOutcome {

        @Override
        public boolean ok() {
            return false;
        }

        /** 404: the object does not exist (any more). */
        public boolean notFound() {
            return status == 404;
        }

        /** 409: a concurrent writer won or a precondition failed. */
        public boolean conflict() {
            return status == 409;
        }
    }

    /**
     * No answer from the API server; the write may or may not have been applied.
     *
     * @param message what happened, e.g. {@code PATCH /api/v1/... timed out after 5s}
     */
    record Unreachable(String message) implements WriteOutcome {

        @Override
        public boolean ok() {
            return false;
        }
    }
}
