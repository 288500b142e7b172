package io.vgpu.simulate.dra.cel;

/**
 * A selector that cannot be compiled or evaluated: malformed, too long, not boolean, a missing attribute
 * or capacity, a bad argument, or the cost limit. kube-scheduler turns such an error into a failed
 * scheduling attempt for the pod (not a "does not fit"), and so does the stand-in allocator. The message
 * names the expression's problem; callers prefix which class or claim selector it was.
 */
public final class SelectorException extends Exception {

    private static final long serialVersionUID = 1L;

    /** An error with this message. */
    public SelectorException(String message) {
        super(message);
    }

    /** An error with this message, caused by {@code cause}. */
    public SelectorException(String message, Throwable cause) {
        super(message, cause);
    }
}
